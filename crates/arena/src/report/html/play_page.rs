//! The page on which a person plays a player (`chuhan play`, `chuhan serve`): the board of
//! report.html with clicks, talking to the server's `/api/games` endpoints.

use super::page::{esc, BOARD_JS, STYLE};
use crate::play::any::GameKind;

const PLAY_JS: &str = include_str!("play.js");

/// The play page; `player` is the opponent offered first, in the game `kind` (the page offers
/// both games).
pub fn play_page(player: &str, kind: GameKind) -> String {
    let (xq, ch) = match kind {
        GameKind::Xiangqi => (" selected", ""),
        GameKind::Chess => ("", " selected"),
    };
    format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>chuhan play</title><style>{STYLE}</style></head><body>\
         <h1>Play chuhan</h1><div><select id=\"gamekind\"><option value=\"xiangqi\"{xq}>xiangqi</option><option value=\"chess\"{ch}>chess</option></select> \
         opponent <input id=\"player\" value=\"{}\" size=\"30\"> you play \
         <select id=\"side\"><option value=\"first\">Red / White</option><option value=\"black\">Black</option></select> \
         promote to <select id=\"promo\"><option value=\"q\">queen</option><option value=\"r\">rook</option><option value=\"b\">bishop</option><option value=\"n\">knight</option></select> \
         <button id=\"new\">New game</button> <button id=\"undo\">Take back</button> \
         <label><input type=\"checkbox\" id=\"flip\"> flip</label> \
         <select id=\"notation\"><option value=\"wxf\">WXF</option><option value=\"zh\">中文</option><option value=\"uci\">UCI</option></select> \
         <a id=\"pgnlink\" href=\"#\">PGN</a></div>\
         <p id=\"status\"></p><p id=\"warn\" class=\"warn\"></p>\
         <div id=\"browser\"><svg id=\"board\" xmlns=\"http://www.w3.org/2000/svg\"></svg><div id=\"moves\"></div></div>\
         <script>{BOARD_JS}</script><script>{PLAY_JS}</script></body></html>",
        esc(player)
    )
}
