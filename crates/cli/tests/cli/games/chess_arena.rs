//! Chess on the arena: matches between our chess levels, a chess ladder on tiny budgets (the
//! chess ladder of CI), games against Stockfish, every recorded verdict re-derived by replaying
//! the game through the judge, wrong-game players refused, and a resumed chess run.

use crate::fixtures as common;

use chuhan_engine::chess::{Game, Position};
use common::{chuhan, csv_rows as rows, games_without_times, stockfish_present};
use std::path::{Path, PathBuf};

/// A fresh, empty directory under the test target's temporary folder.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("chess-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Replays every game of a run through the chess judge: each move legal in turn, no verdict
/// before the last move, and the recorded result and termination the judge's own when the
/// rules ended the game (none when an adjudication, the ply cap or a failure did).
fn replay_all(dir: &Path) -> usize {
    let games = rows(dir);
    for g in &games {
        let mut game = Game::new(Position::from_fen(&g["opening"]).expect("a chess opening"));
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
            game.play(mv).unwrap();
        }
        common::assert_chess_verdict(&game, g);
    }
    games.len()
}

fn match_args<'a>(out: &'a str, concurrency: &'a str, players: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["match", "--game", "chess"];
    for p in players {
        args.extend(["--player", p]);
    }
    args.extend([
        "--pairs",
        "2",
        "--nodes",
        "800",
        "--ply-cap",
        "160",
        "--seed",
        "5",
        "--concurrency",
        concurrency,
        "--quiet",
        "--out",
        out,
    ]);
    args
}

#[test]
fn a_chess_match_is_the_same_at_any_concurrency_and_replays_through_the_judge() {
    let dir = scratch("match");
    let (one, two) = (dir.join("one"), dir.join("two"));
    let players = ["easy", "medium:nodes=1500", "greedy"];
    for (out, c) in [(&one, "1"), (&two, "2")] {
        let (code, stdout, err) = chuhan(&match_args(out.to_str().unwrap(), c, &players));
        assert_eq!(code, 0, "{stdout}\n{err}");
    }
    assert_eq!(games_without_times(&one), games_without_times(&two));
    assert_eq!(replay_all(&one), 12);
    let manifest = std::fs::read_to_string(one.join("manifest.toml")).unwrap();
    assert!(manifest.contains("game = \"chess\""), "{manifest}");
    assert!(
        manifest.contains(&format!(
            "bench_signature = \"{}\"",
            chuhan_engine::chess::bench::SIGNATURE
        )),
        "{manifest}"
    );
    // games.pgn: SAN records with White and Black, which read back as the games played.
    let pgn = std::fs::read_to_string(one.join("games.pgn")).unwrap();
    let records = chuhan_engine::chess::read_pgn(&pgn).expect("games.pgn reads as chess PGN");
    let games = rows(&one);
    assert_eq!(records.len(), games.len());
    for (r, g) in records.iter().zip(&games) {
        assert_eq!(r.tag("White"), Some(g["red"].as_str()));
        assert_eq!(r.tag("Black"), Some(g["black"].as_str()));
        let uci: Vec<String> = r.moves.iter().map(|m| m.to_uci()).collect();
        assert_eq!(uci.join(" "), g["moves"]);
        assert_eq!(r.result, g["result"]);
    }
    assert!(pgn.contains("[Termination \""), "{pgn}");
}

#[test]
fn a_chess_run_resumes_and_refuses_the_other_game() {
    let dir = scratch("resume");
    let (full, cut) = (dir.join("full"), dir.join("cut"));
    let players = ["easy", "greedy"];
    for out in [&full, &cut] {
        let (code, stdout, err) = chuhan(&match_args(out.to_str().unwrap(), "1", &players));
        assert_eq!(code, 0, "{stdout}\n{err}");
    }
    // Keep the header and the first two games, as if the run had been stopped there.
    let text = std::fs::read_to_string(cut.join("games.csv")).unwrap();
    let kept: Vec<&str> = text.lines().take(3).collect();
    std::fs::write(cut.join("games.csv"), kept.join("\n") + "\n").unwrap();
    let cut_s = cut.to_str().unwrap();
    let (code, _, err) = chuhan(&["match", "--resume", cut_s, "--game", "xiangqi", "--quiet"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("plays chess") && err.contains("--game xiangqi"),
        "{err}"
    );
    let (code, stdout, err) = chuhan(&["match", "--resume", cut_s, "--quiet"]);
    assert_eq!(code, 0, "{stdout}\n{err}");
    assert_eq!(games_without_times(&cut), games_without_times(&full));
    assert_eq!(replay_all(&cut), 4);
    let pgn = std::fs::read_to_string(cut.join("games.pgn")).unwrap();
    assert_eq!(chuhan_engine::chess::read_pgn(&pgn).unwrap().len(), 4);
}

#[test]
fn players_and_files_of_the_other_game_are_refused_by_name() {
    let dir = scratch("wrong");
    let out = dir.join("x");
    let out = out.to_str().unwrap();
    let cases: [(&[&str], &[&str]); 4] = [
        (
            &[
                "match",
                "--player",
                "configs/engines/stockfish.toml",
                "--player",
                "easy",
            ],
            &["configs/engines/stockfish.toml", "chess", "xiangqi"],
        ),
        (
            &[
                "match",
                "--game",
                "chess",
                "--player",
                "configs/engines/fairy-stockfish.toml",
                "--player",
                "easy",
            ],
            &["configs/engines/fairy-stockfish.toml", "xiangqi", "chess"],
        ),
        (
            &[
                "match",
                "--game",
                "chess",
                "--player",
                "configs/engines/default.toml",
                "--player",
                "easy",
            ],
            &["configs/engines/default.toml", "xiangqi"],
        ),
        (
            &[
                "match",
                "--game",
                "chess",
                "--player",
                "easy",
                "--player",
                "grandmaster",
            ],
            &["grandmaster", "chess"],
        ),
    ];
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for (args, needles) in cases {
        let mut all: Vec<&str> = args.to_vec();
        all.extend(["--pairs", "1", "--quiet", "--out", out]);
        let (code, _, err) = common::chuhan_in(Some(&root), &all);
        assert_eq!(code, 2, "{args:?}: {err}");
        for n in needles {
            assert!(err.contains(n), "{args:?}: '{n}' not in: {err}");
        }
        assert!(!Path::new(out).join("games.csv").exists());
    }
    // A chess ladder file played as xiangqi.
    let ladder = dir.join("chess.toml");
    std::fs::write(
        &ladder,
        "name = \"c\"\ngame = \"chess\"\npairs = 1\n[[players]]\nname = \"a\"\nspec = \"random\"\n[[players]]\nname = \"b\"\nspec = \"greedy\"\n",
    )
    .unwrap();
    let (code, _, err) = chuhan(&[
        "ladder",
        "--config",
        ladder.to_str().unwrap(),
        "--game",
        "xiangqi",
        "--quiet",
        "--out",
        out,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("chess.toml") && err.contains("game = \"chess\""),
        "{err}"
    );
}

#[test]
fn a_ladder_of_the_chess_levels_on_tiny_budgets() {
    let dir = scratch("ladder");
    let file = dir.join("ladder.toml");
    std::fs::write(
        &file,
        r#"name = "chess-ci"
game = "chess"
seed = 3
pairs = 2
neighbours = 2
max_nodes = 1500
opening_plies = 4

[[players]]
name = "random"
spec = "random"

[[players]]
name = "greedy"
spec = "greedy"

[[players]]
name = "easy"
spec = "easy"

[[players]]
name = "medium"
spec = "medium"
"#,
    )
    .unwrap();
    let out = dir.join("run");
    let (code, stdout, err) = chuhan(&[
        "ladder",
        "--config",
        file.to_str().unwrap(),
        "--concurrency",
        "2",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}\n{err}");
    for name in ["random", "greedy", "easy", "medium"] {
        assert!(stdout.contains(name), "{stdout}");
    }
    // Pairings: each player with its next two (5 of them), 2 pairs each.
    assert_eq!(replay_all(&out), 20);
}

#[test]
fn chess_openings_come_from_epd_and_pgn_books() {
    let dir = scratch("books");
    let epd = dir.join("book.epd");
    std::fs::write(
        &epd,
        "# two chess openings\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 id \"e4\";\nrnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n",
    )
    .unwrap();
    let pgn = dir.join("book.pgn");
    std::fs::write(
        &pgn,
        "[Event \"a\"]\n\n1. e4 c5 2. Nf3 *\n\n[Event \"b\"]\n\n1. d4 Nf6 2. c4 e6 *\n",
    )
    .unwrap();
    for (book, expect) in [(&epd, vec!["4P3", "3P4"]), (&pgn, vec!["5N2", "2PP4"])] {
        let out = dir.join(format!(
            "run-{}",
            book.extension().unwrap().to_str().unwrap()
        ));
        let (code, stdout, err) = chuhan(&[
            "match",
            "--game",
            "chess",
            "--player",
            "random",
            "--player",
            "greedy",
            "--pairs",
            "2",
            "--openings",
            book.to_str().unwrap(),
            "--ply-cap",
            "40",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{stdout}\n{err}");
        let openings: Vec<String> = rows(&out)
            .into_iter()
            .map(|r| r["opening"].clone())
            .collect();
        for e in &expect {
            assert!(openings.iter().any(|o| o.contains(e)), "{e}: {openings:?}");
        }
        replay_all(&out);
    }
    // A xiangqi position in a chess run's book is refused with its file and line.
    let bad = dir.join("bad.epd");
    std::fs::write(&bad, format!("{}\n", chuhan_engine::START_FEN)).unwrap();
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
        "--openings",
        bad.to_str().unwrap(),
        "--quiet",
        "--out",
        dir.join("bad-run").to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bad.epd:1") && err.contains("chess"), "{err}");
}

#[test]
fn our_chess_engine_plays_stockfish_and_every_verdict_replays() {
    if !stockfish_present() {
        return;
    }
    let dir = scratch("stockfish");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = dir.join("run");
    let (code, stdout, err) = common::chuhan_in(
        Some(&root),
        &[
            "match",
            "--game",
            "chess",
            "--player",
            "hard",
            "--player",
            "configs/engines/stockfish.toml:option:Skill Level=0",
            "--pairs",
            "3",
            "--nodes",
            "1000",
            "--seed",
            "2",
            "--concurrency",
            "2",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{stdout}\n{err}");
    assert_eq!(replay_all(&out), 6);
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
    assert_eq!(chuhan_engine::chess::read_pgn(&pgn).unwrap().len(), 6);
}

#[test]
fn a_chess_sprt_decides_and_adjudication_ends_chess_games() {
    let dir = scratch("sprt");
    let out = dir.join("sprt");
    let (code, stdout, err) = chuhan(&[
        "sprt",
        "--game",
        "chess",
        "--base",
        "random",
        "--test",
        "easy",
        "--elo0",
        "0",
        "--elo1",
        "200",
        "--nodes",
        "500",
        "--ply-cap",
        "120",
        "--max-pairs",
        "40",
        "--concurrency",
        "2",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    // Easy against random moves: H1 is accepted well before 40 pairs (exit 0).
    assert_eq!(code, 0, "{stdout}\n{err}");
    assert!(stdout.contains("H1"), "{stdout}");
    replay_all(&out);

    // Resign adjudication needs both sides' scores: two searching players.
    let out = dir.join("adjudicated");
    let (code, stdout, err) = chuhan(&[
        "match",
        "--game",
        "chess",
        "--player",
        "easy",
        "--player",
        "medium:nodes=1500",
        "--pairs",
        "3",
        "--nodes",
        "1500",
        "--resign-score",
        "600",
        "--resign-plies",
        "4",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}\n{err}");
    assert_eq!(replay_all(&out), 6);
    let games = rows(&out);
    assert!(
        games
            .iter()
            .any(|g| g["termination"] == "adjudication-resign"),
        "{:?}",
        games.iter().map(|g| &g["termination"]).collect::<Vec<_>>()
    );
    // A resigned game goes to the side the scores favoured, and its record says so.
    let pgn = std::fs::read_to_string(out.join("games.pgn")).unwrap();
    assert!(
        pgn.contains("adjudication-resign: both sides' scores had"),
        "{pgn}"
    );
}

#[test]
fn a_chess_calibration_places_levels_and_its_games_replay() {
    let dir = scratch("calibrate");
    let out = dir.join("cal");
    let (code, stdout, err) = chuhan(&[
        "calibrate",
        "--game",
        "chess",
        "--knob",
        "nodes",
        "--grid",
        "30,200,1500",
        "--targets",
        "0,200",
        "--names",
        "weak,strong",
        "--pairs",
        "2",
        "--concurrency",
        "2",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    // A gap outside its tolerance is not an error without --strict: exit 0.
    assert_eq!(code, 0, "{stdout}\n{err}");
    let settings = std::fs::read_to_string(out.join("calibrate.toml")).unwrap();
    assert!(settings.contains("game = \"chess\""), "{settings}");
    let levels = std::fs::read_to_string(out.join("levels.toml")).unwrap();
    assert!(
        levels.contains(&chuhan_engine::chess::bench::SIGNATURE.to_string()),
        "{levels}"
    );
    assert!(
        levels.contains("[weak]") && levels.contains("[strong]"),
        "{levels}"
    );
    assert!(replay_all(&out.join("grid")) > 0);
    assert!(replay_all(&out.join("validate")) > 0);
    // Resuming it as xiangqi is refused, naming both games.
    let (code, _, err) = chuhan(&[
        "calibrate",
        "--resume",
        out.to_str().unwrap(),
        "--game",
        "xiangqi",
        "--quiet",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("plays chess") && err.contains("--game xiangqi"),
        "{err}"
    );
}

#[test]
fn the_shipped_chess_files_read_as_chess() {
    use chuhan_arena::jobs::ladder::LadderConfig;
    use chuhan_arena::play::any::GameKind;
    use chuhan_arena::play::player::{resolve_player_for, PlayerSpec};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    // The whole ladder file is checked as the ladder command checks it, its players' files
    // included: those paths are relative to the repository root, so they are rewritten here
    // rather than changing the test process's directory under the other tests.
    let configs = root.join("configs");
    for file in ["ladder-chess.toml", "ladder-chess-stockfish.toml"] {
        let text = std::fs::read_to_string(configs.join(file))
            .unwrap()
            .replace("\"configs/", &format!("\"{}/", configs.display()));
        let ladder = LadderConfig::parse(&text, file).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(ladder.kind(), GameKind::Chess, "{file}");
    }
    let sf_file = configs.join("engines/stockfish.toml");
    let sf_file = sf_file.to_str().unwrap();
    let sf = resolve_player_for(sf_file, GameKind::Chess).unwrap();
    assert!(matches!(&sf, PlayerSpec::External(e) if e.game == GameKind::Chess));
    assert!(resolve_player_for(sf_file, GameKind::Xiangqi).is_err());
}

#[test]
fn a_failing_chess_engine_loses_its_games_by_name_and_the_run_goes_on() {
    let dir = scratch("failing");
    // Answers the handshake, then an illegal move (a1a1) or, in the second variant, dies.
    let script = |on_go: &str| {
        format!(
            "while read l; do case \"$l\" in uci) echo uciok;; isready) echo readyok;; go*) {on_go};; quit) exit 0;; esac; done"
        )
    };
    for (name, on_go, termination) in [
        ("illegal", "echo 'bestmove a1a1'", "illegal-move"),
        ("crasher", "exit 3", "crash"),
    ] {
        let file = dir.join(format!("{name}.toml"));
        std::fs::write(
            &file,
            format!(
                "name = {name:?}\ngame = \"chess\"\n[uci]\ncommand = \"/bin/sh\"\nargs = [\"-c\", {:?}]\nstartup_timeout_ms = 3000\nfixed_limit_timeout_ms = 5000\n",
                script(on_go)
            ),
        )
        .unwrap();
        let out = dir.join(format!("run-{name}"));
        let (code, stdout, err) = chuhan(&[
            "match",
            "--game",
            "chess",
            "--player",
            file.to_str().unwrap(),
            "--player",
            "random",
            "--pairs",
            "2",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{stdout}\n{err}");
        let games = rows(&out);
        assert_eq!(games.len(), 4);
        for g in &games {
            assert_eq!(g["termination"], termination, "{g:?}");
            let engine_lost = if g["red"].ends_with(&format!("{name}.toml")) {
                "0-1"
            } else {
                "1-0"
            };
            assert_eq!(g["result"], engine_lost, "{g:?}");
        }
        replay_all(&out);
    }
}
