//! Move notations: round trips over random games and tandem positions, golden texts from the
//! rules doc, accepted variants, and errors.

mod common;

use chuhan_engine::notation::{parse, parse_any, render};
use chuhan_engine::{Color, Move, Notation, NotationError, Piece, PieceKind, Position};
use common::{random_game, tandem_positions};
use std::collections::HashSet;

fn mv(uci: &str) -> Move {
    Move::parse_uci(uci).unwrap()
}

/// Every legal move renders to text no other legal move renders to, and that text parses back
/// (with the notation given and with `parse_any`) to the same move.
fn assert_round_trip(pos: &mut Position, context: &str) {
    let before = pos.to_fen();
    let moves = pos.legal_moves();
    for notation in Notation::ALL {
        let mut seen = HashSet::new();
        for &m in moves.iter() {
            let text = render(pos, m, notation)
                .unwrap_or_else(|e| panic!("{context}: render {m} in {notation}: {e}"));
            assert!(
                seen.insert(text.clone()),
                "{context}: {notation} text '{text}' of {m} is not unique in {before}"
            );
            let back = parse(pos, &text, notation)
                .unwrap_or_else(|e| panic!("{context}: parse '{text}' ({m}) in {before}: {e}"));
            assert_eq!(back, m, "{context}: {notation} '{text}' in {before}");
            assert_eq!(
                parse_any(pos, &text),
                Ok(m),
                "{context}: parse_any '{text}'"
            );
        }
    }
    assert_eq!(pos.to_fen(), before, "{context}: position changed");
}

#[test]
fn round_trip_every_legal_move_of_200_random_games() {
    let start = Position::startpos();
    let mut positions = 0;
    for seed in 0..200u64 {
        let moves = random_game(&start, 0x5eed_0000 + seed, 150);
        let mut pos = start.clone();
        assert_round_trip(&mut pos, &format!("game {seed} ply 0"));
        for (ply, &m) in moves.iter().enumerate() {
            pos.make(m);
            assert_round_trip(&mut pos, &format!("game {seed} ply {}", ply + 1));
            positions += 1;
        }
    }
    assert!(positions > 10_000, "only {positions} positions checked");
}

#[test]
fn round_trip_tandem_positions_and_random_continuations() {
    for (name, start) in tandem_positions() {
        let mut pos = start.clone();
        assert_round_trip(&mut pos, name);
        for seed in 0..20u64 {
            let mut pos = start.clone();
            for (ply, m) in random_game(&start, seed, 30).into_iter().enumerate() {
                pos.make(m);
                assert_round_trip(&mut pos, &format!("{name}, seed {seed} ply {}", ply + 1));
            }
        }
    }
}

/// Renders `uci` in `pos` and checks the WXF and Chinese texts, then reads them back.
fn golden(pos: &mut Position, uci: &str, wxf: &str, chinese: &str) {
    let m = mv(uci);
    assert_eq!(render(pos, m, Notation::Wxf).unwrap(), wxf, "{uci} in WXF");
    assert_eq!(
        render(pos, m, Notation::Chinese).unwrap(),
        chinese,
        "{uci} in Chinese"
    );
    assert_eq!(parse(pos, wxf, Notation::Wxf), Ok(m), "{wxf}");
    assert_eq!(parse(pos, chinese, Notation::Chinese), Ok(m), "{chinese}");
}

#[test]
fn golden_opening_moves() {
    let mut pos = Position::startpos();
    assert_eq!(render(&mut pos, mv("h2e2"), Notation::Uci).unwrap(), "h2e2");
    assert_eq!(
        render(&mut pos, mv("h2e2"), Notation::Iccs).unwrap(),
        "H2-E2"
    );
    golden(&mut pos, "h2e2", "C2.5", "炮二平五");
    golden(&mut pos, "g0e2", "E3+5", "相三进五");
    golden(&mut pos, "f0e1", "A4+5", "仕四进五");
    golden(&mut pos, "c3c4", "P7+1", "兵七进一");
    golden(&mut pos, "b0c2", "H8+7", "马八进七");
    golden(&mut pos, "h2h9", "C2+7", "炮二进七");
    pos.make(mv("h2e2"));
    // Black counts files from its own right, a = 1 ... i = 9: the horse on h9 stands on
    // Black's file 8 and H8+7 / 马８进７ is h9g7. The horse on b9 (file 2) going to c7 is
    // H2+3 / 马２进３.
    golden(&mut pos, "h9g7", "H8+7", "马８进７");
    golden(&mut pos, "b9c7", "H2+3", "马２进３");
    golden(&mut pos, "c9e7", "E3+5", "象３进５");
    golden(&mut pos, "g6g5", "P7+1", "卒７进１");
    golden(&mut pos, "e9e8", "K5+1", "将５进１");
    pos.make(mv("h9g7"));
    pos.make(mv("b0c2"));
    golden(&mut pos, "i9h9", "R9.8", "车９平８");
    pos.make(mv("i9h9"));
    golden(&mut pos, "a0b0", "R9.8", "车九平八");
    golden(&mut pos, "e2e6", "C5+4", "炮五进四");
    pos.make(mv("c3c4"));
    golden(&mut pos, "b7b3", "C2+4", "炮２进４");
    pos.make(mv("b7b3"));
    golden(&mut pos, "e2e1", "C5-1", "炮五退一");
}

#[test]
fn golden_doubled_pieces() {
    // Red chariots h6/h3 and cannons b5/b3; front = farther forward (higher rank for Red).
    let mut pos = common::doubled_red();
    golden(&mut pos, "h6g6", "R+.3", "前车平三");
    golden(&mut pos, "h6d6", "R+.6", "前车平六");
    golden(&mut pos, "h3g3", "R-.3", "后车平三");
    golden(&mut pos, "h3h0", "R--3", "后车退三");
    golden(&mut pos, "b3b2", "C--1", "后炮退一");
    golden(&mut pos, "b3b1", "C--2", "后炮退二");
    golden(&mut pos, "b5b6", "C++1", "前炮进一");
    golden(&mut pos, "d5e7", "H++5", "前马进五");
    golden(&mut pos, "d2e4", "H-+5", "后马进五");
    // Black: front = lower rank. Chariots c8/c5, cannons h7/h4, soldiers g4/g3/g2.
    let mut pos = common::black_tandems();
    golden(&mut pos, "c5d5", "R+.4", "前车平４");
    golden(&mut pos, "c8c9", "R--1", "后车退１");
    golden(&mut pos, "h7h9", "C--2", "后炮退２");
    golden(&mut pos, "h4h3", "C++1", "前炮进１");
    golden(&mut pos, "g2f2", "P+.6", "前卒平６");
    golden(&mut pos, "g3f3", "P7.6", "中卒平６");
    golden(&mut pos, "g4f4", "P-.6", "后卒平６");
    golden(&mut pos, "g2g1", "P++1", "前卒进１");
}

#[test]
fn golden_three_soldiers_on_a_file() {
    let mut pos = common::three_soldiers_red();
    golden(&mut pos, "g7f7", "P+.4", "前兵平四");
    golden(&mut pos, "g6f6", "P3.4", "中兵平四");
    golden(&mut pos, "g5f5", "P-.4", "后兵平四");
    golden(&mut pos, "g7g8", "P++1", "前兵进一");
    golden(&mut pos, "a3a4", "P9+1", "兵九进一");
}

#[test]
fn golden_soldiers_doubled_on_two_files() {
    // Three on Red's file 3 (g) and two on file 7 (c): the file digit comes first.
    let mut pos = common::two_files_red();
    golden(&mut pos, "g7f7", "3+.4", "前兵三平四");
    golden(&mut pos, "g6f6", "33.4", "中兵三平四");
    golden(&mut pos, "g5f5", "3-.4", "后兵三平四");
    golden(&mut pos, "c6d6", "7+.6", "前兵七平六");
    golden(&mut pos, "c5d5", "7-.6", "后兵七平六");
    golden(&mut pos, "c6c7", "7++1", "前兵七进一");
    // Two on file 9 (a) and two on file 5 (e): 前兵九平八.
    let mut pos = common::two_files_2_2_red();
    golden(&mut pos, "a6b6", "9+.8", "前兵九平八");
    golden(&mut pos, "a5b5", "9-.8", "后兵九平八");
    golden(&mut pos, "e6f6", "5+.4", "前兵五平四");
    // Black: a4/a3 on Black's file 1, i4/i2 on file 9; front = lower rank.
    let mut pos = common::two_files_black();
    golden(&mut pos, "a3b3", "1+.2", "前卒１平２");
    golden(&mut pos, "a4b4", "1-.2", "后卒１平２");
    golden(&mut pos, "i2i1", "9++1", "前卒９进１");
}

#[test]
fn golden_four_and_five_soldiers_on_a_file() {
    let mut pos = common::four_soldiers_red();
    golden(&mut pos, "g8f8", "++.4", "一兵平四");
    golden(&mut pos, "g7f7", "P+.4", "二兵平四");
    golden(&mut pos, "g6f6", "P-.4", "三兵平四");
    golden(&mut pos, "g5f5", "--.4", "四兵平四");
    golden(&mut pos, "a3a4", "P9+1", "兵九进一");
    let mut pos = common::five_soldiers_red();
    golden(&mut pos, "g9f9", "++.4", "一兵平四");
    golden(&mut pos, "g8f8", "P+.4", "二兵平四");
    golden(&mut pos, "g7f7", "P3.4", "三兵平四");
    golden(&mut pos, "g6f6", "P-.4", "四兵平四");
    golden(&mut pos, "g5f5", "--.4", "五兵平四");
    let mut pos = common::four_soldiers_black();
    golden(&mut pos, "e1d1", "++.4", "一卒平４");
    golden(&mut pos, "e4f4", "--.6", "四卒平６");
}

#[test]
fn advisors_and_elephants_on_one_file_carry_no_marker() {
    let mut pos = common::advisors_elephants();
    golden(&mut pos, "d0e1", "A6+5", "仕六进五");
    golden(&mut pos, "d2e1", "A6-5", "仕六退五");
    golden(&mut pos, "c0e2", "E7+5", "相七进五");
    golden(&mut pos, "c4e2", "E7-5", "相七退五");
    golden(&mut pos, "c4a2", "E7-9", "相七退九");
}

#[test]
fn parse_accepts_common_variants() {
    let mut pos = Position::startpos();
    let h2e2 = mv("h2e2");
    for (text, notation) in [
        ("h2-e2", Notation::Iccs),
        (" H2-E2 ", Notation::Iccs),
        ("c2.5", Notation::Wxf),
        ("C2=5", Notation::Wxf),
        ("砲二平五", Notation::Chinese),
        ("炮2平5", Notation::Chinese),
        ("炮２平５", Notation::Chinese),
        ("炮 二 平 五", Notation::Chinese),
    ] {
        assert_eq!(parse(&mut pos, text, notation), Ok(h2e2), "{text}");
    }
    assert_eq!(parse(&mut pos, "N8+7", Notation::Wxf), Ok(mv("b0c2")));
    assert_eq!(parse(&mut pos, "B3+5", Notation::Wxf), Ok(mv("g0e2")));
    assert_eq!(
        parse(&mut pos, "馬八進七", Notation::Chinese),
        Ok(mv("b0c2"))
    );
    assert_eq!(
        parse(&mut pos, "俥一進一", Notation::Chinese),
        Ok(mv("i0i1"))
    );
    assert_eq!(
        parse(&mut pos, "帥五進一", Notation::Chinese),
        Ok(mv("e0e1"))
    );
    assert_eq!(
        parse(&mut pos, "象三进五", Notation::Chinese),
        Ok(mv("g0e2"))
    );
    assert_eq!(
        parse(&mut pos, "士四进五", Notation::Chinese),
        Ok(mv("f0e1"))
    );
    pos.make(h2e2);
    for text in ["马8进7", "馬８進７", "马八进七", "傌8進7"] {
        assert_eq!(
            parse(&mut pos, text, Notation::Chinese),
            Ok(mv("h9g7")),
            "{text}"
        );
    }
    assert_eq!(parse(&mut pos, "將5進1", Notation::Chinese), Ok(mv("e9e8")));
    assert_eq!(parse(&mut pos, "卒7進1", Notation::Chinese), Ok(mv("g6g5")));
    // 後 for 后; a Black soldier written with a Red character.
    let mut pos = common::black_tandems();
    assert_eq!(
        parse(&mut pos, "後炮退2", Notation::Chinese),
        Ok(mv("h7h9"))
    );
    assert_eq!(
        parse(&mut pos, "前兵平6", Notation::Chinese),
        Ok(mv("g2f2"))
    );
}

#[test]
fn parse_reads_a_loose_form_only_when_it_fits_one_move() {
    let mut pos = common::doubled_red();
    // A file digit where the front/rear marker was due: unique when only one piece fits.
    assert_eq!(parse(&mut pos, "R2-3", Notation::Wxf), Ok(mv("h3h0")));
    assert_eq!(
        parse(&mut pos, "车二退三", Notation::Chinese),
        Ok(mv("h3h0"))
    );
    // Both chariots on file 2 can go sideways to file 3.
    let err = parse(&mut pos, "R2.3", Notation::Wxf).unwrap_err();
    match &err {
        NotationError::Ambiguous {
            text, candidates, ..
        } => {
            assert_eq!(text, "R2.3");
            assert!(candidates.contains("h6g6") && candidates.contains("h3g3"));
        }
        other => panic!("expected ambiguity, got {other:?}"),
    }
    assert!(err.to_string().contains("'R2.3'"), "{err}");
    assert!(matches!(
        parse(&mut pos, "车二平三", Notation::Chinese),
        Err(NotationError::Ambiguous { .. })
    ));
    // Soldiers doubled on two files: a bare front marker fits the front soldier of each file.
    let mut pos = common::two_files_2_2_red();
    assert!(matches!(
        parse(&mut pos, "P++1", Notation::Wxf),
        Err(NotationError::Ambiguous { .. })
    ));
    assert_eq!(parse(&mut pos, "P+.4", Notation::Wxf), Ok(mv("e6f6")));
    assert_eq!(parse(&mut pos, "P+.8", Notation::Wxf), Ok(mv("a6b6")));
}

#[test]
fn parse_errors_name_the_text() {
    let mut pos = Position::startpos();
    let cases: [(&str, Notation); 12] = [
        ("C2.6x", Notation::Wxf),
        ("X2.5", Notation::Wxf),
        ("C2*5", Notation::Wxf),
        ("C2.0", Notation::Wxf),
        ("H2E2", Notation::Iccs),
        ("J2-E2", Notation::Iccs),
        ("h2e", Notation::Uci),
        ("炮平五", Notation::Chinese),
        ("炮二走五", Notation::Chinese),
        ("炮二平", Notation::Chinese),
        ("龙二平五", Notation::Chinese),
        ("炮二平五五", Notation::Chinese),
    ];
    for (text, notation) in cases {
        let err = parse(&mut pos, text, notation).unwrap_err();
        assert!(
            matches!(err, NotationError::Syntax { .. }),
            "{text}: {err:?}"
        );
        assert!(err.to_string().contains(text), "{err}");
    }
    for (text, notation) in [
        ("h2e3", Notation::Uci),
        ("H2-E3", Notation::Iccs),
        ("C2+8", Notation::Wxf),
        ("R1.2", Notation::Wxf),
        ("R+.2", Notation::Wxf),
        ("车一平二", Notation::Chinese),
        ("前车平二", Notation::Chinese),
    ] {
        let err = parse(&mut pos, text, notation).unwrap_err();
        assert!(
            matches!(err, NotationError::NoSuchMove { .. }),
            "{text}: {err:?}"
        );
        assert!(err.to_string().contains(text), "{err}");
    }
    assert_eq!(
        parse_any(&mut pos, "hello"),
        Err(NotationError::Unrecognised {
            text: "hello".into()
        })
    );
    assert!(matches!(
        parse_any(&mut pos, "C2+8"),
        Err(NotationError::NoSuchMove {
            notation: Notation::Wxf,
            ..
        })
    ));
    // Nothing panics on arbitrary text.
    for text in [
        "",
        " ",
        "+",
        "++.+",
        "33.4",
        "9-.0",
        "前",
        "一兵",
        "中兵平",
        "兵十平五",
        "\u{0}",
    ] {
        for notation in Notation::ALL {
            assert!(
                parse(&mut pos, text, notation).is_err(),
                "{text} {notation}"
            );
        }
        assert!(parse_any(&mut pos, text).is_err());
    }
}

#[test]
fn render_rejects_an_illegal_move() {
    let mut pos = Position::startpos();
    for notation in Notation::ALL {
        let err = render(&mut pos, mv("h2e3"), notation).unwrap_err();
        assert!(matches!(err, NotationError::IllegalMove { .. }));
        assert!(err.to_string().contains("h2e3"), "{err}");
        // A move of the side not to move.
        assert!(render(&mut pos, mv("h7e7"), notation).is_err());
    }
}

#[test]
fn notation_names() {
    for n in Notation::ALL {
        assert_eq!(n.to_string().parse::<Notation>(), Ok(n));
    }
    assert_eq!("WXF".parse::<Notation>(), Ok(Notation::Wxf));
    assert_eq!("Chinese".parse::<Notation>(), Ok(Notation::Chinese));
    assert_eq!(Notation::Iccs.to_string(), "iccs");
    let err = "san".parse::<Notation>().unwrap_err();
    assert!(err.to_string().contains("'san'"), "{err}");
}

/// How many of `color`'s `kind` stand on each file that holds two or more, largest first.
fn stacks(pos: &Position, color: Color, kind: PieceKind) -> Vec<usize> {
    let mut per_file = [0usize; 9];
    for (i, &p) in pos.board().iter().enumerate() {
        if p == Piece::new(color, kind) {
            per_file[i % 9] += 1;
        }
    }
    let mut out: Vec<usize> = per_file.into_iter().filter(|&n| n > 1).collect();
    out.sort_unstable_by(|a, b| b.cmp(a));
    out
}

#[test]
fn tandem_positions_are_what_they_claim() {
    // Guard against a helper FEN silently changing: each helper's position has the doubled
    // pieces and the side to move its name gives, which the golden tests rely on.
    use PieceKind::{Advisor, Cannon, Chariot, Elephant, Horse, Soldier};
    let (red, black) = (Color::Red, Color::Black);
    let positions = tandem_positions();
    assert_eq!(positions.len(), 10);
    for (name, pos) in &positions {
        let side = if name.ends_with("(Black)") {
            black
        } else {
            red
        };
        let stacks_of = |kind| stacks(pos, side, kind);
        match *name {
            "doubled chariots, cannons, horses (Red)" => {
                for kind in [Chariot, Cannon, Horse] {
                    assert_eq!(stacks_of(kind), [2], "{name}: {kind:?}");
                }
            }
            "three soldiers on a file (Red)" => assert_eq!(stacks_of(Soldier), [3], "{name}"),
            "soldiers on two files, 3 + 2 (Red)" => {
                assert_eq!(stacks_of(Soldier), [3, 2], "{name}")
            }
            "soldiers on two files, 2 + 2 (Red)" | "soldiers on two files, 2 + 2 (Black)" => {
                assert_eq!(stacks_of(Soldier), [2, 2], "{name}")
            }
            "four soldiers on a file (Red)" | "four soldiers on a file (Black)" => {
                assert_eq!(stacks_of(Soldier), [4], "{name}")
            }
            "five soldiers on a file (Red)" => assert_eq!(stacks_of(Soldier), [5], "{name}"),
            "doubled chariots, cannons, three soldiers (Black)" => {
                assert_eq!(stacks_of(Chariot), [2], "{name}");
                assert_eq!(stacks_of(Cannon), [2], "{name}");
                assert_eq!(stacks_of(Soldier), [3], "{name}");
            }
            "advisors and elephants sharing files" => {
                for kind in [Advisor, Elephant] {
                    assert!(
                        !stacks(pos, red, kind).is_empty() || !stacks(pos, black, kind).is_empty(),
                        "{name}: no {kind:?}s share a file"
                    );
                }
                continue;
            }
            other => panic!("a tandem position this test does not know: {other}"),
        }
        assert_eq!(pos.side_to_move(), side, "{name}: side to move");
    }
}

#[test]
fn parsing_random_text_never_panics() {
    use rand::{Rng, SeedableRng};
    let alphabet: Vec<char> =
        "KAEHRCPBNkrp0123456789+-.= 前中后後一二三四五六七八九１２３９炮兵卒车将帅进退平é\u{0}"
            .chars()
            .collect();
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
    let mut positions: Vec<Position> = tandem_positions().into_iter().map(|(_, p)| p).collect();
    positions.push(Position::startpos());
    for i in 0..20_000 {
        let len = rng.gen_range(0..7);
        let text: String = (0..len)
            .map(|_| alphabet[rng.gen_range(0..alphabet.len())])
            .collect();
        let pos = &mut positions[i % 11];
        for notation in Notation::ALL {
            if let Ok(m) = parse(pos, &text, notation) {
                assert!(pos.is_legal(m), "'{text}' gave illegal {m}");
            }
        }
        let _ = parse_any(pos, &text);
    }
}
