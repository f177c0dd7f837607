//! A reader that closes stdout early (`chuhan params | head -1`) must end the command quietly:
//! no panic message, exit 0.

use std::process::{Command, Stdio};

/// Runs `chuhan args` with a stdout pipe whose read end is closed at once, so every write fails
/// with a broken pipe; returns the exit code and stderr.
fn with_closed_stdout(args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chuhan starts");
    // Closed before the child has finished starting up, so its first write already fails.
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("chuhan ends");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn closed_stdout_ends_quietly() {
    for args in [
        &["params"][..],
        &["stats", "--counts", "96,111,136"],
        &["stats", "--counts", "96,111,136", "--json"],
        &["notation", "--moves", "h2e2 h9g7", "--format", "wxf"],
    ] {
        let (code, err) = with_closed_stdout(args);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?} printed on stderr: {err}");
    }
}
