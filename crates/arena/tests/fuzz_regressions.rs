//! Inputs the fuzz targets of `fuzz/` (or writing them) found, kept as tests in the crate
//! that was fixed (docs/reliability.md, "Findings"). Each failed before its fix.

use chuhan_arena::engines::uci_front::{parse_command, parse_go, Command};
use chuhan_arena::play::player::uci::SearchReport;
use chuhan_engine::search::{Limits, MATE};
use std::time::Duration;

/// `chuhan uci` read `go wtime 1000 winc 9223372036854775807` with an overflowing `3 *
/// increment` (a panic in a debug build; a wrapped, nonsense time in release).
#[test]
fn huge_increments_and_clocks_saturate() {
    let Some(Ok(Command::Go(words))) = parse_command("go wtime 1000 winc 9223372036854775807")
    else {
        panic!("a go command");
    };
    let limits = parse_go(&words, true).expect("the numbers parse");
    // The cap of 2/5 of what is left holds whatever the increment.
    assert_eq!(limits.hard_time, Some(Duration::from_millis(380)));
    assert_eq!(limits.soft_time, Some(Duration::from_millis(380)));
    let limits = parse_go(&["btime", "9223372036854775807"], false).unwrap();
    let (soft, hard) = (limits.soft_time.unwrap(), limits.hard_time.unwrap());
    assert!(soft <= hard && soft > Duration::ZERO);
    // Ordinary clocks are unchanged: 60 s over the horizon's moves + 3/4 s, hard three
    // times that.
    let limits = parse_go(&["wtime", "60000", "winc", "1000"], true).unwrap();
    let soft = 60_000 / u64::from(Limits::CLOCK_HORIZON) + 750;
    assert_eq!(limits.soft_time, Some(Duration::from_millis(soft)));
    assert_eq!(limits.hard_time, Some(Duration::from_millis(3 * soft)));
}

/// An external engine printing `info score mate 2000000000` overflowed `2 * m` in the
/// arena's reader (a panic in a debug build: the game thread died); the score keeps the
/// mover's sign whatever the distance.
#[test]
fn huge_mate_distances_saturate() {
    let mut r = SearchReport::default();
    r.update("info depth 3 score mate 2000000000");
    assert!(r.score.is_some_and(|s| s > 0 && s < MATE));
    r.update("info depth 3 score mate -2147483648");
    assert!(r.score.is_some_and(|s| s <= 0 && s > -MATE));
    // Ordinary mates are unchanged: mate in 3 is MATE - 5 plies, mated in 2 is -(MATE - 4).
    r.update("info depth 3 score mate 3");
    assert_eq!(r.score, Some(MATE - 5));
    r.update("info depth 3 score mate -2");
    assert_eq!(r.score, Some(-(MATE - 4)));
}

/// `engine_file_with` (the writer behind `calibrate --knob` and spec overrides) made a command
/// holding `{chuhan}` absolute: `x{chuhan}` (resolved to `x/<path of chuhan>`) became
/// `<current folder>/x/<path>`, so the rewritten file named another program. A `{chuhan}`
/// command is now kept as written.
#[test]
fn knob_rewrites_keep_a_chuhan_command() {
    use chuhan_arena::play::player::external_knobs::{engine_file_with, ExternalKnob};
    use chuhan_arena::play::player::uci::parse_external;
    use std::path::Path;
    for command in ["{chuhan}", "depth{chuhan}"] {
        let text = format!("[uci]\ncommand = \"{command}\"\nargs = [\"uci\"]\n");
        let base = Path::new("/engines");
        let engine = parse_external(&text, "e.toml", base, "e").unwrap();
        let rewritten = engine_file_with(&text, &engine, &ExternalKnob::GoNodes, "1234").unwrap();
        assert!(
            rewritten.contains(&format!("command = \"{command}\"")),
            "{rewritten}"
        );
        let read = parse_external(&rewritten, "e.toml", base, "e").unwrap();
        let mut want = engine.clone();
        ExternalKnob::GoNodes.set(&mut want, "1234").unwrap();
        assert_eq!(read, want);
    }
}

/// `engine_file_with` and the option-order reader went through the file line by line: a quoted
/// `[uci.options]` key holding `=` (`"Skiln Leve =" = 20`) was read as another key, so the
/// options of the rewritten file came back in another order than the engine's (the fuzz
/// target `engine_toml` compares them). Both now read the file as a TOML document.
#[test]
fn knob_rewrites_keep_odd_option_keys_and_their_order() {
    use chuhan_arena::play::player::external_knobs::{engine_file_with, ExternalKnob};
    use chuhan_arena::play::player::uci::parse_external;
    use std::path::Path;
    let found = include_str!("data/engine_toml-crash-1.toml");
    let inline = "[uci]\ncommand = \"e\"\noptions = { \"b = c\" = 1, a = \"x\" }\n";
    let dotted = "[uci]\ncommand = \"e\"\noptions.\"z\\\"q\" = 2\noptions.y = true\n";
    let base = Path::new("/fuzz/engines");
    for text in [found, inline, dotted] {
        let engine = parse_external(text, "e.toml", base, "e").unwrap();
        let file_order: Vec<&str> = engine.options.iter().map(|(n, _)| n.as_str()).collect();
        if text == found {
            assert_eq!(file_order[5], "Skiln Leve =", "{file_order:?}");
        }
        let knobs = [
            (ExternalKnob::UciOption("Skill Level".into()), "3"),
            (ExternalKnob::UciOption("Book File".into()), "a \"b\" c"),
            (ExternalKnob::UciOption("Ratio".into()), "1.50"),
            (ExternalKnob::UciOption(engine.options[0].0.clone()), "42"),
            (ExternalKnob::GoNodes, "1234"),
        ];
        for (knob, value) in knobs {
            let rewritten = engine_file_with(text, &engine, &knob, value).unwrap();
            let read = parse_external(&rewritten, "e.toml", base, "e").unwrap();
            let mut want = engine.clone();
            knob.set(&mut want, value).unwrap();
            assert_eq!(read, want, "{knob:?} = {value}\n{rewritten}");
        }
    }
    // Comments and the layout of the rest of the file are kept.
    let rewritten = engine_file_with(
        found,
        &parse_external(found, "e.toml", base, "e").unwrap(),
        &ExternalKnob::UciOption("Threads".into()),
        "2",
    )
    .unwrap();
    assert!(
        rewritten.contains("# a comment qbout the options"),
        "{rewritten}"
    );
    assert!(rewritten.contains("Threads = 2\n"), "{rewritten}");
    assert!(rewritten.contains("\"Skiln Leve =\" = 20"), "{rewritten}");
}

/// `chuhan uci` and the in-process players read a clock by the engine's one rule.
#[test]
fn uci_and_in_process_players_share_the_clock_rule() {
    use chuhan_arena::play::limits::MoveLimits;
    use chuhan_arena::play::player::search_limits;
    use std::time::Duration;
    for (left, inc, togo) in [
        (10_000u64, 100u64, None),
        (300, 0, None),
        (60_000, 0, Some(7u32)),
    ] {
        let mut words = vec![
            "wtime".to_string(),
            left.to_string(),
            "btime".to_string(),
            "1".to_string(),
            "winc".to_string(),
            inc.to_string(),
        ];
        if let Some(m) = togo {
            words.extend(["movestogo".to_string(), m.to_string()]);
        }
        let uci = parse_go(&words, true).unwrap();
        let builtin = search_limits(&MoveLimits {
            time_left: Some(Duration::from_millis(left)),
            increment: Duration::from_millis(inc),
            moves_to_go: togo,
            ..MoveLimits::default()
        });
        assert_eq!(
            (uci.soft_time, uci.hard_time),
            (builtin.soft_time, builtin.hard_time),
            "{words:?}"
        );
        assert!(uci.soft_time.unwrap() < Duration::from_millis(left.max(2)));
    }
}
