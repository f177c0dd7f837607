//! SPSA parameter files as `chuhan tune spsa --params FILE` reads them (`parse_param_file`).
//!
//! Properties: an accepted file's parameters obey the documented rules (a known name or
//! `option:NAME`, whole `min <= start <= max` within the table's range, `c_end > 0`,
//! `r_end > 0`, no name twice); written back as parameter lines they read back equal.
#![no_main]

use chuhan_arena::jobs::tune::spsa::parameters::{option_name, parse_param_file};
use chuhan_engine::params;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(list) = parse_param_file(text, "fuzz.txt") else {
        return;
    };
    assert!(!list.is_empty());
    for (k, p) in list.iter().enumerate() {
        assert!(
            !list[..k].iter().any(|q| q.name == p.name),
            "{} twice",
            p.name
        );
        assert!(p.min.fract() == 0.0 && p.max.fract() == 0.0);
        assert!(p.min <= p.start && p.start <= p.max);
        assert!(p.c_end > 0.0 && p.r_end > 0.0);
        match option_name(&p.name) {
            Some(o) => assert!(!o.is_empty()),
            None => {
                let def = &params::table()[params::index_of(&p.name).expect("a table name")];
                assert!(p.min >= f64::from(def.min) && p.max <= f64::from(def.max));
            }
        }
    }
    let written: String = list
        .iter()
        .map(|p| {
            format!(
                "{}, {}, {}, {}, {}, {}\n",
                p.name, p.start, p.min, p.max, p.c_end, p.r_end
            )
        })
        .collect();
    let again = parse_param_file(&written, "written.txt").expect("written parameters read");
    assert_eq!(again, list, "{written}");
});
