//! Loading an external engine file for the engine commands (`perft --engine`, `bench
//! --engine`, `engine-check`).

use anyhow::{bail, Context};
use chuhan_arena::play::player::uci::{load_external, ExternalEngine};
use std::path::Path;

/// Reads `path` as an engine file with a `[uci]` table; anything else is a clear error.
pub fn load(path: &Path, flag: &str) -> anyhow::Result<ExternalEngine> {
    if !path.is_file() {
        bail!("{flag} {}: no such engine file", path.display());
    }
    load_external(path)?.with_context(|| {
        format!(
            "{flag} {}: not an external engine file (a .toml file with a [uci] table)",
            path.display()
        )
    })
}
