//! Move text checked against a position: UCI coordinates (`e2e4`, `e7e8q`, castling as the
//! king's move `e1g1`, or as the king taking its own rook `e1h1` in Chess960 mode, see
//! [`Position::is_chess960`]) and Standard Algebraic Notation (`Nbd7`, `exd6`, `e8=Q+`, `O-O-O#`),
//! both ways.

use super::position::Position;
use super::types::{Move, MoveKind, PieceKind, Square};
use thiserror::Error;

/// Why UCI move text was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// Not of the form `e2e4` or `e7e8q`.
    #[error("'{0}' is not a UCI move (like e2e4 or e7e8q)")]
    Syntax(String),
    /// Well formed but not legal in the position.
    #[error("'{text}' is not a legal move in {fen}")]
    Illegal {
        /// The move text.
        text: String,
        /// The position it was tried in.
        fen: String,
    },
}

/// Why SAN text was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SanError {
    /// Not SAN at all.
    #[error("'{0}' is not a move in SAN (like Nf3, exd5, e8=Q or O-O)")]
    Syntax(String),
    /// No legal move fits the text.
    #[error("'{text}' is not a legal move in {fen}")]
    Illegal {
        /// The move text.
        text: String,
        /// The position it was tried in.
        fen: String,
    },
    /// More than one legal move fits the text.
    #[error("'{text}' is ambiguous in {fen}")]
    Ambiguous {
        /// The move text.
        text: String,
        /// The position it was tried in.
        fen: String,
    },
}

/// A SAN move taken apart: what the text says about the move.
struct SanParts {
    kind: PieceKind,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    to: Square,
    promotion: Option<PieceKind>,
}

fn parse_san_parts(text: &str) -> Option<SanParts> {
    let b = text.as_bytes();
    let (kind, mut rest) = match b.first()? {
        c @ (b'N' | b'B' | b'R' | b'Q' | b'K') => (PieceKind::from_upper(*c as char)?, &b[1..]),
        _ => (PieceKind::Pawn, b),
    };
    let mut promotion = None;
    if let Some(&last) = rest.last() {
        if matches!(last, b'N' | b'B' | b'R' | b'Q') {
            if kind != PieceKind::Pawn {
                return None;
            }
            promotion = PieceKind::from_upper(last as char);
            rest = &rest[..rest.len() - 1];
            if rest.last() == Some(&b'=') {
                rest = &rest[..rest.len() - 1];
            }
        }
    }
    if rest.len() < 2 {
        return None;
    }
    let to = Square::parse(std::str::from_utf8(&rest[rest.len() - 2..]).ok()?)?;
    let mut prefix = &rest[..rest.len() - 2];
    if let Some(&last) = prefix.last() {
        if last == b'x' || last == b':' {
            prefix = &prefix[..prefix.len() - 1];
        }
    }
    let mut from_file = None;
    let mut from_rank = None;
    for &c in prefix {
        match c {
            b'a'..=b'h' if from_file.is_none() && from_rank.is_none() => from_file = Some(c - b'a'),
            b'1'..=b'8' if from_rank.is_none() => from_rank = Some(c - b'1'),
            _ => return None,
        }
    }
    Some(SanParts {
        kind,
        from_file,
        from_rank,
        to,
        promotion,
    })
}

impl Position {
    /// Reads a UCI move (`e2e4`, `e7e8q`, castling as `e1g1`, or `e1h1` in Chess960 mode)
    /// and checks that it is legal.
    pub fn parse_uci(&self, text: &str) -> Result<Move, MoveError> {
        let syntax = || MoveError::Syntax(text.to_string());
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return Err(syntax());
        }
        let from = Square::parse(&text[0..2]).ok_or_else(syntax)?;
        let to = Square::parse(&text[2..4]).ok_or_else(syntax)?;
        let promotion = match text.as_bytes().get(4) {
            None => None,
            Some(&c) => Some(
                PieceKind::from_upper(c.to_ascii_uppercase() as char)
                    .filter(|k| PieceKind::PROMOTIONS.contains(k))
                    .ok_or_else(syntax)?,
            ),
        };
        self.legal_moves()
            .iter()
            .copied()
            .find(|m| m.from() == from && m.to() == to && m.promotion() == promotion)
            .ok_or_else(|| MoveError::Illegal {
                text: text.to_string(),
                fen: self.to_fen(),
            })
    }

    /// Writes a legal move in SAN, with `+` for check and `#` for mate. The position is
    /// left as it was (the move is made and taken back to see whether it checks).
    pub fn to_san(&mut self, mv: Move) -> Result<String, MoveError> {
        let legal = self.legal_moves();
        if !legal.contains(mv) {
            return Err(MoveError::Illegal {
                text: mv.to_uci(),
                fen: self.to_fen(),
            });
        }
        let (from, to) = (mv.from(), mv.to());
        let mut s = String::with_capacity(8);
        let kind = self.piece_at(from).kind().unwrap_or(PieceKind::Pawn);
        let capture = self.is_capture(mv);
        if mv.kind() == MoveKind::Castle {
            // The target is on the rook's side of the king in either notation.
            s.push_str(if to.file() > from.file() {
                "O-O"
            } else {
                "O-O-O"
            });
        } else if kind == PieceKind::Pawn {
            if capture {
                s.push((b'a' + from.file()) as char);
                s.push('x');
            }
            s.push_str(&to.to_string());
            if let Some(p) = mv.promotion() {
                s.push('=');
                s.push(p.fen_char());
            }
        } else {
            s.push(kind.fen_char());
            let rivals: Vec<Square> = legal
                .iter()
                .filter(|m| {
                    m.to() == to
                        && m.from() != from
                        && m.kind() != MoveKind::Castle
                        && self.piece_at(m.from()).kind() == Some(kind)
                })
                .map(|m| m.from())
                .collect();
            if !rivals.is_empty() {
                if rivals.iter().all(|r| r.file() != from.file()) {
                    s.push((b'a' + from.file()) as char);
                } else if rivals.iter().all(|r| r.rank() != from.rank()) {
                    s.push((b'1' + from.rank()) as char);
                } else {
                    s.push_str(&from.to_string());
                }
            }
            if capture {
                s.push('x');
            }
            s.push_str(&to.to_string());
        }
        self.make(mv);
        if self.in_check() {
            s.push(if self.has_legal_move() { '+' } else { '#' });
        }
        self.unmake();
        Ok(s)
    }

    /// Reads a SAN move and finds the one legal move it names. Accepts check and annotation
    /// suffixes (`+ # ! ?`), `0-0` for `O-O`, a promotion with or without `=`, and
    /// disambiguation that is more than needed.
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        let core = text.trim().trim_end_matches(['+', '#', '!', '?']);
        let legal = self.legal_moves();
        let illegal = || SanError::Illegal {
            text: text.to_string(),
            fen: self.to_fen(),
        };
        let castle = match core {
            "O-O" | "0-0" => Some(true),
            "O-O-O" | "0-0-0" => Some(false),
            _ => None,
        };
        if let Some(king_side) = castle {
            return legal
                .iter()
                .copied()
                .find(|m| {
                    m.kind() == MoveKind::Castle && (m.to().file() > m.from().file()) == king_side
                })
                .ok_or_else(illegal);
        }
        let parts = parse_san_parts(core).ok_or_else(|| SanError::Syntax(text.to_string()))?;
        let mut found = None;
        for &m in legal.iter() {
            if m.kind() == MoveKind::Castle
                || m.to() != parts.to
                || m.promotion() != parts.promotion
                || self.piece_at(m.from()).kind() != Some(parts.kind)
                || parts.from_file.is_some_and(|f| f != m.from().file())
                || parts.from_rank.is_some_and(|r| r != m.from().rank())
            {
                continue;
            }
            if found.is_some() {
                return Err(SanError::Ambiguous {
                    text: text.to_string(),
                    fen: self.to_fen(),
                });
            }
            found = Some(m);
        }
        found.ok_or_else(illegal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn san_basics() {
        let mut pos = Position::startpos();
        let m = pos.parse_san("Nf3").unwrap();
        assert_eq!(m.to_uci(), "g1f3");
        assert_eq!(pos.to_san(m).unwrap(), "Nf3");
        assert_eq!(pos.parse_uci("e2e4").unwrap(), pos.parse_san("e4").unwrap());
        assert!(matches!(pos.parse_san("e5"), Err(SanError::Illegal { .. })));
        assert!(matches!(pos.parse_san("Zz9"), Err(SanError::Syntax(_))));
        assert!(matches!(pos.parse_uci("e2e9"), Err(MoveError::Syntax(_))));
        assert!(matches!(
            pos.parse_uci("e2e5"),
            Err(MoveError::Illegal { .. })
        ));
    }
}
