//! Helpers shared by the notation and PGN tests: seeded random games and FEN building.

#![allow(dead_code)]

use chuhan_engine::{Move, Position, Square};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// A random legal game of up to `max_plies` plies from `start`, fixed by `seed`.
pub fn random_game(start: &Position, seed: u64, max_plies: usize) -> Vec<Move> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for _ in 0..max_plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal.as_slice()[rng.gen_range(0..legal.len())];
        pos.make(mv);
        moves.push(mv);
    }
    moves
}

/// A FEN with the given pieces (`('R', "h6")`, upper case Red) and side to move (`'w'`/`'b'`).
pub fn fen(pieces: &[(char, &str)], side: char) -> String {
    let mut board = [['.'; 9]; 10];
    for &(piece, square) in pieces {
        let sq = Square::parse(square).expect("square a0..i9");
        let cell = &mut board[sq.rank() as usize][sq.file() as usize];
        assert_eq!(*cell, '.', "two pieces on {square}");
        *cell = piece;
    }
    let mut rows = Vec::new();
    for rank in (0..10).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for &c in &board[rank] {
            if c == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    row.push_str(&empty.to_string());
                    empty = 0;
                }
                row.push(c);
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    format!("{} {side} - - 0 1", rows.join("/"))
}

/// The position for a FEN built with [`fen`], which must be valid.
pub fn position(pieces: &[(char, &str)], side: char) -> Position {
    let text = fen(pieces, side);
    Position::from_fen(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Positions with like pieces sharing files: doubled chariots, cannons and horses, three,
/// four and five soldiers on a file, soldiers doubled on two files, advisors and elephants
/// sharing a file; for Red and for Black to move.
pub fn tandem_positions() -> Vec<(&'static str, Position)> {
    vec![
        ("doubled chariots, cannons, horses (Red)", doubled_red()),
        ("three soldiers on a file (Red)", three_soldiers_red()),
        ("soldiers on two files, 3 + 2 (Red)", two_files_red()),
        ("soldiers on two files, 2 + 2 (Red)", two_files_2_2_red()),
        ("four soldiers on a file (Red)", four_soldiers_red()),
        ("five soldiers on a file (Red)", five_soldiers_red()),
        (
            "doubled chariots, cannons, three soldiers (Black)",
            black_tandems(),
        ),
        ("four soldiers on a file (Black)", four_soldiers_black()),
        ("soldiers on two files, 2 + 2 (Black)", two_files_black()),
        ("advisors and elephants sharing files", advisors_elephants()),
    ]
}

/// Red chariots h6/h3 (file 2), cannons b5/b3 (file 8), horses d5/d2 (file 6).
pub fn doubled_red() -> Position {
    position(
        &[
            ('K', "e0"),
            ('R', "h6"),
            ('R', "h3"),
            ('C', "b5"),
            ('C', "b3"),
            ('N', "d5"),
            ('N', "d2"),
            ('P', "e3"),
            ('k', "d9"),
            ('r', "a9"),
            ('n', "b7"),
            ('p', "i6"),
        ],
        'w',
    )
}

/// Red soldiers g5, g6, g7 (file 3) and a3 (file 9).
pub fn three_soldiers_red() -> Position {
    position(
        &[
            ('K', "e0"),
            ('P', "g5"),
            ('P', "g6"),
            ('P', "g7"),
            ('P', "a3"),
            ('k', "d9"),
            ('c', "b7"),
        ],
        'w',
    )
}

/// Red soldiers g5, g6, g7 (file 3) and c5, c6 (file 7).
pub fn two_files_red() -> Position {
    position(
        &[
            ('K', "e0"),
            ('P', "g5"),
            ('P', "g6"),
            ('P', "g7"),
            ('P', "c5"),
            ('P', "c6"),
            ('k', "d9"),
            ('r', "a9"),
        ],
        'w',
    )
}

/// Red soldiers a5, a6 (file 9) and e5, e6 (file 5).
pub fn two_files_2_2_red() -> Position {
    position(
        &[
            ('K', "d0"),
            ('P', "a5"),
            ('P', "a6"),
            ('P', "e5"),
            ('P', "e6"),
            ('k', "f9"),
            ('n', "h9"),
        ],
        'w',
    )
}

/// Red soldiers g5, g6, g7, g8 (file 3) and a3 (file 9).
pub fn four_soldiers_red() -> Position {
    position(
        &[
            ('K', "e0"),
            ('P', "g5"),
            ('P', "g6"),
            ('P', "g7"),
            ('P', "g8"),
            ('P', "a3"),
            ('k', "d9"),
            ('b', "c9"),
        ],
        'w',
    )
}

/// Red soldiers g5 to g9 (file 3).
pub fn five_soldiers_red() -> Position {
    position(
        &[
            ('K', "e0"),
            ('P', "g5"),
            ('P', "g6"),
            ('P', "g7"),
            ('P', "g8"),
            ('P', "g9"),
            ('k', "d9"),
            ('a', "e8"),
        ],
        'w',
    )
}

/// Black to move: chariots c8/c5 (Black file 3), cannons h7/h4 (file 8), soldiers g4/g3/g2
/// (file 7).
pub fn black_tandems() -> Position {
    position(
        &[
            ('k', "e9"),
            ('r', "c8"),
            ('r', "c5"),
            ('c', "h7"),
            ('c', "h4"),
            ('p', "g4"),
            ('p', "g3"),
            ('p', "g2"),
            ('K', "d0"),
            ('R', "a0"),
            ('N', "b2"),
        ],
        'b',
    )
}

/// Black to move: soldiers e4, e3, e2, e1 (Black file 5) and a6 (file 1).
pub fn four_soldiers_black() -> Position {
    position(
        &[
            ('k', "d9"),
            ('p', "e4"),
            ('p', "e3"),
            ('p', "e2"),
            ('p', "e1"),
            ('p', "a6"),
            ('K', "f0"),
            ('C', "h2"),
        ],
        'b',
    )
}

/// Black to move: soldiers a4, a3 (Black file 1) and i4, i2 (file 9).
pub fn two_files_black() -> Position {
    position(
        &[
            ('k', "e9"),
            ('p', "a4"),
            ('p', "a3"),
            ('p', "i4"),
            ('p', "i2"),
            ('K', "d0"),
            ('R', "h0"),
        ],
        'b',
    )
}

/// Red advisors d0/d2 and elephants c0/c4 sharing files; Black advisors f9/f7 and elephants
/// g9/g5.
pub fn advisors_elephants() -> Position {
    position(
        &[
            ('K', "f1"),
            ('A', "d0"),
            ('A', "d2"),
            ('B', "c0"),
            ('B', "c4"),
            ('k', "d8"),
            ('a', "f9"),
            ('a', "f7"),
            ('b', "g9"),
            ('b', "g5"),
            ('R', "a5"),
        ],
        'w',
    )
}
pub mod chess;
