//! One game from an opening to a verdict with a named termination, in either game. The judge
//! ([`AnyGame`]: xiangqi's or chess's rules) applies the rules; small adjudication trackers
//! (resign, draw, ply cap) and the clock end games early.

use crate::play::any::{AnyGame, AnyMove, GameKind};
use crate::play::limits::{Clock, LimitSpec, MoveLimits};
use crate::play::player::{Player, PlayerFailure};
use chuhan_engine::{Color, GameConfig, GameResult};
use serde::{Deserialize, Serialize};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

/// Resign adjudication: both sides agree one side is lost (score beyond `score` centipawns, from
/// Red's point of view of the same sign) for `plies` consecutive plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResignRule {
    /// Threshold in centipawns.
    pub score: i32,
    /// Consecutive plies.
    pub plies: u32,
}

/// Draw adjudication: from ply `after_ply` on, |score| at most `score` for `plies` consecutive
/// plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawRule {
    /// Threshold in centipawns.
    pub score: i32,
    /// Consecutive plies.
    pub plies: u32,
    /// First ply at which the rule may apply.
    pub after_ply: u32,
}

/// All adjudication settings of a run (all off by default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adjudication {
    /// Resign rule.
    pub resign: Option<ResignRule>,
    /// Draw rule.
    pub draw: Option<DrawRule>,
    /// Draw after this many plies, whatever the rules say.
    pub ply_cap: Option<u32>,
}

/// Tracks the resign rule over a game.
#[derive(Clone, Debug)]
pub struct ResignTracker {
    rule: ResignRule,
    /// Consecutive plies, and the sign (+1: Red winning) they agree on.
    streak: u32,
    sign: i32,
}

impl ResignTracker {
    /// A tracker for `rule`.
    pub fn new(rule: ResignRule) -> ResignTracker {
        ResignTracker {
            rule,
            streak: 0,
            sign: 0,
        }
    }

    /// Records the score the mover reported (mover's point of view), or `None`.
    pub fn update(&mut self, mover: Color, score: Option<i32>) {
        let Some(s) = score else {
            self.streak = 0;
            return;
        };
        let red = if mover == Color::Red { s } else { -s };
        if red.abs() < self.rule.score {
            self.streak = 0;
            return;
        }
        let sign = red.signum();
        if self.streak > 0 && sign == self.sign {
            self.streak += 1;
        } else {
            self.streak = 1;
            self.sign = sign;
        }
    }

    /// The winner, once the rule holds.
    pub fn adjudicate(&self) -> Option<GameResult> {
        (self.streak >= self.rule.plies).then_some(if self.sign > 0 {
            GameResult::RedWins
        } else {
            GameResult::BlackWins
        })
    }
}

/// Tracks the draw rule over a game.
#[derive(Clone, Debug)]
pub struct DrawTracker {
    rule: DrawRule,
    streak: u32,
}

impl DrawTracker {
    /// A tracker for `rule`.
    pub fn new(rule: DrawRule) -> DrawTracker {
        DrawTracker { rule, streak: 0 }
    }

    /// Records the score after ply `ply` (1-based), or `None`.
    pub fn update(&mut self, ply: u32, score: Option<i32>) {
        match score {
            Some(s) if ply >= self.rule.after_ply && s.abs() <= self.rule.score => self.streak += 1,
            _ => self.streak = 0,
        }
    }

    /// Whether the rule holds.
    pub fn adjudicate(&self) -> bool {
        self.streak >= self.rule.plies
    }
}

/// Why a game ended: a rules termination, an adjudication, or a failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The judge ended the game (the termination's name: `checkmate`, `perpetual-check`,
    /// `fifty-moves`, ...).
    Rules(&'static str),
    /// Resign adjudication.
    AdjudicationResign,
    /// Draw adjudication.
    AdjudicationDraw,
    /// The ply cap was reached.
    PlyCap,
    /// The mover's flag fell.
    TimeForfeit,
    /// The mover failed (crash, timeout, illegal move, disconnect).
    Failure(PlayerFailure),
    /// A stop was requested ([`crate::interrupt`]) before the game ended: the game is
    /// abandoned, never recorded, and played again by `--resume`.
    Interrupted,
}

impl Ending {
    /// The name written to results files.
    pub fn as_str(&self) -> &'static str {
        match self {
            Ending::Rules(t) => t,
            Ending::AdjudicationResign => "adjudication-resign",
            Ending::AdjudicationDraw => "adjudication-draw",
            Ending::PlyCap => "ply-cap",
            Ending::TimeForfeit => "time-forfeit",
            Ending::Failure(f) => f.termination(),
            Ending::Interrupted => "interrupted",
        }
    }
}

/// What the mover's player said about one move it played, for game records (games.pgn).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveInfo {
    /// Score in centipawns from the mover's point of view, if the player has one.
    pub score: Option<i32>,
    /// Depth reached, if the player searches.
    pub depth: Option<u32>,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time the player took, seconds.
    pub seconds: f64,
}

/// What one game produced.
#[derive(Clone, Debug)]
pub struct GameOutcome {
    /// The result.
    pub result: GameResult,
    /// Why the game ended.
    pub ending: Ending,
    /// The moves played.
    pub moves: Vec<AnyMove>,
    /// What the mover said about each move played, in move order.
    pub info: Vec<MoveInfo>,
    /// Nodes both players reported.
    pub nodes: u64,
    /// Wall time of the game in seconds.
    pub seconds: f64,
}

/// Everything about how games are played, shared by every game of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlaySettings {
    /// Which game (xiangqi or chess).
    pub kind: GameKind,
    /// Chess under Chess960's castling rules (every opening read, every game judged so).
    pub chess960: bool,
    /// Xiangqi's rules for the judge (unused by chess, whose rules are fixed).
    pub game: GameConfig,
    /// Per-move limit.
    pub limit: LimitSpec,
    /// Adjudication.
    pub adjudication: Adjudication,
}

fn loss_for(color: Color) -> GameResult {
    match color {
        Color::Red => GameResult::BlackWins,
        Color::Black => GameResult::RedWins,
    }
}

/// Plays one game from `opening` (a game with no moves yet) between `red` (the side that moves
/// first: White in chess) and `black` (both already told `new_game`).
pub fn play_game(
    opening: AnyGame,
    red: &mut dyn Player,
    black: &mut dyn Player,
    settings: &PlaySettings,
) -> GameOutcome {
    let start = Instant::now();
    let mut game = opening;
    let mut resign = settings.adjudication.resign.map(ResignTracker::new);
    let mut draw = settings.adjudication.draw.map(DrawTracker::new);
    let mut clocks = match settings.limit {
        LimitSpec::Clock(tc) => Some([Clock::new(tc), Clock::new(tc)]),
        _ => None,
    };
    let mut nodes = 0u64;
    let mut plies = 0u32;
    let mut info: Vec<MoveInfo> = Vec::new();
    let finish = |game: &AnyGame, result, ending, nodes, info: &mut Vec<MoveInfo>| GameOutcome {
        result,
        ending,
        moves: game.moves(),
        info: std::mem::take(info),
        nodes,
        seconds: start.elapsed().as_secs_f64(),
    };
    // A game stopped by an interrupt request is abandoned, not lost by either side.
    let abandon = |game: &AnyGame, nodes, info: &mut Vec<MoveInfo>| {
        finish(game, GameResult::Draw, Ending::Interrupted, nodes, info)
    };
    loop {
        if let Some(v) = game.verdict() {
            return finish(
                &game,
                v.result,
                Ending::Rules(v.termination),
                nodes,
                &mut info,
            );
        }
        if settings
            .adjudication
            .ply_cap
            .is_some_and(|cap| plies >= cap)
        {
            return finish(&game, GameResult::Draw, Ending::PlyCap, nodes, &mut info);
        }
        if crate::interrupt::requested() {
            return abandon(&game, nodes, &mut info);
        }
        let mover = if game.first_to_move() {
            Color::Red
        } else {
            Color::Black
        };
        let limits = match &clocks {
            Some(c) => MoveLimits {
                opponent_time_left: c[mover.flip().index()].limits().time_left,
                ..c[mover.index()].limits()
            },
            None => settings.limit.fixed_limits(),
        };
        let player: &mut dyn Player = if mover == Color::Red {
            &mut *red
        } else {
            &mut *black
        };
        let move_start = Instant::now();
        // A panicking player loses the game instead of taking the worker down.
        let answer = catch_unwind(AssertUnwindSafe(|| player.choose_move(&mut game, &limits)))
            .unwrap_or_else(|panic| {
                let text = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "panic".to_string());
                Err(PlayerFailure::Crash(text))
            });
        let took = move_start.elapsed().as_secs_f64();
        let choice = match answer {
            Ok(c) => c,
            // An engine stopped by the same request (a terminal's Ctrl-C reaches its whole
            // process group) has not lost: the game is abandoned.
            Err(_) if crate::interrupt::requested() => return abandon(&game, nodes, &mut info),
            Err(f) => return finish(&game, loss_for(mover), Ending::Failure(f), nodes, &mut info),
        };
        nodes += choice.nodes;
        if let Some(c) = clocks.as_mut() {
            if !c[mover.index()].charge(took) {
                return finish(
                    &game,
                    loss_for(mover),
                    Ending::TimeForfeit,
                    nodes,
                    &mut info,
                );
            }
        }
        let verdict = match game.play(choice.mv) {
            Ok(v) => v,
            Err(_) => {
                let f = PlayerFailure::IllegalMove(choice.mv.to_uci());
                return finish(&game, loss_for(mover), Ending::Failure(f), nodes, &mut info);
            }
        };
        plies += 1;
        info.push(MoveInfo {
            score: choice.score,
            depth: choice.depth,
            nodes: choice.nodes,
            seconds: took,
        });
        if let Some(v) = verdict {
            return finish(
                &game,
                v.result,
                Ending::Rules(v.termination),
                nodes,
                &mut info,
            );
        }
        if let Some(t) = resign.as_mut() {
            t.update(mover, choice.score);
            if let Some(result) = t.adjudicate() {
                return finish(&game, result, Ending::AdjudicationResign, nodes, &mut info);
            }
        }
        if let Some(t) = draw.as_mut() {
            t.update(plies, choice.score);
            if t.adjudicate() {
                return finish(
                    &game,
                    GameResult::Draw,
                    Ending::AdjudicationDraw,
                    nodes,
                    &mut info,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::player::{MoveChoice, SimplePlayer};
    use chuhan_engine::Move;

    fn start(kind: GameKind) -> AnyGame {
        AnyGame::startpos(kind, GameConfig::default())
    }

    #[test]
    fn resign_needs_both_sides_to_agree_for_n_plies() {
        let mut t = ResignTracker::new(ResignRule {
            score: 500,
            plies: 4,
        });
        t.update(Color::Red, Some(600));
        t.update(Color::Black, Some(-700));
        t.update(Color::Red, Some(600));
        assert_eq!(t.adjudicate(), None);
        t.update(Color::Black, Some(100)); // Black disagrees: streak broken
        t.update(Color::Red, Some(600));
        t.update(Color::Black, Some(-600));
        t.update(Color::Red, Some(600));
        assert_eq!(t.adjudicate(), None);
        t.update(Color::Black, Some(-600));
        assert_eq!(t.adjudicate(), Some(GameResult::RedWins));
    }

    #[test]
    fn draw_waits_for_its_first_ply_and_resets_on_missing_scores() {
        let mut t = DrawTracker::new(DrawRule {
            score: 10,
            plies: 3,
            after_ply: 5,
        });
        for ply in 1..=4 {
            t.update(ply, Some(0));
        }
        assert!(!t.adjudicate());
        t.update(5, Some(0));
        t.update(6, None);
        t.update(7, Some(5));
        t.update(8, Some(-10));
        assert!(!t.adjudicate());
        t.update(9, Some(3));
        assert!(t.adjudicate());
    }

    #[test]
    fn games_end_with_a_verdict_and_the_ply_cap_holds() {
        let settings = PlaySettings {
            adjudication: Adjudication {
                ply_cap: Some(30),
                ..Adjudication::default()
            },
            ..PlaySettings::default()
        };
        let mut r = SimplePlayer::random("r");
        let mut g = SimplePlayer::greedy("g");
        r.new_game(1);
        g.new_game(2);
        let out = play_game(start(GameKind::Xiangqi), &mut r, &mut g, &settings);
        assert!(out.moves.len() <= 30);
        if out.moves.len() == 30 {
            assert_eq!(out.ending, Ending::PlyCap);
        }
    }

    struct Panicker;
    impl Player for Panicker {
        fn name(&self) -> &str {
            "panicker"
        }
        fn new_game(&mut self, _: u64) {}
        fn choose_move(
            &mut self,
            _: &mut AnyGame,
            _: &MoveLimits,
        ) -> Result<MoveChoice, PlayerFailure> {
            panic!("boom")
        }
    }

    struct Cheater;
    impl Player for Cheater {
        fn name(&self) -> &str {
            "cheater"
        }
        fn new_game(&mut self, _: u64) {}
        fn choose_move(
            &mut self,
            _: &mut AnyGame,
            _: &MoveLimits,
        ) -> Result<MoveChoice, PlayerFailure> {
            Ok(MoveChoice::bare(AnyMove::Xiangqi(
                Move::parse_uci("a0a5").unwrap(),
            )))
        }
    }

    #[test]
    fn failures_lose_with_a_named_termination() {
        let settings = PlaySettings::default();
        let mut r = SimplePlayer::random("r");
        r.new_game(3);
        let out = play_game(start(GameKind::Xiangqi), &mut r, &mut Panicker, &settings);
        assert_eq!(out.result, GameResult::RedWins);
        assert_eq!(out.ending.as_str(), "crash");
        let out = play_game(start(GameKind::Xiangqi), &mut Cheater, &mut r, &settings);
        assert_eq!(out.result, GameResult::BlackWins);
        assert_eq!(out.ending.as_str(), "illegal-move");
    }
}
