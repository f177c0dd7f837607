//! The seam between the arena and the two games' rules: one runtime-chosen game ([`GameKind`],
//! from `--game` or a file's `game = ...`), its moves ([`AnyMove`]) and its judged game
//! ([`AnyGame`]). Everything above this module (runner, players, openings, results, PGN, and
//! the ladder, calibration and tuning jobs built on them) is written once: the match on the
//! game happens here, in the players that hold an engine, and where records are written.
//!
//! Results keep xiangqi's vocabulary for sides: "red" is the side that moves first (White in
//! chess), so `1-0`, games.csv's `red`/`black` columns and the ratings need no second meaning.

use crate::play::material::piece_value;
use chuhan_engine::chess;
use chuhan_engine::{Color, Game, GameConfig, GameResult, Move, Position};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Which game a run plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    /// Xiangqi (the default).
    #[default]
    Xiangqi,
    /// Chess.
    Chess,
}

impl GameKind {
    /// The name as commands and files spell it.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Xiangqi => "xiangqi",
            GameKind::Chess => "chess",
        }
    }

    /// Whether this is xiangqi (for `skip_serializing_if`: manifests of xiangqi runs stay as
    /// they were).
    pub fn is_xiangqi(&self) -> bool {
        *self == GameKind::Xiangqi
    }

    /// The standard start position.
    pub const fn start_fen(self) -> &'static str {
        match self {
            GameKind::Xiangqi => chuhan_engine::START_FEN,
            GameKind::Chess => chess::START_FEN,
        }
    }

    /// The bench signature of this game's engine (what manifests record).
    pub const fn bench_signature(self) -> u64 {
        match self {
            GameKind::Xiangqi => chuhan_engine::bench::SIGNATURE,
            GameKind::Chess => chess::bench::SIGNATURE,
        }
    }

    /// The names of the side that moves first and of the other, for records.
    pub const fn sides(self) -> [&'static str; 2] {
        match self {
            GameKind::Xiangqi => ["Red", "Black"],
            GameKind::Chess => ["White", "Black"],
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameKind {
    type Err = String;
    fn from_str(s: &str) -> Result<GameKind, String> {
        match s.trim() {
            "xiangqi" => Ok(GameKind::Xiangqi),
            "chess" => Ok(GameKind::Chess),
            other => Err(format!(
                "unknown game '{other}' (expected xiangqi or chess)"
            )),
        }
    }
}

/// A move of either game. Its `Display` is the game's UCI text (what games.csv stores).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyMove {
    /// A xiangqi move.
    Xiangqi(Move),
    /// A chess move.
    Chess(chess::Move),
}

impl AnyMove {
    /// The UCI text (`h2e2`, `e7e8q`).
    pub fn to_uci(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for AnyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyMove::Xiangqi(m) => f.write_str(&m.to_uci()),
            AnyMove::Chess(m) => write!(f, "{m}"),
        }
    }
}

/// The judge's ruling on a finished game, in the arena's terms: the result with Red for the
/// side that moved first, and the termination's name (`checkmate`, `fifty-moves`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ruling {
    /// The result.
    pub result: GameResult,
    /// The termination name written to results files.
    pub termination: &'static str,
}

fn ruling_of_xiangqi(v: chuhan_engine::Verdict) -> Ruling {
    Ruling {
        result: v.result,
        termination: v.termination.as_str(),
    }
}

fn ruling_of_chess(v: chess::Verdict) -> Ruling {
    Ruling {
        result: match v.result {
            chess::GameResult::WhiteWins => GameResult::RedWins,
            chess::GameResult::BlackWins => GameResult::BlackWins,
            chess::GameResult::Draw => GameResult::Draw,
        },
        termination: v.termination.as_str(),
    }
}

/// A game of either kind being played, judged after every move.
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// Xiangqi, under its repetition rules and move limit.
    Xiangqi(Game),
    /// Chess (the judge's rules are fixed: see [`chess::rules`]).
    Chess(chess::Game),
}

impl AnyGame {
    /// A game of `kind` from `fen`; `config` is xiangqi's (rules, move limit) and unused by
    /// chess.
    pub fn from_fen(kind: GameKind, fen: &str, config: GameConfig) -> Result<AnyGame, String> {
        Ok(match kind {
            GameKind::Xiangqi => AnyGame::Xiangqi(Game::new(
                Position::from_fen(fen).map_err(|e| e.to_string())?,
                config,
            )),
            GameKind::Chess => AnyGame::Chess(chess::Game::new(
                chess::Position::from_fen(fen).map_err(|e| e.to_string())?,
            )),
        })
    }

    /// A game of `kind` from `fen`, chess read under Chess960's castling rules when
    /// `chess960` (castling rights of a king and rooks on any file, castling moves written as
    /// the king taking its own rook); xiangqi ignores the flag.
    pub fn from_fen_rules(
        kind: GameKind,
        chess960: bool,
        fen: &str,
        config: GameConfig,
    ) -> Result<AnyGame, String> {
        match kind {
            GameKind::Chess if chess960 => Ok(AnyGame::Chess(chess::Game::new(
                chess::Position::from_fen_chess960(fen).map_err(|e| e.to_string())?,
            ))),
            _ => AnyGame::from_fen(kind, fen, config),
        }
    }

    /// Whether this is a chess game under Chess960's castling rules.
    pub fn is_chess960(&self) -> bool {
        match self {
            AnyGame::Chess(g) => g.position().is_chess960(),
            AnyGame::Xiangqi(_) => false,
        }
    }

    /// A game of `kind` from its standard start.
    pub fn startpos(kind: GameKind, config: GameConfig) -> AnyGame {
        AnyGame::from_fen(kind, kind.start_fen(), config).expect("the start FEN is valid")
    }

    /// Which game this is.
    pub fn kind(&self) -> GameKind {
        match self {
            AnyGame::Xiangqi(_) => GameKind::Xiangqi,
            AnyGame::Chess(_) => GameKind::Chess,
        }
    }

    /// The verdict on the current position, `None` while the game goes on.
    pub fn verdict(&mut self) -> Option<Ruling> {
        match self {
            AnyGame::Xiangqi(g) => g.verdict().map(ruling_of_xiangqi),
            AnyGame::Chess(g) => g.verdict().map(ruling_of_chess),
        }
    }

    /// Plays a legal move and judges the position it leads to; an illegal move (or one of
    /// the other game) changes nothing and is refused with the reason.
    pub fn play(&mut self, mv: AnyMove) -> Result<Option<Ruling>, String> {
        match (self, mv) {
            (AnyGame::Xiangqi(g), AnyMove::Xiangqi(m)) => g
                .play(m)
                .map(|v| v.map(ruling_of_xiangqi))
                .map_err(|e| e.to_string()),
            (AnyGame::Chess(g), AnyMove::Chess(m)) => g
                .play(m)
                .map(|v| v.map(ruling_of_chess))
                .map_err(|e| e.to_string()),
            (g, m) => Err(format!(
                "{m} is a move of the other game, not of {}",
                g.kind()
            )),
        }
    }

    /// Whether `mv` is legal now.
    pub fn is_legal(&mut self, mv: AnyMove) -> bool {
        match (self, mv) {
            (AnyGame::Xiangqi(g), AnyMove::Xiangqi(m)) => g.position().clone().is_legal(m),
            (AnyGame::Chess(g), AnyMove::Chess(m)) => g.position().is_legal(m),
            _ => false,
        }
    }

    /// Every legal move, in the generator's order.
    pub fn legal_moves(&mut self) -> Vec<AnyMove> {
        match self {
            AnyGame::Xiangqi(g) => g
                .legal_moves()
                .iter()
                .map(|&m| AnyMove::Xiangqi(m))
                .collect(),
            AnyGame::Chess(g) => g.legal_moves().iter().map(|&m| AnyMove::Chess(m)).collect(),
        }
    }

    /// Whether playing `mv` would lose on the spot by xiangqi's repetition rules (perpetual
    /// check or chase); chess has no such rule.
    pub fn would_forfeit(&mut self, mv: AnyMove) -> bool {
        match (self, mv) {
            (AnyGame::Xiangqi(g), AnyMove::Xiangqi(m)) => g.would_forfeit(m),
            _ => false,
        }
    }

    /// Legal moves that do not lose by a repetition rule, or all legal moves when every one
    /// does.
    pub fn playable_moves(&mut self) -> Vec<AnyMove> {
        let all = self.legal_moves();
        let safe: Vec<AnyMove> = all
            .iter()
            .copied()
            .filter(|&mv| !self.would_forfeit(mv))
            .collect();
        if safe.is_empty() {
            all
        } else {
            safe
        }
    }

    /// The moves played since the game started, oldest first.
    pub fn moves(&self) -> Vec<AnyMove> {
        match self {
            AnyGame::Xiangqi(g) => g.moves().into_iter().map(AnyMove::Xiangqi).collect(),
            AnyGame::Chess(g) => g.moves().into_iter().map(AnyMove::Chess).collect(),
        }
    }

    /// Plies played since the game started.
    pub fn ply(&self) -> usize {
        self.moves().len()
    }

    /// Whether the side to move is the one that moved first in the game's rules (Red, White).
    pub fn first_to_move(&self) -> bool {
        match self {
            AnyGame::Xiangqi(g) => g.position().side_to_move() == Color::Red,
            AnyGame::Chess(g) => g.position().side_to_move() == chess::Color::White,
        }
    }

    /// The current position as FEN.
    pub fn fen(&self) -> String {
        match self {
            AnyGame::Xiangqi(g) => g.position().to_fen(),
            AnyGame::Chess(g) => g.position().to_fen(),
        }
    }

    /// The position the game started from, as FEN.
    pub fn start_fen(&self) -> String {
        let plies = self.ply();
        match self {
            AnyGame::Xiangqi(g) => {
                let mut p = g.position().clone();
                (0..plies).for_each(|_| p.unmake());
                p.to_fen()
            }
            AnyGame::Chess(g) => {
                let mut p = g.position().clone();
                (0..plies).for_each(|_| p.unmake());
                p.to_fen()
            }
        }
    }

    /// Reads a move in the game's UCI text; `None` when it does not parse. Chess moves are
    /// read against the position (castling and promotions), so an illegal chess move does
    /// not parse either; xiangqi moves are only read, legality is the caller's to check.
    pub fn parse_uci(&self, text: &str) -> Option<AnyMove> {
        match self {
            AnyGame::Xiangqi(_) => Move::parse_uci(text).map(AnyMove::Xiangqi),
            AnyGame::Chess(g) => g.position().parse_uci(text).ok().map(AnyMove::Chess),
        }
    }

    /// The rough value (centipawns) of what `mv` captures, 0 for a quiet move: what the
    /// `greedy` player maximises.
    pub fn capture_value(&self, mv: AnyMove) -> i32 {
        match (self, mv) {
            (AnyGame::Xiangqi(g), AnyMove::Xiangqi(m)) => {
                g.position().piece_at(m.to()).kind().map_or(0, piece_value)
            }
            (AnyGame::Chess(g), AnyMove::Chess(m)) => {
                if m.kind() == chess::MoveKind::EnPassant {
                    return chess_piece_value(chess::PieceKind::Pawn);
                }
                g.position()
                    .piece_at(m.to())
                    .kind()
                    .map_or(0, chess_piece_value)
            }
            _ => 0,
        }
    }

    /// The xiangqi game, if this is one.
    pub fn as_xiangqi(&mut self) -> Option<&mut Game> {
        match self {
            AnyGame::Xiangqi(g) => Some(g),
            AnyGame::Chess(_) => None,
        }
    }

    /// The chess game, if this is one.
    pub fn as_chess(&mut self) -> Option<&mut chess::Game> {
        match self {
            AnyGame::Chess(g) => Some(g),
            AnyGame::Xiangqi(_) => None,
        }
    }
}

/// How many Chess960 start positions there are (numbered 0 to 959; 518 is the standard one).
pub const CHESS960_POSITIONS: u16 = 960;

/// The back rank of Chess960 start position `n` by Scharnagl's numbering (`RNBQKBNR` for 518),
/// `None` for `n` of 960 or more. The light-squared bishop takes file b, d, f or h by
/// `n % 4`, the dark-squared one a, c, e or g by the next base-4 digit, the queen the
/// `k`-th of the six free squares by the base-6 digit after that, the two knights one of
/// the ten ways to place them on the five left, and rook, king, rook fill the last three.
pub fn chess960_back_rank(n: u16) -> Option<[char; 8]> {
    if n >= CHESS960_POSITIONS {
        return None;
    }
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let mut rank = [' '; 8];
    let n = usize::from(n);
    rank[2 * (n % 4) + 1] = 'B';
    rank[2 * ((n / 4) % 4)] = 'B';
    let free = |rank: &[char; 8]| -> Vec<usize> { (0..8).filter(|&f| rank[f] == ' ').collect() };
    let q = (n / 16) % 6;
    rank[free(&rank)[q]] = 'Q';
    let (a, b) = KNIGHTS[n / 96];
    let empty = free(&rank);
    rank[empty[a]] = 'N';
    rank[empty[b]] = 'N';
    for (square, piece) in free(&rank).into_iter().zip(['R', 'K', 'R']) {
        rank[square] = piece;
    }
    Some(rank)
}

/// The FEN (X-FEN: `KQkq`, each letter the outermost rook on its side of the king) of
/// Chess960 start position `n` ([`chess960_back_rank`]), White to move.
pub fn chess960_start_fen(n: u16) -> Option<String> {
    let white: String = chess960_back_rank(n)?.iter().collect();
    Some(format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1",
        white.to_ascii_lowercase()
    ))
}

/// Rough chess material values (centipawns), for the greedy player and opening balance.
pub fn chess_piece_value(kind: chess::PieceKind) -> i32 {
    match kind {
        chess::PieceKind::Pawn => 100,
        chess::PieceKind::Knight | chess::PieceKind::Bishop => 300,
        chess::PieceKind::Rook => 500,
        chess::PieceKind::Queen => 900,
        chess::PieceKind::King => 10_000,
    }
}

/// Chess material of White minus Black's (kings excluded).
pub fn chess_material_balance(pos: &chess::Position) -> i32 {
    use chess::PieceKind::*;
    [Pawn, Knight, Bishop, Rook, Queen]
        .iter()
        .map(|&k| {
            chess_piece_value(k)
                * (pos.count(chess::Color::White, k) as i32
                    - pos.count(chess::Color::Black, k) as i32)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn both_games_play_and_judge_through_the_seam() {
        let mut g = AnyGame::startpos(GameKind::Chess, GameConfig::default());
        assert_eq!(g.legal_moves().len(), 20);
        for text in ["f2f3", "e7e5", "g2g4"] {
            let mv = g.parse_uci(text).unwrap();
            assert_eq!(g.play(mv), Ok(None));
        }
        let mate = g.parse_uci("d8h4").unwrap();
        let r = g.play(mate).unwrap().unwrap();
        assert_eq!(r.result, GameResult::BlackWins);
        assert_eq!(r.termination, "checkmate");
        assert_eq!(g.start_fen(), chess::START_FEN);
        assert_eq!(g.moves().len(), 4);
        assert!(g.first_to_move(), "White is mated, to move");

        let mut x = AnyGame::startpos(GameKind::Xiangqi, GameConfig::default());
        assert_eq!(x.legal_moves().len(), 44);
        let h2e2 = x.parse_uci("h2e2").unwrap();
        assert!(x.play(h2e2).is_ok());
        assert!(x.play(mate).is_err(), "a chess move is refused in xiangqi");
        assert_eq!(x.start_fen(), chuhan_engine::START_FEN);
    }

    #[test]
    fn chess960_start_positions_follow_scharnagl_numbering() {
        // Fixed points of the numbering, as the published table gives them.
        for (n, rank) in [
            (0, "BBQNNRKR"),
            (518, "RNBQKBNR"),
            (959, "RKRNNQBB"),
            (1, "BQNBNRKR"),
            (4, "QBBNNRKR"),
            (16, "BBNQNRKR"),
            (96, "BBQNRNKR"),
        ] {
            let got: String = chess960_back_rank(n).unwrap().iter().collect();
            assert_eq!(got, rank, "position {n}");
        }
        assert_eq!(chess960_back_rank(960), None);
        assert_eq!(chess960_start_fen(518).unwrap(), chess::START_FEN);
        let mut ranks = HashSet::new();
        for n in 0..CHESS960_POSITIONS {
            let rank = chess960_back_rank(n).unwrap();
            let file = |c: char| rank.iter().position(|&p| p == c).unwrap();
            let rooks: Vec<usize> = (0..8).filter(|&f| rank[f] == 'R').collect();
            let bishops: Vec<usize> = (0..8).filter(|&f| rank[f] == 'B').collect();
            assert!(
                rooks[0] < file('K') && file('K') < rooks[1],
                "{n}: king between rooks"
            );
            assert_ne!(
                bishops[0] % 2,
                bishops[1] % 2,
                "{n}: bishops on both colours"
            );
            ranks.insert(rank);
            // Every start reads as a legal Chess960 position with all four rights.
            let fen = chess960_start_fen(n).unwrap();
            let mut g = AnyGame::from_fen_rules(GameKind::Chess, true, &fen, GameConfig::default())
                .unwrap();
            assert!(g.is_chess960());
            // Only a king and rook that swap squares (f1/g1 or d1/c1) can castle at the start:
            // every other path crosses a piece.
            let castles = g
                .legal_moves()
                .iter()
                .filter(|m| matches!(m, AnyMove::Chess(m) if m.kind() == chess::MoveKind::Castle))
                .count();
            let swaps = usize::from(rank[5] == 'K' && rank[6] == 'R')
                + usize::from(rank[3] == 'K' && rank[2] == 'R');
            assert_eq!(castles, swaps, "{n}: {fen}");
            assert_eq!(g.fen(), fen, "{n}: the FEN writes back as read");
        }
        assert_eq!(ranks.len(), 960, "960 different back ranks");
    }

    #[test]
    fn greedy_values_chess_captures() {
        let g = AnyGame::from_fen(
            GameKind::Chess,
            "4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1",
            GameConfig::default(),
        )
        .unwrap();
        let take = g.parse_uci("e4d5").unwrap();
        let push = g.parse_uci("e4e5").unwrap();
        assert_eq!(g.capture_value(take), 900);
        assert_eq!(g.capture_value(push), 0);
        assert_eq!("chess".parse::<GameKind>(), Ok(GameKind::Chess));
        assert!("go".parse::<GameKind>().unwrap_err().contains("'go'"));
    }
}
