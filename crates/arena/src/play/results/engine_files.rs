//! The engine files (and the networks they name) a run was started with, hashed and kept in
//! the manifest; checks that a resumed run still reads the same ones.

use super::{error::io, error::ResultsError, manifest::EngineFile};
use std::path::{Path, PathBuf};

/// The engine file a player spec names (`FILE` or `FILE:key=value,...`), if it names one.
pub fn engine_file_of(spec: &str) -> Option<PathBuf> {
    let spec = spec.trim();
    let path = Path::new(spec.split_once(':').map_or(spec, |(file, _)| file.trim()));
    path.is_file().then(|| path.to_path_buf())
}

/// The engine files named by `specs`, each once, in first-seen order.
pub fn engine_files<'a>(
    specs: impl IntoIterator<Item = &'a str>,
) -> Result<Vec<EngineFile>, ResultsError> {
    let mut out: Vec<EngineFile> = Vec::new();
    for spec in specs {
        let Some(path) = engine_file_of(spec) else {
            continue;
        };
        let shown = path.display().to_string();
        if out.iter().any(|f| f.path == shown) {
            continue;
        }
        let bytes = std::fs::read(&path).map_err(io(&path))?;
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let network = network_of(&path, &text);
        out.push(EngineFile {
            path: shown,
            fnv1a: crate::play::openings::fnv1a_hex(&bytes),
            text,
        });
        // The network file an engine file names is part of the player too: recorded by its
        // size and hash (it is binary), so a resume notices a replaced network.
        if let Some(net) = network {
            let shown = net.display().to_string();
            if out.iter().any(|f| f.path == shown) {
                continue;
            }
            let bytes = std::fs::read(&net).map_err(io(&net))?;
            let fnv1a = crate::play::openings::fnv1a_hex(&bytes);
            out.push(EngineFile {
                path: shown,
                text: format!("network file: {} bytes, FNV-1a {fnv1a}", bytes.len()),
                fnv1a,
            });
        }
    }
    Ok(out)
}

/// The network file an engine file's `network = "FILE"` names (relative to the engine file),
/// if it has one.
fn network_of(engine_file: &Path, text: &str) -> Option<PathBuf> {
    let table: toml::Table = text.parse().ok()?;
    let net = Path::new(table.get("network")?.as_str()?);
    Some(match engine_file.parent() {
        Some(dir) if net.is_relative() => dir.join(net),
        _ => net.to_path_buf(),
    })
}

/// Checks that the engine files `specs` name now are the ones `stored` recorded when the run in
/// `what` started (nothing to check for a manifest written before engine files were kept).
pub fn check_engine_files<'a>(
    stored: &[EngineFile],
    specs: impl IntoIterator<Item = &'a str>,
    what: &Path,
) -> Result<(), ResultsError> {
    if stored.is_empty() {
        return Ok(());
    }
    let now = engine_files(specs)?;
    for old in stored {
        let current = now.iter().find(|f| f.path == old.path);
        if current.map(|f| &f.text) != Some(&old.text) {
            return Err(ResultsError::EngineFileChanged {
                what: what.to_path_buf(),
                path: old.path.clone(),
                was: old.fnv1a.clone(),
                now: current.map_or_else(|| "missing".to_string(), |f| f.fnv1a.clone()),
            });
        }
    }
    Ok(())
}

/// The warning for a resumed run whose manifest records another engine (bench signature
/// `stored`) than this build's (`current`, the signature of the game the run plays), when the
/// rest of the run depends on this build's engine: one of its players moves with it (a
/// built-in engine player; not `random` or `greedy`), or its openings are generated (a short search of the engine balances them). `None` when the
/// signatures agree, when the manifest has none, and when every player is an external engine
/// that is not this chuhan (`{chuhan}`) and the openings come from a book. Old runs still
/// resume (tests/data/runs): this says so instead of refusing.
pub fn engine_build_note<'a>(
    stored: &str,
    current: u64,
    specs: impl IntoIterator<Item = &'a str>,
    generated_openings: bool,
    what: &Path,
) -> Option<String> {
    let stored = stored.trim();
    if stored.is_empty() || stored == current.to_string() {
        return None;
    }
    let ours: Vec<&str> = specs
        .into_iter()
        .filter(|s| {
            // `random` and `greedy` pick their moves without the engine.
            let name = s.split_once(':').map_or(*s, |(name, _)| name).trim();
            !matches!(name, "random" | "greedy") && !plays_elsewhere(s)
        })
        .collect();
    let what_changes = match (ours.is_empty(), generated_openings) {
        (true, false) => return None,
        (true, true) => "the openings of the rest of the games are generated".to_string(),
        (false, _) => format!("{} play the rest of the games", ours.join(", ")),
    };
    Some(format!(
        "--resume {}: the run started with engine bench {stored} and this chuhan's engine is bench \
         {current}: {what_changes} with this build's engine, not the one of the first games \
         (finish the run with the build that started it to keep one engine)",
        what.display(),
    ))
}

/// The signature a datagen or SPSA manifest of `game` records, as [`engine_build_note`] reads
/// it: unknown (empty) for a chess run's manifest written before those recorded the chess
/// engine's signature (they held the xiangqi engine's).
pub fn recorded_signature(stored: &str, game: crate::play::any::GameKind) -> &str {
    let xiangqi = chuhan_engine::bench::SIGNATURE.to_string();
    if game == crate::play::any::GameKind::Chess && stored.trim() == xiangqi {
        ""
    } else {
        stored
    }
}

/// Whether a player spec names an external engine file whose `[uci] command` is not this
/// chuhan (`{chuhan}`).
fn plays_elsewhere(spec: &str) -> bool {
    let command = |text: String| -> Option<bool> {
        let table: toml::Table = text.parse().ok()?;
        let command = table.get("uci")?.get("command")?.as_str()?;
        Some(!command.contains(crate::play::player::uci::CHUHAN_PLACEHOLDER))
    };
    engine_file_of(spec)
        .and_then(|path| std::fs::read_to_string(path).ok())
        .and_then(command)
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_network_an_engine_file_names_is_recorded_and_checked() {
        let dir = std::env::temp_dir().join(format!("chuhan-netrec-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("nets")).unwrap();
        let engine = dir.join("e.toml");
        std::fs::write(&engine, "name = \"e\"\nnetwork = \"nets/n.nnue\"\n").unwrap();
        std::fs::write(dir.join("nets/n.nnue"), [1u8, 2, 3]).unwrap();
        let spec = engine.display().to_string();
        let stored = engine_files([spec.as_str()]).unwrap();
        assert_eq!(stored.len(), 2, "{stored:?}");
        assert_eq!(
            stored[1].path,
            dir.join("nets/n.nnue").display().to_string()
        );
        assert!(
            stored[1].text.starts_with("network file: 3 bytes"),
            "{}",
            stored[1].text
        );
        check_engine_files(&stored, [spec.as_str()], &dir).unwrap();
        // The same engine file with another network: refused, naming the network.
        std::fs::write(dir.join("nets/n.nnue"), [1u8, 2, 4]).unwrap();
        let e = check_engine_files(&stored, [spec.as_str()], &dir).unwrap_err();
        assert!(e.to_string().contains("n.nnue"), "{e}");
        // A network that is gone is an error naming it, not a silent pass.
        std::fs::remove_file(dir.join("nets/n.nnue")).unwrap();
        let e = check_engine_files(&stored, [spec.as_str()], &dir).unwrap_err();
        assert!(e.to_string().contains("n.nnue"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_resume_by_another_engine_build_is_named_when_it_changes_the_games() {
        let dir = std::env::temp_dir().join(format!("chuhan-buildnote-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let other = dir.join("other.toml");
        std::fs::write(&other, "[uci]\ncommand = \"/usr/games/fairy-stockfish\"\n").unwrap();
        let ours = dir.join("ours.toml");
        std::fs::write(&ours, "[uci]\ncommand = \"{chuhan}\"\nargs = [\"uci\"]\n").unwrap();
        let (other, ours) = (other.display().to_string(), ours.display().to_string());
        let note = |stored: &str, specs: &[&str], generated: bool| {
            engine_build_note(stored, 212_586, specs.iter().copied(), generated, &dir)
        };
        // The same build, or a manifest that records none: nothing to say.
        assert_eq!(note("212586", &["default", other.as_str()], true), None);
        assert_eq!(note("", &["default"], true), None);
        // Another build: the built-in players are named, with both signatures.
        let text = note("185781", &["default", other.as_str()], false).expect("a note");
        assert!(
            text.contains("bench 185781") && text.contains("bench 212586"),
            "{text}"
        );
        assert!(text.contains("default play the rest"), "{text}");
        assert!(!text.contains("other.toml"), "{text}");
        // `chuhan uci` behind an engine file is this build too.
        let text = note("185781", &[other.as_str(), ours.as_str()], false).expect("a note");
        assert!(
            text.contains("ours.toml play") && !text.contains("other.toml"),
            "{text}"
        );
        // External engines, `random` and `greedy` only: the build matters only through
        // generated openings.
        assert_eq!(note("185781", &[other.as_str()], false), None);
        assert_eq!(note("185781", &["random", "greedy"], false), None);
        let text = note("185781", &["random", "greedy:x=1"], true).expect("a note");
        assert!(
            !text.contains("random") && !text.contains("greedy"),
            "{text}"
        );
        let text = note("185781", &[other.as_str()], true).expect("a note");
        assert!(text.contains("openings of the rest of the games"), "{text}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
