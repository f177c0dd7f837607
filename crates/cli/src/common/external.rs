//! Loading an external engine file for the engine commands (`perft --engine`, `bench
//! --engine`, `engine-check`).

use crate::common::flags::GameArg;
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

/// [`load`], and the engine must play `game` (its file's `game = ...`, xiangqi when absent):
/// an engine of the other game is an error naming the file and both games.
pub fn load_for(path: &Path, flag: &str, game: GameArg) -> anyhow::Result<ExternalEngine> {
    let engine = load(path, flag)?;
    let want = game.kind();
    if engine.game != want {
        let hint = match game {
            GameArg::Xiangqi => "give --game chess".to_string(),
            GameArg::Chess => {
                format!("drop --game chess, or use a file that says game = \"{want}\"")
            }
        };
        bail!(
            "{flag} {}: the engine plays {} (its file says game = \"{}\"{}), and this command \
             was asked for {want} ({hint})",
            path.display(),
            engine.game,
            engine.game,
            if engine.game.is_xiangqi() {
                " or nothing"
            } else {
                ""
            },
        );
    }
    Ok(engine)
}
