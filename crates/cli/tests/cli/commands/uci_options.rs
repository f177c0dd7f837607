//! `setoption` values take effect in `chuhan uci` (issue 18, item 6): each option is checked
//! by a search whose result it must change, against the same search without it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// A `chuhan uci` process and its input.
fn start() -> (std::process::Child, std::process::ChildStdin) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("chuhan uci starts");
    let stdin = child.stdin.take().unwrap();
    (child, stdin)
}

/// Runs one `chuhan uci` session (`commands`, the last a `go` that ends on its own), reads up
/// to the `bestmove`, quits, and returns the last `info` line with a score and the `bestmove`.
fn search(commands: &[&str]) -> (String, String) {
    let (mut child, mut stdin) = start();
    for c in commands {
        writeln!(stdin, "{c}").unwrap();
    }
    stdin.flush().unwrap();
    let mut info = None;
    let mut best = None;
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        assert!(
            !line.starts_with("info string"),
            "{commands:?} was refused: {line}"
        );
        if line.starts_with("info") && line.contains(" score ") {
            info = Some(line);
        } else if line.starts_with("bestmove") {
            best = Some(line);
            break;
        }
    }
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    child.wait().unwrap();
    (
        info.expect("an info line with a score"),
        best.expect("a bestmove"),
    )
}

fn field(info: &str, name: &str) -> i64 {
    let words: Vec<&str> = info.split_whitespace().collect();
    let i = words
        .iter()
        .position(|w| *w == name)
        .unwrap_or_else(|| panic!("no {name} in {info}"));
    words[i + 1].parse().unwrap()
}

/// Red has a horse more: the score is mostly the horse's value.
const HORSE_UP: &str = "position fen 4k4/9/9/9/9/9/9/9/4N4/4K4 w - - 0 1";
const MIDDLE: &str = "position startpos moves h2e2 h9g7 h0g2 i9h9 i0h0 b9c7";

#[test]
fn a_parameter_option_changes_the_score() {
    // The handcrafted evaluation's parameters act once `Evaluation` is handcrafted (the
    // default is the network, checked below).
    let (dear, _) = search(&[
        "setoption name Evaluation value handcrafted",
        "setoption name material.horse value 600",
        HORSE_UP,
        "go depth 3",
    ]);
    let (cheap, _) = search(&[
        "setoption name Evaluation value handcrafted",
        "setoption name material.horse value 300",
        HORSE_UP,
        "go depth 3",
    ]);
    let (a, b) = (field(&dear, "cp"), field(&cheap, "cp"));
    // From its maximum of 600 to its minimum of 300 the horse loses 300 in the middlegame and
    // in the endgame alike (the endgame value is material.horse plus its offset): the score
    // must drop by most of that, far more than search noise.
    assert!(
        a - b > 200,
        "material.horse=300 left the score at {b} (600: {a})"
    );
}

#[test]
fn the_evaluation_option_switches_between_the_network_and_the_handcrafted_evaluation() {
    let (network, best) = search(&[MIDDLE, "go depth 5"]);
    let (named, named_best) = search(&[
        "setoption name Evaluation value network",
        MIDDLE,
        "go depth 5",
    ]);
    let (handcrafted, _) = search(&[
        "setoption name Evaluation value handcrafted",
        MIDDLE,
        "go depth 5",
    ]);
    assert_eq!(
        (field(&network, "nodes"), field(&network, "cp"), best),
        (field(&named, "nodes"), field(&named, "cp"), named_best),
        "network is the default"
    );
    assert_ne!(
        (field(&network, "nodes"), field(&network, "cp")),
        (field(&handcrafted, "nodes"), field(&handcrafted, "cp")),
        "the handcrafted evaluation searches another tree"
    );
    // A handcrafted-evaluation parameter set while the network evaluates is kept but said.
    let (mut child, mut stdin) = start();
    // eval.tempo: a pure evaluation term (material values also set the search's exchange
    // values, so they act under the network too); its default value is not announced.
    let tempo = chuhan_engine::Params::default()
        .value("eval.tempo")
        .unwrap();
    writeln!(
        stdin,
        "setoption name eval.tempo value {tempo}\nsetoption name eval.tempo value {}\nisready\nquit",
        tempo + 1
    )
    .unwrap();
    drop(stdin);
    let lines: Vec<String> = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(Result::unwrap)
        .collect();
    child.wait().unwrap();
    assert!(
        lines
            .iter()
            .filter(|l| l.starts_with("info string eval.tempo is set")
                && l.contains("Evaluation is handcrafted"))
            .count()
            == 1,
        "{lines:?}"
    );
}

#[test]
fn search_switches_change_the_tree() {
    let (plain, _) = search(&[MIDDLE, "go depth 6"]);
    for switch in ["NullMove", "LMR", "Futility"] {
        let (off, _) = search(&[
            &format!("setoption name {switch} value false"),
            MIDDLE,
            "go depth 6",
        ]);
        assert_ne!(
            field(&off, "nodes"),
            field(&plain, "nodes"),
            "{switch}=false searched the same tree: {off}"
        );
    }
}

/// A search's node count and score, from its last info line.
fn tree(info: &str) -> (i64, i64) {
    (field(info, "nodes"), field(info, "cp"))
}

#[test]
fn the_level_option_changes_the_search() {
    let (plain, _) = search(&[MIDDLE, "go depth 5"]);
    let (easy, _) = search(&["setoption name Level value easy", MIDDLE, "go depth 5"]);
    assert_ne!(
        tree(&easy),
        tree(&plain),
        "Level easy searched as the default: {easy}"
    );
}

#[test]
fn the_skill_level_option_sets_the_dial() {
    let (plain, _) = search(&[MIDDLE, "go depth 5"]);
    // 20 is full strength: the same tree as no option at all.
    let (top, _) = search(&["setoption name Skill Level value 20", MIDDLE, "go depth 5"]);
    assert_eq!(
        tree(&top),
        tree(&plain),
        "Skill Level 20 is not full strength: {top}"
    );
    // 0 is the bottom of the dial: a budget of 200 nodes a move cuts the search short.
    let (low, _) = search(&["setoption name Skill Level value 0", MIDDLE, "go depth 5"]);
    assert!(
        field(&low, "nodes") < field(&plain, "nodes"),
        "Skill Level 0 searched as much as full strength: {low} ({plain})"
    );
}
