//! `chuhan tune nnue` as a user runs it: the folder it writes (a network, an engine file that
//! plays with it, the losses), reproducibility across thread counts, the network in `bench`
//! and in games, and clear errors for unusable input and broken network files.

use crate::fixtures as common;

use chuhan_arena::play::config::{builtin_levels, load_engine_config};
use chuhan_engine::eval::nnue::Network;
use std::path::{Path, PathBuf};

use common::{chuhan, data_text, scratch};

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn train(data: &Path, out: &Path, threads: &str, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec![
        "tune",
        "nnue",
        "--data",
        data.to_str().unwrap(),
        "--hidden",
        "8",
        "--epochs",
        "4",
        "--batch",
        "256",
        "--lambda",
        "0.5",
        "--seed",
        "3",
        "--threads",
        threads,
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    chuhan(&args)
}

/// One game pair of the engine file `engine` against `default` at 300 nodes a move.
fn one_pair(engine: &Path, out: &Path) -> (i32, String, String) {
    chuhan(&[
        "match",
        "--player",
        engine.to_str().unwrap(),
        "--player",
        "default",
        "--pairs",
        "1",
        "--nodes",
        "300",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ])
}

#[test]
fn a_network_is_trained_written_reproducibly_and_plays() {
    let dir = scratch("nnue-cli", "run");
    let data = write(&dir, "data.txt", &data_text(30, 1));
    let out = dir.join("out");
    let (code, stdout, stderr) = train(&data, &out, "1", &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stderr.matches("epoch ").count(),
        5,
        "epochs 0 to 4: {stderr}"
    );
    assert!(
        stdout.contains("loss of the handcrafted evaluation") && stdout.contains("kept epoch"),
        "{stdout}"
    );

    let bytes = std::fs::read(out.join("network.nnue")).unwrap();
    let net = Network::from_bytes(&bytes).unwrap();
    assert_eq!(net.hidden(), 8);
    // Training lowered the training loss from the initial weights'.
    let csv = std::fs::read_to_string(out.join("nnue.csv")).unwrap();
    let train_loss: Vec<f64> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(train_loss.len(), 5, "{csv}");
    assert!(train_loss[4] < train_loss[0], "{csv}");

    // The engine file loads with the network, and plays.
    let config = load_engine_config(&out.join("engine.toml"), &builtin_levels()).unwrap();
    assert_eq!(config.network.as_deref(), Some(&net));
    let engine = out.join("engine.toml");
    let (code, _, stderr) = one_pair(&engine, &dir.join("match"));
    assert_eq!(code, 0, "{stderr}");
    // The bench with the network searches another tree than the signature's.
    let (code, stdout, stderr) = chuhan(&[
        "bench",
        "--depth",
        "4",
        "--network",
        out.join("network.nnue").to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let (_, plain, _) = chuhan(&["bench", "--depth", "4"]);
    let nodes = |s: &str| {
        s.lines()
            .find(|l| l.starts_with("nodes: "))
            .map(str::to_string)
    };
    assert!(nodes(&stdout).is_some() && nodes(&stdout) != nodes(&plain));

    // A residual network says so in its file.
    let (code, stdout, stderr) = train(&data, &dir.join("residual"), "1", &["--residual"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("residual"), "{stdout}");
    let residual =
        Network::from_bytes(&std::fs::read(dir.join("residual/network.nnue")).unwrap()).unwrap();
    assert!(residual.residual() && !net.residual());

    // Two threads: the same network, byte for byte.
    let (code, _, stderr) = train(&data, &out, "2", &["--force"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(std::fs::read(out.join("network.nnue")).unwrap(), bytes);
    assert_eq!(std::fs::read_to_string(out.join("nnue.csv")).unwrap(), csv);
}

#[test]
fn unusable_input_and_broken_networks_are_refused_by_name() {
    let dir = scratch("nnue-cli", "bad");
    let data = write(&dir, "data.txt", &data_text(4, 2));
    let (code, _, stderr) = train(&dir.join("missing.txt"), &dir.join("o1"), "1", &[]);
    assert_eq!(code, 2);
    assert!(stderr.contains("missing.txt"), "{stderr}");
    let (code, _, stderr) = chuhan(&[
        "tune",
        "nnue",
        "--data",
        data.to_str().unwrap(),
        "--hidden",
        "0",
        "--out",
        dir.join("o2").to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--hidden 0"), "{stderr}");
    let bad = write(&dir, "bad.txt", "not a fen;1;3;0\n");
    let (code, _, stderr) = train(&bad, &dir.join("o3"), "1", &[]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("bad.txt") && stderr.contains("line 1"),
        "{stderr}"
    );

    // An engine file whose network is missing or not a network.
    write(&dir, "garbage.nnue", "garbage");
    for (file, network, expected) in [
        ("none.toml", "nowhere.nnue", "cannot read"),
        ("garbage.toml", "garbage.nnue", "not a Chuhan network"),
    ] {
        let engine = write(&dir, file, &format!("network = \"{network}\"\n"));
        let (code, _, stderr) = one_pair(&engine, &dir.join(format!("m-{file}")));
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.contains(file) && stderr.contains(network) && stderr.contains(expected),
            "{stderr}"
        );
    }
}
