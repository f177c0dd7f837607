//! `chuhan params`: the parameter table as CSV-like text, for either game (`--game`).

use crate::common::flags::GameArg;
use chuhan_engine::chess::EvalParams;
use clap::Args;

/// `chuhan params`.
#[derive(Debug, Args)]
pub struct ParamsArgs {
    /// The game: xiangqi (default; the table of `chuhan_engine::params`) or chess (the chess
    /// evaluation's table, with the ranges and steps `tune spsa --game chess --params` uses).
    #[arg(long, value_enum, default_value_t = GameArg::Xiangqi)]
    pub game: GameArg,
}

/// Prints `name,default,min,max,step,group` for every tunable of the game's evaluation.
pub fn run(args: &ParamsArgs) -> anyhow::Result<u8> {
    outln!("name,default,min,max,step,group");
    match args.game {
        GameArg::Xiangqi => {
            for d in chuhan_engine::params::table() {
                outln!(
                    "{},{},{},{},{},{}",
                    d.name,
                    d.default,
                    d.min,
                    d.max,
                    d.step,
                    d.group
                );
            }
        }
        GameArg::Chess => {
            for row in chess_rows()? {
                outln!("{row}");
            }
        }
    }
    Ok(crate::EXIT_OK)
}

/// The chess table's rows. The chess evaluation's parameters carry no ranges of their own, so
/// min and max are the ones `tune spsa --game chess --params NAMES` gives them (the default
/// value ± half of it, at least 20), and the step is that run's `c_end` ((max - min) / 20,
/// rounded, at least 1): what this table says is what the tuner will do.
fn chess_rows() -> anyhow::Result<Vec<String>> {
    let defaults = EvalParams::default();
    let spsa = chuhan_arena::jobs::tune::spsa::chess_params_from_names(
        &EvalParams::NAMES.join(","),
        &defaults,
    )?;
    Ok(EvalParams::NAMES
        .iter()
        .zip(&spsa)
        .map(|(name, p)| {
            debug_assert_eq!(*name, p.name);
            format!(
                "{name},{},{},{},{},{}",
                defaults.get(name).unwrap_or_default(),
                p.min,
                p.max,
                (p.c_end.round() as i64).max(1),
                chess_group(name)
            )
        })
        .collect())
}

/// `material` for the piece values, `eval` for the positional terms (the names xiangqi's
/// table uses for the same kinds of parameter).
fn chess_group(name: &str) -> &'static str {
    let piece = ["pawn", "knight", "bishop", "rook", "queen"];
    let value = piece.iter().any(|p| {
        [format!("{p}_mg"), format!("{p}_eg")]
            .iter()
            .any(|n| n == name)
    });
    if value {
        "material"
    } else {
        "eval"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess_rows_cover_the_table_with_ranges_around_the_defaults() {
        let rows = chess_rows().unwrap();
        assert_eq!(rows.len(), EvalParams::NAMES.len());
        assert_eq!(rows[0], "pawn_mg,82,41,123,4,material");
        let tempo = rows.iter().find(|r| r.starts_with("tempo,")).unwrap();
        assert_eq!(tempo, "tempo,12,-8,32,2,eval");
        for row in &rows {
            let cells: Vec<&str> = row.split(',').collect();
            assert_eq!(cells.len(), 6, "{row}");
            let n: Vec<i64> = cells[1..5].iter().map(|c| c.parse().unwrap()).collect();
            assert!(n[1] < n[0] && n[0] < n[2] && n[3] >= 1, "{row}");
        }
    }
}
