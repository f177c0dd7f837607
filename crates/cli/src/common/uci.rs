//! What both games' UCI front ends (`uci.rs`, `uci_chess.rs`) share: the output channel and
//! the input loop (bytes are bytes). The parsing of `setoption`, `position` and `go` is the
//! library's (`chuhan_arena::engines::uci_front`, pure and fuzzed), so that the two speak the
//! protocol the same way.

pub use chuhan_arena::engines::uci_front::{
    bestmove_line, final_info_line, info_line, parse_go, split_position, split_setoption,
};
use chuhan_arena::engines::uci_front::{read_capped_line, MAX_LINE_BYTES};
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

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
