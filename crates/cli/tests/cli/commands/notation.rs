//! `chuhan notation` run as a process: a golden line in every format, and the errors.

use std::process::{Command, Output};

fn chuhan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .args(args)
        .output()
        .expect("the chuhan binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

const LINE: &str = "h2e2 h9g7 b0c2 i9h9";

#[test]
fn writes_the_central_cannon_opening_in_every_format() {
    for (format, expected) in [
        ("iccs", "H2-E2\nH9-G7\nB0-C2\nI9-H9\n"),
        ("uci", "h2e2\nh9g7\nb0c2\ni9h9\n"),
        ("wxf", "C2.5\nH8+7\nH8+7\nR9.8\n"),
        ("chinese", "炮二平五\n马８进７\n马八进七\n车９平８\n"),
    ] {
        let out = chuhan(&["notation", "--moves", LINE, "--format", format]);
        assert!(out.status.success(), "{format}: {}", stderr(&out));
        assert_eq!(stdout(&out), expected, "{format}");
    }
}

#[test]
fn reads_moves_in_any_notation_and_from_a_fen() {
    let out = chuhan(&[
        "notation",
        "--moves",
        "C2.5 马８进７ B0-C2 i9h9",
        "--format",
        "uci",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "h2e2\nh9g7\nb0c2\ni9h9\n");
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1";
    let out = chuhan(&[
        "notation", "--fen", fen, "--moves", "h9g7", "--format", "wxf",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "H8+7\n");
}

#[test]
fn an_illegal_move_exits_2_naming_the_move_and_its_index() {
    let out = chuhan(&["notation", "--moves", "h2e2 h9g7 h2e3", "--format", "wxf"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("move 3 'h2e3'"), "{err}");
    assert_eq!(stdout(&out), "");
    let out = chuhan(&["notation", "--moves", "h2e2 bogus"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("move 2 'bogus'"), "{}", stderr(&out));
}

#[test]
fn a_bad_fen_or_format_is_rejected() {
    let out = chuhan(&["notation", "--fen", "9/9 w", "--moves", "h2e2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("bad FEN '9/9 w'"), "{}", stderr(&out));
    let out = chuhan(&["notation", "--moves", "h2e2", "--format", "san"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("san"), "{}", stderr(&out));
}
