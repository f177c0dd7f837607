//! Every SVG plot (plotters' SVG backend): ladder ratings with error bars, calibration curves,
//! SPSA trajectories, Texel losses.

use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// A plot that could not be drawn or written.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw {}: {reason}", path.display())]
pub struct PlotError {
    /// The SVG file.
    pub path: PathBuf,
    /// What the drawing backend said.
    pub reason: String,
}

fn err<E: std::fmt::Display>(path: &Path) -> impl Fn(E) -> PlotError + '_ {
    move |e| PlotError {
        path: path.to_path_buf(),
        reason: e.to_string(),
    }
}

/// A tick label with no more decimals than the value needs: `1600`, `0.5`, `-12.25` (never
/// `1600.0`). Axis ticks fall on round values, so six decimals are plenty.
pub fn tick_label(v: f64) -> String {
    let text = format!("{v:.6}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_string()
    } else {
        text.to_string()
    }
}

/// Elo per player (in ladder order) with 95% error bars.
pub fn ladder_svg(
    path: &Path,
    title: &str,
    points: &[(String, f64, f64, f64)],
) -> Result<(), PlotError> {
    let n = points.len().max(1);
    let lo = points.iter().map(|p| p.2).fold(f64::INFINITY, f64::min);
    let hi = points.iter().map(|p| p.3).fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo.is_finite() && hi.is_finite() && hi > lo {
        (lo - 0.08 * (hi - lo), hi + 0.08 * (hi - lo))
    } else {
        (-100.0, 100.0)
    };
    let root = SVGBackend::new(path, (160 + 110 * n as u32, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(err(path))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(60)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), lo..hi)
        .map_err(err(path))?;
    let names: Vec<String> = points.iter().map(|p| p.0.clone()).collect();
    chart
        .configure_mesh()
        .x_labels(n)
        .x_label_formatter(&|x| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < names.len() {
                names[i as usize].clone()
            } else {
                String::new()
            }
        })
        .y_desc("Elo (first player = 0), 95% interval")
        .y_label_formatter(&|v| tick_label(*v))
        .draw()
        .map_err(err(path))?;
    chart
        .draw_series(
            points
                .iter()
                .enumerate()
                .map(|(i, p)| ErrorBar::new_vertical(i as f64, p.2, p.1, p.3, BLUE.filled(), 12)),
        )
        .map_err(err(path))?;
    chart
        .draw_series(
            points
                .iter()
                .enumerate()
                .map(|(i, p)| Circle::new((i as f64, p.1), 4, BLUE.filled())),
        )
        .map_err(err(path))?;
    root.present().map_err(err(path))?;
    Ok(())
}

/// Measured points with error bars and a fitted curve; optional vertical target markers.
pub struct CurvePlot<'a> {
    /// Title.
    pub title: &'a str,
    /// X axis label.
    pub x_label: &'a str,
    /// Measured (x, y, y_lo, y_hi).
    pub points: &'a [(f64, f64, f64, f64)],
    /// Fitted curve as (x, y) samples.
    pub curve: &'a [(f64, f64)],
    /// Chosen settings as (x, y) markers.
    pub chosen: &'a [(f64, f64)],
    /// Draw x on a base-2 log axis (node budgets, which the curve is fitted against in log2);
    /// every x must then be positive.
    pub log_x: bool,
}

/// Draws a [`CurvePlot`].
pub fn curve_svg(path: &Path, plot: &CurvePlot) -> Result<(), PlotError> {
    let xs = plot
        .points
        .iter()
        .map(|p| p.0)
        .chain(plot.curve.iter().map(|p| p.0))
        .chain(plot.chosen.iter().map(|p| p.0));
    let ys = plot
        .points
        .iter()
        .flat_map(|p| [p.2, p.3])
        .chain(plot.curve.iter().map(|p| p.1))
        .chain(plot.chosen.iter().map(|p| p.1));
    let (y0, y1) = bounds(ys);
    if plot.log_x {
        let (x0, x1) = log_bounds(xs);
        draw_curve(path, plot, (x0..x1).log_scale().base(2.0), y0..y1)
    } else {
        let (x0, x1) = bounds(xs);
        draw_curve(path, plot, x0..x1, y0..y1)
    }
}

fn draw_curve<X>(
    path: &Path,
    plot: &CurvePlot,
    x: X,
    y: std::ops::Range<f64>,
) -> Result<(), PlotError>
where
    X: AsRangedCoord<Value = f64>,
    X::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let root = SVGBackend::new(path, (800, 520)).into_drawing_area();
    root.fill(&WHITE).map_err(err(path))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(plot.title, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(x, y)
        .map_err(err(path))?;
    let x_desc = if plot.log_x {
        format!("{} (log scale)", plot.x_label)
    } else {
        plot.x_label.to_string()
    };
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc("Elo")
        .x_label_formatter(&|v| tick_label(*v))
        .y_label_formatter(&|v| tick_label(*v))
        .draw()
        .map_err(err(path))?;
    chart
        .draw_series(
            plot.points
                .iter()
                .map(|p| ErrorBar::new_vertical(p.0, p.2, p.1, p.3, BLUE.filled(), 10)),
        )
        .map_err(err(path))?
        .label("measured (95%)")
        .legend(|(x, y)| Circle::new((x, y), 4, BLUE.filled()));
    chart
        .draw_series(LineSeries::new(
            plot.curve.iter().copied(),
            RED.stroke_width(2),
        ))
        .map_err(err(path))?
        .label("fitted curve")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RED.stroke_width(2)));
    chart
        .draw_series(
            plot.chosen
                .iter()
                .map(|&(x, y)| TriangleMarker::new((x, y), 7, GREEN.filled())),
        )
        .map_err(err(path))?
        .label("calibrated levels")
        .legend(|(x, y)| TriangleMarker::new((x, y), 6, GREEN.filled()));
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(err(path))?;
    root.present().map_err(err(path))?;
    Ok(())
}

/// Bounds of positive values for a log axis, padded by a factor (values <= 0 ignored).
fn log_bounds(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite() && *v > 0.0) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !(lo.is_finite() && hi.is_finite()) {
        return (1.0, 2.0);
    }
    let pad = if hi / lo < 1.0 + 1e-9 {
        2.0
    } else {
        (hi / lo).powf(0.06)
    };
    (lo / pad, hi * pad)
}

fn bounds(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !(lo.is_finite() && hi.is_finite()) {
        return (0.0, 1.0);
    }
    if hi - lo < 1e-9 {
        return (lo - 1.0, hi + 1.0);
    }
    let pad = 0.08 * (hi - lo);
    (lo - pad, hi + pad)
}

/// One plotted parameter of [`spsa_svg`]: its name and the range it is normalised to.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamRange {
    /// The legend's name.
    pub name: String,
    /// The value drawn at 0.
    pub min: f64,
    /// The value drawn at 1.
    pub max: f64,
}

/// Draws theta per parameter over the iterations, each normalised to its [min, max].
/// (SPSA: `history[k]` is theta after `k` iterations.)
pub fn spsa_svg(path: &Path, params: &[ParamRange], history: &[Vec<f64>]) -> Result<(), PlotError> {
    let root = SVGBackend::new(path, (960, 540)).into_drawing_area();
    root.fill(&WHITE).map_err(err(path))?;
    let last = (history.len().max(2) - 1) as f64;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("SPSA: theta over {} iterations", history.len() - 1),
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(0f64..last, 0f64..1f64)
        .map_err(err(path))?;
    chart
        .configure_mesh()
        .x_desc("iteration")
        .y_desc("(theta - min) / (max - min)")
        .x_label_formatter(&|v| tick_label(*v))
        .y_label_formatter(&|v| tick_label(*v))
        .draw()
        .map_err(err(path))?;
    for (i, p) in params.iter().enumerate() {
        let span = (p.max - p.min).max(f64::MIN_POSITIVE);
        let color = Palette99::pick(i).to_rgba();
        let points = history
            .iter()
            .enumerate()
            .map(|(k, t)| (k as f64, (t[i] - p.min) / span));
        chart
            .draw_series(LineSeries::new(points, color.stroke_width(1)))
            .map_err(err(path))?
            .label(p.name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(err(path))?;
    root.present().map_err(err(path))?;
    Ok(())
}

/// One epoch's point of [`texel_svg`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LossPoint {
    /// Epochs done.
    pub epoch: usize,
    /// Loss on the training positions.
    pub train: f64,
    /// Loss on the held-out positions (`None` without any).
    pub validation: Option<f64>,
}

/// `texel.svg`: training and validation loss per epoch (epoch 0 = before tuning).
pub fn texel_svg(path: &Path, initial: &LossPoint, history: &[LossPoint]) -> Result<(), PlotError> {
    let rows: Vec<&LossPoint> = std::iter::once(initial).chain(history).collect();
    let values = rows
        .iter()
        .flat_map(|r| std::iter::once(r.train).chain(r.validation))
        .filter(|v| v.is_finite());
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (0.0, 1.0) };
    let pad = ((hi - lo) * 0.05).max(hi.abs() * 1e-6).max(1e-12);
    let last = rows.last().map_or(1, |r| r.epoch).max(1) as f64;
    let draw = || -> Result<(), Box<dyn std::error::Error>> {
        let root = SVGBackend::new(path, (900, 540)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption("Texel tuning: loss per epoch", ("sans-serif", 22))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(80)
            .build_cartesian_2d(0f64..last, (lo - pad)..(hi + pad))?;
        chart
            .configure_mesh()
            .x_desc("epoch")
            .x_labels((last as usize + 1).min(11))
            .x_label_formatter(&|v| tick_label(*v))
            .y_desc("mean squared error")
            .y_label_formatter(&|v| format!("{v:.5}"))
            .draw()?;
        chart
            .draw_series(LineSeries::new(
                rows.iter().map(|r| (r.epoch as f64, r.train)),
                BLUE.stroke_width(2),
            ))?
            .label("train")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE.stroke_width(2)));
        if rows.iter().all(|r| r.validation.is_some()) {
            chart
                .draw_series(LineSeries::new(
                    rows.iter()
                        .filter_map(|r| r.validation.map(|v| (r.epoch as f64, v))),
                    RED.stroke_width(2),
                ))?
                .label("validation")
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RED.stroke_width(2)));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()?;
        root.present()?;
        Ok(())
    };
    draw().map_err(err(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_labels_have_only_the_decimals_they_need() {
        assert_eq!(tick_label(1600.0), "1600");
        assert_eq!(tick_label(-200.0), "-200");
        assert_eq!(tick_label(0.5), "0.5");
        assert_eq!(tick_label(2.25), "2.25");
        assert_eq!(tick_label(-0.0), "0");
        assert_eq!(tick_label(1e-9), "0");
        assert_eq!(tick_label(0.1 + 0.2), "0.3");
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("chuhan-plots-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    /// The texts of an SVG's `<text>` elements.
    fn texts(svg: &str) -> Vec<String> {
        svg.split("<text")
            .skip(1)
            .filter_map(|t| t.split_once('>').map(|(_, rest)| rest))
            .filter_map(|t| {
                t.split_once("</text>")
                    .map(|(text, _)| text.trim().to_string())
            })
            .collect()
    }

    #[test]
    fn ladder_ticks_are_round_numbers() {
        let path = scratch("ladder.svg");
        let points = vec![
            ("a".to_string(), 1500.0, 1450.0, 1550.0),
            ("b".to_string(), 1650.0, 1600.0, 1700.0),
        ];
        ladder_svg(&path, "t", &points).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        let numbers: Vec<String> = texts(&svg)
            .into_iter()
            .filter(|t| t.parse::<f64>().is_ok())
            .collect();
        assert!(numbers.len() >= 3, "{numbers:?}");
        for n in &numbers {
            assert!(!n.contains('.'), "{n} in {numbers:?}");
        }
    }

    #[test]
    fn node_budgets_go_on_a_log2_axis_with_power_of_two_ticks() {
        let path = scratch("calibration.svg");
        let points: Vec<(f64, f64, f64, f64)> = [250.0, 1000.0, 4000.0, 16000.0]
            .iter()
            .map(|&n: &f64| {
                let e = 100.0 * (n / 250.0).log2();
                (n, e, e - 30.0, e + 30.0)
            })
            .collect();
        let curve: Vec<(f64, f64)> = (0..=16)
            .map(|i| {
                let n = 250.0 * 2f64.powf(f64::from(i) * 6.0 / 16.0);
                (n, 100.0 * (n / 250.0).log2())
            })
            .collect();
        let plot = CurvePlot {
            title: "Elo by nodes",
            x_label: "nodes",
            points: &points,
            curve: &curve,
            chosen: &[],
            log_x: true,
        };
        curve_svg(&path, &plot).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        let all = texts(&svg);
        assert!(all.iter().any(|t| t == "nodes (log scale)"), "{all:?}");
        let ticks: Vec<f64> = all.iter().filter_map(|t| t.parse::<f64>().ok()).collect();
        // x ticks: powers of two from 256 to 16384, equally spaced on the page.
        for p in [256.0, 512.0, 1024.0, 2048.0, 4096.0, 8192.0, 16384.0] {
            assert!(ticks.contains(&p), "{p} missing from {ticks:?}");
        }
        let xs: Vec<f64> = [256, 1024, 4096]
            .iter()
            .map(|p| tick_x(&svg, &p.to_string()))
            .collect();
        assert!(
            ((xs[1] - xs[0]) - (xs[2] - xs[1])).abs() < 2.0,
            "log spacing: {xs:?}"
        );
    }

    /// The x attribute of the `<text>` element whose text is `label`.
    fn tick_x(svg: &str, label: &str) -> f64 {
        let end = svg
            .find(&format!(">\n{label}\n</text>"))
            .or_else(|| svg.find(&format!(">{label}</text>")))
            .unwrap_or_else(|| panic!("no tick {label}"));
        let start = svg[..end].rfind("<text").unwrap();
        let tag = &svg[start..end];
        let x = tag.split("x=\"").nth(1).unwrap().split('"').next().unwrap();
        x.parse().unwrap()
    }
}
