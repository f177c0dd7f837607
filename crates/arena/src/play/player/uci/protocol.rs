//! The protocol texts and their parsing, UCI and UCCI alike: how squares are written, the
//! handshake words, the `option` lines an engine declares, the `info` lines of its search, the
//! `go` commands built from the move limits, and the `banmoves` list. No process and no I/O
//! here, so all of it is tested (and fuzzed) on plain strings.

use crate::play::any::{AnyGame, AnyMove};
use crate::play::limits::MoveLimits;
use chuhan_engine::search::MATE;
use chuhan_engine::{move_from_fairy, move_to_fairy, Game, Move};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// How the engine writes squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Coordinates {
    /// Ranks 0–9 (`h2e2`): Chuhan, Pikafish and most xiangqi UCI engines.
    #[default]
    #[serde(rename = "a0")]
    A0,
    /// Ranks 1–10 (`h3e3`, `b3b10`): Fairy-Stockfish in `uci` mode.
    #[serde(rename = "a1")]
    A1,
}

impl Coordinates {
    /// Writes a xiangqi move in this convention.
    pub fn write(self, mv: Move) -> String {
        match self {
            Coordinates::A0 => mv.to_uci(),
            Coordinates::A1 => move_to_fairy(mv),
        }
    }

    /// Reads a xiangqi move in this convention (legality not checked).
    pub fn read(self, text: &str) -> Option<Move> {
        match self {
            Coordinates::A0 => Move::parse_uci(text),
            Coordinates::A1 => move_from_fairy(text),
        }
    }

    /// Writes a move of either game (chess moves are always plain UCI).
    pub fn write_any(self, mv: AnyMove) -> String {
        match mv {
            AnyMove::Xiangqi(m) => self.write(m),
            AnyMove::Chess(_) => mv.to_uci(),
        }
    }

    /// Reads a move of `game` in this convention (xiangqi legality not checked; a chess move
    /// is read against the position).
    pub fn read_any(self, game: &AnyGame, text: &str) -> Option<AnyMove> {
        match game {
            AnyGame::Xiangqi(_) => self.read(text).map(AnyMove::Xiangqi),
            AnyGame::Chess(_) => game.parse_uci(text),
        }
    }
}

/// The protocol an external engine speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// UCI as Pikafish and Fairy-Stockfish speak it for xiangqi.
    #[default]
    Uci,
    /// UCCI (ElephantEye, UCCILEAG's engines).
    Ucci,
}

impl Protocol {
    /// The handshake command and the line that ends its answer.
    pub fn handshake(self) -> (&'static str, &'static str) {
        match self {
            Protocol::Uci => ("uci", "uciok"),
            Protocol::Ucci => ("ucci", "ucciok"),
        }
    }

    /// The other protocol (for naming an engine that answers in it).
    pub(super) fn other(self) -> Protocol {
        match self {
            Protocol::Uci => Protocol::Ucci,
            Protocol::Ucci => Protocol::Uci,
        }
    }

    /// The engine-file spelling.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Ucci => "ucci",
        }
    }
}

/// An option an engine declared in its handshake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclaredOption {
    /// Its name as the engine wrote it.
    pub name: String,
    /// For a `spin`: its default, min and max (`None` for other types, or a spin missing one).
    pub spin: Option<(i64, i64, i64)>,
}

/// The option an `option` line declares: UCI `option name NAME... type spin default D min A
/// max B`, UCCI `option NAME type spin min A max B default D` (the keys in any order);
/// `None` for a line that declares none. (Public for the fuzz target `engine_lines`.)
pub fn declared_option(words: &[&str], protocol: Protocol) -> Option<DeclaredOption> {
    let rest = match (protocol, words) {
        (Protocol::Uci, ["option", "name", rest @ ..]) => rest,
        (Protocol::Ucci, ["option", rest @ ..]) => rest,
        _ => return None,
    };
    let end = rest.iter().position(|w| *w == "type").unwrap_or(rest.len());
    if end == 0 {
        return None;
    }
    let tail = &rest[end..];
    let value = |key: &str| -> Option<i64> {
        let i = tail.iter().position(|w| *w == key)?;
        tail.get(i + 1)?.parse().ok()
    };
    let spin = if tail.get(1) == Some(&"spin") {
        match (value("default"), value("min"), value("max")) {
            (Some(d), Some(lo), Some(hi)) => Some((d, lo, hi)),
            _ => None,
        }
    } else {
        None
    };
    Some(DeclaredOption {
        name: rest[..end].join(" "),
        spin,
    })
}

/// What the engine said about its search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchReport {
    /// Last score, centipawns from the mover's view (mates as large scores).
    pub score: Option<i32>,
    /// Last depth.
    pub depth: Option<u32>,
    /// Last node count.
    pub nodes: u64,
}

impl SearchReport {
    /// Takes what an `info` line says (lines for other PVs than the first are ignored).
    pub fn update(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() != Some(&"info") || words.get(1) == Some(&"string") {
            return;
        }
        let value = |key: &str| {
            words
                .iter()
                .position(|w| *w == key)
                .and_then(|i| words.get(i + 1))
        };
        if value("multipv").is_some_and(|v| *v != "1") {
            return;
        }
        if let Some(d) = value("depth").and_then(|v| v.parse().ok()) {
            self.depth = Some(d);
        }
        if let Some(n) = value("nodes").and_then(|v| v.parse().ok()) {
            self.nodes = n;
        }
        if let Some(i) = words.iter().position(|w| *w == "score") {
            let n = words.get(i + 2).and_then(|v| v.parse::<i32>().ok());
            match (words.get(i + 1), n) {
                (Some(&"cp"), Some(cp)) => self.score = Some(cp),
                // The distance clamped to MATE/2 moves: an engine may print any number
                // (`mate 2000000000` overflowed), and the sign must stay the mover's.
                (Some(&"mate"), Some(m)) if m > 0 => {
                    self.score = Some(MATE - (2 * m.min(MATE / 2) - 1))
                }
                (Some(&"mate"), Some(m)) => self.score = Some(-(MATE + 2 * m.max(-MATE / 2))),
                // UCCI writes the score bare: `score 35`.
                (Some(v), _) => {
                    if let Ok(cp) = v.parse::<i32>() {
                        self.score = Some(cp);
                    }
                }
                _ => {}
            }
        }
    }
}

/// The `go` command for the move limits (`ours` is whether the mover is Red).
pub fn go_command(limits: &MoveLimits, red_to_move: bool) -> String {
    let mut go = String::from("go");
    if let Some(left) = limits.time_left {
        let other = limits.opponent_time_left.unwrap_or(left);
        let (w, b) = if red_to_move {
            (left, other)
        } else {
            (other, left)
        };
        let inc = limits.increment.as_millis();
        go.push_str(&format!(
            " wtime {} btime {} winc {inc} binc {inc}",
            w.as_millis(),
            b.as_millis()
        ));
        if let Some(m) = limits.moves_to_go {
            go.push_str(&format!(" movestogo {m}"));
        }
    }
    if let Some(t) = limits.movetime {
        go.push_str(&format!(" movetime {}", t.as_millis().max(1)));
    }
    if let Some(d) = limits.depth {
        go.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = limits.nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    if go == "go" {
        go.push_str(" infinite");
    }
    go
}

/// The UCCI `go` command for the move limits: one mode (`time`, `depth` or `nodes`), times in
/// milliseconds when `millis` (the engine has `usemillisec` on), else whole seconds (at least
/// 1). A fixed move time is `time T movestogo 1`; with no limit, `go depth infinite`.
pub fn ucci_go_command(limits: &MoveLimits, millis: bool) -> String {
    let t = |d: Duration| {
        if millis {
            d.as_millis().max(1)
        } else {
            (d.as_millis() / 1000).max(1)
        }
    };
    if let Some(left) = limits.time_left {
        let other = limits.opponent_time_left.unwrap_or(left);
        let inc = t(limits.increment);
        return match limits.moves_to_go {
            Some(m) => format!(
                "go time {} movestogo {m} opptime {} oppmovestogo {m}",
                t(left),
                t(other)
            ),
            None if limits.increment.is_zero() => {
                format!("go time {} opptime {}", t(left), t(other))
            }
            None => format!(
                "go time {} increment {inc} opptime {} oppincrement {inc}",
                t(left),
                t(other)
            ),
        };
    }
    if let Some(m) = limits.movetime {
        return format!("go time {} movestogo 1", t(m));
    }
    if let Some(d) = limits.depth {
        return format!("go depth {d}");
    }
    if let Some(n) = limits.nodes {
        return format!("go nodes {n}");
    }
    "go depth infinite".into()
}

/// The legal moves that would lose on the spot by the repetition rules, for UCCI's
/// `banmoves`; empty when there are none or when every legal move would (then the engine must
/// choose among them).
pub fn banned_moves(game: &mut Game) -> Vec<Move> {
    let legal: Vec<Move> = game.legal_moves().iter().copied().collect();
    let banned: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&mv| game.would_forfeit(mv))
        .collect();
    if banned.len() == legal.len() {
        Vec::new()
    } else {
        banned
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::any::GameKind;

    #[test]
    fn info_lines_keep_the_last_score_depth_and_nodes() {
        let mut r = SearchReport::default();
        r.update("info depth 3 seldepth 3 multipv 1 score cp 69 nodes 317 pv h10g8");
        r.update("info depth 4 multipv 2 score cp -500 nodes 999");
        r.update("info string hello score cp 7");
        assert_eq!((r.score, r.depth, r.nodes), (Some(69), Some(3), 317));
        r.update("info depth 9 score mate 2 nodes 4000");
        assert_eq!(r.score, Some(MATE - 3));
        r.update("info depth 9 score mate -1 nodes 4100");
        assert_eq!(r.score, Some(-(MATE - 2)));
        assert_eq!(r.nodes, 4100);
    }

    #[test]
    fn go_commands_follow_the_limits() {
        let nodes = MoveLimits {
            nodes: Some(5000),
            ..MoveLimits::default()
        };
        assert_eq!(go_command(&nodes, true), "go nodes 5000");
        let clock = MoveLimits {
            time_left: Some(Duration::from_millis(9000)),
            opponent_time_left: Some(Duration::from_millis(8000)),
            increment: Duration::from_millis(100),
            moves_to_go: Some(12),
            ..MoveLimits::default()
        };
        assert_eq!(
            go_command(&clock, false),
            "go wtime 8000 btime 9000 winc 100 binc 100 movestogo 12"
        );
        let mt = MoveLimits {
            movetime: Some(Duration::from_millis(100)),
            ..MoveLimits::default()
        };
        assert_eq!(go_command(&mt, true), "go movetime 100");
    }

    #[test]
    fn ucci_go_commands_use_its_forms_and_units() {
        let nodes = MoveLimits {
            nodes: Some(5000),
            ..MoveLimits::default()
        };
        assert_eq!(ucci_go_command(&nodes, true), "go nodes 5000");
        let depth = MoveLimits {
            depth: Some(7),
            ..MoveLimits::default()
        };
        assert_eq!(ucci_go_command(&depth, false), "go depth 7");
        let clock = MoveLimits {
            time_left: Some(Duration::from_millis(9000)),
            opponent_time_left: Some(Duration::from_millis(8000)),
            increment: Duration::from_millis(100),
            ..MoveLimits::default()
        };
        assert_eq!(
            ucci_go_command(&clock, true),
            "go time 9000 increment 100 opptime 8000 oppincrement 100"
        );
        // Seconds without usemillisec (never 0, which would mean no time at all).
        assert_eq!(
            ucci_go_command(&clock, false),
            "go time 9 increment 1 opptime 8 oppincrement 1"
        );
        let cyclic = MoveLimits {
            moves_to_go: Some(12),
            increment: Duration::ZERO,
            ..clock
        };
        assert_eq!(
            ucci_go_command(&cyclic, true),
            "go time 9000 movestogo 12 opptime 8000 oppmovestogo 12"
        );
        let mt = MoveLimits {
            movetime: Some(Duration::from_millis(300)),
            ..MoveLimits::default()
        };
        assert_eq!(ucci_go_command(&mt, true), "go time 300 movestogo 1");
        assert_eq!(
            ucci_go_command(&MoveLimits::default(), true),
            "go depth infinite"
        );
    }

    #[test]
    fn declared_options_and_spin_ranges_are_read() {
        let w = |l: &'static str| l.split_whitespace().collect::<Vec<_>>();
        let skill = declared_option(
            &w("option name Skill Level type spin default 20 min -20 max 20"),
            Protocol::Uci,
        )
        .unwrap();
        assert_eq!(skill.name, "Skill Level");
        assert_eq!(skill.spin, Some((20, -20, 20)));
        let hash = declared_option(
            &w("option hashsize type spin min 0 max 1024 default 16"),
            Protocol::Ucci,
        )
        .unwrap();
        assert_eq!(
            (hash.name.as_str(), hash.spin),
            ("hashsize", Some((16, 0, 1024)))
        );
        let check = declared_option(
            &w("option name Ponder type check default false"),
            Protocol::Uci,
        )
        .unwrap();
        assert_eq!((check.name.as_str(), check.spin), ("Ponder", None));
        assert_eq!(
            declared_option(&w("option name type spin"), Protocol::Uci),
            None
        );
        assert_eq!(declared_option(&w("id name x"), Protocol::Uci), None);
    }

    #[test]
    fn ucci_scores_without_cp_are_read() {
        let mut r = SearchReport::default();
        r.update("info depth 6 score -35 pv h2e2 h9g7");
        assert_eq!((r.score, r.depth), (Some(-35), Some(6)));
    }

    #[test]
    fn banned_moves_are_the_forfeiting_ones_only() {
        // The perpetual check of the rules tests: after these moves Red's f5e5 checks for the
        // third time and loses.
        let fen = "4k4/9/9/9/4R4/9/9/9/9/3K5 b - - 1 1";
        let mut game = Game::new(
            chuhan_engine::Position::from_fen(fen).unwrap(),
            chuhan_engine::GameConfig::default(),
        );
        assert_eq!(banned_moves(&mut game), []);
        for m in "e9f9 e5f5 f9e9 f5e5 e9f9 e5f5 f9e9".split(' ') {
            game.play(Move::parse_uci(m).unwrap()).unwrap();
        }
        assert_eq!(banned_moves(&mut game), [Move::parse_uci("f5e5").unwrap()]);
    }

    #[test]
    fn coordinates_convert_both_ways() {
        let mv = Move::parse_uci("b2b9").unwrap();
        assert_eq!(Coordinates::A1.write(mv), "b3b10");
        assert_eq!(Coordinates::A1.read("b3b10"), Some(mv));
        assert_eq!(Coordinates::A0.read("b2b9"), Some(mv));
        assert_eq!(Coordinates::A1.read("b0b1"), None);
        let game = AnyGame::startpos(GameKind::Xiangqi, chuhan_engine::GameConfig::default());
        let any = AnyMove::Xiangqi(mv);
        assert_eq!(Coordinates::A1.write_any(any), "b3b10");
        assert_eq!(Coordinates::A1.read_any(&game, "b3b10"), Some(any));
        let chess = AnyGame::startpos(GameKind::Chess, chuhan_engine::GameConfig::default());
        let e4 = Coordinates::A0.read_any(&chess, "e2e4").unwrap();
        assert_eq!(Coordinates::A1.write_any(e4), "e2e4");
        assert_eq!(Coordinates::A0.read_any(&chess, "e2e5"), None);
    }
}
