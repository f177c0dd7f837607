//! Helpers shared by the fuzz targets: the positions the move parsers are fuzzed in, taken
//! from the engine's perft suites so they cover checks, pins, promotions and castling.

use std::sync::OnceLock;

/// The FENs of an EPD suite (the text before the first `;` of each non-comment line).
fn suite_fens(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split(';').next().unwrap_or("").trim().to_string())
        .collect()
}

/// Legal xiangqi positions (the suite's FENs, all valid).
pub fn xiangqi_positions() -> &'static [chuhan_engine::Position] {
    static POSITIONS: OnceLock<Vec<chuhan_engine::Position>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        suite_fens(include_str!("../../crates/engine/tests/data/xiangqi.epd"))
            .iter()
            .map(|f| chuhan_engine::Position::from_fen(f).expect("suite FEN is valid"))
            .collect()
    })
}

/// Legal chess positions (the suite's FENs, all valid).
pub fn chess_positions() -> &'static [chuhan_engine::chess::Position] {
    static POSITIONS: OnceLock<Vec<chuhan_engine::chess::Position>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        suite_fens(include_str!("../../crates/engine/tests/data/chess.epd"))
            .iter()
            .map(|f| chuhan_engine::chess::Position::from_fen(f).expect("suite FEN is valid"))
            .collect()
    })
}

/// Splits a fuzz input into a position index (its first byte) and the rest as text (lossy,
/// so that every input reaches the parser).
pub fn pick<T: Clone>(data: &[u8], items: &[T]) -> (T, String) {
    let (first, rest) = data.split_first().map_or((0, &[][..]), |(f, r)| (*f, r));
    let item = items[usize::from(first) % items.len()].clone();
    (item, String::from_utf8_lossy(rest).into_owned())
}

/// The built-in levels (`configs/levels.toml`), parsed once.
pub fn levels() -> &'static [chuhan_engine::Level] {
    static LEVELS: OnceLock<Vec<chuhan_engine::Level>> = OnceLock::new();
    LEVELS.get_or_init(chuhan_arena::play::config::builtin_levels)
}

/// A scratch folder of this process for targets that read files (the results readers take a
/// folder): `chuhan-fuzz-<target>-<pid>` in `/dev/shm` where there is one (a disk-backed
/// temporary folder is several times slower per input), else in the temporary folder; created
/// once and reused by every input. Folders of earlier processes of the same target that are no
/// longer running are removed first, so runs do not pile them up.
pub fn scratch_dir(target: &str) -> std::path::PathBuf {
    static DIR: OnceLock<std::path::PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let shm = std::path::Path::new("/dev/shm");
        let root = if shm.is_dir() {
            shm.to_path_buf()
        } else {
            std::env::temp_dir()
        };
        let prefix = format!("chuhan-fuzz-{target}-");
        for entry in std::fs::read_dir(&root).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(pid) = name.strip_prefix(&prefix) else {
                continue;
            };
            if pid.parse::<u32>().is_ok() && !std::path::Path::new("/proc").join(pid).exists() {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
        let dir = root.join(format!("{prefix}{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        dir
    })
    .clone()
}

/// A real run to check games.csv against: its schedule, openings and player names, and the
/// scratch folder holding its manifest.
pub struct MatchRun {
    /// The scratch folder (manifest.toml of the run; games.csv is the input).
    pub dir: std::path::PathBuf,
    /// The run's schedule.
    pub schedule: chuhan_arena::play::schedule::Schedule,
    /// The run's openings.
    pub openings: chuhan_arena::play::openings::OpeningBook,
    /// The players' names in order.
    pub names: Vec<String>,
}

/// Calls `f` with the match run of `crates/cli/tests/data/runs/match` (its manifest; planned
/// once per process, as `--resume` plans it).
pub fn with_match_run<R>(f: impl FnOnce(&MatchRun) -> R) -> R {
    thread_local! {
        static RUN: MatchRun = {
            let text = include_str!("../../crates/cli/tests/data/runs/match/manifest.toml");
            let dir = scratch_dir("results_csv");
            std::fs::write(dir.join("manifest.toml"), text).expect("scratch folder");
            let manifest = chuhan_arena::play::results::ResultsDir::read_manifest(&dir)
                .expect("the test run's manifest reads");
            let config = manifest.config;
            let pairings = chuhan_arena::play::schedule::round_robin(config.players.len(), config.pairs);
            let plan = chuhan_arena::play::setup::plan_from_config(&config, pairings, Some(1))
                .expect("the test run plans");
            MatchRun {
                dir,
                names: plan.entrants.iter().map(|e| e.name.clone()).collect(),
                schedule: plan.schedule,
                openings: plan.openings,
            }
        };
    }
    RUN.with(f)
}
