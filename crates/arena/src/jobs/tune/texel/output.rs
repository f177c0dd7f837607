//! What a Texel run writes: the tuned engine config, the losses per epoch, the summary.

use super::{EpochLosses, TexelOutcome, TexelProblem};
use crate::play::config::ConfigError;
use crate::report::html::HtmlError;
use crate::report::plots::{texel_svg, LossPoint, PlotError};
use chuhan_engine::chess::{ChessConfig, EvalParams};
use chuhan_engine::{params, EngineConfig, SearchOptions};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Why the outputs of a Texel run could not be written.
#[derive(Debug, thiserror::Error)]
pub enum TexelOutputError {
    /// The output folder cannot be created.
    #[error("cannot create {}", path.display())]
    Create {
        /// The folder.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// A file cannot be written.
    #[error("cannot write {}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// texel.csv cannot be written.
    #[error("cannot write {}", path.display())]
    Csv {
        /// The file.
        path: PathBuf,
        /// The CSV writer's reason.
        #[source]
        source: csv::Error,
    },
    /// The written tuned.toml does not load.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The written tuned.toml loads other parameters (a bug, not bad input).
    #[error("internal error: tuned.toml does not reproduce the tuned parameters")]
    NotReproduced,
    /// texel.svg.
    #[error(transparent)]
    Plot(#[from] PlotError),
    /// report.html.
    #[error(transparent)]
    Report(#[from] HtmlError),
}

/// The tuned engine config: `name = "texel"`, `evaluation = "handcrafted"` (what the values
/// are fitted for), the base config's search switches, TT size and
/// level, and under `[params]` every parameter that differs from the engine default (the
/// base's own overrides and every tuned value; tuned lines note their base value).
pub fn tuned_config_toml(
    base: &EngineConfig,
    problem: &TexelProblem,
    outcome: &TexelOutcome,
    header: &[String],
) -> String {
    let params = outcome.params(problem);
    let mut s = String::from("# Texel-tuned engine config written by `chuhan tune texel`.\n");
    for h in header {
        let _ = writeln!(s, "# {h}");
    }
    // Texel fits the handcrafted evaluation: the tuned values act on it, not on a network.
    s.push_str("name = \"texel\"\nevaluation = \"handcrafted\"\n");
    let o = &base.options;
    let d = SearchOptions::default();
    if o.tt_mb != d.tt_mb {
        let _ = writeln!(s, "tt_mb = {}", o.tt_mb);
    }
    if (o.null_move, o.lmr, o.check_extension, o.futility)
        != (d.null_move, d.lmr, d.check_extension, d.futility)
    {
        let _ = write!(
            s,
            "\n[search]\nnull_move = {}\nlmr = {}\ncheck_extension = {}\nfutility = {}\n",
            o.null_move, o.lmr, o.check_extension, o.futility
        );
    }
    if let Some(l) = &base.level {
        s.push_str("\n[level]\n");
        let opt = |s: &mut String, key: &str, v: Option<u64>| {
            if let Some(v) = v {
                let _ = writeln!(s, "{key} = {v}");
            }
        };
        opt(&mut s, "depth", l.depth.map(u64::from));
        opt(&mut s, "nodes", l.nodes);
        opt(&mut s, "time_ms", l.time.map(|t| t.as_millis() as u64));
        let _ = writeln!(s, "margin = {}", l.margin);
        let _ = writeln!(s, "random_rate = {:?}", l.random_rate);
        let _ = writeln!(s, "opening_plies = {}", l.opening_plies);
        opt(&mut s, "opening_depth", l.opening_depth.map(u64::from));
        let _ = writeln!(s, "opening_margin = {}", l.opening_margin);
    }
    s.push_str("\n[params]\n");
    let table = params::table();
    for (i, d) in table.iter().enumerate() {
        let v = params.get(i);
        if v == d.default {
            continue;
        }
        let base = problem.base.get(i);
        if problem.tuned.contains(&i) && v != base {
            let _ = writeln!(s, "{} = {v}  # base {base}", d.name);
        } else {
            let _ = writeln!(s, "{} = {v}", d.name);
        }
    }
    s
}

/// `texel.csv`: `epoch,train_loss,validation_loss`, one row per epoch (validation empty when
/// nothing is held out).
pub fn write_csv(path: &Path, history: &[EpochLosses]) -> Result<(), TexelOutputError> {
    let bad = |source| TexelOutputError::Csv {
        path: path.to_path_buf(),
        source,
    };
    let mut w = csv::Writer::from_path(path).map_err(bad)?;
    w.write_record(["epoch", "train_loss", "validation_loss"])
        .map_err(bad)?;
    for e in history {
        w.write_record([
            e.epoch.to_string(),
            e.train.to_string(),
            e.validation.map_or_else(String::new, |v| v.to_string()),
        ])
        .map_err(bad)?;
    }
    w.flush().map_err(|source| TexelOutputError::Write {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(())
}

/// What early stopping did, for summary.txt (`None` without `--patience`).
fn early_stopping_line(outcome: &TexelOutcome) -> Option<String> {
    let kept = outcome.kept_epoch?;
    let last = outcome.history.last().map_or(0, |e| e.epoch);
    Some(if outcome.stopped_early {
        format!("early stopping: kept the weights of epoch {kept}, the lowest validation loss")
    } else if kept == last {
        format!(
            "early stopping: not triggered; the validation loss still fell at the last epoch \
             ({kept}), whose weights are kept: more --epochs may help"
        )
    } else {
        format!(
            "early stopping: not triggered within --epochs; kept the weights of epoch {kept}, \
             the lowest validation loss"
        )
    })
}

fn loss_text(l: &EpochLosses) -> String {
    match l.validation {
        Some(v) => format!("train {:.6}  validation {v:.6}", l.train),
        None => format!("train {:.6}  validation -", l.train),
    }
}

/// `summary.txt`: the run's description lines, K, the initial and final losses and the
/// `largest` biggest parameter changes.
pub fn summary_text(
    header: &[String],
    problem: &TexelProblem,
    outcome: &TexelOutcome,
    largest: usize,
) -> String {
    let mut s = String::new();
    for h in header {
        let _ = writeln!(s, "{h}");
    }
    let _ = writeln!(
        s,
        "K: {:.6} ({})",
        outcome.k,
        if outcome.k_fitted { "fitted" } else { "given" }
    );
    let _ = writeln!(s, "initial loss: {}", loss_text(&outcome.initial));
    let last = outcome.history.last().unwrap_or(&outcome.initial);
    let _ = writeln!(s, "final loss: {} (epoch {})", loss_text(last), last.epoch);
    let best = std::iter::once(&outcome.initial)
        .chain(&outcome.history)
        .filter_map(|e| e.validation.map(|v| (e.epoch, v)))
        .fold(None, |b: Option<(usize, f64)>, (e, v)| match b {
            Some((_, bv)) if bv <= v => b,
            _ => Some((e, v)),
        });
    if let (Some((epoch, v)), Some(final_v)) = (best, last.validation) {
        let _ = writeln!(s, "lowest validation loss: {v:.6} (epoch {epoch})");
        if let Some(line) = early_stopping_line(outcome) {
            let _ = writeln!(s, "{line}");
        } else if final_v > v * 1.001 {
            // Ignore wobbles: warn when it rose by more than 0.1%.
            let _ = writeln!(
                s,
                "warning: the validation loss rose after epoch {epoch}: the tune fits noise; \
                 use more positions, fewer epochs, fewer parameters or --patience"
            );
        }
    }
    let changes = outcome.changes(problem);
    let moved = changes.iter().filter(|c| c.tuned != c.base).count();
    let _ = writeln!(
        s,
        "changed parameters: {moved} of {} tuned",
        problem.tuned.len()
    );
    let _ = writeln!(s, "largest changes (base -> tuned, unrounded):");
    let width = changes.iter().map(|c| c.name.len()).max().unwrap_or(0);
    for c in changes.iter().take(largest).filter(|c| c.tuned != c.base) {
        let _ = writeln!(
            s,
            "  {:<width$}  {:>5} -> {:>5}  ({:+}, {:.2})",
            c.name,
            c.base,
            c.tuned,
            c.tuned - c.base,
            c.exact
        );
    }
    s
}

/// Writes `tuned.toml`, `texel.csv`, `texel.svg` and `summary.txt` into `dir` (created if
/// missing; existing files of those names are replaced — check the folder first, see
/// [`crate::jobs::tune::choose_out_dir`]). The written config is read back and checked.
pub fn write_outputs(
    dir: &Path,
    base: &EngineConfig,
    problem: &TexelProblem,
    outcome: &TexelOutcome,
    header: &[String],
) -> Result<(), TexelOutputError> {
    let write = |path: &Path| {
        let path = path.to_path_buf();
        move |source| TexelOutputError::Write { path, source }
    };
    std::fs::create_dir_all(dir).map_err(|source| TexelOutputError::Create {
        path: dir.to_path_buf(),
        source,
    })?;
    let toml = tuned_config_toml(base, problem, outcome, header);
    let toml_path = dir.join("tuned.toml");
    let reread = crate::play::config::parse_engine_config(
        &toml,
        &toml_path.display().to_string(),
        "texel",
        &[],
    )?;
    if reread.params != outcome.params(problem) {
        return Err(TexelOutputError::NotReproduced);
    }
    std::fs::write(&toml_path, toml).map_err(write(&toml_path))?;
    write_csv(&dir.join("texel.csv"), &outcome.history)?;
    texel_plot(dir, outcome)?;
    crate::report::html::write_report(dir)?;
    let summary_path = dir.join("summary.txt");
    std::fs::write(&summary_path, summary_text(header, problem, outcome, 20))
        .map_err(write(&summary_path))?;
    Ok(())
}

/// The chess evaluation parameters after a chess run: the base's with the tuned weights
/// rounded in (tuned index `i` is [`EvalParams::NAMES`]`[i]`).
pub fn chess_params(
    base: &EvalParams,
    problem: &TexelProblem,
    outcome: &TexelOutcome,
) -> EvalParams {
    let mut p = base.clone();
    for (&i, &w) in problem.tuned.iter().zip(&outcome.weights) {
        p.set(EvalParams::NAMES[i], w.round() as i32);
    }
    p
}

/// Writes a chess run's `tuned.toml` (a chess engine file: `game = "chess"`, the base's
/// `tt_mb`, every evaluation parameter under `[params]`), `texel.csv`, `texel.svg` and
/// `summary.txt` into `dir`. The written file is read back as a chess engine file and checked.
pub fn write_chess_outputs(
    dir: &Path,
    base: &ChessConfig,
    problem: &TexelProblem,
    outcome: &TexelOutcome,
    header: &[String],
) -> Result<(), TexelOutputError> {
    let write = |path: &Path| {
        let path = path.to_path_buf();
        move |source| TexelOutputError::Write { path, source }
    };
    std::fs::create_dir_all(dir).map_err(|source| TexelOutputError::Create {
        path: dir.to_path_buf(),
        source,
    })?;
    let tuned = chess_params(&base.params, problem, outcome);
    let mut toml = String::new();
    for line in header {
        let _ = writeln!(toml, "# {line}");
    }
    let _ = writeln!(
        toml,
        "game = \"chess\"\nname = \"texel\"\ntt_mb = {}",
        base.tt_mb
    );
    let _ = writeln!(toml, "\n[params]");
    for name in EvalParams::NAMES {
        let _ = writeln!(toml, "{name} = {}", tuned.get(name).expect("a table name"));
    }
    let toml_path = dir.join("tuned.toml");
    std::fs::write(&toml_path, &toml).map_err(write(&toml_path))?;
    let reread = crate::play::player::builtin::resolve_chess_engine(&toml_path.to_string_lossy())
        .map_err(|_| TexelOutputError::NotReproduced)?;
    if reread.params != tuned {
        return Err(TexelOutputError::NotReproduced);
    }
    write_csv(&dir.join("texel.csv"), &outcome.history)?;
    texel_plot(dir, outcome)?;
    crate::report::html::write_report(dir)?;
    let mut summary = String::new();
    for line in header {
        let _ = writeln!(summary, "{line}");
    }
    let last = outcome.history.last().unwrap_or(&outcome.initial);
    let _ = writeln!(
        summary,
        "K {:.6} ({})\nloss: train {:.6} -> {:.6}",
        outcome.k,
        if outcome.k_fitted { "fitted" } else { "given" },
        outcome.initial.train,
        last.train
    );
    if let (Some(a), Some(b)) = (outcome.initial.validation, last.validation) {
        let _ = writeln!(summary, "loss: validation {a:.6} -> {b:.6}");
    }
    if let Some(line) = early_stopping_line(outcome) {
        // The weights below are the kept epoch's: say which losses they have.
        let kept = outcome
            .history
            .iter()
            .find(|e| Some(e.epoch) == outcome.kept_epoch);
        let losses = kept.map_or_else(String::new, |e| format!(" ({})", loss_text(e)));
        let _ = writeln!(summary, "{line}{losses}");
    }
    let _ = writeln!(summary, "changes:");
    for (&i, (&w, &s0)) in problem
        .tuned
        .iter()
        .zip(outcome.weights.iter().zip(&outcome.start))
    {
        let (b, t) = (s0.round() as i32, w.round() as i32);
        let _ = writeln!(
            summary,
            "  {:<20}  {b:>5} -> {t:>5}  ({:+}, {w:.2})",
            EvalParams::NAMES[i],
            t - b
        );
    }
    let summary_path = dir.join("summary.txt");
    std::fs::write(&summary_path, summary).map_err(write(&summary_path))?;
    Ok(())
}

/// texel.svg from the losses of `outcome`.
fn texel_plot(dir: &Path, outcome: &TexelOutcome) -> Result<(), PlotError> {
    let point = |l: &EpochLosses| LossPoint {
        epoch: l.epoch,
        train: l.train,
        validation: l.validation,
    };
    let history: Vec<LossPoint> = outcome.history.iter().map(point).collect();
    texel_svg(&dir.join("texel.svg"), &point(&outcome.initial), &history)
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::*;
    use super::super::*;
    use super::*;
    use crate::jobs::tune::select_params;
    use chuhan_engine::{Level, Params};

    #[test]
    fn tuned_config_round_trips_with_the_base_settings() {
        let positions = random_games(4, 40, 12, |_| 1.0);
        let s = split(&positions, 0.0, 1);
        let mut base = EngineConfig::default();
        base.options.lmr = false;
        base.options.tt_mb = 4;
        base.level = Some(Level::medium());
        base.params.set("search.contempt", 40).unwrap();
        base.params.set("material.horse", 440).unwrap();
        base.params.set("material.cannon", 460).unwrap();
        let tuned = select_params(&["material.horse", "material.cannon"], true).unwrap();
        let problem = TexelProblem::new(&positions, &s, tuned, base.params.clone());
        let horse = Params::default().value("material.horse").unwrap();
        let outcome = TexelOutcome {
            k: 1.0,
            k_fitted: false,
            initial: EpochLosses {
                epoch: 0,
                train: 0.2,
                validation: None,
            },
            history: vec![EpochLosses {
                epoch: 1,
                train: 0.1,
                validation: None,
            }],
            start: vec![440.0, 460.0],
            // Horse back to its default, cannon moved.
            weights: vec![f64::from(horse) + 0.2, 471.6],
            kept_epoch: None,
            stopped_early: false,
        };
        let text = tuned_config_toml(&base, &problem, &outcome, &["a note".into()]);
        assert!(text.contains("# a note\nname = \"texel\""), "{text}");
        assert!(text.contains("material.cannon = 472  # base 460"), "{text}");
        assert!(text.contains("search.contempt = 40\n"), "{text}");
        assert!(!text.contains("material.horse"), "{text}");
        let c = crate::play::config::parse_engine_config(&text, "t.toml", "x", &[]).unwrap();
        assert_eq!(c.name, "texel");
        assert_eq!(c.params, outcome.params(&problem));
        assert_eq!(c.params.value("material.horse"), Ok(horse));
        assert_eq!(c.options, base.options);
        let mut level = c.level.unwrap();
        level.name = "medium".into();
        assert_eq!(level, Level::medium());
    }

    #[test]
    fn summary_names_k_losses_best_epoch_and_largest_changes() {
        let positions = random_games(2, 20, 13, |_| 1.0);
        let tuned = select_params(&["material"], true).unwrap();
        let problem = TexelProblem::new(
            &positions,
            &split(&positions, 0.0, 1),
            tuned,
            Params::default(),
        );
        let losses = |epoch, train, validation| EpochLosses {
            epoch,
            train,
            validation: Some(validation),
        };
        let outcome = TexelOutcome {
            k: 0.75,
            k_fitted: true,
            initial: losses(0, 0.2, 0.21),
            history: vec![losses(1, 0.15, 0.18), losses(2, 0.1, 0.19)],
            start: problem.start_weights(),
            // Soldier, advisor and elephant kept; horse +20.4, chariot -20, cannon +2.
            weights: {
                let mut w = problem.start_weights();
                w[3] += 20.4;
                w[4] -= 20.0;
                w[5] += 2.0;
                w
            },
            kept_epoch: None,
            stopped_early: false,
        };
        let chariot_base = Params::default().value("material.chariot").unwrap();
        let s = summary_text(&["data: x".into()], &problem, &outcome, 20);
        assert!(s.starts_with("data: x\nK: 0.750000 (fitted)\n"), "{s}");
        assert!(
            s.contains("initial loss: train 0.200000  validation 0.210000"),
            "{s}"
        );
        assert!(
            s.contains("final loss: train 0.100000  validation 0.190000 (epoch 2)"),
            "{s}"
        );
        assert!(
            s.contains("lowest validation loss: 0.180000 (epoch 1)"),
            "{s}"
        );
        assert!(
            s.contains("warning: the validation loss rose after epoch 1"),
            "{s}"
        );
        assert!(s.contains("changed parameters: 3 of 6 tuned"), "{s}");
        let horse = s.find("material.horse").unwrap();
        let chariot = s.find("material.chariot").unwrap();
        let cannon = s.find("material.cannon").unwrap();
        assert!(horse < chariot && chariot < cannon, "largest first: {s}");
        let chariot_line = format!(
            "{chariot_base:>5} -> {:>5}  (-20, {:.2})",
            chariot_base - 20,
            f64::from(chariot_base - 20)
        );
        assert!(s.contains(&chariot_line), "{chariot_line}: {s}");
        assert!(
            !s.contains("material.soldier"),
            "unchanged ones are not listed: {s}"
        );
        // With early stopping the kept epoch is named and the rise is not a warning.
        let stopped = TexelOutcome {
            kept_epoch: Some(1),
            stopped_early: true,
            ..outcome
        };
        let s = summary_text(&["data: x".into()], &problem, &stopped, 20);
        assert!(
            s.contains("early stopping: kept the weights of epoch 1, the lowest validation loss"),
            "{s}"
        );
        assert!(!s.contains("warning"), "{s}");
        // Still falling at the last epoch: said so.
        let falling = TexelOutcome {
            history: vec![losses(1, 0.15, 0.18), losses(2, 0.1, 0.17)],
            kept_epoch: Some(2),
            stopped_early: false,
            ..stopped
        };
        let s = summary_text(&["data: x".into()], &problem, &falling, 20);
        assert!(
            s.contains("early stopping: not triggered; the validation loss still fell at the last epoch (2)"),
            "{s}"
        );
        // Every epoch ran and the lowest came before the last: not an early stop either.
        let ran_out = TexelOutcome {
            kept_epoch: Some(1),
            stopped_early: false,
            ..falling
        };
        let s = summary_text(&["data: x".into()], &problem, &ran_out, 20);
        assert!(
            s.contains(
                "early stopping: not triggered within --epochs; kept the weights of epoch 1"
            ),
            "{s}"
        );
    }
}
