//! `chuhan match`: game pairs between two or more players (a round robin), scores and Elo.

use super::setup::config_from_args;
use crate::args::MatchArgs;
use crate::EXIT_OK;
use anyhow::bail;
use chuhan_arena::play::results::RunConfig;
use chuhan_arena::play::schedule::{round_robin, Pairing};
use chuhan_arena::play::setup::{
    choose_config, execute, plan_from_config, termination_rows, Prepared,
};
use chuhan_arena::report::{table, tally, Tally};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The pairings of a match configuration.
pub fn pairings(config: &RunConfig) -> Vec<Pairing> {
    round_robin(config.players.len(), config.pairs)
}

/// Runs the command.
pub fn run(args: &MatchArgs) -> anyhow::Result<u8> {
    let from_args = if args.players.is_empty() && args.run.resume.is_some() {
        None
    } else {
        if args.players.len() < 2 {
            bail!("give --player at least twice (or only --resume DIR)");
        }
        let pairs = match args.pairs {
            Some(p) => p,
            None => bail!("give --pairs N"),
        };
        Some(config_from_args(
            "match",
            &args.players,
            pairs,
            &args.run,
            None,
        ))
    };
    let default_name = format!("match-{}", args.players.join("-"));
    let (config, destination) = choose_config(
        from_args,
        args.run.resume.as_deref(),
        args.run.out.as_deref(),
        &default_name,
    )?;
    if config.command != "match" {
        bail!(
            "that folder holds a '{}' run; resume it with chuhan {}",
            config.command,
            config.command
        );
    }
    let plan = plan_from_config(&config, pairings(&config), args.run.concurrency)?;
    let prepared = Prepared::new(config, plan, destination);
    let labels = pairing_labels(&prepared);
    let finished = execute(
        &prepared,
        None,
        labels.clone(),
        Box::new(describe),
        args.run.quiet,
        Arc::new(AtomicBool::new(false)),
    )?;
    let tallies = tally(&finished.records, labels.len(), None);
    let (header, rows) = summary_rows(&labels, &tallies);
    finished.dir.write_summary(&header, &rows)?;
    print!("{}", table(&header, &rows));
    println!();
    print!(
        "{}",
        table(
            &["termination", "games"],
            &termination_rows(&finished.records)
        )
    );
    println!();
    println!(
        "played {} games in {:.1} s ({:.2} games/s) on {} workers; results in {}",
        finished.played,
        finished.seconds,
        finished.played as f64 / finished.seconds.max(1e-9),
        prepared.plan.concurrency,
        finished.dir.path().display()
    );
    Ok(EXIT_OK)
}

/// `first vs second` for each pairing.
pub fn pairing_labels(prepared: &Prepared) -> Vec<String> {
    let names: Vec<&str> = prepared
        .plan
        .entrants
        .iter()
        .map(|e| e.name.as_str())
        .collect();
    prepared
        .plan
        .schedule
        .pairings
        .iter()
        .map(|p| format!("{} vs {}", names[p.first], names[p.second]))
        .collect()
}

/// A short statistics text for the progress line: Elo with its 95% interval.
pub fn describe(t: &Tally) -> String {
    t.estimate()
        .map(|e| format!("Elo {:.1} ± {:.1}", e.elo, e.elo_ci95))
        .unwrap_or_default()
}

fn fmt2(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.2}")
    } else {
        "inf".to_string()
    }
}

/// The summary table (also summary.csv): one row per pairing.
pub fn summary_rows(labels: &[String], tallies: &[Tally]) -> (Vec<&'static str>, Vec<Vec<String>>) {
    let header = vec![
        "pairing",
        "games",
        "wins",
        "draws",
        "losses",
        "score",
        "pentanomial",
        "elo",
        "elo_ci95",
        "nelo",
        "nelo_ci95",
        "los",
        "draw_ratio",
    ];
    let rows = labels
        .iter()
        .zip(tallies)
        .map(|(label, t)| {
            let games = t.games();
            let points = t.wdl[2] as f64 + 0.5 * t.wdl[1] as f64;
            let est = t.estimate();
            let field = |f: fn(&chuhan_arena::stats::Estimate) -> f64| {
                est.as_ref().map_or(String::new(), |e| fmt2(f(e)))
            };
            vec![
                label.clone(),
                games.to_string(),
                t.wdl[2].to_string(),
                t.wdl[1].to_string(),
                t.wdl[0].to_string(),
                format!("{:.3}", points / games.max(1) as f64),
                t.penta_text(),
                field(|e| e.elo),
                field(|e| e.elo_ci95),
                field(|e| e.nelo),
                field(|e| e.nelo_ci95),
                field(|e| e.los),
                est.and_then(|e| e.draw_ratio).map_or(String::new(), fmt2),
            ]
        })
        .collect();
    (header, rows)
}
