//! The text stat block of a run: a few fixed-width lines to paste into a commit message
//! (Elo and nElo with their 95% intervals and LOS, the SPRT's bounds and LLR, the games and
//! pentanomial, the limit, the bench signature and source of the build). The intervals are the
//! honest ones of `chuhan_stats::interval`: asymmetric, never infinite, and one-sided after a
//! perfect or zero score (`Elo   >= +218.88 (perfect score) (95%)`). Printed at the end of
//! `chuhan match` and `chuhan sprt`, which also keep the text in the run folder
//! ([`STAT_BLOCK_FILE`], written by [`write_stat_blocks`]); `report.html` shows that file, or,
//! while a run goes on and for jobs that print none, the same [`stat_block`] of every pairing
//! of games.csv. This is the only formatter of the stat block.
//!
//! ```text
//! chuhan sprt: greedy vs random, nodes=10000, seed 2
//! Elo   +215.34 [+178.12, +257.90] (95%)   nElo +312.05 [+250.37, +375.22] (95%)   LOS 100.00%
//! SPRT  nElo [0, 5], alpha 0.05, beta 0.05: LLR 2.96 (-2.94, 2.94) H1
//! Games 120: W 80  D 30  L 10  score 0.792  draws 25.0%
//! Ptnml [0, 2, 10, 20, 28] (LL LD DD+WL WD WW)
//! Bench 456130 (chuhan 0.1.0, commit 5615401095, clean)
//! ```

use crate::play::results::{model_name, Manifest, RunConfig};
use crate::report::Tally;
use crate::stats::Sprt;
use std::path::{Path, PathBuf};

/// The file of a run folder that holds the stat blocks the job printed at its end.
pub const STAT_BLOCK_FILE: &str = "statblock.txt";

/// The stat block of one pairing (`label`, e.g. `greedy vs random`) of the run `manifest`
/// describes, from its counted games and pairs (for an SPRT: the pairs up to the stopping
/// pair). The SPRT line appears when the run has SPRT settings. Lines end with `\n`.
pub fn stat_block(manifest: &Manifest<RunConfig>, label: &str, tally: &Tally) -> String {
    let config = &manifest.config;
    let mut out = format!(
        "chuhan {}: {label}, {}, seed {}\n",
        config.command, config.limit, config.seed
    );
    match tally.estimate() {
        Some(e) => out.push_str(&format!(
            "Elo   {} (95%)   nElo {} (95%)   LOS {:.2}%\n",
            e.elo_text(2),
            e.nelo_text(2),
            e.los * 100.0
        )),
        None => out.push_str("Elo   - (no games)\n"),
    }
    if let Some(s) = &config.sprt {
        let unit = match model_name(s.model) {
            "logistic" => "Elo",
            _ => "nElo",
        };
        let head = format!(
            "SPRT  {unit} [{}, {}], alpha {}, beta {}",
            s.elo0, s.elo1, s.alpha, s.beta
        );
        match Sprt::new(s.elo0, s.elo1, s.alpha, s.beta, s.model) {
            Ok(sprt) => {
                let (lo, hi) = (sprt.lower_bound(), sprt.upper_bound());
                match sprt.llr_pentanomial(&tally.pentanomial()) {
                    Some(llr) if tally.pairs() > 0 => out.push_str(&format!(
                        "{head}: LLR {llr:.2} ({lo:.2}, {hi:.2}) {}\n",
                        sprt.verdict(llr).name()
                    )),
                    _ => out.push_str(&format!("{head}: LLR - ({lo:.2}, {hi:.2}) continue\n")),
                }
            }
            Err(e) => out.push_str(&format!("{head}: {e}\n")),
        }
    }
    let games = tally.games();
    let points = tally.wdl[2] as f64 + 0.5 * tally.wdl[1] as f64;
    let draws = tally.wdl[1] as f64 / games.max(1) as f64;
    out.push_str(&format!(
        "Games {games}: W {}  D {}  L {}  score {:.3}  draws {:.1}%\n",
        tally.wdl[2],
        tally.wdl[1],
        tally.wdl[0],
        points / games.max(1) as f64,
        draws * 100.0
    ));
    out.push_str(&format!(
        "Ptnml {} (LL LD DD+WL WD WW)\n",
        tally.penta_text()
    ));
    out.push_str(&bench_line(
        &manifest.bench_signature,
        &manifest.chuhan_version,
        &manifest.git_commit,
        &manifest.git_dirty,
    ));
    out
}

/// The stat block's last line: `Bench 303835 (chuhan 0.1.0, commit 0123456789, clean)\n`
/// (`dirty` is the manifest's "true", "false" or "unknown").
pub fn bench_line(bench: &str, version: &str, commit: &str, dirty: &str) -> String {
    let commit: String = commit.chars().take(10).collect();
    let dirty = match dirty {
        "false" => "clean",
        "true" => "dirty",
        _ => "dirty state unknown",
    };
    format!("Bench {bench} (chuhan {version}, commit {commit}, {dirty})\n")
}

/// The stat blocks of every pairing (`labels[k]` with `tallies[k]`), each followed by an empty
/// line, as `chuhan match` and `chuhan sprt` print them.
pub fn stat_blocks(manifest: &Manifest<RunConfig>, labels: &[String], tallies: &[Tally]) -> String {
    labels
        .iter()
        .zip(tallies)
        .map(|(label, t)| stat_block(manifest, label, t) + "\n")
        .collect()
}

/// Writes the run's [`stat_blocks`] to `dir/`[`STAT_BLOCK_FILE`] (through a temporary file
/// and a rename, as report.html) and returns the text, for the job to print and report.html
/// to show.
pub fn write_stat_blocks(
    dir: &Path,
    manifest: &Manifest<RunConfig>,
    labels: &[String],
    tallies: &[Tally],
) -> std::io::Result<String> {
    let text = stat_blocks(manifest, labels, tallies);
    let tmp = dir.join(format!(".{STAT_BLOCK_FILE}.tmp"));
    std::fs::write(&tmp, &text)?;
    std::fs::rename(&tmp, stat_block_path(dir))?;
    Ok(text)
}

/// `dir/`[`STAT_BLOCK_FILE`].
pub fn stat_block_path(dir: &Path) -> PathBuf {
    dir.join(STAT_BLOCK_FILE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::game::Adjudication;
    use crate::play::limits::LimitSpec;
    use crate::play::openings::OpeningSource;
    use crate::play::results::{RunKind, SprtSettings};
    use crate::stats::SprtModel;

    fn manifest(sprt: Option<SprtSettings>) -> Manifest<RunConfig> {
        Manifest {
            chuhan_version: "0.1.0".into(),
            git_commit: "0123456789abcdef".into(),
            git_dirty: "false".into(),
            bench_signature: "456130".into(),
            created_unix: 0,
            engine_files: Vec::new(),
            config: RunConfig {
                game: Default::default(),
                chess960: false,
                command: if sprt.is_some() {
                    RunKind::Sprt
                } else {
                    RunKind::Match
                },
                seed: 2,
                pairs: 100,
                rules: Default::default(),
                move_limit: 120,
                shard: None,
                players: Vec::new(),
                limit: LimitSpec::Nodes(10_000),
                openings: OpeningSource::Generated { plies: 6 },
                adjudication: Adjudication::default(),
                sprt,
                pairings: Vec::new(),
                pgn_format: chuhan_engine::Notation::Iccs,
                first_move_advantage: Default::default(),
            },
        }
    }

    fn tally(penta: [u64; 5]) -> Tally {
        let mut t = Tally::default();
        // Pair scores 0, 1/2, 1, 3/2, 2 as (first, second) game scores.
        let games = [(0.0, 0.0), (0.5, 0.0), (1.0, 0.0), (1.0, 0.5), (1.0, 1.0)];
        for (k, &n) in penta.iter().enumerate() {
            for _ in 0..n {
                let (a, b) = games[k];
                t.add_game(a);
                t.add_game(b);
                t.add_pair(a, b);
            }
        }
        t
    }

    #[test]
    fn a_match_block_has_elo_games_pentanomial_and_bench() {
        let t = tally([2, 3, 10, 3, 2]);
        let text = stat_block(&manifest(None), "a vs b", &t);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 5, "{text}");
        assert_eq!(lines[0], "chuhan match: a vs b, nodes=10000, seed 2");
        let e = t.estimate().unwrap();
        let (lo, hi) = (e.elo_interval.low.unwrap(), e.elo_interval.high.unwrap());
        assert!(
            lines[1].starts_with(&format!("Elo   {:+.2} [{lo:+.2}, {hi:+.2}] (95%)", e.elo)),
            "{text}"
        );
        let (lo, hi) = (e.nelo_interval.low.unwrap(), e.nelo_interval.high.unwrap());
        assert!(lines[1].contains(&format!("nElo {:+.2} [{lo:+.2}, {hi:+.2}] (95%)", e.nelo)));
        assert_eq!(
            lines[2],
            "Games 40: W 17  D 6  L 17  score 0.500  draws 15.0%"
        );
        assert_eq!(lines[3], "Ptnml [2, 3, 10, 3, 2] (LL LD DD+WL WD WW)");
        assert_eq!(
            lines[4],
            "Bench 456130 (chuhan 0.1.0, commit 0123456789, clean)"
        );
    }

    /// A perfect score (every pair won twice) and a lopsided one: no `inf`, the perfect score
    /// one-sided with the ladder's exact bound.
    #[test]
    fn lopsided_blocks_show_finite_or_one_sided_intervals() {
        let perfect = stat_block(&manifest(None), "a vs b", &tally([0, 0, 0, 0, 2]));
        let bound = chuhan_stats::bound::perfect_score_elo_bound(4, 0.95).unwrap();
        assert!(
            perfect.contains(&format!(
                "Elo   >= {bound:+.2} (perfect score) (95%)   nElo >= "
            )),
            "{perfect}"
        );
        let zero = stat_block(&manifest(None), "a vs b", &tally([2, 0, 0, 0, 0]));
        assert!(
            zero.contains(&format!("Elo   <= {:+.2} (zero score) (95%)", -bound)),
            "{zero}"
        );
        let lopsided = stat_block(&manifest(None), "a vs b", &tally([1, 0, 0, 1, 20]));
        let e = tally([1, 0, 0, 1, 20]).estimate().unwrap();
        assert!(e.elo_ci95.is_infinite(), "{e:?}");
        assert!(lopsided.contains(&format!("Elo   {} (95%)", e.elo_text(2))));
        assert!(e.elo_interval.is_two_sided());
        for text in [perfect, zero, lopsided] {
            assert!(!text.contains("inf"), "{text}");
        }
    }

    #[test]
    fn an_sprt_block_has_the_bounds_llr_and_verdict() {
        let settings = SprtSettings {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Normalized,
        };
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, SprtModel::Normalized).unwrap();
        for penta in [[0, 2, 10, 20, 28], [5, 10, 20, 10, 5], [28, 20, 10, 2, 0]] {
            let t = tally(penta);
            let text = stat_block(&manifest(Some(settings.clone())), "test vs base", &t);
            let llr = sprt.llr_pentanomial(&t.pentanomial()).unwrap();
            let line = text.lines().nth(2).unwrap();
            assert_eq!(
                line,
                format!(
                    "SPRT  nElo [0, 5], alpha 0.05, beta 0.05: LLR {llr:.2} (-2.94, 2.94) {}",
                    sprt.verdict(llr).name()
                )
            );
        }
        let none = stat_block(&manifest(Some(settings)), "x", &Tally::default());
        assert!(none.contains("Elo   - (no games)"), "{none}");
        assert!(none.contains("LLR - (-2.94, 2.94) continue"), "{none}");
    }
}
