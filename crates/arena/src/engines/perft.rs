//! Perft against an external engine: `go perft D` and its divide (`move: count` lines, then the
//! `Nodes searched: N` total, as Stockfish and its derivatives print them), compared with our
//! own counts. On a difference it walks down by itself: the first root move whose count
//! differs, then the next ply, until the position where the two move lists differ, which it
//! reports with the moves the engine misses and the ones it adds. Written once for both
//! games over [`EngineGame`].

use super::game::{EngineGame, Xiangqi};
use super::{Session, SessionError};
use crate::play::player::uci::Coordinates;
use chuhan_engine::Move;
use std::collections::HashMap;
use std::time::Instant;

/// What one line of `go perft` output is (`M`: the game's move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerftLine<M = Move> {
    /// `move: count`.
    Entry(M, u64),
    /// `Nodes searched: N`.
    Total(u64),
    /// A `bestmove`: the engine searched instead of counting.
    BestMove,
    /// Anything else (`info` lines, blank lines, banners).
    Other,
}

/// Reads one line of xiangqi perft output; `Err` says what is malformed in a line that looks
/// like a divide entry or the total.
pub fn parse_line(line: &str, coords: Coordinates) -> Result<PerftLine, String> {
    parse_line_with(line, &|text| coords.read(text), &Xiangqi::move_form(coords))
}

/// Reads one line of perft output, a divide entry's move with `read`; `form` says what a move
/// looks like, for the message when `read` refuses one.
pub fn parse_line_with<M>(
    line: &str,
    read: &dyn Fn(&str) -> Option<M>,
    form: &str,
) -> Result<PerftLine<M>, String> {
    let l = line.trim();
    if l.starts_with("bestmove") {
        return Ok(PerftLine::BestMove);
    }
    if l.is_empty() || l.starts_with("info") {
        return Ok(PerftLine::Other);
    }
    let Some((left, right)) = l.split_once(':') else {
        return Ok(PerftLine::Other);
    };
    let (left, right) = (left.trim(), right.trim());
    if left.eq_ignore_ascii_case("nodes searched") {
        return right
            .parse()
            .map(PerftLine::Total)
            .map_err(|_| format!("the total '{right}' is not a whole number"));
    }
    // A divide entry: one short token of letters and digits starting with a file.
    let looks_like_move = (4..=6).contains(&left.len())
        && left.starts_with(|c: char| ('a'..='i').contains(&c))
        && left.chars().all(|c| c.is_ascii_alphanumeric());
    if !looks_like_move {
        return Ok(PerftLine::Other);
    }
    let mv = read(left).ok_or_else(|| format!("'{left}' is not {form}"))?;
    let n = right
        .parse()
        .map_err(|_| format!("the count '{right}' of {left} is not a whole number"))?;
    Ok(PerftLine::Entry(mv, n))
}

/// Reads one line of `G`'s perft output given in `pos`.
pub fn parse_game_line<G: EngineGame>(
    line: &str,
    pos: &G::Position,
    coords: Coordinates,
) -> Result<PerftLine<G::Move>, String> {
    parse_line_with(
        line,
        &|text| G::read(pos, text, coords),
        &G::move_form(coords),
    )
}

/// The engine's divide of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineDivide<M = Move> {
    /// Count per root move, in the engine's order.
    pub moves: Vec<(M, u64)>,
    /// Its `Nodes searched` total.
    pub total: u64,
}

/// The `position` command for `root` followed by `path`, in the engine's coordinates.
pub fn position_command(root_fen: &str, path: &[Move], coords: Coordinates) -> String {
    game_position_command::<Xiangqi>(root_fen, path, coords)
}

/// [`position_command`] for `G`'s moves.
pub fn game_position_command<G: EngineGame>(
    root_fen: &str,
    path: &[G::Move],
    coords: Coordinates,
) -> String {
    let mut cmd = format!("position fen {root_fen}");
    if !path.is_empty() {
        cmd.push_str(" moves");
        for &mv in path {
            cmd.push(' ');
            cmd.push_str(&G::write(mv, coords));
        }
    }
    cmd
}

/// Asks the engine for `go perft depth` at `pos`, reached by `path` from `root_fen`, and reads
/// its divide.
pub fn engine_divide<G: EngineGame>(
    s: &mut Session,
    root_fen: &str,
    path: &[G::Move],
    pos: &G::Position,
    depth: u32,
) -> Result<EngineDivide<G::Move>, SessionError> {
    let coords = s.engine().coordinates;
    let (since, limit) = (Instant::now(), s.engine().fixed_limit_timeout);
    s.send(&game_position_command::<G>(root_fen, path, coords))?;
    s.send(&format!("go perft {depth}"))?;
    let mut moves: Vec<(G::Move, u64)> = Vec::new();
    loop {
        let line = s.line_within(
            since,
            limit,
            "'Nodes searched: N' line",
            "fixed_limit_timeout_ms; does the engine support go perft?",
        )?;
        match parse_game_line::<G>(&line, pos, coords) {
            Ok(PerftLine::Entry(mv, n)) => {
                if moves.iter().any(|&(m, _)| m == mv) {
                    return Err(s.error(Some(&line), "the same move is listed twice"));
                }
                moves.push((mv, n));
            }
            Ok(PerftLine::Total(total)) => {
                let sum: u64 = moves.iter().map(|&(_, n)| n).sum();
                if sum != total && !moves.is_empty() {
                    return Err(s.error(
                        Some(&line),
                        &format!("the total is not the sum of the move counts ({sum})"),
                    ));
                }
                if moves.is_empty() && total != 0 {
                    return Err(s.error(
                        Some(&line),
                        "a total without the 'move: count' lines of a divide",
                    ));
                }
                return Ok(EngineDivide { moves, total });
            }
            Ok(PerftLine::BestMove) => {
                return Err(s.error(
                    Some(&line),
                    "the engine has no perft: it searched instead of counting",
                ))
            }
            Ok(PerftLine::Other) => {}
            Err(why) => return Err(s.error(Some(&line), &why)),
        }
    }
}

/// Where the engine and we part: the position whose move lists differ (or, when the lists
/// agree all the way down, the deepest position whose counts differ).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch<M = Move> {
    /// The position, as FEN (xiangqi ranks 0-9).
    pub fen: String,
    /// The moves from the given position to it.
    pub path: Vec<M>,
    /// Legal moves the engine does not generate there.
    pub missing: Vec<M>,
    /// Moves the engine generates there that are not legal.
    pub extra: Vec<M>,
    /// The perft depth asked at that position.
    pub depth: u32,
    /// The engine's total there.
    pub engine_count: u64,
    /// Our total there.
    pub our_count: u64,
    /// Set when the lists agree but the counts do not: what that means.
    pub note: Option<String>,
}

/// The result of comparing one position at one depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome<M = Move> {
    /// Every root move and count agree.
    Agree {
        /// The total.
        nodes: u64,
    },
    /// They differ.
    Differ {
        /// The engine's total at the given position.
        engine_total: u64,
        /// Ours.
        our_total: u64,
        /// Where the difference is.
        mismatch: Mismatch<M>,
    },
}

fn sorted<M: std::fmt::Display>(mut moves: Vec<M>) -> Vec<M> {
    moves.sort_by_key(|m| m.to_string());
    moves
}

/// Compares the engine's perft of `root` at `depth` (at least 1) with ours and, when they
/// differ, walks down to the position where the move lists differ.
pub fn compare<G: EngineGame>(
    s: &mut Session,
    root: &G::Position,
    depth: u32,
) -> Result<Outcome<G::Move>, SessionError> {
    let root_fen = G::to_fen(root);
    let mut pos = root.clone();
    let mut path: Vec<G::Move> = Vec::new();
    let mut d = depth.max(1);
    let mut root_totals = None;
    loop {
        let theirs = engine_divide::<G>(s, &root_fen, &path, &pos, d)?;
        let ours = G::divide(&pos, d);
        let our_total: u64 = ours.iter().map(|&(_, n)| n).sum();
        let totals = *root_totals.get_or_insert((theirs.total, our_total));
        let their_counts: HashMap<G::Move, u64> = theirs.moves.iter().copied().collect();
        let our_counts: HashMap<G::Move, u64> = ours.iter().copied().collect();
        let missing: Vec<G::Move> = ours
            .iter()
            .map(|&(m, _)| m)
            .filter(|m| !their_counts.contains_key(m))
            .collect();
        let extra: Vec<G::Move> = theirs
            .moves
            .iter()
            .map(|&(m, _)| m)
            .filter(|m| !our_counts.contains_key(m))
            .collect();
        let mut mismatch = Mismatch {
            fen: G::to_fen(&pos),
            path: path.clone(),
            missing: sorted(missing),
            extra: sorted(extra),
            depth: d,
            engine_count: theirs.total,
            our_count: our_total,
            note: None,
        };
        let differ = |mismatch| Outcome::Differ {
            engine_total: totals.0,
            our_total: totals.1,
            mismatch,
        };
        if !mismatch.missing.is_empty() || !mismatch.extra.is_empty() {
            return Ok(differ(mismatch));
        }
        let first_different = ours
            .iter()
            .find(|&&(m, n)| their_counts.get(&m) != Some(&n))
            .map(|&(m, _)| m);
        match first_different {
            None if path.is_empty() => return Ok(Outcome::Agree { nodes: our_total }),
            None => {
                // The lists and counts agree here, yet the parent's count of this subtree did
                // not: the engine's count depends on how it got here (bulk counting, a hash).
                mismatch.note = Some(format!(
                    "asked here, the engine agrees ({our_total} at depth {d}); counted from the \
                     position before, it gave a different number for this subtree, so its count \
                     depends on the path (bulk counting at the leaves, a perft hash, an unmake bug)"
                ));
                return Ok(differ(mismatch));
            }
            Some(mv) if d == 1 => {
                mismatch.note = Some(format!(
                    "at depth 1 the engine counts {} for {mv} (one move is one node)",
                    their_counts[&mv]
                ));
                return Ok(differ(mismatch));
            }
            Some(mv) => {
                G::make(&mut pos, mv);
                path.push(mv);
                d -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_lines_parse_in_both_coordinates_and_malformed_ones_say_why() {
        let a0 = Coordinates::A0;
        let a1 = Coordinates::A1;
        let h2e2 = Move::parse_uci("h2e2").unwrap();
        assert_eq!(
            parse_line("h2e2: 1920", a0),
            Ok(PerftLine::Entry(h2e2, 1920))
        );
        assert_eq!(parse_line("h3e3: 7", a1), Ok(PerftLine::Entry(h2e2, 7)));
        let b = Move::parse_uci("b2b9").unwrap();
        assert_eq!(parse_line("b3b10: 41", a1), Ok(PerftLine::Entry(b, 41)));
        assert_eq!(
            parse_line("Nodes searched: 44", a1),
            Ok(PerftLine::Total(44))
        );
        assert_eq!(parse_line("", a0), Ok(PerftLine::Other));
        assert_eq!(parse_line("info depth 1", a0), Ok(PerftLine::Other));
        assert_eq!(parse_line("Position: 1/1", a0), Ok(PerftLine::Other));
        assert_eq!(parse_line("bestmove h2e2", a0), Ok(PerftLine::BestMove));
        let e = parse_line("h2e2: lots", a0).unwrap_err();
        assert!(e.contains("lots") && e.contains("h2e2"), "{e}");
        let e = parse_line("b3b10: 41", a0).unwrap_err();
        assert!(e.contains("a0 coordinates"), "{e}");
        let e = parse_line("Nodes searched: many", a0).unwrap_err();
        assert!(e.contains("many"), "{e}");
    }

    #[test]
    fn position_commands_use_the_engine_coordinates() {
        let path = [Move::parse_uci("b2b9").unwrap()];
        assert_eq!(
            position_command("F w - - 0 1", &path, Coordinates::A1),
            "position fen F w - - 0 1 moves b3b10"
        );
        assert_eq!(
            position_command("F w - - 0 1", &[], Coordinates::A0),
            "position fen F w - - 0 1"
        );
    }
}
