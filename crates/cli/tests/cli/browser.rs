//! Real-browser tests: headless Debian chromium driven through chromedriver (WebDriver over
//! HTTP, with the tiny client below). A report.html of a test run is opened from disk with the
//! network off and must make no request; a game is stepped through; a short game is played in
//! `chuhan play` by clicks, and the server's state and the judge's verdicts are checked.
//! Screenshots go to `target/test-artifacts/`. scripts/test.sh installs chromium and
//! chromium-driver; these tests fail (they do not skip) when either is missing.

use crate::fixtures as common;

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// A child process killed by its PID when dropped, even when the test fails.
struct Proc(Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// One HTTP exchange with a JSON body; returns (status, JSON).
fn http(port: u16, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    try_http(port, method, path, body).unwrap()
}

/// [`http`], with a failed connection (refused or reset before the answer's status line) as an
/// error instead of a panic.
fn try_http(
    port: u16,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> std::io::Result<(u16, Value)> {
    let mut s = TcpStream::connect(("127.0.0.1", port))?;
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let body = body.map(Value::to_string).unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    // chromedriver keeps connections alive: read the head, then exactly the body.
    let mut reader = BufReader::new(s);
    let mut status_line = String::new();
    reader.read_line(&mut status_line)?;
    let status = status_line
        .get(9..12)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let (mut length, mut chunked) = (0usize, false);
    loop {
        let mut h = String::new();
        reader.read_line(&mut h).unwrap();
        let h = h.trim_end().to_ascii_lowercase();
        if h.is_empty() {
            break;
        }
        if let Some(v) = h.strip_prefix("content-length:") {
            length = v.trim().parse().unwrap();
        }
        if h.starts_with("transfer-encoding:") && h.contains("chunked") {
            chunked = true;
        }
    }
    let mut bytes = Vec::new();
    if chunked {
        loop {
            let mut size = String::new();
            reader.read_line(&mut size).unwrap();
            let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            let mut chunk = vec![0; n + 2];
            reader.read_exact(&mut chunk).unwrap();
            if n == 0 {
                break;
            }
            bytes.extend_from_slice(&chunk[..n]);
        }
    } else {
        bytes.resize(length, 0);
        reader.read_exact(&mut bytes).unwrap();
    }
    let body = String::from_utf8_lossy(&bytes);
    Ok((status, serde_json::from_str(&body).unwrap_or(Value::Null)))
}

/// Kills, by PID, every process whose command line names this test's chromium profile: the
/// browser that chromedriver started, should it outlive its session or a failed start.
struct ProfileGuard(PathBuf);

impl Drop for ProfileGuard {
    fn drop(&mut self) {
        let needle = self.0.to_string_lossy().into_owned();
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return;
        };
        for e in entries.flatten() {
            let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            let cmdline = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
            if String::from_utf8_lossy(&cmdline).contains(&needle) {
                let _ = Command::new("kill").arg(pid.to_string()).status();
            }
        }
    }
}

/// A browser session; the session is deleted (chromium quits) and chromedriver killed on drop.
struct Browser {
    port: u16,
    session: String,
    _driver: Proc,
    _profile: ProfileGuard,
}

impl Browser {
    fn start(name: &str) -> Browser {
        assert!(
            Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists(),
            "{CHROMIUM} and {CHROMEDRIVER} are needed (scripts/test.sh installs chromium and chromium-driver)"
        );
        let port = free_port();
        let driver = Proc(
            Command::new(CHROMEDRIVER)
                .arg(format!("--port={port}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("chromedriver starts"),
        );
        let start = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "chromedriver did not listen"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let profile = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("chromium-{name}"));
        let _ = std::fs::remove_dir_all(&profile);
        let guard = ProfileGuard(profile.clone());
        let caps = json!({"capabilities": {"alwaysMatch": {"browserName": "chrome",
            "goog:chromeOptions": {"binary": CHROMIUM, "args": [
                "--headless=new", "--no-sandbox", "--disable-background-networking",
                "--disable-component-update", "--disable-gpu", "--no-first-run",
                "--window-size=1100,1300", format!("--user-data-dir={}", profile.display())]}}}});
        // A chromedriver that has just started listening has once reset the new-session
        // request's connection (CI, 2026-12-02): try again, up to three times. A session it
        // half made goes with chromedriver at the end.
        let mut tries = 0;
        let (status, v) = loop {
            tries += 1;
            match try_http(port, "POST", "/session", Some(&caps)) {
                Ok(answer) => break answer,
                Err(e) if tries < 3 => {
                    eprintln!("new session, try {tries}: {e}; trying again");
                    std::thread::sleep(Duration::from_millis(500));
                }
                Err(e) => panic!("new session: {e} (after {tries} tries)"),
            }
        };
        assert_eq!(status, 200, "new session: {v}");
        let session = v["value"]["sessionId"].as_str().unwrap().to_string();
        Browser {
            port,
            session,
            _driver: driver,
            _profile: guard,
        }
    }

    fn cmd(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let (status, v) = http(
            self.port,
            method,
            &format!("/session/{}{path}", self.session),
            body.as_ref(),
        );
        assert_eq!(status, 200, "{method} {path}: {v}");
        v["value"].clone()
    }

    fn open(&self, url: &str) {
        self.cmd("POST", "/url", Some(json!({ "url": url })));
    }

    fn js(&self, script: &str) -> Value {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    /// Clicks the element `css` selects; the page redraws its board while it polls, so a
    /// click that finds its element replaced looks it up again.
    fn click(&self, css: &str) {
        for _ in 0..20 {
            let (status, el) = self.raw(
                "POST",
                "/element",
                Some(json!({"using": "css selector", "value": css})),
            );
            assert_eq!(status, 200, "find {css}: {el}");
            let id = el["value"]
                .as_object()
                .and_then(|o| o.values().next())
                .and_then(Value::as_str)
                .unwrap()
                .to_string();
            let (status, v) = self.raw("POST", &format!("/element/{id}/click"), Some(json!({})));
            if status == 200 {
                return;
            }
            assert_eq!(
                v["value"]["error"], "stale element reference",
                "click {css}: {v}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("{css} kept going stale");
    }

    fn raw(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        http(
            self.port,
            method,
            &format!("/session/{}{path}", self.session),
            body.as_ref(),
        )
    }

    fn text(&self, css: &str) -> String {
        self.js(&format!(
            "var e = document.querySelector({}); return e ? e.textContent : null;",
            json!(css)
        ))
        .as_str()
        .unwrap_or("")
        .to_string()
    }

    /// Waits until `script` returns true.
    fn wait(&self, script: &str, what: &str) {
        let start = Instant::now();
        while self.js(script) != Value::Bool(true) {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "timed out waiting for {what}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn screenshot(&self, name: &str) {
        let b64 = self.cmd("GET", "/screenshot", None);
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .parent()
            .unwrap()
            .join("test-artifacts");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(name), base64(b64.as_str().unwrap())).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = http(
            self.port,
            "DELETE",
            &format!("/session/{}", self.session),
            None,
        );
    }
}

fn base64(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let bytes: Vec<u8> = s.bytes().filter(|c| !b"=\r\n".contains(c)).collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= u32::from(val(c)) << (18 - 6 * i);
        }
        for i in 0..chunk.len().saturating_sub(1) {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

#[test]
fn report_opens_offline_without_requests_and_steps_through_a_game() {
    let run = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-run");
    let _ = std::fs::remove_dir_all(&run);
    let (code, _, err) = common::chuhan(&[
        "match",
        "--player",
        "greedy",
        "--player",
        "random",
        "--pairs",
        "2",
        "--out",
        run.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    let browser = Browser::start("report");
    // The network off: chromium's emulated offline mode for everything the page might fetch.
    browser.cmd(
        "POST",
        "/chromium/network_conditions",
        Some(json!({"network_conditions": {"offline": true, "latency": 0,
            "download_throughput": 0, "upload_throughput": 0}})),
    );
    browser.open(&format!("file://{}", run.join("report.html").display()));
    browser.wait("return document.readyState === 'complete';", "the page");
    let requests = browser.js("return performance.getEntriesByType('resource').map(e => e.name);");
    assert_eq!(requests, json!([]), "the report made requests");
    assert!(browser.text("h2").contains("Summary"));

    let data: Value = serde_json::from_str(&browser.text("#games-data")).unwrap();
    let game = &data["games"][0];
    let uci: Vec<&str> = game["uci"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(uci.len() >= 3);
    assert_eq!(browser.text("#ply"), format!("0 / {}", uci.len()));
    browser.click("#next");
    browser.click("#next");
    browser
        .js("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight'})); return 0;");
    assert_eq!(browser.text("#ply"), format!("3 / {}", uci.len()));
    // The third move's piece stands on its target and has left its origin.
    let (from, to) = (&uci[2][..2], &uci[2][2..4]);
    assert_eq!(
        browser.js(&format!(
            "return !!document.querySelector('g[data-sq=\"{to}\"]');"
        )),
        json!(true)
    );
    assert_eq!(
        browser.js(&format!(
            "return !!document.querySelector('g[data-sq=\"{from}\"]');"
        )),
        json!(false)
    );
    assert_eq!(browser.text("#moves span.cur"), uci[2]);
    // The run wrote games.pgn, so every move shows its comment from there.
    assert_eq!(
        browser.js("return document.querySelectorAll('#moves small.score').length;"),
        json!(uci.len())
    );
    // Chinese notation: the precomputed strings.
    browser.js("var s = document.getElementById('notation'); s.value = 'zh'; s.dispatchEvent(new Event('change')); return 0;");
    let zh = game["zh"][2].as_str().unwrap();
    assert!(!zh.is_empty() && !zh.is_ascii());
    assert!(browser.text("#moves span.cur").starts_with(zh));
    browser.click("#prev");
    assert_eq!(browser.text("#ply"), format!("2 / {}", uci.len()));
    browser.screenshot("report.png");
    let requests = browser.js("return performance.getEntriesByType('resource').length;");
    assert_eq!(requests, json!(0));
}

/// The board field of a FEN as the page draws it: the `data-piece` of each square's piece.
const PAGE_BOARD_JS: &str = "var rows = []; for (var r = 8; r >= 1; r--) { var row = '', gap = 0; \
    for (var f = 0; f < 8; f++) { var g = document.querySelector('#board g[data-sq=\"' + String.fromCharCode(97 + f) + r + '\"]'); \
    if (!g) { gap++; continue; } if (gap) { row += gap; gap = 0; } row += g.getAttribute('data-piece'); } \
    if (gap) row += gap; rows.push(row); } return rows.join('/');";

#[test]
fn chess_report_draws_every_position_of_a_game_offline() {
    let run = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-chess-run");
    let _ = std::fs::remove_dir_all(&run);
    let (code, _, err) = common::chuhan(&[
        "match",
        "--game",
        "chess",
        "--player",
        "easy",
        "--player",
        "random",
        "--pairs",
        "2",
        "--nodes",
        "300",
        "--ply-cap",
        "120",
        "--seed",
        "3",
        "--out",
        run.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    let browser = Browser::start("chess-report");
    browser.cmd(
        "POST",
        "/chromium/network_conditions",
        Some(json!({"network_conditions": {"offline": true, "latency": 0,
            "download_throughput": 0, "upload_throughput": 0}})),
    );
    browser.open(&format!("file://{}", run.join("report.html").display()));
    browser.wait("return document.readyState === 'complete';", "the page");
    assert_eq!(
        browser.js("return document.getElementById('board').getAttribute('data-game');"),
        json!("chess")
    );
    // Chess notations only, SAN first; the sides are White and Black.
    assert_eq!(
        browser.js(
            "return Array.from(document.querySelectorAll('#notation option')).map(o => o.value);"
        ),
        json!(["san", "uci"])
    );
    assert!(
        browser.text("#gameinfo").contains("(White)"),
        "{}",
        browser.text("#gameinfo")
    );
    assert!(!browser.text("body").contains("(Red)"));

    // The longest game, every position compared with our own FEN of it.
    let data: Value = serde_json::from_str(&browser.text("#games-data")).unwrap();
    let games = data["games"].as_array().unwrap();
    let (index, game) = games
        .iter()
        .enumerate()
        .max_by_key(|(_, g)| g["uci"].as_array().unwrap().len())
        .unwrap();
    browser.js(&format!(
        "var s = document.getElementById('game'); s.value = '{index}'; s.dispatchEvent(new Event('change')); return 0;"
    ));
    let uci: Vec<&str> = game["uci"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let san: Vec<&str> = game["san"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(uci.len() >= 10, "{uci:?}");
    assert_eq!(san.len(), uci.len());
    let mut pos =
        chuhan_engine::chess::Position::from_fen(game["opening"].as_str().unwrap()).unwrap();
    for (i, text) in uci.iter().enumerate() {
        let board = pos.to_fen().split(' ').next().unwrap().to_string();
        assert_eq!(
            browser.js(PAGE_BOARD_JS),
            json!(board),
            "before ply {}",
            i + 1
        );
        let mv = pos.parse_uci(text).unwrap();
        assert_eq!(pos.to_san(mv).unwrap(), san[i]);
        pos.make(mv);
        browser.js("document.getElementById('next').click(); return 0;");
        assert_eq!(browser.text("#moves span.cur"), san[i]);
    }
    let board = pos.to_fen().split(' ').next().unwrap().to_string();
    assert_eq!(browser.js(PAGE_BOARD_JS), json!(board), "the last position");
    assert_eq!(browser.text("#ply"), format!("{0} / {0}", uci.len()));
    // Moves numbered as in games.pgn, from the opening's move number.
    let fullmove = game["opening"].as_str().unwrap().split(' ').nth(5).unwrap();
    assert!(
        browser.text("#moves").starts_with(&format!("{fullmove}. ")),
        "{}",
        browser.text("#moves")
    );
    // Every move has its comment from games.pgn.
    assert_eq!(
        browser.js("return document.querySelectorAll('#moves small.score').length;"),
        json!(uci.len())
    );
    // UCI on request; Home goes back to the opening.
    browser.js("var s = document.getElementById('notation'); s.value = 'uci'; s.dispatchEvent(new Event('change')); return 0;");
    assert_eq!(browser.text("#moves span.cur"), *uci.last().unwrap());
    browser.js("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Home'})); return 0;");
    assert_eq!(browser.text("#ply"), format!("0 / {}", uci.len()));
    // The page's own move rules on games with castling both ways, en passant and a
    // promotion, position by position against ours.
    for line in [
        "e2e4 g8h6 g1f3 d7d5 f1e2 d5e4 e1g1 f7f5 d2d4 e4d3 c2d3 f5f4 g2g4 f4g3 h2h3 g3g2 d1d2 g2f1q",
        "d2d4 d7d5 c1f4 c8g4 b1c3 b8c6 d1d2 d8d7 e1c1 e8c8 g1f3 e7e6 e2e4 g8e7 e4e5 f7f5 e5f6 g7f6",
    ] {
        let mut pos = chuhan_engine::chess::Position::startpos();
        let mut boards = vec![pos.to_fen().split(' ').next().unwrap().to_string()];
        for text in line.split(' ') {
            let mv = pos.parse_uci(text).unwrap();
            pos.make(mv);
            boards.push(pos.to_fen().split(' ').next().unwrap().to_string());
        }
        let page_boards = browser.js(&format!(
            "var b = CH.parseFen({start}), out = [CH.toBoard(b)]; {moves}.forEach(function (m) {{ CH.apply(b, m); out.push(CH.toBoard(b)); }}); return out;",
            start = json!(chuhan_engine::chess::START_FEN),
            moves = json!(line.split(' ').collect::<Vec<_>>())
        ));
        assert_eq!(page_boards, json!(boards), "{line}");
    }
    browser.screenshot("chess-report.png");
    let requests = browser.js("return performance.getEntriesByType('resource').length;");
    assert_eq!(requests, json!(0), "the report made requests");
    let size = std::fs::metadata(run.join("report.html")).unwrap().len();
    assert!(size < 5_000_000, "{size} bytes");
}

#[test]
fn play_by_clicks_with_the_judge() {
    let save = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-play");
    let _ = std::fs::remove_dir_all(&save);
    let play = common::start_play(&save, &[]);
    let port = play.port;
    let browser = Browser::start("play");
    // A lone chariot's perpetual check after f5e5; Black's replies are forced.
    let fen = "4k4/9/9/9/4R4/9/9/9/9/3K5 b - - 1 1";
    browser.open(&format!(
        "http://127.0.0.1:{port}/play?fen={}",
        fen.replace(' ', "%20")
    ));
    browser.wait("return document.readyState === 'complete';", "the page");
    browser.click("#new");
    let your_move =
        "return document.getElementById('status').textContent.indexOf('Your move') === 0;";
    for (from, to) in [("e5", "f5"), ("f5", "e5"), ("e5", "f5")] {
        browser.wait(your_move, "the person's turn");
        browser.click(&format!("rect.hit[data-sq=\"{from}\"]"));
        // Legal targets are shown once the piece is selected.
        let targets = browser.js("return document.querySelectorAll('circle.target').length;");
        assert!(targets.as_u64().unwrap() > 5, "targets {targets}");
        browser.click(&format!("rect.hit[data-sq=\"{to}\"]"));
    }
    browser.wait(your_move, "the person's turn");
    browser.click("rect.hit[data-sq=\"f5\"]");
    // The judge warns before the forbidden repetition...
    assert!(
        browser.text("#warn").contains("f5e5"),
        "{}",
        browser.text("#warn")
    );
    browser.screenshot("play-warning.png");
    // ...and refuses it, since other moves exist.
    browser.click("rect.hit[data-sq=\"e5\"]");
    browser.wait(
        "return document.getElementById('warn').textContent.indexOf('refused') === 0;",
        "the refusal",
    );
    assert!(browser.text("#warn").contains("perpetual-check"));

    // The server has every move the clicks made, and no more.
    let (status, state) = http(port, "GET", "/api/games/1", None);
    assert_eq!(status, 200);
    assert_eq!(
        state["moves"],
        json!(["e9f9", "e5f5", "f9e9", "f5e5", "e9f9", "e5f5", "f9e9"])
    );
    assert_eq!(state["verdict"], Value::Null);

    // Take back, flip, Chinese move list.
    browser.click("#undo");
    browser.wait(
        "return document.getElementById('warn').textContent === 'taken back';",
        "the take-back",
    );
    let (_, state) = http(port, "GET", "/api/games/1", None);
    assert_eq!(state["moves"].as_array().unwrap().len(), 5);
    browser.click("#flip");
    browser.js("var s = document.getElementById('notation'); s.value = 'zh'; s.dispatchEvent(new Event('change')); return 0;");
    assert!(
        browser.text("#moves").contains("车"),
        "{}",
        browser.text("#moves")
    );
    browser.screenshot("play.png");
    let pgn = std::fs::read_to_string(save.join("game-1.pgn")).unwrap();
    assert_eq!(chuhan_engine::read_pgn(&pgn).unwrap()[0].moves.len(), 5);

    // A game to its end: mate in one by clicks, and the judge's verdict on the page.
    browser.open(&format!(
        "http://127.0.0.1:{port}/play?fen={}",
        "4k4/9/9/9/R8/9/9/9/5R3/3K5 w - - 0 1".replace(' ', "%20")
    ));
    browser.wait("return document.readyState === 'complete';", "the page");
    browser.click("#new");
    browser.wait(your_move, "the person's turn");
    browser.click("rect.hit[data-sq=\"a5\"]");
    browser.click("rect.hit[data-sq=\"e5\"]");
    browser.wait(
        "return document.getElementById('status').textContent.indexOf('Game over') === 0;",
        "the verdict",
    );
    assert_eq!(browser.text("#status"), "Game over: 1-0 checkmate");
    let (_, state) = http(port, "GET", "/api/games/2", None);
    assert_eq!(state["verdict"], json!("1-0 checkmate"));
    browser.screenshot("play-mate.png");
}

#[test]
fn served_live_report_reloads_when_rewritten() {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-live");
    let _ = std::fs::remove_dir_all(&root);
    let run = root.join("run");
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
    // The page as a running job writes it: marked live, with its stamp.
    let page = std::fs::read_to_string(run.join("report.html")).unwrap();
    let stamp = page
        .split("name=\"chuhan-stamp\" content=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap()
        .to_string();
    let live = page.replace("\"live\":false", "\"live\":true");
    assert_ne!(live, page);
    std::fs::write(run.join("report.html"), &live).unwrap();
    let serve = common::start_served(&["serve", root.to_str().unwrap(), "--port", "0"]);
    let port = serve.port;
    let browser = Browser::start("live");
    browser.open(&format!("http://127.0.0.1:{port}/runs/run/"));
    browser.wait("return document.readyState === 'complete';", "the page");
    browser.js("window.chuhanMark = 1; return 0;");
    // The job rewrites the page: the open page notices the new stamp and reloads itself.
    let rewritten = live
        .replace(&stamp, "rewritten-stamp")
        .replace("<h1>run</h1>", "<h1>run rewritten</h1>");
    std::fs::write(run.join("report.html"), rewritten).unwrap();
    browser.wait(
        "return document.querySelector('h1').textContent === 'run rewritten' && window.chuhanMark === undefined;",
        "the reload",
    );
    browser.screenshot("live.png");
}

#[test]
fn chess_play_by_clicks_with_promotion_take_back_and_mate() {
    let save = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-chess-play");
    let _ = std::fs::remove_dir_all(&save);
    let play = common::start_play(&save, &["--game", "chess"]);
    let port = play.port;
    let browser = Browser::start("chess-play");
    browser.open(&format!("http://127.0.0.1:{port}/play"));
    browser.wait("return document.readyState === 'complete';", "the page");
    browser.click("#new");
    let your_move =
        "return document.getElementById('status').textContent.indexOf('Your move') === 0;";
    browser.wait(your_move, "the person's turn");
    assert_eq!(
        browser.js("return document.getElementById('board').getAttribute('data-game');"),
        json!("chess")
    );
    browser.click("rect.hit[data-sq=\"e2\"]");
    assert_eq!(
        browser.js("return Array.from(document.querySelectorAll('circle.target')).map(c => c.getAttribute('data-sq')).sort();"),
        json!(["e3", "e4"])
    );
    browser.click("rect.hit[data-sq=\"e4\"]");
    browser.wait(your_move, "the reply");
    let (status, state) = http(port, "GET", "/api/games/1", None);
    assert_eq!(status, 200);
    let moves = state["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2, "{state}");
    assert_eq!(moves[0], "e2e4");
    // The page draws the server's position.
    let board = state["fen"].as_str().unwrap().split(' ').next().unwrap();
    assert_eq!(browser.js(PAGE_BOARD_JS), json!(board));
    assert_eq!(state["san"][0], "e4");
    browser.click("#undo");
    browser.wait(
        "return document.getElementById('warn').textContent === 'taken back';",
        "the take-back",
    );
    let (_, state) = http(port, "GET", "/api/games/1", None);
    assert_eq!(state["moves"], json!([]));
    browser.click("#flip");
    assert_eq!(
        browser.js(PAGE_BOARD_JS),
        json!(chuhan_engine::chess::START_FEN.split(' ').next().unwrap())
    );

    // Castling by the king's two-square move: the rook goes along on the page and the server.
    browser.open(&format!(
        "http://127.0.0.1:{port}/play?fen={}",
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1".replace(' ', "%20")
    ));
    browser.wait("return document.readyState === 'complete';", "the page");
    browser.click("#new");
    browser.wait(your_move, "the person's turn");
    browser.click("rect.hit[data-sq=\"e1\"]");
    assert_eq!(
        browser.js("return !!document.querySelector('circle.target[data-sq=\"g1\"]');"),
        json!(true)
    );
    browser.click("rect.hit[data-sq=\"g1\"]");
    browser.wait(your_move, "the reply");
    let (_, state) = http(port, "GET", "/api/games/2", None);
    assert_eq!(state["moves"][0], "e1g1");
    assert_eq!(state["san"][0], "O-O");
    let board = state["fen"].as_str().unwrap().split(' ').next().unwrap();
    assert!(board.ends_with("/5RK1"), "{board}");
    assert_eq!(browser.js(PAGE_BOARD_JS), json!(board));

    // Promotion to the piece chosen beside the board, which mates.
    browser.open(&format!(
        "http://127.0.0.1:{port}/play?fen={}",
        "7k/P7/6K1/8/8/8/8/8 w - - 0 1".replace(' ', "%20")
    ));
    browser.wait("return document.readyState === 'complete';", "the page");
    browser.click("#new");
    browser.wait(your_move, "the person's turn");
    browser.js("document.getElementById('promo').value = 'r'; return 0;");
    browser.click("rect.hit[data-sq=\"a7\"]");
    browser.click("rect.hit[data-sq=\"a8\"]");
    browser.wait(
        "return document.getElementById('status').textContent.indexOf('Game over') === 0;",
        "the verdict",
    );
    assert_eq!(browser.text("#status"), "Game over: 1-0 checkmate");
    let (_, state) = http(port, "GET", "/api/games/3", None);
    assert_eq!(state["moves"], json!(["a7a8r"]));
    assert_eq!(state["verdict"], json!("1-0 checkmate"));
    assert!(
        browser.text("#moves").contains("a8=R#"),
        "{}",
        browser.text("#moves")
    );
    browser.screenshot("chess-play-mate.png");
    // Saved as chess PGN, in SAN.
    let pgn = std::fs::read_to_string(save.join("game-3.pgn")).unwrap();
    assert!(
        pgn.contains("a8=R#") && pgn.contains("[White \"you\"]"),
        "{pgn}"
    );
    let records = chuhan_engine::chess::read_pgn(&pgn).unwrap();
    assert_eq!(records[0].moves.len(), 1);
    assert_eq!(records[0].result, "1-0");
}

/// Shuffles the person's piece `from`-`to`-`from` by clicks while the player's only legal
/// moves shuttle its king back and forth, until the page shows the judge's draw; then checks
/// that no move is offered or accepted.
fn shuffle_to_a_repetition(
    browser: &Browser,
    port: u16,
    id: u64,
    (from, to): (&str, &str),
    expected: &[&str],
) {
    let your_move =
        "return document.getElementById('status').textContent.indexOf('Your move') === 0;";
    let over = "return document.getElementById('status').textContent.indexOf('Game over') === 0;";
    for (i, (a, b)) in [(from, to), (to, from), (from, to), (to, from)]
        .into_iter()
        .enumerate()
    {
        browser.wait(your_move, "the person's turn");
        // The position has not yet come a third time: the game goes on.
        let (_, state) = http(port, "GET", &format!("/api/games/{id}"), None);
        assert_eq!(state["verdict"], Value::Null, "before move {i}: {state}");
        browser.click(&format!("rect.hit[data-sq=\"{a}\"]"));
        browser.click(&format!("rect.hit[data-sq=\"{b}\"]"));
    }
    // The player's forced reply brings the start position back a third time.
    browser.wait(over, "the verdict");
    assert_eq!(browser.text("#status"), "Game over: 1/2-1/2 repetition");
    let (_, state) = http(port, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(state["verdict"], json!("1/2-1/2 repetition"));
    assert_eq!(state["moves"], json!(expected));
    assert_eq!(state["your_turn"], json!(false));
    // No more moves: none offered on the board, and the server refuses one.
    browser.click(&format!("rect.hit[data-sq=\"{from}\"]"));
    assert_eq!(
        browser.js("return document.querySelectorAll('circle.target').length;"),
        json!(0)
    );
    let (status, v) = http(
        port,
        "POST",
        &format!("/api/games/{id}/move"),
        Some(&json!({ "uci": format!("{from}{to}") })),
    );
    assert_eq!(status, 409, "{v}");
    assert!(v.to_string().contains("the game is over"), "{v}");
    let (_, after) = http(port, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(
        after["moves"], state["moves"],
        "nothing was played after the verdict"
    );
}

#[test]
fn play_shows_a_repetition_draw_in_chess_and_xiangqi_and_then_takes_no_move() {
    let save = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-repetition");
    let _ = std::fs::remove_dir_all(&save);
    let play = common::start_play(&save, &[]);
    let port = play.port;
    let browser = Browser::start("repetition");
    let open = |fen: &str, game: &str| {
        browser.open(&format!(
            "http://127.0.0.1:{port}/play?fen={}",
            fen.replace(' ', "%20")
        ));
        browser.wait("return document.readyState === 'complete';", "the page");
        browser.js(&format!(
            "document.getElementById('gamekind').value = '{game}'; return 0;"
        ));
        browser.click("#new");
    };
    // Chess: a knight goes g1-h3 and back; Black's king has h8-g8 and back alone (the rook
    // holds the f-file, the h6 pawn g7, Black's h-pawn is blocked). Threefold repetition.
    open("7k/7p/7P/8/8/8/8/K4RN1 w - - 0 1", "chess");
    browser.wait(
        "return document.getElementById('board').getAttribute('data-game') === 'chess';",
        "the chess board",
    );
    shuffle_to_a_repetition(
        &browser,
        port,
        1,
        ("g1", "h3"),
        &[
            "g1h3", "h8g8", "h3g1", "g8h8", "g1h3", "h8g8", "h3g1", "g8h8",
        ],
    );
    browser.screenshot("play-chess-repetition.png");
    let pgn = std::fs::read_to_string(save.join("game-1.pgn")).unwrap();
    let record = &chuhan_engine::chess::read_pgn(&pgn).unwrap()[0];
    assert_eq!((record.moves.len(), record.result.as_str()), (8, "1/2-1/2"));
    // Xiangqi: a horse goes b0-c2 and back; Black's general has d9-d8 and back alone (e9
    // and e8 face the red general, the chariot holds rank 7). Neither side checks or chases,
    // so the third occurrence is a draw, not a loss (docs/xiangqi-rules.md).
    open("3k5/9/R8/9/9/9/9/9/9/1N2K4 w - - 0 1", "xiangqi");
    shuffle_to_a_repetition(
        &browser,
        port,
        2,
        ("b0", "c2"),
        &[
            "b0c2", "d9d8", "c2b0", "d8d9", "b0c2", "d9d8", "c2b0", "d8d9",
        ],
    );
    browser.screenshot("play-xiangqi-repetition.png");
}

#[test]
fn chess960_play_starts_from_a_numbered_position_and_castles_by_clicks() {
    let save = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-chess960");
    let _ = std::fs::remove_dir_all(&save);
    let play = common::start_play(&save, &["--game", "chess", "--chess960"]);
    let port = play.port;
    let browser = Browser::start("chess960");
    let your_move =
        "return document.getElementById('status').textContent.indexOf('Your move') === 0;";
    let start = |query: &str| {
        browser.open(&format!("http://127.0.0.1:{port}/play?{query}"));
        browser.wait("return document.readyState === 'complete';", "the page");
        browser.click("#new");
        browser.wait(your_move, "the person's turn");
    };
    // Start position 959 by Scharnagl's numbering, drawn on the page.
    start("chess960=959");
    let (_, state) = http(port, "GET", "/api/games/1", None);
    let fen959 = "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1";
    assert_eq!(state["start_fen"], json!(fen959));
    assert_eq!(
        browser.js(PAGE_BOARD_JS),
        json!(fen959.split(' ').next().unwrap())
    );
    // Without a number: a Chess960 start (drawn from the game's number): pawns on their
    // ranks, White's pieces mirrored by Black's, bishops on both colours, the king between
    // the rooks.
    start("");
    let (_, state) = http(port, "GET", "/api/games/2", None);
    let fen = state["start_fen"].as_str().unwrap();
    let rows: Vec<&str> = fen.split(' ').next().unwrap().split('/').collect();
    assert_eq!(
        rows[1..7],
        ["pppppppp", "8", "8", "8", "8", "PPPPPPPP"],
        "{fen}"
    );
    assert_eq!(rows[0].to_uppercase(), rows[7], "{fen}");
    assert!(fen.ends_with(" w KQkq - 0 1"), "{fen}");
    let back: Vec<char> = rows[7].chars().collect();
    let at = |p: char| (0..8).filter(|&f| back[f] == p).collect::<Vec<_>>();
    let (bishops, rooks, king) = (at('B'), at('R'), at('K'));
    assert_eq!(
        (
            bishops.len(),
            rooks.len(),
            king.len(),
            at('Q').len(),
            at('N').len()
        ),
        (2, 2, 1, 1, 2)
    );
    assert_ne!(bishops[0] % 2, bishops[1] % 2, "{fen}");
    assert!(rooks[0] < king[0] && king[0] < rooks[1], "{fen}");

    // King on e1, castling rooks on b1 and g1: the king clicked onto its own rook castles.
    let fen = "1r2k1r1/pppq1ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPPQ1PPP/1R2K1R1 w KQkq - 4 8";
    let query = format!("fen={}", fen.replace(' ', "%20"));
    start(&query);
    browser.click("rect.hit[data-sq=\"e1\"]");
    let targets = browser.js("return Array.from(document.querySelectorAll('circle.target')).map(c => c.getAttribute('data-sq')).sort();");
    // b1 (the rook: O-O-O), c1 (the king's target, reached by no other king move), the
    // steps d1, e2 and f1, and g1 (the rook of O-O, which is also the king's target).
    assert_eq!(targets, json!(["b1", "c1", "d1", "e2", "f1", "g1"]));
    browser.click("rect.hit[data-sq=\"b1\"]");
    browser.wait(your_move, "the reply");
    let (_, state) = http(port, "GET", "/api/games/3", None);
    assert_eq!(state["moves"][0], "e1b1");
    assert_eq!(state["san"][0], "O-O-O");
    let board = state["fen"].as_str().unwrap().split(' ').next().unwrap();
    assert!(board.ends_with("/2KR2R1"), "{board}");
    assert_eq!(browser.js(PAGE_BOARD_JS), json!(board));
    // The same castle by the king's move onto c1.
    start(&query);
    browser.click("rect.hit[data-sq=\"e1\"]");
    browser.click("rect.hit[data-sq=\"c1\"]");
    browser.wait(your_move, "the reply");
    let (_, state) = http(port, "GET", "/api/games/4", None);
    assert_eq!(state["moves"][0], "e1b1");
    let board = state["fen"].as_str().unwrap().split(' ').next().unwrap();
    assert_eq!(browser.js(PAGE_BOARD_JS), json!(board));
    browser.screenshot("chess960-play.png");
    // Saved as a Chess960 record.
    let pgn = std::fs::read_to_string(save.join("game-4.pgn")).unwrap();
    for tag in [
        "[Variant \"Chess960\"]",
        "[SetUp \"1\"]",
        &format!("[FEN \"{fen}\"]"),
    ] {
        assert!(pgn.contains(tag), "{tag} in {pgn}");
    }
    assert!(pgn.contains("8. O-O-O"), "{pgn}");
}
