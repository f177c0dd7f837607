//! `chuhan serve` and `chuhan play` over raw HTTP (no browser): the listing, the loopback-only
//! listener, paths outside the folder refused in plain and encoded spellings, a port in use,
//! and a play game whose forbidden repetition the judge refuses.

use crate::fixtures as common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Sends a raw request (the path exactly as given) and returns (status, body).
fn request(port: u16, method: &str, path: &str, body: &str) -> (u16, String) {
    let headers = format!("Host: 127.0.0.1:{port}\r\nContent-Type: application/json");
    request_with(port, method, path, &headers, body)
}

fn request_with(port: u16, method: &str, path: &str, headers: &str, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\n{headers}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let status = text[9..12].parse().unwrap();
    let body = text.split_once("\r\n\r\n").map_or("", |x| x.1).to_string();
    (status, body)
}

fn temp(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn serve_lists_runs_and_never_leaves_the_folder() {
    let base = temp("web-serve");
    let root = base.join("results");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(base.join("secret.txt"), "outside").unwrap();
    let run = root.join("run1");
    let (code, _, err) = common::chuhan(&[
        "match",
        "--player",
        "greedy",
        "--player",
        "random",
        "--pairs",
        "1",
        "--out",
        run.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    let served = common::start_served(&["serve", root.to_str().unwrap(), "--port", "0"]);

    let (status, index) = request(served.port, "GET", "/", "");
    assert_eq!(status, 200);
    assert!(index.contains("href=\"/runs/run1/\""), "{index}");
    let (status, report) = request(served.port, "GET", "/runs/run1/", "");
    assert_eq!(status, 200);
    assert!(report.contains("greedy vs random"));
    let (status, all) = request(served.port, "GET", "/runs/run1/?all=1", "");
    assert_eq!(status, 200);
    assert!(all.contains("2 of 2 games"));
    // The live page's reload check: the stamp of the report.html on disk.
    let on_disk = std::fs::read_to_string(run.join("report.html")).unwrap();
    let (status, stamp) = request(served.port, "GET", "/runs/run1/?stamp=1", "");
    assert_eq!(status, 200);
    assert!(!stamp.is_empty());
    assert!(on_disk.contains(&format!("name=\"chuhan-stamp\" content=\"{stamp}\"")));
    let (status, csv) = request(served.port, "GET", "/runs/run1/games.csv", "");
    assert_eq!(status, 200);
    assert!(csv.starts_with("pair,game"));

    for path in [
        "/runs/../secret.txt",
        "/runs/run1/../../secret.txt",
        "/runs/%2e%2e/secret.txt",
        "/runs/run1/%2E%2E/%2e%2e/secret.txt",
        "/runs/..%2fsecret.txt",
        "/runs/%2e%2e%5csecret.txt",
    ] {
        let (status, body) = request(served.port, "GET", path, "");
        assert!(status == 403 || status == 404, "{path}: {status}");
        assert!(!body.contains("outside"), "{path} leaked the file");
    }

    // Another site's name (DNS rebinding) and a form POST (cross-site) are refused.
    let (status, _) = request_with(served.port, "GET", "/", "Host: evil.example", "");
    assert_eq!(status, 403);
    let form = format!(
        "Host: 127.0.0.1:{}\r\nContent-Type: text/plain",
        served.port
    );
    let (status, _) = request_with(served.port, "POST", "/api/games", &form, "{}");
    assert_eq!(status, 415);

    // Loopback only: the listener is bound to 127.0.0.1, not to every interface.
    let out = Command::new("ss").args(["-ltn"]).output();
    if let Ok(out) = out {
        let text = String::from_utf8_lossy(&out.stdout);
        let mine: Vec<&str> = text
            .lines()
            .filter(|l| l.contains(&format!(":{} ", served.port)))
            .collect();
        assert!(!mine.is_empty() || text.is_empty(), "{text}");
        assert!(mine.iter().all(|l| l.contains("127.0.0.1:")), "{mine:?}");
    }

    // A second server on the same port: a clear error, exit 2.
    let (code, _, err) = common::chuhan(&[
        "serve",
        root.to_str().unwrap(),
        "--port",
        &served.port.to_string(),
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!(
            "port {} on 127.0.0.1 is already in use",
            served.port
        )),
        "{err}"
    );
}

#[test]
fn play_refuses_a_forbidden_repetition_and_saves_pgn() {
    let save = temp("web-play");
    let served = common::start_play(&save, &[]);
    // After f5e5 of a lone chariot's perpetual check; Black's replies are forced.
    let fen = "4k4/9/9/9/4R4/9/9/9/9/3K5 b - - 1 1";
    let (status, body) = request(
        served.port,
        "POST",
        "/api/games",
        &format!("{{\"player\":\"random\",\"human\":\"red\",\"fen\":\"{fen}\"}}"),
    );
    assert_eq!(status, 200, "{body}");
    let wait_turn = || loop {
        let (_, s) = request(served.port, "GET", "/api/games/1", "");
        let v: serde_json::Value = serde_json::from_str(&s).unwrap();
        if v["your_turn"] == true || v["verdict"].is_string() {
            return v;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    for mv in ["e5f5", "f5e5", "e5f5"] {
        wait_turn();
        let (status, body) = request(
            served.port,
            "POST",
            "/api/games/1/move",
            &format!("{{\"uci\":\"{mv}\"}}"),
        );
        assert_eq!(status, 200, "{mv}: {body}");
    }
    let state = wait_turn();
    assert_eq!(state["forbidden"], serde_json::json!(["f5e5"]));
    let (status, body) = request(
        served.port,
        "POST",
        "/api/games/1/move",
        "{\"uci\":\"f5e5\"}",
    );
    assert_eq!(status, 409, "{body}");
    assert!(body.contains("perpetual-check"), "{body}");
    let (status, body) = request(
        served.port,
        "POST",
        "/api/games/1/move",
        "{\"uci\":\"f5f4\"}",
    );
    assert_eq!(status, 200, "{body}");
    let (status, body) = request(
        served.port,
        "POST",
        "/api/games/1/move",
        "{\"uci\":\"a0a9\"}",
    );
    assert!(status == 400 || status == 409, "{body}");
    wait_turn();
    let (status, _) = request(served.port, "POST", "/api/games/1/undo", "");
    assert_eq!(status, 200);
    let state = wait_turn();
    assert_eq!(state["moves"].as_array().unwrap().len(), 7);
    let pgn = std::fs::read_to_string(save.join("game-1.pgn")).unwrap();
    let records = chuhan_engine::read_pgn(&pgn).unwrap();
    assert_eq!(records[0].moves.len(), 7);
}

#[test]
fn bad_player_or_folder_is_a_usage_error() {
    let (code, _, err) = common::chuhan(&[
        "play",
        "--no-open",
        "--player",
        "no-such-level",
        "--port",
        "0",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--player no-such-level"), "{err}");
    let missing = temp("web-missing").join("absent");
    let (code, _, err) = common::chuhan(&["serve", missing.to_str().unwrap(), "--port", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("is not a folder"), "{err}");
}
