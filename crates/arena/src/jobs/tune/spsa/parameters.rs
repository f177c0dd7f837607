//! What an SPSA run tunes: parameters from a fishtest parameter file or by name. A name is an
//! entry of the built-in engine's parameter table, or `option:NAME`, an option of an external
//! engine (set with `setoption`), whose range the file gives.

use super::DEFAULT_R_END;
use crate::play::any::GameKind;
use crate::play::player::uci::DeclaredOption;
use chuhan_engine::chess::EvalParams;
use chuhan_engine::{params, Params};
use serde::{Deserialize, Serialize};

/// The prefix of a parameter naming an external engine's option (`option:Skill Level`).
pub const OPTION_PREFIX: &str = "option:";

/// The option name of an `option:NAME` parameter, `None` for a table parameter.
pub fn option_name(param: &str) -> Option<&str> {
    param.strip_prefix(OPTION_PREFIX).map(str::trim)
}

/// One tuned parameter: a name from the parameter table (or `option:NAME`) and its SPSA
/// settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaParam {
    /// Name in the parameter table (`chuhan params`).
    pub name: String,
    /// Start value of theta.
    pub start: f64,
    /// Smallest value theta may take (a whole number within the table's range).
    pub min: f64,
    /// Largest value theta may take (a whole number within the table's range).
    pub max: f64,
    /// Perturbation size at the last iteration.
    pub c_end: f64,
    /// Learning rate at the last iteration.
    pub r_end: f64,
}

/// A bad line in a parameter file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{source_name}:{line}: field '{field}': {reason}")]
pub struct ParamFileError {
    /// The file.
    pub source_name: String,
    /// 1-based line number.
    pub line: usize,
    /// The field at fault (`name`, `start`, `min`, `max`, `c_end`, `r_end`, or `line`).
    pub field: &'static str,
    /// What is wrong.
    pub reason: String,
}

/// The field names of a parameter line, in order.
pub const FIELDS: [&str; 6] = ["name", "start", "min", "max", "c_end", "r_end"];

/// Parses a fishtest parameter file: lines `name, start, min, max, c_end, r_end`; blank lines
/// and `#` comments (whole lines or line ends) are skipped. Names come from the parameter
/// table, or are `option:NAME` (an external engine's option: any whole-number range);
/// `min <= start <= max` within the table's range, `min` and `max` whole numbers,
/// `c_end > 0`, `r_end > 0`, no name twice.
pub fn parse_param_file(text: &str, source: &str) -> Result<Vec<SpsaParam>, ParamFileError> {
    parse_param_file_for(text, source, GameKind::Xiangqi)
}

/// [`parse_param_file`] for a run of `game`: chess names come from the chess evaluation's
/// table ([`EvalParams::NAMES`], e.g. `knight_mg`), which has no ranges of its own, so `min`
/// and `max` need only be whole numbers; a name of the other game's table is an error naming it.
pub fn parse_param_file_for(
    text: &str,
    source: &str,
    game: GameKind,
) -> Result<Vec<SpsaParam>, ParamFileError> {
    let mut out: Vec<SpsaParam> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let err = |field: &'static str, reason: String| ParamFileError {
            source_name: source.to_string(),
            line,
            field,
            reason,
        };
        let cells: Vec<&str> = body.split(',').map(str::trim).collect();
        if cells.len() != FIELDS.len() {
            return Err(err(
                "line",
                format!(
                    "expected 6 comma-separated fields `name, start, min, max, c_end, r_end`, found {}",
                    cells.len()
                ),
            ));
        }
        let name = cells[0];
        let index = match option_name(name) {
            Some("") => return Err(err("name", format!("'{name}' names no option"))),
            Some(_) => None,
            None if game == GameKind::Chess => {
                if !EvalParams::NAMES.contains(&name) {
                    return Err(err("name", not_chess_reason(name)));
                }
                None
            }
            None => Some(params::index_of(name).ok_or_else(|| {
                err(
                    "name",
                    format!("unknown parameter '{name}' (see `chuhan params`, or option:NAME for an external engine's option)"),
                )
            })?),
        };
        if out.iter().any(|p| p.name == name) {
            return Err(err("name", format!("'{name}' is listed twice")));
        }
        let mut nums = [0.0f64; 5];
        for (k, cell) in cells[1..].iter().enumerate() {
            let field = FIELDS[k + 1];
            let v: f64 = cell
                .parse()
                .map_err(|_| err(field, format!("'{cell}' is not a number")))?;
            if !v.is_finite() {
                return Err(err(field, format!("'{cell}' is not a finite number")));
            }
            nums[k] = v;
        }
        let [start, min, max, c_end, r_end] = nums;
        for (field, v) in [("min", min), ("max", max)] {
            if v.fract() != 0.0 {
                return Err(err(field, format!("{v} is not a whole number")));
            }
            if v.abs() > i32::MAX as f64 {
                return Err(err(field, format!("{v} is beyond a 32-bit whole number")));
            }
            let Some(def) = index.map(|i| &params::table()[i]) else {
                continue;
            };
            if v < def.min as f64 || v > def.max as f64 {
                return Err(err(
                    field,
                    format!(
                        "{v} is outside the table's range [{}, {}] for {name}",
                        def.min, def.max
                    ),
                ));
            }
        }
        if min > max {
            return Err(err("min", format!("min {min} is above max {max}")));
        }
        if start < min || start > max {
            return Err(err(
                "start",
                format!("{start} is outside [min, max] = [{min}, {max}]"),
            ));
        }
        if c_end <= 0.0 {
            return Err(err("c_end", format!("{c_end} must be above 0")));
        }
        if r_end <= 0.0 {
            return Err(err("r_end", format!("{r_end} must be above 0")));
        }
        out.push(SpsaParam {
            name: name.to_string(),
            start,
            min,
            max,
            c_end,
            r_end,
        });
    }
    if out.is_empty() {
        return Err(ParamFileError {
            source_name: source.to_string(),
            line: text.lines().count().max(1),
            field: "line",
            reason: "the file lists no parameter".into(),
        });
    }
    Ok(out)
}

/// Why `name` is not a chess parameter: a xiangqi table name is called one, and the chess
/// names are listed.
pub fn not_chess_reason(name: &str) -> String {
    let what = if params::index_of(name).is_some() {
        "is a xiangqi parameter, and this run plays chess"
    } else {
        "is not a chess parameter"
    };
    format!(
        "'{name}' {what} (chess parameters: {})",
        EvalParams::NAMES.join(", ")
    )
}

/// Parameters of the chess evaluation from a `--params` list: each starts at the base's value;
/// the chess table has no ranges, so theta may move by half the value either way (at least 20
/// cp), `c_end` is a twentieth of that range (at least 1) and `r_end` is 0.002.
pub fn chess_params_from_names(
    list: &str,
    base: &EvalParams,
) -> Result<Vec<SpsaParam>, ParamNamesError> {
    let mut out: Vec<SpsaParam> = Vec::new();
    for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        if option_name(name).is_some() {
            return Err(ParamNamesError::OptionWithBuiltin(name.to_string()));
        }
        let Some(v) = base.get(name) else {
            return Err(ParamNamesError::NotChess(not_chess_reason(name)));
        };
        if out.iter().any(|p| p.name == name) {
            return Err(ParamNamesError::Twice(name.to_string()));
        }
        let half = (v.abs() / 2).max(20);
        let (min, max) = (v - half, v + half);
        out.push(SpsaParam {
            name: name.to_string(),
            start: v as f64,
            min: min as f64,
            max: max as f64,
            c_end: ((max - min) as f64 / 20.0).max(1.0),
            r_end: DEFAULT_R_END,
        });
    }
    if out.is_empty() {
        return Err(ParamNamesError::Empty);
    }
    Ok(out)
}

/// Why a `--params` list of names was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamNamesError {
    /// Not in the parameter table.
    #[error("--params: unknown parameter '{0}' (see `chuhan params`)")]
    Unknown(String),
    /// Not in the chess evaluation's table (the reason names it and lists the chess names).
    #[error("--params: {0}")]
    NotChess(String),
    /// Named twice.
    #[error("--params: '{0}' is listed twice")]
    Twice(String),
    /// A parameter whose range is one value.
    #[error("--params: '{name}' has an empty range [{min}, {max}]")]
    EmptyRange {
        /// The parameter.
        name: String,
        /// Its minimum.
        min: i32,
        /// Its maximum.
        max: i32,
    },
    /// An engine option with the built-in engine as base.
    #[error("--params: '{0}' is an engine option, but the base is the built-in engine (give --base an external engine file)")]
    OptionWithBuiltin(String),
    /// A table name with an external engine as base.
    #[error("--params: '{0}' is a table parameter, but the base is an external engine: name its options as option:NAME")]
    TableWithExternal(String),
    /// An option the engine does not declare as a spin.
    #[error("--params: the engine declares no spin option '{name}' (its spins: {spins}); give other options in a --params-file")]
    NotASpin {
        /// The option.
        name: String,
        /// The spins it declares.
        spins: String,
    },
    /// No name at all.
    #[error("--params: give at least one parameter name")]
    Empty,
}

/// Parameters from a comma-separated list of names: start from `base` (the table default
/// unless the base engine overrides it), min and max from the table, `c_end = (max - min) / 20`,
/// `r_end = 0.002`.
pub fn params_from_names(list: &str, base: &Params) -> Result<Vec<SpsaParam>, ParamNamesError> {
    let mut out: Vec<SpsaParam> = Vec::new();
    for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        if option_name(name).is_some() {
            return Err(ParamNamesError::OptionWithBuiltin(name.to_string()));
        }
        let index =
            params::index_of(name).ok_or_else(|| ParamNamesError::Unknown(name.to_string()))?;
        if out.iter().any(|p| p.name == name) {
            return Err(ParamNamesError::Twice(name.to_string()));
        }
        let def = &params::table()[index];
        if def.min == def.max {
            return Err(ParamNamesError::EmptyRange {
                name: name.to_string(),
                min: def.min,
                max: def.max,
            });
        }
        out.push(SpsaParam {
            name: name.to_string(),
            start: base.get(index) as f64,
            min: def.min as f64,
            max: def.max as f64,
            c_end: (def.max - def.min) as f64 / 20.0,
            r_end: DEFAULT_R_END,
        });
    }
    if out.is_empty() {
        return Err(ParamNamesError::Empty);
    }
    Ok(out)
}

/// Parameters from a `--params` list of `option:NAME` for an external engine that declared
/// `declared`: each must be a spin with a non-empty range; start from `file_values` (the
/// engine file's value of that option, if it is a whole number inside the range), else the
/// declared default; `c_end = (max - min) / 20`, `r_end = 0.002`.
pub fn option_params_from_names(
    list: &str,
    declared: &[DeclaredOption],
    file_values: &[(String, String)],
) -> Result<Vec<SpsaParam>, ParamNamesError> {
    let mut out: Vec<SpsaParam> = Vec::new();
    for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let Some(option) = option_name(name) else {
            return Err(ParamNamesError::TableWithExternal(name.to_string()));
        };
        let found = declared
            .iter()
            .find(|d| d.name.eq_ignore_ascii_case(option))
            .and_then(|d| d.spin.map(|s| (d, s)));
        let Some((decl, (default, min, max))) = found else {
            let spins: Vec<&str> = declared
                .iter()
                .filter(|d| d.spin.is_some())
                .map(|d| d.name.as_str())
                .collect();
            return Err(ParamNamesError::NotASpin {
                name: option.to_string(),
                spins: spins.join(", "),
            });
        };
        let full = format!("{OPTION_PREFIX}{}", decl.name);
        if out.iter().any(|p| p.name == full) {
            return Err(ParamNamesError::Twice(name.to_string()));
        }
        if min >= max {
            return Err(ParamNamesError::EmptyRange {
                name: full,
                min: min as i32,
                max: max as i32,
            });
        }
        let start = file_values
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(option))
            .and_then(|(_, v)| v.parse::<i64>().ok())
            .filter(|v| (min..=max).contains(v))
            .unwrap_or(default.clamp(min, max));
        out.push(SpsaParam {
            name: full,
            start: start as f64,
            min: min as f64,
            max: max as f64,
            c_end: (max - min) as f64 / 20.0,
            r_end: DEFAULT_R_END,
        });
    }
    if out.is_empty() {
        return Err(ParamNamesError::Empty);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::param;
    use super::*;

    #[test]
    fn param_files_parse_and_errors_name_line_and_field() {
        let text = "# tuned\nmaterial.horse, 430, 300, 600, 15, 0.002  # horse\n\neval.tempo,3.5,-20,40,3,0.002\n";
        let p = parse_param_file(text, "p.txt").unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p[1], param("eval.tempo", 3.5, -20.0, 40.0, 3.0, 0.002));
        let err = |body: &str| parse_param_file(body, "p.txt").unwrap_err();
        let e = err("material.horse, 430, 300, 600, 15, 0.002\nmaterial.queen, 1, 0, 2, 1, 0.002");
        assert_eq!((e.line, e.field), (2, "name"));
        assert!(e.to_string().starts_with("p.txt:2: field 'name'"), "{e}");
        assert_eq!(
            err("material.horse, 700, 300, 600, 15, 0.002").field,
            "start"
        );
        assert_eq!(err("material.horse, 430, 600, 300, 15, 0.002").field, "min");
        assert_eq!(
            err("material.horse, 430, 300, 600, 0, 0.002").field,
            "c_end"
        );
        assert_eq!(err("material.horse, 430, 300, 600, 15, -1").field, "r_end");
        assert_eq!(err("material.horse, 430, 300, 900, 15, 0.002").field, "max");
        assert_eq!(
            err("material.horse, 430, 300.5, 600, 15, 0.002").field,
            "min"
        );
        assert_eq!(err("material.horse, x, 300, 600, 15, 0.002").field, "start");
        assert_eq!(err("material.horse, 430, 300, 600, 15").field, "line");
        assert_eq!(err("# nothing\n").field, "line");
        let e = err("eval.tempo,3,-20,40,3,0.002\neval.tempo,3,-20,40,3,0.002");
        assert_eq!((e.line, e.field), (2, "name"));
        // Engine options take any whole-number range, and still the other checks.
        let p = parse_param_file("option:Skill Level, 5, 0, 20000, 2, 0.01", "p.txt").unwrap();
        assert_eq!(p[0].name, "option:Skill Level");
        assert_eq!(p[0].max, 20000.0);
        assert_eq!(err("option:Greed, 50, 0, 100.5, 2, 0.01").field, "max");
        assert_eq!(err("option:Greed, 150, 0, 100, 2, 0.01").field, "start");
        assert_eq!(err("option: , 50, 0, 100, 2, 0.01").field, "name");
    }

    #[test]
    fn params_by_name_take_the_table() {
        let mut base = Params::default();
        base.set("material.horse", 455).unwrap();
        base.set("eval.tempo", -4).unwrap();
        let p = params_from_names("material.horse, eval.tempo", &base).unwrap();
        assert_eq!(
            p[0],
            param("material.horse", 455.0, 300.0, 600.0, 15.0, 0.002)
        );
        assert_eq!(p[1], param("eval.tempo", -4.0, -20.0, 40.0, 3.0, 0.002));
        assert!(params_from_names("material.queen", &Params::default()).is_err());
        assert!(params_from_names("", &Params::default()).is_err());
        assert_eq!(
            params_from_names("option:Greed", &Params::default()),
            Err(ParamNamesError::OptionWithBuiltin("option:Greed".into()))
        );
    }

    #[test]
    fn option_params_by_name_take_the_declared_spin() {
        let declared = [
            DeclaredOption {
                name: "Greed".into(),
                spin: Some((0, 0, 100)),
            },
            DeclaredOption {
                name: "Ponder".into(),
                spin: None,
            },
        ];
        let file = [("greed".to_string(), "10".to_string())];
        let p = option_params_from_names("option:greed", &declared, &file).unwrap();
        assert_eq!(p, [param("option:Greed", 10.0, 0.0, 100.0, 5.0, 0.002)]);
        let p = option_params_from_names("option:Greed", &declared, &[]).unwrap();
        assert_eq!(p[0].start, 0.0);
        let e = option_params_from_names("option:Ponder", &declared, &[]).unwrap_err();
        assert!(
            e.to_string()
                .contains("no spin option 'Ponder' (its spins: Greed)"),
            "{e}"
        );
        assert_eq!(
            option_params_from_names("eval.tempo", &declared, &[]),
            Err(ParamNamesError::TableWithExternal("eval.tempo".into()))
        );
        assert!(option_params_from_names("option:Greed,option:Greed", &declared, &[]).is_err());
    }
}
