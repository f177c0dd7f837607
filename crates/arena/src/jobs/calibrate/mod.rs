//! Difficulty calibration: play a grid of settings of one knob, fit Elo(knob) as a monotone
//! curve (weighted isotonic regression on a transformed knob scale), invert it at the target
//! Elo steps, and write the calibrated levels. The game-playing parts live in [`job`]; this
//! module is pure so it can be tested on simulated results with a known curve.

pub mod error;
pub mod job;
pub mod settings;
pub mod shard;

pub use error::CalibrateError;

pub use job::{gap_passes, run, CalibrationEvent, CalibrationOutcome, GapCheck, StageStop};
pub use settings::{CalibrateSettings, DEFAULT_TOLERANCE};

use crate::curve::{CurveError, CurvePoint, IsotonicFit};
pub use crate::play::player::external_knobs::ExternalKnob;
use error::{invalid, refuse};

type Result<T, E = CalibrateError> = std::result::Result<T, E>;
use std::fmt;
use std::str::FromStr;

/// The knob a level family moves: a setting of the in-process engine, or of an external
/// engine file ([`ExternalKnob`]: its go limits or one of its UCI options).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Knob {
    /// Node budget per move (stronger with more; fitted on a log2 scale).
    Nodes,
    /// Depth cap (stronger with more).
    Depth,
    /// Straying margin in centipawns (weaker with more).
    Margin,
    /// Random-move rate (weaker with more).
    RandomRate,
    /// The skill dial, 0 to 20 (stronger with more): node budget, straying margin and
    /// random-move rate at once (`chuhan_engine::Level::set_skill`).
    Skill,
    /// A knob of an external engine: `go-nodes` (log2 scale), `go-depth`, `movetime`
    /// (milliseconds, log2 scale) or `option:<name>` (a numeric UCI option, stronger with
    /// larger values, e.g. `option:Skill Level`, `option:UCI_Elo`).
    External(ExternalKnob),
}

impl FromStr for Knob {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim() {
            "nodes" => Ok(Knob::Nodes),
            "depth" => Ok(Knob::Depth),
            "margin" => Ok(Knob::Margin),
            "random_rate" | "random-rate" => Ok(Knob::RandomRate),
            "skill" => Ok(Knob::Skill),
            other => ExternalKnob::parse(other)
                .map(Knob::External)
                .ok_or_else(|| {
                    format!(
                    "unknown knob '{other}' (expected nodes, depth, margin, random_rate or skill; for an \
                     external engine go-nodes, go-depth, movetime or option:<UCI option>)"
                )
                }),
        }
    }
}

impl TryFrom<String> for Knob {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        s.parse()
    }
}

impl From<Knob> for String {
    fn from(k: Knob) -> String {
        k.key()
    }
}

impl fmt::Display for Knob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.key())
    }
}

impl Knob {
    /// The override key in player specs and level files.
    pub fn key(&self) -> String {
        match self {
            Knob::Nodes => "nodes".into(),
            Knob::Depth => "depth".into(),
            Knob::Margin => "margin".into(),
            Knob::RandomRate => "random_rate".into(),
            Knob::Skill => "skill".into(),
            Knob::External(k) => k.key(),
        }
    }

    /// Whether the knob belongs to an external engine file.
    pub fn is_external(&self) -> bool {
        matches!(self, Knob::External(_))
    }

    /// Whether the curve is fitted on the knob's log2 (node budgets, move times): a unit of
    /// the scale is a doubling.
    pub fn is_log_scale(&self) -> bool {
        matches!(
            self,
            Knob::Nodes
                | Knob::External(ExternalKnob::GoNodes)
                | Knob::External(ExternalKnob::Movetime)
        )
    }

    /// The scale the curve is fitted on: increasing in strength.
    pub fn to_scale(&self, v: f64) -> f64 {
        match self {
            Knob::Nodes
            | Knob::External(ExternalKnob::GoNodes)
            | Knob::External(ExternalKnob::Movetime) => v.log2(),
            Knob::Depth
            | Knob::Skill
            | Knob::External(ExternalKnob::GoDepth)
            | Knob::External(ExternalKnob::UciOption(_)) => v,
            Knob::Margin | Knob::RandomRate => -v,
        }
    }

    /// Inverse of [`Knob::to_scale`].
    pub fn from_scale(&self, x: f64) -> f64 {
        match self {
            Knob::Nodes
            | Knob::External(ExternalKnob::GoNodes)
            | Knob::External(ExternalKnob::Movetime) => x.exp2(),
            Knob::Depth
            | Knob::Skill
            | Knob::External(ExternalKnob::GoDepth)
            | Knob::External(ExternalKnob::UciOption(_)) => x,
            Knob::Margin | Knob::RandomRate => -x,
        }
    }

    /// A knob value as written in specs and level files (integers except the random rate).
    pub fn format(&self, v: f64) -> String {
        match self {
            Knob::RandomRate => format!("{:.3}", v.clamp(0.0, 1.0)),
            Knob::Skill => format!("{:.2}", v.clamp(0.0, chuhan_engine::SKILL_MAX)),
            Knob::Margin => format!("{}", v.round().max(0.0)),
            Knob::External(ExternalKnob::UciOption(_)) => format!("{}", v.round()),
            _ => format!("{}", v.round().max(1.0)),
        }
    }

    /// A grid of settings roughly 100–200 Elo apart for this knob (a UCI option has none: its
    /// range is the engine's).
    pub fn default_grid(&self) -> Vec<f64> {
        match self {
            Knob::Nodes | Knob::External(ExternalKnob::GoNodes) => {
                vec![250.0, 500.0, 1000.0, 2000.0, 4000.0, 8000.0]
            }
            Knob::Depth | Knob::External(ExternalKnob::GoDepth) => {
                vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
            }
            Knob::External(ExternalKnob::Movetime) => vec![10.0, 20.0, 50.0, 100.0, 200.0, 500.0],
            Knob::Margin => vec![400.0, 200.0, 100.0, 50.0, 20.0, 0.0],
            Knob::RandomRate => vec![0.5, 0.3, 0.2, 0.1, 0.05, 0.0],
            Knob::Skill => vec![0.0, 3.0, 6.0, 9.0, 12.0, 15.0],
            Knob::External(ExternalKnob::UciOption(_)) => Vec::new(),
        }
    }

    /// Checks a grid: valid values, distinct, ordered from weakest to strongest.
    pub fn check_grid(&self, grid: &[f64]) -> Result<()> {
        if grid.is_empty() && matches!(self, Knob::External(ExternalKnob::UciOption(_))) {
            refuse!(
                "--knob {}: give --grid, the option's values from the weakest to the strongest",
                self.key()
            );
        }
        if grid.len() < 3 {
            refuse!("the grid needs at least 3 settings, got {}", grid.len());
        }
        for &v in grid {
            let ok = match self {
                Knob::Nodes
                | Knob::Depth
                | Knob::External(ExternalKnob::GoNodes)
                | Knob::External(ExternalKnob::GoDepth)
                | Knob::External(ExternalKnob::Movetime) => v >= 1.0 && v.fract() == 0.0,
                Knob::Margin => v >= 0.0 && v.fract() == 0.0,
                Knob::RandomRate => (0.0..=1.0).contains(&v),
                Knob::Skill => (0.0..=chuhan_engine::SKILL_MAX).contains(&v),
                Knob::External(ExternalKnob::UciOption(_)) => v.is_finite() && v.fract() == 0.0,
            };
            if !ok {
                refuse!("grid value {v} is not a valid {} setting", self.key());
            }
        }
        if grid
            .windows(2)
            .any(|w| self.to_scale(w[1]) <= self.to_scale(w[0]))
        {
            refuse!(
                "list the grid from the weakest to the strongest setting, without repeats ({} {})",
                self.key(),
                match self {
                    Knob::Margin | Knob::RandomRate => "decreasing",
                    _ => "increasing",
                }
            );
        }
        Ok(())
    }
}

/// The fitted curve of a grid: Elo relative to the first grid setting.
#[derive(Clone, Debug)]
pub struct Calibration {
    /// The knob.
    pub knob: Knob,
    /// The monotone fit on the knob's scale.
    pub fit: IsotonicFit,
}

impl Calibration {
    /// Fits measured `(knob value, elo, standard error)` points.
    pub fn fit(knob: Knob, measured: &[(f64, f64, f64)]) -> Result<Calibration, CurveError> {
        let points: Vec<CurvePoint> = measured
            .iter()
            .map(|&(v, y, se)| CurvePoint {
                x: knob.to_scale(v),
                y,
                se: se.max(1.0),
            })
            .collect();
        Ok(Calibration {
            knob,
            fit: IsotonicFit::fit(&points)?,
        })
    }

    /// The knob values at which the curve reaches each target (Elo above the first grid
    /// setting). A target outside the reachable range is an error naming it and the range.
    pub fn place(&self, targets: &[f64]) -> Result<Vec<f64>> {
        targets
            .iter()
            .map(|&t| {
                let knob = &self.knob;
                self.fit
                    .invert(t)
                    .map(|x| knob.from_scale(x))
                    .map_err(|e| match e {
                        CurveError::OutOfRange { min, max, .. } => invalid!(
                            "target {t:+.0} Elo is outside what the {} grid reaches ({min:+.0} to {max:+.0} Elo): widen the grid",
                            knob.key()
                        ),
                        other => invalid!("cannot place target {t}: {other}"),
                    })
            })
            .collect()
    }

    /// Samples of the fitted curve in knob units, for plotting.
    pub fn samples(&self, per_segment: usize) -> Vec<(f64, f64)> {
        let xs = self.fit.xs();
        let ys = self.fit.ys();
        let mut out = Vec::new();
        for k in 0..xs.len() {
            if k + 1 < xs.len() {
                for s in 0..per_segment {
                    let t = s as f64 / per_segment as f64;
                    let x = xs[k] + t * (xs[k + 1] - xs[k]);
                    out.push((self.knob.from_scale(x), ys[k] + t * (ys[k + 1] - ys[k])));
                }
            } else {
                out.push((self.knob.from_scale(xs[k]), ys[k]));
            }
        }
        out
    }
}

/// A second placement of the levels from their validation (a secant step): between each pair
/// of adjacent levels the validation measured how many Elo a unit of the knob's scale buys
/// there, so each level is re-placed at its target gap above the re-placed level below it, at
/// that slope. The first level stays where it is (the targets are relative to it).
///
/// `values` are the placed knob values, `measured` the validated gaps between neighbours
/// (`None` where the gap is not ordered: its 95% interval holds 0 or has an open side, so
/// its slope could be anything), `targets` the target gaps. Returns the new
/// values as the knob writes them ([`Knob::format`]), or `None` when a gap has no usable slope
/// (not measured both ways, not positive, or levels at the same setting).
pub fn refine_placement(
    knob: &Knob,
    values: &[f64],
    measured: &[Option<f64>],
    targets: &[f64],
) -> Option<Vec<f64>> {
    if values.is_empty() || measured.len() + 1 != values.len() || targets.len() != measured.len() {
        return None;
    }
    let written = |v: f64| knob.format(v).parse::<f64>().ok();
    let mut out = vec![written(values[0])?];
    for k in 0..measured.len() {
        let span = knob.to_scale(values[k + 1]) - knob.to_scale(values[k]);
        let gap = measured[k]?;
        if !(span > 0.0 && gap > 0.0 && gap.is_finite()) {
            return None;
        }
        let slope = gap / span;
        let x = knob.to_scale(out[k]) + targets[k] / slope;
        out.push(written(knob.from_scale(x))?);
    }
    Some(out)
}

/// Parses a comma-separated list of numbers, naming the option on error.
pub fn parse_list(text: &str, what: &str) -> Result<Vec<f64>> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.trim_start_matches('+')
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| invalid!("{what}: '{s}' is not a number"))
        })
        .collect()
}

/// The levels file written by a calibration.
pub fn levels_toml(
    names: &[String],
    specs: &[String],
    levels: &[chuhan_engine::Level],
    targets: &[f64],
    header: &str,
) -> String {
    let mut s = String::new();
    for line in header.lines() {
        s.push_str(&format!("# {line}\n"));
    }
    for (((name, spec), level), target) in names.iter().zip(specs).zip(levels).zip(targets) {
        s.push_str(&format!(
            "\n[{name}]\n# target {target:+.0} Elo; player spec \"{spec}\"\n"
        ));
        if let Some(d) = level.depth {
            s.push_str(&format!("depth = {d}\n"));
        }
        if let Some(n) = level.nodes {
            s.push_str(&format!("nodes = {n}\n"));
        }
        if let Some(t) = level.time {
            s.push_str(&format!("time_ms = {}\n", t.as_millis()));
        }
        s.push_str(&format!("margin = {}\n", level.margin));
        s.push_str(&format!("random_rate = {:?}\n", level.random_rate));
        if level.opening_plies > 0 {
            s.push_str(&format!("opening_plies = {}\n", level.opening_plies));
            if let Some(d) = level.opening_depth {
                s.push_str(&format!("opening_depth = {d}\n"));
            }
            s.push_str(&format!("opening_margin = {}\n", level.opening_margin));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::ladder::analyse;
    use crate::ratings::RatedGame;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// A synthetic knob with a known curve: Elo(nodes) = 150 * log2(nodes / 250).
    fn true_elo(nodes: f64) -> f64 {
        150.0 * (nodes / 250.0).log2()
    }

    fn simulate(grid: &[f64], pairs: u64, seed: u64) -> Vec<RatedGame> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut games = Vec::new();
        let mut pair_id = 0;
        for i in 0..grid.len() {
            for j in i + 1..(i + 3).min(grid.len()) {
                let d = true_elo(grid[i]) - true_elo(grid[j]);
                let p = 1.0 / (1.0 + 10f64.powf(-d / 400.0));
                for _ in 0..pairs {
                    for _ in 0..2 {
                        // Up to 20% draws, keeping the expected score at the model's p.
                        let d = 0.2f64.min(2.0 * p.min(1.0 - p));
                        let u: f64 = rng.gen();
                        let score = if u < p - d / 2.0 {
                            1.0
                        } else if u < p + d / 2.0 {
                            0.5
                        } else {
                            0.0
                        };
                        games.push(RatedGame {
                            pair_id,
                            first: i,
                            second: j,
                            score_first: score,
                        });
                    }
                    pair_id += 1;
                }
            }
        }
        games
    }

    #[test]
    fn recovers_a_known_curve_from_simulated_games() {
        let knob = Knob::Nodes;
        let grid = knob.default_grid();
        let names: Vec<String> = grid.iter().map(|g| format!("n{g}")).collect();
        let games = simulate(&grid, 150, 11);
        let a = analyse(&games, &names).unwrap();
        let measured = job::curve_points(&grid, &a);
        let cal = Calibration::fit(knob.clone(), &measured).unwrap();
        let targets = [0.0, 300.0, 600.0];
        let placed = cal.place(&targets).unwrap();
        // The truth: 250, 1000, 4000 nodes.
        for (p, truth) in placed.iter().zip([250.0, 1000.0, 4000.0]) {
            let ratio = p / truth;
            assert!(
                (0.7..1.4).contains(&ratio),
                "placed {p} for truth {truth}: {placed:?}"
            );
        }
        // A target beyond the grid is refused, naming the range.
        let e = cal.place(&[5000.0]).unwrap_err().to_string();
        assert!(e.contains("outside") && e.contains("widen"), "{e}");
    }

    #[test]
    fn decreasing_knobs_are_fitted_on_a_reversed_scale() {
        let knob = Knob::Margin;
        let grid = knob.default_grid();
        knob.check_grid(&grid).unwrap();
        // Elo falls as the margin grows.
        let measured: Vec<(f64, f64, f64)> = grid.iter().map(|&m| (m, 400.0 - m, 20.0)).collect();
        let cal = Calibration::fit(knob.clone(), &measured).unwrap();
        let placed = cal.place(&[0.0, 300.0]).unwrap();
        assert!(
            (placed[0] - 400.0).abs() < 1e-6 && (placed[1] - 100.0).abs() < 1e-6,
            "{placed:?}"
        );
        assert!(
            knob.check_grid(&[0.0, 100.0, 200.0]).is_err(),
            "wrong direction"
        );
        assert!(
            Knob::Nodes.check_grid(&[100.0, 100.0, 200.0]).is_err(),
            "repeat"
        );
        assert!(
            Knob::Nodes.check_grid(&[100.0, 200.0]).is_err(),
            "too short"
        );
        assert!(Knob::RandomRate.check_grid(&[1.5, 0.5, 0.0]).is_err());
    }

    #[test]
    fn parse_lists_and_knobs() {
        assert_eq!(
            parse_list("0, +200,400", "t").unwrap(),
            vec![0.0, 200.0, 400.0]
        );
        assert!(parse_list("0,abc", "--targets")
            .unwrap_err()
            .to_string()
            .contains("'abc'"));
        assert!("speed".parse::<Knob>().is_err());
        assert_eq!("random_rate".parse::<Knob>(), Ok(Knob::RandomRate));
        assert_eq!(Knob::Nodes.format(1234.4), "1234");
        let skill: Knob = "option:Skill Level".parse().unwrap();
        assert_eq!(
            skill,
            Knob::External(ExternalKnob::UciOption("Skill Level".into()))
        );
        assert_eq!(skill.key(), "option:Skill Level");
        assert_eq!(skill.format(3.4), "3");
        assert!(skill
            .check_grid(&[])
            .unwrap_err()
            .to_string()
            .contains("--grid"));
        skill.check_grid(&[0.0, 5.0, 10.0]).unwrap();
        let go: Knob = "go-nodes".parse().unwrap();
        assert_eq!(go.to_scale(1024.0), 10.0);
        assert_eq!(go.default_grid(), Knob::Nodes.default_grid());
        let e = "speed".parse::<Knob>().unwrap_err();
        assert!(e.contains("go-nodes") && e.contains("option:"), "{e}");
        assert_eq!(Knob::RandomRate.format(0.12345), "0.123");
        // The built-in skill dial: stronger with more, on a linear scale, 0 to 20.
        assert_eq!("skill".parse::<Knob>(), Ok(Knob::Skill));
        assert_eq!(Knob::Skill.key(), "skill");
        assert_eq!(Knob::Skill.format(7.456), "7.46");
        assert_eq!(Knob::Skill.to_scale(7.5), 7.5);
        Knob::Skill.check_grid(&Knob::Skill.default_grid()).unwrap();
        assert!(Knob::Skill.check_grid(&[0.0, 10.0, 25.0]).is_err());
        assert!(Knob::Skill.check_grid(&[9.0, 6.0, 3.0]).is_err());
        assert!(!Knob::Skill.is_external());
    }
}

#[cfg(test)]
mod levels_file_tests {
    use super::*;

    #[test]
    fn a_failed_validation_is_replaced_by_the_measured_slopes() {
        // Levels at skill 4, 7.41 and 10 measured +337 and +276 apart, targets +300 each:
        // 98.8 Elo a point then 106.6, so 4 + 300/98.8 = 7.04 and 7.04 + 300/106.6.
        let knob = Knob::Skill;
        let got = refine_placement(
            &knob,
            &[4.0, 7.41, 10.0],
            &[Some(337.0), Some(276.0)],
            &[300.0, 300.0],
        )
        .unwrap();
        // Each level is placed above the one below as written (two decimals).
        let a = ((4.0 + 300.0 / (337.0 / 3.41)) * 100.0_f64).round() / 100.0;
        let b = a + 300.0 / (276.0 / 2.59);
        assert_eq!(
            got,
            vec![
                4.0,
                (a * 100.0_f64).round() / 100.0,
                (b * 100.0_f64).round() / 100.0
            ]
        );
        // Gaps on target leave the levels where they are.
        assert_eq!(
            refine_placement(&knob, &[4.0, 7.0], &[Some(250.0)], &[250.0]),
            Some(vec![4.0, 7.0])
        );
        // On a log scale: twice the gap per doubling means half as many doublings.
        assert_eq!(
            refine_placement(&Knob::Nodes, &[1000.0, 4000.0], &[Some(400.0)], &[200.0]),
            Some(vec![1000.0, 2000.0])
        );
        // A decreasing knob: margin 100 to 50 bought +200, so +100 is margin 75.
        assert_eq!(
            refine_placement(&Knob::Margin, &[100.0, 50.0], &[Some(200.0)], &[100.0]),
            Some(vec![100.0, 75.0])
        );
        // No slope: an open side, a gap that is not positive, or mismatched lengths.
        assert_eq!(
            refine_placement(&knob, &[4.0, 7.0], &[None], &[300.0]),
            None
        );
        assert_eq!(
            refine_placement(&knob, &[4.0, 7.0], &[Some(-5.0)], &[300.0]),
            None
        );
        assert_eq!(refine_placement(&knob, &[4.0, 7.0], &[], &[]), None);
        // Clamped to the dial.
        assert_eq!(
            refine_placement(&knob, &[18.0, 19.0], &[Some(10.0)], &[300.0]),
            Some(vec![18.0, 20.0])
        );
    }

    #[test]
    fn written_levels_read_back() {
        let levels = vec![chuhan_engine::Level::easy(), chuhan_engine::Level::hard()];
        let text = levels_toml(
            &["a".to_string(), "b".to_string()],
            &["easy".to_string(), "hard".to_string()],
            &levels,
            &[0.0, 400.0],
            "test",
        );
        let back = crate::play::config::parse_levels(&text, "levels.toml").unwrap();
        assert_eq!(back.len(), 2);
        for (l, b) in levels.iter().zip(&back) {
            assert_eq!(
                (l.depth, l.nodes, l.margin, l.random_rate, l.opening_plies),
                (b.depth, b.nodes, b.margin, b.random_rate, b.opening_plies)
            );
        }
    }
}

#[cfg(test)]
mod settings_file_tests {
    use super::*;

    #[test]
    fn knobs_are_stored_as_their_names_and_old_settings_files_still_read() {
        let old = "knob = \"nodes\"\nbase = \"default\"\ngrid = [40.0, 150.0, 600.0]\n\
                   targets = [0.0, 100.0]\nnames = [\"a\", \"b\"]\npairs = 3\n\
                   validate_pairs = 3\nmax_nodes = 2000000\nopening_plies = 6\nseed = 1\n\
                   bootstrap = 500\n";
        let s: CalibrateSettings = toml::from_str(old).unwrap();
        assert_eq!(s.knob, Knob::Nodes);
        assert_eq!(s.precision, None);
        assert_eq!(s.tolerance, DEFAULT_TOLERANCE);
        let skill = CalibrateSettings {
            knob: "option:Skill Level".parse().unwrap(),
            precision: Some(40.0),
            ..s
        };
        let text = toml::to_string(&skill).unwrap();
        assert!(text.contains("knob = \"option:Skill Level\""), "{text}");
        assert_eq!(toml::from_str::<CalibrateSettings>(&text).unwrap(), skill);
    }

    #[test]
    fn a_levels_file_says_when_its_base_engine_is_not_the_one_levels_play_on() {
        let with_base = |base: &str| -> CalibrateSettings {
            toml::from_str(&format!(
                "knob = \"skill\"\nbase = \"{base}\"\ngrid = [2.0, 6.0]\ntargets = [0.0, 300.0]\n\
                 names = [\"a\", \"b\"]\npairs = 3\nvalidate_pairs = 3\nmax_nodes = 2000000\n\
                 opening_plies = 6\nseed = 1\nbootstrap = 500\n"
            ))
            .unwrap()
        };
        let specs = ["hard:skill=2".to_string(), "hard:skill=6".to_string()];
        // The default engine, with or without a level: a levels file holds all of it.
        for base in ["default", "hard"] {
            let s = with_base(base);
            assert_eq!(s.base_beyond_levels(), None, "{base}");
            let file = s.levels_file(&specs).unwrap();
            assert!(!file.contains("Warning"), "{file}");
        }
        // The handcrafted evaluation or other parameters: said in the file's header.
        let hand = with_base("handcrafted")
            .base_beyond_levels()
            .expect("a warning");
        assert!(hand.contains("the handcrafted evaluation"), "{hand}");
        let tuned = with_base("default:material.horse=500")
            .base_beyond_levels()
            .expect("a warning");
        assert!(tuned.contains("parameter values"), "{tuned}");
        let file = with_base("handcrafted").levels_file(&specs).unwrap();
        assert!(
            file.lines()
                .any(|l| l.starts_with("# Warning: the base handcrafted has")),
            "{file}"
        );
    }
}
