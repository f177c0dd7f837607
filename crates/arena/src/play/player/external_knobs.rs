//! An external engine's own search limits and the knobs a player spec (or a calibration) sets
//! on an external engine file: `go-nodes`, `go-depth`, `movetime` (milliseconds) and
//! `option:<UCI option name>`. In the engine file the limits are `[uci]` keys (`go_nodes`,
//! `go_depth`, `movetime_ms`) and the options `[uci.options]` entries, so that a level written
//! by `chuhan calibrate` is an engine file like any other.

pub use super::uci::EngineLimits;
use super::uci::ExternalEngine;
use std::time::Duration;

/// Why a knob override of an external engine spec was refused; messages name the spec, the
/// item and the knob.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KnobError {
    /// A limit that is not a whole number of at least 1.
    #[error("{key} = '{value}' must be a whole number, at least 1")]
    NotPositive {
        /// The knob (`go-nodes`, ...).
        key: String,
        /// The value given.
        value: String,
    },
    /// A `go-depth` beyond what a depth can hold.
    #[error("go-depth = {0} is too deep")]
    TooDeep(u64),
    /// An engine file that cannot be rewritten with a knob set (not TOML, no `[uci]` table,
    /// or a value TOML cannot hold).
    #[error("cannot write the engine file with the knob set: {0}")]
    Rewrite(String),
    /// `option:<name>=` with nothing after the `=`.
    #[error("option:{0} needs a value")]
    NoValue(String),
    /// An override item without `=`.
    #[error("player '{spec}': '{item}' is not key=value")]
    NotKeyValue {
        /// The whole player spec.
        spec: String,
        /// The item.
        item: String,
    },
    /// A key that is not a knob.
    #[error(
        "player '{spec}': '{key}' is not a knob of an external engine (go-nodes, go-depth, \
         movetime, option:<UCI option>)"
    )]
    UnknownKnob {
        /// The whole player spec.
        spec: String,
        /// The key given.
        key: String,
    },
    /// A knob's value refused, in the spec that gave it.
    #[error("player '{spec}': {error}")]
    InSpec {
        /// The whole player spec.
        spec: String,
        /// Why the value was refused.
        error: Box<KnobError>,
    },
}

/// A knob of an external engine, as named in player specs and by `chuhan calibrate --knob`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExternalKnob {
    /// `go-nodes`: the node limit of every move.
    GoNodes,
    /// `go-depth`: the depth limit of every move.
    GoDepth,
    /// `movetime`: a fixed time per move, in milliseconds (not reproducible: speed decides).
    Movetime,
    /// `option:<name>`: a UCI option, sent with `setoption`.
    UciOption(String),
}

impl ExternalKnob {
    /// Parses a knob name: `go-nodes` (or `go_nodes`), `go-depth`, `movetime`, `option:<name>`.
    pub fn parse(key: &str) -> Option<ExternalKnob> {
        match key.trim() {
            "go-nodes" | "go_nodes" => Some(ExternalKnob::GoNodes),
            "go-depth" | "go_depth" => Some(ExternalKnob::GoDepth),
            "movetime" | "movetime_ms" => Some(ExternalKnob::Movetime),
            other => other
                .strip_prefix("option:")
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .map(|n| ExternalKnob::UciOption(n.to_string())),
        }
    }

    /// The name in specs: `go-nodes`, `go-depth`, `movetime`, `option:<name>`.
    pub fn key(&self) -> String {
        match self {
            ExternalKnob::GoNodes => "go-nodes".into(),
            ExternalKnob::GoDepth => "go-depth".into(),
            ExternalKnob::Movetime => "movetime".into(),
            ExternalKnob::UciOption(n) => format!("option:{n}"),
        }
    }

    /// Sets the knob on `engine` to `value` (text as in a spec); the error names the knob.
    pub fn set(&self, engine: &mut ExternalEngine, value: &str) -> Result<(), KnobError> {
        let value = value.trim();
        let positive = || {
            value
                .parse::<u64>()
                .ok()
                .filter(|&v| v >= 1)
                .ok_or_else(|| KnobError::NotPositive {
                    key: self.key(),
                    value: value.to_string(),
                })
        };
        match self {
            ExternalKnob::GoNodes => engine.limits.nodes = Some(positive()?),
            ExternalKnob::GoDepth => {
                let d = positive()?;
                engine.limits.depth = Some(u32::try_from(d).map_err(|_| KnobError::TooDeep(d))?);
            }
            ExternalKnob::Movetime => {
                engine.limits.movetime = Some(Duration::from_millis(positive()?))
            }
            ExternalKnob::UciOption(name) => {
                if value.is_empty() {
                    return Err(KnobError::NoValue(name.clone()));
                }
                match engine.options.iter_mut().find(|(n, _)| n == name) {
                    Some((_, v)) => *v = value.to_string(),
                    None => engine.options.push((name.clone(), value.to_string())),
                }
            }
        }
        Ok(())
    }
}

/// Applies `key=value,...` knob overrides (see [`ExternalKnob`]) to an external engine; errors
/// name the spec and the item.
pub fn apply_external_overrides(
    engine: &mut ExternalEngine,
    mods: &str,
    spec: &str,
) -> Result<(), KnobError> {
    for item in mods.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (key, value) = item.split_once('=').ok_or_else(|| KnobError::NotKeyValue {
            spec: spec.to_string(),
            item: item.to_string(),
        })?;
        let knob = ExternalKnob::parse(key).ok_or_else(|| KnobError::UnknownKnob {
            spec: spec.to_string(),
            key: key.trim().to_string(),
        })?;
        knob.set(engine, value).map_err(|e| KnobError::InSpec {
            spec: spec.to_string(),
            error: Box::new(e),
        })?;
    }
    Ok(())
}

/// The text of an engine file for `engine_text` (an external engine file read from `source`)
/// with `knob` set to `value`: the same file, the `[uci]` key or the `[uci.options]` entry
/// replaced or added, and a `command` or `working_dir` relative to the original file's folder
/// made absolute (`resolved_command`, `resolved_dir`), so the new file works from any folder.
///
/// The file is edited as a TOML document (comments, order and layout kept), not line by line:
/// a line-based rewrite misread quoted keys holding `=` or `"`, inline and dotted tables (fuzz
/// finding 6). The written value reads back as exactly `value`: a whole number or `true`/`false`
/// as such, anything else as a string (UCI sends every value as text, and `1.50` written as
/// a TOML float would read back as `1.5`).
pub fn engine_file_with(
    engine_text: &str,
    resolved: &ExternalEngine,
    knob: &ExternalKnob,
    value: &str,
) -> Result<String, KnobError> {
    use toml_edit::{DocumentMut, InlineTable, Item, Table, Value};
    let rewrite = |why: String| KnobError::Rewrite(why);
    let mut doc: DocumentMut = engine_text
        .parse()
        .map_err(|e: toml_edit::TomlError| rewrite(e.to_string()))?;
    let uci = doc
        .get_mut("uci")
        .filter(|u| u.is_table_like())
        .ok_or_else(|| rewrite("the file has no [uci] table".into()))?;
    // Replaces a value in place, keeping the comments and spacing around it.
    fn put(item: &mut Item, new: Value) {
        match item.as_value_mut() {
            Some(old) => {
                let decor = old.decor().clone();
                *old = new;
                *old.decor_mut() = decor;
            }
            None => *item = Item::Value(new),
        }
    }
    // A key of a table-like item (a `[table]` or an inline `{ }` table), set or added.
    fn set(table: &mut Item, key: &str, new: Value) {
        if let Some(item) = table.get_mut(key) {
            put(item, new);
        } else if let Some(t) = table.as_table_like_mut() {
            t.insert(key, Item::Value(new));
        }
    }
    {
        let u = uci.as_table_like_mut().expect("checked: table-like");
        // A command with a folder in it was relative to the original file's folder; one with
        // `{chuhan}` is kept as written: it names the running executable from any folder (made
        // absolute, `x{chuhan}` became a path under the current folder, a different command:
        // fuzz finding 5).
        if let Some(item) = u.get_mut("command") {
            let placeholder = item
                .as_str()
                .is_some_and(|c| c.contains(super::uci::CHUHAN_PLACEHOLDER));
            if resolved.command.components().count() > 1 && !placeholder {
                let abs = std::path::absolute(&resolved.command)
                    .unwrap_or_else(|_| resolved.command.clone());
                put(item, Value::from(abs.to_string_lossy().as_ref()));
            }
        }
        if let (Some(item), Some(d)) = (u.get_mut("working_dir"), &resolved.working_dir) {
            let abs = std::path::absolute(d).unwrap_or_else(|_| d.clone());
            put(item, Value::from(abs.to_string_lossy().as_ref()));
        }
    }
    let whole = |key: &str| -> Result<Value, KnobError> {
        value
            .trim()
            .parse::<i64>()
            .map(Value::from)
            .map_err(|_| rewrite(format!("{key} = {value}: not a whole number TOML can hold")))
    };
    match knob {
        ExternalKnob::GoNodes => set(uci, "go_nodes", whole("go_nodes")?),
        ExternalKnob::GoDepth => set(uci, "go_depth", whole("go_depth")?),
        ExternalKnob::Movetime => set(uci, "movetime_ms", whole("movetime_ms")?),
        ExternalKnob::UciOption(name) => {
            let new = match value {
                "true" => Value::from(true),
                "false" => Value::from(false),
                v => match v.parse::<i64>() {
                    Ok(i) if i.to_string() == v => Value::from(i),
                    _ => Value::from(v),
                },
            };
            if uci.get("options").is_none() {
                match uci {
                    Item::Table(t) => {
                        t.insert("options", Item::Table(Table::new()));
                    }
                    Item::Value(Value::InlineTable(t)) => {
                        t.insert("options", Value::InlineTable(InlineTable::new()));
                    }
                    _ => {}
                }
            }
            let options = uci
                .get_mut("options")
                .filter(|o| o.is_table_like())
                .ok_or_else(|| rewrite("[uci] options is not a table".into()))?;
            set(options, name, new);
        }
    }
    Ok(doc.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::limits::MoveLimits;
    use crate::play::player::uci::{go_command, parse_external};
    use std::path::Path;

    const FILE: &str = r#"# an engine
name = "fs"

[uci]
command = "bin/engine"
args = []
# a comment about the options
[uci.options]
UCI_Variant = "xiangqi"
Threads = 1
"#;

    fn parse(text: &str) -> ExternalEngine {
        parse_external(text, "fs.toml", Path::new("/opt/engines"), "fs").unwrap()
    }

    #[test]
    fn knobs_parse_and_set_limits_and_options_in_order() {
        assert_eq!(ExternalKnob::parse("go-nodes"), Some(ExternalKnob::GoNodes));
        assert_eq!(ExternalKnob::parse("go_depth"), Some(ExternalKnob::GoDepth));
        assert_eq!(
            ExternalKnob::parse("movetime"),
            Some(ExternalKnob::Movetime)
        );
        assert_eq!(
            ExternalKnob::parse("option:Skill Level"),
            Some(ExternalKnob::UciOption("Skill Level".into()))
        );
        assert_eq!(ExternalKnob::parse("option:"), None);
        assert_eq!(ExternalKnob::parse("nodes"), None);
        let mut e = parse(FILE);
        apply_external_overrides(
            &mut e,
            "go-nodes=500,go-depth=7,movetime=40,option:Threads=2,option:Skill Level=3",
            "fs.toml:...",
        )
        .unwrap();
        assert_eq!(e.limits.nodes, Some(500));
        assert_eq!(e.limits.depth, Some(7));
        assert_eq!(e.limits.movetime, Some(Duration::from_millis(40)));
        // An option already in the file keeps its place; a new one goes last.
        let names: Vec<&str> = e.options.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["UCI_Variant", "Threads", "Skill Level"]);
        assert_eq!(e.options[1].1, "2");
        for (bad, needle) in [
            ("go-nodes=0", "go-nodes = '0'"),
            ("go-nodes=many", "go-nodes = 'many'"),
            ("depth=3", "'depth' is not a knob of an external engine"),
            ("option:Skill Level", "is not key=value"),
        ] {
            let e2 = apply_external_overrides(&mut parse(FILE), bad, "fs.toml:x")
                .unwrap_err()
                .to_string();
            assert!(
                e2.contains(needle) && e2.contains("fs.toml:x"),
                "{bad}: {e2}"
            );
        }
    }

    #[test]
    fn the_engine_limits_tighten_the_runs() {
        let run = MoveLimits {
            nodes: Some(2_000_000),
            ..MoveLimits::default()
        };
        let own = EngineLimits {
            nodes: Some(500),
            depth: Some(3),
            movetime: None,
        };
        let l = own.apply(&run);
        assert_eq!(go_command(&l, true), "go depth 3 nodes 500");
        let bigger = EngineLimits {
            nodes: Some(5_000_000),
            ..EngineLimits::default()
        };
        assert_eq!(go_command(&bigger.apply(&run), true), "go nodes 2000000");
        assert_eq!(EngineLimits::default().apply(&run), run);
    }

    #[test]
    fn written_engine_files_read_back_with_the_knob_set() {
        let base = parse(FILE);
        let text = engine_file_with(FILE, &base, &ExternalKnob::GoNodes, "800").unwrap();
        let text = engine_file_with(
            &text,
            &base,
            &ExternalKnob::UciOption("Skill Level".into()),
            "4",
        )
        .unwrap();
        let text = engine_file_with(
            &text,
            &base,
            &ExternalKnob::UciOption("Threads".into()),
            "3",
        )
        .unwrap();
        let e = parse(&text);
        assert_eq!(e.limits.nodes, Some(800));
        assert_eq!(
            e.options,
            [
                ("UCI_Variant".to_string(), "xiangqi".to_string()),
                ("Threads".to_string(), "3".to_string()),
                ("Skill Level".to_string(), "4".to_string()),
            ]
        );
        // The relative command is made absolute (it was relative to the original's folder).
        assert_eq!(e.command, Path::new("/opt/engines/bin/engine"));
        assert!(
            text.contains("command = \"/opt/engines/bin/engine\""),
            "{text}"
        );
        // Set twice: replaced, not repeated.
        let again = engine_file_with(&text, &base, &ExternalKnob::GoNodes, "900").unwrap();
        assert_eq!(again.matches("go_nodes").count(), 1, "{again}");
        assert_eq!(parse(&again).limits.nodes, Some(900));
        // The new key sits with the section's keys, before the next section's comment.
        let uci_part = &text[..text.find("# a comment").unwrap()];
        assert!(uci_part.contains("go_nodes = 800"), "{text}");
        // A file without [uci.options] gets one.
        let bare = "[uci]\ncommand = \"e\"\n";
        let t = engine_file_with(
            bare,
            &parse(bare),
            &ExternalKnob::UciOption("UCI_Elo".into()),
            "1500",
        )
        .unwrap();
        assert_eq!(
            parse(&t).options,
            [("UCI_Elo".to_string(), "1500".to_string())]
        );
        // Zero limits in a file are refused, naming the key.
        let e = parse_external(
            "[uci]\ncommand = \"e\"\ngo_nodes = 0\n",
            "z.toml",
            Path::new("."),
            "z",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("z.toml") && e.contains("go_nodes"), "{e}");
    }
}
