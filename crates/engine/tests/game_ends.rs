//! Every game ends well: seeded random games played to the move limit under both rule sets,
//! with every verdict (and every "the game goes on") checked against facts this test works
//! out for itself, without the judge's code:
//!
//! - checkmate: the side to move is in check and no move leaves its general safe;
//! - stalemate: not in check, and no move leaves its general safe;
//! - repetition, perpetual check or chase: the board with the same side to move occurred for
//!   the third time (counted over the test's own record of boards), and a perpetual check
//!   loss goes to a side whose every move of the cycle gave check while the other's did not;
//! - no attacking material: no chariot, horse, cannon or soldier on the board;
//! - move limit: exactly `move_limit` plies since the last capture (counted by the test).
//!
//! While no verdict is given none of these facts may hold, and a game must end within the
//! plies its captures allow (at most `(pieces - 2 + 1) * move_limit`).

use chuhan_engine::{
    Color, Game, GameConfig, GameResult, GenKind, Move, MoveList, Piece, PieceKind, Position,
    RuleSet, Termination, Verdict,
};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::BTreeMap;

/// Games per rule set.
const GAMES: u64 = 1000;

/// What identifies a position for repetition: the board and the side to move.
type Board = ([Piece; 90], Color);

/// The perft suite's positions: the start, middle games and sparse endings.
fn starts() -> Vec<String> {
    include_str!("data/xiangqi.epd")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split(';').next().unwrap().trim().to_string())
        .collect()
}

fn pieces_on(board: &[Piece; 90]) -> usize {
    board.iter().filter(|p| !p.is_empty()).count()
}

/// Whether the side to move has a move that leaves its general unattacked, found by trying
/// every pseudo-legal move (the judge asks the legal generator instead).
fn has_safe_move(pos: &Position) -> bool {
    let mut pos = pos.clone();
    let mover = pos.side_to_move();
    let mut pseudo = MoveList::new();
    pos.generate_pseudo(GenKind::All, &mut pseudo);
    pseudo.iter().any(|&mv| {
        pos.make(mv);
        let safe = !pos.general_attacked(mover);
        pos.unmake();
        safe
    })
}

fn attacking_material(board: &[Piece; 90]) -> bool {
    board.iter().any(|p| {
        matches!(
            p.kind(),
            Some(PieceKind::Chariot | PieceKind::Horse | PieceKind::Cannon | PieceKind::Soldier)
        )
    })
}

/// The test's own record of a game: boards after each ply (the start first), whether the
/// side to move there was in check, and plies since the last capture.
struct Record {
    boards: Vec<Board>,
    checked: Vec<bool>,
    quiet: u16,
}

impl Record {
    fn new(pos: &Position) -> Record {
        Record {
            boards: vec![(*pos.board(), pos.side_to_move())],
            checked: vec![pos.general_attacked(pos.side_to_move())],
            quiet: pos.quiet_plies(),
        }
    }

    fn push(&mut self, pos: &Position) {
        let before = pieces_on(&self.boards.last().unwrap().0);
        let now = pieces_on(pos.board());
        self.quiet = if now < before { 0 } else { self.quiet + 1 };
        self.boards.push((*pos.board(), pos.side_to_move()));
        self.checked.push(pos.general_attacked(pos.side_to_move()));
    }

    /// Indices of the boards equal to the current one, oldest first (the current included).
    fn occurrences(&self) -> Vec<usize> {
        let now = self.boards.last().unwrap();
        (0..self.boards.len())
            .filter(|&i| &self.boards[i] == now)
            .collect()
    }
}

/// Checks the verdict (or its absence) on the current position; returns an explanation of
/// what is wrong.
fn explain(
    pos: &Position,
    record: &Record,
    config: &GameConfig,
    verdict: Option<Verdict>,
) -> Result<(), String> {
    let mover = pos.side_to_move();
    let in_check = pos.general_attacked(mover);
    if in_check != pos.in_check() {
        return Err(format!(
            "in_check() = {} but the general is {in_check}",
            pos.in_check()
        ));
    }
    let can_move = has_safe_move(pos);
    let occurrences = record.occurrences();
    let (board, _) = record.boards.last().unwrap();
    let material = attacking_material(board);
    let limit_reached = config.move_limit > 0 && record.quiet >= config.move_limit;
    let Some(v) = verdict else {
        if !can_move {
            return Err("no legal move but no verdict".into());
        }
        if occurrences.len() >= 3 {
            return Err(format!("third occurrence {occurrences:?} but no verdict"));
        }
        if !material {
            return Err("no attacking material but no verdict".into());
        }
        if limit_reached {
            return Err(format!("{} quiet plies but no verdict", record.quiet));
        }
        return Ok(());
    };
    let loss = |loser: Color| v.result == GameResult::win_for(loser.flip());
    let repeated = |v: &Verdict| -> Result<(), String> {
        if !can_move || occurrences.len() != 3 {
            return Err(format!(
                "{v}: can move {can_move}, occurrences {occurrences:?}"
            ));
        }
        Ok(())
    };
    match v.termination {
        Termination::Checkmate if in_check && !can_move && loss(mover) => Ok(()),
        Termination::Stalemate if !in_check && !can_move && loss(mover) => Ok(()),
        Termination::Repetition | Termination::PerpetualCheck | Termination::PerpetualChase => {
            repeated(&v)?;
            // The cycle: the moves from the first of the three occurrences to now. Board i
            // follows move i - 1, so the move into board i gave check when board i's side to
            // move is in check; moves alternate starting with the side to move now.
            let first = occurrences[0];
            let checks: Vec<bool> = record.checked[first + 1..].to_vec();
            let all = |offset: usize| checks.iter().skip(offset).step_by(2).all(|&c| c);
            let (now_side_checks, other_checks) = (all(0), all(1));
            match v.termination {
                Termination::PerpetualCheck => {
                    let loser = if now_side_checks { mover } else { mover.flip() };
                    if now_side_checks == other_checks || !loss(loser) {
                        return Err(format!("{v}: checks {checks:?}"));
                    }
                }
                Termination::PerpetualChase => {
                    if !config.rules.forbids_perpetual_chase() || v.result == GameResult::Draw {
                        return Err(format!("{v} under {}", config.rules));
                    }
                    if now_side_checks != other_checks {
                        return Err(format!("{v} but one side checked throughout: {checks:?}"));
                    }
                }
                _ => {
                    if v.result != GameResult::Draw || now_side_checks != other_checks {
                        return Err(format!("{v}: checks {checks:?}"));
                    }
                }
            }
            Ok(())
        }
        Termination::NoAttackingMaterial
            if can_move && occurrences.len() < 3 && !material && v.result == GameResult::Draw =>
        {
            Ok(())
        }
        Termination::MoveLimit
            if can_move
                && occurrences.len() < 3
                && material
                && record.quiet == config.move_limit
                && v.result == GameResult::Draw =>
        {
            Ok(())
        }
        _ => Err(format!(
            "{v} unexplained: in check {in_check}, can move {can_move}, occurrences \
             {occurrences:?}, material {material}, quiet {} of {}",
            record.quiet, config.move_limit
        )),
    }
}

/// Plays one seeded random game and returns its verdict, failing on any unexplained one.
fn play(start: &str, config: GameConfig, rng: &mut Xoshiro256PlusPlus) -> Verdict {
    let pos = Position::from_fen(start).unwrap();
    let cap = (pieces_on(pos.board()) - 2 + 1) * usize::from(config.move_limit);
    let mut record = Record::new(&pos);
    let mut game = Game::new(pos, config);
    let mut verdict = game.verdict();
    // Prefer stepping back, and checking, now and then, so that positions recur and the
    // repetition rules (perpetual check among them) get judged often.
    let back_rate = rng.gen_range(0.0..0.5);
    let check_rate = rng.gen_range(0.0..0.5);
    loop {
        if let Err(why) = explain(game.position(), &record, &config, verdict) {
            panic!(
                "{start} under {} after {}: {why}",
                config.rules,
                moves_text(&game.moves())
            );
        }
        if let Some(v) = verdict {
            assert_eq!(game.verdict(), Some(v), "the verdict is stable");
            return v;
        }
        assert!(
            game.moves().len() < cap,
            "{start}: no verdict after {} plies",
            game.moves().len()
        );
        let legal = game.legal_moves();
        let moves = game.moves();
        let back = moves.len().checked_sub(2).map(|i| {
            let m = moves[i];
            Move::new(m.to(), m.from())
        });
        let checks: Vec<Move> = if rng.gen_bool(check_rate) {
            let mut pos = game.position().clone();
            legal
                .iter()
                .copied()
                .filter(|&m| {
                    pos.make(m);
                    let check = pos.in_check();
                    pos.unmake();
                    check
                })
                .collect()
        } else {
            Vec::new()
        };
        let mv = match back {
            Some(m) if legal.contains(m) && rng.gen_bool(back_rate) => m,
            _ if !checks.is_empty() => checks[rng.gen_range(0..checks.len())],
            _ => legal.as_slice()[rng.gen_range(0..legal.len())],
        };
        verdict = game.play(mv).expect("a legal move");
        record.push(game.position());
    }
}

fn moves_text(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_uci())
        .collect::<Vec<_>>()
        .join(" ")
}

fn run(rules: RuleSet) -> BTreeMap<&'static str, u32> {
    let starts = starts();
    let mut tally = BTreeMap::new();
    for seed in 0..GAMES {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed * 2 + rules as u64);
        // The start position a third of the time, otherwise a suite position.
        let start = if seed % 3 == 0 {
            &starts[0]
        } else {
            &starts[rng.gen_range(0..starts.len())]
        };
        let move_limit = [40, 60, 120][rng.gen_range(0..3)];
        let config = GameConfig { rules, move_limit };
        let v = play(start, config, &mut rng);
        *tally.entry(v.termination.as_str()).or_insert(0) += 1;
    }
    tally
}

/// The endings random play reaches often enough to be sure of: if one never occurs, the
/// judge stopped giving it (or the test stopped reaching it).
fn assert_common_endings(rules: RuleSet, tally: &BTreeMap<&'static str, u32>) {
    assert_eq!(tally.values().sum::<u32>(), GAMES as u32);
    for t in [
        Termination::Checkmate,
        Termination::MoveLimit,
        Termination::Repetition,
        Termination::PerpetualCheck,
        Termination::Stalemate,
        Termination::NoAttackingMaterial,
    ] {
        assert!(
            tally.contains_key(t.as_str()),
            "{rules}: no {t} in {tally:?}"
        );
    }
}

#[test]
fn asian_games_end_with_explained_verdicts() {
    let tally = run(RuleSet::Asian);
    eprintln!("asian: {tally:?}");
    assert_common_endings(RuleSet::Asian, &tally);
}

#[test]
fn check_only_games_end_with_explained_verdicts() {
    let tally = run(RuleSet::CheckOnly);
    eprintln!("check-only: {tally:?}");
    assert!(
        !tally.contains_key(Termination::PerpetualChase.as_str()),
        "chase verdict under check-only rules: {tally:?}"
    );
    assert_common_endings(RuleSet::CheckOnly, &tally);
}
