//! An open run folder: games.csv and games.pgn appended as games end, resume checks, the
//! summary.

use super::{error::io, error::ResultsError, manifest::Manifest};
use crate::play::any::GameKind;
use crate::play::lock::is_lock_file;
use crate::play::pgn::{rebuild, PgnContext, PgnFile};
use crate::play::runner::PlayedGame;
use crate::play::schedule::Schedule;
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

/// The PGN file of every run folder that plays games.
pub const GAMES_PGN: &str = "games.pgn";

/// The games.csv header.
pub const GAMES_HEADER: &str =
    "pair,game,opening,red,black,result,termination,plies,nodes,seconds,seed,moves";

/// How a [`PlayedGame`] is written in games.csv: the result as `1-0`, `0-1` or `1/2-1/2`, the
/// wall time rounded to 0.1 ms. (The pairing is not written: a resumed run takes it from the
/// schedule.)
pub mod csv_fields {
    use chuhan_engine::GameResult;
    use serde::{Deserialize, Deserializer, Serializer};

    /// `1-0`, `0-1`, `1/2-1/2`.
    pub mod result {
        use super::*;

        /// Writes the PGN form.
        pub fn serialize<S: Serializer>(result: &GameResult, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_str(result.as_pgn())
        }

        /// Reads the PGN form.
        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<GameResult, D::Error> {
            let text = String::deserialize(d)?;
            match text.as_str() {
                "1-0" => Ok(GameResult::RedWins),
                "0-1" => Ok(GameResult::BlackWins),
                "1/2-1/2" => Ok(GameResult::Draw),
                _ => Err(serde::de::Error::custom(format!(
                    "result '{text}' is not 1-0, 0-1 or 1/2-1/2"
                ))),
            }
        }
    }

    /// Seconds rounded to four decimals.
    pub fn rounded_seconds<S: Serializer>(seconds: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64((seconds * 1e4).round() / 1e4)
    }
}

/// An open results directory that games are appended to.
pub struct ResultsDir {
    dir: PathBuf,
    games: csv::Writer<File>,
    pgn: PgnFile,
}

impl ResultsDir {
    /// The directory.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Checks that `dir` can hold a new run (absent, or empty but for its lock file), without
    /// creating anything.
    pub fn check_new(dir: &Path) -> Result<(), ResultsError> {
        if dir.exists() {
            for entry in std::fs::read_dir(dir).map_err(io(dir))? {
                let entry = entry.map_err(io(dir))?;
                if !is_lock_file(&entry.file_name()) {
                    return Err(ResultsError::NotEmpty(dir.to_path_buf()));
                }
            }
        }
        Ok(())
    }

    /// Creates a new run directory with its manifest and an empty games.csv.
    pub fn create(dir: &Path, manifest: &Manifest) -> Result<ResultsDir, ResultsError> {
        Self::check_new(dir)?;
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        let text = toml::to_string(manifest).map_err(|e| ResultsError::Manifest {
            path: dir.join("manifest.toml"),
            reason: e.to_string(),
        })?;
        // games.csv first, the manifest last and whole: a folder with a manifest is resumable
        // whenever the run was killed.
        let gpath = dir.join("games.csv");
        std::fs::write(&gpath, format!("{GAMES_HEADER}\n")).map_err(io(&gpath))?;
        let ppath = dir.join(GAMES_PGN);
        std::fs::write(&ppath, "").map_err(io(&ppath))?;
        let mpath = dir.join("manifest.toml");
        write_whole(&mpath, &text)?;
        Self::open_append(dir, PgnContext::for_run(manifest))
    }

    /// Opens a run directory for appending as it is, games.pgn included (for a folder whose
    /// games.pgn was just written whole, such as a merge's).
    pub fn open_written(dir: &Path) -> Result<ResultsDir, ResultsError> {
        let ctx = PgnContext::for_run(&Self::read_manifest(dir)?);
        Self::open_append(dir, ctx)
    }

    fn open_append(dir: &Path, pgn: PgnContext) -> Result<ResultsDir, ResultsError> {
        let gpath = dir.join("games.csv");
        let file = OpenOptions::new()
            .append(true)
            .open(&gpath)
            .map_err(io(&gpath))?;
        let games = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(file);
        let pgn = PgnFile::open(&dir.join(GAMES_PGN), pgn)?;
        Ok(ResultsDir {
            dir: dir.to_path_buf(),
            games,
            pgn,
        })
    }

    /// Checks that the run in `dir` (being resumed) plays `asked`, the game of the command line.
    pub fn check_game(dir: &Path, asked: GameKind) -> Result<(), ResultsError> {
        match ResultsDir::read_manifest(dir) {
            Ok(m) if m.config.game != asked => Err(ResultsError::OtherGame {
                dir: dir.to_path_buf(),
                found: m.config.game,
                asked,
            }),
            // A missing or unreadable manifest is reported by the resume itself.
            _ => Ok(()),
        }
    }

    /// Checks that the run in `dir` (being resumed) is a Chess960 run when `asked` is true and
    /// a standard one when false (a xiangqi run is left to [`ResultsDir::check_game`]).
    pub fn check_chess960(dir: &Path, asked: bool) -> Result<(), ResultsError> {
        let name = |chess960: bool| {
            if chess960 {
                "chess960"
            } else {
                "standard chess"
            }
        };
        match ResultsDir::read_manifest(dir) {
            Ok(m) if m.config.game == GameKind::Chess && m.config.chess960 != asked => {
                Err(ResultsError::OtherVariant {
                    dir: dir.to_path_buf(),
                    found: name(m.config.chess960),
                    asked: name(asked),
                    hint: if m.config.chess960 {
                        "--game chess --chess960"
                    } else {
                        "--game chess (without --chess960)"
                    },
                })
            }
            _ => Ok(()),
        }
    }

    /// Reads a run's manifest.
    pub fn read_manifest(dir: &Path) -> Result<Manifest, ResultsError> {
        let mpath = dir.join("manifest.toml");
        let text = std::fs::read_to_string(&mpath).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound && dir.is_dir() {
                ResultsError::NoManifest(dir.to_path_buf())
            } else {
                io(&mpath)(e)
            }
        })?;
        toml::from_str(&text).map_err(|e| ResultsError::Manifest {
            path: mpath,
            reason: e.to_string(),
        })
    }

    /// Reads games.csv of a run being resumed: checks every row against the schedule and the
    /// openings, drops a truncated last line (that game is replayed), and returns the records.
    /// Nothing is modified; call [`ResultsDir::reopen`] to continue writing.
    pub fn read_games(
        dir: &Path,
        schedule: &Schedule,
        openings: &crate::play::openings::OpeningBook,
        names: &[String],
    ) -> Result<Vec<PlayedGame>, ResultsError> {
        let gpath = dir.join("games.csv");
        let bytes = std::fs::read(&gpath).map_err(io(&gpath))?;
        let complete = match bytes.iter().rposition(|&b| b == b'\n') {
            Some(end) => &bytes[..=end],
            None => &bytes[..0],
        };
        let row_err = |line: u64, reason: String| ResultsError::Row {
            path: gpath.clone(),
            line,
            reason,
        };
        let first_line = complete.split(|&b| b == b'\n').next().unwrap_or(&[]);
        if first_line != GAMES_HEADER.as_bytes() {
            return Err(row_err(1, format!("expected the header '{GAMES_HEADER}'")));
        }
        let by_index: std::collections::HashMap<u64, &crate::play::schedule::GameSpec> =
            schedule.games.iter().map(|g| (g.index, g)).collect();
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        let mut reader = csv::ReaderBuilder::new().from_reader(complete);
        for (i, row) in reader.deserialize::<PlayedGame>().enumerate() {
            let line = i as u64 + 2;
            let mut row = row.map_err(|e| row_err(line, e.to_string()))?;
            let spec = by_index.get(&row.game).ok_or_else(|| {
                row_err(
                    line,
                    format!("game {} is not in this run's schedule", row.game),
                )
            })?;
            let expected_opening = openings
                .get(spec.pair as usize)
                .map_err(|e| row_err(line, e.to_string()))?;
            if row.pair != spec.pair
                || row.seed != spec.seed
                || row.red != names[spec.red]
                || row.black != names[spec.black]
                || row.opening != expected_opening
            {
                return Err(row_err(
                    line,
                    format!(
                        "game {} does not match the run's schedule (players, seed or opening differ)",
                        row.game
                    ),
                ));
            }
            if !seen.insert(row.game) {
                return Err(row_err(line, format!("game {} appears twice", row.game)));
            }
            row.pairing = spec.pairing;
            out.push(row);
        }
        Ok(out)
    }

    /// Reopens a run directory for appending, first cutting a truncated last line off games.csv
    /// and rebuilding games.pgn to hold exactly the games of `rows` (games.csv's complete rows,
    /// from [`ResultsDir::read_games`]).
    pub fn reopen(dir: &Path, rows: &[PlayedGame]) -> Result<ResultsDir, ResultsError> {
        let gpath = dir.join("games.csv");
        let bytes = std::fs::read(&gpath).map_err(io(&gpath))?;
        let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |e| e + 1);
        if keep != bytes.len() {
            let f = OpenOptions::new()
                .write(true)
                .open(&gpath)
                .map_err(io(&gpath))?;
            f.set_len(keep as u64).map_err(io(&gpath))?;
        }
        let ctx = PgnContext::for_run(&Self::read_manifest(dir)?);
        rebuild(&dir.join(GAMES_PGN), rows, &ctx)?;
        Self::open_append(dir, ctx)
    }

    /// Appends one game and flushes it to the file.
    pub fn append(&mut self, record: &PlayedGame) -> Result<(), ResultsError> {
        let gpath = self.dir.join("games.csv");
        self.games.serialize(record).map_err(|e| ResultsError::Io {
            path: gpath.clone(),
            source: std::io::Error::other(e),
        })?;
        self.games.flush().map_err(io(&gpath))?;
        // After games.csv, the source of truth: a crash in between leaves a row whose record
        // the next --resume writes.
        self.pgn.append(record)?;
        Ok(())
    }

    /// Writes summary.csv (replacing an earlier one) from a header and rows.
    pub fn write_summary(&self, header: &[&str], rows: &[Vec<String>]) -> Result<(), ResultsError> {
        let spath = self.dir.join("summary.csv");
        let mut w = csv::Writer::from_path(&spath).map_err(|e| ResultsError::Io {
            path: spath.clone(),
            source: std::io::Error::other(e),
        })?;
        let wrap = |e: csv::Error| ResultsError::Io {
            path: spath.clone(),
            source: std::io::Error::other(e),
        };
        w.write_record(header).map_err(wrap)?;
        for r in rows {
            w.write_record(r).map_err(wrap)?;
        }
        w.flush().map_err(io(&spath))?;
        Ok(())
    }
}

/// Writes `text` to `path` whole or not at all (a temporary file renamed over it), so a run
/// killed while writing never leaves half a manifest.
pub fn write_whole(path: &Path, text: &str) -> Result<(), ResultsError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text).map_err(io(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io(path))
}
