//! Building the page: sections of HTML from the run folder's files and games.

use super::games::{browser_games, is_chess_fen, pgn_comments, GameView, FAILURES};
use super::{ReportOptions, MAX_BYTES};
use crate::play::results::{Manifest, RunConfig};
use crate::play::runner::PlayedGame;
use crate::report::statblock::{bench_line, stat_block_path, stat_blocks};
use crate::report::{first_score, tally, Tally};
use crate::stats::{Sprt, SprtModel};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::Path;

pub(super) const STYLE: &str = include_str!("style.css");
pub(super) const BOARD_JS: &str = include_str!("board.js");
const REPORT_JS: &str = include_str!("report.js");

/// Result tables the jobs write, with their headings, in page order.
const TABLES: [(&str, &str); 10] = [
    ("summary.csv", "Summary table (summary.csv)"),
    ("ratings.csv", "Ratings (ratings.csv)"),
    ("gaps.csv", "Gaps between neighbours (gaps.csv)"),
    ("pairings.csv", "Pairings (pairings.csv)"),
    ("interval.csv", "Intervals (interval.csv)"),
    ("calibration.csv", "Calibration curve (calibration.csv)"),
    ("validation.csv", "Validation (validation.csv)"),
    ("texel.csv", "Texel losses (texel.csv)"),
    ("spsa.csv", "SPSA trajectories (spsa.csv, last rows)"),
    ("params.csv", "Parameters (params.csv)"),
];
/// Rows of a CSV table shown at most (the last ones: trajectories end where the run is).
const TABLE_ROWS: usize = 60;
/// An SVG plot larger than this is linked, not inlined.
const MAX_SVG: u64 = 1_000_000;
/// games.pgn larger than this is not read for comments (the live rewrite stays cheap).
const MAX_PGN: u64 = 32_000_000;

/// HTML-escapes text.
pub(crate) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON for a `<script type="application/json">` element (no `</` inside).
pub(crate) fn script_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value)
        .unwrap_or_else(|_| "null".to_string())
        .replace("</", "<\\/")
}

/// An HTML table from a header and rows.
fn html_table(header: &[String], rows: &[Vec<String>]) -> String {
    let mut out = String::from("<table><tr>");
    for h in header {
        let _ = write!(out, "<th>{}</th>", esc(h));
    }
    out.push_str("</tr>");
    for r in rows {
        out.push_str("<tr>");
        for c in r {
            let _ = write!(out, "<td>{}</td>", esc(c));
        }
        out.push_str("</tr>");
    }
    out.push_str("</table>");
    out
}

/// One pairing of the games: the first player (Red in a pair's first game) against the other.
struct Pairing {
    label: String,
    tally: Tally,
}

/// Tallies the games per pairing, in order of first appearance; a pair counts in the
/// pentanomial when both of its games are in.
fn pairings(games: &[PlayedGame]) -> Vec<Pairing> {
    let by_index: BTreeMap<u64, &PlayedGame> = games.iter().map(|g| (g.game, g)).collect();
    let mut out: Vec<Pairing> = Vec::new();
    for g in by_index.values() {
        let (first, second) = if g.game % 2 == 0 {
            (&g.red, &g.black)
        } else {
            (&g.black, &g.red)
        };
        let label = format!("{first} vs {second}");
        let i = match out.iter().position(|p| p.label == label) {
            Some(i) => i,
            None => {
                out.push(Pairing {
                    label,
                    tally: Tally::default(),
                });
                out.len() - 1
            }
        };
        out[i].tally.add_game(first_score(g));
        if g.game % 2 == 0 {
            if let Some(next) = by_index.get(&(g.game + 1)).filter(|n| n.pair == g.pair) {
                out[i].tally.add_pair(first_score(g), first_score(next));
            }
        }
    }
    out
}

/// Five bars, LL to WW, scaled to the largest count.
fn penta_svg(p: [u64; 5]) -> String {
    let max = p.iter().copied().max().unwrap_or(0).max(1) as f64;
    let mut out = String::from(
        "<svg width=\"150\" height=\"44\" viewBox=\"0 0 150 44\" role=\"img\"><title>pentanomial LL LD DD+WL WD WW</title>",
    );
    for (i, &n) in p.iter().enumerate() {
        let h = 30.0 * n as f64 / max;
        let _ = write!(
            out,
            "<rect x=\"{}\" y=\"{:.1}\" width=\"24\" height=\"{:.1}\" fill=\"{}\"/><text x=\"{}\" y=\"42\" font-size=\"9\" text-anchor=\"middle\">{n}</text>",
            i * 30 + 3,
            32.0 - h,
            h,
            ["#c33", "#e96", "#aaa", "#9c6", "#393"][i],
            i * 30 + 15
        );
    }
    out.push_str("</svg>");
    out
}

fn num(x: f64, digits: usize) -> String {
    if x.is_finite() {
        format!("{x:.digits$}")
    } else {
        "inf".to_string()
    }
}

/// The SPRT of the manifest, if the run has one.
fn manifest_sprt(manifest: &toml::Value) -> Option<Sprt> {
    let s = manifest.get("config")?.get("sprt")?;
    let f = |k: &str| s.get(k).and_then(toml::Value::as_float);
    let model = match s.get("model").and_then(toml::Value::as_str) {
        Some("logistic") => SprtModel::Logistic,
        _ => SprtModel::Normalized,
    };
    Sprt::new(f("elo0")?, f("elo1")?, f("alpha")?, f("beta")?, model).ok()
}

/// The LLR of a pairing under the SPRT and its bounds: (llr, lower, upper, verdict).
fn sprt_numbers(sprt: &Sprt, t: &Tally) -> Option<(f64, f64, f64, String)> {
    let llr = sprt.llr_pentanomial(&t.pentanomial())?;
    Some((
        llr,
        sprt.lower_bound(),
        sprt.upper_bound(),
        format!("{:?}", sprt.verdict(llr)),
    ))
}

/// Pairings of the stat block kept at most (a ladder has one per scheduled pairing).
const STAT_BLOCK_PAIRINGS: usize = 50;

/// The stat block section's text. A final page shows what the job printed (its
/// [`STAT_BLOCK_FILE`](crate::report::statblock::STAT_BLOCK_FILE): for an SPRT, the pairs up
/// to the stopping pair); otherwise the same
/// formatter, [`stat_blocks`], over the pairings of games.csv, tallied as the job tallies them;
/// a folder without games or a run manifest gets the bench line alone.
pub(super) fn stat_block_text(
    dir: &Path,
    games: &[PlayedGame],
    manifest: &toml::Value,
    live: bool,
) -> String {
    if !live {
        if let Ok(text) = std::fs::read_to_string(stat_block_path(dir)) {
            return text;
        }
    }
    let typed: Option<Manifest<RunConfig>> = std::fs::read_to_string(dir.join("manifest.toml"))
        .ok()
        .and_then(|t| toml::from_str(&t).ok());
    match typed {
        Some(m) if !games.is_empty() => {
            let (labels, tallies) = job_tallies(games);
            stat_blocks(&m, &labels, &tallies)
        }
        _ => {
            let get = |k: &str| manifest.get(k).and_then(toml::Value::as_str).unwrap_or("?");
            bench_line(
                get("bench_signature"),
                get("chuhan_version"),
                get("git_commit"),
                get("git_dirty"),
            )
        }
    }
}

/// The pairings of the games (by the schedule's pairing index, as the job counts them): their
/// `first vs second` labels and tallies from [`report::tally`](crate::report::tally).
pub(super) fn job_tallies(games: &[PlayedGame]) -> (Vec<String>, Vec<Tally>) {
    let records: BTreeMap<u64, &PlayedGame> = games.iter().map(|g| (g.game, g)).collect();
    let count = games.iter().map(|g| g.pairing + 1).max().unwrap_or(0);
    let tallies = tally(&records, count, None);
    let mut labels: Vec<Option<String>> = vec![None; count];
    for g in records.values() {
        labels[g.pairing].get_or_insert_with(|| {
            let (first, second) = if g.game % 2 == 0 {
                (&g.red, &g.black)
            } else {
                (&g.black, &g.red)
            };
            format!("{first} vs {second}")
        });
    }
    labels
        .into_iter()
        .zip(tallies)
        .filter_map(|(label, t)| label.map(|l| (l, t)))
        .take(STAT_BLOCK_PAIRINGS)
        .unzip()
}

/// The LLR drawn between its bounds.
fn llr_svg(llr: f64, lo: f64, hi: f64) -> String {
    let x = |v: f64| 10.0 + 280.0 * ((v.clamp(lo, hi) - lo) / (hi - lo));
    format!(
        "<svg width=\"300\" height=\"30\" viewBox=\"0 0 300 30\" role=\"img\"><title>LLR between the bounds</title>\
         <rect x=\"10\" y=\"10\" width=\"280\" height=\"8\" fill=\"#ddd\"/>\
         <line x1=\"{z:.1}\" y1=\"6\" x2=\"{z:.1}\" y2=\"22\" stroke=\"#888\"/>\
         <circle cx=\"{p:.1}\" cy=\"14\" r=\"6\" fill=\"#06c\"/>\
         <text x=\"10\" y=\"29\" font-size=\"9\">{lo:.2}</text><text x=\"290\" y=\"29\" font-size=\"9\" text-anchor=\"end\">{hi:.2}</text></svg>",
        z = x(0.0),
        p = x(llr)
    )
}

/// The crosstable: each player's points against each other player, out of the games.
fn crosstable(games: &[PlayedGame]) -> Option<String> {
    let mut names: Vec<&str> = Vec::new();
    for g in games {
        for n in [g.red.as_str(), g.black.as_str()] {
            if !names.contains(&n) {
                names.push(n);
            }
        }
    }
    if names.len() < 3 {
        return None;
    }
    let idx = |n: &str| names.iter().position(|m| *m == n).unwrap_or(0);
    let k = names.len();
    let mut points = vec![vec![0.0f64; k]; k];
    let mut count = vec![vec![0u64; k]; k];
    for g in games {
        let (r, b) = (idx(&g.red), idx(&g.black));
        points[r][b] += g.red_score();
        points[b][r] += 1.0 - g.red_score();
        count[r][b] += 1;
        count[b][r] += 1;
    }
    let mut header = vec!["player".to_string()];
    header.extend(names.iter().map(|n| n.to_string()));
    header.push("total".to_string());
    let rows: Vec<Vec<String>> = (0..k)
        .map(|i| {
            let mut row = vec![names[i].to_string()];
            for j in 0..k {
                row.push(if i == j || count[i][j] == 0 {
                    String::new()
                } else {
                    format!("{}/{}", points[i][j], count[i][j])
                });
            }
            let (p, n): (f64, u64) = (points[i].iter().sum(), count[i].iter().sum());
            row.push(format!("{p}/{n}"));
            row
        })
        .collect();
    Some(html_table(&header, &rows))
}

/// A CSV file as a table of its last rows.
fn csv_table(path: &Path) -> Option<String> {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_path(path)
        .ok()?;
    let header: Vec<String> = reader.headers().ok()?.iter().map(str::to_string).collect();
    let mut rows: Vec<Vec<String>> = reader
        .records()
        .filter_map(Result::ok)
        .map(|r| r.iter().map(str::to_string).collect())
        .collect();
    let total = rows.len();
    if total > TABLE_ROWS {
        rows.drain(..total - TABLE_ROWS);
    }
    let mut out = html_table(&header, &rows);
    if total > TABLE_ROWS {
        let _ = write!(
            out,
            "<p class=\"note\">last {TABLE_ROWS} of {total} rows</p>"
        );
    }
    Some(out)
}

/// An SVG file's `<svg>` element, for inlining.
fn inline_svg(path: &Path) -> Option<String> {
    if std::fs::metadata(path).ok()?.len() > MAX_SVG {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    let start = text.find("<svg")?;
    Some(text[start..].to_string())
}

/// A manifest value as short text: strings bare, tables as `key=value` pairs.
fn plain_value(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        toml::Value::Table(t) => t
            .iter()
            .map(|(k, v)| format!("{k}={}", plain_value(v)))
            .collect::<Vec<_>>()
            .join(" "),
        other => other.to_string(),
    }
}

/// The page.
pub(super) fn render(
    dir: &Path,
    games: &[PlayedGame],
    options: &ReportOptions,
    cache: &mut HashMap<u64, GameView>,
) -> String {
    let name = dir.file_name().map_or_else(
        || dir.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let manifest: toml::Value = std::fs::read_to_string(dir.join("manifest.toml"))
        .ok()
        .and_then(|t| toml::from_str(&t).ok())
        .unwrap_or(toml::Value::Table(Default::default()));
    // The run's game: the manifest's `game` (absent in xiangqi runs of old), else the games'
    // own openings.
    let chess = match manifest
        .get("config")
        .and_then(|c| c.get("game"))
        .and_then(toml::Value::as_str)
    {
        Some(game) => game == "chess",
        None => games.iter().any(|g| is_chess_fen(&g.opening)),
    };
    let mut body = String::new();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let stamp = format!("{now}-{}", games.len());
    let _ = write!(
        body,
        "<h1>{}</h1><p class=\"note\">{} games; {}; written at unix time {}</p>",
        esc(&name),
        games.len(),
        if options.live {
            "<b>the run is going on</b>: this page is rewritten every few seconds"
        } else {
            "final"
        },
        now / 1000
    );
    if let Some(config) = manifest.get("config") {
        let get = |k: &str| manifest.get(k).and_then(toml::Value::as_str).unwrap_or("?");
        let _ = write!(
            body,
            "<p>job <b>{}</b>, seed {}, limit {}; chuhan {} commit {} (dirty {}), bench signature {}</p>",
            esc(config.get("command").and_then(toml::Value::as_str).unwrap_or("?")),
            esc(&config.get("seed").map_or("?".to_string(), plain_value)),
            esc(&config.get("limit").map_or("?".to_string(), plain_value)),
            esc(get("chuhan_version")),
            esc(get("git_commit")),
            esc(get("git_dirty")),
            esc(get("bench_signature"))
        );
    }

    let pairs = pairings(games);
    if !pairs.is_empty() {
        body.push_str("<h2>Summary</h2><table><tr><th>pairing</th><th>games</th><th>W-D-L</th><th>score</th><th>pentanomial LL LD DD+WL WD WW</th><th>Elo [95%]</th><th>nElo [95%]</th><th>LOS</th><th>draws</th></tr>");
        for p in pairs.iter().take(200) {
            let t = &p.tally;
            let points = t.wdl[2] as f64 + 0.5 * t.wdl[1] as f64;
            let est = t.estimate();
            let cell = |f: &dyn Fn(&crate::stats::Estimate) -> String| {
                est.as_ref().map_or(String::new(), f)
            };
            let _ = write!(
                body,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{:.3}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&p.label),
                t.games(),
                t.wdl_text(),
                points / t.games().max(1) as f64,
                penta_svg(t.penta),
                cell(&|e| esc(&e.elo_text(1))),
                cell(&|e| esc(&e.nelo_text(1))),
                cell(&|e| format!("{}%", num(e.los * 100.0, 1))),
                cell(&|e| e.draw_ratio.map_or(String::new(), |d| format!("{}%", num(d * 100.0, 1)))),
            );
        }
        let _ = write!(
            body,
            "</table><p class=\"note\">The first player of a pairing is {} in a pair's first game. Elo from the pairs (pentanomial) once a pair is complete, else from the games; intervals are 95% (profile likelihood, asymmetric near 0% or 100%; one-sided after a perfect or zero score, as the ladder's).</p>",
            if chess { "White" } else { "Red" }
        );
    }

    if let Some(sprt) = manifest_sprt(&manifest) {
        body.push_str("<h2>SPRT</h2>");
        for p in &pairs {
            if let Some((llr, lo, hi, verdict)) = sprt_numbers(&sprt, &p.tally) {
                let _ = write!(
                    body,
                    "<p>{}: LLR <b>{}</b> against ({}, {}) for [{}, {}] {:?} Elo: {} {}</p>",
                    esc(&p.label),
                    num(llr, 3),
                    num(lo, 3),
                    num(hi, 3),
                    sprt.elo0,
                    sprt.elo1,
                    sprt.model,
                    esc(&verdict),
                    llr_svg(llr, lo, hi)
                );
            }
        }
        body.push_str("<p class=\"diag\">Diagnostic: this LLR counts every complete pair in games.csv. The run's verdict (stdout, summary.csv) counts exactly the pairs up to the one at which it stopped.</p>");
    }

    if !games.is_empty() {
        let mut counts: BTreeMap<&str, u64> = BTreeMap::new();
        for g in games {
            *counts.entry(g.termination.as_str()).or_default() += 1;
        }
        let rows: Vec<Vec<String>> = counts
            .iter()
            .map(|(k, v)| vec![k.to_string(), v.to_string()])
            .collect();
        body.push_str("<h2>Terminations</h2>");
        body.push_str(&html_table(&["termination".into(), "games".into()], &rows));
        let failures: Vec<&PlayedGame> = games
            .iter()
            .filter(|g| FAILURES.contains(&g.termination.as_str()))
            .collect();
        body.push_str("<h2>Engine failures</h2>");
        if failures.is_empty() {
            body.push_str("<p>none</p>");
        } else {
            let rows: Vec<Vec<String>> = failures
                .iter()
                .take(200)
                .map(|g| {
                    let loser = match g.result.winner() {
                        Some(chuhan_engine::Color::Red) => &g.black,
                        Some(chuhan_engine::Color::Black) => &g.red,
                        None => &g.red,
                    };
                    vec![
                        g.game.to_string(),
                        loser.clone(),
                        g.termination.clone(),
                        g.plies.to_string(),
                    ]
                })
                .collect();
            body.push_str(&html_table(
                &[
                    "game".into(),
                    "player at fault".into(),
                    "termination".into(),
                    "plies".into(),
                ],
                &rows,
            ));
            let _ = write!(
                body,
                "<p class=\"note\">{} failures; engine logs under engines/&lt;player&gt;/game-&lt;index&gt;.stderr.log</p>",
                failures.len()
            );
        }
        if let Some(t) = crosstable(games) {
            body.push_str("<h2>Crosstable</h2>");
            body.push_str(&t);
            body.push_str(
                "<p class=\"note\">Row player's points against the column player / games.</p>",
            );
        }
    }

    for (file, heading) in TABLES {
        let path = dir.join(file);
        if path.is_file() {
            if let Some(t) = csv_table(&path) {
                let _ = write!(body, "<h2>{}</h2>{t}", esc(heading));
            }
        }
    }
    let mut svgs: Vec<_> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "svg"))
                .collect()
        })
        .unwrap_or_default();
    svgs.sort();
    for p in svgs {
        let file = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match inline_svg(&p) {
            Some(svg) => {
                let _ = write!(
                    body,
                    "<h2>{}</h2><div class=\"plot\">{svg}</div>",
                    esc(&file)
                );
            }
            None => {
                let _ = write!(
                    body,
                    "<h2>{}</h2><p>too large to inline; see the file</p>",
                    esc(&file)
                );
            }
        }
    }

    let _ = write!(
        body,
        "<h2>Stat block</h2><pre id=\"statblock\">{}</pre>",
        esc(&stat_block_text(dir, games, &manifest, options.live))
    );

    let mut views = browser_games(games, options.max_games, &mut || read_comments(dir), cache);
    let head = format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><meta name=\"chuhan-stamp\" content=\"{stamp}\"><title>{} - chuhan report</title><style>{STYLE}</style></head><body>",
        esc(&name)
    );
    loop {
        let page = assemble(&head, &body, &views, games.len(), options, &stamp, chess);
        if page.len() < MAX_BYTES || views.is_empty() {
            return page;
        }
        // Too big: keep the later half of the games (failures included in what was chosen).
        let drop = views.len().div_ceil(2);
        views.drain(..drop);
    }
}

fn read_comments(dir: &Path) -> HashMap<String, Vec<String>> {
    let path = dir.join("games.pgn");
    match std::fs::metadata(&path) {
        Ok(m) if m.len() <= MAX_PGN => std::fs::read_to_string(&path)
            .map(|t| pgn_comments(&t))
            .unwrap_or_default(),
        _ => HashMap::new(),
    }
}

#[derive(Serialize)]
struct BrowserData<'a> {
    games: &'a [GameView],
    live: bool,
    stamp: &'a str,
    /// `chess` or `xiangqi`: the board and the side names of the page.
    game: &'a str,
}

fn assemble(
    head: &str,
    body: &str,
    views: &[GameView],
    total: usize,
    options: &ReportOptions,
    stamp: &str,
    chess: bool,
) -> String {
    let data = BrowserData {
        games: views,
        live: options.live,
        stamp,
        game: if chess { "chess" } else { "xiangqi" },
    };
    // Chess moves are SAN or UCI; WXF and Chinese are xiangqi notations.
    let notations = if chess {
        "<option value=\"san\">SAN</option><option value=\"uci\">UCI</option>"
    } else {
        "<option value=\"uci\">UCI</option><option value=\"wxf\">WXF</option><option value=\"zh\">中文</option>"
    };
    format!(
        "{head}{body}<h2>Games</h2><p class=\"note\">{} of {total} games here{}.</p>\
         <div><select id=\"game\"></select> <select id=\"notation\">{notations}</select> \
         <label><input type=\"checkbox\" id=\"flip\"> flip</label></div>\
         <div id=\"browser\"><svg id=\"board\" xmlns=\"http://www.w3.org/2000/svg\"></svg><div><div>\
         <button id=\"first\">|&lt;</button><button id=\"prev\">&lt;</button><button id=\"next\">&gt;</button><button id=\"last\">&gt;|</button> <span id=\"ply\"></span></div>\
         <div id=\"gameinfo\" class=\"note\"></div><div id=\"moves\"></div></div></div>\
         <script type=\"application/json\" id=\"games-data\">{}</script><script>{BOARD_JS}</script><script>{REPORT_JS}</script></body></html>",
        views.len(),
        if views.len() < total {
            " (failures and the first games; chuhan serve shows all)"
        } else {
            ""
        },
        script_json(&data)
    )
}
