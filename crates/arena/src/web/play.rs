//! Games between a person (in the browser) and a player, judged on the server: the page sends
//! moves and polls the state; the player thinks on a thread of its own, so no request waits
//! for a search. Every game is written as PGN after every move when a folder is given.

use crate::play::limits::LimitSpec;
use crate::play::player::{playable_moves, resolve_player, Player};
use crate::report::html::games::render_all;
use chuhan_engine::notation::Notation;
use chuhan_engine::pgn::{write_pgn, GameRecord};
use chuhan_engine::{Color, Game, GameConfig, Move, Position, START_FEN};
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
}

/// A refused request: HTTP status and message.
pub type Refusal = (u16, String);

struct Session {
    id: u64,
    player_text: String,
    player_name: String,
    human: Color,
    start_fen: String,
    game: Game,
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

    /// Starts a game against `player` (a player spec) with the person playing `human`
    /// (`red` or `black`) from `fen` (empty: the standard start); the player moves first when
    /// it is its side to move.
    pub fn create(&self, player: &str, human: &str, fen: &str) -> Result<Value, Refusal> {
        let fen = if fen.trim().is_empty() {
            START_FEN
        } else {
            fen.trim()
        };
        let position = Position::from_fen(fen).map_err(|e| (400, format!("FEN '{fen}': {e}")))?;
        let human = match human {
            "red" | "" => Color::Red,
            "black" => Color::Black,
            other => return Err((400, format!("side '{other}': give red or black"))),
        };
        let spec = resolve_player(player).map_err(|e| (400, format!("player '{player}': {e}")))?;
        spec.check()
            .map_err(|e| (400, format!("player '{player}': {e:#}")))?;
        let id = self.next.fetch_add(1, Ordering::SeqCst);
        let mut instance = spec.create(player.trim());
        instance.new_game(id);
        let session = Arc::new(Mutex::new(Session {
            id,
            player_text: player.trim().to_string(),
            player_name: instance.name().to_string(),
            human,
            start_fen: fen.to_string(),
            game: Game::new(position, self.options.game),
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
                .map(|v| format!("{} {}", v.result, v.termination));
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
            if s.thinking || s.game.position().side_to_move() != s.human {
                return Err((409, "it is not your move".into()));
            }
            let mv = Move::parse_uci(uci.trim())
                .ok_or_else(|| (400, format!("'{uci}' is not a move in UCI (a0-i9)")))?;
            let legal: Vec<Move> = s.game.legal_moves().iter().copied().collect();
            if !legal.contains(&mv) {
                return Err((400, format!("{uci} is not a legal move here")));
            }
            if s.game.would_forfeit(mv) && playable_moves(&mut s.game) != legal {
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
        let start = Position::from_fen(&s.start_fen).expect("the start FEN parses");
        let human_first = start.side_to_move() == s.human;
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
        let mut game = Game::new(start, self.options.game);
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

    /// Game `id` as PGN (ICCS moves).
    pub fn pgn(&self, id: u64) -> Result<String, Refusal> {
        let arc = self.get(id)?;
        let s = lock(&arc);
        pgn_text(&s).map_err(|e| (500, e))
    }

    /// Starts the player's search when it is its move.
    fn think(&self, arc: &Arc<Mutex<Session>>) {
        let (game, mut player, generation) = {
            let mut s = lock(arc);
            if s.verdict.is_some() || s.thinking || s.game.position().side_to_move() == s.human {
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
            let mut any = crate::play::any::AnyGame::Xiangqi(game);
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
                    if let crate::play::any::AnyMove::Xiangqi(mv) = c.mv {
                        apply(&mut s, mv, comment);
                    }
                }
                Err(e) => {
                    s.verdict = Some(format!(
                        "{} ({} {})",
                        chuhan_engine::GameResult::win_for(s.human).as_pgn(),
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
        let (wxf, zh) = render_all(&s.start_fen, &uci);
        let your_turn =
            s.verdict.is_none() && !s.thinking && s.game.position().side_to_move() == s.human;
        let mut legal: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut forbidden = Vec::new();
        if your_turn {
            let moves: Vec<Move> = s.game.legal_moves().iter().copied().collect();
            for mv in moves {
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
            "human": if s.human == Color::Red { "red" } else { "black" },
            "start_fen": s.start_fen,
            "fen": s.game.position().to_fen(),
            "moves": uci,
            "wxf": wxf,
            "zh": zh,
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
fn apply(s: &mut Session, mv: Move, comment: String) {
    if let Ok(Some(v)) = s.game.play(mv) {
        s.verdict = Some(format!("{} {}", v.result, v.termination));
    }
    s.comments.push(comment);
}

fn pgn_text(s: &Session) -> Result<String, String> {
    let (red, black) = if s.human == Color::Red {
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
        ("Red".to_string(), red),
        ("Black".to_string(), black),
    ];
    if let Some(v) = &s.verdict {
        tags.push(("Termination".to_string(), v.clone()));
    }
    let record = GameRecord {
        tags,
        start_fen: s.start_fen.clone(),
        moves: s.game.moves(),
        result,
    };
    write_pgn(&record, Notation::Iccs).map_err(|e| e.to_string())
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
