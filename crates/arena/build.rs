//! Records the commit this library is built from (`CHUHAN_BUILD_COMMIT`), so that a binary
//! copied elsewhere (an A/B snapshot) still names its own commit in the manifests it writes,
//! not whatever the source tree has checked out when it runs. Reruns only when HEAD or its branch
//! moves: source edits do not rebuild the library for this, and a missing path is never watched
//! (Cargo would rerun the script, and relink, on every build).

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let dir = std::env::var("CARGO_MANIFEST_DIR").ok()?;
    let out = Command::new("git")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .arg("--no-optional-locks")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let commit = git(&["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=CHUHAN_BUILD_COMMIT={commit}");
    for path in watched_paths() {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}

/// The files whose change moves HEAD's commit: HEAD itself, the folder of the branch it names
/// (a commit rewrites the loose ref there, and `git pack-refs` removes it) and `packed-refs`.
/// Only paths that exist are watched: Cargo reruns a build script on every build while a
/// watched path is missing (a fresh `git init` or a worktree has no `packed-refs`), and each
/// rerun relinks the release binary. Outside a git checkout nothing is watched but build.rs.
fn watched_paths() -> Vec<std::path::PathBuf> {
    let git_path = |p: &str| {
        git(&["rev-parse", "--path-format=absolute", "--git-path", p]).map(std::path::PathBuf::from)
    };
    let mut paths = Vec::new();
    paths.extend(git_path("HEAD"));
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        paths.extend(git_path(&branch).and_then(|r| r.parent().map(|d| d.to_path_buf())));
    }
    paths.extend(git_path("packed-refs"));
    paths.retain(|p| p.exists());
    paths
}
