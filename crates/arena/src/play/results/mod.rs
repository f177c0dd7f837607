//! Results on disk: `manifest.toml` (the resolved configuration, seed, version, git state),
//! `games.csv` (one row per game, flushed as each game ends), `summary.csv`; and resuming an
//! interrupted run from them.

mod dates;
mod engine_files;
mod error;
mod folder;
mod git;
mod manifest;
mod names;
mod serde_text;

pub use crate::play::lock::{
    is_lock_file, lock_file, lock_folder, FolderLock, LockError, LOCK_FILE,
};
pub use dates::{civil_date, civil_from_days, today};
pub use engine_files::{
    check_engine_files, engine_build_note, engine_file_of, engine_files, recorded_signature,
};
pub use error::ResultsError;
pub use folder::{csv_fields, write_whole, ResultsDir, GAMES_HEADER, GAMES_PGN};
pub use git::git_state;
pub use manifest::{EngineFile, Manifest, PlayerEntry, RunConfig, RunKind, SprtSettings};
pub use names::{default_out_dir, spec_label};
pub use serde_text::{as_text, model_name, parse_model};
