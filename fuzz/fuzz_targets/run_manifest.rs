//! manifest.toml as `--resume` reads it (`ResultsDir::read_manifest`, from a scratch folder).
//!
//! Properties: an accepted manifest written back as runs write it (TOML) reads back to the
//! same text and an equal configuration (`config_differences` finds none), and the engine
//! files it lists keep their paths, hashes and texts.
#![no_main]

use chuhan_arena::play::results::{Manifest, ResultsDir};
use chuhan_arena::play::setup::config_differences;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let dir = chuhan_fuzz::scratch_dir("run_manifest");
    let path = dir.join("manifest.toml");
    std::fs::write(&path, data).expect("scratch folder");
    let Ok(manifest) = ResultsDir::read_manifest(&dir) else {
        return;
    };
    let written = toml::to_string(&manifest).expect("a manifest read writes");
    std::fs::write(&path, &written).expect("scratch folder");
    let again: Manifest = ResultsDir::read_manifest(&dir)
        .unwrap_or_else(|e| panic!("a written manifest does not read: {e}\n{written}"));
    assert_eq!(toml::to_string(&again).expect("writes"), written);
    assert!(
        config_differences(&manifest.config, &again.config).is_empty(),
        "{written}"
    );
    assert_eq!(again.engine_files, manifest.engine_files);
    assert_eq!(
        (&again.chuhan_version, &again.git_commit, again.created_unix),
        (
            &manifest.chuhan_version,
            &manifest.git_commit,
            manifest.created_unix
        )
    );
});
