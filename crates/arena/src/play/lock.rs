//! One writer per results folder (or datagen output file): an exclusive advisory lock
//! (`flock(2)`, through rustix) on a lock file that also names its holder
//! (pid, host, start time, command line).
//!
//! The kernel drops the lock when the holding process ends in any way, `kill -9` included, so a
//! lock left by a dead process is no lock at all: the next run takes it without having to judge
//! whether a pid is alive or has been reused, and two runs that both find a stale file cannot
//! both win. The file is removed when a run ends normally; one left behind by a killed run only
//! says who held it last. Linux NFS clients map `flock` to byte-range locks, so a requeued task
//! on another node sees the lock of its old incarnation too.

use rustix::fs::{flock, FlockOperation};
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::Write as _;
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The lock file inside a results folder. Folder emptiness checks ignore it.
pub const LOCK_FILE: &str = ".chuhan.lock";

/// Why a folder or file could not be locked.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another live process holds the lock.
    #[error("{} is in use by another run: {holder}; wait for it to end (or stop it), then continue with --resume", path.display())]
    Held {
        /// The folder (or file) in use.
        path: PathBuf,
        /// Who holds it, as its lock file says.
        holder: String,
    },
    /// The lock file could not be created, locked or written.
    #[error("cannot lock {}", path.display())]
    Io {
        /// The lock file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

/// What a lock file says about its holder.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Holder {
    /// Process id.
    pub pid: u32,
    /// Host name.
    pub host: String,
    /// When the lock was taken (seconds since the Unix epoch).
    pub started_unix: u64,
    /// The holder's command line.
    pub command: String,
}

impl Holder {
    /// This process.
    pub fn this_process() -> Holder {
        Holder {
            pid: std::process::id(),
            host: host_name(),
            started_unix: now_unix(),
            command: std::env::args().collect::<Vec<_>>().join(" "),
        }
    }

    /// Whether this holder was a process on this host that no longer exists.
    pub fn is_dead_here(&self) -> bool {
        // Only where /proc shows processes (Linux); elsewhere no holder is taken for dead.
        Path::new("/proc/self").exists()
            && self.host == host_name()
            && !Path::new(&format!("/proc/{}", self.pid)).exists()
    }

    /// `pid 123 on host h, started 2026-12-01 11:40:02 UTC (chuhan match ...)`.
    pub fn describe(&self) -> String {
        format!(
            "pid {} on host {}, started {} ({})",
            self.pid,
            self.host,
            utc_text(self.started_unix),
            self.command
        )
    }
}

/// A held lock: released (and its file removed) when dropped.
#[derive(Debug)]
pub struct FolderLock {
    lock_path: PathBuf,
    file: File,
    created_dir: Option<PathBuf>,
}

impl FolderLock {
    /// The lock file.
    pub fn lock_path(&self) -> &Path {
        &self.lock_path
    }
}

impl Drop for FolderLock {
    fn drop(&mut self) {
        // Remove the file while still holding the lock, and only if it is still ours: a
        // waiting process that then locks the removed file sees that it is gone and retries.
        if same_file(&self.file, &self.lock_path) {
            let _ = std::fs::remove_file(&self.lock_path);
        }
        let _ = flock(&self.file, FlockOperation::Unlock);
        // A folder this lock created and nothing else wrote to is removed again, so a run that
        // fails before writing anything leaves nothing behind.
        if let Some(dir) = &self.created_dir {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// Locks the results folder `dir` (creating it if missing) for this process, or says who holds
/// it. Hold the returned lock for as long as the run writes there.
pub fn lock_folder(dir: &Path) -> Result<FolderLock, LockError> {
    let created_dir = if dir.is_dir() {
        None
    } else {
        std::fs::create_dir_all(dir).map_err(|source| LockError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        Some(dir.to_path_buf())
    };
    let mut lock = acquire(&dir.join(LOCK_FILE), dir);
    if let (Ok(l), Some(d)) = (&mut lock, created_dir.as_ref()) {
        l.created_dir = Some(d.clone());
    } else if let (Err(_), Some(d)) = (&lock, created_dir.as_ref()) {
        let _ = std::fs::remove_dir(d);
    }
    lock
}

/// Locks a single output file (datagen's) through `FILE.lock` beside it.
pub fn lock_file(file: &Path) -> Result<FolderLock, LockError> {
    let mut name = file.as_os_str().to_owned();
    name.push(".lock");
    if let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|source| LockError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
    }
    acquire(Path::new(&name), file)
}

/// Whether a folder entry is the lock file (which emptiness checks ignore).
pub fn is_lock_file(name: &std::ffi::OsStr) -> bool {
    name == LOCK_FILE
}

fn acquire(lock_path: &Path, what: &Path) -> Result<FolderLock, LockError> {
    let io = |source| LockError::Io {
        path: lock_path.to_path_buf(),
        source,
    };
    let mut dead_waits = 0;
    // A few rounds: each one that fails found a lock file removed by a holder that just ended
    // (or, see below, a dead holder's forked child still holding it).
    for _ in 0..20 + DEAD_HOLDER_WAITS {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(lock_path)
            .map_err(io)?;
        match flock(&file, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => {}
            Err(e) if e == rustix::io::Errno::WOULDBLOCK => {
                let holder = read_holder(lock_path);
                // A holder killed while it was starting a program (git, an engine) leaves a
                // forked child that shares the lock until it execs or exits: wait for it.
                if holder.as_ref().is_some_and(Holder::is_dead_here)
                    && dead_waits < DEAD_HOLDER_WAITS
                {
                    dead_waits += 1;
                    std::thread::sleep(Duration::from_millis(50));
                    continue;
                }
                return Err(LockError::Held {
                    path: what.to_path_buf(),
                    holder: holder.map_or_else(
                        || {
                            format!(
                                "a process whose lock file {} does not say who it is",
                                lock_path.display()
                            )
                        },
                        |h| h.describe(),
                    ),
                });
            }
            Err(e) => return Err(io(e.into())),
        }
        if !same_file(&file, lock_path) {
            continue;
        }
        let text = toml::to_string(&Holder::this_process()).expect("a holder serialises");
        file.set_len(0).map_err(io)?;
        (&file).write_all(text.as_bytes()).map_err(io)?;
        return Ok(FolderLock {
            lock_path: lock_path.to_path_buf(),
            file,
            created_dir: None,
        });
    }
    Err(io(std::io::Error::other(
        "the lock file kept being replaced while taking it",
    )))
}

/// Whether `file` is still the file at `path` (not removed or replaced since it was opened).
fn same_file(file: &File, path: &Path) -> bool {
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Rounds of 50 ms waited for a dead holder's lock to be released (5 s).
const DEAD_HOLDER_WAITS: usize = 100;

/// The holder named in a held lock file. The holder writes it just after locking, so an empty
/// file is read again for a moment before giving up.
fn read_holder(lock_path: &Path) -> Option<Holder> {
    for _ in 0..50 {
        if let Ok(text) = std::fs::read_to_string(lock_path) {
            if let Ok(h) = toml::from_str::<Holder>(&text) {
                return Some(h);
            }
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    None
}

fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .map(|s| s.trim().to_string())
        .ok()
        .filter(|s| !s.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "unknown".to_string())
}

fn now_unix() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// `YYYY-MM-DD HH:MM:SS UTC`.
pub fn utc_text(secs: u64) -> String {
    let (y, m, d) = crate::play::results::civil_from_days((secs / 86_400) as i64);
    let s = secs % 86_400;
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02} UTC",
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("chuhan-lock-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn a_second_lock_is_refused_naming_the_holder_and_freed_on_drop() {
        let dir = scratch("second");
        let first = lock_folder(&dir).unwrap();
        assert!(dir.join(LOCK_FILE).is_file());
        match lock_folder(&dir) {
            Err(LockError::Held { path, holder }) => {
                assert_eq!(path, dir);
                assert!(
                    holder.contains(&format!("pid {}", std::process::id())),
                    "{holder}"
                );
            }
            other => panic!("expected Held, got {other:?}"),
        }
        drop(first);
        // The folder was created by the lock and is empty again: removed.
        assert!(!dir.exists());
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("games.csv"), "x\n").unwrap();
        let again = lock_folder(&dir).unwrap();
        drop(again);
        assert!(dir.join("games.csv").is_file());
        assert!(!dir.join(LOCK_FILE).exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_stale_lock_file_is_taken_over() {
        let dir = scratch("stale");
        std::fs::create_dir_all(&dir).unwrap();
        // What a killed run leaves: the file, no lock.
        let stale = Holder {
            pid: u32::MAX,
            host: host_name(),
            started_unix: 0,
            command: "chuhan match (killed)".into(),
        };
        std::fs::write(dir.join(LOCK_FILE), toml::to_string(&stale).unwrap()).unwrap();
        let lock = lock_folder(&dir).unwrap();
        let now: Holder =
            toml::from_str(&std::fs::read_to_string(dir.join(LOCK_FILE)).unwrap()).unwrap();
        assert_eq!(now.pid, std::process::id());
        drop(lock);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn file_locks_sit_beside_the_file() {
        let dir = scratch("file");
        let out = dir.join("sub").join("data.txt");
        let lock = lock_file(&out).unwrap();
        assert_eq!(lock.lock_path(), dir.join("sub").join("data.txt.lock"));
        assert!(matches!(lock_file(&out), Err(LockError::Held { .. })));
        drop(lock);
        assert!(!dir.join("sub").join("data.txt.lock").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn utc_text_formats_a_known_instant() {
        assert_eq!(utc_text(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc_text(1_764_589_202), "2025-12-01 11:40:02 UTC");
    }
}
