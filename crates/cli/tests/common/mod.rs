//! Helpers shared by the arena's command-line tests.
#![allow(dead_code)]

use std::path::Path;
use std::process::Command;

/// Runs the built `chuhan` binary in `dir` (or the test's working directory) and returns the
/// exit code, stdout and stderr.
pub fn chuhan_in(dir: Option<&Path>, args: &[&str]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_chuhan"));
    cmd.args(args);
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    let out = cmd.output().expect("chuhan runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs the built `chuhan` binary: exit code, stdout, stderr.
pub fn chuhan(args: &[&str]) -> (i32, String, String) {
    chuhan_in(None, args)
}
pub mod uci;
