//! Records the commit this library is built from (`CHUHAN_BUILD_COMMIT`), so that a binary
//! copied elsewhere (an A/B snapshot) still names its own commit in the manifests it writes,
//! not whatever the source tree has checked out when it runs. Reruns only when HEAD or a ref
//! moves: source edits do not rebuild the library for this.

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
    for path in ["HEAD", "packed-refs", "refs"] {
        if let Some(p) = git(&["rev-parse", "--path-format=absolute", "--git-path", path]) {
            println!("cargo:rerun-if-changed={p}");
        }
    }
}
