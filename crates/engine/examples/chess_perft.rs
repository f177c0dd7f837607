//! Chess perft timing: `cargo run --release -p chuhan-engine --example chess_perft -- [depth]
//! [fen] [--divide] [--chess960]` (default: depth 6 from the start position; `--chess960` reads
//! the FEN as Chess960 and writes castling as the king taking its rook). Prints the count, the
//! time and the speed.

use chuhan_engine::chess::{divide, perft, Position, START_FEN};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let show_divide = args.iter().any(|a| a == "--divide");
    let chess960 = args.iter().any(|a| a == "--chess960");
    let rest: Vec<&String> = args
        .iter()
        .filter(|a| *a != "--divide" && *a != "--chess960")
        .collect();
    let depth: u32 = match rest.first().map(|d| d.parse()) {
        None => 6,
        Some(Ok(d)) => d,
        Some(Err(e)) => {
            eprintln!("bad depth '{}': {e}", rest[0]);
            std::process::exit(2);
        }
    };
    let fen = rest.get(1).map_or(START_FEN, |s| s.as_str());
    let read = if chess960 {
        Position::from_fen_chess960
    } else {
        Position::from_fen
    };
    let mut pos = match read(fen) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("bad FEN '{fen}': {e}");
            std::process::exit(2);
        }
    };
    let start = Instant::now();
    let nodes = if show_divide {
        let parts = divide(&mut pos, depth);
        for (mv, n) in &parts {
            println!("{mv}: {n}");
        }
        parts.iter().map(|&(_, n)| n).sum()
    } else {
        perft(&mut pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!(
        "perft {depth}: {nodes} nodes in {secs:.3} s ({:.1} Mnps)",
        nodes as f64 / secs / 1e6
    );
}
