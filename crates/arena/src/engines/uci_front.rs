//! The pure half of `chuhan uci`, the engine's own UCI front end: the tokenizer of an input
//! line into a [`Command`], and the parsing of `setoption`, `position` and `go`, with no I/O
//! and no threads. The binary's `commands/uci*.rs` keep the session (output, search thread)
//! and call these; the fuzz target `uci_command` drives them with arbitrary bytes.
//!
//! Errors are the text of the `info string` the session answers with: malformed input never
//! ends a session.

use crate::play::config::find_level;
use chuhan_engine::search::smp::MAX_THREADS;
use chuhan_engine::search::tt::MAX_TT_MB;
use chuhan_engine::search::uci_score;
use chuhan_engine::{params, Level, Limits, Params, Position, RuleSet, SKILL_MAX};
use std::fmt;
use std::time::Duration;

pub use crate::play::player::lines::{read_capped_line, CappedLine, MAX_LINE_BYTES};

/// One input line of a UCI session, tokenized (words split at whitespace).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: the handshake.
    Uci,
    /// `isready`.
    IsReady,
    /// `ucinewgame`.
    UciNewGame,
    /// `setoption name <name> [value <value>]` (the name and value as [`split_setoption`]
    /// reads them).
    SetOption {
        /// The option's name (may hold spaces).
        name: String,
        /// Its value, if one was given.
        value: Option<String>,
    },
    /// `position startpos|fen <FEN> [moves ...]`.
    Position {
        /// The FEN (its words joined by one space), `None` for the start position.
        fen: Option<String>,
        /// The moves after `moves`, as written.
        moves: Vec<String>,
    },
    /// `go perft [<depth>]`: the depth word as written.
    Perft(Option<String>),
    /// `go ...`: its words, read by [`parse_go`] for the side to move.
    Go(Vec<String>),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `d`: the position's FEN.
    Display,
    /// `bench`.
    Bench,
    /// Any other first word.
    Unknown(String),
}

/// Tokenizes one input line: `None` for a blank line, `Err` (the `info string` text) for a
/// `setoption` or `position` command that does not parse.
pub fn parse_command(line: &str) -> Option<Result<Command, String>> {
    let mut words = line.split_whitespace();
    let cmd = words.next()?;
    let rest: Vec<&str> = words.collect();
    let owned = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<String>>();
    Some(Ok(match cmd {
        "uci" => Command::Uci,
        "isready" => Command::IsReady,
        "ucinewgame" => Command::UciNewGame,
        "setoption" => match split_setoption(&rest) {
            Ok((name, value)) => Command::SetOption { name, value },
            Err(e) => return Some(Err(e)),
        },
        "position" => match split_position(&rest) {
            Ok((fen, moves)) => Command::Position {
                fen,
                moves: owned(moves),
            },
            Err(e) => return Some(Err(e)),
        },
        "go" if rest.first() == Some(&"perft") => {
            Command::Perft(rest.get(1).map(|d| d.to_string()))
        }
        "go" => Command::Go(owned(&rest)),
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        "d" => Command::Display,
        "bench" => Command::Bench,
        other => Command::Unknown(other.to_string()),
    }))
}

impl fmt::Display for Command {
    /// The command as a client would send it; [`parse_command`] reads it back to the same
    /// command.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Uci => f.write_str("uci"),
            Command::IsReady => f.write_str("isready"),
            Command::UciNewGame => f.write_str("ucinewgame"),
            Command::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                match value {
                    Some(v) => write!(f, " value {v}"),
                    None => Ok(()),
                }
            }
            Command::Position { fen, moves } => {
                match fen {
                    Some(fen) => write!(f, "position fen {fen}")?,
                    None => f.write_str("position startpos")?,
                }
                if !moves.is_empty() {
                    write!(f, " moves {}", moves.join(" "))?;
                }
                Ok(())
            }
            Command::Perft(depth) => match depth {
                Some(d) => write!(f, "go perft {d}"),
                None => f.write_str("go perft"),
            },
            Command::Go(words) if words.is_empty() => f.write_str("go"),
            Command::Go(words) => write!(f, "go {}", words.join(" ")),
            Command::Stop => f.write_str("stop"),
            Command::PonderHit => f.write_str("ponderhit"),
            Command::Quit => f.write_str("quit"),
            Command::Display => f.write_str("d"),
            Command::Bench => f.write_str("bench"),
            Command::Unknown(word) => f.write_str(word),
        }
    }
}

/// `setoption name <id...> [value <x...>]` -> (name, value).
pub fn split_setoption(rest: &[&str]) -> Result<(String, Option<String>), String> {
    let joined = rest.join(" ");
    let Some(after_name) = joined.strip_prefix("name ") else {
        return Err("setoption needs 'name <option> [value <value>]'".into());
    };
    Ok(match after_name.split_once(" value ") {
        Some((n, v)) => (n.trim().to_string(), Some(v.trim().to_string())),
        None => (after_name.trim().to_string(), None),
    })
}

/// `position startpos|fen <FEN> [moves ...]` -> (the FEN, or None for the start; the moves).
pub fn split_position<'a>(rest: &'a [&'a str]) -> Result<(Option<String>, &'a [&'a str]), String> {
    let (fen, moves_at) = match rest.first() {
        Some(&"startpos") => (None, 1),
        Some(&"fen") => {
            let end = rest
                .iter()
                .position(|w| *w == "moves")
                .unwrap_or(rest.len());
            (Some(rest[1..end].join(" ")), end)
        }
        _ => return Err("position needs 'startpos' or 'fen <FEN>'".into()),
    };
    match rest.get(moves_at) {
        Some(&"moves") => Ok((fen, &rest[moves_at + 1..])),
        Some(w) => Err(format!("unexpected '{w}' in position command")),
        None => Ok((fen, &[])),
    }
}

/// The limits of `go ...` for the side to move (`first_to_move`: the side whose clock is
/// `wtime`). A clock becomes the soft and hard times of [`Limits::clock`].
pub fn parse_go<S: AsRef<str>>(rest: &[S], first_to_move: bool) -> Result<Limits, String> {
    let mut limits = Limits::default();
    let (mut wtime, mut btime, mut winc, mut binc, mut movestogo) = (None, None, 0u64, 0u64, None);
    let mut infinite = false;
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i].as_ref();
        let num = rest.get(i + 1).and_then(|v| v.as_ref().parse::<i64>().ok());
        let needs_value = !matches!(key, "infinite" | "ponder");
        if needs_value && num.is_none() {
            return Err(format!("go {key} needs a number"));
        }
        let n = num.unwrap_or(0).max(0) as u64;
        match key {
            "depth" => limits.depth = Some(n.clamp(1, 100) as u32),
            "nodes" => limits.nodes = Some(n.max(1)),
            "movetime" => {
                limits.soft_time = Some(Duration::from_millis(n.max(1)));
                limits.hard_time = Some(Duration::from_millis(n.max(1)));
            }
            "wtime" => wtime = Some(n),
            "btime" => btime = Some(n),
            "winc" => winc = n,
            "binc" => binc = n,
            "movestogo" => movestogo = Some(n.max(1)),
            "mate" => limits.depth = Some((2 * n).clamp(1, 100) as u32),
            "infinite" => infinite = true,
            "ponder" => {}
            other => return Err(format!("unknown go parameter '{other}'")),
        }
        i += if needs_value { 2 } else { 1 };
    }
    let (time, inc) = if first_to_move {
        (wtime, winc)
    } else {
        (btime, binc)
    };
    if let (Some(t), false) = (time, infinite) {
        let clock = Limits::clock(
            Duration::from_millis(t),
            Duration::from_millis(inc),
            movestogo.map(|m| m.min(u64::from(u32::MAX)) as u32),
        );
        limits.soft_time = clock.soft_time;
        limits.hard_time = clock.hard_time;
    }
    Ok(limits)
}

/// A `setoption` of `chuhan uci` (xiangqi), checked: what the session then applies.
#[derive(Clone, Debug, PartialEq)]
pub enum XiangqiOption {
    /// `Hash`: transposition table megabytes, within 1..=[`MAX_TT_MB`].
    Hash(usize),
    /// `Clear Hash` (a button).
    ClearHash,
    /// `Threads`: search threads (Lazy SMP), within 1..=[`MAX_THREADS`].
    Threads(usize),
    /// `Level`: a level, or `none` for full strength; also what `Skill Level` sets (0 to 19:
    /// Hard with the skill dial at that value, [`Level::set_skill`]; 20: full strength).
    Level(Option<Level>),
    /// `Rules`: the repetition rules.
    Rules(RuleSet),
    /// `NullMove`.
    NullMove(bool),
    /// `LMR`.
    Lmr(bool),
    /// `CheckExtension`.
    CheckExtension(bool),
    /// `Futility`.
    Futility(bool),
    /// A parameter of the engine's table (its name as given), within its range.
    Param(String, i64),
    /// `Evaluation`: `network` (false, the default) or `handcrafted` (true).
    Handcrafted(bool),
}

/// Reads a `setoption` of `chuhan uci` (names are case-insensitive but for parameter names;
/// `levels` are the ones the `Level` option offers). The error is the `info string` text.
pub fn xiangqi_option(
    name: &str,
    value: Option<&str>,
    levels: &[Level],
) -> Result<XiangqiOption, String> {
    let parse_bool = |v: Option<&str>| match v.map(|s| s.to_ascii_lowercase()) {
        Some(s) if s == "true" => Ok(true),
        Some(s) if s == "false" => Ok(false),
        other => Err(format!(
            "'{}' is not true or false",
            other.unwrap_or_default()
        )),
    };
    match name.to_ascii_lowercase().as_str() {
        "hash" => value
            .and_then(|v| v.parse::<usize>().ok())
            .filter(|&mb| (1..=MAX_TT_MB).contains(&mb))
            .map(XiangqiOption::Hash)
            .ok_or_else(|| format!("Hash value '{}' is not 1..{MAX_TT_MB}", value.unwrap_or(""))),
        "clear hash" => Ok(XiangqiOption::ClearHash),
        "threads" => value
            .and_then(|v| v.parse::<usize>().ok())
            .filter(|&n| (1..=MAX_THREADS).contains(&n))
            .map(XiangqiOption::Threads)
            .ok_or_else(|| {
                format!(
                    "Threads value '{}' is not 1..{MAX_THREADS}",
                    value.unwrap_or("")
                )
            }),
        "level" => match value {
            Some("none") => Ok(XiangqiOption::Level(None)),
            Some(v) => find_level(levels, v)
                .map(|l| XiangqiOption::Level(Some(l)))
                .ok_or_else(|| format!("unknown level '{v}'")),
            None => Err("Level needs a value".into()),
        },
        "skill level" => {
            let skill = value
                .and_then(|v| v.parse::<u32>().ok())
                .filter(|&s| f64::from(s) <= SKILL_MAX)
                .ok_or_else(|| {
                    format!(
                        "Skill Level value '{}' is not 0..{SKILL_MAX}",
                        value.unwrap_or("")
                    )
                })?;
            Ok(XiangqiOption::Level(skill_level(skill, levels)))
        }
        "rules" => match value.map(str::parse::<RuleSet>) {
            Some(Ok(rules)) => Ok(XiangqiOption::Rules(rules)),
            Some(Err(e)) => Err(e.to_string()),
            None => Err("Rules needs a value".into()),
        },
        "nullmove" => parse_bool(value).map(XiangqiOption::NullMove),
        "lmr" => parse_bool(value).map(XiangqiOption::Lmr),
        "checkextension" => parse_bool(value).map(XiangqiOption::CheckExtension),
        "futility" => parse_bool(value).map(XiangqiOption::Futility),
        "evaluation" => match value.map(str::to_ascii_lowercase).as_deref() {
            Some("network") => Ok(XiangqiOption::Handcrafted(false)),
            Some("handcrafted") => Ok(XiangqiOption::Handcrafted(true)),
            Some(v) => Err(format!(
                "Evaluation value '{v}' is not network or handcrafted"
            )),
            None => Err("Evaluation needs a value".into()),
        },
        _ => match (params::index_of(name), value) {
            (Some(_), Some(v)) => {
                let n = v
                    .parse::<i64>()
                    .map_err(|_| format!("'{v}' is not a whole number"))?;
                // The range check of the table, on a scratch copy: the session's own set
                // then cannot fail.
                Params::default().set(name, n).map_err(|e| e.to_string())?;
                Ok(XiangqiOption::Param(name.to_string(), n))
            }
            (Some(_), None) => Err(format!("{name} needs a value")),
            (None, _) => Err(format!("unknown option '{name}'")),
        },
    }
}

/// The level of UCI option `Skill Level` at `skill` (0 to 20): `None` (full strength) at the
/// top, else the `hard` level of `levels` (the built-in Hard if there is none) with the skill
/// dial set, as `chuhan calibrate --knob skill --base hard` measures it; named `skill-<n>`.
pub fn skill_level(skill: u32, levels: &[Level]) -> Option<Level> {
    if f64::from(skill) >= SKILL_MAX {
        return None;
    }
    let mut level = find_level(levels, "hard").unwrap_or_else(Level::hard);
    level.set_skill(f64::from(skill));
    level.name = format!("skill-{skill}");
    Some(level)
}

/// The position of `position ...` (xiangqi, moves in UCI coordinates), each move checked
/// legal. The error is the `info string` text, naming the FEN or the move (1-based).
pub fn xiangqi_position<S: AsRef<str>>(fen: Option<&str>, moves: &[S]) -> Result<Position, String> {
    let mut pos = match fen {
        None => Position::startpos(),
        Some(fen) => Position::from_fen(fen).map_err(|e| format!("bad FEN '{fen}': {e}"))?,
    };
    for (i, text) in moves.iter().enumerate() {
        let text = text.as_ref();
        let mv = pos
            .parse_uci_move(text)
            .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
        pos.make(mv);
    }
    Ok(pos)
}

/// The `info depth ... pv ...` line of a finished iteration.
pub fn info_line<M: std::fmt::Display>(i: &chuhan_engine::search::SearchInfo<M>) -> String {
    let ms = i.elapsed.as_millis().max(1);
    let pv: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {} pv {}",
        i.depth,
        i.seldepth,
        uci_score(i.score),
        i.nodes,
        i.nodes as u128 * 1000 / ms,
        ms,
        pv.join(" ")
    )
}

/// The `info` line to print before `bestmove` when the search's last printed line does not
/// give the move played and its score: a search stopped inside an iteration can return a new
/// best move (and score) that no completed iteration printed. GUIs and the arena read the last
/// `info` score as the score of the move played; without this line it would be the replaced
/// move's. `printed` is the first move and score of the last printed line. None when that line
/// already matches, or there is no move.
pub fn final_info_line<M: std::fmt::Display + PartialEq + Clone>(
    result: &chuhan_engine::search::SearchResult<M>,
    printed: Option<(M, i32)>,
    elapsed: Duration,
    none: &M,
) -> Option<String> {
    if result.best_move == *none || printed == Some((result.best_move.clone(), result.score)) {
        return None;
    }
    let pv = if result.pv.first() == Some(&result.best_move) {
        result.pv.clone()
    } else {
        vec![result.best_move.clone()]
    };
    Some(info_line(&chuhan_engine::search::SearchInfo {
        depth: result.depth.max(1),
        seldepth: result.seldepth,
        score: result.score,
        nodes: result.nodes,
        elapsed,
        pv,
    }))
}

/// `bestmove <move>`, `0000` when there is none.
pub fn bestmove_line(best: Option<String>) -> String {
    format!("bestmove {}", best.unwrap_or_else(|| "0000".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_final_info_line_is_printed_only_for_a_move_or_score_not_yet_printed() {
        let mut pos = Position::startpos();
        let mut parse = |s: &str| pos.parse_uci_move(s).unwrap();
        let moves = [parse("b0c2"), parse("h2e2"), parse("h0g2")];
        let mv = |s: &str| {
            moves[["b0c2", "h2e2", "h0g2"]
                .iter()
                .position(|&m| m == s)
                .unwrap()]
        };
        let none = chuhan_engine::Move::NONE;
        let result = chuhan_engine::search::SearchResult {
            best_move: mv("b0c2"),
            score: 37,
            depth: 3,
            seldepth: 5,
            nodes: 600,
            pv: vec![mv("h2e2"), mv("h0g2")],
            root_scores: Vec::new(),
        };
        let t = Duration::from_millis(2);
        // Already printed: nothing more.
        assert_eq!(
            final_info_line(&result, Some((mv("b0c2"), 37)), t, &none),
            None
        );
        // Another move printed last (or none at all): a line whose pv is the move played,
        // since the result's pv belongs to the replaced move.
        let line = "info depth 3 seldepth 5 score cp 37 nodes 600 nps 300000 time 2 pv b0c2";
        for printed in [Some((mv("h2e2"), 37)), None] {
            let got = final_info_line(&result, printed, t, &none);
            assert_eq!(got.as_deref(), Some(line));
        }
        // Same move, another score: the line gives the score, and keeps a pv that starts
        // with the move.
        let with_pv = chuhan_engine::search::SearchResult {
            pv: vec![mv("b0c2"), mv("h0g2")],
            ..result.clone()
        };
        let got = final_info_line(&with_pv, Some((mv("b0c2"), 20)), t, &none).unwrap();
        assert!(
            got.ends_with("score cp 37 nodes 600 nps 300000 time 2 pv b0c2 h0g2"),
            "{got}"
        );
        // No move: nothing.
        let nothing = chuhan_engine::search::SearchResult {
            best_move: none,
            ..result
        };
        assert_eq!(final_info_line(&nothing, None, t, &none), None);
    }

    #[test]
    fn commands_tokenize_and_write_back() {
        for line in [
            "uci",
            "setoption name Skill Level value 3",
            "setoption name Clear Hash",
            "position startpos moves h2e2 h9g7",
            "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "go wtime 1000 btime 900 winc 10",
            "go",
            "go perft 3",
            "frobnicate",
        ] {
            let cmd = parse_command(line).unwrap().unwrap();
            assert_eq!(cmd.to_string(), line);
        }
        assert_eq!(parse_command("  \t "), None);
        assert_eq!(
            parse_command("  go   depth\t4 "),
            Some(Ok(Command::Go(vec!["depth".into(), "4".into()])))
        );
        assert!(parse_command("position").unwrap().is_err());
        assert!(parse_command("setoption Hash 3").unwrap().is_err());
        assert_eq!(
            parse_command("position startpos junk"),
            Some(Err("unexpected 'junk' in position command".into()))
        );
    }

    #[test]
    fn options_are_checked_before_they_are_applied() {
        let levels = crate::play::config::builtin_levels();
        assert_eq!(
            xiangqi_option("HASH", Some("64"), &levels),
            Ok(XiangqiOption::Hash(64))
        );
        assert!(xiangqi_option("Hash", Some("0"), &levels).is_err());
        assert!(xiangqi_option("Hash", Some(&(MAX_TT_MB + 1).to_string()), &levels).is_err());
        assert_eq!(
            xiangqi_option("Threads", Some("2"), &levels),
            Ok(XiangqiOption::Threads(2))
        );
        assert_eq!(
            xiangqi_option("threads", Some(&MAX_THREADS.to_string()), &levels),
            Ok(XiangqiOption::Threads(MAX_THREADS))
        );
        for bad in ["0", "-1", "two", ""] {
            assert_eq!(
                xiangqi_option("Threads", Some(bad), &levels),
                Err(format!("Threads value '{bad}' is not 1..{MAX_THREADS}"))
            );
        }
        assert!(xiangqi_option("Threads", Some(&(MAX_THREADS + 1).to_string()), &levels).is_err());
        assert!(xiangqi_option("Threads", None, &levels).is_err());
        assert_eq!(
            xiangqi_option("lmr", Some("FALSE"), &levels),
            Ok(XiangqiOption::Lmr(false))
        );
        assert_eq!(
            xiangqi_option("Level", Some("none"), &levels),
            Ok(XiangqiOption::Level(None))
        );
        assert!(xiangqi_option("Level", Some("grandmaster"), &levels).is_err());
        // Skill Level: Hard on the dial below 20, full strength at 20, nothing else.
        let mut hard7 = crate::play::config::find_level(&levels, "hard").unwrap();
        hard7.set_skill(7.0);
        hard7.name = "skill-7".into();
        assert_eq!(
            xiangqi_option("skill level", Some("7"), &levels),
            Ok(XiangqiOption::Level(Some(hard7)))
        );
        assert_eq!(
            xiangqi_option("Skill Level", Some("20"), &levels),
            Ok(XiangqiOption::Level(None))
        );
        for bad in ["21", "-1", "7.5", ""] {
            assert_eq!(
                xiangqi_option("Skill Level", Some(bad), &levels),
                Err(format!("Skill Level value '{bad}' is not 0..20"))
            );
        }
        assert!(xiangqi_option("Skill Level", None, &levels).is_err());
        let def = &params::table()[0];
        assert_eq!(
            xiangqi_option(&def.name, Some(&def.max.to_string()), &levels),
            Ok(XiangqiOption::Param(
                def.name.to_string(),
                i64::from(def.max)
            ))
        );
        assert!(xiangqi_option(
            &def.name,
            Some(&(i64::from(def.max) + 1).to_string()),
            &levels
        )
        .is_err());
        assert_eq!(
            xiangqi_option("Nonsense", Some("1"), &levels),
            Err("unknown option 'Nonsense'".into())
        );
    }

    #[test]
    fn positions_check_every_move() {
        let pos = xiangqi_position(None, &["h2e2", "h9g7"]).unwrap();
        assert_eq!(pos.ply_count(), 2);
        assert_eq!(
            xiangqi_position(None, &["h2e2", "h2e2"])
                .unwrap_err()
                .split(':')
                .next(),
            Some("move 2 (h2e2)")
        );
        assert!(xiangqi_position(Some("nonsense"), &[] as &[&str])
            .unwrap_err()
            .starts_with("bad FEN 'nonsense'"));
    }
}
