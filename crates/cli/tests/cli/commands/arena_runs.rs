//! Matches and SPRTs through the real binary and the library: reproducibility across
//! concurrency, resume after an interruption, real strength differences, legal verdicts,
//! opening use, and bad input.

use crate::fixtures as common;

use chuhan_arena::play::game::PlaySettings;
use chuhan_arena::play::openings::{generate, OpeningBook};
use chuhan_arena::play::player::PlayerSpec;
use chuhan_arena::play::runner::{run, Entrant, Event, PlayedGame, RunPlan};
use chuhan_arena::play::schedule::{round_robin, Schedule};
use chuhan_engine::{Game, GameConfig, Move, Position};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;
use std::sync::Arc;

use common::chuhan;

/// A fresh, absent directory under the test target's temporary folder.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("arena-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn ok(args: &[&str]) -> String {
    let (code, out, err) = chuhan(args);
    assert_eq!(code, 0, "chuhan {args:?}\n{out}\n{err}");
    out
}

/// games.csv rows keyed by game index, without the timing column.
fn games(dir: &Path) -> BTreeMap<u64, Vec<String>> {
    let mut r = csv::Reader::from_path(dir.join("games.csv")).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let seconds = header.iter().position(|h| h == "seconds").unwrap();
    let game = header.iter().position(|h| h == "game").unwrap();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            let mut row: Vec<String> = rec.iter().map(String::from).collect();
            row.remove(seconds);
            (rec[game].parse().unwrap(), row)
        })
        .collect()
}

fn column(dir: &Path, name: &str) -> Vec<String> {
    let mut r = csv::Reader::from_path(dir.join("games.csv")).unwrap();
    let i = r.headers().unwrap().iter().position(|h| h == name).unwrap();
    r.records().map(|rec| rec.unwrap()[i].to_string()).collect()
}

fn summary(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("summary.csv")).unwrap()
}

fn match_args<'a>(out_flag: &'a str, dir: &'a str, conc: &'a str, pairs: &'a str) -> Vec<&'a str> {
    vec![
        "match",
        "--player",
        "greedy",
        "--player",
        "random",
        "--pairs",
        pairs,
        "--seed",
        "7",
        "--concurrency",
        conc,
        "--quiet",
        out_flag,
        dir,
    ]
}

#[test]
fn same_seed_same_games_at_any_concurrency() {
    let a = scratch("conc1");
    let b = scratch("conc2");
    ok(&match_args("--out", a.to_str().unwrap(), "1", "12"));
    ok(&match_args("--out", b.to_str().unwrap(), "2", "12"));
    let (ga, gb) = (games(&a), games(&b));
    assert_eq!(ga.len(), 24);
    assert_eq!(ga, gb);
    assert_eq!(summary(&a), summary(&b));
    // A different seed gives different games.
    let c = scratch("conc-seed");
    let mut args = match_args("--out", c.to_str().unwrap(), "2", "12");
    args[8] = "8";
    ok(&args);
    assert_ne!(games(&c), ga);
}

#[test]
fn resume_after_a_truncated_games_file_equals_an_uninterrupted_run() {
    let full = scratch("resume-full");
    let cut = scratch("resume-cut");
    ok(&match_args("--out", full.to_str().unwrap(), "2", "10"));
    ok(&match_args("--out", cut.to_str().unwrap(), "2", "10"));
    // Keep the header, 7 whole rows (pair 3 half done) and half of the 8th row.
    let text = std::fs::read_to_string(cut.join("games.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let half = &lines[8][..lines[8].len() / 2];
    let truncated = format!("{}\n{half}", lines[..8].join("\n"));
    std::fs::write(cut.join("games.csv"), truncated).unwrap();
    std::fs::remove_file(cut.join("summary.csv")).unwrap();
    // Resume with only the folder, and also check a repeated full command line is accepted.
    let out = ok(&["match", "--resume", cut.to_str().unwrap(), "--quiet"]);
    assert!(out.contains("played 13 games"), "{out}");
    assert_eq!(games(&cut), games(&full));
    assert_eq!(summary(&cut), summary(&full));
    let out = ok(&match_args("--resume", cut.to_str().unwrap(), "1", "10"));
    assert!(out.contains("played 0 games"), "{out}");
    assert_eq!(column(&cut, "game").len(), 20, "no game played twice");
}

#[test]
fn resume_refuses_a_different_configuration_and_writes_nothing() {
    let dir = scratch("resume-differs");
    ok(&match_args("--out", dir.to_str().unwrap(), "2", "3"));
    let before = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    let (code, _, err) = chuhan(&match_args("--resume", dir.to_str().unwrap(), "2", "4"));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("pairs"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("games.csv")).unwrap(),
        before
    );
}

fn plan(concurrency: usize, pairs: u64) -> RunPlan {
    let schedule = Schedule::new(round_robin(2, pairs), 11, None);
    RunPlan {
        entrants: vec![
            Entrant {
                name: "greedy".into(),
                spec: PlayerSpec::Greedy,
            },
            Entrant {
                name: "random".into(),
                spec: PlayerSpec::Random,
            },
        ],
        openings: OpeningBook::fixed(
            generate(6, schedule.total_pairs as usize, 11, Default::default()).unwrap(),
        ),
        schedule,
        settings: PlaySettings::default(),
        concurrency,
    }
}

fn without_time(records: &BTreeMap<u64, PlayedGame>) -> Vec<PlayedGame> {
    records
        .values()
        .map(|r| PlayedGame {
            seconds: 0.0,
            // Per-move times differ between runs like the game's wall time.
            search: Vec::new(),
            ..r.clone()
        })
        .collect()
}

#[test]
fn runner_cancelled_after_k_games_then_resumed_equals_uninterrupted() {
    // Enough games that the workers cannot have taken them all by the time the cancel lands
    // (with 16, a loaded machine sometimes played every game first).
    let p = plan(2, 64);
    let total = p.schedule.games.len();
    let (tx, _rx) = channel();
    let full = run(&p, Vec::new(), None, Arc::new(AtomicBool::new(false)), tx).records;
    // Interrupt: cancel once 5 games have finished (games in progress still finish).
    let cancel = Arc::new(AtomicBool::new(false));
    let (tx, rx) = channel();
    let outcome = std::thread::scope(|s| {
        let c = cancel.clone();
        let h = s.spawn(|| run(&p, Vec::new(), None, c, tx));
        let mut finished = 0;
        for e in rx {
            if let Event::GameFinished { .. } = e {
                finished += 1;
                if finished == 5 {
                    cancel.store(true, Ordering::SeqCst);
                }
            }
        }
        h.join().unwrap()
    });
    assert!(outcome.stopped_at.is_none() && outcome.error.is_none());
    let partial = outcome.records;
    assert!(
        partial.len() >= 5 && partial.len() < total,
        "{}",
        partial.len()
    );
    let (tx, rx) = channel();
    let done: Vec<PlayedGame> = partial.values().cloned().collect();
    let resumed = run(&p, done, None, Arc::new(AtomicBool::new(false)), tx).records;
    let replayed = rx
        .iter()
        .filter(|e| matches!(e, Event::GameFinished { resumed: false, .. }))
        .count();
    assert_eq!(
        replayed,
        total - partial.len(),
        "each missing game played once"
    );
    assert_eq!(without_time(&resumed), without_time(&full));
}

#[test]
fn greedy_beats_random_by_a_wide_margin() {
    let dir = scratch("strength");
    ok(&match_args("--out", dir.to_str().unwrap(), "2", "30"));
    let mut r = csv::Reader::from_path(dir.join("summary.csv")).unwrap();
    let h = r.headers().unwrap().clone();
    let row = r.records().next().unwrap().unwrap();
    let get = |k: &str| {
        row[h.iter().position(|x| x == k).unwrap()]
            .parse::<f64>()
            .unwrap()
    };
    assert!(get("score") > 0.7, "score {}", get("score"));
    assert!(
        get("elo") - get("elo_ci95") > 100.0,
        "elo {} ± {}",
        get("elo"),
        get("elo_ci95")
    );
    assert!(get("los") > 0.999);
}

#[test]
fn verdicts_are_legal_and_pairs_share_an_opening_with_colours_swapped() {
    let dir = scratch("legal");
    ok(&[
        "match",
        "--player",
        "greedy",
        "--player",
        "random",
        "--player",
        "random",
        "--pairs",
        "6",
        "--seed",
        "3",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
        "--move-limit",
        "60",
    ]);
    let mut r = csv::Reader::from_path(dir.join("games.csv")).unwrap();
    let h = r.headers().unwrap().clone();
    let col = |k: &str| h.iter().position(|x| x == k).unwrap();
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 3 * 6 * 2, "three pairings, six pairs each");
    let config = GameConfig {
        move_limit: 60,
        ..GameConfig::default()
    };
    let mut by_pair: HashMap<String, Vec<&csv::StringRecord>> = HashMap::new();
    for row in &rows {
        // Replay: every move legal, the judge ends the game exactly at the last move with the
        // recorded result and termination.
        let mut game = Game::new(Position::from_fen(&row[col("opening")]).unwrap(), config);
        let moves: Vec<&str> = row[col("moves")].split_whitespace().collect();
        assert_eq!(moves.len(), row[col("plies")].parse::<usize>().unwrap());
        let mut verdict = None;
        for (i, m) in moves.iter().enumerate() {
            assert!(verdict.is_none(), "move after the end");
            let mv = Move::parse_uci(m).unwrap();
            verdict = game.play(mv).unwrap_or_else(|e| panic!("ply {i}: {e}"));
        }
        let v = verdict.expect("the game ended by rule");
        assert_eq!(v.result.as_pgn(), &row[col("result")]);
        assert_eq!(v.termination.as_str(), &row[col("termination")]);
        by_pair
            .entry(row[col("pair")].to_string())
            .or_default()
            .push(row);
    }
    let mut openings = std::collections::HashSet::new();
    assert_eq!(by_pair.len(), 18);
    for pair in by_pair.values() {
        assert_eq!(pair.len(), 2);
        let (a, b) = (pair[0], pair[1]);
        assert_eq!(a[col("opening")], b[col("opening")]);
        assert_eq!(
            (&a[col("red")], &a[col("black")]),
            (&b[col("black")], &b[col("red")])
        );
        assert!(
            openings.insert(a[col("opening")].to_string()),
            "opening reused"
        );
    }
}

#[test]
fn sprt_stops_at_the_upper_bound_on_a_strong_difference_and_resumes_to_the_same_verdict() {
    let dir = scratch("sprt");
    let args = |flag: &'static str, d: &str| -> Vec<String> {
        [
            "sprt",
            "--test",
            "greedy",
            "--base",
            "random",
            "--elo0",
            "0",
            "--elo1",
            "10",
            "--model",
            "logistic",
            "--max-pairs",
            "400",
            "--concurrency",
            "2",
            "--quiet",
            flag,
            d,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    let a: Vec<String> = args("--out", dir.to_str().unwrap());
    let out = ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(out.contains("verdict: H1"), "{out}");
    let s = summary(&dir);
    assert!(s.contains(",H1"), "{s}");
    let pairs: u64 = out
        .split("after ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(pairs < 400, "stopped early: {pairs}");
    // Interrupt a second run early, resume it: same verdict on the same pairs.
    let cut = scratch("sprt-cut");
    ok(&args("--out", cut.to_str().unwrap())
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>());
    let text = std::fs::read_to_string(cut.join("games.csv")).unwrap();
    let keep: Vec<&str> = text.lines().take(12).collect();
    std::fs::write(cut.join("games.csv"), keep.join("\n") + "\n").unwrap();
    ok(&[
        "sprt",
        "--resume",
        cut.to_str().unwrap(),
        "--quiet",
        "--concurrency",
        "1",
    ]);
    assert_eq!(summary(&cut), s);
}

fn expect_usage_error(args: &[&str], needle: &str, dir: &Path) {
    let (code, out, err) = chuhan(args);
    assert_eq!(code, 2, "chuhan {args:?}\n{out}\n{err}");
    assert!(err.contains(needle), "expected '{needle}' in: {err}");
    assert!(!dir.exists(), "{} was created", dir.display());
}

#[test]
fn bad_input_exits_2_with_a_named_error_and_writes_nothing() {
    let dir = scratch("bad-input");
    let d = dir.to_str().unwrap();
    let base = |extra: &[&'static str]| -> Vec<String> {
        let mut v: Vec<String> = [
            "match", "--player", "greedy", "--player", "random", "--pairs", "2", "--out", d,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let run = |extra: &[&'static str], needle: &str| {
        let v = base(extra);
        expect_usage_error(
            &v.iter().map(String::as_str).collect::<Vec<_>>(),
            needle,
            &dir,
        );
    };
    run(&["--nodes", "0"], "--nodes must be at least 1");
    run(&["--depth", "0"], "--depth must be at least 1");
    run(&["--tc", "40/"], "--tc '40/'");
    run(&["--tc", "0+1"], "--tc '0+1'");
    run(&["--concurrency", "0"], "--concurrency");
    run(&["--rules", "western"], "western");
    expect_usage_error(
        &[
            "match",
            "--player",
            "greedy",
            "--player",
            "stockfish",
            "--pairs",
            "2",
            "--out",
            d,
        ],
        "unknown player 'stockfish'",
        &dir,
    );
    let missing = scratch("no-such-openings.epd");
    run_openings(&dir, missing.to_str().unwrap(), "cannot read opening file");
    let bad = scratch("bad-openings");
    std::fs::create_dir_all(&bad).unwrap();
    let file = bad.join("book.epd");
    std::fs::write(
        &file,
        "# two good lines, then a bad one\n\
         rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n\
         rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\n\
         rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9 w - - 0 1\n",
    )
    .unwrap();
    run_openings(&dir, file.to_str().unwrap(), "book.epd:4:");
    // A non-empty --out is refused and left alone.
    let full = scratch("non-empty");
    std::fs::create_dir_all(&full).unwrap();
    std::fs::write(full.join("keep.txt"), "mine").unwrap();
    let (code, _, err) = chuhan(&[
        "match",
        "--player",
        "greedy",
        "--player",
        "random",
        "--pairs",
        "1",
        "--out",
        full.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("is not empty"), "{err}");
    let names: Vec<_> = std::fs::read_dir(&full).unwrap().collect();
    assert_eq!(names.len(), 1);
}

fn run_openings(dir: &Path, file: &str, needle: &str) {
    let d = dir.to_str().unwrap();
    expect_usage_error(
        &[
            "match",
            "--player",
            "greedy",
            "--player",
            "random",
            "--pairs",
            "1",
            "--openings",
            file,
            "--out",
            d,
        ],
        needle,
        dir,
    );
}

#[test]
fn opening_files_are_used_in_seed_order_and_again_when_short() {
    let dir = scratch("book");
    let book_dir = scratch("book-file");
    std::fs::create_dir_all(&book_dir).unwrap();
    let fens = generate(4, 5, 99, Default::default()).unwrap();
    let file = book_dir.join("book.epd");
    std::fs::write(&file, fens.join(" ;id x\n") + "\n").unwrap();
    ok(&[
        "match",
        "--player",
        "greedy",
        "--player",
        "random",
        "--pairs",
        "5",
        "--openings",
        file.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
        "--quiet",
    ]);
    let used = column(&dir, "opening");
    let mut distinct: Vec<String> = used.clone();
    distinct.sort();
    distinct.dedup();
    let mut expected = fens.clone();
    expected.sort();
    assert_eq!(distinct, expected, "every opening used");
    assert_eq!(used.len(), 10);
    // More pairs than openings: the book is used again in the same shuffled order, and the
    // run says so (the one rule spsa follows too).
    let again = scratch("book-reused");
    let (code, _, err) = chuhan(&[
        "match",
        "--player",
        "greedy",
        "--player",
        "random",
        "--pairs",
        "7",
        "--openings",
        file.to_str().unwrap(),
        "--out",
        again.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("gives 5 distinct openings for 7 game pairs: each is used by up to 2 pairs"),
        "{err}"
    );
    // Opening by pair (games.csv is in the order games ended).
    let by_pair = |dir: &Path| -> std::collections::BTreeMap<u64, String> {
        let pairs = column(dir, "pair");
        let openings = column(dir, "opening");
        pairs
            .iter()
            .map(|p| p.parse::<u64>().unwrap())
            .zip(openings)
            .collect()
    };
    let first = by_pair(&dir);
    let reused = by_pair(&again);
    assert_eq!(column(&again, "opening").len(), 14);
    // Pairs 0-4 are those of the 5-pair run (same seed, same shuffle); pairs 5 and 6 repeat
    // pairs 0 and 1.
    for pair in 0..5 {
        assert_eq!(reused[&pair], first[&pair], "pair {pair}");
    }
    assert_eq!(reused[&5], first[&0]);
    assert_eq!(reused[&6], first[&1]);
}

#[test]
fn engine_players_are_reproducible_across_concurrency() {
    let a = scratch("engine1");
    let b = scratch("engine2");
    let args = |conc: &'static str, d: &Path| -> Vec<String> {
        [
            "match",
            "--player",
            "default",
            "--player",
            "easy",
            "--pairs",
            "2",
            "--nodes",
            "800",
            "--seed",
            "5",
            "--quiet",
            "--concurrency",
            conc,
            "--out",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([d.to_str().unwrap().to_string()])
        .collect()
    };
    fn strs(v: &[String]) -> Vec<&str> {
        v.iter().map(String::as_str).collect()
    }
    ok(&strs(&args("1", &a)));
    ok(&strs(&args("2", &b)));
    let ga = games(&a);
    assert_eq!(ga.len(), 4);
    assert_eq!(ga, games(&b));
    // Engines search and stay within the budget: each move at most --nodes 800 plus a stated
    // margin of 1% and 64 nodes (the search stops at the first node check past the budget), so
    // a game of p plies reports more than 0 and at most p * (800 * 1.01 + 64) nodes.
    let plies = column(&a, "plies");
    for (n, p) in column(&a, "nodes").iter().zip(&plies) {
        let (n, p): (u64, u64) = (n.parse().unwrap(), p.parse().unwrap());
        assert!(n > 0);
        assert!(
            n as f64 <= p as f64 * (800.0 * 1.01 + 64.0),
            "{n} nodes in {p} plies: over the budget of 800 a move"
        );
    }
}

#[test]
fn json_progress_is_one_event_object_a_line() {
    let dir = std::env::temp_dir().join(format!("chuhan-json-progress-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (code, out, err) = chuhan(&[
        "match",
        "--player",
        "greedy",
        "--player",
        "random",
        "--pairs",
        "2",
        "--progress",
        "json",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    let events: Vec<serde_json::Value> = err
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    assert_eq!(events[0]["event"], "started", "{err}");
    assert_eq!(events[0]["job"], "match");
    assert_eq!(events[0]["unit"], "game");
    assert_eq!(events[0]["total"], 4);
    assert_eq!(events.last().unwrap()["event"], "finished", "{err}");
    let last_advance = events
        .iter()
        .rev()
        .find(|e| e["event"] == "advanced")
        .expect("an advanced event");
    assert_eq!(last_advance["done"], 4);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether `text` holds `inf` as a word of its own (not inside `info`, `infinite`...).
fn bare_inf(text: &str) -> bool {
    let b = text.as_bytes();
    text.match_indices("inf").any(|(i, _)| {
        let before = i.checked_sub(1).is_some_and(|j| b[j].is_ascii_alphabetic());
        let after = b.get(i + 3).is_some_and(|c| c.is_ascii_alphabetic());
        !before && !after
    })
}

/// A lopsided tiny match (random against the default engine, 2 pairs): fishtest's symmetric
/// interval is infinite here, but the printed table, the stat block, summary.csv and
/// report.html show honest intervals, one-sided after a zero score, and never `inf`.
#[test]
fn a_lopsided_tiny_match_prints_no_inf() {
    assert!(bare_inf("Elo -496.0 ± inf") && bare_inf("inf") && !bare_inf("gameinfo infinite"));
    let dir = scratch("lopsided");
    let out = ok(&[
        "match",
        "--player",
        "random",
        "--player",
        "default",
        "--pairs",
        "2",
        "--nodes",
        "500",
        "--seed",
        "1",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let page = std::fs::read_to_string(dir.join("report.html")).unwrap();
    let csv = summary(&dir);
    for (what, text) in [
        ("stdout", &out),
        ("report.html", &page),
        ("summary.csv", &csv),
    ] {
        assert!(!bare_inf(text), "{what} prints inf:\n{text}");
    }
    let mut r = csv::Reader::from_reader(csv.as_bytes());
    let h = r.headers().unwrap().clone();
    let row = r.records().next().unwrap().unwrap();
    let get = |k: &str| row[h.iter().position(|x| x == k).unwrap()].to_string();
    let wins: u64 = get("wins").parse().unwrap();
    let losses: u64 = get("losses").parse().unwrap();
    let games: u64 = get("games").parse().unwrap();
    assert!(losses > wins, "the default engine beats random: {csv}");
    // The honest interval's ends: both finite, or (after a zero score) only the upper one, the
    // ladder's exact bound, and the stat block says so.
    if losses == games {
        let bound = -400.0 * (1.0 / 0.05f64.powf(1.0 / games as f64) - 1.0).log10();
        assert_eq!(get("elo_low"), "", "{csv}");
        assert_eq!(get("elo_high"), format!("{:.2}", -bound), "{csv}");
        assert!(
            out.contains(&format!("Elo   <= {:+.2} (zero score) (95%)", -bound)),
            "{out}"
        );
        assert!(page.contains("(zero score)"), "{page}");
    } else {
        let low: f64 = get("elo_low").parse().unwrap();
        let high: f64 = get("elo_high").parse().unwrap();
        let elo: f64 = get("elo").parse().unwrap();
        assert!(low < elo && elo < high, "{csv}");
    }
}
