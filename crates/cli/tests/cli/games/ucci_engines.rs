//! UCCI engines and hostile engine output, through the real binary and the arena's player:
//! the test engine (`uci-misbehave`) in its UCCI dialect plays matches against UCI and
//! built-in players, `banmoves` reaches it and is honoured in a constructed repetition, an
//! engine speaking the other protocol is a clear error; invalid UTF-8, megabyte lines and floods
//! from an engine (and on `chuhan uci`'s input) cost no game and no memory.

use crate::fixtures as common;

use common::misbehave_exe;

use chuhan_arena::play::limits::MoveLimits;
use chuhan_arena::play::player::uci::{parse_external, ExternalPlayer};
use chuhan_arena::play::player::Player;
use chuhan_engine::{Game, GameConfig, Move, Position};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn chuhan(args: &[&str]) -> (i32, String, String) {
    common::chuhan_in(
        Some(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))),
        args,
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("ucci-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// An engine file for the test engine with `flags`, named `name`, `protocol` uci or ucci.
fn engine_file(dir: &Path, name: &str, protocol: &str, flags: &[&str]) -> PathBuf {
    let args: Vec<String> = flags.iter().map(|f| format!("{f:?}")).collect();
    let text = format!(
        "name = {name:?}\n[uci]\ncommand = {:?}\nargs = [{}]\nprotocol = {protocol:?}\nstartup_timeout_ms = 3000\nmove_margin_ms = 300\nfixed_limit_timeout_ms = 5000\n",
        misbehave_exe(),
        args.join(", ")
    );
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, text).unwrap();
    path
}

/// games.csv rows as maps, in game order.
fn rows(dir: &Path) -> Vec<HashMap<String, String>> {
    let mut r = csv::Reader::from_path(dir.join("games.csv")).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let mut out: Vec<_> = r
        .records()
        .map(|rec| {
            header
                .iter()
                .cloned()
                .zip(rec.unwrap().iter().map(String::from))
                .collect::<HashMap<_, _>>()
        })
        .collect();
    out.sort_by_key(|row| row["game"].parse::<u64>().unwrap());
    out
}

const FAILURES: [&str; 4] = ["crash", "timeout", "illegal-move", "disconnect"];

/// Every game of a run ended without a player failure.
fn no_failures(run: &Path, games: usize) {
    let games_rows = rows(run);
    assert_eq!(games_rows.len(), games);
    for g in &games_rows {
        assert!(
            !FAILURES.contains(&g["termination"].as_str()),
            "a failure: {g:?}"
        );
        assert!(g["plies"].parse::<u32>().unwrap() > 0, "{g:?}");
    }
}

/// All stderr logs of a run's engine folder `player`, concatenated.
fn logs(run: &Path, player: &str) -> String {
    let dir = run.join("engines").join(player);
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    names
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect()
}

fn play_match(run: &Path, a: &str, b: &str, limit: &[&str]) -> (i32, String, String) {
    let mut args = vec![
        "match",
        "--player",
        a,
        "--player",
        b,
        "--pairs",
        "2",
        "--ply-cap",
        "40",
        "--concurrency",
        "1",
        "--quiet",
        "--out",
        run.to_str().unwrap(),
    ];
    args.extend_from_slice(limit);
    chuhan(&args)
}

#[test]
fn uci_against_ucci_plays_through_in_ucci_forms() {
    let dir = scratch("uci-vs-ucci");
    let ucci = engine_file(&dir, "eleeye", "ucci", &["--ucci"]);
    let uci = engine_file(&dir, "pika", "uci", &[]);
    let run = dir.join("run");
    let (code, out, err) = play_match(
        &run,
        ucci.to_str().unwrap(),
        uci.to_str().unwrap(),
        &["--nodes", "100"],
    );
    assert_eq!(code, 0, "{out}\n{err}");
    no_failures(&run, 4);
    let log = logs(&run, &ucci_folder(&ucci));
    assert!(log.contains("setoption usemillisec true"), "{log}");
    assert!(log.contains(": go nodes 100"), "{log}");
    assert!(!log.contains("unknown command"), "{log}");
    // A clock in UCCI's form, in milliseconds since the engine declared usemillisec.
    let run = dir.join("run-tc");
    let (code, out, err) = play_match(
        &run,
        ucci.to_str().unwrap(),
        uci.to_str().unwrap(),
        &["--tc", "30+0.5"],
    );
    assert_eq!(code, 0, "{out}\n{err}");
    no_failures(&run, 4);
    let log = logs(&run, &ucci_folder(&ucci));
    assert!(
        log.lines().any(|l| l.contains(": go time ")
            && l.contains(" increment 500 opptime ")
            && l.ends_with(" oppincrement 500")),
        "{log}"
    );
}

/// The engine-log folder of a player given by its file path.
fn ucci_folder(file: &Path) -> String {
    file.to_str()
        .unwrap()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[test]
fn builtin_against_ucci_plays_through() {
    let dir = scratch("builtin-vs-ucci");
    let ucci = engine_file(&dir, "eleeye", "ucci", &["--ucci"]);
    let run = dir.join("run");
    let (code, out, err) = play_match(&run, "default", ucci.to_str().unwrap(), &["--depth", "2"]);
    assert_eq!(code, 0, "{out}\n{err}");
    no_failures(&run, 4);
    let log = logs(&run, &ucci_folder(&ucci));
    assert!(log.contains(": go depth 2"), "{log}");
}

/// The perpetual check of the rules tests: after these moves Red's f5e5 would check for the
/// third time and lose, and it is the only move back to a position seen before.
fn perpetual_check_game() -> Game {
    let fen = "4k4/9/9/9/4R4/9/9/9/9/3K5 b - - 1 1";
    let mut game = Game::new(Position::from_fen(fen).unwrap(), GameConfig::default());
    for m in "e9f9 e5f5 f9e9 f5e5 e9f9 e5f5 f9e9".split(' ') {
        game.play(Move::parse_uci(m).unwrap()).unwrap();
    }
    game
}

/// The move the test engine (in UCCI, preferring repetitions, with `extra` flags) chooses in
/// the perpetual-check position, and its stderr log.
fn ucci_choice(dir: &Path, extra: &[&str]) -> (Move, String) {
    let mut flags = vec!["--ucci", "--prefer-repeat"];
    flags.extend_from_slice(extra);
    let file = engine_file(dir, "repeater", "ucci", &flags);
    let text = std::fs::read_to_string(&file).unwrap();
    let mut engine = parse_external(&text, "repeater.toml", dir, "repeater").unwrap();
    engine.log_dir = Some(dir.join("logs"));
    let mut player = ExternalPlayer::new("repeater", engine);
    player.set_game_index(0);
    player.new_game(1);
    let game = perpetual_check_game();
    let limits = MoveLimits {
        nodes: Some(50),
        ..MoveLimits::default()
    };
    let mut game = chuhan_arena::play::any::AnyGame::Xiangqi(game);
    let choice = player.choose_move(&mut game, &limits).expect("a move");
    drop(player);
    let log = std::fs::read_to_string(dir.join("logs/game-0.stderr.log")).unwrap();
    let chuhan_arena::play::any::AnyMove::Xiangqi(mv) = choice.mv else {
        panic!("a xiangqi move expected")
    };
    (mv, log)
}

#[test]
fn banmoves_are_sent_and_honoured_in_a_repetition() {
    let losing = Move::parse_uci("f5e5").unwrap();
    assert!(perpetual_check_game().would_forfeit(losing));
    // Deaf to banmoves, the engine plays the repetition that loses: the position is one
    // where banmoves matters.
    let dir = scratch("banmoves-ignored");
    let (mv, log) = ucci_choice(&dir, &["--ignore-banmoves"]);
    assert_eq!(mv, losing, "{log}");
    // Told, it avoids it, and the log shows what it was told.
    let dir = scratch("banmoves");
    let (mv, log) = ucci_choice(&dir, &[]);
    assert!(log.contains("banmoves f5e5\n"), "{log}");
    assert_ne!(mv, losing, "{log}");
    assert!(!perpetual_check_game().would_forfeit(mv));
    // No banmoves where nothing is forbidden: the first move of the game.
    assert!(log.matches("banmoves").count() == 1, "{log}");
}

#[test]
fn an_engine_speaking_the_other_protocol_is_named() {
    let dir = scratch("other-protocol");
    // A UCI file for a UCCI engine: it answers `uci` with a line of its own.
    let wrong = engine_file(&dir, "wrong", "uci", &["--ucci"]);
    let run = dir.join("run");
    let (code, _, err) = play_match(&run, wrong.to_str().unwrap(), "random", &["--nodes", "10"]);
    assert_eq!(code, 2, "{err}");
    for part in ["wrong.toml", "'uci'", "'unknown command: uci'", "protocol"] {
        assert!(err.contains(part), "{part} missing from: {err}");
    }
    assert!(!run.join("games.csv").exists());
    // A UCCI file for an engine that answers `ucci` with `uciok`.
    let text = "name = \"sh\"\n[uci]\ncommand = \"/bin/sh\"\nargs = [\"-c\", \"read l; echo uciok; sleep 5\"]\nprotocol = \"ucci\"\nstartup_timeout_ms = 3000\n";
    let sh = dir.join("sh.toml");
    std::fs::write(&sh, text).unwrap();
    let (code, _, err) = play_match(&run, sh.to_str().unwrap(), "random", &["--nodes", "10"]);
    assert_eq!(code, 2, "{err}");
    for part in [
        "sh.toml",
        "sent 'ucci' and received 'uciok'",
        "protocol = \"uci\"",
    ] {
        assert!(err.contains(part), "{part} missing from: {err}");
    }
}

#[test]
fn invalid_utf8_and_megabyte_lines_from_an_engine_cost_no_game() {
    let dir = scratch("bytes");
    for (name, protocol, flags) in [
        ("noisy", "uci", vec!["--bad-utf8", "--long-line"]),
        (
            "noisy-ucci",
            "ucci",
            vec!["--ucci", "--bad-utf8", "--long-line"],
        ),
    ] {
        let file = engine_file(&dir, name, protocol, &flags);
        let run = dir.join(format!("run-{name}"));
        let (code, out, err) =
            play_match(&run, file.to_str().unwrap(), "random", &["--nodes", "10"]);
        assert_eq!(code, 0, "{out}\n{err}");
        no_failures(&run, 4);
    }
}

#[test]
fn an_engine_flooding_without_end_is_a_named_failure() {
    let dir = scratch("flood");
    let once = dir.join("flooded");
    let file = engine_file(
        &dir,
        "flood",
        "uci",
        &["--flood-at", "2", "--once", once.to_str().unwrap()],
    );
    let run = dir.join("run");
    let (code, out, err) = play_match(&run, file.to_str().unwrap(), "random", &["--nodes", "10"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(once.exists(), "the engine never flooded");
    let games = rows(&run);
    assert_eq!(games[0]["termination"], "disconnect", "{:?}", games[0]);
    assert_eq!(games[0]["result"], "0-1", "{:?}", games[0]);
    for g in &games[1..] {
        assert!(!FAILURES.contains(&g["termination"].as_str()), "{g:?}");
    }
    let log = std::fs::read_to_string(
        run.join("engines")
            .join(ucci_folder(&file))
            .join("game-0.stderr.log"),
    )
    .unwrap();
    assert!(log.contains("[chuhan arena] disconnect: "), "{log}");
    assert!(log.contains("flood"), "{log}");
}

#[test]
fn chuhan_uci_answers_bad_bytes_with_info_string_and_goes_on() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut input: Vec<u8> = b"isready\n\xff\xfeisready\n".to_vec();
    input.extend(std::iter::repeat(b'a').take(3 << 20));
    input.extend_from_slice(b"\nposition startpos moves h2e2\nd\nquit\n");
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let lines: Vec<String> = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(Result::unwrap)
        .collect();
    writer.join().unwrap();
    assert!(child.wait().unwrap().success());
    assert_eq!(lines[0], "readyok", "{lines:?}");
    assert_eq!(
        lines[1], "info string input line 2 ignored: not valid UTF-8",
        "{lines:?}"
    );
    assert!(
        lines[2].starts_with("info string input line 3 ignored: longer than 65536 bytes"),
        "{lines:?}"
    );
    assert!(
        lines[3].starts_with("info string fen ") && lines[3].contains("1C2C4/9/RNBAKABNR"),
        "the session went on: {lines:?}"
    );
    assert_eq!(lines.len(), 4, "{lines:?}");
}

#[test]
fn a_ladder_mixes_builtin_uci_and_ucci_players() {
    let dir = scratch("mixed-ladder");
    let uci = engine_file(&dir, "uci-test", "uci", &[]);
    let ucci = engine_file(&dir, "ucci-test", "ucci", &["--ucci"]);
    let ladder = format!(
        "name = \"mixed\"\nseed = 3\npairs = 2\nneighbours = 2\nmax_nodes = 200\nbootstrap = 100\n\
         [[players]]\nname = \"builtin\"\nspec = \"default:depth=1\"\n\
         [[players]]\nname = \"uci\"\nspec = {:?}\n\
         [[players]]\nname = \"ucci\"\nspec = {:?}\n",
        uci.to_str().unwrap(),
        ucci.to_str().unwrap()
    );
    let cfg = dir.join("ladder.toml");
    std::fs::write(&cfg, ladder).unwrap();
    let out = dir.join("out");
    let (code, stdout, stderr) = chuhan(&[
        "ladder",
        "--config",
        cfg.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    // Three players, neighbours 2: every pairing, 2 pairs each = 12 games, none failed.
    no_failures(&out, 12);
    let games = rows(&out);
    for (a, b) in [("builtin", "uci"), ("builtin", "ucci"), ("uci", "ucci")] {
        let between = games
            .iter()
            .filter(|g| (g["red"] == a && g["black"] == b) || (g["red"] == b && g["black"] == a))
            .count();
        assert_eq!(between, 4, "{a} v {b}: {games:?}");
    }
    let ratings = std::fs::read_to_string(out.join("ratings.csv")).unwrap();
    for name in ["builtin", "uci", "ucci"] {
        assert!(ratings.contains(&format!(",{name},")), "{name}: {ratings}");
    }
}

/// Fairy-Stockfish speaks UCCI too: the shipped file plays the built-in engine, every game
/// replayed through the judge. Like the UCI test against it, this never skips.
#[test]
fn fairy_stockfish_in_ucci_plays_the_builtin_engine() {
    const FAIRY: &str = "/usr/games/fairy-stockfish";
    assert!(
        Path::new(FAIRY).is_file(),
        "{FAIRY} is missing: install the fairy-stockfish package (scripts/test.sh does)"
    );
    let dir = scratch("fairy-ucci");
    let run = dir.join("run");
    let (code, out, err) = play_match(
        &run,
        "default",
        "configs/engines/fairy-stockfish-ucci.toml",
        &["--nodes", "2000"],
    );
    assert_eq!(code, 0, "{out}\n{err}");
    no_failures(&run, 4);
    for g in rows(&run) {
        let mut game = Game::new(
            Position::from_fen(&g["opening"]).unwrap(),
            GameConfig::default(),
        );
        for m in g["moves"].split_whitespace() {
            let mv = Move::parse_uci(m).unwrap_or_else(|| panic!("{m} in {g:?}"));
            game.play(mv)
                .unwrap_or_else(|e| panic!("{m} is not legal: {e:?} in {g:?}"));
        }
        assert_eq!(
            g["moves"].split_whitespace().count().to_string(),
            g["plies"]
        );
    }
}
