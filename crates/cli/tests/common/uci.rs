//! A UCI client for the tests: `chuhan uci [args]` with its output read by a thread.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

/// A running `chuhan uci` process.
pub struct Uci {
    /// The process (killed on drop).
    pub child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Uci {
    /// Starts `chuhan uci` with `args` (e.g. `["--game", "chess"]`).
    pub fn start(args: &[&str]) -> Uci {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chuhan"))
            .arg("uci")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("chuhan uci starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Uci {
            child,
            stdin,
            lines,
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Sends raw bytes (for input that is not UTF-8).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix` (60 s at most).
    pub fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut got = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("no '{prefix}' within 60 s; got {got:?}"));
            let done = line.starts_with(prefix);
            got.push(line);
            if done {
                return got;
            }
        }
    }

    /// The move of the next `bestmove` line.
    pub fn bestmove(&mut self) -> String {
        let lines = self.until("bestmove");
        lines.last().unwrap()["bestmove ".len()..].to_string()
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
