//! An independent, slow reference: a 0x88 mailbox generator (pseudo-legal moves, each tried on
//! a copy of the board and kept when the king is not attacked, found by scanning outwards from
//! it) shares nothing with the engine's bitboards but the FEN reader. Its legal move lists
//! must equal the engine's at every ply of seeded random games, and its perft counts the
//! engine's on every suite position.

use chuhan_engine::chess::{parse_suite, perft, Position, Setup, START_FEN};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::BTreeSet;

const KNIGHT: [i32; 8] = [33, 31, 18, 14, -33, -31, -18, -14];
const KING: [i32; 8] = [1, -1, 16, -16, 17, 15, -17, -15];
const ROOK: [i32; 4] = [1, -1, 16, -16];
const BISHOP: [i32; 4] = [17, 15, -17, -15];

/// Pieces as signed numbers: 1 pawn, 2 knight, 3 bishop, 4 rook, 5 queen, 6 king; negative
/// for Black.
#[derive(Clone)]
struct Ref {
    board: [i8; 128],
    white: bool,
    /// K, Q, k, q.
    castle: [bool; 4],
    ep: Option<i32>,
}

fn on(sq: i32) -> bool {
    sq & 0x88 == 0
}

fn name(sq: i32) -> String {
    format!("{}{}", (b'a' + (sq & 7) as u8) as char, (sq >> 4) + 1)
}

impl Ref {
    fn from_setup(s: &Setup) -> Ref {
        let mut board = [0i8; 128];
        for (i, p) in s.board.iter().enumerate() {
            if let Some(k) = p.kind() {
                let v = k as i8;
                let sq = (i / 8) * 16 + i % 8;
                board[sq] = if p.color() == chuhan_engine::chess::Color::White {
                    v
                } else {
                    -v
                };
            }
        }
        let c = s.castling.0;
        Ref {
            board,
            white: s.side == chuhan_engine::chess::Color::White,
            castle: [c & 1 != 0, c & 2 != 0, c & 4 != 0, c & 8 != 0],
            ep: s
                .en_passant
                .map(|e| (e.rank() as i32) * 16 + e.file() as i32),
        }
    }

    fn mine(&self, v: i8) -> bool {
        if self.white {
            v > 0
        } else {
            v < 0
        }
    }

    /// Whether `sq` is attacked by the side `by_white`.
    fn attacked(&self, sq: i32, by_white: bool) -> bool {
        let sign: i8 = if by_white { 1 } else { -1 };
        let pawn_from = if by_white { [-15, -17] } else { [15, 17] };
        for d in pawn_from {
            let s = sq + d;
            if on(s) && self.board[s as usize] == sign {
                return true;
            }
        }
        for d in KNIGHT {
            let s = sq + d;
            if on(s) && self.board[s as usize] == 2 * sign {
                return true;
            }
        }
        for d in KING {
            let s = sq + d;
            if on(s) && self.board[s as usize] == 6 * sign {
                return true;
            }
        }
        for (dirs, kind) in [(ROOK, 4), (BISHOP, 3)] {
            for d in dirs {
                let mut s = sq + d;
                while on(s) {
                    let v = self.board[s as usize];
                    if v != 0 {
                        if v == kind * sign || v == 5 * sign {
                            return true;
                        }
                        break;
                    }
                    s += d;
                }
            }
        }
        false
    }

    fn king(&self, white: bool) -> i32 {
        let k = if white { 6 } else { -6 };
        (0..128)
            .find(|&s| on(s) && self.board[s as usize] == k)
            .unwrap()
    }

    /// Pseudo-legal moves as (from, to, promotion kind 0 or 2..=5).
    fn pseudo(&self) -> Vec<(i32, i32, i8)> {
        let mut out = Vec::new();
        let (fwd, start, last) = if self.white { (16, 1, 7) } else { (-16, 6, 0) };
        for from in (0..128).filter(|&s| on(s)) {
            let v = self.board[from as usize];
            if v == 0 || !self.mine(v) {
                continue;
            }
            let add = |to: i32, out: &mut Vec<(i32, i32, i8)>| {
                if v.abs() == 1 && to >> 4 == last {
                    for p in [5, 4, 3, 2] {
                        out.push((from, to, p));
                    }
                } else {
                    out.push((from, to, 0));
                }
            };
            match v.abs() {
                1 => {
                    let one = from + fwd;
                    if on(one) && self.board[one as usize] == 0 {
                        add(one, &mut out);
                        let two = one + fwd;
                        if from >> 4 == start && self.board[two as usize] == 0 {
                            add(two, &mut out);
                        }
                    }
                    for side in [-1, 1] {
                        let to = from + fwd + side;
                        if !on(to) {
                            continue;
                        }
                        let t = self.board[to as usize];
                        if (t != 0 && !self.mine(t)) || Some(to) == self.ep {
                            add(to, &mut out);
                        }
                    }
                }
                2 | 6 => {
                    let steps = if v.abs() == 2 { KNIGHT } else { KING };
                    for d in steps {
                        let to = from + d;
                        if on(to) && !self.mine(self.board[to as usize]) {
                            add(to, &mut out);
                        }
                    }
                }
                k => {
                    let mut dirs = Vec::new();
                    if k != 3 {
                        dirs.extend(ROOK);
                    }
                    if k != 4 {
                        dirs.extend(BISHOP);
                    }
                    for d in dirs {
                        let mut to = from + d;
                        while on(to) {
                            let t = self.board[to as usize];
                            if self.mine(t) {
                                break;
                            }
                            add(to, &mut out);
                            if t != 0 {
                                break;
                            }
                            to += d;
                        }
                    }
                }
            }
        }
        // Castling: rights, empty squares between king and rook, and the king's three
        // squares (start, passed, arrival) not attacked.
        let (base, rights) = if self.white {
            (0, [0, 1])
        } else {
            (112, [2, 3])
        };
        let king = if self.white { 6 } else { -6 };
        let rook = if self.white { 4 } else { -4 };
        if self.board[base + 4] == king {
            let them = !self.white;
            if self.castle[rights[0]]
                && self.board[base + 7] == rook
                && self.board[base + 5] == 0
                && self.board[base + 6] == 0
                && (4..=6).all(|f| !self.attacked(base as i32 + f, them))
            {
                out.push((base as i32 + 4, base as i32 + 6, 0));
            }
            if self.castle[rights[1]]
                && self.board[base] == rook
                && (1..=3).all(|f| self.board[base + f] == 0)
                && (2..=4).all(|f| !self.attacked(base as i32 + f, them))
            {
                out.push((base as i32 + 4, base as i32 + 2, 0));
            }
        }
        out
    }

    fn play(&self, (from, to, promo): (i32, i32, i8)) -> Ref {
        let mut r = self.clone();
        let v = r.board[from as usize];
        r.board[from as usize] = 0;
        if v.abs() == 1 && Some(to) == self.ep {
            let behind = if self.white { to - 16 } else { to + 16 };
            r.board[behind as usize] = 0;
        }
        r.board[to as usize] = if promo != 0 { promo * v.signum() } else { v };
        if v.abs() == 6 && (to - from).abs() == 2 {
            let (rf, rt) = if to > from {
                (from + 3, from + 1)
            } else {
                (from - 4, from - 1)
            };
            r.board[rt as usize] = r.board[rf as usize];
            r.board[rf as usize] = 0;
        }
        for (sq, right) in [
            (4, &[0, 1][..]),
            (0, &[1][..]),
            (7, &[0][..]),
            (116, &[2, 3][..]),
            (112, &[3][..]),
            (119, &[2][..]),
        ] {
            if from == sq || to == sq {
                for &i in right {
                    r.castle[i] = false;
                }
            }
        }
        r.ep = (v.abs() == 1 && (to - from).abs() == 32).then_some((from + to) / 2);
        r.white = !self.white;
        r
    }

    fn legal(&self) -> Vec<((i32, i32, i8), Ref)> {
        self.pseudo()
            .into_iter()
            .filter_map(|m| {
                let next = self.play(m);
                (!next.attacked(next.king(self.white), !self.white)).then_some((m, next))
            })
            .collect()
    }

    fn uci((from, to, promo): (i32, i32, i8)) -> String {
        let p = match promo {
            5 => "q",
            4 => "r",
            3 => "b",
            2 => "n",
            _ => "",
        };
        format!("{}{}{p}", name(from), name(to))
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|(_, next)| next.perft(depth - 1)).sum()
    }
}

fn reference(p: &Position) -> Ref {
    Ref::from_setup(&p.to_setup())
}

#[test]
fn legal_move_lists_agree_at_every_ply_of_random_games() {
    let starts = [
        START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/1P4P1/8/3pP3/3Pp3/8/1p4p1/R3K2R w KQkq d6 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ];
    let mut positions = 0;
    for g in 0..60u64 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(77 + g);
        let mut p = Position::from_fen(starts[g as usize % starts.len()]).unwrap();
        for _ in 0..150 {
            let ours: BTreeSet<String> = p.legal_moves().iter().map(|m| m.to_uci()).collect();
            let theirs: BTreeSet<String> = reference(&p)
                .legal()
                .into_iter()
                .map(|(m, _)| Ref::uci(m))
                .collect();
            assert_eq!(ours, theirs, "{}", p.to_fen());
            positions += 1;
            let legal = p.legal_moves();
            if legal.is_empty() {
                break;
            }
            p.make(legal.as_slice()[rng.gen_range(0..legal.len())]);
        }
    }
    assert!(positions > 5_000, "{positions} positions");
}

#[test]
fn perft_agrees_with_the_reference_on_every_suite_position() {
    let suite = parse_suite(include_str!("data/chess.epd")).unwrap();
    for e in suite {
        let mut p = Position::from_fen(&e.fen).unwrap();
        let r = reference(&p);
        // Depth 3 where the count is small, else depth 2 (the reference is slow).
        let depth = if e.expected.iter().any(|&(d, n)| d == 3 && n <= 100_000) {
            3
        } else {
            2
        };
        assert_eq!(
            perft(&mut p, depth),
            r.perft(depth),
            "line {} depth {depth}: {}",
            e.line,
            e.fen
        );
    }
}
