//! SPSA, fishtest-compatible, over the engine's parameter table or an external engine's
//! options (`option:NAME`, sent with `setoption`): [`parameters`] (what is tuned,
//! parameter files), [`gains`] (the schedule, perturbations, updates), [`driver`] (the
//! iteration loop and the games), [`storage`] (manifest, spsa.csv, tuned.toml) and [`run`], the
//! job itself.
//!
//! **Algorithm** (docs/tuning.md). `N` iterations; `A = 0.1 N`, `alpha = 0.602`,
//! `gamma = 0.101`; per parameter `c = c_end N^gamma`, `a = r_end c_end^2 (A + N)^alpha`. At
//! iteration `k` (1-based): `c_k = c / k^gamma`, `R_k = a / (A + k)^alpha / c_k^2`; every
//! parameter is flipped by a random `delta_i = ±1`; `theta + c_k delta` plays
//! `theta - c_k delta` in game pairs (one opening, colours swapped), the values rounded
//! stochastically (`floor(x + U[0,1))`) to the engine's integers; then
//! `theta_i <- clip(theta_i + R_k c_k (W - L) delta_i, min_i, max_i)` with W and L counted from
//! the `theta + c_k delta` side. (So `c_N = c_end` and `R_N = r_end`.)
//!
//! **Seeds.** Iteration `k` draws its flips and rounding from its own generator seeded by
//! `splitmix64(splitmix64(seed ^ TAG) ^ k)`; the game with global index `g` (pair
//! `p = (k - 1) P + j` of `P` pairs per iteration, games `2p` and `2p + 1`) gets the arena's
//! `game_seed(seed, g)` and opening `p`. Nothing depends on the order in which games finish.
//!
//! **Parallelism and the lag rule (deterministic).** Iteration `k` is evaluated at
//! `theta^(max(k - 1 - lag, 0))`, where `theta^(j)` is theta after the updates of iterations
//! `1..=j` (`theta^(0)` the start); updates are applied strictly in iteration order, each to the
//! latest theta. With `--lag 0` (the default) this is plain sequential SPSA and only the `2P`
//! games of one iteration run at once; `--lag L` lets up to `L + 1` iterations be in flight,
//! fishtest-style, at the cost of gradients measured `L` updates late. Since every evaluation
//! point, flip, rounding draw, opening and game seed is a function of the seed and `k` alone, the
//! trajectory is the same at any `--concurrency` and after `--resume`.
//!
//! **Output** (the run folder): `manifest.toml`, `spsa.csv` (one row per iteration, flushed as
//! it completes), `spsa.svg` and `tuned.toml` at the end.

pub mod driver;
pub mod gains;
pub mod parameters;
pub mod storage;

pub use driver::{
    drive, ChessGames, EngineGames, GameJob, IterationRow, Openings, OptionGames, PlayGame,
};
pub use gains::{iteration_seed, stochastic_round, Gains, Perturbation, Spsa};
pub use parameters::{
    chess_params_from_names, not_chess_reason, option_name, option_params_from_names,
    params_from_names, parse_param_file, parse_param_file_for, ParamFileError, ParamNamesError,
    SpsaParam, FIELDS, OPTION_PREFIX,
};
pub use storage::{
    choose_config, csv_header, csv_line, read_csv, resolve_base, resolve_base_for,
    tuned_chess_toml, tuned_external_toml, tuned_toml, SpsaBase, SpsaConfig, SpsaManifest,
};

use crate::play::config::{builtin_levels, parse_engine_config, ConfigError};
use crate::play::game::{Adjudication, PlaySettings};
use crate::play::limits::LimitSpec;
use crate::play::openings::OpeningError;
use crate::play::pgn::PgnWriteError;
use crate::play::player::uci::UciError;
use crate::play::results::ResultsError;
use crate::play::setup::{Destination, SetupError};
use crate::report::html::HtmlError;
use crate::report::plots::{spsa_svg, ParamRange, PlotError};
use crate::report::{Audience, Progress, ProgressReporter};
use chuhan_engine::{params, GameConfig, NotationError};
use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Why a tuning run could not start, resume, play or write its files. Messages name the file
/// and line, the flag or the parameter; a TOML parser error is part of the message because it
/// carries the line and column.
#[derive(Debug, thiserror::Error)]
pub enum SpsaError {
    /// A game's thread panicked.
    #[error("game {0} panicked")]
    Panicked(u64),
    /// The openings.
    #[error(transparent)]
    Openings(#[from] OpeningError),
    /// An opening file without a position.
    #[error("opening file {} holds no position", .0.display())]
    EmptyOpenings(PathBuf),
    /// The base engine file's hash differs from the manifest's.
    #[error("the base engine file {0} changed since the run started")]
    BaseChanged(String),
    /// `--concurrency 0`.
    #[error("--concurrency must be at least 1")]
    ZeroConcurrency,
    /// A file or folder of the run cannot be opened, read, written, created or truncated.
    #[error("cannot {action} {}", path.display())]
    Io {
        /// `open`, `read`, `write`, `create` or `truncate`.
        action: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// The manifest of the run being resumed cannot be read.
    #[error("--resume: cannot read {}", path.display())]
    ResumeRead {
        /// manifest.toml.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// The manifest of the run being resumed is not a tuning run's.
    #[error("{}: {error}", path.display())]
    ResumeManifest {
        /// manifest.toml.
        path: PathBuf,
        /// The parser's error (with line and column).
        error: Box<toml::de::Error>,
    },
    /// The manifest read back for games.pgn does not parse.
    #[error("cannot read {}", path.display())]
    Manifest {
        /// manifest.toml.
        path: PathBuf,
        /// The parser's error.
        #[source]
        source: Box<toml::de::Error>,
    },
    /// `--resume` with a command line that differs from the manifest.
    #[error("--resume {}: the command line differs from the run's manifest.toml; resume with the same options, or give only --resume", .0.display())]
    ConfigDiffers(PathBuf),
    /// A new run without parameters.
    #[error("give --params-file FILE or --params name,name")]
    NoParams,
    /// The manifest or tuned.toml could not be written as TOML.
    #[error(transparent)]
    TomlWrite(#[from] toml::ser::Error),
    /// The results folder.
    #[error(transparent)]
    Results(#[from] ResultsError),
    /// Locking the results folder.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The `--pgn` notation.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// games.pgn.
    #[error(transparent)]
    Pgn(#[from] PgnWriteError),
    /// A parameter name the engine does not know.
    #[error("unknown parameter '{0}'")]
    UnknownParam(String),
    /// A parameter that is not in the chess evaluation's table, in a chess run (the reason
    /// names it and lists the chess names).
    #[error("parameter {0}")]
    NotChess(String),
    /// `--base` names no chess engine, in a chess run.
    #[error("--base {spec}: {reason}")]
    ChessBase {
        /// The spec given.
        spec: String,
        /// Why it was refused.
        reason: String,
    },
    /// tuned.toml of a chess base does not load (a bug, not bad input).
    #[error("the tuned chess engine file does not load: {0}")]
    TunedChess(String),
    /// A stop request ([`crate::interrupt`]) ended the run; the completed iterations are kept.
    #[error("the run was interrupted")]
    Interrupted(#[from] crate::interrupt::Interrupted),
    /// The loop ended before its last iteration without an error or a stop request.
    #[error("the SPSA loop ended early")]
    EndedEarly,
    /// The run stopped on an error; the completed iterations are kept.
    #[error("{why}; the iterations completed so far are kept in {}, continue with --resume {}", csv.display(), dir.display())]
    Stopped {
        /// The error and its causes.
        why: String,
        /// spsa.csv.
        csv: PathBuf,
        /// The run folder.
        dir: PathBuf,
    },
    /// spsa.svg.
    #[error(transparent)]
    Plot(#[from] PlotError),
    /// report.html.
    #[error(transparent)]
    Report(#[from] HtmlError),
    /// tuned.toml of a built-in base does not load (a bug, not bad input).
    #[error("the tuned configuration does not load")]
    TunedConfig(#[source] ConfigError),
    /// tuned.toml of an external base does not load (a bug, not bad input).
    #[error("the tuned engine file does not load")]
    TunedEngine(#[source] UciError),
    /// `--base` names no engine.
    #[error("--base {spec}")]
    Base {
        /// The spec given.
        spec: String,
        /// Why it was refused.
        #[source]
        source: ConfigError,
    },
    /// `--base` names an external engine file that is not valid.
    #[error("--base {spec}")]
    BaseExternal {
        /// The spec given.
        spec: String,
        /// Why it was refused.
        #[source]
        source: UciError,
    },
    /// The external base engine does not start.
    #[error(transparent)]
    Engine(#[from] UciError),
    /// A `--params` list.
    #[error(transparent)]
    ParamNames(#[from] ParamNamesError),
    /// An `option:` parameter with the built-in engine as the base.
    #[error("parameter '{name}' is an engine option, but the base is the built-in engine (give --base an external engine file)")]
    OptionOnBuiltin {
        /// The parameter.
        name: String,
    },
    /// A handcrafted-evaluation parameter with a base that evaluates with a network.
    #[error("parameter '{name}' is a term of the handcrafted evaluation, but the base '{base}' evaluates with a network, so tuning it would change nothing: give --base handcrafted (or an engine file with evaluation = \"handcrafted\")")]
    ParamUnderNetwork {
        /// The parameter.
        name: String,
        /// The base spec.
        base: String,
    },
    /// A base that evaluates with a network file of its own: tuned.toml could not name it.
    #[error("the base '{base}' evaluates with a network file of its own, which tuned.toml cannot name yet: tune on the default network or the handcrafted evaluation")]
    OwnNetwork {
        /// The base spec.
        base: String,
    },
    /// A table parameter with an external engine as the base.
    #[error("parameter '{name}' is a built-in table parameter, but the base {file} is an external engine: name its options as option:NAME")]
    TableOnExternal {
        /// The parameter.
        name: String,
        /// The base engine file.
        file: String,
    },
    /// An `option:` parameter the external engine does not declare.
    #[error("parameter '{name}': engine {engine} ({file}) declares no option '{option}' (it declares: {declared})")]
    Undeclared {
        /// The parameter.
        name: String,
        /// The engine's name.
        engine: String,
        /// Its file.
        file: String,
        /// The option asked for.
        option: String,
        /// The options it declares, comma separated.
        declared: String,
    },
    /// spsa.csv is not UTF-8.
    #[error("{}: not UTF-8 text: {error}", path.display())]
    NotUtf8 {
        /// spsa.csv.
        path: PathBuf,
        /// Where the bytes go wrong.
        error: std::str::Utf8Error,
    },
    /// spsa.csv's header is not this run's.
    #[error("{}:1: expected the header '{header}'", path.display())]
    Header {
        /// spsa.csv.
        path: PathBuf,
        /// The header the run writes.
        header: String,
    },
    /// A line of spsa.csv that does not fit the run.
    #[error("{}:{line}: {reason}", path.display())]
    Row {
        /// spsa.csv.
        path: PathBuf,
        /// The line.
        line: usize,
        /// Which field and why.
        reason: String,
    },
    /// The external base's file is not valid TOML.
    #[error("{file}: {error}")]
    EngineToml {
        /// The file.
        file: String,
        /// The parser's error.
        error: Box<toml::de::Error>,
    },
    /// The external base's file has no `[uci]` table.
    #[error("{file}: no [uci] table")]
    NoUci {
        /// The file.
        file: String,
    },
    /// The external base's `[uci.options]` is not a table.
    #[error("{file}: [uci.options] is not a table")]
    OptionsNotTable {
        /// The file.
        file: String,
    },
}

/// An [`SpsaError::Io`] naming `path`.
/// The manifest.toml of the run in `dir`.
fn read_manifest(dir: &Path) -> Result<SpsaManifest, SpsaError> {
    let mpath = dir.join("manifest.toml");
    let text = std::fs::read_to_string(&mpath).map_err(io_error("read", &mpath))?;
    toml::from_str(&text).map_err(|e| SpsaError::Manifest {
        path: mpath,
        source: Box::new(e),
    })
}

pub(crate) fn io_error(
    action: &'static str,
    path: &std::path::Path,
) -> impl FnOnce(std::io::Error) -> SpsaError {
    let path = path.to_path_buf();
    move |source| SpsaError::Io {
        action,
        path,
        source,
    }
}

/// fishtest's `alpha`: the decay exponent of the learning rate.
pub const ALPHA: f64 = 0.602;
/// fishtest's `gamma`: the decay exponent of the perturbation size.
pub const GAMMA: f64 = 0.101;
/// Default `r_end` for `--params`.
pub const DEFAULT_R_END: f64 = 0.002;
/// Default per-move node limit.
pub const DEFAULT_NODES: u64 = 2_000;
/// Default number of iterations.
pub const DEFAULT_ITERATIONS: u64 = 1_000;
/// Mixed into the run seed for the per-iteration generators.
pub(crate) const ITERATION_TAG: u64 = 0x7370_7361_5f69_7465; // "spsa_ite"

/// What a finished tuning run produced.
pub struct SpsaOutcome {
    /// The run's SPSA settings.
    pub spsa: Spsa,
    /// Theta after the last iteration.
    pub theta: Vec<f64>,
    /// Games played in this session.
    pub played: u64,
    /// Wall seconds of this session.
    pub seconds: f64,
    /// Games played at once.
    pub concurrency: usize,
    /// The run folder.
    pub dir: PathBuf,
    /// The `chuhan sprt` command that must confirm the gain.
    pub sprt_command: String,
}

/// Runs (or resumes) the tuning run `config` in `destination` with `concurrency` games at once
/// (all cores when `None`): writes the manifest and spsa.csv as iterations complete, then
/// spsa.svg and tuned.toml. Progress goes to `audience`.
pub fn run(
    config: &SpsaConfig,
    destination: &Destination,
    concurrency: Option<usize>,
    audience: Audience,
) -> Result<SpsaOutcome, SpsaError> {
    let (dir, resumed) = match destination {
        Destination::New(dir) => (dir.clone(), false),
        Destination::Resume(dir) => (dir.clone(), true),
    };
    let spsa = config.spsa();
    let (mut resolved, hash) = resolve_base_for(&config.base, config.game)?;
    if hash != config.base_hash {
        return Err(SpsaError::BaseChanged(config.base.clone()));
    }
    // The base as an SPRT names it: `handcrafted` for an old run resumed on that engine.
    let mut sprt_base = config.base.clone();
    if resumed {
        // A run that tunes the handcrafted evaluation on a built-in base can only have been
        // started before the network became the default (it is refused since): its base
        // meant the handcrafted engine then, and it resumes on that engine.
        if let SpsaBase::Engine(c) = &mut resolved {
            let names = spsa.params.iter().map(|p| p.name.as_str());
            if crate::play::config::param_without_effect(c, names).is_some() && hash.is_none() {
                c.network = None;
                sprt_base = match config.base.split_once(':') {
                    Some(("default", rest)) => format!("handcrafted:{rest}"),
                    None if config.base == "default" => "handcrafted".into(),
                    _ => format!("{} (with evaluation = \"handcrafted\")", config.base),
                };
            }
        }
    }
    resolved.check_params(&spsa.params)?;
    if concurrency == Some(0) {
        return Err(SpsaError::ZeroConcurrency);
    }
    let concurrency = concurrency.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let total_pairs = spsa.gains.iterations * spsa.pairs_per_iteration;
    let openings = Openings::for_game(&config.openings, spsa.seed, total_pairs, config.game)?;
    let reuse_note = openings.reuse_note().map(str::to_owned);
    let settings = PlaySettings {
        kind: config.game,
        chess960: false,
        game: GameConfig {
            rules: config.rules,
            move_limit: config.move_limit,
        },
        limit: config.limit,
        adjudication: Adjudication {
            ply_cap: config.ply_cap,
            ..Adjudication::default()
        },
    };

    // Open the results: a new folder, or the resumed spsa.csv cut back to its complete lines.
    let csv_path = dir.join("spsa.csv");
    let history = if resumed {
        let (history, complete_len) = read_csv(&csv_path, &spsa)?;
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(&csv_path)
            .map_err(io_error("open", &csv_path))?;
        file.set_len(complete_len)
            .map_err(io_error("truncate", &csv_path))?;
        history
    } else {
        std::fs::create_dir_all(&dir).map_err(io_error("create", &dir))?;
        // spsa.csv first, the manifest last and whole: a folder with a manifest is resumable.
        std::fs::write(&csv_path, format!("{}\n", csv_header(&spsa.params)))
            .map_err(io_error("write", &csv_path))?;
        let mut manifest = SpsaManifest::new(config.clone());
        manifest.bench_signature = config.game.bench_signature().to_string();
        let mpath = dir.join("manifest.toml");
        crate::play::results::write_whole(&mpath, &toml::to_string(&manifest)?)?;
        vec![spsa.start()]
    };
    let mut csv = std::fs::OpenOptions::new()
        .append(true)
        .open(&csv_path)
        .map_err(io_error("open", &csv_path))?;

    let already = history.len() as u64 - 1;
    let mut pgn = None;
    if let Some(format) = &config.pgn {
        // Games of the iterations kept stay; those of an unfinished iteration are replayed.
        let notation: chuhan_engine::Notation = format.parse()?;
        let path = dir.join(crate::play::results::GAMES_PGN);
        crate::play::pgn::keep_games_below(&path, already * 2 * spsa.pairs_per_iteration)?;
        let manifest = read_manifest(&dir)?;
        let ctx = crate::play::pgn::PgnContext {
            kind: config.game,
            chess960: false,
            ..crate::play::pgn::PgnContext::of_manifest(
                &manifest,
                "chuhan tune spsa",
                settings.game,
                notation,
            )
        };
        pgn = Some(std::sync::Mutex::new(crate::play::pgn::PgnFile::open(
            &path, ctx,
        )?));
    }
    let games: Box<dyn PlayGame> = match &resolved {
        SpsaBase::Engine(full_base) => {
            let mut base = full_base.clone();
            if let Some(level) = base.level.as_mut() {
                level.time = None;
            }
            let indices: Vec<usize> = spsa
                .params
                .iter()
                .map(|p| {
                    params::index_of(&p.name).ok_or_else(|| SpsaError::UnknownParam(p.name.clone()))
                })
                .collect::<Result<_, SpsaError>>()?;
            Box::new(EngineGames {
                base,
                indices,
                openings,
                settings,
                pgn,
            })
        }
        SpsaBase::External(engine, _) => {
            let names: Vec<String> = spsa.params.iter().map(|p| p.name.clone()).collect();
            let mut games = OptionGames::new(engine.clone(), &names, openings, settings);
            games.pgn = pgn;
            Box::new(games)
        }
        SpsaBase::Chess(base) => Box::new(ChessGames {
            base: base.clone(),
            names: spsa.params.iter().map(|p| p.name.clone()).collect(),
            openings,
            settings,
            pgn,
        }),
    };
    // A run started by another build resumes (its tuned values so far stand), with a warning.
    let build_note = if resumed {
        let manifest = read_manifest(&dir)?;
        crate::play::results::engine_build_note(
            crate::play::results::recorded_signature(&manifest.bench_signature, config.game),
            config.game.bench_signature(),
            [config.base.as_str()],
            matches!(
                config.openings,
                crate::play::openings::OpeningSource::Generated { .. }
            ),
            &dir,
        )
    } else {
        None
    };
    let mut progress = ProgressReporter::new(audience);
    for text in [reuse_note, build_note].into_iter().flatten() {
        progress.on(&Progress::Note { text });
    }
    progress.on(&Progress::Started {
        job: "spsa".into(),
        unit: "iteration".into(),
        total: spsa.gains.iterations,
        done: already,
        workers: concurrency,
        line_per_unit: false,
    });
    let mut wdl = [0u64; 3];
    let start = Instant::now();
    let mut last_report: Option<Instant> = None;
    let mut on_row = |row: &IterationRow| -> Result<(), SpsaError> {
        writeln!(csv, "{}", csv_line(row))
            .and_then(|()| csv.flush())
            .map_err(io_error("write", &csv_path))?;
        if last_report.map_or(true, |t| t.elapsed() >= crate::report::html::LIVE_EVERY) {
            // Best effort while running: the final report below reports a failure.
            let _ = crate::report::html::write_live_report(&dir);
            last_report = Some(Instant::now());
        }
        wdl[0] += row.wins;
        wdl[1] += row.draws;
        wdl[2] += row.losses;
        progress.on(&Progress::Advanced {
            done: row.iteration,
            status: iteration_status(wdl, row, &spsa.params),
        });
        Ok(())
    };
    let outcome = drive(&spsa, history, &*games, concurrency, &mut on_row);
    progress.on(&Progress::Finished);
    let history = outcome.map_err(|e| match e {
        // The binary says how to resume an interrupted run.
        SpsaError::Interrupted(_) => e,
        e => SpsaError::Stopped {
            why: crate::error_chain(&e),
            csv: csv_path.clone(),
            dir: dir.clone(),
        },
    })?;
    let played = 2 * spsa.pairs_per_iteration * (history.len() as u64 - 1 - already);
    let seconds = start.elapsed().as_secs_f64();

    let theta = history.last().expect("non-empty").clone();
    let ranges: Vec<ParamRange> = spsa
        .params
        .iter()
        .map(|p| ParamRange {
            name: p.name.clone(),
            min: p.min,
            max: p.max,
        })
        .collect();
    spsa_svg(&dir.join("spsa.svg"), &ranges, &history)?;
    crate::report::html::write_report(&dir)?;
    let limit_flag = match config.limit {
        LimitSpec::Depth(d) => format!("--depth {d}"),
        LimitSpec::Nodes(n) => format!("--nodes {n}"),
        other => format!("# limit {other}"),
    };
    let tuned_path = dir.join("tuned.toml");
    let game_flag = if config.game.is_xiangqi() {
        String::new()
    } else {
        format!(" --game {}", config.game)
    };
    let sprt = format!(
        "chuhan sprt{game_flag} --base {} --test {} --elo0 0 --elo1 5 {limit_flag}",
        sprt_base,
        tuned_path.display()
    );
    let comment = format!(
        "Made by chuhan tune spsa: {} iterations from base '{}', seed {}.\nAccept only after an SPRT against the start values:\n  {sprt}",
        spsa.gains.iterations, config.base, config.seed
    );
    let text = match &resolved {
        SpsaBase::Engine(full_base) => {
            let text = tuned_toml(full_base, &spsa, &theta, &comment);
            // The file must load as an engine config; a failure here is a bug, not bad input.
            parse_engine_config(&text, "tuned.toml", "spsa-tuned", &builtin_levels())
                .map_err(SpsaError::TunedConfig)?;
            text
        }
        SpsaBase::External(engine, base_text) => {
            tuned_external_toml(engine, base_text, &spsa, &theta, &comment)?
        }
        SpsaBase::Chess(base) => tuned_chess_toml(base, &spsa, &theta, &comment),
    };
    std::fs::write(&tuned_path, text).map_err(io_error("write", &tuned_path))?;
    if let SpsaBase::Chess(_) = &resolved {
        // The file must load as a chess engine file; a failure here is a bug, not bad input.
        crate::play::player::builtin::resolve_chess_engine(&tuned_path.to_string_lossy())
            .map_err(SpsaError::TunedChess)?;
    }

    Ok(SpsaOutcome {
        spsa,
        theta,
        played,
        seconds,
        concurrency,
        dir,
        sprt_command: sprt,
    })
}

/// The status of a run after `row`: W-D-L so far and (up to four) parameters' theta.
fn iteration_status(wdl: [u64; 3], row: &IterationRow, params: &[SpsaParam]) -> String {
    let mut s = format!("W-D-L {}-{}-{}", wdl[0], wdl[1], wdl[2]);
    for (p, t) in params.iter().zip(&row.theta).take(4) {
        let _ = write!(s, "  {}={t:.1}", p.name);
    }
    if params.len() > 4 {
        s.push_str("  ...");
    }
    s
}

/// Test helpers shared by the submodules' tests: parameters, settings and a simulated objective.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    pub fn param(name: &str, start: f64, min: f64, max: f64, c_end: f64, r_end: f64) -> SpsaParam {
        SpsaParam {
            name: name.into(),
            start,
            min,
            max,
            c_end,
            r_end,
        }
    }

    pub fn spsa(params: Vec<SpsaParam>, iterations: u64, lag: u64, seed: u64) -> Spsa {
        Spsa {
            params,
            gains: Gains::new(iterations),
            pairs_per_iteration: 1,
            lag,
            seed,
        }
    }

    /// A simulated objective: a quadratic bowl with its optimum at `optimum`; the side nearer
    /// to it wins more often (logistic in the difference of the objective), draws happen.
    pub struct Bowl {
        pub optimum: Vec<f64>,
        pub scale: Vec<f64>,
    }

    impl Bowl {
        fn value(&self, v: &[i32]) -> f64 {
            v.iter()
                .zip(&self.optimum)
                .zip(&self.scale)
                .map(|((&x, o), s)| -((x as f64 - o) / s).powi(2))
                .sum()
        }
    }

    impl PlayGame for Bowl {
        fn play(&self, job: &GameJob) -> Result<f64, SpsaError> {
            let diff = self.value(&job.plus) - self.value(&job.minus);
            let p_plus = 1.0 / (1.0 + (-2.0 * diff).exp());
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(job.seed);
            if rng.gen::<f64>() < 0.3 {
                return Ok(0.5);
            }
            Ok(if rng.gen::<f64>() < p_plus { 1.0 } else { 0.0 })
        }
    }

    pub fn bowl_run() -> (Spsa, Bowl) {
        let s = spsa(
            vec![
                param("material.horse", 340.0, 300.0, 600.0, 15.0, 0.02),
                param("material.cannon", 560.0, 300.0, 600.0, 15.0, 0.02),
            ],
            2000,
            0,
            3,
        );
        let bowl = Bowl {
            optimum: vec![480.0, 400.0],
            scale: vec![100.0, 100.0],
        };
        (s, bowl)
    }

    pub fn distance(theta: &[f64], optimum: &[f64]) -> f64 {
        theta
            .iter()
            .zip(optimum)
            .map(|(t, o)| (t - o).powi(2))
            .sum::<f64>()
            .sqrt()
    }
}
