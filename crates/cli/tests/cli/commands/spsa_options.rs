//! `chuhan tune spsa` over an external engine's options (`option:NAME`), through the real
//! binary with the test engine, whose `Greed` option changes its play: theta moves (and only
//! because the option reaches the engine), the run is the same at any concurrency and after a
//! resume, tuned.toml is an engine file with the tuned value, and mismatched parameters are
//! clear errors.

use crate::fixtures as common;

use common::misbehave_exe;

use std::path::{Path, PathBuf};

use common::chuhan;

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("spsa-options-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The test engine as an engine file (`protocol` uci or ucci) with Greed 10 set in the file.
fn engine(dir: &Path, protocol: &str) -> PathBuf {
    let flags = if protocol == "ucci" { "\"--ucci\"" } else { "" };
    let text = format!(
        "name = \"greedy-test\"\n[uci]\ncommand = {:?}\nargs = [{flags}]\nprotocol = \"{protocol}\"\n[uci.options]\nGreed = 10\n",
        misbehave_exe()
    );
    let path = dir.join(format!("engine-{protocol}.toml"));
    std::fs::write(&path, text).unwrap();
    path
}

fn spsa_args<'a>(
    base: &'a str,
    params: &'a str,
    flag: &'a str,
    dir: &'a str,
    conc: &'a str,
) -> Vec<&'a str> {
    vec![
        "tune",
        "spsa",
        "--base",
        base,
        "--params-file",
        params,
        "--iterations",
        "30",
        "--nodes",
        "10",
        "--seed",
        "5",
        "--quiet",
        "--concurrency",
        conc,
        flag,
        dir,
    ]
}

/// Theta per spsa.csv row.
fn thetas(csv: &str) -> Vec<f64> {
    csv.lines()
        .skip(1)
        .map(|l| l.rsplit(',').next().unwrap().parse().unwrap())
        .collect()
}

#[test]
fn options_are_tuned_reproducibly_and_resumably() {
    let root = scratch("greed");
    let params = root.join("params.txt");
    std::fs::write(&params, "option:Greed, 30, 0, 100, 10, 0.05\n").unwrap();
    let p = params.to_str().unwrap();
    for protocol in ["uci", "ucci"] {
        let base = engine(&root, protocol);
        let b = base.to_str().unwrap();
        let one = root.join(format!("{protocol}-one"));
        let two = root.join(format!("{protocol}-two"));
        let (code, out, err) = chuhan(&spsa_args(b, p, "--out", one.to_str().unwrap(), "1"));
        assert_eq!(code, 0, "{out}\n{err}");
        assert!(out.contains("option:Greed"), "{out}");
        let (code, out, err) = chuhan(&spsa_args(b, p, "--out", two.to_str().unwrap(), "2"));
        assert_eq!(code, 0, "{out}\n{err}");
        let csv = read(&one.join("spsa.csv"));
        assert!(
            csv.starts_with("iteration,c_k/c_end,R_k/r_end,W,D,L,option:Greed\n"),
            "{csv}"
        );
        assert_eq!(csv.lines().count(), 31);
        assert_eq!(
            csv,
            read(&two.join("spsa.csv")),
            "concurrency changed the run"
        );
        // The greedier side wins more, so theta climbs. Were Greed never sent, both sides
        // would play the same moves, each pair (colours swapped) would split 1-1 and theta
        // would never leave 30.
        let t = thetas(&csv);
        let last = *t.last().unwrap();
        assert!(last > 40.0, "theta did not climb: {t:?}");
        // tuned.toml is an engine file with the tuned value, rounded.
        let tuned = chuhan_arena::play::player::uci::load_external(&one.join("tuned.toml"))
            .unwrap()
            .expect("tuned.toml is an external engine file");
        assert_eq!(
            tuned.options,
            [("Greed".to_string(), (last.round() as i64).to_string())]
        );
        assert_eq!(tuned.command, misbehave_exe());
        // Interrupted after 12 rows and half a line: the resumed run ends the same.
        let cut = root.join(format!("{protocol}-cut"));
        std::fs::create_dir_all(&cut).unwrap();
        std::fs::copy(one.join("manifest.toml"), cut.join("manifest.toml")).unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        let partial = format!(
            "{}\n{}",
            lines[..13].join("\n"),
            &lines[13][..lines[13].len() / 2]
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
    }
}

#[test]
fn parameters_must_suit_the_base_engine() {
    let root = scratch("mismatch");
    let base = engine(&root, "uci");
    let b = base.to_str().unwrap();
    let write = |name: &str, text: &str| {
        let path = root.join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let cases = [
        (
            b,
            write("table.txt", "eval.tempo, 3, -20, 40, 6, 0.05\n"),
            "built-in table parameter",
        ),
        (
            b,
            write("unknown.txt", "option:Skill, 3, 0, 20, 2, 0.05\n"),
            "declares no option 'Skill'",
        ),
        (
            "default",
            write("option.txt", "option:Greed, 3, 0, 20, 2, 0.05\n"),
            "is an engine option",
        ),
    ];
    for (i, (base, params, message)) in cases.iter().enumerate() {
        let out = root.join(format!("run-{i}"));
        let (code, _, err) = chuhan(&spsa_args(
            base,
            params.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "1",
        ));
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(message), "{message} missing from: {err}");
        assert!(
            !out.join("spsa.csv").exists(),
            "a refused run wrote {}",
            out.display()
        );
    }
}

#[test]
fn options_by_name_take_the_declared_spin_and_the_files_value() {
    let root = scratch("by-name");
    let base = engine(&root, "ucci");
    let out = root.join("run");
    let args = |list: &'static str, out: &Path| -> (i32, String, String) {
        chuhan(&[
            "tune",
            "spsa",
            "--base",
            base.to_str().unwrap(),
            "--params",
            list,
            "--iterations",
            "3",
            "--nodes",
            "10",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let (code, stdout, err) = args("option:greed", &out);
    assert_eq!(code, 0, "{stdout}\n{err}");
    // Start 10 from the engine file, range 0-100 and c_end 5 from the engine's declaration.
    let manifest = read(&out.join("manifest.toml"));
    for part in [
        "name = \"option:Greed\"",
        "start = 10.0",
        "min = 0.0",
        "max = 100.0",
        "c_end = 5.0",
    ] {
        assert!(manifest.contains(part), "{part} missing from\n{manifest}");
    }
    let (code, _, err) = args("option:Nope", &root.join("run-nope"));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("no spin option 'Nope' (its spins: Greed)"),
        "{err}"
    );
    assert!(!root.join("run-nope").exists());
}
