//! The golden values of `docs/statistics.md` (fastchess's test values, reproduced with fishtest's
//! code), checked through the public API.

use chuhan_stats::{Estimate, Pentanomial, Sprt, SprtModel, Trinomial};

fn close(actual: f64, expected: f64, tol: f64) {
    assert!(
        (actual - expected).abs() <= tol,
        "expected {expected} ± {tol}, got {actual}"
    );
}

fn sprt(elo0: f64, elo1: f64, model: SprtModel) -> Sprt {
    Sprt::new(elo0, elo1, 0.05, 0.05, model).unwrap()
}

const TRI: Trinomial = Trinomial {
    losses: 96,
    draws: 111,
    wins: 136,
};

fn penta_small() -> Pentanomial {
    Pentanomial::from_counts([34, 54, 63, 64, 75])
}

#[test]
fn golden_trinomial_elo() {
    let e = Estimate::from_trinomial(&TRI).unwrap();
    close(e.elo, 40.70, 0.005);
    close(e.elo_ci95, 30.43, 0.005);
}

#[test]
fn golden_trinomial_los() {
    let e = Estimate::from_trinomial(&TRI).unwrap();
    close(100.0 * e.los, 99.60, 0.005);
}

#[test]
fn golden_trinomial_nelo() {
    let e = Estimate::from_trinomial(&TRI).unwrap();
    close(e.nelo, 49.77, 0.005);
    close(e.nelo_ci95, 36.77, 0.005);
}

#[test]
fn golden_pentanomial_elo() {
    let e = Estimate::from_pentanomial(&penta_small()).unwrap();
    close(e.elo, 55.58, 0.005);
    close(e.elo_ci95, 27.65, 0.005);
    assert_eq!(e.games, 580);
    assert_eq!(e.draw_ratio, None);
}

#[test]
fn golden_pentanomial_nelo() {
    let e = Estimate::from_pentanomial(&penta_small()).unwrap();
    close(e.nelo, 57.94, 0.005);
    close(e.nelo_ci95, 28.28, 0.005);
}

#[test]
fn golden_llr_penta_normalized_0_2() {
    let pt = Pentanomial::from_counts([365, 16618, 36229, 16974, 390]);
    let llr = sprt(0.0, 2.0, SprtModel::Normalized)
        .llr_pentanomial(&pt)
        .unwrap();
    close(llr, 2.2504, 1e-4);
}

#[test]
fn golden_llr_penta_normalized_neg175_025() {
    let pt = Pentanomial::from_counts([127, 4883, 10712, 5150, 104]);
    let llr = sprt(-1.75, 0.25, SprtModel::Normalized)
        .llr_pentanomial(&pt)
        .unwrap();
    close(llr, 3.0102, 1e-4);
}

#[test]
fn golden_llr_penta_logistic_05_25() {
    let pt = Pentanomial::from_counts([223, 9863, 21279, 10037, 246]);
    let llr = sprt(0.5, 2.5, SprtModel::Logistic)
        .llr_pentanomial(&pt)
        .unwrap();
    close(llr, -3.0741, 1e-4);
}

#[test]
fn golden_llr_tri_normalized_0_2() {
    let t = Trinomial::new(36027, 68692, 36433);
    let llr = sprt(0.0, 2.0, SprtModel::Normalized)
        .llr_trinomial(&t)
        .unwrap();
    close(llr, 0.9233, 1e-4);
}

#[test]
fn golden_llr_tri_logistic_05_25() {
    let t = Trinomial::new(21184, 40708, 21404);
    let llr = sprt(0.5, 2.5, SprtModel::Logistic)
        .llr_trinomial(&t)
        .unwrap();
    close(llr, -1.5719, 1e-4);
}

#[test]
fn golden_llr_penta_normalized_0_2_second() {
    let pt = Pentanomial::from_counts([379, 10170, 21828, 10640, 343]);
    let llr = sprt(0.0, 2.0, SprtModel::Normalized)
        .llr_pentanomial(&pt)
        .unwrap();
    close(llr, 2.9455, 1e-4);
}

/// statistics.md's table of honest bounds: n wins in n games, exact one-sided 95%.
#[test]
fn golden_perfect_score_bounds() {
    use chuhan_stats::bound::{perfect_score_elo_bound, perfect_score_probability_bound};
    for (n, p, elo) in [
        (6, 0.6070, 75.5),
        (12, 0.7791, 218.9),
        (24, 0.8827, 350.5),
        (48, 0.9395, 476.4),
    ] {
        close(perfect_score_probability_bound(n, 0.95).unwrap(), p, 5e-5);
        close(perfect_score_elo_bound(n, 0.95).unwrap(), elo, 0.05);
    }
}
