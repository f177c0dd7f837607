//! Tuners: [`texel`] fits the linear evaluation weights to game results; [`spsa`] is
//! fishtest-compatible SPSA measured by game pairs. Whatever a tuner finds is only a candidate:
//! accept it after an SPRT against the start values. Shared here: picking
//! parameters out of the engine's one table, and result folders that are never overwritten
//! silently.

pub mod nnue;
pub mod spsa;
pub mod texel;

use chuhan_engine::params;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why a parameter selection was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SelectError {
    /// Neither a group nor a parameter name.
    #[error("unknown parameter or group '{0}' (see `chuhan params`)")]
    Unknown(String),
    /// A parameter the tuner cannot handle (e.g. a non-linear one for Texel).
    #[error("parameter '{0}' is not linear in the evaluation; Texel tuning cannot tune it")]
    NotLinear(String),
    /// A group (or name prefix) with nothing the tuner can handle.
    #[error("'{0}' has no linear parameters")]
    EmptyGroup(String),
    /// Nothing selected at all.
    #[error("no parameters selected")]
    Nothing,
}

/// Resolves a list of group names (`material`, `pst`, `eg`, `eval`, `search`), exact parameter names
/// and dotted name prefixes (`pst.chariot` = every `pst.chariot.*`) to table indices, ascending and without duplicates. With `linear_only`, groups keep
/// only their linear parameters and naming a non-linear parameter is an error.
pub fn select_params<S: AsRef<str>>(
    names: &[S],
    linear_only: bool,
) -> Result<Vec<usize>, SelectError> {
    let table = params::table();
    let mut picked = vec![false; table.len()];
    for name in names {
        let name = name.as_ref().trim();
        if name.is_empty() {
            continue;
        }
        if let Some(i) = params::index_of(name) {
            if linear_only && !table[i].linear {
                return Err(SelectError::NotLinear(name.to_string()));
            }
            picked[i] = true;
            continue;
        }
        let prefix = format!("{name}.");
        let members: Vec<usize> = (0..table.len())
            .filter(|&i| table[i].group == name || table[i].name.starts_with(&prefix))
            .collect();
        if members.is_empty() {
            return Err(SelectError::Unknown(name.to_string()));
        }
        let usable: Vec<usize> = members
            .into_iter()
            .filter(|&i| !linear_only || table[i].linear)
            .collect();
        if usable.is_empty() {
            return Err(SelectError::EmptyGroup(name.to_string()));
        }
        for i in usable {
            picked[i] = true;
        }
    }
    let selected: Vec<usize> = (0..table.len()).filter(|&i| picked[i]).collect();
    if selected.is_empty() {
        return Err(SelectError::Nothing);
    }
    Ok(selected)
}

fn is_empty_or_missing(dir: &Path) -> std::io::Result<bool> {
    match std::fs::read_dir(dir) {
        // The folder's lock file (a killed run's, or this run's own) is not content.
        Ok(entries) => {
            for entry in entries {
                if !crate::play::lock::is_lock_file(&entry?.file_name()) {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(true),
        Err(e) => Err(e),
    }
}

/// Why an output folder cannot be used.
#[derive(Debug, Error)]
pub enum OutDirError {
    /// A file where the folder should be.
    #[error("--out {} exists and is not a folder", .0.display())]
    NotAFolder(PathBuf),
    /// The folder cannot be listed.
    #[error("cannot read --out {}", path.display())]
    Unreadable {
        /// The folder.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The folder holds files and `--force` was not given.
    #[error("--out {} is not empty; pass --force to write into it anyway", .0.display())]
    NotEmpty(PathBuf),
}

/// Picks the output folder of a run without creating it. An explicit `out` must be missing or
/// empty unless `force`; the default `results/<date>-<method>` gets a `-2`, `-3`, ... suffix
/// instead of reusing a non-empty folder (see [`crate::play::results::default_out_dir`]).
pub fn choose_out_dir(
    out: Option<&Path>,
    force: bool,
    method: &str,
) -> Result<PathBuf, OutDirError> {
    if let Some(dir) = out {
        if dir.exists() && !dir.is_dir() {
            return Err(OutDirError::NotAFolder(dir.to_path_buf()));
        }
        let empty = is_empty_or_missing(dir).map_err(|source| OutDirError::Unreadable {
            path: dir.to_path_buf(),
            source,
        })?;
        if !empty && !force {
            return Err(OutDirError::NotEmpty(dir.to_path_buf()));
        }
        return Ok(dir.to_path_buf());
    }
    Ok(crate::play::results::default_out_dir(method))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selection_by_group_and_name() {
        let t = params::table();
        let all = select_params(&["material", "pst", "eg", "eval"], true).unwrap();
        assert!(all.iter().all(|&i| t[i].linear));
        assert_eq!(all.len(), t.iter().filter(|d| d.linear).count());
        // Every material and piece-square parameter has its endgame offset.
        let mg = select_params(&["material", "pst"], true).unwrap();
        let eg = select_params(&["eg"], true).unwrap();
        assert_eq!(eg.len(), mg.len());
        assert!(mg
            .iter()
            .all(|&i| eg.contains(&params::index_of(&format!("eg.{}", t[i].name)).unwrap())));
        let one = select_params(&["eval"], true).unwrap();
        let mut eval_linear = vec![params::index_of("eval.tempo").unwrap()];
        eval_linear
            .extend(chuhan_engine::eval::terms::TERM_NAMES.map(|n| params::index_of(n).unwrap()));
        assert_eq!(one, eval_linear);
        let mixed = select_params(&["material.horse", "material", " eval.tempo "], true).unwrap();
        assert_eq!(mixed.len(), 7);
        assert!(mixed.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(
            select_params(&["material", "bishop"], true),
            Err(SelectError::Unknown("bishop".into()))
        );
        assert_eq!(
            select_params(&["eval.hanging"], true),
            Err(SelectError::NotLinear("eval.hanging".into()))
        );
        assert_eq!(
            select_params(&["search"], true),
            Err(SelectError::EmptyGroup("search".into()))
        );
        assert_eq!(select_params(&["search"], false).unwrap().len(), 11);
        let chariot = select_params(&["pst.chariot"], true).unwrap();
        assert_eq!(chariot.len(), 50);
        assert!(chariot
            .iter()
            .all(|&i| t[i].name.starts_with("pst.chariot.")));
        assert_eq!(select_params(&["eval.mobility"], true).unwrap().len(), 3);
        assert_eq!(
            select_params(&["pst.chari"], true),
            Err(SelectError::Unknown("pst.chari".into()))
        );
        assert_eq!(select_params::<&str>(&[], true), Err(SelectError::Nothing));
    }

    #[test]
    fn explicit_out_dir_must_be_empty_unless_forced() {
        let base = std::env::temp_dir().join(format!("chuhan-outdir-{}", std::process::id()));
        let dir = base.join("run");
        assert_eq!(choose_out_dir(Some(&dir), false, "x").unwrap(), dir);
        std::fs::create_dir_all(&dir).unwrap();
        assert!(choose_out_dir(Some(&dir), false, "x").is_ok());
        std::fs::write(dir.join("file"), "x").unwrap();
        let e = choose_out_dir(Some(&dir), false, "x")
            .unwrap_err()
            .to_string();
        assert!(e.contains("--force") && e.contains("run"), "{e}");
        assert!(choose_out_dir(Some(&dir), true, "x").is_ok());
        std::fs::remove_dir_all(&base).unwrap();
    }
}
