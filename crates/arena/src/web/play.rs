//! Games between a person (in the browser) and a player, judged on the server: the page sends
//! moves and polls the state; the player thinks on a thread of its own, so no request waits
//! for a search. Every game is written as PGN after every move when a folder is given. Both
//! games go through the arena's seam ([`AnyGame`]): xiangqi with its repetition rulings, chess
//! with its own (checkmate, stalemate, repetition, fifty moves, insufficient material).

use crate::play::any::{chess960_start_fen, AnyGame, AnyMove, GameKind, CHESS960_POSITIONS};
use crate::play::limits::LimitSpec;
use crate::play::player::{resolve_player_for, Player};
use crate::play::schedule::splitmix64;
use crate::report::html::games::{render_all, render_san};
use chuhan_engine::notation::Notation;
use chuhan_engine::pgn::{write_pgn, GameRecord};
use chuhan_engine::{chess, GameConfig};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// How games are played.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// The player's limit per move (nodes, depth or move time).
    pub limit: LimitSpec,
    /// Rules and move limit of the judge.
    pub game: GameConfig,
    /// Where each game's PGN is written (`game-<id>.pgn`), if anywhere.
    pub save_dir: Option<PathBuf>,
    /// The opponent the page offers first.
    pub default_player: String,
    /// The game the page offers first (a request may ask for the other).
    pub kind: GameKind,
    /// Chess games are Chess960 unless a request says otherwise (`chuhan play --chess960`).
    pub chess960: bool,
}

/// A refused request: HTTP status and message.
pub type Refusal = (u16, String);

struct Session {
    id: u64,
    player_text: String,
    player_name: String,
    /// Whether the person plays the side that moves first (Red, White).
    human_first: bool,
    start_fen: String,
    game: AnyGame,
    player: Option<Box<dyn Player>>,
    /// Bumped by every take-back, so a search started before it is thrown away.
    generation: u64,
    thinking: bool,
    verdict: Option<String>,
    message: Option<String>,
    comments: Vec<String>,
}

/// Every game of the server.
pub struct PlayGames {
    options: PlayOptions,
    next: AtomicU64,
    sessions: Mutex<HashMap<u64, Arc<Mutex<Session>>>>,
}

fn lock(s: &Mutex<Session>) -> std::sync::MutexGuard<'_, Session> {
    // A panic elsewhere cannot leave a session half-updated in a way that matters to a
    // viewer: keep serving it.
    s.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl PlayGames {
    /// No games yet.
    pub fn new(options: PlayOptions) -> PlayGames {
        PlayGames {
            options,
            next: AtomicU64::new(1),
            sessions: Mutex::new(HashMap::new()),
        }
    }

    /// The options.
    pub fn options(&self) -> &PlayOptions {
        &self.options
    }

    fn get(&self, id: u64) -> Result<Arc<Mutex<Session>>, Refusal> {
        self.sessions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&id)
            .cloned()
            .ok_or((404, format!("no game {id}")))
    }

    /// Starts a game of `game` (`xiangqi`, `chess`; empty: the options' game) against
    /// `player` (a player spec) with the person playing `human` (`red` or `white`, `black`)
    /// from `fen` (empty: the standard start); the player moves first when it is its side to
    /// move.
    pub fn create(
        &self,
        player: &str,
        human: &str,
        fen: &str,
        game: &str,
    ) -> Result<Value, Refusal> {
        self.create_with(player, human, fen, game, "")
    }

    /// [`PlayGames::create`] with Chess960 asked for by `chess960`: `""` for the options'
    /// default, `off` for standard chess, `on` or `random` for a start position by a number
    /// drawn from the game's id (seeded: the same on every server), `0`..`959` for that start
    /// position by Scharnagl's numbering. A given `fen` is then read under Chess960's rules.
    pub fn create_with(
        &self,
        player: &str,
        human: &str,
        fen: &str,
        game: &str,
        chess960: &str,
    ) -> Result<Value, Refusal> {
        let kind = match game.trim() {
            "" => self.options.kind,
            other => other
                .parse::<GameKind>()
                .map_err(|e| (400, format!("game: {e}")))?,
        };
        let number = match chess960.trim() {
            "" if self.options.chess960 => Some(None),
            "" | "off" | "false" => None,
            "on" | "true" | "random" => Some(None),
            n => Some(Some(n.parse::<u16>().ok().filter(|&n| n < CHESS960_POSITIONS).ok_or_else(
                || (400, format!("chess960 '{n}': give a start position number from 0 to 959, random, or off")),
            )?)),
        };
        if number.is_some() && kind != GameKind::Chess {
            return Err((
                400,
                format!("chess960 is a chess variant, not one of {kind}"),
            ));
        }
        let id = self.next.load(Ordering::SeqCst);
        let start960 = number.map(|n| {
            let n = n.unwrap_or((splitmix64(id ^ 0x0960) % u64::from(CHESS960_POSITIONS)) as u16);
            chess960_start_fen(n).expect("numbers are below 960")
        });
        let fen = match (&start960, fen.trim()) {
            (_, f) if !f.is_empty() => f,
            (Some(start), _) => start.as_str(),
            (None, _) => kind.start_fen(),
        };
        let judged = AnyGame::from_fen_rules(kind, number.is_some(), fen, self.options.game)
            .map_err(|e| (400, format!("{kind} FEN '{fen}': {e}")))?;
        let [first, _] = kind.sides();
        let human_first = match human {
            "" => true,
            "black" => false,
            side if side.eq_ignore_ascii_case(first) => true,
            other => {
                return Err((
                    400,
                    format!("side '{other}': give {} or black", first.to_lowercase()),
                ))
            }
        };
        let spec = resolve_player_for(player, kind)
            .map_err(|e| (400, format!("player '{player}': {e}")))?;
        spec.check()
            .map_err(|e| (400, format!("player '{player}': {e:#}")))?;
        let id = self.next.fetch_add(1, Ordering::SeqCst);
        let mut instance = spec.create(player.trim());
        instance.new_game(id);
        let session = Arc::new(Mutex::new(Session {
            id,
            player_text: player.trim().to_string(),
            player_name: instance.name().to_string(),
            human_first,
            start_fen: fen.to_string(),
            game: judged,
            player: Some(instance),
            generation: 0,
            thinking: false,
            verdict: None,
            message: None,
            comments: Vec::new(),
        }));
        self.sessions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(id, session.clone());
        {
            let mut s = lock(&session);
            s.verdict = s
                .game
                .verdict()
                .map(|v| format!("{} {}", v.result.as_pgn(), v.termination));
            self.save(&s);
        }
        self.think(&session);
        let view = self.view(&mut lock(&session));
        Ok(view)
    }

    /// The state of game `id`.
    pub fn state(&self, id: u64) -> Result<Value, Refusal> {
        let s = self.get(id)?;
        let mut s = lock(&s);
        Ok(self.view(&mut s))
    }

    /// The person's move `uci` in game `id`, judged: an illegal move is refused (400), a move
    /// that loses by a repetition rule is refused (409) when another move does not.
    pub fn play_move(&self, id: u64, uci: &str) -> Result<Value, Refusal> {
        let arc = self.get(id)?;
        {
            let mut s = lock(&arc);
            if s.verdict.is_some() {
                return Err((409, "the game is over".into()));
            }
            if s.thinking || s.game.first_to_move() != s.human_first {
                return Err((409, "it is not your move".into()));
            }
            let legal = s.game.legal_moves();
            let mv = s
                .game
                .parse_uci(uci.trim())
                .or_else(|| castle_by_king_target(&s.game, uci.trim()))
                .filter(|mv| legal.contains(mv))
                .ok_or_else(|| (400, format!("{uci} is not a legal move here")))?;
            if s.game.would_forfeit(mv) && s.game.playable_moves() != legal {
                let mut probe = s.game.clone();
                let rule = probe
                    .play(mv)
                    .ok()
                    .flatten()
                    .map_or("repetition".to_string(), |v| v.termination.to_string());
                let text = format!(
                    "refused: {uci} repeats the position a third time by {rule}, which loses; another move is available"
                );
                s.message = Some(text.clone());
                return Err((409, text));
            }
            s.message = None;
            apply(&mut s, mv, String::new());
            self.save(&s);
        }
        self.think(&arc);
        let mut s = lock(&arc);
        Ok(self.view(&mut s))
    }

    /// Takes back the person's last move (and the player's answer to it).
    pub fn undo(&self, id: u64) -> Result<Value, Refusal> {
        let arc = self.get(id)?;
        let mut s = lock(&arc);
        if s.thinking {
            return Err((409, "wait for the player's move before taking back".into()));
        }
        let mut moves = s.game.moves();
        let kind = s.game.kind();
        let chess960 = s.game.is_chess960();
        let mut game = AnyGame::from_fen_rules(kind, chess960, &s.start_fen, self.options.game)
            .map_err(|e| (500, format!("the start FEN: {e}")))?;
        let human_first = game.first_to_move() == s.human_first;
        // Drop moves until one of the person's is gone and it is the person's turn again.
        loop {
            if moves.is_empty() {
                return Err((409, "nothing to take back".into()));
            }
            moves.pop();
            let human_to_move = (moves.len() % 2 == 0) == human_first;
            if human_to_move {
                break;
            }
        }
        for &mv in &moves {
            let _ = game.play(mv);
        }
        s.game = game;
        s.comments.truncate(moves.len());
        s.generation += 1;
        s.verdict = None;
        s.message = Some("taken back".into());
        self.save(&s);
        Ok(self.view(&mut s))
    }

    /// Game `id` as PGN (ICCS moves for xiangqi, SAN for chess).
    pub fn pgn(&self, id: u64) -> Result<String, Refusal> {
        let arc = self.get(id)?;
        let s = lock(&arc);
        pgn_text(&s).map_err(|e| (500, e))
    }

    /// Starts the player's search when it is its move.
    fn think(&self, arc: &Arc<Mutex<Session>>) {
        let (game, mut player, generation) = {
            let mut s = lock(arc);
            if s.verdict.is_some() || s.thinking || s.game.first_to_move() == s.human_first {
                return;
            }
            let Some(player) = s.player.take() else {
                return;
            };
            s.thinking = true;
            (s.game.clone(), player, s.generation)
        };
        let limits = match self.options.limit {
            LimitSpec::Clock(_) => LimitSpec::MoveTime(1000).fixed_limits(),
            other => other.fixed_limits(),
        };
        let arc = arc.clone();
        let save_dir = self.options.save_dir.clone();
        std::thread::spawn(move || {
            let mut any = game;
            let choice = player.choose_move(&mut any, &limits);
            let mut s = lock(&arc);
            s.player = Some(player);
            s.thinking = false;
            if s.generation != generation {
                return;
            }
            match choice {
                Ok(c) => {
                    let comment = match (c.score, c.depth) {
                        (Some(sc), Some(d)) => format!("{sc}/{d} {}", c.nodes),
                        (Some(sc), None) => format!("{sc}"),
                        _ => String::new(),
                    };
                    apply(&mut s, c.mv, comment);
                }
                Err(e) => {
                    s.verdict = Some(format!(
                        "{} ({} {})",
                        if s.human_first { "1-0" } else { "0-1" },
                        s.player_name,
                        e.termination()
                    ));
                }
            }
            save_to(save_dir.as_deref(), &s);
        });
    }

    fn save(&self, s: &Session) {
        save_to(self.options.save_dir.as_deref(), s);
    }

    fn view(&self, s: &mut Session) -> Value {
        let uci: Vec<String> = s.game.moves().iter().map(|m| m.to_uci()).collect();
        let kind = s.game.kind();
        let (wxf, zh, san) = match kind {
            GameKind::Xiangqi => {
                let (wxf, zh) = render_all(&s.start_fen, &uci);
                (wxf, zh, Vec::new())
            }
            GameKind::Chess => (Vec::new(), Vec::new(), render_san(&s.start_fen, &uci)),
        };
        let your_turn =
            s.verdict.is_none() && !s.thinking && s.game.first_to_move() == s.human_first;
        // From square to the rest of each legal move: a target, with the piece for a chess
        // promotion (`e8q`), so the page offers the choice.
        let mut legal: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut forbidden = Vec::new();
        if your_turn {
            for mv in s.game.legal_moves() {
                let text = mv.to_uci();
                legal
                    .entry(text[..2].to_string())
                    .or_default()
                    .push(text[2..].to_string());
                if s.game.would_forfeit(mv) {
                    forbidden.push(text);
                }
            }
            // Chess960 castling may also be clicked as the king onto its target square when
            // no other king move goes there (see castle_by_king_target).
            for (from, to) in king_targets(&mut s.game) {
                legal.entry(from).or_default().push(to);
            }
        }
        json!({
            "id": s.id,
            "player": s.player_name,
            "player_spec": s.player_text,
            "game": kind.to_string(),
            "human": if s.human_first { kind.sides()[0].to_lowercase() } else { "black".to_string() },
            "start_fen": s.start_fen,
            "fen": s.game.fen(),
            "moves": uci,
            "wxf": wxf,
            "zh": zh,
            "san": san,
            "comments": s.comments,
            "legal": legal,
            "forbidden": forbidden,
            "your_turn": your_turn,
            "thinking": s.thinking,
            "verdict": s.verdict,
            "message": s.message,
        })
    }
}

/// The Chess960 castling moves that a click of the king onto its target square (g- or
/// c-file) may stand for: those whose target is not the rook's own square (that click is
/// the move itself) and is reached by no other legal move of the king. Pairs of from-square
/// and target.
fn king_targets(game: &mut AnyGame) -> Vec<(String, String)> {
    if !game.is_chess960() {
        return Vec::new();
    }
    let Some(g) = game.as_chess() else {
        return Vec::new();
    };
    let legal = g.legal_moves();
    let mut out = Vec::new();
    for mv in legal.iter().filter(|m| m.kind() == chess::MoveKind::Castle) {
        let king_to = castle_target(*mv);
        let taken = legal
            .iter()
            .any(|m| m.from() == mv.from() && m.to() == king_to);
        if king_to != mv.to() && king_to != mv.from() && !taken {
            out.push((mv.from().to_string(), king_to.to_string()));
        }
    }
    out
}

/// Where a Chess960 castle (written king takes rook) puts the king.
fn castle_target(mv: chess::Move) -> chess::Square {
    let king_side = mv.to().file() > mv.from().file();
    chess::Square::new(if king_side { 6 } else { 2 }, mv.from().rank())
}

/// The Chess960 castle that `uci` (the king's move onto its castling target) stands for,
/// when [`king_targets`] offers it.
fn castle_by_king_target(game: &AnyGame, uci: &str) -> Option<AnyMove> {
    let mut probe = game.clone();
    let offered = king_targets(&mut probe);
    if !offered.iter().any(|(f, t)| format!("{f}{t}") == uci) {
        return None;
    }
    let AnyGame::Chess(g) = game else {
        return None;
    };
    g.legal_moves()
        .iter()
        .find(|m| {
            m.kind() == chess::MoveKind::Castle
                && m.from().to_string() == uci[..2]
                && castle_target(**m).to_string() == uci[2..]
        })
        .map(|&m| AnyMove::Chess(m))
}

/// Plays a move on the session's game and records the judge's verdict.
fn apply(s: &mut Session, mv: AnyMove, comment: String) {
    if let Ok(Some(v)) = s.game.play(mv) {
        s.verdict = Some(format!("{} {}", v.result.as_pgn(), v.termination));
    }
    s.comments.push(comment);
}

fn pgn_text(s: &Session) -> Result<String, String> {
    let (red, black) = if s.human_first {
        ("you".to_string(), s.player_name.clone())
    } else {
        (s.player_name.clone(), "you".to_string())
    };
    let result = s
        .verdict
        .as_deref()
        .and_then(|v| v.split_whitespace().next())
        .filter(|r| ["1-0", "0-1", "1/2-1/2"].contains(r))
        .unwrap_or("*")
        .to_string();
    let mut tags = vec![
        ("Event".to_string(), "chuhan play".to_string()),
        ("Site".to_string(), "chuhan serve".to_string()),
        (
            "Date".to_string(),
            crate::play::results::today().replace('-', "."),
        ),
        ("Round".to_string(), s.id.to_string()),
        (s.game.kind().sides()[0].to_string(), red),
        ("Black".to_string(), black),
    ];
    if let Some(v) = &s.verdict {
        tags.push(("Termination".to_string(), v.clone()));
    }
    match &s.game {
        AnyGame::Xiangqi(g) => {
            let record = GameRecord {
                tags,
                start_fen: s.start_fen.clone(),
                moves: g.moves(),
                result,
            };
            write_pgn(&record, Notation::Iccs).map_err(|e| e.to_string())
        }
        AnyGame::Chess(g) => {
            let record = chess::GameRecord {
                tags,
                start_fen: s.start_fen.clone(),
                moves: g.moves(),
                result,
            };
            if g.position().is_chess960() {
                crate::play::pgn::write_chess960_pgn(&record)
            } else {
                chess::write_pgn(&record).map_err(|e| e.to_string())
            }
        }
    }
}

fn save_to(dir: Option<&std::path::Path>, s: &Session) {
    let Some(dir) = dir else {
        return;
    };
    // Saving is best effort: a full disk must not stop the game on the page.
    if std::fs::create_dir_all(dir).is_ok() {
        if let Ok(text) = pgn_text(s) {
            let _ = std::fs::write(dir.join(format!("game-{}.pgn", s.id)), text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess_games() -> PlayGames {
        PlayGames::new(PlayOptions {
            limit: LimitSpec::Nodes(100),
            game: GameConfig::default(),
            save_dir: None,
            default_player: "random".into(),
            kind: GameKind::Chess,
            chess960: false,
        })
    }

    /// Plays the person's `uci` in a new chess game from `fen` and returns the verdict.
    fn verdict_after(fen: &str, uci: &str) -> Value {
        let games = chess_games();
        let state = games.create("random", "", fen, "").unwrap();
        assert_eq!(state["game"], "chess");
        assert_eq!(state["human"], "white");
        let id = state["id"].as_u64().unwrap();
        let state = games.play_move(id, uci).unwrap();
        state["verdict"].clone()
    }

    #[test]
    fn chess_game_ends_are_the_judge_s() {
        // Stalemate: the black king on h8 has no move and is not in check.
        assert_eq!(
            verdict_after("7k/8/5K2/6Q1/8/8/8/8 w - - 0 1", "g5g6"),
            json!("1/2-1/2 stalemate")
        );
        // The last pawn taken: king and knight against king.
        assert_eq!(
            verdict_after("4k3/8/8/2p5/4N3/8/8/4K3 w - - 0 1", "e4c5"),
            json!("1/2-1/2 insufficient-material")
        );
        // The hundredth quiet ply.
        assert_eq!(
            verdict_after("4k3/8/8/8/8/8/R7/4K3 w - - 99 80", "a2b2"),
            json!("1/2-1/2 fifty-moves")
        );
    }

    #[test]
    fn chess960_games_start_by_number_and_bad_numbers_are_refused() {
        let games = chess_games();
        let state = games.create_with("random", "", "", "", "518").unwrap();
        assert_eq!(state["start_fen"], json!(chess::START_FEN));
        // 518 is the standard start, but castling is written as the king taking its rook.
        let id = state["id"].as_u64().unwrap();
        assert!(lock(&games.get(id).unwrap()).game.is_chess960());
        for (number, game) in [("960", ""), ("x", ""), ("3", "xiangqi")] {
            let (status, text) = games
                .create_with("random", "", "", game, number)
                .unwrap_err();
            assert_eq!(status, 400, "{number} {game}: {text}");
            assert!(text.contains("chess960"), "{text}");
        }
        let plain = games.create_with("random", "", "", "", "off").unwrap();
        let id = plain["id"].as_u64().unwrap();
        assert!(!lock(&games.get(id).unwrap()).game.is_chess960());
    }

    #[test]
    fn chess_moves_are_judged_and_sides_named() {
        let games = chess_games();
        let state = games.create("random", "black", "", "").unwrap();
        assert_eq!(state["human"], "black");
        let id = state["id"].as_u64().unwrap();
        // A xiangqi move, an illegal move and the wrong game's player are refused.
        let state = games.create("random", "red", "", "").unwrap_err();
        assert_eq!(state.0, 400, "{}", state.1);
        let mut wait = 0;
        while games.state(id).unwrap()["thinking"] == json!(true) && wait < 500 {
            std::thread::sleep(std::time::Duration::from_millis(10));
            wait += 1;
        }
        assert_eq!(games.play_move(id, "h9g7").unwrap_err().0, 400);
        assert_eq!(games.play_move(id, "e7e4").unwrap_err().0, 400);
        let pgn = games.pgn(id).unwrap();
        assert!(
            pgn.contains("[White \"random\"]") && pgn.contains("[Black \"you\"]"),
            "{pgn}"
        );
        assert!(games
            .create("configs/engines/fairy-stockfish.toml", "", "", "chess")
            .is_err());
    }
}
