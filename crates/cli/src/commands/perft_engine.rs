//! `chuhan perft --engine FILE`: the engine's `go perft` divide against our counts, and on a
//! difference the position where the move lists differ (`position:`, `path:`, `missing:`,
//! `extra:`, moves in a0-i9).

use crate::args::PerftArgs;
use crate::{EXIT_FAIL, EXIT_OK, EXIT_USAGE};
use anyhow::{bail, Context};
use chuhan_arena::engines::perft::{compare, Mismatch, Outcome};
use chuhan_arena::engines::Session;
use chuhan_engine::{parse_suite, Move, Position};
use std::path::Path;
use std::time::Instant;

/// Runs the comparison; exit 0 when everything agrees, 1 on a difference, 2 on unusable input
/// or an engine that cannot be asked (named).
pub fn run(engine_file: &Path, args: &PerftArgs) -> anyhow::Result<u8> {
    let engine = super::external::load(engine_file, "--engine")?;
    if args.depth == Some(0) || args.max_depth == Some(0) {
        bail!("the depth must be at least 1");
    }
    let start = Instant::now();
    if let Some(fen) = &args.fen {
        let depth = args.depth.context("--fen needs --depth")?;
        let pos = match Position::from_fen(fen) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("chuhan: error: bad FEN '{fen}': {e}");
                return Ok(EXIT_USAGE);
            }
        };
        let mut session = Session::start(&engine, false)?;
        let outcome = compare(&mut session, &pos, depth)?;
        session.quit();
        let code = match outcome {
            Outcome::Agree { nodes } => {
                outln!("agree: depth {depth}: {nodes} nodes ({})", engine.name);
                EXIT_OK
            }
            Outcome::Differ {
                engine_total,
                our_total,
                mismatch,
            } => {
                outln!(
                    "mismatch: depth {depth}: engine {engine_total}, ours {our_total} ({})",
                    engine.name
                );
                print_mismatch(&mismatch);
                EXIT_FAIL
            }
        };
        eprintln!("{:.3} s", start.elapsed().as_secs_f64());
        return Ok(code);
    }
    let path = args.suite.as_ref().context("give --fen or --suite")?;
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let suite = parse_suite(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let depths = |e: &chuhan_engine::SuiteEntry| -> Vec<u32> {
        let mut d: Vec<u32> = e
            .expected
            .iter()
            .map(|&(d, _)| d)
            .filter(|&d| args.max_depth.map_or(true, |m| d <= m))
            .collect();
        d.sort_unstable();
        d
    };
    if suite.iter().all(|e| depths(e).is_empty()) {
        bail!(
            "{}: the suite has no positions with a depth to check (at or below --max-depth)",
            path.display()
        );
    }
    let mut session = Session::start(&engine, false)?;
    let (mut passed, mut failed, mut nodes) = (0, 0, 0u64);
    for entry in &suite {
        let pos = Position::from_fen(&entry.fen).expect("validated while parsing the suite");
        let mut deepest = None;
        let mut failure = None;
        for d in depths(entry) {
            match compare(&mut session, &pos, d)? {
                Outcome::Agree { nodes: n } => {
                    nodes += n;
                    deepest = Some((d, n));
                }
                Outcome::Differ {
                    engine_total,
                    our_total,
                    mismatch,
                } => {
                    failure = Some((d, engine_total, our_total, mismatch));
                    break;
                }
            }
        }
        match (failure, deepest) {
            (Some((d, theirs, ours, mismatch)), _) => {
                failed += 1;
                outln!(
                    "FAIL line {}: depth {d}: engine {theirs}, ours {ours}  {}",
                    entry.line,
                    entry.fen
                );
                print_mismatch(&mismatch);
            }
            (None, Some((d, n))) => {
                passed += 1;
                outln!("pass line {}: D{d} {n}  {}", entry.line, entry.fen);
            }
            (None, None) => outln!(
                "skip line {}: no depth within --max-depth  {}",
                entry.line,
                entry.fen
            ),
        }
    }
    session.quit();
    outln!(
        "positions: {}  passed: {passed}  failed: {failed}  nodes: {nodes}  seconds: {:.3}  engine: {}",
        suite.len(),
        start.elapsed().as_secs_f64(),
        engine.name
    );
    Ok(if failed == 0 { EXIT_OK } else { EXIT_FAIL })
}

fn moves(list: &[Move]) -> String {
    list.iter()
        .map(|m| m.to_uci())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The report, one item a line (an empty list leaves the line's value empty).
fn print_mismatch(m: &Mismatch) {
    let line = |key: &str, value: String| {
        if value.is_empty() {
            outln!("{key}:");
        } else {
            outln!("{key}: {value}");
        }
    };
    line("position", m.fen.clone());
    line("path", moves(&m.path));
    line("missing", moves(&m.missing));
    line("extra", moves(&m.extra));
    line(
        "counts",
        format!(
            "depth {} here: engine {}, ours {}",
            m.depth, m.engine_count, m.our_count
        ),
    );
    if let Some(note) = &m.note {
        line("note", note.clone());
    }
}
