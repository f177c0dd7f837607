//! `chuhan tune texel` as a user runs it: the results folder, reproducibility across thread
//! counts, and exit code 2 with a precise message for unusable input.

use crate::fixtures as common;

use chuhan_arena::play::config::{builtin_levels, load_engine_config};
use chuhan_engine::Params;
use std::path::{Path, PathBuf};

use common::{chuhan, data_text};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir()
        .join(format!("chuhan-texel-cli-{}", std::process::id()))
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn a_small_run_writes_the_results_folder_reproducibly() {
    let dir = temp_dir("run");
    let data = write(&dir, "data.txt", &data_text(30, 1));
    let out = dir.join("out");
    let args = |threads: &str| {
        vec![
            "tune".to_string(),
            "texel".into(),
            "--data".into(),
            data.display().to_string(),
            "--epochs".into(),
            "5".into(),
            "--seed".into(),
            "3".into(),
            "--threads".into(),
            threads.into(),
            "--out".into(),
            out.display().to_string(),
        ]
    };
    let run = |extra: &[&str], threads: &str| {
        let mut a = args(threads);
        a.extend(extra.iter().map(|s| s.to_string()));
        chuhan(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let (code, stdout, stderr) = run(&[], "1");
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("K: ") && stdout.contains("final loss: train"),
        "{stdout}"
    );
    // Without a terminal the progress is a plain line per epoch.
    assert_eq!(stderr.matches("epoch ").count(), 5, "{stderr}");

    let config = load_engine_config(&out.join("tuned.toml"), &builtin_levels()).unwrap();
    assert_eq!(config.name, "texel");
    assert_ne!(
        config.params,
        Params::default(),
        "five epochs move something"
    );

    let csv = std::fs::read_to_string(out.join("texel.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows[0], "epoch,train_loss,validation_loss");
    assert_eq!(rows.len(), 6, "{csv}");
    for (i, row) in rows[1..].iter().enumerate() {
        let f: Vec<&str> = row.split(',').collect();
        assert_eq!(f[0], (i + 1).to_string());
        assert!(f[1].parse::<f64>().unwrap() > 0.0);
        assert!(f[2].parse::<f64>().unwrap() > 0.0);
    }
    let svg = std::fs::read_to_string(out.join("texel.svg")).unwrap();
    assert!(svg.contains("<svg") && svg.contains("validation"), "svg");
    let summary = std::fs::read_to_string(out.join("summary.txt")).unwrap();
    assert!(
        summary.contains("K: ") && summary.contains("largest changes"),
        "{summary}"
    );

    // The folder is not overwritten silently.
    let (code, _, stderr) = run(&[], "1");
    assert_eq!(code, 2);
    assert!(stderr.contains("--force"), "{stderr}");

    // With --force and two threads: the same files.
    let toml = std::fs::read_to_string(out.join("tuned.toml")).unwrap();
    let (code, _, stderr) = run(&["--force"], "2");
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        std::fs::read_to_string(out.join("tuned.toml")).unwrap(),
        toml
    );
    assert_eq!(std::fs::read_to_string(out.join("texel.csv")).unwrap(), csv);
}

#[test]
fn a_base_config_is_the_starting_point_and_is_kept() {
    let dir = temp_dir("base");
    let data = write(&dir, "data.txt", &data_text(10, 2));
    let base = write(
        &dir,
        "base.toml",
        "name = \"mine\"\nevaluation = \"handcrafted\"\n[search]\nlmr = false\n[params]\nmaterial.horse = 440\nsearch.contempt = 50\n",
    );
    let out = dir.join("out");
    let (code, _, stderr) = chuhan(&[
        "tune",
        "texel",
        "--data",
        data.to_str().unwrap(),
        "--params",
        "material.cannon,eval.tempo",
        "--epochs",
        "3",
        "--lr",
        "2",
        "--base",
        base.to_str().unwrap(),
        "--validation",
        "0",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let config = load_engine_config(&out.join("tuned.toml"), &builtin_levels()).unwrap();
    assert_eq!(config.params.value("material.horse"), Ok(440));
    assert_eq!(config.params.value("search.contempt"), Ok(50));
    assert!(!config.options.lmr);
    assert!(
        config.network.is_none(),
        "the tuned file acts on the handcrafted evaluation it was fitted for"
    );
    // The tuned value moved (a frozen optimizer would leave the start value, the default) by
    // at most 3 steps of 2.
    let start = Params::default().value("material.cannon").unwrap();
    let cannon = config.params.value("material.cannon").unwrap();
    assert!(
        cannon != start && (start - 6..=start + 6).contains(&cannon),
        "3 steps of 2 from {start}, and not {start}: {cannon}"
    );
}

#[test]
fn unusable_input_exits_2_and_says_where() {
    let dir = temp_dir("bad");
    let good = data_text(2, 3);
    let mut lines: Vec<&str> = good.lines().collect();
    lines.insert(
        4,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w;1;0",
    );
    let bad = write(&dir, "bad.txt", &(lines.join("\n") + "\n"));
    let out = dir.join("out");
    let (code, _, stderr) = chuhan(&[
        "tune",
        "texel",
        "--data",
        bad.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("bad.txt") && stderr.contains("line 5"),
        "{stderr}"
    );
    assert!(!out.exists(), "nothing written on failure");

    let data = write(&dir, "data.txt", &good);
    let run = |params: &str| {
        chuhan(&[
            "tune",
            "texel",
            "--data",
            data.to_str().unwrap(),
            "--params",
            params,
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let (code, _, stderr) = run("material,queen");
    assert_eq!(code, 2);
    assert!(stderr.contains("'queen'"), "{stderr}");
    let (code, _, stderr) = run("search.contempt");
    assert_eq!(code, 2);
    assert!(
        stderr.contains("search.contempt") && stderr.contains("not linear"),
        "{stderr}"
    );
    let (code, _, stderr) = chuhan(&[
        "tune",
        "texel",
        "--data",
        dir.join("missing.txt").to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("missing.txt"), "{stderr}");
}

/// `--lambda` and `--max-eval`: out-of-range values are exit 2 naming the flag; a run fitting
/// the recorded scores says how many positions it left out and records both in summary.txt.
#[test]
fn lambda_and_max_eval() {
    let dir = temp_dir("lambda");
    let data = write(&dir, "data.txt", &data_text(6, 5));
    let out = dir.join("out");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "tune",
            "texel",
            "--data",
            data.to_str().unwrap(),
            "--params",
            "material,eg.material",
            "--epochs",
            "5",
            "--out",
            out.to_str().unwrap(),
            "--force",
        ];
        args.extend_from_slice(extra);
        chuhan(&args)
    };
    for arg in ["--lambda=1.5", "--lambda=-0.1", "--max-eval=-1"] {
        let (code, _, stderr) = run(&[arg]);
        assert_eq!(code, 2, "{arg}");
        let flag = arg.split('=').next().unwrap();
        assert!(stderr.contains(&format!("{flag} ")), "{arg}: {stderr}");
        assert!(stderr.contains("must be"), "{arg}: {stderr}");
    }
    // Every score beyond the bound: nothing left to fit is an error naming the flag.
    let (code, _, stderr) = run(&["--max-eval", "0.5"]);
    let scored_zero = data_text(6, 5)
        .lines()
        .filter(|l| !l.starts_with('#') && l.ends_with(";0"))
        .count();
    assert_eq!(scored_zero == 0, code == 2, "{stderr}");
    if code == 2 {
        assert!(
            stderr.contains("--max-eval") && stderr.contains("data.txt"),
            "{stderr}"
        );
    }
    let (code, _, stderr) = run(&["--lambda", "0", "--max-eval", "100"]);
    assert_eq!(code, 0, "{stderr}");
    let beyond = data_text(6, 5)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter(|l| l.rsplit(';').next().unwrap().parse::<i32>().unwrap().abs() > 100)
        .count();
    assert!(beyond > 0, "the data has positions beyond 100");
    assert!(
        stderr.contains(&format!("left out {beyond} positions")),
        "{stderr}"
    );
    let summary = std::fs::read_to_string(out.join("summary.txt")).unwrap();
    assert!(summary.contains("lambda 0, max-eval 100"), "{summary}");
}

#[test]
fn datagen_output_is_tuned_end_to_end() {
    let dir = temp_dir("datagen");
    let data = dir.join("data.txt");
    let (code, _, stderr) = chuhan(&[
        "datagen",
        "--games",
        "6",
        "--nodes",
        "300",
        "--max-plies",
        "120",
        "--concurrency",
        "1",
        "--out",
        data.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let text = std::fs::read_to_string(&data).unwrap();
    let positions = text.lines().filter(|l| !l.starts_with('#')).count();
    let games = text.lines().filter(|l| l.starts_with("#game")).count();
    let with_positions = text
        .lines()
        .filter(|l| l.starts_with("#game") && !l.ends_with(" 0"))
        .count();
    assert_eq!(games, 6);
    let out = dir.join("out");
    let (code, stdout, stderr) = chuhan(&[
        "tune",
        "texel",
        "--data",
        data.to_str().unwrap(),
        "--epochs",
        "3",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains(&format!(
            "positions: {positions} from {with_positions} games"
        )),
        "{stdout}"
    );
    load_engine_config(&out.join("tuned.toml"), &builtin_levels()).unwrap();
}

#[test]
fn datagen_resume_takes_the_file_and_finishes_it_as_one_run_would() {
    let dir = temp_dir("datagen-resume");
    let datagen = |games: &str, flag: &str, file: &Path| {
        let (code, _, stderr) = chuhan(&[
            "datagen",
            "--games",
            games,
            "--nodes",
            "300",
            "--max-plies",
            "80",
            "--concurrency",
            "2",
            "--quiet",
            flag,
            file.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{stderr}");
        assert!(stderr.is_empty(), "--quiet prints no progress: {stderr}");
    };
    let whole = dir.join("whole.txt");
    let parts = dir.join("parts.txt");
    datagen("4", "--out", &whole);
    datagen("2", "--out", &parts);
    // A torn last line, as an interrupted run leaves it: cut away on resume.
    let mut text = std::fs::read_to_string(&parts).unwrap();
    text.push_str("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1");
    std::fs::write(&parts, text).unwrap();
    datagen("4", "--resume", &parts);
    assert_eq!(
        std::fs::read_to_string(&parts).unwrap(),
        std::fs::read_to_string(&whole).unwrap()
    );
    // Writing over a non-empty file needs --resume, and the error says so.
    let (code, _, stderr) = chuhan(&["datagen", "--games", "1", "--out", whole.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--resume"), "{stderr}");
}

/// `--patience`: the run ends that many epochs after the lowest validation loss, writes that
/// epoch's weights and says so; without held-out games it is refused, naming the flag.
#[test]
fn patience_stops_early_and_keeps_the_lowest_validation_loss() {
    let dir = temp_dir("patience");
    let data = write(&dir, "data.txt", &data_text(60, 1));
    // Material far from the values that labelled the games: the validation loss falls first,
    // then the piece-square values fit the noise of 60 games.
    let base = write(
        &dir,
        "base.toml",
        "evaluation = \"handcrafted\"\n[params]\nmaterial.horse = 300\nmaterial.chariot = 1400\nmaterial.cannon = 600\n",
    );
    let out = dir.join("out");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "tune",
            "texel",
            "--data",
            data.to_str().unwrap(),
            "--seed",
            "3",
            "--lr",
            "4",
            "--params",
            "material,pst",
            "--base",
            base.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--force",
        ];
        args.extend_from_slice(extra);
        chuhan(&args)
    };
    let (code, _, stderr) = run(&["--epochs", "400", "--patience", "5"]);
    assert_eq!(code, 0, "{stderr}");
    let csv = std::fs::read_to_string(out.join("texel.csv")).unwrap();
    let losses: Vec<(usize, f64)> = csv
        .lines()
        .skip(1)
        .map(|row| {
            let f: Vec<&str> = row.split(',').collect();
            (f[0].parse().unwrap(), f[2].parse().unwrap())
        })
        .collect();
    assert!(losses.len() < 400, "stopped early: {} epochs", losses.len());
    let (best, _) = losses
        .iter()
        .copied()
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap();
    assert_eq!(losses.len(), best + 5, "{csv}");
    let summary = std::fs::read_to_string(out.join("summary.txt")).unwrap();
    assert!(
        summary.contains(&format!(
            "early stopping: kept the weights of epoch {best}, the lowest validation loss"
        )),
        "{summary}"
    );
    assert!(
        summary.contains("400 epochs at most (patience 5)"),
        "{summary}"
    );
    // The written weights are those of that epoch: a run of exactly `best` epochs writes them.
    let kept = std::fs::read_to_string(out.join("tuned.toml")).unwrap();
    let (code, _, stderr) = run(&["--epochs", &best.to_string()]);
    assert_eq!(code, 0, "{stderr}");
    let plain = std::fs::read_to_string(out.join("tuned.toml")).unwrap();
    let params = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.contains(" = ") && !l.starts_with('#'))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(params(&kept), params(&plain));

    for (extra, says) in [
        (&["--patience", "0"][..], "--patience"),
        (&["--patience", "3", "--validation", "0"][..], "--patience"),
    ] {
        let (code, _, stderr) = run(extra);
        assert_eq!(code, 2, "{extra:?}: {stderr}");
        assert!(stderr.contains(says), "{extra:?}: {stderr}");
    }
    // One game: nothing can be held out.
    let one = write(&dir, "one.txt", &data_text(1, 2));
    let (code, _, stderr) = chuhan(&[
        "tune",
        "texel",
        "--data",
        one.to_str().unwrap(),
        "--patience",
        "3",
        "--out",
        out.to_str().unwrap(),
        "--force",
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("one.txt") && stderr.contains("--patience"),
        "{stderr}"
    );
}
