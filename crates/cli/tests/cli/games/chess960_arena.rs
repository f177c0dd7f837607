//! Chess960 on the arena (`--game chess --chess960`): a deterministic match between built-in
//! players from the 960 start positions, every game replayed through the judge under
//! Chess960's castling rules and its games.pgn record (`Variant`, `SetUp`, `FEN`, SAN) read
//! back; a resumed run that refuses the other variant naming both; openings from a file of
//! Chess960 FEN lines; external engines sent `UCI_Chess960` (our own `chuhan uci --game chess`
//! and Stockfish), and one that does not offer it refused by name.

use crate::fixtures as common;

use chuhan_engine::chess::{self, Game, Position};
use common::{chuhan, csv_rows as rows, games_without_times, stockfish_present, STOCKFISH};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    common::scratch("chess960", name)
}

/// The 960 start positions as FEN, by Scharnagl number, written here from the definition (not
/// by the arena's code): bishops on b/d/f/h by `n % 4` and on a/c/e/g by the next base-4
/// digit, the queen on the base-6 digit's free square, the knights by the table of ten, then
/// rook, king, rook.
fn start_positions() -> Vec<String> {
    let knights = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    (0..960usize)
        .map(|n| {
            let mut r = [None; 8];
            r[(n % 4) * 2 + 1] = Some('B');
            r[((n / 4) % 4) * 2] = Some('B');
            let free =
                |r: &[Option<char>; 8]| (0..8).filter(|&f| r[f].is_none()).collect::<Vec<_>>();
            let q = free(&r)[(n / 16) % 6];
            r[q] = Some('Q');
            let f = free(&r);
            let (a, b) = knights[n / 96];
            r[f[a]] = Some('N');
            r[f[b]] = Some('N');
            for (s, p) in free(&r).into_iter().zip(['R', 'K', 'R']) {
                r[s] = Some(p);
            }
            let white: String = r.iter().map(|c| c.unwrap()).collect();
            format!(
                "{}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1",
                white.to_lowercase()
            )
        })
        .collect()
}

/// Replays every game through the chess judge under Chess960's rules: each move legal in
/// turn, no verdict before the last, and the recorded result and termination the judge's own
/// when the rules ended the game. Returns the number of games and of castling moves seen.
fn replay_all(dir: &Path) -> (usize, usize) {
    let games = rows(dir);
    let mut castles = 0;
    for g in &games {
        let start = Position::from_fen_chess960(&g["opening"]).expect("a Chess960 opening");
        assert!(start.is_chess960());
        let mut game = Game::new(start);
        let moves: Vec<&str> = g["moves"].split_whitespace().collect();
        assert_eq!(moves.len().to_string(), g["plies"], "game {}", g["game"]);
        for (i, text) in moves.iter().enumerate() {
            assert!(
                game.verdict().is_none(),
                "game {}: a verdict before move {i}",
                g["game"]
            );
            let mv = game
                .position()
                .parse_uci(text)
                .unwrap_or_else(|e| panic!("game {}: move {i} {text}: {e}", g["game"]));
            if mv.kind() == chess::MoveKind::Castle {
                castles += 1;
                // Chess960's UCI castling: the king takes its own rook.
                let rook = game.position().piece_at(mv.to());
                assert_eq!(
                    rook.kind(),
                    Some(chess::PieceKind::Rook),
                    "game {}: {text}",
                    g["game"]
                );
            }
            game.play(mv).unwrap();
        }
        common::assert_chess_verdict(&game, g);
    }
    (games.len(), castles)
}

/// One record of games.pgn read back: its tags and its moves in UCI (from the SAN).
struct Record {
    tags: BTreeMap<String, String>,
    uci: Vec<String>,
    san: Vec<String>,
    result: String,
}

/// Reads a games.pgn of Chess960 records: tags, then SAN move text (comments, move numbers
/// and the result skipped), each move found by our SAN reader in the position from the `FEN`
/// tag read under Chess960's rules. (`chess::read_pgn` reads standard starts only.)
fn read_960_pgn(text: &str) -> Vec<Record> {
    let mut out = Vec::new();
    let mut tags = BTreeMap::new();
    let mut movetext = String::new();
    let mut flush = |tags: &mut BTreeMap<String, String>, movetext: &mut String| {
        if tags.is_empty() {
            return;
        }
        let fen: &String = tags.get("FEN").expect("a FEN tag");
        let mut pos = Position::from_fen_chess960(fen).expect("the FEN tag reads as Chess960");
        let mut without_comments = String::new();
        let mut depth = 0;
        for c in movetext.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ if depth == 0 => without_comments.push(c),
                _ => {}
            }
        }
        let (mut uci, mut san, mut result) = (Vec::new(), Vec::new(), String::new());
        for token in without_comments.split_whitespace() {
            if ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
                result = token.to_string();
            } else if !token.ends_with('.') {
                let mv = pos
                    .parse_san(token)
                    .unwrap_or_else(|e| panic!("{token} in {}: {e}", pos.to_fen()));
                uci.push(mv.to_uci());
                san.push(token.to_string());
                pos.make(mv);
            }
        }
        out.push(Record {
            tags: std::mem::take(tags),
            uci,
            san,
            result,
        });
        movetext.clear();
    };
    for line in text.lines() {
        let line = line.trim();
        if let Some(tag) = line.strip_prefix('[') {
            if !movetext.trim().is_empty() {
                flush(&mut tags, &mut movetext);
            }
            let (name, value) = tag.trim_end_matches(']').split_once(' ').unwrap();
            tags.insert(name.to_string(), value.trim_matches('"').to_string());
        } else {
            movetext.push_str(line);
            movetext.push(' ');
        }
    }
    flush(&mut tags, &mut movetext);
    out
}

fn match_args<'a>(out: &'a str, concurrency: &'a str, pairs: &'a str) -> Vec<&'a str> {
    vec![
        "match",
        "--game",
        "chess",
        "--chess960",
        "--player",
        "easy",
        "--player",
        "medium:nodes=1200",
        "--pairs",
        pairs,
        "--nodes",
        "600",
        "--ply-cap",
        "200",
        "--seed",
        "11",
        "--concurrency",
        concurrency,
        "--quiet",
        "--out",
        out,
    ]
}

#[test]
fn a_chess960_match_is_reproducible_starts_from_960_positions_and_replays() {
    let dir = scratch("match");
    let (one, two) = (dir.join("one"), dir.join("two"));
    for (out, c) in [(&one, "1"), (&two, "2")] {
        let (code, stdout, err) = chuhan(&match_args(out.to_str().unwrap(), c, "6"));
        assert_eq!(code, 0, "{stdout}\n{err}");
    }
    assert_eq!(games_without_times(&one), games_without_times(&two));
    let (games, castles) = replay_all(&one);
    assert_eq!(games, 12);
    assert!(
        castles > 0,
        "some game castles (seed 11 has castling in it)"
    );

    // Openings: Chess960 start positions, one per pair and the same for both games of it,
    // colours swapped; six pairs, six different starts.
    let starts: HashSet<String> = start_positions().into_iter().collect();
    assert_eq!(starts.len(), 960);
    let mut per_pair: BTreeMap<String, Vec<BTreeMap<String, String>>> = BTreeMap::new();
    for g in rows(&one) {
        assert!(
            starts.contains(&g["opening"]),
            "{} is not a 960 start",
            g["opening"]
        );
        per_pair.entry(g["pair"].clone()).or_default().push(g);
    }
    assert_eq!(per_pair.len(), 6);
    let openings: HashSet<&String> = per_pair.values().map(|p| &p[0]["opening"]).collect();
    assert_eq!(openings.len(), 6, "each pair its own start");
    for pair in per_pair.values() {
        assert_eq!(pair.len(), 2);
        assert_eq!(pair[0]["opening"], pair[1]["opening"]);
        assert_eq!(pair[0]["red"], pair[1]["black"]);
    }
    // Another seed, other starts.
    let other = dir.join("other");
    let mut args = match_args(other.to_str().unwrap(), "2", "6");
    let seed = args.iter().position(|&a| a == "11").unwrap();
    args[seed] = "12";
    let (code, stdout, err) = chuhan(&args);
    assert_eq!(code, 0, "{stdout}\n{err}");
    let other_openings: HashSet<String> = rows(&other)
        .into_iter()
        .map(|g| g["opening"].clone())
        .collect();
    assert_ne!(other_openings, openings.into_iter().cloned().collect());

    let manifest = std::fs::read_to_string(one.join("manifest.toml")).unwrap();
    assert!(manifest.contains("game = \"chess\""), "{manifest}");
    assert!(manifest.contains("chess960 = true"), "{manifest}");
    assert!(manifest.contains("openings = \"chess960\""), "{manifest}");

    // games.pgn: Variant, SetUp and the X-FEN start on every record, the SAN moves the
    // games played, castling written O-O / O-O-O.
    let pgn = std::fs::read_to_string(one.join("games.pgn")).unwrap();
    let records = read_960_pgn(&pgn);
    let games = rows(&one);
    assert_eq!(records.len(), games.len());
    let mut castles_in_pgn = 0;
    for (r, g) in records.iter().zip(&games) {
        assert_eq!(r.tags.get("Variant").map(String::as_str), Some("Chess960"));
        assert_eq!(r.tags.get("SetUp").map(String::as_str), Some("1"));
        assert_eq!(r.tags.get("FEN"), Some(&g["opening"]));
        assert_eq!(r.tags.get("White"), Some(&g["red"]));
        assert_eq!(r.tags.get("Black"), Some(&g["black"]));
        assert_eq!(r.tags.get("Result"), Some(&g["result"]));
        assert_eq!(r.uci.join(" "), g["moves"], "game {}", g["game"]);
        assert_eq!(r.result, g["result"]);
        castles_in_pgn += r.san.iter().filter(|s| s.starts_with("O-O")).count();
    }
    assert_eq!(
        castles_in_pgn, castles,
        "every castle is O-O or O-O-O in SAN"
    );
    // The report draws the games with their SAN (render_san replays them as Chess960).
    let report = std::fs::read_to_string(one.join("report.html")).unwrap();
    let san: Vec<String> = records[0].san.iter().map(|m| format!("\"{m}\"")).collect();
    let san = format!("\"san\":[{}]", san.join(","));
    assert!(
        report.contains(&san),
        "the report carries game 0's SAN: {san}"
    );
}

#[test]
fn a_chess960_run_resumes_and_refuses_the_other_variant_naming_both() {
    let dir = scratch("resume");
    let (full, cut) = (dir.join("full"), dir.join("cut"));
    let (code, stdout, err) = chuhan(&match_args(full.to_str().unwrap(), "1", "2"));
    assert_eq!(code, 0, "{stdout}\n{err}");
    let (code, _, err) = chuhan(&match_args(cut.to_str().unwrap(), "1", "2"));
    assert_eq!(code, 0, "{err}");
    // Keep the header and the first game: the rest is played again on resume.
    let csv = std::fs::read_to_string(cut.join("games.csv")).unwrap();
    let kept: Vec<&str> = csv.lines().take(2).collect();
    std::fs::write(cut.join("games.csv"), format!("{}\n", kept.join("\n"))).unwrap();
    let cut_s = cut.to_str().unwrap();

    let (code, _, err) = chuhan(&["match", "--game", "chess", "--resume", cut_s]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("chess960") && err.contains("standard chess"),
        "{err}"
    );
    assert!(err.contains("--chess960"), "the way to resume it: {err}");

    let (code, _, err) = chuhan(&[
        "match",
        "--resume",
        cut_s,
        "--game",
        "chess",
        "--chess960",
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(games_without_times(&cut), games_without_times(&full));
    replay_all(&cut);
    // The stored record of the kept game read back as a Chess960 record and was kept, with
    // its per-move comments (one written again from games.csv has none).
    let pgn = std::fs::read_to_string(cut.join("games.pgn")).unwrap();
    let records: Vec<&str> = pgn.split("[Event ").filter(|r| !r.is_empty()).collect();
    assert_eq!(records.len(), 4, "{pgn}");
    assert!(
        records[0].contains('{'),
        "the first record keeps its comments: {pgn}"
    );

    // A standard chess run is not resumed as Chess960.
    let std_run = dir.join("standard");
    let (code, _, err) = chuhan(&[
        "match",
        "--game",
        "chess",
        "--player",
        "random",
        "--player",
        "greedy",
        "--pairs",
        "1",
        "--quiet",
        "--out",
        std_run.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = chuhan(&[
        "match",
        "--resume",
        std_run.to_str().unwrap(),
        "--variant",
        "chess960",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("plays standard chess") && err.contains("asks for chess960"),
        "{err}"
    );
}

#[test]
fn chess960_flags_are_checked_and_openings_come_from_960_fen_files() {
    let dir = scratch("flags");
    let out = dir.join("x");
    // Chess960 is a chess variant.
    let (code, _, err) = chuhan(&[
        "match",
        "--chess960",
        "--player",
        "random",
        "--player",
        "greedy",
        "--pairs",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--game chess"), "{err}");
    assert!(!out.join("games.csv").exists());
    let (code, _, err) = chuhan(&[
        "match",
        "--game",
        "chess",
        "--chess960",
        "--variant",
        "standard",
        "--player",
        "random",
        "--player",
        "greedy",
        "--pairs",
        "1",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--variant"), "{err}");
    // Generated openings are the starts themselves: no --opening-plies.
    let (code, _, err) = chuhan(&[
        "match",
        "--game",
        "chess",
        "--chess960",
        "--opening-plies",
        "4",
        "--player",
        "random",
        "--player",
        "greedy",
        "--pairs",
        "1",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--opening-plies"), "{err}");

    // A file of Chess960 positions (king on b1 and rooks a1/c1 castling; a middle-game
    // position with Shredder-FEN rights): read under 960 rules, refused as standard chess.
    let book = dir.join("960.epd");
    let lines = [
        "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - id \"959\";",
        "1r2k1r1/pppq1ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPPQ1PPP/1R2K1R1 w GBgb - 4 8",
    ];
    std::fs::write(&book, lines.join("\n")).unwrap();
    let run = dir.join("book");
    let (code, stdout, err) = chuhan(&[
        "match",
        "--game",
        "chess",
        "--chess960",
        "--openings",
        book.to_str().unwrap(),
        "--player",
        "random",
        "--player",
        "greedy",
        "--pairs",
        "2",
        "--ply-cap",
        "80",
        "--quiet",
        "--out",
        run.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}\n{err}");
    let openings: HashSet<String> = rows(&run)
        .into_iter()
        .map(|g| g["opening"].clone())
        .collect();
    assert_eq!(openings.len(), 2);
    assert!(
        openings.contains("rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1"),
        "{openings:?}"
    );
    assert_eq!(replay_all(&run).0, 4);
    let (code, _, err) = chuhan(&[
        "match",
        "--game",
        "chess",
        "--openings",
        book.to_str().unwrap(),
        "--player",
        "random",
        "--player",
        "greedy",
        "--pairs",
        "1",
    ]);
    assert_eq!(code, 2, "standard chess refuses a 960 position: {err}");
    assert!(err.contains("960.epd:1"), "{err}");
    // PGN books of 960 games are not read yet, and say so.
    let pgn = dir.join("960.pgn");
    std::fs::write(&pgn, "[Event \"x\"]\n\n1. e4 *\n").unwrap();
    let (code, _, err) = chuhan(&[
        "match",
        "--game",
        "chess",
        "--chess960",
        "--openings",
        pgn.to_str().unwrap(),
        "--player",
        "random",
        "--player",
        "greedy",
        "--pairs",
        "1",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("960.pgn") && err.contains("Chess960"), "{err}");
}

/// An engine file for `chuhan uci` with `args`, as a chess player; `wrap` runs it through a
/// shell that copies what the arena sends into `log`.
fn engine_file(
    dir: &Path,
    name: &str,
    command: &str,
    args: &[&str],
    log: Option<&Path>,
) -> PathBuf {
    let (command, args): (String, Vec<String>) = match log {
        Some(log) => (
            "/bin/sh".into(),
            vec![
                "-c".into(),
                format!("tee -a '{}' | {command} {}", log.display(), args.join(" ")),
            ],
        ),
        None => (command.into(), args.iter().map(|a| a.to_string()).collect()),
    };
    let path = dir.join(format!("{name}.toml"));
    let args: Vec<String> = args.iter().map(|a| format!("{a:?}")).collect();
    std::fs::write(
        &path,
        format!(
            "name = \"{name}\"\ngame = \"chess\"\n\n[uci]\ncommand = {command:?}\nargs = [{}]\nstartup_timeout_ms = 10000\nfixed_limit_timeout_ms = 60000\n",
            args.join(", ")
        ),
    )
    .unwrap();
    path
}

#[test]
fn external_engines_get_uci_chess960_and_one_without_it_is_refused_by_name() {
    let dir = scratch("uci");
    let chuhan_exe = env!("CARGO_BIN_EXE_chuhan");
    let log = dir.join("sent.log");
    let ours = engine_file(
        &dir,
        "ours",
        chuhan_exe,
        &["uci", "--game", "chess"],
        Some(&log),
    );
    let out = dir.join("run");
    let (code, stdout, err) = chuhan(&[
        "match",
        "--game",
        "chess",
        "--chess960",
        "--player",
        ours.to_str().unwrap(),
        "--player",
        "medium",
        "--pairs",
        "2",
        "--nodes",
        "600",
        "--ply-cap",
        "200",
        "--seed",
        "11",
        "--concurrency",
        "1",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}\n{err}");
    let sent = std::fs::read_to_string(&log).unwrap();
    assert!(
        sent.contains("setoption name UCI_Chess960 value true"),
        "{sent}"
    );
    let (games, _) = replay_all(&out);
    assert_eq!(games, 4);
    for g in rows(&out) {
        assert!(
            !["crash", "timeout", "illegal-move", "disconnect"]
                .contains(&g["termination"].as_str()),
            "game {}: {}",
            g["game"],
            g["termination"]
        );
    }
    // `chuhan uci` for xiangqi offers no UCI_Chess960: refused before any game, by name.
    let xq = engine_file(&dir, "no960", chuhan_exe, &["uci"], None);
    let refused = dir.join("refused");
    let (code, _, err) = chuhan(&[
        "match",
        "--game",
        "chess",
        "--chess960",
        "--player",
        xq.to_str().unwrap(),
        "--player",
        "medium",
        "--pairs",
        "1",
        "--out",
        refused.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("engine no960") && err.contains("UCI_Chess960"),
        "{err}"
    );
    assert!(!refused.join("games.csv").exists());
}

#[test]
fn our_chess_engine_plays_stockfish_at_chess960_and_every_game_replays() {
    if !stockfish_present() {
        return;
    }
    let dir = scratch("stockfish");
    let log = dir.join("sent.log");
    let sf = engine_file(&dir, "stockfish", STOCKFISH, &[], Some(&log));
    let out = dir.join("run");
    let spec = format!("{}:option:Skill Level=0", sf.display());
    let (code, stdout, err) = chuhan(&[
        "match",
        "--game",
        "chess",
        "--chess960",
        "--player",
        "hard",
        "--player",
        &spec,
        "--pairs",
        "3",
        "--nodes",
        "1000",
        "--seed",
        "3",
        "--concurrency",
        "2",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}\n{err}");
    let sent = std::fs::read_to_string(&log).unwrap();
    assert!(
        sent.contains("setoption name UCI_Chess960 value true"),
        "{sent}"
    );
    assert_eq!(replay_all(&out).0, 6);
    for g in rows(&out) {
        assert!(
            !["crash", "timeout", "illegal-move", "disconnect"]
                .contains(&g["termination"].as_str()),
            "game {}: {}",
            g["game"],
            g["termination"]
        );
    }
    let pgn = std::fs::read_to_string(out.join("games.pgn")).unwrap();
    assert_eq!(read_960_pgn(&pgn).len(), 6);
}

#[test]
fn a_chess960_ladder_and_sprt_play_from_960_starts_and_replay() {
    let dir = scratch("ladder");
    let file = dir.join("ladder.toml");
    let ladder = r#"name = "c960"
game = "chess"
chess960 = true
seed = 3
pairs = 1
neighbours = 1
max_nodes = 500

[[players]]
name = "random"
spec = "random"

[[players]]
name = "greedy"
spec = "greedy"

[[players]]
name = "easy"
spec = "easy"
"#;
    std::fs::write(&file, ladder).unwrap();
    let out = dir.join("run");
    let (code, stdout, err) = chuhan(&[
        "ladder",
        "--config",
        file.to_str().unwrap(),
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}\n{err}");
    let manifest = std::fs::read_to_string(out.join("manifest.toml")).unwrap();
    assert!(manifest.contains("chess960 = true"), "{manifest}");
    let starts: HashSet<String> = start_positions().into_iter().collect();
    assert!(rows(&out).iter().all(|g| starts.contains(&g["opening"])));
    assert_eq!(replay_all(&out).0, 4);
    // Chess960 is not a xiangqi ladder's.
    let xq = dir.join("xq.toml");
    std::fs::write(&xq, ladder.replace("game = \"chess\"\n", "")).unwrap();
    let (code, _, err) = chuhan(&["ladder", "--config", xq.to_str().unwrap(), "--quiet"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("chess960"), "{err}");

    let sprt = dir.join("sprt");
    let (code, stdout, err) = chuhan(&[
        "sprt",
        "--game",
        "chess",
        "--chess960",
        "--test",
        "medium",
        "--base",
        "easy",
        "--elo0",
        "0",
        "--elo1",
        "200",
        "--max-pairs",
        "6",
        "--nodes",
        "400",
        "--concurrency",
        "1",
        "--quiet",
        "--out",
        sprt.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}\n{err}");
    assert!(rows(&sprt).iter().all(|g| starts.contains(&g["opening"])));
    assert!(replay_all(&sprt).0 >= 2);
}

/// A Chess960 run's games.pgn reads with the engine's own PGN reader (its `Variant` tag makes
/// the start a 960 one), and serves as a PGN opening book for another Chess960 run; a standard
/// run refuses that book, naming the record.
#[test]
fn a_chess960_games_pgn_reads_back_and_opens_another_960_run() {
    let dir = scratch("book");
    let first = dir.join("first");
    let (code, stdout, err) = chuhan(&match_args(first.to_str().unwrap(), "2", "3"));
    assert_eq!(code, 0, "{stdout}\n{err}");
    let book = first.join("games.pgn");
    let records = chess::read_pgn(&std::fs::read_to_string(&book).unwrap()).unwrap();
    let games = rows(&first);
    assert_eq!(records.len(), games.len());
    for (r, g) in records.iter().zip(&games) {
        let uci: Vec<String> = r.moves.iter().map(|m| m.to_uci()).collect();
        assert_eq!(uci.join(" "), g["moves"], "game {}", g["game"]);
        assert_eq!(r.start_fen, g["opening"]);
        assert_eq!(r.tag("Variant"), Some("Chess960"));
    }
    // The book: each record's start with its first 4 plies played.
    let second = dir.join("second");
    let mut args = match_args(second.to_str().unwrap(), "2", "2");
    let plies = ["--openings", book.to_str().unwrap(), "--opening-plies", "4"];
    args.extend(plies);
    let (code, stdout, err) = chuhan(&args);
    assert_eq!(code, 0, "{stdout}\n{err}");
    let mut expected = HashSet::new();
    for r in &records {
        let mut pos = Position::from_fen_chess960(&r.start_fen).unwrap();
        for &mv in &r.moves[..4] {
            pos.make(mv);
        }
        expected.insert(pos.to_fen());
    }
    for g in rows(&second) {
        assert!(expected.contains(&g["opening"]), "{}", g["opening"]);
    }
    replay_all(&second);
    // Without --chess960 the book's records are of the other variant.
    let third = dir.join("third");
    let mut args: Vec<&str> = match_args(third.to_str().unwrap(), "1", "1")
        .into_iter()
        .filter(|&a| a != "--chess960")
        .collect();
    args.extend(plies);
    let (code, _, err) = chuhan(&args);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("games.pgn") && err.contains("record 1") && err.contains("--chess960"),
        "{err}"
    );
}
