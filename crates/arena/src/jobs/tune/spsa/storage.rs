//! What a tuning run keeps on disk: the manifest (its configuration), spsa.csv (theta per
//! iteration, resumable) and tuned.toml (an engine config with the tuned values).

use super::driver::IterationRow;
use super::gains::{Gains, Spsa};
use super::parameters::{
    chess_params_from_names, not_chess_reason, option_name, option_params_from_names,
    params_from_names, SpsaParam,
};
use super::{io_error, SpsaError};
use crate::play::any::GameKind;
use crate::play::config::{builtin_levels, resolve_engine};
use crate::play::limits::LimitSpec;
use crate::play::openings::{fnv1a_hex, OpeningSource};
use crate::play::player::builtin::resolve_chess_engine;
use crate::play::player::uci::{load_external, parse_external, ExternalEngine};
use crate::play::results::{as_text, default_out_dir, FolderLock, Manifest};
use crate::play::setup::{lock_existing, lock_new, Destination};
use chuhan_engine::chess::{ChessConfig, EvalParams};
use chuhan_engine::{params, EngineConfig, RuleSet};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::Path;

/// Everything that determines a tuning run (stored in manifest.toml).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaConfig {
    /// Always `tune spsa`.
    pub command: String,
    /// Run seed (written as a string: TOML integers are signed 64-bit).
    #[serde(with = "as_text")]
    pub seed: u64,
    /// `N`.
    pub iterations: u64,
    /// Game pairs per iteration.
    pub pairs_per_iteration: u64,
    /// Evaluation lag in iterations (see the module docs).
    pub lag: u64,
    /// The base engine spec (`default`, a level, or an engine file).
    pub base: String,
    /// FNV-1a of the base engine file, when the base is a file.
    pub base_hash: Option<String>,
    /// Repetition rules (`asian` or `check-only` in the manifest).
    #[serde(with = "as_text")]
    pub rules: RuleSet,
    /// The judge's move limit.
    pub move_limit: u16,
    /// Draw games that reach this many plies.
    pub ply_cap: Option<u32>,
    /// `A`.
    pub big_a: f64,
    /// `alpha`.
    pub alpha: f64,
    /// `gamma`.
    pub gamma: f64,
    /// Per-move limit (nodes or depth).
    pub limit: LimitSpec,
    /// The game played (`game = "chess"`; not written for xiangqi, so earlier manifests read
    /// back unchanged).
    #[serde(default, skip_serializing_if = "GameKind::is_xiangqi")]
    pub game: GameKind,
    /// Opening source.
    pub openings: OpeningSource,
    /// The tuned parameters.
    pub params: Vec<SpsaParam>,
    /// Notation of games.pgn (`iccs`, `wxf`, `chinese`) when the run writes one
    /// (`--pgn`); absent: no games.pgn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pgn: Option<String>,
}

/// `manifest.toml` of a tuning run.
pub type SpsaManifest = Manifest<SpsaConfig>;

impl SpsaConfig {
    /// The SPSA settings of this configuration.
    pub fn spsa(&self) -> Spsa {
        Spsa {
            params: self.params.clone(),
            gains: Gains {
                iterations: self.iterations,
                big_a: self.big_a,
                alpha: self.alpha,
                gamma: self.gamma,
            },
            pairs_per_iteration: self.pairs_per_iteration,
            lag: self.lag,
            seed: self.seed,
        }
    }
}

/// The base engine of a tuning run: the built-in engine (table parameters) or an external
/// engine file (its options, `option:NAME`).
#[derive(Clone, Debug, PartialEq)]
pub enum SpsaBase {
    /// The in-process engine with this configuration.
    Engine(EngineConfig),
    /// An external UCI or UCCI engine, and the text of its file.
    External(ExternalEngine, String),
    /// The in-process chess engine with this configuration (its evaluation table's names).
    Chess(ChessConfig),
}

impl SpsaBase {
    /// Parameters from a `--params` list: table names for the built-in engine (start from
    /// the base, range from the table), `option:NAME` spins for an external engine (start from
    /// the file's value of the option, else the engine's default; range from its declaration;
    /// the engine is started once to ask). `c_end = (max - min) / 20`, `r_end = 0.002`.
    pub fn params_from_names(&self, list: &str) -> Result<Vec<SpsaParam>, SpsaError> {
        match self {
            SpsaBase::Engine(c) => Ok(params_from_names(list, &c.params)?),
            SpsaBase::Chess(c) => Ok(chess_params_from_names(list, &c.params)?),
            SpsaBase::External(engine, _) => {
                let declared = engine.declared_options()?;
                Ok(option_params_from_names(list, &declared, &engine.options)?)
            }
        }
    }

    /// Checks that every parameter suits this base: table names for the built-in engine,
    /// `option:NAME` for an external one, naming an option the engine declares (the engine is
    /// started once to ask).
    pub fn check_params(&self, params: &[SpsaParam]) -> Result<(), SpsaError> {
        match self {
            SpsaBase::Engine(c) => {
                if let Some(p) = params.iter().find(|p| option_name(&p.name).is_some()) {
                    return Err(SpsaError::OptionOnBuiltin {
                        name: p.name.clone(),
                    });
                }
                let names = params.iter().map(|p| p.name.as_str());
                if let Some(name) = crate::play::config::param_without_effect(c, names) {
                    return Err(SpsaError::ParamUnderNetwork {
                        name: name.to_string(),
                        base: c.name.clone(),
                    });
                }
                if c.network
                    .as_ref()
                    .is_some_and(|n| **n != *chuhan_engine::eval::nnue::embedded())
                {
                    return Err(SpsaError::OwnNetwork {
                        base: c.name.clone(),
                    });
                }
            }
            SpsaBase::Chess(_) => {
                for p in params {
                    if option_name(&p.name).is_some() {
                        return Err(SpsaError::OptionOnBuiltin {
                            name: p.name.clone(),
                        });
                    }
                    if !EvalParams::NAMES.contains(&p.name.as_str()) {
                        return Err(SpsaError::NotChess(not_chess_reason(&p.name)));
                    }
                }
            }
            SpsaBase::External(engine, _) => {
                if let Some(p) = params.iter().find(|p| option_name(&p.name).is_none()) {
                    return Err(SpsaError::TableOnExternal {
                        name: p.name.clone(),
                        file: engine.source.clone(),
                    });
                }
                let declared = engine.declared_options()?;
                for p in params {
                    let name = option_name(&p.name).unwrap_or_default();
                    if !declared.iter().any(|d| d.name.eq_ignore_ascii_case(name)) {
                        let names: Vec<&str> = declared.iter().map(|d| d.name.as_str()).collect();
                        return Err(SpsaError::Undeclared {
                            name: p.name.clone(),
                            engine: engine.name.clone(),
                            file: engine.source.clone(),
                            option: name.to_string(),
                            declared: names.join(", "),
                        });
                    }
                }
            }
        }
        Ok(())
    }
}

/// The base engine of a spec (as `--player` takes it, overrides included, or an external engine
/// file), and the hash of its engine file if it names one.
pub fn resolve_base(spec: &str) -> Result<(SpsaBase, Option<String>), SpsaError> {
    resolve_base_for(spec, GameKind::Xiangqi)
}

/// [`resolve_base`] for a run of `game`: for chess, an external engine file or a chess
/// built-in (`default`, a chess level, a chess engine file, with `:key=value` overrides).
pub fn resolve_base_for(
    spec: &str,
    game: GameKind,
) -> Result<(SpsaBase, Option<String>), SpsaError> {
    let file = Path::new(spec.trim());
    let external = load_external(file).map_err(|source| SpsaError::BaseExternal {
        spec: spec.to_string(),
        source,
    })?;
    if let Some(engine) = external {
        let text = std::fs::read_to_string(file).map_err(io_error("read", file))?;
        let hash = fnv1a_hex(text.as_bytes());
        return Ok((SpsaBase::External(engine, text), Some(hash)));
    }
    let base =
        match game {
            GameKind::Xiangqi => {
                SpsaBase::Engine(resolve_engine(spec, &builtin_levels()).map_err(|source| {
                    SpsaError::Base {
                        spec: spec.to_string(),
                        source,
                    }
                })?)
            }
            GameKind::Chess => SpsaBase::Chess(resolve_chess_engine(spec).map_err(|reason| {
                SpsaError::ChessBase {
                    spec: spec.to_string(),
                    reason,
                }
            })?),
        };
    // An engine file (possibly followed by `:key=value` overrides) is fingerprinted so that a
    // resumed run notices a changed file.
    let path = Path::new(spec.split_once(':').map_or(spec, |(file, _)| file.trim()));
    let hash = if path.is_file() {
        Some(fnv1a_hex(
            &std::fs::read(path).map_err(io_error("read", path))?,
        ))
    } else {
        None
    };
    Ok((base, hash))
}

/// Picks the configuration: from the command line (`from_args`), or from the manifest of the
/// run in `resume` (which must then equal any configuration the command line gives). A new run
/// writes to `out` (absent or empty) or `results/<date>-spsa/`. The folder is locked for this
/// process first (hold the lock for the run). `from_args` carries the caller's own error type
/// (the command line's), returned as is.
pub fn choose_config<E: From<SpsaError>>(
    from_args: Option<Result<SpsaConfig, E>>,
    resume: Option<&Path>,
    out: Option<&Path>,
) -> Result<(SpsaConfig, Destination, FolderLock), E> {
    match resume {
        Some(dir) => {
            let lock = lock_existing(dir).map_err(SpsaError::from)?;
            let mpath = dir.join("manifest.toml");
            let text = std::fs::read_to_string(&mpath).map_err(|source| SpsaError::ResumeRead {
                path: mpath.clone(),
                source,
            })?;
            let manifest: SpsaManifest =
                toml::from_str(&text).map_err(|e| SpsaError::ResumeManifest {
                    path: mpath.clone(),
                    error: Box::new(e),
                })?;
            if let Some(from_args) = from_args {
                if from_args? != manifest.config {
                    return Err(SpsaError::ConfigDiffers(dir.to_path_buf()).into());
                }
            }
            Ok((
                manifest.config,
                Destination::Resume(dir.to_path_buf()),
                lock,
            ))
        }
        None => {
            let config = from_args.ok_or(SpsaError::NoParams)??;
            let dir = match out {
                Some(d) => d.to_path_buf(),
                None => default_out_dir("spsa"),
            };
            let lock = lock_new(&dir).map_err(SpsaError::from)?;
            Ok((config, Destination::New(dir), lock))
        }
    }
}

/// The spsa.csv header for these parameters.
pub fn csv_header(params: &[SpsaParam]) -> String {
    let mut h = String::from("iteration,c_k/c_end,R_k/r_end,W,D,L");
    for p in params {
        h.push(',');
        h.push_str(&p.name);
    }
    h
}

/// One spsa.csv line (without the newline). Floats use the shortest text that reads back
/// exactly, so a resumed run continues from the very same theta.
pub fn csv_line(row: &IterationRow) -> String {
    let mut s = format!(
        "{},{},{},{},{},{}",
        row.iteration, row.c_scale, row.r_scale, row.wins, row.draws, row.losses
    );
    for t in &row.theta {
        let _ = write!(s, ",{t}");
    }
    s
}

/// Reads spsa.csv of a run being resumed: the header must match, iterations must run 1, 2, ...
/// and every theta must lie in its range. A truncated last line (no newline) is ignored.
/// Returns the history (start first) and the byte length of the complete lines.
pub fn read_csv(path: &Path, spsa: &Spsa) -> Result<(Vec<Vec<f64>>, u64), SpsaError> {
    let bytes = std::fs::read(path).map_err(io_error("read", path))?;
    let complete = match bytes.iter().rposition(|&b| b == b'\n') {
        Some(end) => &bytes[..=end],
        None => &bytes[..0],
    };
    let text = std::str::from_utf8(complete).map_err(|error| SpsaError::NotUtf8 {
        path: path.to_path_buf(),
        error,
    })?;
    let mut lines = text.lines();
    let header = csv_header(&spsa.params);
    if lines.next() != Some(header.as_str()) {
        return Err(SpsaError::Header {
            path: path.to_path_buf(),
            header,
        });
    }
    let mut history = vec![spsa.start()];
    for (i, line) in lines.enumerate() {
        let lineno = i + 2;
        let bad = |reason: String| SpsaError::Row {
            path: path.to_path_buf(),
            line: lineno,
            reason,
        };
        let cells: Vec<&str> = line.split(',').collect();
        if cells.len() != 6 + spsa.params.len() {
            return Err(bad(format!(
                "expected {} fields, found {}",
                6 + spsa.params.len(),
                cells.len()
            )));
        }
        let k: u64 = cells[0]
            .parse()
            .map_err(|_| bad(format!("iteration '{}' is not a whole number", cells[0])))?;
        if k != history.len() as u64 {
            return Err(bad(format!(
                "iteration {k} where {} was expected",
                history.len()
            )));
        }
        if k > spsa.gains.iterations {
            return Err(bad(format!(
                "iteration {k} is beyond the run's {} iterations",
                spsa.gains.iterations
            )));
        }
        let mut theta = Vec::with_capacity(spsa.params.len());
        for (p, cell) in spsa.params.iter().zip(&cells[6..]) {
            let v: f64 = cell
                .parse()
                .map_err(|_| bad(format!("{}: '{cell}' is not a number", p.name)))?;
            if !(p.min..=p.max).contains(&v) {
                return Err(bad(format!(
                    "{}: {v} is outside [{}, {}]",
                    p.name, p.min, p.max
                )));
            }
            theta.push(v);
        }
        history.push(theta);
    }
    Ok((history, complete.len() as u64))
}

/// Writes `tuned.toml`: the base engine's settings with the final theta, rounded.
pub fn tuned_toml(base: &EngineConfig, spsa: &Spsa, theta: &[f64], comment: &str) -> String {
    let mut params = base.params.clone();
    for (p, &t) in spsa.params.iter().zip(theta) {
        let i = params::index_of(&p.name).expect("validated name");
        params.set_clamped(i, t.clamp(p.min, p.max).round() as i32);
    }
    let mut s = String::new();
    for line in comment.lines() {
        let _ = writeln!(s, "# {line}");
    }
    let _ = writeln!(s, "name = \"spsa-tuned\"");
    if base.network.is_none() {
        let _ = writeln!(s, "evaluation = \"handcrafted\"");
    }
    let _ = writeln!(s, "tt_mb = {}", base.options.tt_mb);
    let builtin = builtin_levels();
    if let Some(level) = &base.level {
        if builtin.contains(level) {
            let _ = writeln!(s, "level = \"{}\"", level.name);
        }
    }
    let o = &base.options;
    let _ = writeln!(
        s,
        "\n[search]\nnull_move = {}\nlmr = {}\ncheck_extension = {}\nfutility = {}",
        o.null_move, o.lmr, o.check_extension, o.futility
    );
    if let Some(level) = base.level.as_ref().filter(|l| !builtin.contains(l)) {
        let _ = writeln!(s, "\n[level]");
        let opt = |s: &mut String, k: &str, v: Option<String>| {
            if let Some(v) = v {
                let _ = writeln!(s, "{k} = {v}");
            }
        };
        opt(&mut s, "depth", level.depth.map(|v| v.to_string()));
        opt(&mut s, "nodes", level.nodes.map(|v| v.to_string()));
        opt(
            &mut s,
            "time_ms",
            level.time.map(|t| t.as_millis().max(1).to_string()),
        );
        let _ = writeln!(s, "margin = {}", level.margin);
        let _ = writeln!(s, "random_rate = {:?}", level.random_rate);
        let _ = writeln!(s, "opening_plies = {}", level.opening_plies);
        opt(
            &mut s,
            "opening_depth",
            level.opening_depth.map(|v| v.to_string()),
        );
        let _ = writeln!(s, "opening_margin = {}", level.opening_margin);
    }
    // Every tuned parameter (even one back at its default) and every other base override.
    let _ = writeln!(s, "\n[params]");
    for (i, def) in params::table().iter().enumerate() {
        let tuned = spsa.params.iter().any(|p| p.name == def.name);
        if tuned || params.get(i) != def.default {
            let _ = writeln!(s, "\"{}\" = {}", def.name, params.get(i));
        }
    }
    s
}

/// Writes `tuned.toml` for a chess base: a chess engine file (`game = "chess"`) with the
/// base's name-independent settings, its level when it is a built-in chess level, and every
/// evaluation parameter under `[params]`, the tuned ones at the final theta, rounded.
pub fn tuned_chess_toml(base: &ChessConfig, spsa: &Spsa, theta: &[f64], comment: &str) -> String {
    let mut params = base.params.clone();
    for (p, &t) in spsa.params.iter().zip(theta) {
        params.set(&p.name, t.clamp(p.min, p.max).round() as i32);
    }
    let mut s = String::new();
    for line in comment.lines() {
        let _ = writeln!(s, "# {line}");
    }
    let _ = writeln!(s, "game = \"chess\"");
    let _ = writeln!(s, "name = \"spsa-tuned\"");
    let _ = writeln!(s, "tt_mb = {}", base.tt_mb);
    if let Some(level) = &base.level {
        let builtin = chuhan_engine::chess::engine::levels()
            .into_iter()
            .find(|l| {
                l.name == level.name
                    && chuhan_engine::Level {
                        time: None,
                        ..l.clone()
                    } == *level
            });
        match builtin {
            Some(l) => {
                let _ = writeln!(s, "level = \"{}\"", l.name);
            }
            None => {
                let _ = writeln!(
                    s,
                    "# The base's level overrides are not kept here: give them as tuned.toml:key=value."
                );
            }
        }
    }
    let _ = writeln!(s, "\n[params]");
    for name in EvalParams::NAMES {
        let _ = writeln!(s, "{name} = {}", params.get(name).expect("a table name"));
    }
    s
}

/// Writes `tuned.toml` for an external base: its file with `[uci.options]` holding the final
/// theta, rounded, and the command and working folder resolved (the file moves to the run
/// folder). It loads as an engine file (checked).
pub fn tuned_external_toml(
    engine: &ExternalEngine,
    text: &str,
    spsa: &Spsa,
    theta: &[f64],
    comment: &str,
) -> Result<String, SpsaError> {
    let mut table: toml::Table = text.parse().map_err(|e| SpsaError::EngineToml {
        file: engine.source.clone(),
        error: Box::new(e),
    })?;
    table.insert("name".into(), toml::Value::String("spsa-tuned".into()));
    let uci = table
        .get_mut("uci")
        .and_then(toml::Value::as_table_mut)
        .ok_or_else(|| SpsaError::NoUci {
            file: engine.source.clone(),
        })?;
    let keeps_placeholder = uci
        .get("command")
        .and_then(toml::Value::as_str)
        .is_some_and(|c| c.contains(crate::play::player::uci::CHUHAN_PLACEHOLDER));
    if !keeps_placeholder {
        uci.insert(
            "command".into(),
            toml::Value::String(engine.command.display().to_string()),
        );
    }
    if let Some(dir) = &engine.working_dir {
        uci.insert(
            "working_dir".into(),
            toml::Value::String(dir.display().to_string()),
        );
    }
    let options = uci
        .entry("options")
        .or_insert_with(|| toml::Value::Table(toml::Table::new()))
        .as_table_mut()
        .ok_or_else(|| SpsaError::OptionsNotTable {
            file: engine.source.clone(),
        })?;
    for (p, &t) in spsa.params.iter().zip(theta) {
        let name = option_name(&p.name).unwrap_or(&p.name);
        // Replace the option as the file spells it (UCI names ignore case), else add it.
        let key = options
            .keys()
            .find(|k| k.eq_ignore_ascii_case(name))
            .cloned()
            .unwrap_or_else(|| name.to_string());
        options.insert(
            key,
            toml::Value::Integer(t.clamp(p.min, p.max).round() as i64),
        );
    }
    let mut s = String::new();
    for line in comment.lines() {
        let _ = writeln!(s, "# {line}");
    }
    s.push_str(&toml::to_string(&table)?);
    parse_external(&s, "tuned.toml", Path::new("."), "spsa-tuned")
        .map_err(SpsaError::TunedEngine)?;
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::super::drive;
    use super::super::fixtures::*;
    use super::*;
    use crate::play::config::parse_engine_config;

    #[test]
    fn a_base_is_checked_against_what_its_evaluation_reads() {
        let p = |name: &str| param(name, 0.0, -20.0, 40.0, 2.0, 0.002);
        let net = SpsaBase::Engine(EngineConfig::default());
        // The handcrafted evaluation's terms change nothing on the network: refused, naming
        // the parameter and the base; search and material parameters act on it.
        let err = net
            .check_params(&[p("eval.tempo")])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("'eval.tempo'") && err.contains("'chuhan'"),
            "{err}"
        );
        net.check_params(&[p("search.contempt"), p("material.horse")])
            .unwrap();
        SpsaBase::Engine(EngineConfig::handcrafted())
            .check_params(&[p("eval.tempo")])
            .unwrap();
        // A network of the base's own: tuned.toml could not name its file, so refused.
        let own = SpsaBase::Engine(EngineConfig {
            network: Some(std::sync::Arc::new(
                chuhan_engine::eval::nnue::random_network(8, 3),
            )),
            ..EngineConfig::default()
        });
        let err = own
            .check_params(&[p("search.contempt")])
            .unwrap_err()
            .to_string();
        assert!(err.contains("network file of its own"), "{err}");
    }

    #[test]
    fn csv_round_trips_theta_exactly() {
        let (mut s, bowl) = bowl_run();
        s.gains = Gains::new(40);
        let dir = std::env::temp_dir().join(format!("chuhan-spsa-csv-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("spsa.csv");
        let mut text = format!("{}\n", csv_header(&s.params));
        let history = drive(&s, vec![s.start()], &bowl, 2, &mut |r| {
            text.push_str(&csv_line(r));
            text.push('\n');
            Ok(())
        })
        .unwrap();
        // A truncated last line is ignored.
        std::fs::write(&path, format!("{text}41,0.9")).unwrap();
        let (read, len) = read_csv(&path, &s).unwrap();
        assert_eq!(read, history);
        assert_eq!(len, text.len() as u64);
        std::fs::write(&path, text.replace("\n3,", "\n4,")).unwrap();
        let err = read_csv(&path, &s).unwrap_err().to_string();
        assert!(
            err.contains("spsa.csv:4") && err.contains("iteration 4"),
            "{err}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn tuned_toml_loads_with_the_tuned_values() {
        let s = spsa(
            vec![param("material.horse", 490.0, 300.0, 600.0, 15.0, 0.002)],
            10,
            0,
            1,
        );
        let mut base = resolve_engine(
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../configs/engines/mobility.toml"
            ),
            &[],
        )
        .unwrap();
        base.options.lmr = false;
        let levels = builtin_levels();
        base.level = Some(levels[1].clone());
        let text = tuned_toml(&base, &s, &[441.6], "a comment\nsecond line");
        let c = parse_engine_config(&text, "tuned.toml", "x", &levels).unwrap();
        assert_eq!(c.params.value("material.horse"), Ok(442));
        assert_eq!(c.params.value("eval.mobility.horse"), Ok(4));
        assert!(!c.options.lmr);
        assert_eq!(c.level, base.level);
        // A custom level is written out as a table.
        let mut custom = levels[0].clone();
        custom.name = "mine".into();
        custom.margin = 33;
        base.level = Some(custom);
        let text = tuned_toml(&base, &s, &[300.2], "");
        let c = parse_engine_config(&text, "tuned.toml", "x", &levels).unwrap();
        assert_eq!(c.level.as_ref().map(|l| l.margin), Some(33));
        assert_eq!(c.params.value("material.horse"), Ok(300));
    }
}
