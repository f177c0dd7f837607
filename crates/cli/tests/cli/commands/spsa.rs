//! `chuhan tune spsa` through the real binary: the same spsa.csv at any concurrency, resume
//! after an interruption mid-line, a loadable tuned.toml, and parameter-file errors.

use crate::fixtures as common;

use std::path::{Path, PathBuf};

use common::chuhan;

/// A fresh, absent directory under the test target's temporary folder.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("spsa-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

const PARAMS: &str = "# two parameters\n\
    material.horse, 430, 300, 600, 40, 0.05\n\
    eval.tempo,     3,   -20, 40,  6,  0.05  # tempo\n";

fn run_args<'a>(params: &'a str, out_flag: &'a str, dir: &'a str, conc: &'a str) -> Vec<&'a str> {
    vec![
        "tune",
        "spsa",
        "--base",
        "handcrafted",
        "--params-file",
        params,
        "--iterations",
        "6",
        "--nodes",
        "300",
        "--seed",
        "11",
        "--quiet",
        "--concurrency",
        conc,
        out_flag,
        dir,
    ]
}

#[test]
fn same_trajectory_at_any_concurrency_and_after_resume() {
    let root = scratch("determinism");
    std::fs::create_dir_all(&root).unwrap();
    let params = root.join("params.txt");
    std::fs::write(&params, PARAMS).unwrap();
    let p = params.to_str().unwrap();
    let one = root.join("one");
    let two = root.join("two");
    let (code, out, err) = chuhan(&run_args(p, "--out", one.to_str().unwrap(), "1"));
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("material.horse") && out.contains("chuhan sprt --base handcrafted --test")
    );
    let (code, out, err) = chuhan(&run_args(p, "--out", two.to_str().unwrap(), "2"));
    assert_eq!(code, 0, "{out}\n{err}");
    let csv = read(&one.join("spsa.csv"));
    assert_eq!(csv.lines().count(), 7, "{csv}");
    assert!(csv.starts_with("iteration,c_k/c_end,R_k/r_end,W,D,L,material.horse,eval.tempo\n"));
    assert_eq!(csv, read(&two.join("spsa.csv")));
    assert_eq!(read(&one.join("tuned.toml")), {
        read(&two.join("tuned.toml")).replace(two.to_str().unwrap(), one.to_str().unwrap())
    });
    // Something happened: theta moved in at least one iteration.
    let thetas: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.splitn(7, ',').nth(6).unwrap())
        .collect();
    assert!(thetas.windows(2).any(|w| w[0] != w[1]), "{csv}");
    let manifest = read(&one.join("manifest.toml"));
    assert!(manifest.contains("bench_signature") && manifest.contains("material.horse"));
    assert!(read(&one.join("spsa.svg")).contains("<svg"));
    // tuned.toml is an engine config with the final theta, rounded.
    let tuned = chuhan_arena::play::config::load_engine_config(
        &one.join("tuned.toml"),
        &chuhan_arena::play::config::builtin_levels(),
    )
    .unwrap();
    let last: Vec<f64> = csv
        .lines()
        .last()
        .unwrap()
        .split(',')
        .skip(6)
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(
        tuned.params.value("material.horse"),
        Ok(last[0].round() as i32)
    );
    assert_eq!(tuned.params.value("eval.tempo"), Ok(last[1].round() as i32));

    // Interrupt: keep the header, three rows and half of the fourth; resume at concurrency 2.
    let cut = root.join("cut");
    std::fs::create_dir_all(&cut).unwrap();
    std::fs::copy(one.join("manifest.toml"), cut.join("manifest.toml")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    let partial = format!(
        "{}\n{}",
        lines[..4].join("\n"),
        &lines[4][..lines[4].len() / 2]
    );
    std::fs::write(cut.join("spsa.csv"), partial).unwrap();
    let (code, out, err) = chuhan(&[
        "tune",
        "spsa",
        "--resume",
        cut.to_str().unwrap(),
        "--concurrency",
        "2",
        "--quiet",
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(read(&cut.join("spsa.csv")), csv);
    // The original command line with --resume is accepted too; a different one is refused.
    let (code, out, err) = chuhan(&run_args(p, "--resume", cut.to_str().unwrap(), "1"));
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(read(&cut.join("spsa.csv")), csv);
    let mut other = run_args(p, "--resume", cut.to_str().unwrap(), "1");
    assert_eq!(other[6], "--iterations");
    other[7] = "7";
    let (code, _, err) = chuhan(&other);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("differs"), "{err}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn parameter_file_errors_exit_2_naming_line_and_field() {
    let root = scratch("errors");
    std::fs::create_dir_all(&root).unwrap();
    let cases = [
        (
            "material.horse, 430, 300, 600, 15, 0.002\nmaterial.queen, 1, 0, 2, 1, 0.002\n",
            ":2: field 'name'",
        ),
        (
            "# start out of range\n\nmaterial.horse, 700, 300, 600, 15, 0.002\n",
            ":3: field 'start'",
        ),
        (
            "material.horse, 430, 600, 300, 15, 0.002\n",
            ":1: field 'min'",
        ),
        (
            "eval.tempo, 3, -20, 40, 3, 0.002\nmaterial.horse, 430, 300, 600, 0, 0.002\n",
            ":2: field 'c_end'",
        ),
        ("material.horse, 430, 300, 600, 15\n", ":1: field 'line'"),
    ];
    for (i, (text, expected)) in cases.iter().enumerate() {
        let file = root.join(format!("p{i}.txt"));
        std::fs::write(&file, text).unwrap();
        let out = root.join(format!("out{i}"));
        let (code, stdout, err) = chuhan(&[
            "tune",
            "spsa",
            "--params-file",
            file.to_str().unwrap(),
            "--iterations",
            "2",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 2, "{text}\n{stdout}\n{err}");
        assert!(err.contains(&format!("p{i}.txt{expected}")), "{err}");
        assert!(!out.exists(), "nothing is written for bad input");
    }
    // An existing, non-empty results folder is never overwritten.
    let full = root.join("full");
    std::fs::create_dir_all(&full).unwrap();
    std::fs::write(full.join("spsa.csv"), "keep me").unwrap();
    // `tune spsa --params eval.tempo` on the default base, into `out`.
    let tempo_into = |out: &Path| {
        chuhan(&[
            "tune",
            "spsa",
            "--params",
            "eval.tempo",
            "--iterations",
            "1",
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let (code, _, err) = tempo_into(&full);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not empty"), "{err}");
    assert_eq!(read(&full.join("spsa.csv")), "keep me");
    let (code, _, err) = chuhan(&["tune", "spsa", "--params", "material.queen"]);
    assert_eq!(code, 2);
    assert!(err.contains("material.queen"), "{err}");
    // The default engine evaluates with a network: tuning the handcrafted evaluation on it
    // would change nothing, so it is refused by name before anything is written; search
    // parameters are fine there.
    let net = root.join("net");
    let (code, _, err) = tempo_into(&net);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("'eval.tempo'") && err.contains("--base handcrafted"),
        "{err}"
    );
    assert!(!net.join("spsa.csv").exists(), "nothing is tuned");
    let _ = std::fs::remove_dir_all(&root);
}
