//! Helpers shared by the arena's command-line tests.
#![allow(dead_code)]

use std::path::Path;
use std::process::Command;

/// Runs the built `chuhan` binary in `dir` (or the test's working directory) and returns the
/// exit code, stdout and stderr.
pub fn chuhan_in(dir: Option<&Path>, args: &[&str]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_chuhan"));
    cmd.args(args);
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    let out = cmd.output().expect("chuhan runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs the built `chuhan` binary: exit code, stdout, stderr.
pub fn chuhan(args: &[&str]) -> (i32, String, String) {
    chuhan_in(None, args)
}
pub mod uci;

/// Seeded random games written as datagen does: `FEN;result;ply;eval` lines labelled with the
/// game's result (decided by the material left at the end), then a `#game` marker.
pub fn data_text(games: usize, seed: u64) -> String {
    let tables = chuhan_engine::eval::EvalTables::new(&chuhan_engine::Params::default());
    let mut rng = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(seed);
    let mut text = String::from("# texel test data\n");
    for game in 0..games {
        let mut pos = chuhan_engine::Position::startpos();
        let mut lines = Vec::new();
        for ply in 1..=60u32 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make(moves.as_slice()[rand::Rng::gen_range(&mut rng, 0..moves.len())]);
            if ply > 6 {
                // The eval column is from Red's view.
                let stm = tables.evaluate(&pos);
                let red = if pos.side_to_move() == chuhan_engine::Color::Red {
                    stm
                } else {
                    -stm
                };
                lines.push(format!("{};{ply};{red}", pos.to_fen()));
            }
        }
        let stm = tables.evaluate(&pos);
        let red = if pos.side_to_move() == chuhan_engine::Color::Red {
            stm
        } else {
            -stm
        };
        let result = match red {
            r if r > 150 => "1",
            r if r < -150 => "0",
            _ => "0.5",
        };
        let count = lines.len();
        for l in lines {
            let (fen, rest) = l.split_once(';').unwrap();
            text.push_str(&format!("{fen};{result};{rest}\n"));
        }
        text.push_str(&format!("#game {game} {result} {count}\n"));
    }
    text
}

/// A fresh, empty folder `<prefix>-<name>` under cargo's temporary directory for tests.
pub fn scratch(prefix: &str, name: &str) -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{prefix}-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Owned copies of `v`.
pub fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// Runs the built `chuhan` binary to the end: exit code and stderr.
pub fn run(args: &[String]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Data rows of the games.csv at `path`, sorted by game, without the seconds column (the only
/// one that differs between runs); asserts that no game appears twice.
pub fn sorted_games(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut rows: Vec<(u64, String)> = text
        .lines()
        .skip(1)
        .map(|l| {
            let mut f: Vec<&str> = l.split(',').collect();
            f.remove(9);
            (f[1].parse().unwrap(), f.join(","))
        })
        .collect();
    rows.sort();
    let n = rows.len();
    rows.dedup_by_key(|r| r.0);
    assert_eq!(rows.len(), n, "a game written twice in {}", path.display());
    rows.into_iter().map(|(_, r)| r).collect()
}

/// The `tune spsa` command line (without its `--out`) the interruption tests run: two
/// parameters, written into `dir`, tuned for `iterations` at `nodes` per move.
pub fn spsa_run(dir: &Path, iterations: &str, nodes: &str) -> Vec<String> {
    let params = dir.join("params.txt");
    std::fs::write(
        &params,
        "material.horse, 430, 300, 600, 40, 0.05\neval.tempo, 3, -20, 40, 6, 0.05\n",
    )
    .unwrap();
    let mut args = strings(&["tune", "spsa", "--base", "handcrafted", "--params-file"]);
    args.push(params.display().to_string());
    args.extend(strings(&[
        "--iterations",
        iterations,
        "--nodes",
        nodes,
        "--seed",
        "11",
        "--quiet",
        "--concurrency",
        "2",
    ]));
    args
}

/// The `tune texel` command line (seed 3, then `rest`) the interruption tests run, over
/// `games` games of data generated into `dir` first.
pub fn texel_run(dir: &Path, games: &str, rest: &[&str]) -> Vec<String> {
    let data = dir.join("data.txt");
    let (code, err) = run(&strings(&[
        "datagen",
        "--games",
        games,
        "--nodes",
        "300",
        "--max-plies",
        "80",
        "--quiet",
        "--out",
        &data.display().to_string(),
    ]));
    assert_eq!(code, 0, "{err}");
    let mut args = strings(&["tune", "texel", "--data"]);
    args.push(data.display().to_string());
    args.extend(strings(&["--seed", "3"]));
    args.extend(strings(rest));
    args
}

/// A `chuhan` process serving on 127.0.0.1 (`serve`, `play`), killed on drop.
pub struct Served {
    /// The process.
    pub child: std::process::Child,
    /// The port it printed on its first line of output.
    pub port: u16,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `chuhan play --no-open --player random --port 0 --save SAVE` with `extra` flags before
/// `--player` (for example `--game chess`), started as [`start_served`] does.
pub fn start_play(save: &Path, extra: &[&str]) -> Served {
    let mut args = vec!["play", "--no-open"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--player", "random", "--port", "0", "--save"]);
    args.push(save.to_str().unwrap());
    start_served(&args)
}

/// Starts `chuhan ARGS` and reads the port from the first line it prints
/// (`... http://127.0.0.1:PORT/...`).
pub fn start_served(args: &[&str]) -> Served {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("chuhan starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port = line
        .split("127.0.0.1:")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .and_then(|p| p.parse().ok());
    let Some(port) = port else {
        let _ = child.kill();
        let _ = child.wait();
        panic!("no address in {line:?}");
    };
    Served { child, port }
}

/// Where Debian's `stockfish` package puts the engine.
pub const STOCKFISH: &str = "/usr/games/stockfish";

/// Whether Stockfish is installed. scripts/test.sh installs it and sets
/// CHUHAN_REQUIRE_STOCKFISH, so a missing Stockfish fails there; elsewhere the test says why
/// it did not run.
pub fn stockfish_present() -> bool {
    if Path::new(STOCKFISH).exists() {
        return true;
    }
    assert!(
        std::env::var_os("CHUHAN_REQUIRE_STOCKFISH").is_none(),
        "{STOCKFISH} is missing and CHUHAN_REQUIRE_STOCKFISH is set: run scripts/test.sh, or apt-get install stockfish"
    );
    eprintln!("skipped: {STOCKFISH} is not installed (apt-get install stockfish)");
    false
}

/// A run's games.csv as maps from column name to value, in file order.
pub fn csv_rows(dir: &Path) -> Vec<std::collections::BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(dir.join("games.csv")).expect("games.csv");
    let headers = r.headers().unwrap().clone();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            headers
                .iter()
                .zip(rec.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// The games of a run by index, without their wall times (which differ run to run; rows are
/// written in the order games end).
pub fn games_without_times(
    dir: &Path,
) -> std::collections::BTreeMap<u64, std::collections::BTreeMap<String, String>> {
    csv_rows(dir)
        .into_iter()
        .map(|mut r| {
            r.remove("seconds");
            (r["game"].parse().unwrap(), r)
        })
        .collect()
}

/// The verdict of a replayed chess game against its games.csv row `g`: a verdict the judge
/// sees is the one recorded (termination and result), and a game the judge sees going on was
/// not recorded as ended by a rule of the game.
pub fn assert_chess_verdict(
    game: &chuhan_engine::chess::Game,
    g: &std::collections::BTreeMap<String, String>,
) {
    let rules = [
        "checkmate",
        "stalemate",
        "insufficient-material",
        "repetition",
        "fifty-moves",
    ];
    match game.verdict() {
        Some(v) => {
            assert_eq!(
                v.termination.as_str(),
                g["termination"],
                "game {}",
                g["game"]
            );
            assert_eq!(v.result.as_pgn(), g["result"], "game {}", g["game"]);
        }
        None => assert!(
            !rules.contains(&g["termination"].as_str()),
            "game {}: recorded {} but the judge sees the game going on",
            g["game"],
            g["termination"]
        ),
    }
}

/// The misbehaving test engine `uci-misbehave`: an example of the cli crate (not a binary, so
/// that `cargo run` and `cargo install` see `chuhan` alone), which `cargo test` builds beside the
/// test binaries (`target/<profile>/examples/`).
pub fn misbehave_exe() -> std::path::PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("the test binary lives in target/<profile>/deps");
    let path = profile_dir
        .join("examples")
        .join(format!("uci-misbehave{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.is_file(),
        "{} is missing: run the tests with `cargo test` (which builds examples), or build it with `cargo build --example uci-misbehave`",
        path.display()
    );
    path
}

/// The words of a command line as a POSIX shell splits them: single and double quotes
/// grouped, a `#` comment dropped (no backslash escapes).
pub fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote = None;
    for c in line.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            None if c == '#' && !in_word => break,
            None => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}
