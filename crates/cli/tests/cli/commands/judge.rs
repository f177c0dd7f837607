//! `chuhan judge` as other tools call it: the JSON report, the human line and exit codes.

use crate::fixtures as common;

/// Red chariot c3/a3 chases the unprotected black horse a7/c8.
const CHASE_FEN: &str = "4k4/9/n8/9/9/9/2R6/9/9/3K5 w - - 0 1";
const CHASE_MOVES: &str = "c3a3 a7c8 a3c3 c8a7 c3a3 a7c8 a3c3 c8a7";
/// Red chariot a5-e5 mates.
const MATE_FEN: &str = "4k4/9/9/9/R8/9/9/9/5R3/3K5 w - - 0 1";

use common::chuhan;

/// Runs `chuhan judge --json` and parses the one object it prints.
fn judge_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["judge", "--json"];
    all.extend_from_slice(args);
    let (code, out, err) = chuhan(&all);
    assert_eq!(code, 0, "stderr: {err}");
    assert_eq!(out.lines().count(), 1, "one line: {out}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

#[test]
fn json_reports_a_perpetual_chase() {
    let v = judge_json(&["--fen", CHASE_FEN, "--moves", CHASE_MOVES]);
    assert_eq!(
        v,
        serde_json::json!({"result": "0-1", "reason": "perpetual-chase", "ply": 8})
    );
    let v = judge_json(&[
        "--fen",
        CHASE_FEN,
        "--moves",
        CHASE_MOVES,
        "--rules",
        "check-only",
    ]);
    assert_eq!(
        v,
        serde_json::json!({"result": "1/2-1/2", "reason": "repetition", "ply": 8})
    );
}

#[test]
fn json_reports_a_game_that_goes_on() {
    let v = judge_json(&["--fen", CHASE_FEN, "--moves", "c3a3 a7c8 a3c3"]);
    assert_eq!(
        v,
        serde_json::json!({"result": "*", "reason": null, "ply": 3})
    );
    let v = judge_json(&["--fen", CHASE_FEN]);
    assert_eq!(
        v,
        serde_json::json!({"result": "*", "reason": null, "ply": 0})
    );
}

#[test]
fn judging_stops_at_the_first_verdict() {
    // After the mate no move is legal; the extra move is not played.
    let (code, out, err) = chuhan(&["judge", "--json", "--fen", MATE_FEN, "--moves", "a5e5 e9e8"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v,
        serde_json::json!({"result": "1-0", "reason": "checkmate", "ply": 1})
    );
    assert!(err.contains("not played"), "{err}");
}

#[test]
fn move_limit_option() {
    let fen = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1";
    let v = judge_json(&["--fen", fen, "--moves", "a0a1 e9f9", "--move-limit", "2"]);
    assert_eq!(
        v,
        serde_json::json!({"result": "1/2-1/2", "reason": "move-limit", "ply": 2})
    );
    let v = judge_json(&["--fen", fen, "--moves", "a0a1 e9f9"]);
    assert_eq!(v["result"], "*");
}

#[test]
fn human_line_names_result_and_reason() {
    let (code, out, _) = chuhan(&["judge", "--fen", MATE_FEN, "--moves", "a5e5"]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), "1-0 checkmate after 1 ply (Red wins)");
}

#[test]
fn illegal_move_exits_2_naming_move_and_index() {
    let (code, out, err) = chuhan(&["judge", "--json", "--fen", MATE_FEN, "--moves", "a5a6 e9f9"]);
    assert_eq!(code, 2);
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("move 2") && err.contains("e9f9"), "{err}");
    assert!(err.contains("illegal"), "{err}");
}

#[test]
fn unparsable_move_exits_2_naming_move_and_index() {
    let (code, _, err) = chuhan(&["judge", "--fen", MATE_FEN, "--moves", "a5a6 e9 a6a7"]);
    assert_eq!(code, 2);
    assert!(err.contains("move 2") && err.contains("'e9'"), "{err}");
}

#[test]
fn bad_fen_exits_2_naming_the_problem() {
    let (code, out, err) = chuhan(&["judge", "--json", "--fen", "4k4/9/9 w - - 0 1"]);
    assert_eq!(code, 2);
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("bad FEN") && err.contains("rows"), "{err}");
}

#[test]
fn unknown_rule_set_is_a_usage_error() {
    let (code, _, err) = chuhan(&["judge", "--fen", MATE_FEN, "--rules", "chinese"]);
    assert_eq!(code, 2);
    assert!(err.contains("chinese"), "{err}");
}
