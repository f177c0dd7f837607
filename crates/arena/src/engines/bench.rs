//! The bench of an external engine: send `bench`, read the node count (the signature) and the
//! speed from the lines Stockfish and its derivatives print (`Nodes searched  : N`,
//! `Nodes/second    : N`, on stderr or stdout), and compare the count with an expected one.

use super::{Session, SessionError};
use crate::play::player::uci::ExternalEngine;
use std::time::Instant;

/// What the engine's bench reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Total nodes: the signature.
    pub nodes: u64,
    /// Nodes per second, when it printed them.
    pub nps: Option<u64>,
}

/// What a line of bench output says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BenchLine {
    /// `Nodes searched  : N`.
    Nodes(u64),
    /// `Nodes/second    : N`.
    Nps(u64),
    /// Anything else.
    Other,
}

/// Reads one line; `Err` says what is malformed in a nodes or speed line.
pub fn parse_line(line: &str) -> Result<BenchLine, String> {
    let Some((key, value)) = line.trim().split_once(':') else {
        return Ok(BenchLine::Other);
    };
    let key = key.trim().to_ascii_lowercase();
    let value = value.trim();
    let number = || {
        value
            .parse::<u64>()
            .map_err(|_| format!("'{value}' is not a whole number"))
    };
    match key.as_str() {
        "nodes searched" => number().map(BenchLine::Nodes),
        "nodes/second" => number().map(BenchLine::Nps),
        _ => Ok(BenchLine::Other),
    }
}

/// Runs `bench` (with `args` after it, if any) and reads the last nodes and speed lines of its
/// output. The bench ends when the engine answers an `isready` sent after it (engines run
/// `bench` before they read their next command); the deadline is the file's
/// `fixed_limit_timeout_ms`.
pub fn run(engine: &ExternalEngine, args: Option<&str>) -> Result<BenchReport, SessionError> {
    let mut s = Session::start(engine, true)?;
    let command = match args {
        Some(a) if !a.trim().is_empty() => format!("bench {}", a.trim()),
        _ => "bench".to_string(),
    };
    s.send(&command)?;
    s.send("isready")?;
    let since = Instant::now();
    let mut lines = Vec::new();
    loop {
        let line = s
            .line_within(
                since,
                engine.fixed_limit_timeout,
                "readyok after the bench",
                "fixed_limit_timeout_ms",
            )
            .map_err(|e| match e {
                SessionError::Answer { received, why, .. } => {
                    s.error_after(&command, received.as_deref(), &why)
                }
                other => other,
            })?;
        if line.trim() == "readyok" {
            break;
        }
        lines.push(line);
    }
    let stderr = s.quit();
    lines.extend(stderr.lines().map(str::to_string));
    let (mut nodes, mut nps) = (None, None);
    for line in &lines {
        match parse_line(line) {
            Ok(BenchLine::Nodes(n)) => nodes = Some(n),
            Ok(BenchLine::Nps(n)) => nps = Some(n),
            Ok(BenchLine::Other) => {}
            Err(why) => return Err(s.error_after(&command, Some(line), &why)),
        }
    }
    match nodes {
        Some(nodes) => Ok(BenchReport { nodes, nps }),
        None => Err(s.error_after(
            &command,
            lines.last().map(String::as_str),
            "no 'Nodes searched : N' line in the bench output (stdout or stderr)",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stockfish_bench_lines_parse_and_malformed_ones_say_why() {
        assert_eq!(
            parse_line("Nodes searched  : 676"),
            Ok(BenchLine::Nodes(676))
        );
        assert_eq!(
            parse_line("Nodes/second    : 338000"),
            Ok(BenchLine::Nps(338000))
        );
        assert_eq!(parse_line("Total time (ms) : 2"), Ok(BenchLine::Other));
        assert_eq!(parse_line("==========="), Ok(BenchLine::Other));
        let e = parse_line("Nodes searched  : many").unwrap_err();
        assert!(e.contains("many"), "{e}");
    }
}
