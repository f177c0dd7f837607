//! The game judge: how a xiangqi game ends.
//!
//! After every move, in this order:
//!
//! 1. the side to move with no legal move loses (checkmate in check, stalemate otherwise);
//! 2. at the third occurrence of a position with the same side to move, looking back only to
//!    the last capture, the repetition is judged over the plies from the first of the three
//!    occurrences: perpetual check loses, then (under [`RuleSet::Asian`]) perpetual chase
//!    loses, otherwise it is a draw;
//! 3. neither side has a chariot, horse, cannon or soldier: draw;
//! 4. [`GameConfig::move_limit`] plies without a capture: draw.
//!
//! [`Game`] (in `game.rs`) applies these rules to a game. The repetition judging lives in
//! `repetition.rs` (with the chase rule's attack queries in `chase.rs`): [`cycle_outcome`]
//! judges the most recent cycle (a second occurrence) by the same rules, and [`judge_for`]
//! gives the search its tree judge for a rule set.
//!
//! ```
//! use chuhan_engine::{Game, GameConfig, GameResult, Move, Position, Termination};
//! // Red chariot a5 to e5 mates the lone black general on e9.
//! let pos = Position::from_fen("4k4/9/9/9/R8/9/9/9/5R3/3K5 w - - 0 1").unwrap();
//! let mut game = Game::new(pos, GameConfig::default());
//! let verdict = game.play(Move::parse_uci("a5e5").unwrap()).unwrap().unwrap();
//! assert_eq!(verdict.result, GameResult::RedWins);
//! assert_eq!(verdict.termination, Termination::Checkmate);
//! ```

mod chase;
mod game;
mod repetition;

pub use game::{Game, IllegalMove};
pub use repetition::{
    asian_cycle, check_only_cycle, cycle_outcome, judge_for, repetition_ruling, CycleVerdict,
    RepetitionJudge, RepetitionRuling,
};

use super::types::Color;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Which repetition rules apply.
///
/// Every rule set makes perpetual check lose; they differ in what else a repetition can lose.
/// Code that needs a property of a rule set should ask for it (like
/// [`RuleSet::forbids_perpetual_chase`]) rather than match on the variant: adding a rule set
/// (Chinese rules, say) then means answering those questions, not finding every `match`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// Asian rules: perpetual check loses, then perpetual chase of one piece loses.
    #[default]
    Asian,
    /// Perpetual check loses; every other repetition is a draw.
    CheckOnly,
}

impl RuleSet {
    /// Every rule set, in a stable order.
    pub const ALL: [RuleSet; 2] = [RuleSet::Asian, RuleSet::CheckOnly];

    /// The name used on command lines and in configs: `asian` or `check-only`.
    pub const fn as_str(&self) -> &'static str {
        match self {
            RuleSet::Asian => "asian",
            RuleSet::CheckOnly => "check-only",
        }
    }

    /// Whether a side that perpetually chases (and is not itself chased) loses.
    pub const fn forbids_perpetual_chase(&self) -> bool {
        match self {
            RuleSet::Asian => true,
            RuleSet::CheckOnly => false,
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A rule-set name that is not one of [`RuleSet::ALL`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown rule set '{0}'; expected 'asian' or 'check-only'")]
pub struct UnknownRuleSet(pub String);

impl FromStr for RuleSet {
    type Err = UnknownRuleSet;

    /// Reads `asian` or `check-only` (ASCII case ignored).
    fn from_str(s: &str) -> Result<RuleSet, UnknownRuleSet> {
        RuleSet::ALL
            .into_iter()
            .find(|r| r.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownRuleSet(s.to_string()))
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// Red won (`1-0`).
    RedWins,
    /// Black won (`0-1`).
    BlackWins,
    /// Drawn (`1/2-1/2`).
    Draw,
}

impl GameResult {
    /// The PGN result text: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn as_pgn(&self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// The result in which `color` wins.
    pub const fn win_for(color: Color) -> GameResult {
        match color {
            Color::Red => GameResult::RedWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The winning side, `None` for a draw.
    pub const fn winner(&self) -> Option<Color> {
        match self {
            GameResult::RedWins => Some(Color::Red),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_pgn())
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is in check and has no legal move: it loses.
    Checkmate,
    /// The side to move is not in check and has no legal move: it loses.
    Stalemate,
    /// A repetition in which one side checked with every move: the checking side loses.
    PerpetualCheck,
    /// A repetition in which one side chased the same piece with every move: it loses.
    PerpetualChase,
    /// A repetition that no side loses: draw.
    Repetition,
    /// Neither side has a chariot, horse, cannon or soldier: draw.
    NoAttackingMaterial,
    /// Too many plies without a capture: draw.
    MoveLimit,
}

impl Termination {
    /// Every termination, in a stable order.
    pub const ALL: [Termination; 7] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::PerpetualCheck,
        Termination::PerpetualChase,
        Termination::Repetition,
        Termination::NoAttackingMaterial,
        Termination::MoveLimit,
    ];

    /// The name used in reports and CSV files, e.g. `perpetual-check`.
    pub const fn as_str(&self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::PerpetualCheck => "perpetual-check",
            Termination::PerpetualChase => "perpetual-chase",
            Termination::Repetition => "repetition",
            Termination::NoAttackingMaterial => "no-attacking-material",
            Termination::MoveLimit => "move-limit",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A termination name that is not one of [`Termination::ALL`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown termination '{0}'")]
pub struct UnknownTermination(pub String);

impl FromStr for Termination {
    type Err = UnknownTermination;

    /// Reads a name written by [`Termination::as_str`].
    fn from_str(s: &str) -> Result<Termination, UnknownTermination> {
        Termination::ALL
            .into_iter()
            .find(|t| t.as_str() == s.trim())
            .ok_or_else(|| UnknownTermination(s.to_string()))
    }
}

/// The end of a game: who won and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Verdict {
    /// The result.
    pub result: GameResult,
    /// Why the game ended.
    pub termination: Termination,
}

impl Verdict {
    /// `loser` loses by `termination`.
    pub const fn loss(loser: Color, termination: Termination) -> Verdict {
        Verdict {
            result: GameResult::win_for(loser.flip()),
            termination,
        }
    }

    /// A draw by `termination`.
    pub const fn draw(termination: Termination) -> Verdict {
        Verdict {
            result: GameResult::Draw,
            termination,
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.result, self.termination)
    }
}

/// The verdict on a repetition cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RepetitionOutcome {
    /// Nobody loses: the repetition is a draw.
    Draw,
    /// The side loses, by [`Termination::PerpetualCheck`] or [`Termination::PerpetualChase`].
    Loses(Color, Termination),
}

impl RepetitionOutcome {
    /// The game verdict this outcome gives.
    pub const fn verdict(&self) -> Verdict {
        match *self {
            RepetitionOutcome::Draw => Verdict::draw(Termination::Repetition),
            RepetitionOutcome::Loses(loser, termination) => Verdict::loss(loser, termination),
        }
    }
}

/// The rules a [`Game`] is judged by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameConfig {
    /// The repetition rules.
    pub rules: RuleSet,
    /// Plies without a capture after which the game is drawn (0: no limit). The count
    /// includes the plies-since-capture field of the starting FEN.
    pub move_limit: u16,
}

impl GameConfig {
    /// The default move limit: 120 plies without a capture.
    pub const DEFAULT_MOVE_LIMIT: u16 = 120;
}

impl Default for GameConfig {
    /// Asian rules, 120 plies without a capture.
    fn default() -> Self {
        GameConfig {
            rules: RuleSet::Asian,
            move_limit: Self::DEFAULT_MOVE_LIMIT,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for r in RuleSet::ALL {
            assert_eq!(r.as_str().parse::<RuleSet>(), Ok(r));
            assert_eq!(r.to_string(), r.as_str());
        }
        assert_eq!("Check-Only".parse::<RuleSet>(), Ok(RuleSet::CheckOnly));
        let err = "chinese".parse::<RuleSet>().unwrap_err();
        assert!(err.to_string().contains("chinese"), "{err}");
        for t in Termination::ALL {
            assert_eq!(t.as_str().parse::<Termination>(), Ok(t));
        }
        assert!("mate".parse::<Termination>().is_err());
        assert_eq!(RuleSet::default(), RuleSet::Asian);
    }

    #[test]
    fn results_and_verdicts() {
        assert_eq!(GameResult::RedWins.as_pgn(), "1-0");
        assert_eq!(GameResult::BlackWins.as_pgn(), "0-1");
        assert_eq!(GameResult::Draw.as_pgn(), "1/2-1/2");
        let v = Verdict::loss(Color::Red, Termination::PerpetualChase);
        assert_eq!(v.result, GameResult::BlackWins);
        assert_eq!(v.result.winner(), Some(Color::Black));
        assert_eq!(v.to_string(), "0-1 perpetual-chase");
        assert_eq!(
            RepetitionOutcome::Draw.verdict(),
            Verdict::draw(Termination::Repetition)
        );
        let config = GameConfig::default();
        assert_eq!((config.rules, config.move_limit), (RuleSet::Asian, 120));
    }
}
