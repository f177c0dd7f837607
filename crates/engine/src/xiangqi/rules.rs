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
//! [`Game`] applies these rules to a game; [`cycle_outcome`] gives the search the same
//! repetition verdict for the most recent cycle in its tree.
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

use super::movegen::MoveList;
use super::position::{Position, StateInfo};
use super::types::{Color, Move};
use chase::{points, Board};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Which repetition rules apply.
///
/// Every rule set makes perpetual check lose; they differ in what else a repetition can lose.
/// Code that needs a property of a rule set should ask for it (like
/// [`RuleSet::forbids_perpetual_chase`]) rather than match on the variant, so that a
/// `Chinese` rule set can be added later.
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

/// A move that is not legal in the position it was played in.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{mv} is not a legal move in {fen}")]
pub struct IllegalMove {
    /// The move.
    pub mv: Move,
    /// The position, as FEN.
    pub fen: String,
}

/// A game being played: the position with its history, and the rules it is judged by.
///
/// Piece identities for the chase rule are not stored: within a repetition cycle no piece is
/// captured, so the judge gives every piece an identity at the start of the cycle and follows
/// it through the replayed moves.
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    config: GameConfig,
    /// Plies already on the position's stack when the game started.
    start_ply: usize,
}

impl Game {
    /// Starts a game from a position. Moves already on the position's stack count as earlier
    /// history for the repetition rules but not as moves of this game.
    pub fn new(position: Position, config: GameConfig) -> Game {
        let start_ply = position.ply_count();
        Game {
            position,
            config,
            start_ply,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The rules.
    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    /// The moves played since [`Game::new`], oldest first.
    pub fn moves(&self) -> Vec<Move> {
        self.position.history()[self.start_ply..]
            .iter()
            .map(|st| st.mv)
            .collect()
    }

    /// The legal moves in the current position.
    pub fn legal_moves(&mut self) -> MoveList {
        self.position.legal_moves()
    }

    /// Plays a legal move and judges the position it leads to. An illegal move changes
    /// nothing. The judge does not refuse moves after a verdict: stopping is the caller's
    /// business.
    pub fn play(&mut self, mv: Move) -> Result<Option<Verdict>, IllegalMove> {
        if !self.position.is_legal(mv) {
            return Err(IllegalMove {
                mv,
                fen: self.position.to_fen(),
            });
        }
        self.position.make(mv);
        Ok(self.verdict())
    }

    /// The verdict on the current position, `None` while the game goes on.
    pub fn verdict(&mut self) -> Option<Verdict> {
        judge(&mut self.position, &self.config)
    }

    /// Whether playing `mv` now would lose on the spot by the repetition rules (perpetual
    /// check or chase). False for an illegal move.
    pub fn would_forfeit(&mut self, mv: Move) -> bool {
        if !self.position.is_legal(mv) {
            return false;
        }
        let mover = self.position.side_to_move();
        self.position.make(mv);
        let outcome = repetition_span(&self.position, 3)
            .map(|span| judge_span(&self.position, span, self.config.rules));
        self.position.unmake();
        matches!(outcome, Some(RepetitionOutcome::Loses(loser, _)) if loser == mover)
    }
}

/// The verdict on a position under `config` (see the module documentation for the order).
fn judge(pos: &mut Position, config: &GameConfig) -> Option<Verdict> {
    if !pos.has_legal_move() {
        let termination = if pos.in_check() {
            Termination::Checkmate
        } else {
            Termination::Stalemate
        };
        return Some(Verdict::loss(pos.side_to_move(), termination));
    }
    if let Some(span) = repetition_span(pos, 3) {
        return Some(judge_span(pos, span, config.rules).verdict());
    }
    if pos.no_attacking_material() {
        return Some(Verdict::draw(Termination::NoAttackingMaterial));
    }
    if config.move_limit > 0 && pos.quiet_plies() >= config.move_limit {
        return Some(Verdict::draw(Termination::MoveLimit));
    }
    None
}

/// Judges the most recent repetition cycle on the position's stack: the current position
/// recurring (same side to move) within the plies since the last capture or null move. The
/// cycle runs from the latest earlier occurrence to now. `None` when the current position
/// does not repeat; that answer costs only a scan of the stored keys.
///
/// The position is not changed: the cycle is replayed on a copy of the board.
pub fn cycle_outcome(pos: &mut Position, rules: RuleSet) -> Option<RepetitionOutcome> {
    repetition_span(pos, 2).map(|span| judge_span(pos, span, rules))
}

/// How many plies back the current position occurred for the `(occurrence - 1)`-th time
/// before now, counting back from the latest; `None` when it did not occur that often since
/// the last capture or null move.
fn repetition_span(pos: &Position, occurrence: usize) -> Option<usize> {
    let history = pos.history();
    let n = history.len();
    let window = usize::from(pos.quiet_plies()).min(n);
    let key = pos.key();
    let mut found = 1;
    // The same side is to move only an even number of plies back, and a position cannot
    // recur after two plies.
    (4..=window).step_by(2).find(|&d| {
        if history[n - d].key_before == key {
            found += 1;
        }
        found == occurrence
    })
}

/// Judges the last `span` plies of the position's history, which lead from an earlier
/// occurrence of the current position back to it.
fn judge_span(pos: &Position, span: usize, rules: RuleSet) -> RepetitionOutcome {
    let history = pos.history();
    let cycle = &history[history.len() - span..];
    // The side to move now also moved first in the cycle: it made the even-indexed moves.
    let first = pos.side_to_move();
    let all_check = |offset: usize| cycle.iter().skip(offset).step_by(2).all(|st| st.gave_check);
    match (all_check(0), all_check(1)) {
        (true, false) => return RepetitionOutcome::Loses(first, Termination::PerpetualCheck),
        (false, true) => {
            return RepetitionOutcome::Loses(first.flip(), Termination::PerpetualCheck)
        }
        (true, true) => return RepetitionOutcome::Draw,
        (false, false) => {}
    }
    if !rules.forbids_perpetual_chase() {
        return RepetitionOutcome::Draw;
    }
    // Any position of the cycle with a side in check: no chase verdict.
    if pos.in_check() || cycle.iter().any(|st| st.in_check_before) {
        return RepetitionOutcome::Draw;
    }
    match chasers(pos, cycle, first) {
        [true, false] => RepetitionOutcome::Loses(Color::Red, Termination::PerpetualChase),
        [false, true] => RepetitionOutcome::Loses(Color::Black, Termination::PerpetualChase),
        _ => RepetitionOutcome::Draw,
    }
}

/// Which sides (indexed by colour) chased one and the same enemy piece with every one of
/// their moves in the cycle. `first` made the first move of `cycle`, which ends in `pos`.
fn chasers(pos: &Position, cycle: &[StateInfo], first: Color) -> [bool; 2] {
    let mut board = Board::new(pos);
    for st in cycle.iter().rev() {
        if st.mv.is_none() || !st.captured.is_empty() {
            // Cannot happen within a repetition (captures and null moves end the scan).
            return [false, false];
        }
        board.unplay(st.mv.from().index(), st.mv.to().index(), st.captured);
    }
    // Identity of a piece: the point it stood on at the start of the cycle.
    let mut identity: [u8; 90] = std::array::from_fn(|s| s as u8);
    // Per side: identities of the enemy pieces newly threatened after each of its moves.
    let mut still_chased = [u128::MAX; 2];
    let mut mover = first;
    for st in cycle {
        let (from, to) = (st.mv.from().index(), st.mv.to().index());
        let before = board.chased(mover);
        board.play(from, to);
        identity[to] = identity[from];
        let newly = board.chased(mover) & !before;
        let ids = points(newly).fold(0u128, |acc, s| acc | 1u128 << identity[s]);
        still_chased[mover.index()] &= ids;
        if still_chased == [0, 0] {
            break;
        }
        mover = mover.flip();
    }
    [still_chased[0] != 0, still_chased[1] != 0]
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
