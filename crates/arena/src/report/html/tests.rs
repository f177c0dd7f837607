use super::*;
use chuhan_engine::GameResult;

fn game(index: u64, red: &str, black: &str, result: GameResult, termination: &str) -> PlayedGame {
    PlayedGame {
        pair: index / 2,
        game: index,
        pairing: 0,
        opening: chuhan_engine::START_FEN.to_string(),
        red: red.into(),
        black: black.into(),
        result,
        termination: termination.into(),
        plies: 2,
        nodes: 10,
        seconds: 0.1,
        seed: 7,
        moves: "h2e2 h9g7".into(),
        search: Vec::new(),
    }
}

#[test]
fn page_is_self_contained_and_has_the_sections() {
    let dir = std::env::temp_dir().join(format!("chuhan-html-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let games = vec![
        game(0, "a", "b", GameResult::RedWins, "checkmate"),
        game(1, "b", "a", GameResult::Draw, "repetition"),
        game(2, "a", "b", GameResult::BlackWins, "crash"),
    ];
    let page = render(&dir, &games, &ReportOptions::default());
    std::fs::remove_dir_all(&dir).ok();
    for needle in [
        "<h2>Summary</h2>",
        "a vs b",
        "1-1-1",
        "Terminations",
        "crash",
        "Stat block",
        "炮二平五",
        "C2.5",
        "H8+7",
    ] {
        assert!(page.contains(needle), "missing {needle}");
    }
    // Nothing that loads from elsewhere: no src= or href= to a URL, no stylesheet link.
    for bad in ["src=", "<link", "http://", "https://"] {
        let hits: Vec<_> = page
            .match_indices(bad)
            .map(|(i, _)| &page[i..(i + 60).min(page.len())])
            .collect();
        let allowed = hits.iter().all(|h| {
            h.starts_with("http://www.w3.org/2000/svg") || h.contains("location.protocol")
        });
        assert!(allowed, "{bad}: {hits:?}");
    }
}

#[test]
fn bounded_set_keeps_failures_and_the_first_games() {
    let mut games: Vec<PlayedGame> = (0..1000)
        .map(|i| game(i, "a", "b", GameResult::Draw, "move-limit"))
        .collect();
    games[3].termination = "timeout".into();
    let chosen = games::select(&games, Some(10));
    assert_eq!(chosen.len(), 10);
    let indices: Vec<u64> = chosen.iter().map(|g| g.game).collect();
    assert_eq!(indices, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    games[500].termination = "crash".into();
    let chosen = games::select(&games, Some(10));
    let indices: Vec<u64> = chosen.iter().map(|g| g.game).collect();
    assert_eq!(indices, [0, 1, 2, 3, 4, 5, 6, 7, 8, 500]);
    assert_eq!(games::select(&games, None).len(), 1000);
}

#[test]
fn live_report_keeps_moves_only_for_games_it_can_show() {
    let dir = std::env::temp_dir().join(format!("chuhan-html-mem-{}", std::process::id()));
    let mut live = LiveReport::with_interval(&dir, Duration::from_secs(3600));
    for i in (0..(DEFAULT_GAME_LIMIT as u64 + 100)).rev() {
        let termination = if i == 250 { "crash" } else { "move-limit" };
        live.on_game(&game(i, "a", "b", GameResult::Draw, termination));
    }
    let kept: Vec<u64> = live
        .games
        .iter()
        .filter(|g| !g.moves.is_empty())
        .map(|g| g.game)
        .collect();
    assert_eq!(kept.len(), DEFAULT_GAME_LIMIT + 1);
    assert!(kept.contains(&250));
    assert!(kept
        .iter()
        .all(|&i| i < DEFAULT_GAME_LIMIT as u64 || i == 250));
    // What the browser picks all has its moves.
    let chosen = games::select(&live.games, Some(DEFAULT_GAME_LIMIT));
    assert!(chosen.iter().all(|g| !g.moves.is_empty()));
}

#[test]
fn pgn_comments_follow_moves() {
    let text = "[Event \"x\"]\n[Round \"0.1\"]\n\n1. H2-E2 {12/5 1000 0.10} H9-G7 {-3/5 900 0.09}\n2. H0-G2 1-0\n\n[Round \"0.2\"]\n\n1. C3-C4 {a\nb} *\n";
    let c = pgn_comments(text);
    assert_eq!(c["0.1"], vec!["12/5 1000 0.10", "-3/5 900 0.09", ""]);
    assert_eq!(c["0.2"], vec!["a b"]);
}

#[test]
fn large_runs_stay_under_the_cap() {
    let dir = std::env::temp_dir().join(format!("chuhan-html-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let long: Vec<&str> = "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7".split(' ').collect();
    let moves = long
        .iter()
        .cycle()
        .take(6)
        .cloned()
        .collect::<Vec<_>>()
        .join(" ");
    let games: Vec<PlayedGame> = (0..20_000)
        .map(|i| PlayedGame {
            moves: moves.clone(),
            ..game(i, "a", "b", GameResult::Draw, "move-limit")
        })
        .collect();
    let page = render(
        &dir,
        &games,
        &ReportOptions {
            max_games: None,
            live: false,
        },
    );
    std::fs::remove_dir_all(&dir).ok();
    assert!(page.len() < MAX_BYTES, "{} bytes", page.len());
    assert!(page.contains("20000 games"));
}

#[test]
fn live_report_waits_for_its_interval_and_finishes_final() {
    let dir = std::env::temp_dir().join(format!("chuhan-html-live-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let read = || std::fs::read_to_string(dir.join("report.html")).unwrap();
    // An interval no test run reaches: only the first tick may write.
    let mut live = LiveReport::with_interval(&dir, Duration::from_secs(3600));
    live.tick();
    let first = read();
    assert!(first.contains("0 games; <b>the run is going on</b>"));
    let record = game(0, "a", "b", GameResult::RedWins, "checkmate");
    live.on_game(&record);
    live.tick();
    assert_eq!(read(), first, "rewritten before its interval");
    // The final page is made from games.csv, as the run wrote it.
    let mut w = csv::Writer::from_path(dir.join("games.csv")).unwrap();
    w.serialize(&record).unwrap();
    w.flush().unwrap();
    live.finish().unwrap();
    let last = read();
    std::fs::remove_dir_all(&dir).ok();
    assert!(
        last.contains("1 games; final"),
        "{}",
        &last[..400.min(last.len())]
    );
    assert!(!dir.join(".report.html.tmp").exists());
}

/// The text of the page's `<pre id="statblock">`, unescaped.
fn page_stat_block(page: &str) -> String {
    let start = page.find("<pre id=\"statblock\">").expect("a stat block") + 20;
    let end = start + page[start..].find("</pre>").unwrap();
    page[start..end]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

fn run_manifest() -> crate::play::results::Manifest<crate::play::results::RunConfig> {
    use crate::play::results::{Manifest, PlayerEntry, RunConfig, RunKind, SprtSettings};
    let mut m = Manifest::new(RunConfig {
        command: RunKind::Sprt,
        game: Default::default(),
        chess960: false,
        seed: 4,
        pairs: 3,
        rules: Default::default(),
        move_limit: 120,
        shard: None,
        players: ["a", "b", "c"]
            .iter()
            .map(|n| PlayerEntry {
                name: n.to_string(),
                spec: "random".into(),
            })
            .collect(),
        limit: crate::play::limits::LimitSpec::Nodes(500),
        openings: crate::play::openings::OpeningSource::Generated { plies: 6 },
        adjudication: Default::default(),
        sprt: Some(SprtSettings {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: crate::stats::SprtModel::Normalized,
        }),
        pairings: Vec::new(),
        pgn_format: chuhan_engine::Notation::Iccs,
        first_move_advantage: Default::default(),
    });
    m.bench_signature = "303835".into();
    m
}

#[test]
fn the_page_s_stat_block_is_the_job_s_formatter_over_games_csv() {
    use crate::report::statblock::{stat_block, stat_block_path, write_stat_blocks};
    let dir = std::env::temp_dir().join(format!("chuhan-html-stat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let manifest = run_manifest();
    std::fs::write(
        dir.join("manifest.toml"),
        toml::to_string(&manifest).unwrap(),
    )
    .unwrap();
    // Two pairings, a pair of the second one incomplete, games out of order.
    let mut games = Vec::new();
    for (i, (result, pairing)) in [
        (GameResult::RedWins, 0),
        (GameResult::Draw, 0),
        (GameResult::BlackWins, 1),
        (GameResult::BlackWins, 1),
        (GameResult::RedWins, 0),
        (GameResult::RedWins, 0),
        (GameResult::Draw, 1),
    ]
    .into_iter()
    .enumerate()
    {
        let (first, second) = if pairing == 0 { ("a", "b") } else { ("b", "c") };
        let (red, black) = if i % 2 == 0 {
            (first, second)
        } else {
            (second, first)
        };
        let mut g = game(i as u64, red, black, result, "checkmate");
        g.pairing = pairing;
        games.push(g);
    }
    games.reverse();
    let records: std::collections::BTreeMap<u64, PlayedGame> =
        games.iter().map(|g| (g.game, g.clone())).collect();
    let tallies = crate::report::tally(&records, 2, None);
    assert_eq!(tallies[0].games(), 4);
    assert_eq!(tallies[1].games(), 3);
    assert_eq!(tallies[1].pairs(), 1);
    let expected = format!(
        "{}\n{}\n",
        stat_block(&manifest, "a vs b", &tallies[0]),
        stat_block(&manifest, "b vs c", &tallies[1])
    );
    assert!(expected.contains("SPRT  nElo [0, 10]"), "{expected}");
    for live in [true, false] {
        let page = render(
            &dir,
            &games,
            &ReportOptions {
                max_games: Some(DEFAULT_GAME_LIMIT),
                live,
            },
        );
        assert_eq!(page_stat_block(&page), expected, "live {live}");
    }

    // Once the job has printed its block (here: only the first pair counted, as an SPRT
    // stopped there), the final page shows that text; a live page does not.
    let mut counted = crate::report::Tally::default();
    counted.add_game(1.0);
    counted.add_game(0.5);
    counted.add_pair(1.0, 0.5);
    let printed = write_stat_blocks(&dir, &manifest, &["a vs b".to_string()], &[counted]).unwrap();
    assert_eq!(printed, stat_block(&manifest, "a vs b", &counted) + "\n");
    let final_page = render(&dir, &games, &ReportOptions::default());
    assert_eq!(page_stat_block(&final_page), printed);
    let live_page = render(
        &dir,
        &games,
        &ReportOptions {
            max_games: Some(DEFAULT_GAME_LIMIT),
            live: true,
        },
    );
    assert_eq!(page_stat_block(&live_page), expected);
    // A new session of the run drops the old block.
    let _live = LiveReport::new(&dir);
    assert!(!stat_block_path(&dir).exists());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_folder_without_a_run_manifest_gets_the_bench_line() {
    let dir = std::env::temp_dir().join(format!("chuhan-html-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("manifest.toml"),
        "chuhan_version = \"0.1.0\"\ngit_commit = \"abcdef0123456789\"\ngit_dirty = \"true\"\nbench_signature = \"303835\"\n[config]\ncommand = \"tune-spsa\"\n",
    )
    .unwrap();
    let page = render(&dir, &[], &ReportOptions::default());
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(
        page_stat_block(&page),
        "Bench 303835 (chuhan 0.1.0, commit abcdef0123, dirty)\n"
    );
}

#[test]
fn a_costly_rewrite_puts_the_next_one_off() {
    let dir = std::env::temp_dir().join(format!("chuhan-html-cost-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut live = LiveReport::with_interval(&dir, Duration::ZERO);
    live.tick();
    let first = std::fs::read_to_string(dir.join("report.html")).unwrap();
    // As if that write had taken a second: the next waits 100 s, whatever the interval.
    live.last_cost = Duration::from_secs(1);
    live.on_game(&game(0, "a", "b", GameResult::RedWins, "checkmate"));
    live.tick();
    let read = || std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert_eq!(read(), first, "rewritten within 100 times its cost");
    live.last_cost = Duration::ZERO;
    live.tick();
    assert!(read().contains("1 games; <b>the run is going on</b>"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_chess_game_has_san_and_no_xiangqi_notation() {
    let mut g = game(0, "w", "b", GameResult::RedWins, "checkmate");
    g.opening = chuhan_engine::chess::START_FEN.to_string();
    // Castling, a capture, en passant and a promotion with check.
    g.moves = "e2e4 g8h6 g1f3 d7d5 f1e2 d5e4 e1g1 f7f5 d2d4 e4d3 c2d3 f5f4 g2g4 f4g3 h2h3 g3g2 d1d2 g2f1q".into();
    let view = GameView::new(&g, None);
    assert!(view.chess);
    assert!(view.wxf.is_empty() && view.zh.is_empty());
    assert_eq!(
        view.san,
        [
            "e4", "Nh6", "Nf3", "d5", "Be2", "dxe4", "O-O", "f5", "d4", "exd3", "cxd3", "f4", "g4",
            "fxg3", "h3", "g2", "Qd2", "gxf1=Q+"
        ]
    );
    // A move that is not legal there: SAN left out rather than half a list.
    g.moves = "e2e4 e7e5 e4e5".into();
    assert!(GameView::new(&g, None).san.is_empty());

    let xq = GameView::new(&game(0, "a", "b", GameResult::Draw, "repetition"), None);
    assert!(!xq.chess && xq.san.is_empty() && xq.wxf.len() == 2);
}

#[test]
fn a_chess_page_offers_san_and_says_white() {
    let dir = std::env::temp_dir().join(format!("chuhan-html-chess-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut g = game(0, "a", "b", GameResult::RedWins, "checkmate");
    g.opening = chuhan_engine::chess::START_FEN.to_string();
    g.moves = "f2f3 e7e5 g2g4 d8h4".into();
    let page = render(&dir, &[g], &ReportOptions::default());
    std::fs::remove_dir_all(&dir).ok();
    assert!(page.contains("<option value=\"san\">SAN</option>"));
    assert!(!page.contains("value=\"wxf\""));
    assert!(page.contains("is White in a pair's first game"));
    assert!(page.contains("\"game\":\"chess\""));
    assert!(page.contains("\"san\":[\"f3\",\"e5\",\"g4\",\"Qh4#\"]"));
}
