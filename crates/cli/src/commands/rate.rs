//! `chuhan rate FILE.pgn...`: joint ratings of any PGN collection (ours, cutechess-cli's,
//! fastchess's; xiangqi or chess) with the ladder's fit and honest intervals: the ratings
//! table, the neighbour gaps in rating order, the first-move advantage when asked for, and the
//! likelihood-of-superiority matrix; `--out DIR` writes ratings.csv, gaps.csv and los.csv. The
//! work is the library's ([`chuhan_arena::jobs::rate`]).

use crate::common::flags::FirstMoveArgs;
use crate::EXIT_OK;
use chuhan_arena::jobs::ladder::{GAP_HEADER, RATING_HEADER};
use chuhan_arena::jobs::rate::{rate, read_collection, GroupRatings, RateOptions};
use chuhan_arena::report::table;
use clap::Args;
use std::path::PathBuf;

/// `chuhan rate`.
#[derive(Debug, Args)]
pub struct RateArgs {
    /// PGN files (one game: xiangqi or chess); their games are rated together.
    #[arg(required = true, value_name = "FILE.pgn")]
    pub files: Vec<PathBuf>,
    /// The player rated --anchor-elo (default: the lowest-rated player of each group).
    #[arg(long, value_name = "NAME")]
    pub anchor: Option<String>,
    /// The anchor's rating.
    #[arg(
        long,
        value_name = "X",
        default_value_t = 0.0,
        allow_negative_numbers = true
    )]
    pub anchor_elo: f64,
    /// The first-move term of the fit (0 by default: colours ignored).
    #[command(flatten)]
    pub first_move: FirstMoveArgs,
    /// Write ratings.csv, gaps.csv and los.csv here (a collection that falls apart: groups.csv
    /// and one folder group-K per group).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: &RateArgs) -> anyhow::Result<u8> {
    let options = RateOptions {
        anchor: args.anchor.clone(),
        anchor_elo: args.anchor_elo,
        first_move: args.first_move.first_move_advantage.unwrap_or_default(),
    };
    let collection = read_collection(&args.files)?;
    let rated = rate(&collection, &options)?;
    outln!(
        "{} {} games from {} file{}{}",
        collection.games.len(),
        collection.kind,
        collection.files.len(),
        if collection.files.len() == 1 { "" } else { "s" },
        match collection.unfinished {
            0 => String::new(),
            n => format!("; {n} unfinished (*) left out"),
        }
    );
    if rated.groups.len() > 1 {
        outln!(
            "the collection is not connected: {} groups with no games between them, each rated on its own",
            rated.groups.len()
        );
        for (k, g) in rated.groups.iter().enumerate() {
            let names: Vec<&str> = g.analysis.players.iter().map(|p| p.name.as_str()).collect();
            outln!("group {}: {}", k + 1, names.join(", "));
        }
    }
    for (k, g) in rated.groups.iter().enumerate() {
        outln!();
        if rated.groups.len() > 1 {
            outln!("group {}", k + 1);
        }
        print_group(g, args.anchor_elo);
    }
    if let Some(dir) = &args.out {
        let folders = rated.write(dir)?;
        outln!();
        for f in folders {
            outln!("ratings.csv, gaps.csv and los.csv in {}", f.display());
        }
    }
    Ok(EXIT_OK)
}

/// The tables of one group.
fn print_group(g: &GroupRatings, anchor_elo: f64) {
    let a = &g.analysis;
    outln!("{}", table(&RATING_HEADER, &a.rating_rows()));
    outln!("{}", table(&GAP_HEADER, &a.gap_rows()));
    if let Some(line) = a.first_move_line() {
        outln!("{line}");
    }
    outln!("anchor: {} at {}", g.anchor, anchor_elo);
    outln!();
    outln!("likelihood of superiority (%: the row player is stronger than the column player)");
    let (header, rows) = g.los_rows();
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    outln!("{}", table(&header, &rows));
    for note in &a.notes {
        outln!("note: {note}");
    }
}
