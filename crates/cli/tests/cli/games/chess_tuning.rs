//! Tuning chess through the real binary: `tune spsa --game chess` over the chess evaluation's
//! table (seeded, resumable, a tuned chess engine file), and parameter names of the wrong game
//! refused with their name.

use crate::fixtures as common;

use std::path::{Path, PathBuf};

use common::chuhan;

/// A fresh, absent directory under the test target's temporary folder.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("chess-tuning-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Large learning rates so that six iterations visibly move theta.
const CHESS_PARAMS: &str = "# chess material\n\
    knight_mg, 337, 250, 450, 20, 0.05\n\
    tempo,     12,  -10, 40,  5,  0.05  # side to move\n";

fn spsa_args<'a>(params: &'a str, out_flag: &'a str, dir: &'a str) -> Vec<&'a str> {
    vec![
        "tune",
        "spsa",
        "--game",
        "chess",
        "--params-file",
        params,
        "--iterations",
        "6",
        "--nodes",
        "300",
        "--seed",
        "7",
        "--quiet",
        "--concurrency",
        "1",
        out_flag,
        dir,
    ]
}

#[test]
fn spsa_tunes_the_chess_table_and_resumes() {
    let root = scratch("spsa");
    std::fs::create_dir_all(&root).unwrap();
    let params = root.join("params.txt");
    std::fs::write(&params, CHESS_PARAMS).unwrap();
    let p = params.to_str().unwrap();
    let one = root.join("one");
    let (code, out, err) = chuhan(&spsa_args(p, "--out", one.to_str().unwrap()));
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("chuhan sprt --game chess --base default --test"),
        "{out}"
    );
    let csv = read(&one.join("spsa.csv"));
    assert!(
        csv.starts_with("iteration,c_k/c_end,R_k/r_end,W,D,L,knight_mg,tempo\n"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 7, "{csv}");
    let rows: Vec<Vec<f64>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').skip(6).map(|v| v.parse().unwrap()).collect())
        .collect();
    assert!(
        rows.iter().any(|t| t != &[337.0, 12.0]),
        "theta never moved: {csv}"
    );
    assert!(read(&one.join("manifest.toml")).contains("game = \"chess\""));

    // tuned.toml is a chess engine file holding the final theta, rounded; it plays chess.
    let tuned = one.join("tuned.toml");
    let text = read(&tuned);
    let last = rows.last().unwrap();
    assert!(text.contains("game = \"chess\""), "{text}");
    assert!(
        text.contains(&format!("knight_mg = {}\n", last[0].round() as i32)),
        "{text}"
    );
    assert!(
        text.contains(&format!("tempo = {}\n", last[1].round() as i32)),
        "{text}"
    );
    let config =
        chuhan_arena::play::player::builtin::resolve_chess_engine(tuned.to_str().unwrap()).unwrap();
    assert_eq!(config.params.knight_mg, last[0].round() as i32);

    // The same seed gives the same run; an interrupted run resumes to the same spsa.csv.
    let cut = root.join("cut");
    std::fs::create_dir_all(&cut).unwrap();
    std::fs::copy(one.join("manifest.toml"), cut.join("manifest.toml")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    let partial = format!(
        "{}\n{}",
        lines[..3].join("\n"),
        &lines[3][..lines[3].len() / 2]
    );
    std::fs::write(cut.join("spsa.csv"), partial).unwrap();
    let (code, out, err) = chuhan(&["tune", "spsa", "--resume", cut.to_str().unwrap(), "--quiet"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(read(&cut.join("spsa.csv")), csv);
    assert_eq!(
        read(&cut.join("tuned.toml")),
        text.replace(one.to_str().unwrap(), cut.to_str().unwrap())
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_parameter_of_the_other_game_is_an_error_naming_it() {
    let root = scratch("names");
    std::fs::create_dir_all(&root).unwrap();
    let xiangqi = root.join("xiangqi.txt");
    std::fs::write(
        &xiangqi,
        "knight_mg, 337, 250, 450, 20, 0.05\nmaterial.horse, 430, 300, 600, 15, 0.002\n",
    )
    .unwrap();
    let out_dir = root.join("run");
    let args = spsa_args(
        xiangqi.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
    );
    let (code, _, err) = chuhan(&args);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(":2: field 'name'") && err.contains("'material.horse' is a xiangqi parameter"),
        "{err}"
    );
    assert!(!out_dir.exists(), "nothing is written for a refused run");
    // --params takes chess names too, and refuses xiangqi ones by name.
    let (code, _, err) = chuhan(&[
        "tune",
        "spsa",
        "--game",
        "chess",
        "--params",
        "knight_mg,eval.tempo",
        "--iterations",
        "2",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("'eval.tempo' is a xiangqi parameter"), "{err}");
    // A chess name in a xiangqi run is unknown there.
    let chess = root.join("chess.txt");
    std::fs::write(&chess, CHESS_PARAMS).unwrap();
    let mut args = spsa_args(chess.to_str().unwrap(), "--out", out_dir.to_str().unwrap());
    args.drain(2..4);
    let (code, _, err) = chuhan(&args);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(":2: field 'name'") && err.contains("unknown parameter 'knight_mg'"),
        "{err}"
    );
    // A xiangqi engine file as the base of a chess run is refused naming it.
    let base = root.join("x.toml");
    std::fs::write(&base, "name = \"x\"\n").unwrap();
    let (code, _, err) = chuhan(&[
        "tune",
        "spsa",
        "--game",
        "chess",
        "--base",
        base.to_str().unwrap(),
        "--params-file",
        chess.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("x.toml is a xiangqi engine file"), "{err}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn datagen_plays_chess_in_the_same_line_format_and_resumes() {
    let root = scratch("datagen");
    std::fs::create_dir_all(&root).unwrap();
    let whole = root.join("whole.txt");
    let args = |flag: &'static str, file: &Path| -> Vec<String> {
        [
            "datagen",
            "--game",
            "chess",
            "--games",
            "5",
            "--nodes",
            "300",
            "--seed",
            "3",
            "--concurrency",
            "1",
            "--quiet",
            flag,
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([file.to_str().unwrap().to_string()])
        .collect()
    };
    let run = |a: Vec<String>| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        chuhan(&a)
    };
    let (code, out, err) = run(args("--out", &whole));
    assert_eq!(code, 0, "{out}\n{err}");
    let text = read(&whole);
    assert_eq!(text.lines().filter(|l| l.starts_with("#game ")).count(), 5);
    let mut positions = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split(';').collect();
        assert_eq!(f.len(), 4, "{line}");
        let pos = chuhan_engine::chess::Position::from_fen(f[0]).unwrap();
        assert!(!pos.in_check(), "{line}");
        assert!(matches!(f[1], "1" | "0.5" | "0"), "{line}");
        // The eval column is the chess static evaluation from White's view.
        let stm = chuhan_engine::chess::eval::evaluate(
            &pos,
            &chuhan_engine::chess::EvalParams::default(),
        );
        let white = if pos.side_to_move() == chuhan_engine::chess::Color::White {
            stm
        } else {
            -stm
        };
        assert_eq!(f[3].parse::<i32>().unwrap(), white, "{line}");
        positions += 1;
    }
    assert!(positions > 0, "{text}");
    let manifest = root.join("whole.txt.manifest.toml");
    assert!(read(&manifest).contains("game = \"chess\""));

    // Cut after the second game (and half a line): the resumed file is the whole one.
    let cut = root.join("cut.txt");
    let second = text.match_indices("#game 1 ").next().unwrap().0;
    let end = second + text[second..].find('\n').unwrap() + 1;
    std::fs::write(&cut, &text[..end + 20]).unwrap();
    std::fs::copy(&manifest, root.join("cut.txt.manifest.toml")).unwrap();
    let (code, out, err) = run(args("--resume", &cut));
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(read(&cut), text);
    // Resuming a chess file as xiangqi names the differing flag.
    let mut xiangqi = args("--resume", &cut);
    xiangqi.drain(1..3);
    let (code, _, err) = run(xiangqi);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("(--game)"), "{err}");

    // xiangqi Texel tuning refuses the chess file, naming file and line.
    let (code, _, err) = chuhan(&[
        "tune",
        "texel",
        "--data",
        whole.to_str().unwrap(),
        "--out",
        root.join("texel").to_str().unwrap(),
        "--epochs",
        "1",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("whole.txt: line 1: bad FEN") && err.contains("a chess position"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn texel_tunes_chess_data_from_datagen() {
    let root = scratch("texel");
    std::fs::create_dir_all(&root).unwrap();
    let data = root.join("data.txt");
    let (code, out, err) = chuhan(&[
        "datagen",
        "--game",
        "chess",
        "--games",
        "12",
        "--nodes",
        "300",
        "--seed",
        "5",
        "--quiet",
        "--out",
        data.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    let out_dir = root.join("tuned");
    let (code, out, err) = chuhan(&[
        "tune",
        "texel",
        "--game",
        "chess",
        "--data",
        data.to_str().unwrap(),
        "--params",
        "knight_mg,rook_mg,tempo",
        "--epochs",
        "30",
        "--validation",
        "0",
        "--threads",
        "1",
        "--quiet",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    // The training loss falls.
    let summary = read(&out_dir.join("summary.txt"));
    let losses = summary
        .lines()
        .find_map(|l| l.strip_prefix("loss: train "))
        .unwrap_or_else(|| panic!("{summary}"));
    let (before, after) = losses.split_once(" -> ").unwrap();
    let (before, after): (f64, f64) = (before.parse().unwrap(), after.parse().unwrap());
    assert!(after < before, "{summary}");
    // tuned.toml is a chess engine file; a tuned value moved, an untuned one did not.
    let tuned = chuhan_arena::play::player::builtin::resolve_chess_engine(
        out_dir.join("tuned.toml").to_str().unwrap(),
    )
    .unwrap();
    let defaults = chuhan_engine::chess::EvalParams::default();
    assert!(
        tuned.params.knight_mg != defaults.knight_mg
            || tuned.params.rook_mg != defaults.rook_mg
            || tuned.params.tempo != defaults.tempo,
        "{summary}"
    );
    assert_eq!(tuned.params.queen_mg, defaults.queen_mg);
    assert!(read(&out_dir.join("texel.csv")).lines().count() > 30);

    // A xiangqi file given to chess Texel is an error naming the file and line.
    let xiangqi = root.join("xiangqi.txt");
    std::fs::write(
        &xiangqi,
        format!("# xiangqi\n{};0.5;0;0\n", chuhan_engine::START_FEN),
    )
    .unwrap();
    let (code, _, err) = chuhan(&[
        "tune",
        "texel",
        "--game",
        "chess",
        "--data",
        xiangqi.to_str().unwrap(),
        "--out",
        root.join("x").to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("xiangqi.txt: line 2: bad chess FEN") && err.contains("a xiangqi position"),
        "{err}"
    );
    // A xiangqi parameter name is refused by name.
    let (code, _, err) = chuhan(&[
        "tune",
        "texel",
        "--game",
        "chess",
        "--data",
        data.to_str().unwrap(),
        "--params",
        "material.horse",
        "--out",
        root.join("y").to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("'material.horse' is a xiangqi parameter"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&root);
}
