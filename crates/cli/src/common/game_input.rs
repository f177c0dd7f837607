//! Input of either game for the commands that read positions and moves (`judge`,
//! `notation`, `perft --engine`): FENs whose error says when the text is the other game's,
//! and chess moves in UCI or SAN.

use crate::common::flags::GameArg;
use chuhan_engine::chess::{MoveError, SanError};

/// `bad FEN '...': why`, and when the text is a valid FEN of the other game, what to do.
pub fn fen_error(game: GameArg, fen: &str, why: &dyn std::fmt::Display) -> String {
    let hint = match game {
        GameArg::Xiangqi if chuhan_engine::chess::Position::from_fen(fen).is_ok() => {
            " (it is a chess FEN: give --game chess)"
        }
        GameArg::Chess if chuhan_engine::Position::from_fen(fen).is_ok() => {
            " (it is a xiangqi FEN: drop --game chess)"
        }
        _ => "",
    };
    format!("bad FEN '{fen}': {why}{hint}")
}

/// The xiangqi position of `fen`, or the message for it.
pub fn xiangqi_position(fen: &str) -> Result<chuhan_engine::Position, String> {
    chuhan_engine::Position::from_fen(fen).map_err(|e| fen_error(GameArg::Xiangqi, fen, &e))
}

/// The chess position of `fen`, or the message for it.
pub fn chess_position(fen: &str) -> Result<chuhan_engine::chess::Position, String> {
    chuhan_engine::chess::Position::from_fen(fen).map_err(|e| fen_error(GameArg::Chess, fen, &e))
}

/// Why a chess move's text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChessMoveError {
    /// Neither UCI nor SAN.
    Syntax,
    /// Well formed, but no legal move (or more than one, in SAN) fits: the reason.
    Illegal(String),
}

/// A chess move in UCI (`e2e4`, `e7e8q`) or SAN (`Nf3`, `exd5`, `e8=Q`, `O-O`), legal in `pos`.
pub fn chess_move(
    pos: &chuhan_engine::chess::Position,
    text: &str,
) -> Result<chuhan_engine::chess::Move, ChessMoveError> {
    match pos.parse_uci(text) {
        Ok(mv) => return Ok(mv),
        Err(e @ MoveError::Illegal { .. }) => return Err(ChessMoveError::Illegal(e.to_string())),
        Err(MoveError::Syntax(_)) => {}
    }
    match pos.parse_san(text) {
        Ok(mv) => Ok(mv),
        Err(SanError::Syntax(_)) => Err(ChessMoveError::Syntax),
        Err(e) => Err(ChessMoveError::Illegal(e.to_string())),
    }
}

/// What to say of a chess move text that is neither UCI nor SAN.
pub const CHESS_MOVE_FORMS: &str = "a chess move in UCI (like e2e4 or e7e8q) or SAN (like Nf3, \
                                    exd5, e8=Q or O-O)";

#[cfg(test)]
mod tests {
    use super::*;
    use chuhan_engine::chess::Position;

    #[test]
    fn chess_moves_read_in_either_notation_and_errors_say_which_kind() {
        let pos = Position::startpos();
        let e4 = chess_move(&pos, "e2e4").unwrap();
        assert_eq!(chess_move(&pos, "e4").unwrap(), e4);
        assert_eq!(chess_move(&pos, "Nf3").unwrap().to_uci(), "g1f3");
        assert_eq!(chess_move(&pos, "h2e2"), Err(ChessMoveError::Illegal(
            "'h2e2' is not a legal move in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
                .into()
        )));
        assert!(matches!(
            chess_move(&pos, "Ke2"),
            Err(ChessMoveError::Illegal(_))
        ));
        assert_eq!(chess_move(&pos, "h0e0"), Err(ChessMoveError::Syntax));
        assert_eq!(chess_move(&pos, "zz"), Err(ChessMoveError::Syntax));
    }

    #[test]
    fn a_fen_of_the_other_game_is_named() {
        let x = chess_position(chuhan_engine::START_FEN).unwrap_err();
        assert!(
            x.starts_with("bad FEN") && x.ends_with("(it is a xiangqi FEN: drop --game chess)"),
            "{x}"
        );
        let c = xiangqi_position(chuhan_engine::chess::START_FEN).unwrap_err();
        assert!(c.ends_with("(it is a chess FEN: give --game chess)"), "{c}");
        let neither = chess_position("8/8 w - - 0 1").unwrap_err();
        assert!(!neither.contains("it is a"), "{neither}");
    }
}
