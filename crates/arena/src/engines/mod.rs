//! Jobs for any UCI engine that are not games: [`perft`] (divide comparison that walks down to
//! the position where the move lists differ), [`bench`](mod@bench) (the node-count signature) and
//! [`check`] (a short protocol check, as fastchess's compliance mode), each for either game
//! through [`game::EngineGame`]; and [`uci_front`], the
//! pure parsing of `chuhan uci`'s own input. Each job
//! talks to the engine through [`Session`], so its errors name the engine file, the command
//! sent and the line received.

pub mod bench;
pub mod check;
pub mod game;
pub mod perft;
pub mod uci_front;

pub use crate::play::player::uci::session::{Session, SessionError};
