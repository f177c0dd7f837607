//! A request from outside the process to stop the run (SIGINT, SIGTERM): the binary's signal
//! handler sets it, every long job checks it and ends cleanly.
//!
//! What "cleanly" means for a job: no new game (epoch, batch, iteration) starts; a game in flight
//! is abandoned at its next move ([`crate::play::game::Ending::Interrupted`]) and not recorded,
//! so `--resume` plays it again exactly as after a kill; everything complete is written whole;
//! the job then returns [`Interrupted`] (as the source of its error enum's `Interrupted`
//! variant, so the binary finds it in the error's chain) and its caller releases the folder
//! lock by dropping it.
//!
//! The request is process-wide by nature (a signal is sent to the process, not to one run), so
//! it is one flag here rather than a field of every job's settings: a job in a library test
//! never sees it set unless that test sets it. The value stored is the reason (the binary stores
//! the signal number); 0 means no request.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// The error a job returns when it stopped because of a request: nothing was lost, the run
/// continues with `--resume`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("interrupted (reason {reason}): the complete games are kept; continue with --resume")]
pub struct Interrupted {
    /// The reason stored in the flag (the binary stores the signal number).
    pub reason: usize,
}

fn flag() -> &'static Arc<AtomicUsize> {
    static FLAG: OnceLock<Arc<AtomicUsize>> = OnceLock::new();
    FLAG.get_or_init(|| Arc::new(AtomicUsize::new(0)))
}

/// The flag itself, for a signal handler that stores a nonzero reason in it (e.g.
/// `signal_hook::flag::register_usize(SIGINT, handle(), SIGINT as usize)`).
pub fn handle() -> Arc<AtomicUsize> {
    Arc::clone(flag())
}

/// Asks every running job to stop, with a nonzero `reason`.
pub fn request(reason: usize) {
    flag().store(reason.max(1), Ordering::SeqCst);
}

/// The reason of the request, if one was made.
pub fn reason() -> Option<usize> {
    match flag().load(Ordering::SeqCst) {
        0 => None,
        r => Some(r),
    }
}

/// Whether a stop was requested.
pub fn requested() -> bool {
    reason().is_some()
}

/// `Err(Interrupted)` once a stop was requested: the check a job makes before starting the
/// next unit of work.
pub fn check() -> Result<(), Interrupted> {
    match reason() {
        None => Ok(()),
        Some(reason) => Err(Interrupted { reason }),
    }
}
