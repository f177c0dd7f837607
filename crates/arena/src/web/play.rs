//! Games between a person (in the browser) and a player, judged on the server: the page sends
//! moves and polls the state; the player thinks on a thread of its own, so no request waits
//! for a search. Every game is written as PGN after every move when a folder is given. Both
//! games go through the arena's seam ([`AnyGame`]): xiangqi with its repetition rulings, chess
//! with its own (checkmate, stalemate, repetition, fifty moves, insufficient material).

use crate::play::any::{AnyGame, AnyMove, GameKind};
use crate::play::limits::LimitSpec;
use crate::play::player::{resolve_player_for, Player};
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
        let kind = match game.trim() {
            "" => self.options.kind,
            other => other
                .parse::<GameKind>()
                .map_err(|e| (400, format!("game: {e}")))?,
        };
        let fen = if fen.trim().is_empty() {
            kind.start_fen()
        } else {
            fen.trim()
        };
        let judged = AnyGame::from_fen(kind, fen, self.options.game)
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
        let mut game = AnyGame::from_fen(kind, &s.start_fen, self.options.game)
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
            chess::write_pgn(&record).map_err(|e| e.to_string())
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
