//! Why a results directory cannot be used.

use crate::play::any::GameKind;
use crate::play::pgn::PgnWriteError;
use std::path::{Path, PathBuf};

/// Why the results directory cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    /// `--out` names a directory with files in it.
    #[error("{0} exists and is not empty; choose another --out or continue it with --resume")]
    NotEmpty(PathBuf),
    /// An I/O problem.
    #[error("{path}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A malformed manifest.
    #[error("{path}: {reason}")]
    Manifest {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// games.pgn could not be written.
    #[error(transparent)]
    Pgn(#[from] PgnWriteError),
    /// A malformed games.csv row.
    #[error("{path}:{line}: {reason}")]
    Row {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// What is wrong.
        reason: String,
    },
    /// A folder without a manifest: not a run, or one stopped before it started.
    #[error("--resume {}: there is no manifest.toml, so no run to continue (a run stopped before it started played nothing: remove the folder and start it again with --out)", .0.display())]
    NoManifest(PathBuf),
    /// An engine file changed since the run started.
    #[error("--resume {}: the engine file {path} changed since the run started (FNV-1a {was} then, {now} now; its text then is in the manifest); restore it, or start a new run", what.display())]
    EngineFileChanged {
        /// The run's folder (or datagen's file).
        what: PathBuf,
        /// The engine file.
        path: String,
        /// Its hash when the run started.
        was: String,
        /// Its hash now (`missing` when it is gone).
        now: String,
    },
    /// The resumed run plays the other game.
    #[error("--resume {}: the run there plays {found}, and --game {asked} was given; resume it with --game {found}, or without --game", dir.display())]
    OtherGame {
        /// The folder.
        dir: PathBuf,
        /// The game of the run.
        found: GameKind,
        /// The game asked for.
        asked: GameKind,
    },
    /// The resumed run is Chess960 and the command line asked for standard chess, or the
    /// reverse.
    #[error("--resume {}: the run there plays {found}, and the command line asks for {asked}; resume it with {hint}, or with only --resume", dir.display())]
    OtherVariant {
        /// The folder.
        dir: PathBuf,
        /// The run's variant (`chess960`, `standard chess`).
        found: &'static str,
        /// The variant asked for.
        asked: &'static str,
        /// The flags that resume it.
        hint: &'static str,
    },
    /// The resumed run's configuration differs from the command line.
    #[error("--resume {dir}: the command line differs from the run's manifest.toml ({what}); resume with the same options, or give only --resume")]
    ConfigDiffers {
        /// The directory.
        dir: PathBuf,
        /// Which part differs.
        what: String,
    },
}

pub(super) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ResultsError + '_ {
    move |source| ResultsError::Io {
        path: path.to_path_buf(),
        source,
    }
}
