//! `engine-check`: a short protocol check of a UCI engine, in the spirit of fastchess's
//! compliance mode. In order: `uci`/`uciok` (and an `id name`), the options it declares (each
//! well formed; each spin and check option set to a legal value and accepted), `isready`
//! answered during a `go infinite`, `stop` ending it with a legal `bestmove`, the time used
//! under `go movetime`, and perft if the engine offers `go perft`. Every finding is reported
//! as it is made; a problem never stops the later checks (a hung or dead engine is restarted).
//! The positions, the legality of the bestmoves and the perft counts are those of the game the
//! engine file names (`game = ...`): xiangqi or chess.

use super::game::{Chess, EngineGame, Xiangqi};
use super::perft::{compare, game_position_command, parse_game_line, Outcome, PerftLine};
use super::{Session, SessionError};
use crate::play::any::GameKind;
use crate::play::player::uci::ExternalEngine;
use crate::play::player::PlayerFailure;
use std::marker::PhantomData;
use std::time::{Duration, Instant};

/// How strict the check is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The `go movetime` used for the time check.
    pub movetime: Duration,
    /// How far past the move time a `bestmove` may come.
    pub time_margin: Duration,
    /// The perft depth compared with ours when the engine offers perft.
    pub perft_depth: u32,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            movetime: Duration::from_millis(300),
            time_margin: Duration::from_millis(150),
            perft_depth: 3,
        }
    }
}

/// What became of one check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// It passed.
    Ok,
    /// The engine does something wrong.
    Problem,
    /// It could not be made (the engine does not offer the feature).
    Skipped,
}

/// One finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The check: `uci`, `options`, `isready`, `stop`, `movetime`, `perft`.
    pub check: &'static str,
    /// Its outcome.
    pub status: Status,
    /// What was seen.
    pub detail: String,
}

/// A declared option (`option name N type T [default D] [min m] [max M] [var v]...`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionDecl {
    /// Its name.
    pub name: String,
    /// `check`, `spin`, `combo`, `button` or `string`.
    pub kind: String,
    /// Its default, if given.
    pub default: Option<String>,
    /// Spin minimum.
    pub min: Option<i64>,
    /// Spin maximum.
    pub max: Option<i64>,
    /// Combo values.
    pub vars: Vec<String>,
}

/// Parses an `option` line; `Err` says what is wrong with it.
pub fn parse_option(line: &str) -> Result<OptionDecl, String> {
    const KEYS: [&str; 6] = ["name", "type", "default", "min", "max", "var"];
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"option") {
        return Err("not an option line".into());
    }
    let mut fields: Vec<(&str, String)> = Vec::new();
    for w in &words[1..] {
        match fields.last_mut() {
            // A keyword starts a field, except inside a name (names may contain spaces but
            // not these words in practice) once it has a word.
            _ if KEYS.contains(w) => fields.push((w, String::new())),
            Some((_, value)) => {
                if !value.is_empty() {
                    value.push(' ');
                }
                value.push_str(w);
            }
            None => return Err(format!("'{w}' before 'name'")),
        }
    }
    let get = |key: &str| {
        fields
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.clone())
    };
    let name = get("name").filter(|n| !n.is_empty()).ok_or("no name")?;
    let kind = get("type").ok_or(format!("{name}: no type"))?;
    let number = |key: &str| -> Result<Option<i64>, String> {
        get(key)
            .map(|v| {
                v.parse::<i64>()
                    .map_err(|_| format!("{name}: {key} '{v}' is not a whole number"))
            })
            .transpose()
    };
    let decl = OptionDecl {
        default: get("default"),
        min: number("min")?,
        max: number("max")?,
        vars: fields
            .iter()
            .filter(|(k, _)| *k == "var")
            .map(|(_, v)| v.clone())
            .collect(),
        name: name.clone(),
        kind: kind.clone(),
    };
    match kind.as_str() {
        "spin" => {
            let (Some(min), Some(max)) = (decl.min, decl.max) else {
                return Err(format!("{name}: a spin option needs min and max"));
            };
            let default =
                number("default")?.ok_or(format!("{name}: a spin option needs a default"))?;
            if min > max || !(min..=max).contains(&default) {
                return Err(format!(
                    "{name}: default {default} is outside min {min} .. max {max}"
                ));
            }
        }
        "check" => {
            if !matches!(decl.default.as_deref(), Some("true" | "false")) {
                return Err(format!(
                    "{name}: a check option's default must be true or false"
                ));
            }
        }
        "combo" => {
            if decl.vars.is_empty() {
                return Err(format!("{name}: a combo option needs var values"));
            }
            if let Some(d) = &decl.default {
                if !decl.vars.iter().any(|v| v.eq_ignore_ascii_case(d)) {
                    return Err(format!(
                        "{name}: default '{d}' is not one of its var values"
                    ));
                }
            }
        }
        "button" | "string" => {}
        other => return Err(format!("{name}: unknown option type '{other}'")),
    }
    Ok(decl)
}

/// A legal value other than the default for a spin or check option (for spins the minimum,
/// which keeps Hash and Threads small), or `None` for other kinds.
fn trial_value(o: &OptionDecl) -> Option<String> {
    match o.kind.as_str() {
        "spin" => {
            let (min, max) = (o.min?, o.max?);
            let default: i64 = o.default.as_deref()?.parse().ok()?;
            let v = if min != default {
                min
            } else {
                (min + 1).min(max)
            };
            Some(v.to_string())
        }
        "check" => Some(if o.default.as_deref() == Some("true") {
            "false".into()
        } else {
            "true".into()
        }),
        _ => None,
    }
}

/// Whether a line the engine printed after a `setoption` complains about it.
fn complains(line: &str) -> bool {
    let l = line.to_ascii_lowercase();
    [
        "error",
        "unknown",
        "invalid",
        "no such option",
        "illegal",
        "not supported",
    ]
    .iter()
    .any(|w| l.contains(w))
}

struct Checker<'a, G> {
    engine: &'a ExternalEngine,
    settings: Settings,
    findings: Vec<Finding>,
    report: &'a mut dyn FnMut(&Finding),
    game: PhantomData<G>,
}

impl<G: EngineGame> Checker<'_, G> {
    fn note(&mut self, check: &'static str, status: Status, detail: String) {
        let f = Finding {
            check,
            status,
            detail,
        };
        (self.report)(&f);
        self.findings.push(f);
    }

    /// A fresh, greeted process (after a problem left the old one unusable).
    fn restart(&self, s: &mut Session) -> Result<(), SessionError> {
        s.quit();
        *s = Session::start(self.engine, false)?;
        Ok(())
    }

    /// Reads up to `deadline` for a `bestmove`; `Ok(None)` on a timeout.
    fn bestmove(s: &mut Session, deadline: Instant) -> Result<Option<String>, PlayerFailure> {
        loop {
            match s.next_line(deadline) {
                Ok(line) if line.trim_start().starts_with("bestmove") => return Ok(Some(line)),
                Ok(_) => {}
                Err(PlayerFailure::Timeout) => return Ok(None),
                Err(f) => return Err(f),
            }
        }
    }

    /// Whether a `bestmove` line names a legal move of `pos` under `G`'s rules (None when it
    /// does).
    fn illegal(&self, line: &str, pos: &G::Position) -> Option<String> {
        let text = line.split_whitespace().nth(1).unwrap_or("");
        let legal = G::has_legal_move(pos);
        match G::read(pos, text, self.engine.coordinates) {
            Some(mv) if G::is_legal(pos, mv) => None,
            Some(mv) => Some(format!(
                "'{line}' ({mv}) is not legal in {} ({} rules)",
                G::to_fen(pos),
                G::NAME
            )),
            None if text == "0000" || text == "(none)" => {
                legal.then(|| format!("'{line}' but {} has legal moves", G::to_fen(pos)))
            }
            None => Some(format!(
                "'{line}' does not parse as {}",
                G::move_form(self.engine.coordinates)
            )),
        }
    }

    fn position(
        &self,
        s: &mut Session,
        fen: &str,
        path: &[G::Move],
    ) -> Result<G::Position, SessionError> {
        s.send(&game_position_command::<G>(
            fen,
            path,
            self.engine.coordinates,
        ))?;
        let mut pos = G::from_fen(fen).expect("the check's own positions are valid");
        for &m in path {
            G::make(&mut pos, m);
        }
        Ok(pos)
    }

    fn options(&mut self, s: &mut Session) -> Result<(), SessionError> {
        let lines: Vec<String> = s
            .greeting
            .iter()
            .filter(|l| l.trim_start().starts_with("option"))
            .cloned()
            .collect();
        let mut decls = Vec::new();
        let mut problems = 0;
        for line in &lines {
            match parse_option(line) {
                Ok(d) => decls.push(d),
                Err(why) => {
                    problems += 1;
                    self.note("options", Status::Problem, format!("'{line}': {why}"));
                }
            }
        }
        // A name in the engine file that the engine does not declare is most likely a typo,
        // and the engine plays without the setting it was meant to have.
        for (name, _) in &self.engine.options {
            if !decls.iter().any(|d| d.name.eq_ignore_ascii_case(name)) {
                problems += 1;
                self.note(
                    "options",
                    Status::Problem,
                    format!(
                        "the engine file sets '{name}' ([uci.options]), which the engine does not declare"
                    ),
                );
            }
        }
        let mut tried = 0;
        for d in &decls {
            let Some(value) = trial_value(d) else {
                continue;
            };
            tried += 1;
            let cmd = format!("setoption name {} value {value}", d.name);
            s.send(&cmd)?;
            s.send("isready")?;
            let deadline = Instant::now() + self.engine.startup_timeout;
            loop {
                match s.next_line(deadline) {
                    Ok(l) if l.trim() == "readyok" => break,
                    Ok(l) if complains(&l) => {
                        problems += 1;
                        self.note("options", Status::Problem, format!("'{cmd}': got '{l}'"));
                    }
                    Ok(_) => {}
                    Err(f) => {
                        problems += 1;
                        self.note(
                            "options",
                            Status::Problem,
                            format!("'{cmd}' then 'isready': {f}"),
                        );
                        self.restart(s)?;
                        break;
                    }
                }
            }
        }
        if problems == 0 {
            self.note(
                "options",
                Status::Ok,
                format!(
                    "{} declared, well formed; {tried} spin/check set to a legal value and accepted",
                    decls.len()
                ),
            );
        }
        // Back to the file's option values for the checks that follow.
        self.restart(s)
    }

    fn search(&mut self, s: &mut Session) -> Result<(), SessionError> {
        let pos = self.position(s, G::START_FEN, &[])?;
        s.send("go infinite")?;
        let early = Instant::now() + Duration::from_millis(200);
        match Self::bestmove(s, early) {
            Ok(None) => {}
            Ok(Some(line)) => {
                self.note(
                    "stop",
                    Status::Problem,
                    format!("'go infinite' answered '{line}' before 'stop'"),
                );
                return self.restart(s);
            }
            Err(f) => {
                self.note("stop", Status::Problem, format!("'go infinite': {f}"));
                return self.restart(s);
            }
        }
        s.send("isready")?;
        let sent = Instant::now();
        let deadline = sent + self.engine.startup_timeout;
        let mut answered = false;
        loop {
            match s.next_line(deadline) {
                Ok(l) if l.trim() == "readyok" => {
                    answered = true;
                    break;
                }
                Ok(l) if l.trim_start().starts_with("bestmove") => {
                    self.note(
                        "stop",
                        Status::Problem,
                        format!("'go infinite' answered '{l}' before 'stop'"),
                    );
                    return self.restart(s);
                }
                Ok(_) => {}
                Err(_) => break,
            }
        }
        if answered {
            self.note(
                "isready",
                Status::Ok,
                format!(
                    "readyok during a search after {} ms",
                    sent.elapsed().as_millis()
                ),
            );
        } else {
            self.note(
                "isready",
                Status::Problem,
                format!(
                    "no readyok during 'go infinite' within {} ms (startup_timeout_ms)",
                    self.engine.startup_timeout.as_millis()
                ),
            );
        }
        s.send("stop")?;
        let stopped = Instant::now();
        let limit = self.engine.startup_timeout;
        match Self::bestmove(s, stopped + limit) {
            Ok(Some(line)) => match self.illegal(&line, &pos) {
                None => self.note(
                    "stop",
                    Status::Ok,
                    format!(
                        "'stop' answered '{}' after {} ms",
                        line.trim(),
                        stopped.elapsed().as_millis()
                    ),
                ),
                Some(why) => self.note("stop", Status::Problem, why),
            },
            Ok(None) => {
                self.note(
                    "stop",
                    Status::Problem,
                    format!("no bestmove within {} ms of 'stop'", limit.as_millis()),
                );
                self.restart(s)?;
            }
            Err(f) => {
                self.note("stop", Status::Problem, format!("after 'stop': {f}"));
                self.restart(s)?;
            }
        }
        Ok(())
    }

    fn movetime(&mut self, s: &mut Session) -> Result<(), SessionError> {
        let mut start = G::from_fen(G::START_FEN).expect("a valid FEN");
        let mut opening: Vec<G::Move> = Vec::new();
        for text in G::OPENING {
            let mv = G::parse_ours(&start, text).expect("a legal opening move");
            G::make(&mut start, mv);
            opening.push(mv);
        }
        let cases: [(&str, &[G::Move]); 2] = [(G::START_FEN, &opening), (G::MIDDLEGAME_FEN, &[])];
        let t = self.settings.movetime;
        let allowed = t + self.settings.time_margin;
        let mut worst = Duration::ZERO;
        let mut problems = 0;
        for (fen, path) in cases {
            let pos = self.position(s, fen, path)?;
            s.send(&format!("go movetime {}", t.as_millis()))?;
            let sent = Instant::now();
            // Wait well past the allowance so a slow answer is measured, not just missed.
            let wait = allowed * 2 + self.engine.move_margin;
            match Self::bestmove(s, sent + wait) {
                Ok(Some(line)) => {
                    let took = sent.elapsed();
                    worst = worst.max(took);
                    if took > allowed {
                        problems += 1;
                        self.note(
                            "movetime",
                            Status::Problem,
                            format!(
                                "'go movetime {}' answered after {} ms (allowed {} ms)",
                                t.as_millis(),
                                took.as_millis(),
                                allowed.as_millis()
                            ),
                        );
                    }
                    if let Some(why) = self.illegal(&line, &pos) {
                        problems += 1;
                        self.note("bestmove", Status::Problem, why);
                    }
                }
                Ok(None) => {
                    problems += 1;
                    self.note(
                        "movetime",
                        Status::Problem,
                        format!(
                            "'go movetime {}': no bestmove within {} ms",
                            t.as_millis(),
                            wait.as_millis()
                        ),
                    );
                    self.restart(s)?;
                }
                Err(f) => {
                    problems += 1;
                    self.note("movetime", Status::Problem, format!("'go movetime': {f}"));
                    self.restart(s)?;
                }
            }
        }
        if problems == 0 {
            self.note(
                "movetime",
                Status::Ok,
                format!(
                    "legal bestmoves within {} ms of 'go movetime {}' (slowest {} ms)",
                    allowed.as_millis(),
                    t.as_millis(),
                    worst.as_millis()
                ),
            );
        }
        Ok(())
    }

    fn perft(&mut self, s: &mut Session) -> Result<(), SessionError> {
        // Offered? `go perft 1` answered with a total within the start-up time.
        let start = self.position(s, G::START_FEN, &[])?;
        s.send("go perft 1")?;
        let deadline = Instant::now() + self.engine.startup_timeout;
        let offered = loop {
            match s.next_line(deadline) {
                Ok(line) => match parse_game_line::<G>(&line, &start, self.engine.coordinates) {
                    Ok(PerftLine::Total(_)) => break true,
                    Ok(PerftLine::BestMove) => break false,
                    Ok(_) => {}
                    Err(why) => {
                        self.note(
                            "perft",
                            Status::Problem,
                            format!("'go perft 1': got '{line}': {why}"),
                        );
                        return self.restart(s);
                    }
                },
                Err(_) => {
                    self.restart(s)?;
                    break false;
                }
            }
        };
        if !offered {
            self.note(
                "perft",
                Status::Skipped,
                "not offered ('go perft 1' gave no 'Nodes searched' total)".into(),
            );
            return Ok(());
        }
        let depth = self.settings.perft_depth.max(1);
        let mut all_agree = true;
        for fen in [G::START_FEN, G::MIDDLEGAME_FEN] {
            let pos = G::from_fen(fen).expect("valid");
            match compare::<G>(s, &pos, depth) {
                Ok(Outcome::Agree { .. }) => {}
                Ok(Outcome::Differ {
                    engine_total,
                    our_total,
                    mismatch,
                }) => {
                    all_agree = false;
                    let list = |m: &[G::Move]| {
                        m.iter()
                            .map(|m| m.to_string())
                            .collect::<Vec<_>>()
                            .join(" ")
                    };
                    self.note(
                        "perft",
                        Status::Problem,
                        format!(
                            "depth {depth} of {fen}: engine {engine_total}, ours {our_total}; \
                             position {} after '{}': missing '{}', extra '{}' \
                             (chuhan perft --engine says more)",
                            mismatch.fen,
                            list(&mismatch.path),
                            list(&mismatch.missing),
                            list(&mismatch.extra)
                        ),
                    );
                }
                Err(e) => {
                    all_agree = false;
                    self.note("perft", Status::Problem, e.to_string());
                    self.restart(s)?;
                }
            }
        }
        if all_agree {
            self.note(
                "perft",
                Status::Ok,
                format!("depth {depth} agrees with ours on 2 positions"),
            );
        }
        Ok(())
    }
}

/// Runs every check on `engine` under the rules of the game its file names, calling `report`
/// with each finding as it is made. `Err` only when the engine cannot be used at all (it does
/// not start, or never completes the UCI handshake, or a restart after a problem fails).
pub fn run(
    engine: &ExternalEngine,
    settings: &Settings,
    report: &mut dyn FnMut(&Finding),
) -> Result<Vec<Finding>, SessionError> {
    match engine.game {
        GameKind::Xiangqi => run_game::<Xiangqi>(engine, settings, report),
        GameKind::Chess => run_game::<Chess>(engine, settings, report),
    }
}

fn run_game<G: EngineGame>(
    engine: &ExternalEngine,
    settings: &Settings,
    report: &mut dyn FnMut(&Finding),
) -> Result<Vec<Finding>, SessionError> {
    let mut c = Checker::<G> {
        engine,
        settings: *settings,
        findings: Vec::new(),
        report,
        game: PhantomData,
    };
    let started = Instant::now();
    let mut s = Session::start(engine, false)?;
    let id = s
        .greeting
        .iter()
        .find_map(|l| l.trim().strip_prefix("id name "))
        .map(str::to_string);
    match id {
        Some(name) => c.note(
            "uci",
            Status::Ok,
            format!(
                "uciok and readyok after {} ms ({name})",
                started.elapsed().as_millis()
            ),
        ),
        None => c.note(
            "uci",
            Status::Problem,
            "no 'id name' line before uciok".into(),
        ),
    }
    c.options(&mut s)?;
    c.search(&mut s)?;
    c.movetime(&mut s)?;
    c.perft(&mut s)?;
    s.quit();
    Ok(c.findings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_lines_parse_and_bad_ones_say_why() {
        let o =
            parse_option("option name Skill Level type spin default 20 min -20 max 20").unwrap();
        assert_eq!(o.name, "Skill Level");
        assert_eq!((o.min, o.max), (Some(-20), Some(20)));
        assert_eq!(trial_value(&o).as_deref(), Some("-20"));
        let o = parse_option("option name Ponder type check default false").unwrap();
        assert_eq!(trial_value(&o).as_deref(), Some("true"));
        let o = parse_option("option name SyzygyPath type string default <empty>").unwrap();
        assert_eq!(trial_value(&o), None);
        let o =
            parse_option("option name UCI_Variant type combo default chess var chess var xiangqi")
                .unwrap();
        assert_eq!(o.vars, ["chess", "xiangqi"]);
        let o = parse_option("option name Hash type spin default 1 min 1 max 64").unwrap();
        assert_eq!(trial_value(&o).as_deref(), Some("2"));
        for (bad, why) in [
            (
                "option name Depth type spin default 50 min 1 max 20",
                "outside",
            ),
            ("option name X type spin default 5", "min and max"),
            ("option name X type check default maybe", "true or false"),
            (
                "option name X type combo default c var a var b",
                "not one of",
            ),
            ("option name X type slider default 1", "unknown option type"),
            ("option type spin default 1 min 0 max 2", "no name"),
            (
                "option name X type spin default a min 0 max 2",
                "not a whole number",
            ),
        ] {
            let e = parse_option(bad).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
        assert!(complains("info string error: unknown option Foo"));
        assert!(complains("No such option: Foo"));
        assert!(!complains("info string Hash set to 16"));
    }
}
