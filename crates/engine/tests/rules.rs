//! Rules fixtures: one position and move list per verdict and per chase clause. The last move
//! of each list delivers the verdict (for repetitions: makes the third occurrence); no move
//! before it may end the game.

use chuhan_engine::xiangqi::rules::{check_only_cycle, CycleVerdict};
use chuhan_engine::{
    cycle_outcome, repetition_ruling, Color, Game, GameConfig, GameResult, Move, Position,
    RepetitionOutcome, RuleSet, Termination, Verdict,
};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

const RED_WINS: GameResult = GameResult::RedWins;
const BLACK_WINS: GameResult = GameResult::BlackWins;
const DRAW: GameResult = GameResult::Draw;

struct Fixture {
    name: &'static str,
    fen: &'static str,
    moves: String,
    expected: (GameResult, Termination),
}

/// `cycle` repeated twice: from the start position, the third occurrence.
fn twice(cycle: &str) -> String {
    format!("{cycle} {cycle}")
}

fn moves(text: &str) -> Vec<Move> {
    text.split_whitespace()
        .map(|m| Move::parse_uci(m).unwrap_or_else(|| panic!("bad move text {m}")))
        .collect()
}

/// Plays the moves, asserting each is legal and none but the last gets a verdict.
fn play_all(name: &str, fen: &str, text: &str, config: GameConfig) -> (Game, Option<Verdict>) {
    let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{name}: bad FEN {fen}: {e}"));
    let mut game = Game::new(pos, config);
    assert_eq!(game.verdict(), None, "{name}: verdict before any move");
    let list = moves(text);
    let mut last = None;
    for (i, &mv) in list.iter().enumerate() {
        let verdict = game
            .play(mv)
            .unwrap_or_else(|e| panic!("{name}: move {} ({mv}): {e}", i + 1));
        if i + 1 < list.len() {
            assert_eq!(verdict, None, "{name}: verdict after move {} ({mv})", i + 1);
        }
        last = verdict;
    }
    assert_eq!(game.moves(), list, "{name}");
    (game, last)
}

/// Plays a fixture; the error names the fixture and what it got instead.
fn check(f: &Fixture, config: GameConfig) -> Result<(), String> {
    let (_, verdict) = play_all(f.name, f.fen, &f.moves, config);
    let (result, termination) = f.expected;
    let expected = Verdict {
        result,
        termination,
    };
    if verdict == Some(expected) {
        Ok(())
    } else {
        Err(format!("{}: expected {expected}, got {verdict:?}", f.name))
    }
}

/// Checks every fixture and reports all that fail.
fn check_all(fixtures: Vec<Fixture>, config: GameConfig) {
    let failures: Vec<String> = fixtures
        .iter()
        .filter_map(|f| check(f, config).err())
        .collect();
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

fn fixture(
    name: &'static str,
    fen: &'static str,
    moves: String,
    expected: (GameResult, Termination),
) -> Fixture {
    Fixture {
        name,
        fen,
        moves,
        expected,
    }
}

// ---------------------------------------------------------------------------------------
// Positions. Red general d0/f0/f2, black general e9/f9/d9 unless noted.

/// Red chariot a5-e5 checks on the e-file; d9 faces the red general, f9 is covered by the
/// chariot on f1, e8 stays on the e-file.
const MATE_FEN: &str = "4k4/9/9/9/R8/9/9/9/5R3/3K5 w - - 0 1";

/// A lone red chariot checks the black general from e5 and f5 as it shuttles e9-f9.
const PERPETUAL_CHECK_FEN: &str = "4k4/9/9/9/5R3/9/9/9/9/3K5 w - - 0 1";
const PERPETUAL_CHECK_CYCLE: &str = "f5e5 e9f9 e5f5 f9e9";

/// Red chariot c3/a3 follows the black horse a7/c8 up the c- and a-files.
const CHARIOT_CHASE_FEN: &str = "4k4/9/n8/9/9/9/2R6/9/9/3K5 w - - 0 1";
const CHARIOT_CHASE_CYCLE: &str = "c3a3 a7c8 a3c3 c8a7";

fn fixtures() -> Vec<Fixture> {
    vec![
        fixture(
            "checkmate",
            MATE_FEN,
            "a5e5".into(),
            (RED_WINS, Termination::Checkmate),
        ),
        // Chariot to a8 covers rank 8: black has no move and is not in check.
        fixture(
            "stalemate",
            MATE_FEN,
            "a5a8".into(),
            (RED_WINS, Termination::Stalemate),
        ),
        fixture(
            "perpetual check: the checking side loses",
            PERPETUAL_CHECK_FEN,
            twice(PERPETUAL_CHECK_CYCLE),
            (BLACK_WINS, Termination::PerpetualCheck),
        ),
        // Red cannon d1 aims up the d-file at the black general d9, black cannon a2 along
        // rank 2 at the red general f2. The red horse steps e2-d4 (off rank 2, onto the
        // d-file) and the black horse b3-d2 (onto both lines): every move changes both
        // screen counts so that it parries the check it faces and gives one.
        fixture(
            "both sides check every move: draw",
            "3k5/9/9/9/9/9/1n7/c3NK3/3C5/9 w - - 0 1",
            twice("e2d4 b3d2 d4e2 d2b3"),
            (DRAW, Termination::Repetition),
        ),
        fixture(
            "chariot chases an unprotected horse",
            CHARIOT_CHASE_FEN,
            twice(CHARIOT_CHASE_CYCLE),
            (BLACK_WINS, Termination::PerpetualChase),
        ),
        // Red horse c7/b5 attacks the black cannon on a8/a7.
        fixture(
            "horse chases an unprotected cannon",
            "4k4/9/c1N6/9/9/9/9/9/9/3K5 w - - 0 1",
            twice("c7b5 a7a8 b5c7 a8a7"),
            (BLACK_WINS, Termination::PerpetualChase),
        ),
        // Red cannon c3/a3 attacks the black horse a7/c8 over the red soldiers a5 and c5.
        fixture(
            "cannon chases an unprotected horse",
            "4k4/9/n8/9/P1P6/9/2C6/9/9/3K5 w - - 0 1",
            twice(CHARIOT_CHASE_CYCLE),
            (BLACK_WINS, Termination::PerpetualChase),
        ),
        // Red chariot b3/c3 attacks the black cannon b7/c7 along the files.
        fixture(
            "chariot chases an unprotected cannon",
            "4k4/9/1c7/9/9/9/2R6/9/9/3K5 w - - 0 1",
            twice("c3b3 b7c7 b3c3 c7b7"),
            (BLACK_WINS, Termination::PerpetualChase),
        ),
        // The same with a black chariot on a7 that protects b7 and c7 along rank 7.
        fixture(
            "chariot attacks a protected cannon: no chase",
            "4k4/9/rc7/9/9/9/2R6/9/9/3K5 w - - 0 1",
            twice("c3b3 b7c7 b3c3 c7b7"),
            (DRAW, Termination::Repetition),
        ),
        // Red horse e8/d6 attacks the black chariot c7/b7, protected by the chariot a7.
        fixture(
            "horse chases a protected chariot",
            "5k3/4N4/rr7/9/9/9/9/9/9/3K5 w - - 0 1",
            twice("e8d6 b7c7 d6e8 c7b7"),
            (BLACK_WINS, Termination::PerpetualChase),
        ),
        // Red cannon c3/b3 attacks the same chariot over the red soldiers c5/b5 (which
        // protect each other from the black chariot).
        fixture(
            "cannon chases a protected chariot",
            "5k3/9/rr7/9/1PP6/9/2C6/9/9/3K5 w - - 0 1",
            twice("c3b3 b7c7 b3c3 c7b7"),
            (BLACK_WINS, Termination::PerpetualChase),
        ),
        // A crossed red soldier d6/c6 attacks the unprotected black cannon c7/d7.
        fixture(
            "soldier chasing: no chase",
            "4k4/9/2c6/3P5/9/9/9/9/9/5K3 w - - 0 1",
            twice("d6c6 c7d7 c6d6 d7c7"),
            (DRAW, Termination::Repetition),
        ),
        // The red general e1/e0 attacks the black cannon d0/d1 beside it.
        fixture(
            "general chasing: no chase",
            "5k3/9/9/9/9/9/9/9/4K4/3c5 w - - 0 1",
            twice("e1e0 d0d1 e0e1 d1d0"),
            (DRAW, Termination::Repetition),
        ),
        // Red cannon a0 aims up the a-file at the uncrossed black soldier a6. The red horse
        // c1-a2 and the black horse b6-a4 step on and off the file, so that after every red
        // move exactly one screen stands between cannon and soldier, and after every black
        // move none or two.
        fixture(
            "uncrossed soldier as target: no chase",
            "5k3/9/9/pn7/9/9/9/9/2N6/C2K5 w - - 0 1",
            twice("c1a2 b6a4 a2c1 a4b6"),
            (DRAW, Termination::Repetition),
        ),
        // The same with a black horse on a6: a chase.
        fixture(
            "static horse attacked anew by screen changes: chase",
            "5k3/9/9/nn7/9/9/9/9/2N6/C2K5 w - - 0 1",
            twice("c1a2 b6a4 a2c1 a4b6"),
            (BLACK_WINS, Termination::PerpetualChase),
        ),
        // Red chariot e5-c5 attacks the black horse c8 and leaves the red cannon e0 one screen
        // (the black advisor e8): check. The horse blocks on e7, where the chariot back on e5
        // attacks it again without check. Every red move attacks the horse anew, but half of
        // them give check.
        fixture(
            "alternating check and chase: no chase verdict",
            "4k4/2n1a4/9/9/4R4/9/9/9/9/3KC4 w - - 0 1",
            twice("e5c5 c8e7 c5e5 e7c8"),
            (DRAW, Termination::Repetition),
        ),
        // Red cannon c0 aims up the c-file at the black horse c9; black cannon a4 along rank 4
        // at the red horse e4. The red horse d4-c2 and the black horse b6-c4 change both
        // screen counts: every move of each side attacks the enemy horse anew.
        fixture(
            "both sides chase: draw",
            "2n1k4/9/9/1n7/9/c2NN4/9/9/9/2CK5 w - - 0 1",
            twice("d4c2 b6c4 c2d4 c4b6"),
            (DRAW, Termination::Repetition),
        ),
        // The red chariot shuffles a0-a1 and attacks the black cannon a7 all the time: the
        // attack is never new, so it is no chase.
        fixture(
            "a standing attack is not a chase",
            "4k3n/9/c8/9/9/9/9/9/9/R2K5 w - - 0 1",
            twice("a0a1 i9h7 a1a0 h7i9"),
            (DRAW, Termination::Repetition),
        ),
        fixture(
            "plain repetition",
            "4k3n/9/9/9/9/9/9/9/9/R2K5 w - - 0 1",
            twice("a0a1 i9h7 a1a0 h7i9"),
            (DRAW, Termination::Repetition),
        ),
        // The red general takes the last soldier; advisors and elephants remain.
        fixture(
            "no attacking material",
            "5k3/4a4/9/9/9/9/9/9/3Kp4/2B6 w - - 0 1",
            "d1e1".into(),
            (DRAW, Termination::NoAttackingMaterial),
        ),
        fixture(
            "move limit",
            "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 118 60",
            "a0a1 e9f9".into(),
            (DRAW, Termination::MoveLimit),
        ),
        fixture(
            "move limit with mate: mate wins",
            "4k4/9/9/9/R8/9/9/9/5R3/3K5 w - - 119 70",
            "a5e5".into(),
            (RED_WINS, Termination::Checkmate),
        ),
        fixture(
            "move limit with stalemate: stalemate wins",
            "4k4/9/9/9/R8/9/9/9/5R3/3K5 w - - 119 70",
            "a5a8".into(),
            (RED_WINS, Termination::Stalemate),
        ),
    ]
}

#[test]
fn every_fixture_gets_its_verdict() {
    check_all(fixtures(), GameConfig::default());
}

#[test]
fn check_only_rules_turn_chases_into_draws() {
    let config = GameConfig {
        rules: RuleSet::CheckOnly,
        ..GameConfig::default()
    };
    let fixtures = fixtures()
        .into_iter()
        .map(|f| match f.expected.1 {
            Termination::PerpetualChase => Fixture {
                expected: (DRAW, Termination::Repetition),
                ..f
            },
            _ => f,
        })
        .collect();
    check_all(fixtures, config);
}

/// At the final position of every repetition fixture, `cycle_outcome` agrees with the judge,
/// and it leaves the position exactly as it found it.
#[test]
fn cycle_outcome_agrees_with_the_judge_and_restores_the_position() {
    for rules in RuleSet::ALL {
        let config = GameConfig {
            rules,
            ..GameConfig::default()
        };
        for f in fixtures() {
            let (mut game, verdict) = play_all(f.name, f.fen, &f.moves, config);
            let verdict = verdict.expect("every fixture ends the game");
            let mut pos = game.position().clone();
            let outcome = cycle_outcome(&mut pos, rules);
            assert_eq!(&pos, game.position(), "{}: position changed", f.name);
            assert_eq!(pos.key(), pos.compute_key(), "{}", f.name);
            let repetition = matches!(
                verdict.termination,
                Termination::PerpetualCheck | Termination::PerpetualChase | Termination::Repetition
            );
            if repetition {
                let outcome = outcome.unwrap_or_else(|| panic!("{}: no cycle found", f.name));
                assert_eq!(outcome.verdict(), verdict, "{} ({rules})", f.name);
            } else {
                assert_eq!(outcome, None, "{}", f.name);
            }
            assert_eq!(
                game.verdict(),
                Some(verdict),
                "{}: verdict is stable",
                f.name
            );
        }
    }
}

/// The search sees the first repetition: after one cycle `cycle_outcome` already gives the
/// verdict, while the game goes on; one ply before, there is no cycle.
#[test]
fn cycle_outcome_judges_the_first_repetition() {
    // Only two-cycle fixtures (8 plies) can be cut after one cycle; the others are counted, so
    // that the test cannot pass by skipping every fixture.
    let (mut checked, mut other_lengths) = (0, 0);
    for f in fixtures() {
        let list: Vec<&str> = f.moves.split_whitespace().collect();
        if list.len() != 8 {
            other_lengths += 1;
            continue;
        }
        checked += 1;
        let (mut game, verdict) =
            play_all(f.name, f.fen, &list[..4].join(" "), GameConfig::default());
        assert_eq!(verdict, None, "{}", f.name);
        let before = game.position().clone();
        let mut pos = before.clone();
        let outcome = cycle_outcome(&mut pos, RuleSet::Asian).expect("a cycle");
        assert_eq!(pos, before);
        assert_eq!(
            outcome.verdict(),
            Verdict {
                result: f.expected.0,
                termination: f.expected.1
            },
            "{}",
            f.name
        );
        let (game3, _) = play_all(f.name, f.fen, &list[..3].join(" "), GameConfig::default());
        let mut pos = game3.position().clone();
        assert_eq!(cycle_outcome(&mut pos, RuleSet::Asian), None, "{}", f.name);
        assert_eq!(game.verdict(), None);
    }
    eprintln!("{checked} two-cycle fixtures checked, {other_lengths} of other lengths skipped");
    assert_eq!(checked + other_lengths, fixtures().len());
    assert!(
        checked >= CYCLE_FIXTURES,
        "only {checked} fixtures of 8 plies (expected at least {CYCLE_FIXTURES})"
    );
}

/// Two-cycle fixtures in `fixtures()` when this test was written.
const CYCLE_FIXTURES: usize = 17;

#[test]
fn cycle_outcome_is_none_without_repetition() {
    let mut pos = Position::startpos();
    assert_eq!(cycle_outcome(&mut pos, RuleSet::Asian), None);
    for m in moves("h2e2 h9g7 h0g2 i9h9") {
        pos.make(m);
        assert_eq!(cycle_outcome(&mut pos, RuleSet::Asian), None);
    }
}

/// A null move ends the scan: passing twice returns to the same key, but that is no
/// repetition.
#[test]
fn cycle_outcome_stops_at_a_null_move() {
    let mut pos = Position::from_fen("4k3n/9/9/9/9/9/9/9/9/R2K5 w - - 0 1").unwrap();
    let start = pos.key();
    pos.make(Move::parse_uci("a0a1").unwrap());
    pos.make_null();
    pos.make(Move::parse_uci("a1a0").unwrap());
    pos.make_null();
    assert_eq!(pos.key(), start);
    assert_eq!(cycle_outcome(&mut pos, RuleSet::Asian), None);
    // Without the null moves the same shuffle is a repetition.
    let mut pos = Position::from_fen("4k3n/9/9/9/9/9/9/9/9/R2K5 w - - 0 1").unwrap();
    for m in moves("a0a1 i9h7 a1a0 h7i9") {
        pos.make(m);
    }
    assert_eq!(
        cycle_outcome(&mut pos, RuleSet::Asian),
        Some(RepetitionOutcome::Draw)
    );
}

#[test]
fn cycle_outcome_names_the_loser() {
    let mut pos = Position::from_fen(PERPETUAL_CHECK_FEN).unwrap();
    for m in moves(PERPETUAL_CHECK_CYCLE) {
        pos.make(m);
    }
    assert_eq!(
        cycle_outcome(&mut pos, RuleSet::CheckOnly),
        Some(RepetitionOutcome::Loses(
            Color::Red,
            Termination::PerpetualCheck
        ))
    );
    let mut pos = Position::from_fen(CHARIOT_CHASE_FEN).unwrap();
    for m in moves(CHARIOT_CHASE_CYCLE) {
        pos.make(m);
    }
    assert_eq!(
        cycle_outcome(&mut pos, RuleSet::Asian),
        Some(RepetitionOutcome::Loses(
            Color::Red,
            Termination::PerpetualChase
        ))
    );
    assert_eq!(
        cycle_outcome(&mut pos, RuleSet::CheckOnly),
        Some(RepetitionOutcome::Draw)
    );
}

/// Starting one ply later, the chaser's (checker's) own move makes the third occurrence:
/// `would_forfeit` flags exactly that move.
#[test]
fn would_forfeit_flags_the_losing_repetition() {
    // After c3a3 in the chariot chase, Black to move.
    let fen = "4k4/9/n8/9/9/9/R8/9/9/3K5 b - - 1 1";
    let (mut game, verdict) = play_all(
        "chase",
        fen,
        "a7c8 a3c3 c8a7 c3a3 a7c8 a3c3 c8a7",
        GameConfig::default(),
    );
    assert_eq!(verdict, None);
    let losing = Move::parse_uci("c3a3").unwrap();
    assert!(game.would_forfeit(losing));
    let before = game.position().clone();
    for other in ["c3c4", "d0e0", "c3b3"] {
        assert!(
            !game.would_forfeit(Move::parse_uci(other).unwrap()),
            "{other}"
        );
    }
    // Not a legal move: cannot forfeit.
    assert!(!game.would_forfeit(Move::parse_uci("c3d4").unwrap()));
    assert_eq!(
        game.position(),
        &before,
        "would_forfeit changed the position"
    );
    assert_eq!(
        game.play(losing).unwrap(),
        Some(Verdict::loss(Color::Red, Termination::PerpetualChase))
    );

    // Under check-only rules the same move is a plain draw.
    let config = GameConfig {
        rules: RuleSet::CheckOnly,
        ..GameConfig::default()
    };
    let (mut game, _) = play_all("chase", fen, "a7c8 a3c3 c8a7 c3a3 a7c8 a3c3 c8a7", config);
    assert!(!game.would_forfeit(losing));

    // After f5e5 in the perpetual check, Black to move.
    let fen = "4k4/9/9/9/4R4/9/9/9/9/3K5 b - - 1 1";
    let (mut game, _) = play_all(
        "check",
        fen,
        "e9f9 e5f5 f9e9 f5e5 e9f9 e5f5 f9e9",
        GameConfig::default(),
    );
    assert!(game.would_forfeit(Move::parse_uci("f5e5").unwrap()));
    assert!(!game.would_forfeit(Move::parse_uci("f5f4").unwrap()));

    // The side whose move completes someone else's perpetual check does not forfeit.
    let (mut game, _) = play_all(
        "check",
        PERPETUAL_CHECK_FEN,
        "f5e5 e9f9 e5f5 f9e9 f5e5 e9f9 e5f5",
        GameConfig::default(),
    );
    let completing = Move::parse_uci("f9e9").unwrap();
    assert!(!game.would_forfeit(completing));
    assert_eq!(
        game.play(completing).unwrap(),
        Some(Verdict::loss(Color::Red, Termination::PerpetualCheck))
    );
}

#[test]
fn move_limit_is_configurable() {
    let fen = "4k3n/9/9/9/9/9/9/9/9/R2K5 w - - 0 1";
    let config = GameConfig {
        move_limit: 3,
        ..GameConfig::default()
    };
    let (_, verdict) = play_all("limit 3", fen, "a0a1 i9h7 a1a0", config);
    assert_eq!(verdict, Some(Verdict::draw(Termination::MoveLimit)));
    // 0 disables the limit.
    let config = GameConfig {
        move_limit: 0,
        ..GameConfig::default()
    };
    let pos = Position::from_fen("4k3n/9/9/9/9/9/9/9/9/R2K5 w - - 900 500").unwrap();
    let mut game = Game::new(pos, config);
    assert_eq!(game.verdict(), None);
    assert_eq!(game.play(Move::parse_uci("a0a1").unwrap()), Ok(None));
    // The default limit ends that game at once.
    let pos = Position::from_fen("4k3n/9/9/9/9/9/9/9/9/R2K5 w - - 900 500").unwrap();
    let mut game = Game::new(pos, GameConfig::default());
    assert_eq!(game.verdict(), Some(Verdict::draw(Termination::MoveLimit)));
}

#[test]
fn illegal_moves_are_refused_and_named() {
    let pos = Position::from_fen(MATE_FEN).unwrap();
    let mut game = Game::new(pos.clone(), GameConfig::default());
    let mv = Move::parse_uci("a5b6").unwrap();
    let err = game.play(mv).unwrap_err();
    assert_eq!(err.mv, mv);
    assert_eq!(err.fen, pos.to_fen());
    let text = err.to_string();
    assert!(
        text.contains("a5b6") && text.contains(&pos.to_fen()),
        "{text}"
    );
    assert_eq!(game.position(), &pos);
    assert!(game.moves().is_empty());
    assert_eq!(game.legal_moves().len(), pos.clone().legal_moves().len());
}

/// Moves already on the position's stack count for repetitions but are not game moves.
#[test]
fn earlier_history_counts_for_repetition() {
    let mut pos = Position::from_fen(CHARIOT_CHASE_FEN).unwrap();
    for m in moves(CHARIOT_CHASE_CYCLE) {
        pos.make(m);
    }
    let mut game = Game::new(pos, GameConfig::default());
    assert!(game.moves().is_empty());
    let mut last = None;
    for m in moves(CHARIOT_CHASE_CYCLE) {
        last = game.play(m).unwrap();
    }
    assert_eq!(
        last,
        Some(Verdict::loss(Color::Red, Termination::PerpetualChase))
    );
    assert_eq!(game.moves(), moves(CHARIOT_CHASE_CYCLE));
    assert_eq!(game.config(), &GameConfig::default());
}

/// The search's built-in perpetual-check judge and `cycle_outcome` under check-only rules agree
/// at every position of every fixture.
#[test]
fn search_check_only_judge_agrees_with_cycle_outcome() {
    for f in fixtures() {
        let mut pos = Position::from_fen(f.fen).unwrap();
        for mv in moves(&f.moves) {
            pos.make(mv);
            let ours = cycle_outcome(&mut pos, RuleSet::CheckOnly).map(|o| match o {
                RepetitionOutcome::Draw => CycleVerdict::Draw,
                RepetitionOutcome::Loses(color, _) => CycleVerdict::Loses(color),
            });
            assert_eq!(ours, check_only_cycle(&mut pos), "{} after {mv}", f.name);
        }
    }
}

/// Random play in sparse positions, where repetitions are frequent: `would_forfeit(mv)` is
/// exactly "playing mv gives the mover a repetition loss", `cycle_outcome` never changes the
/// position, and every game ends with a verdict.
#[test]
fn random_games_keep_the_judge_consistent() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2024);
    let mut repetition_endings = 0;
    for f in fixtures() {
        for rules in RuleSet::ALL {
            for _ in 0..3 {
                let config = GameConfig {
                    rules,
                    move_limit: 60,
                };
                let mut game = Game::new(Position::from_fen(f.fen).unwrap(), config);
                let mut verdict = game.verdict();
                while verdict.is_none() {
                    let mover = game.position().side_to_move();
                    let legal = game.legal_moves();
                    for &mv in legal.iter() {
                        let mut trial = game.clone();
                        let after = trial.play(mv).expect("a legal move");
                        let loses = matches!(
                            after,
                            Some(v) if v.result == GameResult::win_for(mover.flip())
                                && matches!(
                                    v.termination,
                                    Termination::PerpetualCheck | Termination::PerpetualChase
                                )
                        );
                        assert_eq!(game.would_forfeit(mv), loses, "{} {mv}", f.name);
                        let mut pos = trial.position().clone();
                        for r in RuleSet::ALL {
                            cycle_outcome(&mut pos, r);
                            assert_eq!(&pos, trial.position());
                        }
                    }
                    // Prefer moving back and forth, so that positions recur.
                    let moves = game.moves();
                    let undo = moves.len().checked_sub(2).map(|i| {
                        let m = moves[i];
                        Move::new(m.to(), m.from())
                    });
                    let mv = match undo {
                        Some(m) if legal.contains(m) && rng.gen_bool(0.5) => m,
                        _ => legal.as_slice()[rng.gen_range(0..legal.len())],
                    };
                    verdict = game.play(mv).unwrap();
                }
                let termination = verdict.unwrap().termination;
                if matches!(
                    termination,
                    Termination::PerpetualCheck
                        | Termination::PerpetualChase
                        | Termination::Repetition
                ) {
                    repetition_endings += 1;
                }
            }
        }
    }
    assert!(
        repetition_endings > 20,
        "only {repetition_endings} repetitions"
    );
}

#[test]
fn repetition_ruling_names_the_chased_piece_and_the_cycle() {
    let config = GameConfig::default();
    let (game, verdict) = play_all(
        "chariot chase",
        CHARIOT_CHASE_FEN,
        &twice(CHARIOT_CHASE_CYCLE),
        config,
    );
    assert_eq!(
        verdict.map(|v| v.termination),
        Some(Termination::PerpetualChase)
    );
    let ruling = repetition_ruling(game.position(), config.rules).expect("a repetition");
    assert_eq!(
        ruling.outcome,
        RepetitionOutcome::Loses(Color::Red, Termination::PerpetualChase)
    );
    assert_eq!(ruling.plies, 8);
    let chased: Vec<(char, String)> = ruling
        .chased
        .iter()
        .map(|(p, s)| (p.fen_char(), s.to_string()))
        .collect();
    assert_eq!(chased, vec![('n', "a7".to_string())]);

    let (game, _) = play_all(
        "perpetual check",
        PERPETUAL_CHECK_FEN,
        &twice(PERPETUAL_CHECK_CYCLE),
        config,
    );
    let ruling = repetition_ruling(game.position(), config.rules).expect("a repetition");
    assert_eq!(
        ruling.outcome,
        RepetitionOutcome::Loses(Color::Red, Termination::PerpetualCheck)
    );
    assert!(ruling.chased.is_empty());
    // One occurrence short of the verdict: no ruling yet.
    let (game, _) = play_all("one cycle", CHARIOT_CHASE_FEN, CHARIOT_CHASE_CYCLE, config);
    assert_eq!(repetition_ruling(game.position(), config.rules), None);
}
