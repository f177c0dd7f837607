//! Why a calibration cannot be set up, played, sharded or merged.

use std::error::Error;
use std::path::PathBuf;

/// A calibration's error; the messages name the flag, file or stage.
#[derive(Debug, thiserror::Error)]
pub enum CalibrateError {
    /// Settings, flags or a stage that cannot be used; the message names the flag or folder.
    #[error("{0}")]
    Invalid(String),
    /// A file or folder could not be read, written or created.
    #[error("{what}")]
    Io {
        /// What was attempted, naming the path (e.g. `cannot write DIR/levels.toml`).
        what: String,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// A settings or stage file that does not parse.
    #[error("{}: {reason}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A results file or folder (the error names it).
    #[error(transparent)]
    Results(#[from] crate::play::results::ResultsError),
    /// Merging a stage's shards (the error names the shard).
    #[error(transparent)]
    Merge(#[from] crate::jobs::merge::MergeError),
    /// What another part of the arena (a ladder run, a player, a plot, the report) reported,
    /// with its own chain of causes.
    #[error(transparent)]
    Other(Box<dyn Error + Send + Sync>),
}

/// Wraps another module's error (whatever its type) with its chain of causes.
pub fn other(e: impl Into<Box<dyn Error + Send + Sync>>) -> CalibrateError {
    CalibrateError::Other(e.into())
}

/// `Err(CalibrateError::Invalid(format!(...)))`, returned.
macro_rules! refuse {
    ($($arg:tt)*) => {
        return Err($crate::jobs::calibrate::error::CalibrateError::Invalid(format!($($arg)*)))
    };
}

/// `CalibrateError::Invalid(format!(...))`.
macro_rules! invalid {
    ($($arg:tt)*) => {
        $crate::jobs::calibrate::error::CalibrateError::Invalid(format!($($arg)*))
    };
}

pub(crate) use {invalid, refuse};

/// Names what an I/O operation was doing, as the error's message.
pub trait IoContext<T> {
    /// The error as [`CalibrateError::Io`] with the message `what()`.
    fn io_context(self, what: impl FnOnce() -> String) -> Result<T, CalibrateError>;
}

impl<T> IoContext<T> for Result<T, std::io::Error> {
    fn io_context(self, what: impl FnOnce() -> String) -> Result<T, CalibrateError> {
        self.map_err(|source| CalibrateError::Io {
            what: what(),
            source,
        })
    }
}
