//! A rough material scale, shared by the greedy player (what a capture gains) and the opening
//! generator (which keeps only materially balanced openings).

use chuhan_engine::{Color, PieceKind, Position};

/// Material value of a piece kind, in centipawns (a rough scale, not the engine's evaluation).
pub fn piece_value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::General => 10_000,
        PieceKind::Chariot => 900,
        PieceKind::Cannon => 450,
        PieceKind::Horse => 400,
        PieceKind::Advisor | PieceKind::Elephant => 200,
        PieceKind::Soldier => 100,
    }
}

/// The material of one side minus the other's, from Red's point of view (generals excluded).
pub fn material_balance(pos: &Position) -> i32 {
    PieceKind::ALL
        .iter()
        .filter(|&&k| k != PieceKind::General)
        .map(|&k| {
            piece_value(k) * (pos.count(Color::Red, k) as i32 - pos.count(Color::Black, k) as i32)
        })
        .sum()
}
