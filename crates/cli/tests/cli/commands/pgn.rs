//! games.pgn through the real binary: one record per games.csv row, read back by our own PGN
//! reader with the same moves and results, in every notation; per-move comments from built-in
//! and external engines; no duplicates after --resume; PGN opening books.

use crate::fixtures as common;

use chuhan_engine::{read_pgn, GameRecord, Position, START_FEN};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

use common::chuhan;

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("pgn-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn ok(args: &[&str]) -> String {
    let (code, out, err) = chuhan(args);
    assert_eq!(code, 0, "chuhan {args:?}\n{out}\n{err}");
    out
}

/// games.csv rows as maps from column to value, in file order.
fn rows(dir: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let mut r = csv::Reader::from_path(dir.join("games.csv")).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            header
                .iter()
                .cloned()
                .zip(rec.iter().map(String::from))
                .collect()
        })
        .collect()
}

fn pgn(dir: &Path) -> (String, Vec<GameRecord>) {
    let text = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
    let games = read_pgn(&text).unwrap_or_else(|e| panic!("games.pgn does not read: {e}"));
    (text, games)
}

/// Every games.csv row has exactly one record, in the same order, with the same round, players,
/// start, moves, result and termination; returns the records.
fn assert_pgn_matches_csv(dir: &Path) -> Vec<GameRecord> {
    let rows = rows(dir);
    let (_, games) = pgn(dir);
    assert_eq!(games.len(), rows.len(), "one record per games.csv row");
    let mut rounds = HashSet::new();
    for (row, game) in rows.iter().zip(&games) {
        let round = format!("{}.{}", row["pair"], row["game"]);
        assert_eq!(game.tag("Round"), Some(round.as_str()));
        assert!(rounds.insert(round.clone()), "round {round} twice");
        assert_eq!(game.tag("Red"), Some(row["red"].as_str()));
        assert_eq!(game.tag("Black"), Some(row["black"].as_str()));
        // Red's player again as `White`, for rating tools that read only chess's roster.
        assert_eq!(game.tag("White"), Some(row["red"].as_str()));
        assert_eq!(game.result, row["result"]);
        let moves: Vec<String> = game.moves.iter().map(|m| m.to_uci()).collect();
        assert_eq!(moves.join(" "), row["moves"], "round {round}");
        assert_eq!(
            Position::from_fen(&game.start_fen).unwrap().to_fen(),
            Position::from_fen(&row["opening"]).unwrap().to_fen()
        );
        let termination = game.tag("Termination").unwrap();
        assert!(
            termination.starts_with(row["termination"].as_str()),
            "{termination} vs {}",
            row["termination"]
        );
        assert_eq!(game.tag("PlyCount"), Some(row["plies"].as_str()));
        for tag in ["Event", "Site", "Date"] {
            assert!(game.tag(tag).is_some_and(|v| !v.is_empty()), "{tag}");
        }
    }
    games
}

/// The `{...}` comments of a PGN text, in order.
fn comments(text: &str) -> Vec<String> {
    text.split('{')
        .skip(1)
        .map(|s| s.split('}').next().unwrap().to_string())
        .collect()
}

/// `score/depth nodes time`: returns (score, depth, nodes).
fn parse_comment(c: &str) -> (String, String, u64) {
    let parts: Vec<&str> = c.split(' ').collect();
    assert_eq!(parts.len(), 3, "comment '{c}'");
    let (score, depth) = parts[0].split_once('/').expect("score/depth");
    let time = parts[2].strip_suffix('s').expect("time in seconds");
    assert!(time.parse::<f64>().is_ok_and(|t| t >= 0.0), "time in '{c}'");
    (score.into(), depth.into(), parts[1].parse().expect("nodes"))
}

fn simple_match(dir: &Path, extra: &[&str]) -> String {
    let mut args = vec![
        "match",
        "--player",
        "greedy",
        "--player",
        "random",
        "--pairs",
        "6",
        "--seed",
        "3",
        "--concurrency",
        "2",
        "--quiet",
        "--out",
    ];
    args.push(dir.to_str().unwrap());
    args.extend_from_slice(extra);
    ok(&args)
}

#[test]
fn every_game_is_one_record_that_reads_back_in_every_notation() {
    for (format, tag) in [
        (None, "ICCS"),
        (Some("wxf"), "WXF"),
        (Some("chinese"), "Chinese"),
    ] {
        let dir = scratch(&format!("formats-{tag}"));
        let extra: Vec<&str> = format.map_or(vec![], |f| vec!["--pgn-format", f]);
        simple_match(&dir, &extra);
        let games = assert_pgn_matches_csv(&dir);
        assert_eq!(games.len(), 12);
        let (text, _) = pgn(&dir);
        assert_eq!(
            text.matches(&format!("[Format \"{tag}\"]")).count(),
            12,
            "{text}"
        );
        // Generated openings are not the standard start: each record names its FEN.
        assert_eq!(text.matches("[FEN \"").count(), 12);
        assert!(!text.contains(START_FEN));
        // Every move has its comment; random and greedy give no score or depth.
        let plies: usize = games.iter().map(|g| g.moves.len()).sum();
        let all = comments(&text);
        assert_eq!(all.len(), plies);
        for c in &all {
            let (score, depth, nodes) = parse_comment(c);
            assert_eq!(
                (score.as_str(), depth.as_str(), nodes),
                ("-", "-", 0),
                "{c}"
            );
        }
    }
}

#[test]
fn engine_moves_carry_score_depth_nodes_and_time_for_built_in_and_uci_players() {
    let uci = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../configs/engines/chuhan-uci.toml"
    );
    let dir = scratch("engines");
    ok(&[
        "match",
        "--player",
        "default",
        "--player",
        uci,
        "--pairs",
        "1",
        "--nodes",
        "300",
        "--ply-cap",
        "16",
        "--concurrency",
        "1",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let games = assert_pgn_matches_csv(&dir);
    let (text, _) = pgn(&dir);
    let records: Vec<&str> = text.split("[Game ").skip(1).collect();
    assert_eq!(records.len(), 2);
    let csv = rows(&dir);
    for ((record, game), row) in records.iter().zip(&games).zip(&csv) {
        let cs = comments(record);
        assert_eq!(cs.len(), game.moves.len());
        let mut total = 0;
        for c in &cs {
            let (score, depth, nodes) = parse_comment(c);
            let pawns = score.trim_start_matches(['+', '-']);
            assert!(
                (score.starts_with('+') || score.starts_with('-'))
                    && (pawns.parse::<f64>().is_ok() || pawns.starts_with('M')),
                "score in '{c}'"
            );
            assert!(depth.parse::<u32>().is_ok_and(|d| d >= 1), "depth in '{c}'");
            assert!(nodes > 0, "nodes in '{c}'");
            total += nodes;
        }
        // The comments' nodes are the moves' nodes that games.csv sums.
        assert_eq!(total, row["nodes"].parse::<u64>().unwrap());
    }
}

#[test]
fn resume_rebuilds_games_pgn_from_games_csv_without_duplicates() {
    let full = scratch("resume-full");
    let cut = scratch("resume-cut");
    simple_match(&full, &[]);
    simple_match(&cut, &[]);
    // games.csv: the header, 5 whole rows and half a row. games.pgn: 7 records and half of
    // the 8th (games written after the last whole csv row, one cut short).
    let text = std::fs::read_to_string(cut.join("games.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let half = &lines[6][..lines[6].len() / 2];
    std::fs::write(
        cut.join("games.csv"),
        format!("{}\n{half}", lines[..6].join("\n")),
    )
    .unwrap();
    let (pgn_text, _) = pgn(&cut);
    let starts: Vec<usize> = pgn_text.match_indices("[Game ").map(|(i, _)| i).collect();
    let cut_at = starts[7] + (starts[8] - starts[7]) / 2;
    std::fs::write(cut.join("games.pgn"), &pgn_text[..cut_at]).unwrap();
    let kept: Vec<&str> = (0..5)
        .map(|i| &pgn_text[starts[i]..starts[i + 1]])
        .collect();

    let out = ok(&["match", "--resume", cut.to_str().unwrap(), "--quiet"]);
    assert!(out.contains("played 7 games"), "{out}");
    let games = assert_pgn_matches_csv(&cut);
    assert_eq!(games.len(), 12);
    // The records of the games kept are kept as they were (with their comments).
    let (after, _) = pgn(&cut);
    for k in kept {
        assert!(after.contains(k), "record lost: {k}");
    }
    // Same games as the uninterrupted run (the timing comments aside).
    let mut a: Vec<(String, Vec<String>, String)> = pgn(&full)
        .1
        .iter()
        .map(|g| {
            let moves = g.moves.iter().map(|m| m.to_uci()).collect();
            (g.tag("Round").unwrap().to_string(), moves, g.result.clone())
        })
        .collect();
    let mut b: Vec<(String, Vec<String>, String)> = games
        .iter()
        .map(|g| {
            let moves = g.moves.iter().map(|m| m.to_uci()).collect();
            (g.tag("Round").unwrap().to_string(), moves, g.result.clone())
        })
        .collect();
    a.sort();
    b.sort();
    assert_eq!(a, b);
    // Resuming a finished run plays nothing and leaves games.pgn as it is.
    let out = ok(&["match", "--resume", cut.to_str().unwrap(), "--quiet"]);
    assert!(out.contains("played 0 games"), "{out}");
    assert_eq!(pgn(&cut).0, after);
}

#[test]
fn sprt_runs_write_games_pgn_too() {
    let dir = scratch("sprt");
    ok(&[
        "sprt",
        "--base",
        "random",
        "--test",
        "greedy",
        "--elo0",
        "0",
        "--elo1",
        "200",
        "--max-pairs",
        "8",
        "--seed",
        "2",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let games = assert_pgn_matches_csv(&dir);
    assert!(!games.is_empty());
    assert!(games.iter().all(|g| g.tag("Event") == Some("chuhan sprt")));
}

fn position_after(fen: &str, uci: &[&str]) -> String {
    let mut pos = Position::from_fen(fen).unwrap();
    for m in uci {
        let mv = chuhan_engine::Move::parse_uci(m).unwrap();
        assert!(pos.is_legal(mv), "{m}");
        pos.make(mv);
    }
    pos.to_fen()
}

const BOOK: &str = "[Game \"Chinese Chess\"]\n[Event \"book\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *\n\n\
[Event \"book 2\"]\n[Format \"WXF\"]\n\n1. C8.5 H2+3 {a comment} 2. H8+7 *\n\n\
[Event \"book 3\"]\n\n1. b2e2 b9c7 *\n";

fn book_match(dir: &Path, book: &Path, pairs: &str, plies: Option<&str>) -> (i32, String, String) {
    let mut args = vec![
        "match",
        "--player",
        "greedy",
        "--player",
        "random",
        "--pairs",
        pairs,
        "--seed",
        "4",
        "--ply-cap",
        "20",
        "--quiet",
        "--openings",
    ];
    args.push(book.to_str().unwrap());
    if let Some(p) = plies {
        args.extend_from_slice(&["--opening-plies", p]);
    }
    args.extend_from_slice(&["--out", dir.to_str().unwrap()]);
    chuhan(&args)
}

#[test]
fn pgn_books_give_each_record_s_moves_up_to_opening_plies() {
    let dir = scratch("book");
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("book.pgn");
    std::fs::write(&book, BOOK).unwrap();
    let out = dir.join("run");
    let (code, o, e) = book_match(&out, &book, "3", Some("2"));
    assert_eq!(code, 0, "{o}\n{e}");
    let mut used: Vec<String> = rows(&out).iter().map(|r| r["opening"].clone()).collect();
    used.sort();
    used.dedup();
    let mut expected = vec![
        position_after(START_FEN, &["h2e2", "h9g7"]),
        position_after(START_FEN, &["b2e2", "b9c7"]),
        position_after(START_FEN, &["b2e2", "b9c7"]),
    ];
    // Records 2 and 3 agree on their first two plies (C8.5 is b2e2, H2+3 is b9c7): two
    // pairs share that opening.
    expected.sort();
    expected.dedup();
    assert_eq!(used, expected);
    assert_eq!(rows(&out).len(), 6);
    assert_pgn_matches_csv(&out);

    // Without --opening-plies, all of each record's moves; a run's own games.pgn is a book.
    let all = dir.join("all");
    let (code, o, e) = book_match(&all, &book, "3", None);
    assert_eq!(code, 0, "{o}\n{e}");
    let mut used: Vec<String> = rows(&all).iter().map(|r| r["opening"].clone()).collect();
    used.sort();
    used.dedup();
    let mut expected = vec![
        position_after(START_FEN, &["h2e2", "h9g7", "h0g2", "i9h9"]),
        position_after(START_FEN, &["b2e2", "b9c7", "b0c2"]),
        position_after(START_FEN, &["b2e2", "b9c7"]),
    ];
    expected.sort();
    assert_eq!(used, expected);
    let again = dir.join("again");
    let (code, o, e) = book_match(&again, &all.join("games.pgn"), "6", Some("3"));
    assert_eq!(code, 0, "{o}\n{e}");
    let first: Vec<String> = rows(&all)
        .iter()
        .map(|r| {
            let moves: Vec<&str> = r["moves"].split(' ').take(3).collect();
            position_after(&r["opening"], &moves)
        })
        .collect();
    for r in rows(&again) {
        assert!(first.contains(&r["opening"]), "{}", r["opening"]);
    }
}

#[test]
fn a_bad_pgn_book_exits_2_naming_the_file_record_and_move() {
    let dir = scratch("bad-book");
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        (
            "illegal.pgn",
            BOOK.replace("1. b2e2 b9c7", "1. b2e2 b9b5"),
            vec![
                "record 3",
                "1... for Black",
                "'b9b5'",
                "denotes no legal move",
            ],
        ),
        (
            "wxf.pgn",
            BOOK.replace("2. H8+7", "2. H8+5"),
            vec!["record 2", "2. for Red", "'H8+5'"],
        ),
        (
            "tag.pgn",
            BOOK.replace("[Event \"book 3\"]", "[Event book 3]"),
            vec!["record 3", "malformed tag"],
        ),
        (
            "finished.pgn",
            "[FEN \"4k4/9/9/9/R8/9/9/9/5R3/3K5 w - - 0 1\"]\n\n1. a5e5 1-0\n".to_string(),
            vec!["record 1", "already decided"],
        ),
    ];
    for (name, text, needles) in cases {
        let book = dir.join(name);
        std::fs::write(&book, text).unwrap();
        let out = dir.join(format!("{name}.run"));
        let (code, o, e) = book_match(&out, &book, "1", Some("4"));
        assert_eq!(code, 2, "{name}: {o}\n{e}");
        assert!(e.contains(book.to_str().unwrap()), "{name}: {e}");
        for n in needles {
            assert!(e.contains(n), "{name}: '{n}' not in: {e}");
        }
        assert!(!out.exists(), "{name}: nothing written");
    }
}

#[test]
fn match_and_sprt_print_the_stat_block_with_the_summary_s_numbers() {
    let dir = scratch("statblock-match");
    let out = simple_match(&dir, &[]);
    let summary = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
    let mut r = csv::Reader::from_reader(summary.as_bytes());
    let h = r.headers().unwrap().clone();
    let row = r.records().next().unwrap().unwrap();
    let get = |k: &str| row[h.iter().position(|x| x == k).unwrap()].to_string();
    let manifest = std::fs::read_to_string(dir.join("manifest.toml")).unwrap();
    let bench = manifest
        .lines()
        .find_map(|l| l.strip_prefix("bench_signature = "))
        .unwrap()
        .trim_matches('"')
        .to_string();
    assert!(
        out.contains("chuhan match: greedy vs random, nodes=10000, seed 3\n"),
        "{out}"
    );
    let elo: f64 = get("elo").parse().unwrap();
    let (low, high): (f64, f64) = (
        get("elo_low").parse().unwrap(),
        get("elo_high").parse().unwrap(),
    );
    assert!(
        out.contains(&format!("Elo   {elo:+.2} [{low:+.2}, {high:+.2}] (95%)")),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "Games {}: W {}  D {}  L {}",
            get("games"),
            get("wins"),
            get("draws"),
            get("losses")
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!("Ptnml {} (LL LD DD+WL WD WW)", get("pentanomial"))),
        "{out}"
    );
    assert!(out.contains(&format!("Bench {bench} (chuhan ")), "{out}");
    assert!(!out.contains("SPRT  "), "{out}");
    assert_report_shows_the_printed_block(&dir, &out, "chuhan match: ");

    let dir = scratch("statblock-sprt");
    let out = ok(&[
        "sprt",
        "--base",
        "random",
        "--test",
        "greedy",
        "--elo0",
        "0",
        "--elo1",
        "200",
        "--max-pairs",
        "40",
        "--seed",
        "2",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let summary = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
    let mut r = csv::Reader::from_reader(summary.as_bytes());
    let h = r.headers().unwrap().clone();
    let row = r.records().next().unwrap().unwrap();
    let get = |k: &str| row[h.iter().position(|x| x == k).unwrap()].to_string();
    let llr: f64 = get("llr").parse().unwrap();
    let lower: f64 = get("lower").parse().unwrap();
    let upper: f64 = get("upper").parse().unwrap();
    let line = format!(
        "SPRT  nElo [0, 200], alpha 0.05, beta 0.05: LLR {llr:.2} ({lower:.2}, {upper:.2}) {}",
        get("verdict")
    );
    assert!(out.contains(&line), "'{line}' not in {out}");
    assert!(out.contains(&format!("Games {}: ", get("games"))), "{out}");
    assert_report_shows_the_printed_block(&dir, &out, "chuhan sprt: ");
}

/// report.html's stat block is the text the job printed, character for character.
fn assert_report_shows_the_printed_block(dir: &Path, out: &str, head: &str) {
    let page = std::fs::read_to_string(dir.join("report.html")).unwrap();
    let start = page.find("<pre id=\"statblock\">").expect("a stat block") + 20;
    let end = start + page[start..].find("</pre>").unwrap();
    let shown = page[start..end]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    assert!(shown.starts_with(head), "{shown}");
    assert!(shown.contains("\nBench "), "{shown}");
    assert!(
        out.contains(&shown),
        "the page's block\n{shown}\nis not what was printed:\n{out}"
    );
    let kept = std::fs::read_to_string(dir.join("statblock.txt")).unwrap();
    assert_eq!(kept, shown);
}

#[test]
fn spsa_writes_games_pgn_when_asked_and_resumes_it_without_duplicates() {
    let root = scratch("spsa");
    std::fs::create_dir_all(&root).unwrap();
    let params = root.join("params.txt");
    std::fs::write(&params, "eval.tempo, 3, -20, 40, 6, 0.05\n").unwrap();
    let run = |dir: &Path, extra: &[&str]| {
        let mut args = vec![
            "tune",
            "spsa",
            "--base",
            "handcrafted",
            "--params-file",
            params.to_str().unwrap(),
            "--iterations",
            "4",
            "--pairs-per-iteration",
            "2",
            "--nodes",
            "200",
            "--ply-cap",
            "24",
            "--seed",
            "5",
            "--quiet",
            "--concurrency",
            "2",
            "--out",
            dir.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        ok(&args)
    };
    // Without the flag, no games.pgn.
    let plain = root.join("plain");
    run(&plain, &[]);
    assert!(!plain.join("games.pgn").exists());

    let full = root.join("full");
    run(&full, &["--pgn-format", "wxf"]);
    let (text, games) = pgn(&full);
    assert_eq!(games.len(), 16, "4 iterations x 2 pairs x 2 games");
    assert_eq!(text.matches("[Format \"WXF\"]").count(), 16);
    let rounds: HashSet<&str> = games.iter().filter_map(|g| g.tag("Round")).collect();
    assert_eq!(rounds.len(), 16, "each game once");
    for g in &games {
        assert_eq!(g.tag("Event"), Some("chuhan tune spsa"));
        let players = [g.tag("Red").unwrap(), g.tag("Black").unwrap()];
        assert!(
            players.contains(&"theta+") && players.contains(&"theta-"),
            "{players:?}"
        );
        assert!(g.moves.len() <= 24);
    }
    let plies: usize = games.iter().map(|g| g.moves.len()).sum();
    assert_eq!(comments(&text).len(), plies, "one comment per move");

    // Interrupt after two iterations (spsa.csv cut mid-line) with games.pgn holding those
    // games, some of the third iteration's and half a record: resuming keeps the first eight
    // games and plays the rest once.
    let cut = root.join("cut");
    std::fs::create_dir_all(&cut).unwrap();
    std::fs::copy(full.join("manifest.toml"), cut.join("manifest.toml")).unwrap();
    let csv = std::fs::read_to_string(full.join("spsa.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    std::fs::write(
        cut.join("spsa.csv"),
        format!(
            "{}\n{}",
            lines[..3].join("\n"),
            &lines[3][..lines[3].len() / 2]
        ),
    )
    .unwrap();
    let cut_at = text.len() - text.len() / 5;
    std::fs::write(cut.join("games.pgn"), &text[..cut_at]).unwrap();
    let out = ok(&["tune", "spsa", "--resume", cut.to_str().unwrap(), "--quiet"]);
    assert_eq!(
        std::fs::read_to_string(cut.join("spsa.csv")).unwrap(),
        csv,
        "{out}"
    );
    let (_, again) = pgn(&cut);
    assert_eq!(again.len(), 16);
    let key = |g: &GameRecord| {
        let moves: Vec<String> = g.moves.iter().map(|m| m.to_uci()).collect();
        (g.tag("Round").unwrap().to_string(), moves, g.result.clone())
    };
    let mut a: Vec<_> = games.iter().map(key).collect();
    let mut b: Vec<_> = again.iter().map(key).collect();
    a.sort();
    b.sort();
    assert_eq!(a, b);
}

#[test]
fn ladders_write_games_pgn_in_the_ladder_file_s_format() {
    let dir = scratch("ladder");
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = dir.join("ladder.toml");
    std::fs::write(
        &cfg,
        "name = \"tiny\"\nseed = 3\npairs = 2\nneighbours = 1\nmax_nodes = 300\n\
         pgn_format = \"chinese\"\n\
         [[players]]\nname = \"random\"\nspec = \"random\"\n\
         [[players]]\nname = \"greedy\"\nspec = \"greedy\"\n\
         [[players]]\nname = \"d1\"\nspec = \"default:depth=1\"\n",
    )
    .unwrap();
    let out = dir.join("out");
    ok(&[
        "ladder",
        "--config",
        cfg.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    let games = assert_pgn_matches_csv(&out);
    assert_eq!(games.len(), 8, "2 pairings x 2 pairs x 2 games");
    let (text, _) = pgn(&out);
    assert_eq!(text.matches("[Format \"Chinese\"]").count(), 8);
    assert!(games
        .iter()
        .all(|g| g.tag("Event") == Some("chuhan ladder")));
}
