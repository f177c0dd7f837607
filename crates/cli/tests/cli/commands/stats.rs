//! `chuhan stats` against the golden values of docs/statistics.md, through the real binary.

use std::process::Command;

fn stats(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .arg("stats")
        .args(args)
        .output()
        .expect("chuhan runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.push("--json");
    let (code, out, err) = stats(&all);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).expect("one JSON object")
}

fn close(v: &serde_json::Value, key: &str, expected: f64, tol: f64) {
    let got = v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("{key} missing in {v}"));
    assert!(
        (got - expected).abs() <= tol,
        "{key}: got {got}, expected {expected}"
    );
}

#[test]
fn trinomial_golden_values() {
    let v = json(&["--counts", "96,111,136"]);
    close(&v, "elo", 40.70, 0.005);
    close(&v, "elo_ci95", 30.43, 0.005);
    close(&v, "nelo", 49.77, 0.005);
    close(&v, "nelo_ci95", 36.77, 0.005);
    close(&v, "los", 0.9960, 0.00005);
    close(&v, "draw_ratio", 111.0 / 343.0, 1e-9);
    assert!(v.get("llr").is_none());
}

#[test]
fn pentanomial_golden_values() {
    let v = json(&["--counts", "34,54,63,64,75"]);
    close(&v, "elo", 55.58, 0.005);
    close(&v, "elo_ci95", 27.65, 0.005);
    close(&v, "nelo", 57.94, 0.005);
    close(&v, "nelo_ci95", 28.28, 0.005);
}

#[test]
fn llr_golden_values() {
    let cases: [(&str, &str, &str, &str, f64); 6] = [
        ("365,16618,36229,16974,390", "0", "2", "normalized", 2.2504),
        (
            "127,4883,10712,5150,104",
            "-1.75",
            "0.25",
            "normalized",
            3.0102,
        ),
        (
            "223,9863,21279,10037,246",
            "0.5",
            "2.5",
            "logistic",
            -3.0741,
        ),
        ("36027,68692,36433", "0", "2", "normalized", 0.9233),
        ("21184,40708,21404", "0.5", "2.5", "logistic", -1.5719),
        ("379,10170,21828,10640,343", "0", "2", "normalized", 2.9455),
    ];
    for (counts, e0, e1, model, llr) in cases {
        let v = json(&[
            "--counts", counts, "--elo0", e0, "--elo1", e1, "--model", model,
        ]);
        close(&v, "llr", llr, 0.00005);
        close(&v, "lower", -2.944, 0.0005);
        close(&v, "upper", 2.944, 0.0005);
        let expected = if llr >= 2.9444 {
            "H1"
        } else if llr <= -2.9444 {
            "H0"
        } else {
            "continue"
        };
        assert_eq!(v["verdict"], expected, "{counts}");
    }
}

#[test]
fn text_output_names_every_quantity() {
    let (code, out, _) = stats(&["--counts", "96,111,136", "--elo0", "0", "--elo1", "5"]);
    assert_eq!(code, 0);
    for word in ["Elo:", "nElo:", "LOS:", "draw ratio:", "LLR:", "verdict:"] {
        assert!(out.contains(word), "{word} missing in\n{out}");
    }
    // The estimate with its honest interval, which for 343 balanced games is fishtest's
    // 40.70 ± 30.43 to within a fraction of an Elo.
    let v = json(&["--counts", "96,111,136"]);
    let (lo, hi) = (
        v["elo_low"].as_f64().unwrap(),
        v["elo_high"].as_f64().unwrap(),
    );
    assert!(
        (lo - (40.70 - 30.43)).abs() < 0.6 && (hi - (40.70 + 30.43)).abs() < 0.6,
        "{v}"
    );
    assert!(
        out.contains(&format!("Elo:        +40.70 [{lo:+.2}, {hi:+.2}] (95%)")),
        "{out}"
    );
}

/// The lopsided count, 43 wins, 1 draw and 2 losses, read `Elo: 496.22 ± inf`: now a
/// finite asymmetric interval in the text, and `--json` keeps fishtest's half-width beside it.
#[test]
fn lopsided_counts_print_a_finite_interval() {
    let (code, out, err) = stats(&["--counts", "2,1,43"]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("inf"), "{out}");
    let v = json(&["--counts", "2,1,43"]);
    let (lo, hi) = (
        v["elo_low"].as_f64().unwrap(),
        v["elo_high"].as_f64().unwrap(),
    );
    let elo = v["elo"].as_f64().unwrap();
    assert!(lo < elo && elo < hi && hi - elo > elo - lo, "{v}");
    assert!(
        out.contains(&format!("Elo:        {elo:+.2} [{lo:+.2}, {hi:+.2}] (95%)")),
        "{out}"
    );
    // fishtest's symmetric half-width is infinite here; JSON writes it as null, as before.
    assert!(v["elo_ci95"].is_null(), "{v}");
    let (nlo, nhi) = (
        v["nelo_low"].as_f64().unwrap(),
        v["nelo_high"].as_f64().unwrap(),
    );
    let nelo = v["nelo"].as_f64().unwrap();
    assert!(nlo < nelo && nelo < nhi, "{v}");
}

/// A perfect or zero score bounds one side only: `>= +X` as the ladder prints it (4 wins in 4
/// games: the win probability is at least 0.05^(1/4) with 95% confidence).
#[test]
fn perfect_and_zero_scores_print_one_sided_bounds() {
    let bound = -400.0 * (1.0 / 0.05f64.powf(0.25) - 1.0).log10();
    for (counts, text, side) in [
        (
            "0,0,4",
            format!("Elo:        >= {bound:+.2} (perfect score) (95%)"),
            "elo_low",
        ),
        (
            "4,0,0",
            format!("Elo:        <= {:+.2} (zero score) (95%)", -bound),
            "elo_high",
        ),
        (
            "0,0,0,0,2",
            format!("Elo:        >= {bound:+.2} (perfect score) (95%)"),
            "elo_low",
        ),
    ] {
        let (code, out, err) = stats(&["--counts", counts]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains(&text), "{counts}: {out}");
        assert!(
            out.contains("nElo:       >= ") || out.contains("nElo:       <= "),
            "{out}"
        );
        assert!(!out.contains("inf"), "{out}");
        let v = json(&["--counts", counts]);
        let open = if side == "elo_low" {
            "elo_high"
        } else {
            "elo_low"
        };
        let expected = if side == "elo_low" { bound } else { -bound };
        assert!((v[side].as_f64().unwrap() - expected).abs() < 1e-9, "{v}");
        assert!(v[open].is_null(), "{v}");
        let nopen = if side == "elo_low" {
            "nelo_high"
        } else {
            "nelo_low"
        };
        assert!(v[nopen].is_null() && v[&format!("n{side}")].is_f64(), "{v}");
    }
}

#[test]
fn bad_counts_exit_2_naming_the_problem() {
    for (counts, needle) in [
        ("1,2", "has 2 numbers"),
        ("1,2,3,4", "has 4 numbers"),
        ("1,x,3", "'x'"),
        ("1,-2,3", "'-2'"),
        ("0,0,0", "all counts are zero"),
        ("18446744073709551615,1,1", "does not fit in 64 bits"),
        ("18446744073709551615,0,0,0,1", "does not fit in 64 bits"),
        ("9223372036854775808,0,0,0,0", "does not fit in 64 bits"),
    ] {
        let (code, out, err) = stats(&["--counts", counts]);
        assert_eq!(code, 2, "{counts}: {out}{err}");
        assert!(err.contains(needle), "{counts}: {err}");
    }
    let (code, _, err) = stats(&["--counts", "1,2,3", "--elo0", "5", "--elo1", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("elo0 < elo1"), "{err}");
    let (code, _, err) = stats(&[
        "--counts", "1,2,3", "--elo0", "0", "--elo1", "5", "--model", "x",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--model"), "{err}");
}

#[test]
fn several_runs_are_pooled_and_tested_for_agreement() {
    // Runs L,D,W = 10,10,10 (mean score 1/2) and 20,10,0 (1/6) pool to 30,20,10 (1/3). By hand:
    // the pooled variance of a game about 1/3 is (30/9 + 20/36 + 40/9) / 60 = 5/36, and
    // chi2 = (30/36 + 30/36) / (5/36) = 12 on 1 degree of freedom.
    let two = json(&["--counts", "10,10,10", "--counts", "20,10,0"]);
    let pooled = json(&["--counts", "30,20,10"]);
    for key in ["games", "elo", "elo_low", "elo_high", "los"] {
        assert_eq!(two[key], pooled[key], "{key}: {two} vs {pooled}");
    }
    assert_eq!(two["runs"], 2);
    assert_eq!(two["df"], 1);
    close(&two, "chi2", 12.0, 1e-9);
    // P(chi2(1) >= 12) = erfc(sqrt(6)) = 0.000532.
    close(&two, "p_value", 0.000532, 0.000001);
    assert!(
        pooled.get("chi2").is_none(),
        "one run has no agreement test: {pooled}"
    );
    let (code, out, err) = stats(&["--counts", "10,10,10", "--counts", "20,10,0"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("runs:       2"), "{out}");
    assert!(
        out.contains("chi2 12.00 on 1 df") && out.contains("the runs disagree at p <= 0.01"),
        "{out}"
    );
    // Three runs that agree exactly, as pairs.
    let same = json(&[
        "--counts",
        "1,2,3,2,1",
        "--counts",
        "1,2,3,2,1",
        "--counts",
        "1,2,3,2,1",
    ]);
    assert_eq!(same["df"], 2);
    close(&same, "chi2", 0.0, 1e-12);
    let (_, out, _) = stats(&["--counts", "1,2,3,2,1", "--counts", "1,2,3,2,1"]);
    assert!(out.contains("the runs agree"), "{out}");
    // One form for every run.
    let (code, _, err) = stats(&["--counts", "1,2,3", "--counts", "1,2,3,2,1"]);
    assert_eq!(code, 2);
    assert!(err.contains("mixes game counts"), "{err}");
}
