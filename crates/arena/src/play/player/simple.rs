//! The built-in test players `random` and `greedy`: one type, two ways of picking among the
//! playable moves. They let the harness be tested without a search.

use super::{MoveChoice, Player, PlayerFailure};
use crate::play::any::{AnyGame, AnyMove};
use crate::play::limits::MoveLimits;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// How a [`SimplePlayer`] ranks the playable moves before drawing one of the best at random.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preference {
    /// Every playable move is as good as any other: a uniformly random move.
    Random,
    /// Captures of the most valuable piece first (the value of what the move takes).
    Greedy,
}

/// Plays a random move among the ones its [`Preference`] ranks best, never a forfeiting move
/// when another exists. `greedy` captures the most valuable piece it can (ties at random) and
/// is clearly stronger than `random`.
#[derive(Debug)]
pub struct SimplePlayer {
    name: String,
    preference: Preference,
    rng: Xoshiro256PlusPlus,
}

impl SimplePlayer {
    /// A player called `name` with this preference (seeded by [`Player::new_game`]).
    pub fn new(name: &str, preference: Preference) -> SimplePlayer {
        SimplePlayer {
            name: name.to_string(),
            preference,
            rng: Xoshiro256PlusPlus::seed_from_u64(0),
        }
    }

    /// The `random` player.
    pub fn random(name: &str) -> SimplePlayer {
        SimplePlayer::new(name, Preference::Random)
    }

    /// The `greedy` player.
    pub fn greedy(name: &str) -> SimplePlayer {
        SimplePlayer::new(name, Preference::Greedy)
    }
}

impl Player for SimplePlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, seed: u64) {
        self.rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    }

    fn choose_move(
        &mut self,
        game: &mut AnyGame,
        _limits: &MoveLimits,
    ) -> Result<MoveChoice, PlayerFailure> {
        let moves = game.playable_moves();
        if moves.is_empty() {
            return Err(PlayerFailure::Crash(
                "asked to move with no legal move".into(),
            ));
        }
        let gain = |mv: AnyMove| match self.preference {
            Preference::Random => 0,
            Preference::Greedy => game.capture_value(mv),
        };
        let best = moves.iter().map(|&mv| gain(mv)).max().unwrap_or(0);
        // With every gain equal (random) this keeps all moves in order, so both preferences
        // draw from the same generator in the same way.
        let top: Vec<AnyMove> = moves
            .iter()
            .copied()
            .filter(|&mv| gain(mv) == best)
            .collect();
        let mv = top[self.rng.gen_range(0..top.len())];
        Ok(MoveChoice::bare(mv))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::any::GameKind;
    use chuhan_engine::{Game, GameConfig, Position};

    #[test]
    fn greedy_takes_the_most_valuable_piece() {
        // Red chariot on e4 can take a black soldier on e6 or a black chariot on a4.
        let fen = "4k4/9/9/4p4/9/r3R4/9/9/9/3K5 w - - 0 1";
        let pos = Position::from_fen(fen).unwrap();
        let mut game = AnyGame::Xiangqi(Game::new(pos, GameConfig::default()));
        let mut p = SimplePlayer::greedy("g");
        p.new_game(1);
        let choice = p.choose_move(&mut game, &MoveLimits::default()).unwrap();
        assert_eq!(choice.mv.to_uci(), "e4a4");
    }

    #[test]
    fn random_is_reproducible_per_seed() {
        let pick = |seed| {
            let mut game = AnyGame::startpos(GameKind::Xiangqi, GameConfig::default());
            let mut p = SimplePlayer::random("r");
            p.new_game(seed);
            (0..10)
                .map(|_| {
                    let mv = p.choose_move(&mut game, &MoveLimits::default()).unwrap().mv;
                    game.play(mv).unwrap();
                    mv
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(pick(7), pick(7));
        assert_ne!(pick(7), pick(8));
    }

    #[test]
    fn greedy_plays_chess_too() {
        // White's pawn on e4 can take a queen on d5 or a knight on f5.
        let fen = "4k3/8/8/3q1n2/4P3/8/8/4K3 w - - 0 1";
        let mut game = AnyGame::from_fen(GameKind::Chess, fen, GameConfig::default()).unwrap();
        let mut p = SimplePlayer::greedy("g");
        p.new_game(1);
        let choice = p.choose_move(&mut game, &MoveLimits::default()).unwrap();
        assert_eq!(choice.mv.to_uci(), "e4d5");
    }
}
