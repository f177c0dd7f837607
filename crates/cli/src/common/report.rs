//! The printing (and the summary files) of a finished run, shared by the command that played
//! it and by `chuhan merge`, which prints a merged folder through the same functions so that it
//! cannot drift from a single-machine one: match and sprt tables, the SPRT verdict, a ladder's
//! ratings, a calibration's stages.

use anyhow::{bail, Context};
use chuhan_arena::jobs::calibrate::{CalibrateSettings, CalibrationEvent};
use chuhan_arena::jobs::ladder::{signed, Analysis, GAP_HEADER, RATING_HEADER};
use chuhan_arena::play::results::{ResultsDir, RunConfig, RunKind, SprtSettings};
use chuhan_arena::play::setup::{termination_rows, Finished, PreparedRun};
use chuhan_arena::report::{statblock, summary_rows, table, tally, Tally};
use chuhan_arena::stats::{Sprt, SprtDecision, SprtModel};

/// The stat block of each pairing (to paste into a commit message), from the run's manifest,
/// kept in the run folder for report.html (written before it); returns the text to print.
pub fn write_stat_blocks(
    finished: &Finished,
    labels: &[String],
    tallies: &[Tally],
) -> anyhow::Result<String> {
    let dir = finished.dir.path();
    let manifest = ResultsDir::read_manifest(dir)?;
    statblock::write_stat_blocks(dir, &manifest, labels, tallies)
        .with_context(|| format!("cannot write {}", statblock::stat_block_path(dir).display()))
}

/// The folder being resumed must hold a run of this command.
pub fn expect_kind(config: &RunConfig, kind: RunKind) -> anyhow::Result<()> {
    if config.command != kind {
        bail!(
            "that folder holds a '{}' run; resume it with chuhan {}",
            config.command,
            config.command
        );
    }
    Ok(())
}

/// Writes summary.csv and prints it, then the termination table (match and sprt).
pub fn write_and_print_summary(
    finished: &Finished,
    header: &[&str],
    rows: &[Vec<String>],
) -> anyhow::Result<()> {
    finished.dir.write_summary(header, rows)?;
    chuhan_arena::report::html::write_report(finished.dir.path())?;
    out!("{}", table(header, rows));
    outln!();
    out!(
        "{}",
        table(
            &["termination", "games"],
            &termination_rows(&finished.records)
        )
    );
    outln!();
    Ok(())
}

/// The last line of a match or sprt: games, time, speed, workers, folder.
pub fn print_played(prepared: &PreparedRun, finished: &Finished) {
    outln!(
        "played {} games in {:.1} s ({:.2} games/s) on {} workers; results in {}",
        finished.played,
        finished.seconds,
        finished.played as f64 / finished.seconds.max(1e-9),
        prepared.plan.concurrency,
        finished.dir.path().display()
    );
}

/// The SPRT of a configuration.
pub fn sprt_of(settings: &SprtSettings) -> anyhow::Result<Sprt> {
    chuhan_arena::jobs::sprt::sprt_of(settings).map_err(anyhow::Error::msg)
}

/// Writes summary.csv and prints the table, the terminations and the verdict of a finished
/// (or merged) SPRT run; a shard's own verdict is only the LLR of its pairs.
pub fn sprt_report(
    config: &RunConfig,
    labels: &[String],
    finished: &Finished,
) -> anyhow::Result<()> {
    let settings = config
        .sprt
        .clone()
        .context("the manifest has no [config.sprt]")?;
    let sprt = sprt_of(&settings)?;
    let counted = tally(&finished.records, 1, finished.stopped_at);
    let t = counted[0];
    let llr = sprt.llr_pentanomial(&t.pentanomial());
    let verdict = llr.map_or(SprtDecision::Continue, |l| sprt.verdict(l));
    let (mut header, mut rows) = summary_rows(labels, &counted);
    header.extend(["llr", "lower", "upper", "verdict"]);
    rows[0].extend([
        llr.map_or(String::new(), |l| format!("{l:.4}")),
        format!("{:.4}", sprt.lower_bound()),
        format!("{:.4}", sprt.upper_bound()),
        verdict.name().to_string(),
    ]);
    let blocks = write_stat_blocks(finished, labels, &counted)?;
    write_and_print_summary(finished, &header, &rows)?;
    out!("{blocks}");
    let names = &config.players;
    let (test, base) = (&names[0].name, &names[1].name);
    let unit = if settings.model == SprtModel::Logistic {
        "Elo"
    } else {
        "nElo"
    };
    let (e0, e1) = (settings.elo0, settings.elo1);
    if let Some(shard) = config.shard {
        outln!(
            "verdict: none for shard {shard} alone ({} pairs, every {}th of the run): chuhan merge --check over all shard folders decides",
            t.pairs(),
            shard.count
        );
        return Ok(());
    }
    match verdict {
        SprtDecision::AcceptH1 => outln!(
            "verdict: H1 after {} pairs: {test} - {base} = {e1} {unit} is accepted over {e0} {unit}",
            t.pairs()
        ),
        SprtDecision::AcceptH0 => outln!(
            "verdict: H0 after {} pairs: {test} - {base} = {e0} {unit} is accepted over {e1} {unit}",
            t.pairs()
        ),
        SprtDecision::Continue => outln!(
            "verdict: continue: no decision after {} pairs (the limit is {})",
            t.pairs(),
            config.pairs
        ),
    }
    let extra = finished.records.len() as u64 - t.games();
    if extra > 0 {
        outln!("({extra} games played after the stop are recorded in games.csv but not counted)");
    }
    Ok(())
}

/// The rating table, the neighbour gaps and the notes of a fitted ladder.
pub fn print_ratings(analysis: &Analysis) {
    outln!("{}", table(&RATING_HEADER, &analysis.rating_rows()));
    outln!("{}", table(&GAP_HEADER, &analysis.gap_rows()));
    if let Some(line) = analysis.first_move_line() {
        outln!("{line}");
    }
    for note in &analysis.notes {
        outln!("note: {note}");
    }
}

/// The table of levels placed at knob `values` (player `specs`), in target order.
fn levels_table(settings: &CalibrateSettings, values: &[f64], specs: &[String]) -> String {
    let knob = &settings.knob;
    table(
        &["level", "target", &knob.key(), "spec"],
        &settings
            .names
            .iter()
            .zip(&settings.targets)
            .zip(values)
            .zip(specs)
            .map(|(((n, t), v), s)| vec![n.clone(), signed(*t), knob.format(*v), s.clone()])
            .collect::<Vec<_>>(),
    )
}

/// Prints one stage's tables as the calibration (or a merge of its shards) completes it.
pub fn print_event(settings: &CalibrateSettings, event: CalibrationEvent) {
    let knob = &settings.knob;
    match event {
        CalibrationEvent::Grid(fit) => {
            outln!("grid ({} {}):", knob.key(), settings.base);
            outln!("{}", table(&RATING_HEADER, &fit.rating_rows()));
            if let Some(line) = fit.first_move_line() {
                outln!("{line}");
            }
            for note in &fit.notes {
                outln!("note: {note}");
            }
        }
        CalibrationEvent::Placed { values, specs } => {
            outln!("{}", levels_table(settings, values, specs))
        }
        CalibrationEvent::Stopped(stop) => outln!("{} stage: {}", stop.stage, stop.text),
        CalibrationEvent::Validated {
            analysis,
            gaps,
            refinement,
        } => {
            let rows: Vec<Vec<String>> = gaps
                .iter()
                .map(|c| {
                    let g = &c.gap;
                    vec![
                        format!("{} -> {}", g.from, g.to),
                        signed(c.target),
                        g.elo_text(),
                        g.interval.to_string(),
                        g.half_width_text(),
                        format!(
                            "[{}, {}]",
                            signed(c.target - c.tolerance),
                            signed(c.target + c.tolerance)
                        ),
                        if c.pass { "pass" } else { "FAIL" }.to_string(),
                    ]
                })
                .collect();
            match settings.precision {
                Some(p) => outln!("validation (adjacent levels, played to ±{p:.0} Elo):"),
                None => outln!(
                    "validation (adjacent levels, {} pairs each):",
                    settings.validate_pairs
                ),
            }
            outln!(
                "{}",
                table(
                    &[
                        "levels",
                        "target",
                        "measured",
                        "95% interval",
                        "half-width",
                        "must lie within",
                        "check"
                    ],
                    &rows
                )
            );
            outln!(
                "a gap passes when its 95% interval lies within target ± {:.0} Elo (--tolerance)",
                settings.tolerance
            );
            if let Some(line) = analysis.first_move_line() {
                outln!("{line}");
            }
            for note in &analysis.notes {
                outln!("note: {note}");
            }
            if let Some(r) = refinement {
                outln!(
                    "re-placed from the measured slopes (the first level kept, each next one at \
                     its target gap above the re-placed level below, at the Elo per {} the \
                     validation measured between them):",
                    if knob.is_log_scale() {
                        format!("doubling of {}", knob.key())
                    } else {
                        format!("unit of {}", knob.key())
                    }
                );
                outln!("{}", levels_table(settings, &r.values, &r.specs));
                outln!(
                    "validate them with: chuhan ladder --config {}",
                    r.file.display()
                );
            }
        }
    }
}
