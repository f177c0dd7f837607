//! The git state recorded in manifests: the commit a binary was built from and whether its
//! tree had uncommitted changes.

/// The commit this binary was built from and whether its source tree had uncommitted
/// changes. The commit is recorded at build time; the dirty flag is read via `git` at run time
/// and is "unknown" when the tree has since moved to another commit (a copied snapshot binary)
/// or git is not available. Read without optional locks: a plain `git status` refreshes and
/// rewrites `.git/index`, which many shards started at once on one shared checkout would
/// contend for.
pub fn git_state() -> (String, String) {
    let dir = env!("CARGO_MANIFEST_DIR");
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .env("GIT_OPTIONAL_LOCKS", "0")
            .arg("--no-optional-locks")
            .arg("-C")
            .arg(dir)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let head = git(&["rev-parse", "HEAD"]).filter(|c| !c.is_empty());
    provenance(env!("CHUHAN_BUILD_COMMIT"), head.as_deref(), || {
        git(&["status", "--porcelain", "--untracked-files=no"]).map(|s| !s.is_empty())
    })
}

/// The commit and dirty flag to record, from the commit the binary was built from (`built`,
/// "unknown" outside a git tree), the tree's HEAD now (`head`) and a check of the tree for
/// uncommitted changes (`dirty`, asked only when the tree is still at the built commit).
fn provenance(
    built: &str,
    head: Option<&str>,
    dirty: impl FnOnce() -> Option<bool>,
) -> (String, String) {
    match head {
        Some(h) if built == "unknown" || h == built => (
            h.to_string(),
            dirty().map_or("unknown".to_string(), |d| d.to_string()),
        ),
        _ => (built.to_string(), "unknown".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::provenance;

    #[test]
    fn a_binary_names_the_commit_it_was_built_from() {
        // The tree is still where the binary was built: its dirty flag is read.
        let at_build = provenance("abc", Some("abc"), || Some(true));
        assert_eq!(at_build, ("abc".to_string(), "true".to_string()));
        // The tree has moved on (a snapshot binary run later): the built commit, and no
        // claim about the tree it was built from.
        let moved = provenance("abc", Some("def"), || panic!("not asked"));
        assert_eq!(moved, ("abc".to_string(), "unknown".to_string()));
        let no_git_now = provenance("abc", None, || panic!("not asked"));
        assert_eq!(no_git_now, ("abc".to_string(), "unknown".to_string()));
        // Built outside git: what the tree says now, as before.
        let unknown = provenance("unknown", Some("def"), || Some(false));
        assert_eq!(unknown, ("def".to_string(), "false".to_string()));
        assert_eq!(
            provenance("unknown", None, || None),
            ("unknown".to_string(), "unknown".to_string())
        );
    }
}
