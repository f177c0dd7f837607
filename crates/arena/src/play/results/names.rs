//! Default folder names: a label per player spec, one path component, a date and a counter.

use super::dates::today;
use super::folder::ResultsDir;
use std::path::{Path, PathBuf};

/// How a player spec reads in a folder name: an engine file by its stem (`configs/x.toml:nodes=9`
/// -> `x:nodes=9`), anything else as given.
pub fn spec_label(spec: &str) -> String {
    let (base, rest) = match spec.split_once(':') {
        Some((b, r)) => (b, Some(r)),
        None => (spec, None),
    };
    let path = Path::new(base);
    let base = if base.contains(['/', '\\']) || base.ends_with(".toml") {
        path.file_stem()
            .map_or_else(|| base.to_string(), |s| s.to_string_lossy().into_owned())
    } else {
        base.to_string()
    };
    match rest {
        Some(r) => format!("{base}:{r}"),
        None => base,
    }
}

/// Longest `<name>` part of a default folder name, in bytes.
const MAX_FOLDER_NAME: usize = 100;

/// The `<name>` of a default folder as one safe path component: characters other than
/// letters, digits and `._=+,:-` become `_` (so a path in a player spec never nests folders),
/// cut to [`MAX_FOLDER_NAME`] bytes.
fn folder_name(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        let c = if c.is_ascii_alphanumeric() || "._=+,:-".contains(c) {
            c
        } else {
            '_'
        };
        if out.len() + c.len_utf8() > MAX_FOLDER_NAME {
            break;
        }
        out.push(c);
    }
    out
}

/// The default output folder `results/<date>-<name>/`, with `-2`, `-3`... when taken; `name`
/// is made one safe path component ([`folder_name`]).
pub fn default_out_dir(name: &str) -> PathBuf {
    let base = format!("results/{}-{}", today(), folder_name(name));
    let mut dir = PathBuf::from(&base);
    let mut n = 2;
    while ResultsDir::check_new(&dir).is_err() {
        dir = PathBuf::from(format!("{base}-{n}"));
        n += 1;
    }
    dir
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_folder_names_are_one_path_component() {
        assert_eq!(
            spec_label("/work/main/configs/engines/nnue.toml"),
            "nnue".to_string()
        );
        assert_eq!(spec_label("configs/x.toml:nodes=9"), "x:nodes=9");
        assert_eq!(spec_label("hard:skill=7.5"), "hard:skill=7.5");
        assert_eq!(folder_name("match-/a/b c-d"), "match-_a_b_c-d");
        assert_eq!(folder_name(&"x".repeat(300)).len(), MAX_FOLDER_NAME);
        let dir = default_out_dir("match-/work/a.toml-/work/b.toml");
        assert_eq!(dir.components().count(), 2, "{}", dir.display());
        assert!(dir.starts_with("results"));
    }
}
