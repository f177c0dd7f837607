//! A tiny UCI engine for the arena's tests that misbehaves on request. It is an example, not a
//! binary, so `cargo run` and `cargo install` see `chuhan` alone; `cargo test` builds it. It
//! plays legal moves (a fixed pick from the engine library's legal move list, ranks 0–9) and,
//! at its N-th move since the process started:
//!
//! - `--crash-at N`: exits with status 3;
//! - `--hang-at N`: never answers (keeps reading its input);
//! - `--illegal-at N`: answers a well-formed move that is not legal;
//! - `--garbage-at N`: answers `bestmove` with text that is not a move;
//! - `--close-at N`: closes its output and keeps running.
//!
//! `--once FILE` misbehaves only while FILE does not exist, and creates it when it does (so a
//! restarted process plays normally). `--no-uciok` never finishes the handshake. Every move
//! and every misdeed is written to stderr with the process id.
//!
//! For `chuhan perft --engine`, `bench --engine` and `engine-check` it also answers `go perft
//! D` (a Stockfish-style divide), `bench` and `go infinite` ... `stop`, with planted bugs and
//! protocol faults on request: see [`Extra`] and [`Bug`] at the end of the file.
//! `--ucci` speaks UCCI instead (`ucci`/`ucciok`, `usemillisec`, `banmoves`, bare scores,
//! `bye`; it answers `unknown command: X` to anything else, `uci` included), logging each
//! `go` and `banmoves` it gets to stderr; with `--prefer-repeat` it plays a move back to a
//! position of the game's history when it can (so a repetition it is banned from shows), and
//! `--ignore-banmoves` makes it disregard `banmoves`.
//!
//! Bytes: `--bad-utf8` prints an info line holding invalid UTF-8 before every move,
//! `--long-line` a 1 MiB info line, `--flood-at N` prints info lines without end at move N.
//!
//! Options: `Greed` (spin 0–100, default 0) is the percentage of moves where it takes the most
//! valuable piece it can instead of its fixed pick: a setting that changes its play, for tuning
//! tests. In UCI `setoption name Greed value N`, in UCCI `setoption Greed N`.

use chuhan_engine::{Move, Position, Square};
use std::io::{BufRead, Write};
use std::path::PathBuf;

#[derive(Default)]
struct Flags {
    crash_at: Option<u64>,
    hang_at: Option<u64>,
    illegal_at: Option<u64>,
    garbage_at: Option<u64>,
    close_at: Option<u64>,
    once: Option<PathBuf>,
    no_uciok: bool,
    idle: bool,
    ucci: bool,
    prefer_repeat: bool,
    ignore_banmoves: bool,
    bad_utf8: bool,
    long_line: bool,
    flood_at: Option<u64>,
}

fn parse_flags() -> Flags {
    let mut f = Flags::default();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut number = || -> Option<u64> { args.next().and_then(|v| v.parse().ok()) };
        match a.as_str() {
            "--crash-at" => f.crash_at = number(),
            "--hang-at" => f.hang_at = number(),
            "--illegal-at" => f.illegal_at = number(),
            "--garbage-at" => f.garbage_at = number(),
            "--close-at" => f.close_at = number(),
            "--once" => f.once = args.next().map(PathBuf::from),
            "--no-uciok" => f.no_uciok = true,
            "--idle" => f.idle = true,
            a if Extra::takes_value(a) => drop(args.next()),
            a if Extra::is_switch(a) => {}
            "--ucci" => f.ucci = true,
            "--prefer-repeat" => f.prefer_repeat = true,
            "--ignore-banmoves" => f.ignore_banmoves = true,
            "--bad-utf8" => f.bad_utf8 = true,
            "--long-line" => f.long_line = true,
            "--flood-at" => f.flood_at = number(),
            other => {
                eprintln!("uci-misbehave: unknown flag {other}");
                std::process::exit(2);
            }
        }
    }
    f
}

fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Reads input until it ends, answering nothing.
fn idle() -> ! {
    for line in std::io::stdin().lock().lines() {
        if line.is_err() {
            break;
        }
    }
    std::process::exit(0)
}

/// The position of a `position fen ... [moves ...]` or `position startpos ...` command.
fn parse_position(words: &[&str]) -> Option<Position> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let head = &words[..moves_at.unwrap_or(words.len())];
    let mut pos = match head.first() {
        Some(&"startpos") => Position::startpos(),
        Some(&"fen") => Position::from_fen(&head[1..].join(" ")).ok()?,
        _ => return None,
    };
    if let Some(i) = moves_at {
        for text in &words[i + 1..] {
            let mv = pos.parse_uci_move(text).ok()?;
            pos.make(mv);
        }
    }
    Some(pos)
}

/// A well-formed move that is not legal: a piece of the side to move sent somewhere it cannot
/// go.
fn illegal_move(pos: &mut Position) -> Move {
    let legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
    let side = pos.side_to_move();
    for from in (0..90).filter_map(Square::from_index) {
        let piece = pos.piece_at(from);
        if piece.is_empty() || piece.color() != side {
            continue;
        }
        for to in (0..90).filter_map(Square::from_index) {
            let mv = Move::new(from, to);
            if to != from && !legal.contains(&mv) {
                return mv;
            }
        }
    }
    unreachable!("some move is always illegal")
}

fn main() {
    let flags = parse_flags();
    if flags.idle {
        idle();
    }
    if flags.ucci {
        ucci_main(&flags);
    }
    let pid = std::process::id();
    eprintln!("uci-misbehave pid {pid} started");
    let mut position = Position::startpos();
    let mut moves_made = 0u64;
    let mut greed = 0u32;
    let armed = |at: Option<u64>, n: u64| {
        at == Some(n)
            && match &flags.once {
                Some(file) if file.exists() => false,
                Some(file) => std::fs::write(file, "misbehaved\n").is_ok(),
                None => true,
            }
    };
    let mut extra = Extra::from_args();
    let mut input = std::io::stdin().lock().lines();
    while let Some(line) = input.next() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => {
                say("id name uci-misbehave");
                say("id author the Chuhan tests");
                extra.declare_options();
                if flags.no_uciok {
                    eprintln!("uci-misbehave pid {pid}: not saying uciok");
                } else {
                    say("option name Greed type spin default 0 min 0 max 100");
                    say("uciok");
                }
            }
            Some("setoption") => {
                greed = parse_greed(&words[1..]).unwrap_or(greed);
                extra.setoption(&words);
            }
            Some("isready") => say("readyok"),
            Some("position") => match parse_position(&words[1..]) {
                Some(p) => position = p,
                None => eprintln!("uci-misbehave pid {pid}: bad position command: {line}"),
            },
            Some("go") if extra.go(&words, &mut position, &mut input) => {}
            Some("bench") => extra.bench(),
            Some("go") => {
                moves_made += 1;
                let n = moves_made;
                eprintln!("uci-misbehave pid {pid} move {n}");
                noise(&flags, armed(flags.flood_at, n));
                if armed(flags.crash_at, n) {
                    eprintln!("uci-misbehave pid {pid}: crashing at move {n}");
                    std::process::exit(3);
                }
                if armed(flags.hang_at, n) {
                    eprintln!("uci-misbehave pid {pid}: hanging at move {n}");
                    idle();
                }
                if armed(flags.close_at, n) {
                    eprintln!("uci-misbehave pid {pid}: closing stdout at move {n}");
                    close_stdout_and_idle();
                }
                if armed(flags.garbage_at, n) {
                    eprintln!("uci-misbehave pid {pid}: garbage at move {n}");
                    say("info this is not uci");
                    say("bestmove ~~zz~~");
                    continue;
                }
                if armed(flags.illegal_at, n) {
                    let mv = illegal_move(&mut position);
                    eprintln!("uci-misbehave pid {pid}: illegal move {mv} at move {n}");
                    say(&format!("bestmove {}", mv.to_uci()));
                    continue;
                }
                let legal: Vec<Move> = position.legal_moves().iter().copied().collect();
                if legal.is_empty() {
                    say("bestmove 0000");
                    continue;
                }
                let pick = pick_move(&mut position, &legal, greed);
                say("info depth 1 score cp 0 nodes 1");
                say(&format!("bestmove {}", pick.to_uci()));
            }
            Some("quit") => break,
            _ => {}
        }
    }
}

/// Replaces this process's image with `uci-misbehave --idle` whose stdout is /dev/null: the
/// same process (same id) keeps reading its input, but the pipe the arena reads is closed.
#[cfg(unix)]
fn close_stdout_and_idle() -> ! {
    use std::os::unix::process::CommandExt;
    let exe = std::env::current_exe().expect("own path");
    let err = std::process::Command::new(exe)
        .arg("--idle")
        .stdout(std::process::Stdio::null())
        .exec();
    eprintln!("uci-misbehave: exec failed: {err}");
    std::process::exit(4)
}

#[cfg(not(unix))]
fn close_stdout_and_idle() -> ! {
    idle()
}

/// Planted move-generation bugs for `chuhan perft --engine` (flag `--bug KIND` or the UCI
/// option `Bug`): what the tool must find and report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bug {
    /// Cannon captures (over a screen) are never generated.
    CannonCapture,
    /// Horse moves to the edge files (a, i) are never generated.
    HorseEdge,
    /// Moves that leave the two generals facing each other are generated (illegal).
    FlyingGeneral,
    /// Captures by the general are never generated: only deep in the tree from the start.
    GeneralCapture,
    /// Perft counts one node too many at the leaves below the root when in check: the lists
    /// are right, the counts wrong, and only when counted from further up.
    LeafCount,
}

impl Bug {
    fn parse(s: &str) -> Option<Bug> {
        Some(match s {
            "cannon-capture" => Bug::CannonCapture,
            "horse-edge" => Bug::HorseEdge,
            "flying-general" => Bug::FlyingGeneral,
            "general-capture" => Bug::GeneralCapture,
            "leaf-count" => Bug::LeafCount,
            _ => return None,
        })
    }
}

/// Perft, bench and protocol faults for `chuhan perft/bench/engine-check`:
///
/// - `--bug KIND` (or `setoption name Bug value KIND`): a planted move-generation bug;
/// - `--no-perft`: `go perft` is answered like any `go` (a search's `bestmove`);
/// - `--perft-garbage`: `go perft` prints a malformed divide line;
/// - `--bench-nodes N` (default 4242), `--bench-garbage`, `--no-bench`: what `bench` prints
///   on stderr (nothing with `--no-bench`);
/// - `--deaf-in-search`: no `readyok` while a `go infinite` runs;
/// - `--ignore-stop`: `go infinite` never ends; `--early-bestmove`: it ends at once;
/// - `--time-factor F`: `go movetime T` takes F x T before answering;
/// - `--reject-options`: every `setoption` gets an error line; `--bad-option`: declares a spin
///   option whose default is outside its range.
#[derive(Default)]
struct Extra {
    bug: Option<Bug>,
    no_perft: bool,
    perft_garbage: bool,
    bench_nodes: Option<u64>,
    bench_garbage: bool,
    no_bench: bool,
    deaf_in_search: bool,
    ignore_stop: bool,
    early_bestmove: bool,
    time_factor: Option<f64>,
    reject_options: bool,
    bad_option: bool,
}

impl Extra {
    fn takes_value(flag: &str) -> bool {
        matches!(flag, "--bug" | "--bench-nodes" | "--time-factor")
    }

    fn is_switch(flag: &str) -> bool {
        matches!(
            flag,
            "--no-perft"
                | "--perft-garbage"
                | "--bench-garbage"
                | "--no-bench"
                | "--deaf-in-search"
                | "--ignore-stop"
                | "--early-bestmove"
                | "--reject-options"
                | "--bad-option"
        )
    }

    fn from_args() -> Extra {
        let mut e = Extra::default();
        let mut args = std::env::args().skip(1);
        while let Some(a) = args.next() {
            match a.as_str() {
                "--bug" => {
                    let kind = args.next().unwrap_or_default();
                    e.bug = Bug::parse(&kind);
                    if e.bug.is_none() {
                        eprintln!("uci-misbehave: unknown bug '{kind}'");
                        std::process::exit(2);
                    }
                }
                "--bench-nodes" => e.bench_nodes = args.next().and_then(|v| v.parse().ok()),
                "--time-factor" => e.time_factor = args.next().and_then(|v| v.parse().ok()),
                "--no-perft" => e.no_perft = true,
                "--perft-garbage" => e.perft_garbage = true,
                "--bench-garbage" => e.bench_garbage = true,
                "--no-bench" => e.no_bench = true,
                "--deaf-in-search" => e.deaf_in_search = true,
                "--ignore-stop" => e.ignore_stop = true,
                "--early-bestmove" => e.early_bestmove = true,
                "--reject-options" => e.reject_options = true,
                "--bad-option" => e.bad_option = true,
                _ => {}
            }
        }
        e
    }

    /// The options it declares between `uci` and `uciok`.
    fn declare_options(&self) {
        say("option name Hash type spin default 16 min 1 max 1024");
        say("option name Ponder type check default false");
        say("option name Bug type combo default none var none var cannon-capture var horse-edge var flying-general var general-capture var leaf-count");
        if self.bad_option {
            say("option name Depth type spin default 50 min 1 max 20");
        }
    }

    fn setoption(&mut self, words: &[&str]) {
        let text = words[1..].join(" ");
        let rest = text.strip_prefix("name ").unwrap_or(&text);
        let (name, value) = rest.split_once(" value ").unwrap_or((rest, ""));
        if self.reject_options {
            say(&format!("info string error: unknown option {name}"));
            return;
        }
        if name == "Bug" {
            self.bug = Bug::parse(value);
        }
    }

    /// Handles the `go` commands it owns (`go perft`, `go infinite`, a slowed `go movetime`);
    /// false leaves the command to the plain move answer.
    fn go(
        &self,
        words: &[&str],
        position: &mut Position,
        input: &mut impl Iterator<Item = std::io::Result<String>>,
    ) -> bool {
        match words.get(1).copied() {
            Some("perft") if !self.no_perft => {
                let depth = words.get(2).and_then(|d| d.parse().ok()).unwrap_or(1);
                self.perft_divide(position, depth);
                true
            }
            Some("infinite") if !self.early_bestmove => {
                self.search_until_stop(position, input);
                true
            }
            Some("movetime") => {
                let ms: f64 = words.get(2).and_then(|d| d.parse().ok()).unwrap_or(0.0);
                if let Some(f) = self.time_factor {
                    std::thread::sleep(std::time::Duration::from_millis((ms * f) as u64));
                }
                false
            }
            _ => false,
        }
    }

    /// `go infinite`: reads commands until `stop` (answering `isready` unless deaf).
    fn search_until_stop(
        &self,
        position: &mut Position,
        input: &mut impl Iterator<Item = std::io::Result<String>>,
    ) {
        for line in input.by_ref() {
            let Ok(line) = line else { break };
            match line.trim() {
                "isready" if !self.deaf_in_search => say("readyok"),
                "stop" if !self.ignore_stop => {
                    let legal: Vec<Move> = position.legal_moves().iter().copied().collect();
                    match legal.first() {
                        Some(mv) => say(&format!("bestmove {}", mv.to_uci())),
                        None => say("bestmove 0000"),
                    }
                    return;
                }
                "quit" => std::process::exit(0),
                _ => {}
            }
        }
        std::process::exit(0)
    }

    /// `go perft D`: the divide as Stockfish prints it, with the planted bug.
    fn perft_divide(&self, position: &mut Position, depth: u32) {
        let mut total = 0;
        for (mv, legal) in self.moves(position) {
            let n = if legal {
                position.make(mv);
                let n = self.perft(position, depth.saturating_sub(1), false);
                position.unmake();
                n
            } else {
                // An illegal move is counted as a leaf: its subtree is not a real position.
                1
            };
            total += n;
            say(&format!("{}: {n}", mv.to_uci()));
        }
        if self.perft_garbage {
            say("h2e2: lots");
        }
        say("");
        say(&format!("Nodes searched: {total}"));
    }

    fn perft(&self, pos: &mut Position, depth: u32, root: bool) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves(pos);
        if depth == 1 {
            let bonus = self.bug == Some(Bug::LeafCount) && !root && pos.in_check();
            return moves.len() as u64 + u64::from(bonus);
        }
        let mut n = 0;
        for (mv, legal) in moves {
            if !legal {
                n += 1;
                continue;
            }
            pos.make(mv);
            n += self.perft(pos, depth - 1, false);
            pos.unmake();
        }
        n
    }

    /// The moves this buggy generator produces, each with whether it is really legal.
    fn moves(&self, pos: &mut Position) -> Vec<(Move, bool)> {
        let legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
        let mut out: Vec<(Move, bool)> = legal
            .iter()
            .filter(|&&mv| !self.drops(pos, mv))
            .map(|&mv| (mv, true))
            .collect();
        if self.bug == Some(Bug::FlyingGeneral) {
            let mut pseudo = chuhan_engine::MoveList::new();
            pos.generate_pseudo(chuhan_engine::GenKind::All, &mut pseudo);
            for &mv in pseudo.iter() {
                if !legal.contains(&mv) && leaves_generals_facing(pos, mv) {
                    out.push((mv, false));
                }
            }
        }
        out
    }

    fn drops(&self, pos: &Position, mv: Move) -> bool {
        use chuhan_engine::PieceKind;
        let kind = pos.piece_at(mv.from()).kind();
        let capture = pos.is_capture(mv);
        match self.bug {
            Some(Bug::CannonCapture) => kind == Some(PieceKind::Cannon) && capture,
            Some(Bug::HorseEdge) => {
                kind == Some(PieceKind::Horse) && matches!(mv.to().file(), 0 | 8)
            }
            Some(Bug::GeneralCapture) => kind == Some(PieceKind::General) && capture,
            _ => false,
        }
    }

    /// `bench`: a fixed summary on stderr, as Stockfish prints it.
    fn bench(&self) {
        if self.no_bench {
            return;
        }
        eprintln!("===========================");
        eprintln!("Total time (ms) : 5");
        if self.bench_garbage {
            eprintln!("Nodes searched  : many");
        } else {
            eprintln!("Nodes searched  : {}", self.bench_nodes.unwrap_or(4242));
        }
        eprintln!("Nodes/second    : 848400");
    }
}

/// Whether the generals face each other on an open file after `mv`.
fn leaves_generals_facing(pos: &Position, mv: Move) -> bool {
    let mut after = pos.clone();
    after.make(mv);
    let red = after.general(chuhan_engine::Color::Red);
    let black = after.general(chuhan_engine::Color::Black);
    if red.file() != black.file() {
        return false;
    }
    let (lo, hi) = (red.rank().min(black.rank()), red.rank().max(black.rank()));
    (lo + 1..hi).all(|r| after.piece_at(Square::new(red.file(), r)).is_empty())
}

/// The move it plays: the most valuable capture in `greed` percent of positions (chosen by a
/// hash of the position), else a fixed, varied pick: legal, reproducible, unlikely to repeat.
fn pick_move(position: &mut Position, legal: &[Move], greed: u32) -> Move {
    let fen = position.to_fen();
    let hash = fen.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    if hash % 100 < u64::from(greed) {
        let value = |mv: &Move| match position.piece_at(mv.to()).fen_char().to_ascii_lowercase() {
            'r' => 9,
            'c' => 5,
            'n' | 'h' => 4,
            'b' | 'e' | 'a' => 2,
            'p' => 1,
            _ => 0,
        };
        if let Some(best) = legal
            .iter()
            .filter(|m| value(m) > 0)
            .max_by_key(|m| value(m))
        {
            return *best;
        }
    }
    legal[(position.ply_count() * 7 + 3) % legal.len()]
}

/// `Greed` from `name Greed value N` (UCI) or `Greed N` (UCCI).
fn parse_greed(words: &[&str]) -> Option<u32> {
    match words {
        ["name", "Greed", "value", v] | ["Greed", v] => v.parse().ok().map(|g: u32| g.min(100)),
        _ => None,
    }
}

/// Whether `--once` lets it misbehave now (creating its file when it does).
fn once_allows(flags: &Flags) -> bool {
    match &flags.once {
        Some(file) if file.exists() => false,
        Some(file) => std::fs::write(file, "misbehaved\n").is_ok(),
        None => true,
    }
}

/// The byte misdeeds before a move: invalid UTF-8, a megabyte line, and a flood without end
/// when `flood`.
fn noise(flags: &Flags, flood: bool) {
    let mut out = std::io::stdout().lock();
    if flags.bad_utf8 {
        let _ = out.write_all(b"info string caf\xe9 \xff\xfe not utf-8\n");
    }
    if flags.long_line {
        let mut line = b"info string ".to_vec();
        line.resize(1 << 20, b'x');
        line.push(b'\n');
        let _ = out.write_all(&line);
    }
    let _ = out.flush();
    if flood {
        eprintln!("uci-misbehave pid {}: flooding", std::process::id());
        loop {
            if out
                .write_all(b"info depth 1 score cp 0 nodes 1 pv the flood goes on\n")
                .is_err()
            {
                std::process::exit(0);
            }
        }
    }
}

/// The positions (FEN board and side) before each move of a `position` command's game.
fn history_of(words: &[&str]) -> Vec<String> {
    let key = |p: &Position| p.to_fen().split(' ').take(2).collect::<Vec<_>>().join(" ");
    let moves_at = words.iter().position(|w| *w == "moves");
    let head = &words[..moves_at.unwrap_or(words.len())];
    let mut pos = match head.first() {
        Some(&"fen") => match Position::from_fen(&head[1..].join(" ")) {
            Ok(p) => p,
            Err(_) => return Vec::new(),
        },
        _ => Position::startpos(),
    };
    let mut seen = vec![key(&pos)];
    for text in moves_at.map_or(&[][..], |i| &words[i + 1..]) {
        let Ok(mv) = pos.parse_uci_move(text) else {
            break;
        };
        pos.make(mv);
        seen.push(key(&pos));
    }
    seen
}

/// The UCCI dialect of the test engine.
fn ucci_main(flags: &Flags) -> ! {
    let pid = std::process::id();
    eprintln!("uci-misbehave pid {pid} started (ucci)");
    let key = |p: &Position| p.to_fen().split(' ').take(2).collect::<Vec<_>>().join(" ");
    let mut position = Position::startpos();
    let mut history: Vec<String> = Vec::new();
    let mut banned: Vec<Move> = Vec::new();
    let mut greed = 0u32;
    let mut moves_made = 0u64;
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("ucci") => {
                say("id name uci-misbehave (ucci)");
                say("option usemillisec type check default false");
                say("option Greed type spin min 0 max 100 default 0");
                say("ucciok");
            }
            Some("isready") => say("readyok"),
            Some("setoption") => {
                eprintln!("uci-misbehave pid {pid}: {line}");
                greed = parse_greed(&words[1..]).unwrap_or(greed);
            }
            Some("position") => match parse_position(&words[1..]) {
                Some(p) => {
                    position = p;
                    history = history_of(&words[1..]);
                    banned.clear();
                }
                None => eprintln!("uci-misbehave pid {pid}: bad position command: {line}"),
            },
            Some("banmoves") => {
                eprintln!("uci-misbehave pid {pid}: {line}");
                banned = words[1..]
                    .iter()
                    .filter_map(|w| Move::parse_uci(w))
                    .collect();
            }
            Some("go") => {
                moves_made += 1;
                eprintln!("uci-misbehave pid {pid} move {moves_made}: {line}");
                noise(
                    flags,
                    flags.flood_at == Some(moves_made) && once_allows(flags),
                );
                let mut legal: Vec<Move> = position.legal_moves().iter().copied().collect();
                if !flags.ignore_banmoves {
                    legal.retain(|m| !banned.contains(m));
                }
                if legal.is_empty() {
                    say("nobestmove");
                    continue;
                }
                let repeat = legal.iter().copied().find(|&mv| {
                    position.make(mv);
                    let again = history.contains(&key(&position));
                    position.unmake();
                    again
                });
                let pick = match repeat {
                    Some(mv) if flags.prefer_repeat => mv,
                    _ => pick_move(&mut position, &legal, greed),
                };
                say("info depth 1 score 0 nodes 1");
                say(&format!("bestmove {}", pick.to_uci()));
            }
            Some("quit") => {
                say("bye");
                break;
            }
            Some(other) => say(&format!("unknown command: {other}")),
            None => {}
        }
    }
    std::process::exit(0)
}
