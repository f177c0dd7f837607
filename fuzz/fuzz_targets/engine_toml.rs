//! Engine files as `--engine FILE` and player specs read them: an external engine's `[uci]`
//! file (`parse_external`) or an in-process engine configuration (`parse_engine_config`).
//!
//! Properties: an accepted file is accepted again, equal; an external file rewritten by
//! `engine_file_with` with a knob set (the writer behind `calibrate --knob` and spec
//! overrides) reads back as the same engine with exactly that knob set; an in-process
//! configuration holds only values the engine accepts (hash size, parameter ranges, level
//! bounds).
#![no_main]

use chuhan_arena::play::config::parse_engine_config;
use chuhan_arena::play::player::external_knobs::{engine_file_with, ExternalKnob};
use chuhan_arena::play::player::uci::{is_external, parse_external};
use chuhan_engine::search::tt::MAX_TT_MB;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

const SOURCE: &str = "fuzz/engine.toml";

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let base = Path::new("/fuzz/engines");
    if is_external(text) {
        let Ok(engine) = parse_external(text, SOURCE, base, "engine") else {
            return;
        };
        let again = parse_external(text, SOURCE, base, "engine").expect("accepted once");
        assert_eq!(again, engine);
        let mut knobs = vec![
            (ExternalKnob::GoNodes, "1234".to_string()),
            (ExternalKnob::GoDepth, "7".to_string()),
            (ExternalKnob::Movetime, "250".to_string()),
            (
                ExternalKnob::UciOption("Skill Level".into()),
                "3".to_string(),
            ),
            (
                ExternalKnob::UciOption("Book File".into()),
                "a \"b\" c".to_string(),
            ),
        ];
        // An option the file sets already: replaced in place.
        if let Some((name, _)) = engine.options.first() {
            if !name.trim().is_empty() && name.trim() == name {
                knobs.push((ExternalKnob::UciOption(name.clone()), "42".to_string()));
            }
        }
        for (knob, value) in knobs {
            let rewritten = engine_file_with(text, &engine, &knob, &value)
                .unwrap_or_else(|e| panic!("{knob:?} = {value}: an accepted file: {e}"));
            let read = parse_external(&rewritten, SOURCE, base, "engine").unwrap_or_else(|e| {
                panic!("{knob:?} = {value}: the rewritten file does not read: {e:#}\n{rewritten}")
            });
            let mut want = engine.clone();
            knob.set(&mut want, &value)
                .expect("the knob's value is valid");
            assert_eq!(read, want, "{knob:?} = {value}\n{rewritten}");
        }
    } else {
        let levels = chuhan_fuzz::levels();
        let Ok(config) = parse_engine_config(text, SOURCE, "engine", levels) else {
            return;
        };
        let again = parse_engine_config(text, SOURCE, "engine", levels).expect("accepted once");
        assert_eq!(again, config);
        assert!((1..=MAX_TT_MB).contains(&config.options.tt_mb));
        for (def, &v) in chuhan_engine::params::table()
            .iter()
            .zip(config.params.values())
        {
            assert!((def.min..=def.max).contains(&v), "{} = {v}", def.name);
        }
        if let Some(level) = &config.level {
            assert!((0.0..=1.0).contains(&level.random_rate));
            assert!(level.margin >= 0 && level.opening_margin >= 0);
            assert!(level.depth != Some(0) && level.nodes != Some(0));
            assert!(level.time.map_or(true, |t| !t.is_zero()));
        }
    }
});
