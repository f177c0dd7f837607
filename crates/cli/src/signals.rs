//! SIGINT and SIGTERM for the long commands (match, sprt, ladder, calibrate, datagen, tune,
//! merge). The first signal asks the running job to stop ([`chuhan_arena::interrupt`]): no new
//! game starts, games in flight are abandoned at their next move, everything complete is
//! written, the folder lock is released as the command returns, and [`finish`] prints how to
//! continue and exits 130 (SIGINT) or 143 (SIGTERM). A second signal while stopping ends the
//! process at once with the same code, leaving the folder as a kill would (resumable).
//!
//! The handlers are installed only for the long commands: `chuhan uci`, `serve` and the short
//! commands keep the default action, since nothing there would look at the stop request.

use signal_hook::consts::{SIGINT, SIGTERM};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// How an interrupted run continues, set by the command once it knows its folder or file.
enum Continue {
    /// `--resume` continues it: the command line to give.
    Resume(String),
    /// Nothing is kept: the command line that starts it again.
    Again(String),
}

static CONTINUE: Mutex<Option<Continue>> = Mutex::new(None);

/// Installs the handlers (call once, before the command runs).
pub fn install() -> anyhow::Result<()> {
    let seen = Arc::new(AtomicBool::new(false));
    for (signal, code) in [(SIGINT, 130), (SIGTERM, 143)] {
        // Registered first, so it runs before `seen` is set by this signal: it exits only on
        // the second one.
        signal_hook::flag::register_conditional_shutdown(signal, code, Arc::clone(&seen))?;
        signal_hook::flag::register(signal, Arc::clone(&seen))?;
        signal_hook::flag::register_usize(
            signal,
            chuhan_arena::interrupt::handle(),
            signal as usize,
        )?;
    }
    Ok(())
}

/// Records the command line that resumes this run (`chuhan match --resume DIR`, ...).
pub fn resume_with(words: &[&str]) {
    set(Continue::Resume(command_line(words)));
}

/// Records that an interrupted run keeps nothing and is started again with the command line it
/// was started with.
pub fn start_again() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let words: Vec<&str> = std::iter::once("chuhan")
        .chain(args.iter().map(String::as_str))
        .collect();
    set(Continue::Again(command_line(&words)));
}

/// The command line this process was started with, `--out X` (or `--out=X`) replaced by
/// `--resume X`: for commands whose `--resume` needs every other flag again (datagen).
pub fn resume_with_same_flags() {
    let mut words = vec!["chuhan".to_string()];
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--out" {
            words.push("--resume".into());
            if let Some(v) = args.next() {
                words.push(v);
            }
        } else if let Some(v) = a.strip_prefix("--out=") {
            words.push(format!("--resume={v}"));
        } else {
            words.push(a);
        }
    }
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    set(Continue::Resume(command_line(&words)));
}

fn set(c: Continue) {
    *CONTINUE.lock().unwrap_or_else(|p| p.into_inner()) = Some(c);
}

/// Words joined as a shell would read them back (single quotes where needed).
fn command_line(words: &[&str]) -> String {
    words
        .iter()
        .map(|w| {
            let plain = !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./:=,+@%".contains(c));
            if plain {
                w.to_string()
            } else {
                format!("'{}'", w.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// What to do after a write was refused (a read-only folder or file): whether anything of the
/// run is already there, and the command that continues it once it is writable.
pub fn not_writable_advice() -> String {
    match &*CONTINUE.lock().unwrap_or_else(|p| p.into_inner()) {
        Some(Continue::Resume(line)) => format!(
            "a folder or file of the run is not writable by this process; every complete game \
             written before is kept: make it writable, then continue with: {line}"
        ),
        Some(Continue::Again(line)) => format!(
            "a folder or file of the run is not writable by this process: make it writable, \
             then start again with: {line}"
        ),
        None => "the results folder (or file) is not writable by this process, so nothing was \
                 written or changed there: make it writable (or choose another place), then \
                 run the command again"
            .to_string(),
    }
}

fn signal_name(signal: usize) -> String {
    match signal as i32 {
        SIGINT => "SIGINT".into(),
        SIGTERM => "SIGTERM".into(),
        s => format!("signal {s}"),
    }
}

/// After the command returned: when a signal stopped it, prints the error (unless it is the
/// stop itself) and the line saying how to continue, and gives the exit code 128 + signal. A
/// command that completed in spite of a late signal exits as it would have.
pub fn finish(result: &anyhow::Result<u8>) -> Option<ExitCode> {
    let signal = chuhan_arena::interrupt::reason()?;
    let err = result.as_ref().err()?;
    let interrupted = err
        .chain()
        .any(|c| c.is::<chuhan_arena::interrupt::Interrupted>());
    if !interrupted {
        eprintln!("chuhan: error: {}", crate::error_text(err));
    }
    let name = signal_name(signal);
    match &*CONTINUE.lock().unwrap_or_else(|p| p.into_inner()) {
        Some(Continue::Resume(line)) => eprintln!("interrupted by {name}: resume with: {line}"),
        Some(Continue::Again(line)) => {
            eprintln!("interrupted by {name}: nothing was kept; start again with: {line}")
        }
        None => eprintln!("interrupted by {name} before the run started: nothing was written"),
    }
    Some(ExitCode::from(128 + signal.min(127) as u8))
}
