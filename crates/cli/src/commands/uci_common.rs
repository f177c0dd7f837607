//! What both games' UCI front ends (`uci.rs`, `uci_chess.rs`) share: the output channel, the
//! input loop (bytes are bytes), and the parsing of `setoption`, `position` and `go`, so that
//! the two speak the protocol the same way.

use chuhan_arena::play::player::lines::{read_capped_line, MAX_LINE_BYTES};
use chuhan_engine::search::uci_score;
use chuhan_engine::Limits;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Where a session writes: shared with its search thread.
pub type Out = Arc<Mutex<Box<dyn Write + Send>>>;

/// Writes one line and flushes (every UCI line goes through here).
pub fn emit(out: &Out, line: &str) {
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// A UCI session the shared input loop can drive.
pub trait Session {
    /// Writes one line to the client.
    fn say(&self, line: &str);
    /// Handles one input line; false on `quit`.
    fn handle(&mut self, line: &str) -> bool;
    /// Ends a running search and waits for it.
    fn stop_search(&mut self);
}

/// Feeds `input` to the session line by line until `quit` or its end. Bytes are bytes: a line
/// over [`MAX_LINE_BYTES`] or not valid UTF-8 is answered with an `info string` naming it and
/// skipped (only its first bytes are ever held), and the session goes on.
pub fn serve(session: &mut dyn Session, input: &mut dyn BufRead) {
    let mut number = 0u64;
    while let Ok(Some(line)) = read_capped_line(input, MAX_LINE_BYTES) {
        number += 1;
        if line.dropped > 0 {
            session.say(&format!(
                "info string input line {number} ignored: longer than {MAX_LINE_BYTES} bytes ({} bytes dropped)",
                line.dropped
            ));
            continue;
        }
        if line.invalid_utf8 {
            session.say(&format!(
                "info string input line {number} ignored: not valid UTF-8"
            ));
            continue;
        }
        if !session.handle(&line.text) {
            return;
        }
    }
    session.stop_search();
}

/// `setoption name <id...> [value <x...>]` -> (name, value).
pub fn split_setoption(rest: &[&str]) -> Result<(String, Option<String>), String> {
    let joined = rest.join(" ");
    let Some(after_name) = joined.strip_prefix("name ") else {
        return Err("setoption needs 'name <option> [value <value>]'".into());
    };
    Ok(match after_name.split_once(" value ") {
        Some((n, v)) => (n.trim().to_string(), Some(v.trim().to_string())),
        None => (after_name.trim().to_string(), None),
    })
}

/// `position startpos|fen <FEN> [moves ...]` -> (the FEN, or None for the start; the moves).
pub fn split_position<'a>(rest: &'a [&'a str]) -> Result<(Option<String>, &'a [&'a str]), String> {
    let (fen, moves_at) = match rest.first() {
        Some(&"startpos") => (None, 1),
        Some(&"fen") => {
            let end = rest
                .iter()
                .position(|w| *w == "moves")
                .unwrap_or(rest.len());
            (Some(rest[1..end].join(" ")), end)
        }
        _ => return Err("position needs 'startpos' or 'fen <FEN>'".into()),
    };
    match rest.get(moves_at) {
        Some(&"moves") => Ok((fen, &rest[moves_at + 1..])),
        Some(w) => Err(format!("unexpected '{w}' in position command")),
        None => Ok((fen, &[])),
    }
}

/// The limits of `go ...` for the side to move (`first_to_move`: the side whose clock is
/// `wtime`). A clock becomes a soft time of `left / moves + 3/4 increment` (moves to go, at
/// most 30) and a hard time of three times that, within 2/5 of what is left.
pub fn parse_go(rest: &[&str], first_to_move: bool) -> Result<Limits, String> {
    let mut limits = Limits::default();
    let (mut wtime, mut btime, mut winc, mut binc, mut movestogo) = (None, None, 0u64, 0u64, None);
    let mut infinite = false;
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i];
        let num = rest.get(i + 1).and_then(|v| v.parse::<i64>().ok());
        let needs_value = !matches!(key, "infinite" | "ponder");
        if needs_value && num.is_none() {
            return Err(format!("go {key} needs a number"));
        }
        let n = num.unwrap_or(0).max(0) as u64;
        match key {
            "depth" => limits.depth = Some(n.clamp(1, 100) as u32),
            "nodes" => limits.nodes = Some(n.max(1)),
            "movetime" => {
                limits.soft_time = Some(Duration::from_millis(n.max(1)));
                limits.hard_time = Some(Duration::from_millis(n.max(1)));
            }
            "wtime" => wtime = Some(n),
            "btime" => btime = Some(n),
            "winc" => winc = n,
            "binc" => binc = n,
            "movestogo" => movestogo = Some(n.max(1)),
            "mate" => limits.depth = Some((2 * n).clamp(1, 100) as u32),
            "infinite" => infinite = true,
            "ponder" => {}
            other => return Err(format!("unknown go parameter '{other}'")),
        }
        i += if needs_value { 2 } else { 1 };
    }
    let (time, inc) = if first_to_move {
        (wtime, winc)
    } else {
        (btime, binc)
    };
    if let (Some(t), false) = (time, infinite) {
        let moves = movestogo.unwrap_or(30).min(30);
        let soft = t / moves + inc * 3 / 4;
        let hard = (soft * 3).min(t.saturating_sub(50).max(1) * 2 / 5).max(1);
        limits.soft_time = Some(Duration::from_millis(soft.min(hard)));
        limits.hard_time = Some(Duration::from_millis(hard));
    }
    Ok(limits)
}

/// The `info depth ... pv ...` line of a finished iteration.
pub fn info_line<M: std::fmt::Display>(i: &chuhan_engine::search::SearchInfo<M>) -> String {
    let ms = i.elapsed.as_millis().max(1);
    let pv: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {} pv {}",
        i.depth,
        i.seldepth,
        uci_score(i.score),
        i.nodes,
        i.nodes as u128 * 1000 / ms,
        ms,
        pv.join(" ")
    )
}

/// `bestmove <move>`, `0000` when there is none.
pub fn bestmove_line(best: Option<String>) -> String {
    format!("bestmove {}", best.unwrap_or_else(|| "0000".into()))
}
