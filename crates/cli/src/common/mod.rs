//! What several commands share and no command owns: the shared flag groups ([`flags`]), the
//! resolver of the play flags ([`setup`]), input of either game ([`game_input`]), external
//! engine files ([`external`]), the UCI sessions' input loop ([`uci`]) and the printing of a
//! run's results ([`report`], also used by `merge`). A command module uses these and never
//! another command's module.

pub mod external;
pub mod flags;
pub mod game_input;
pub mod report;
pub mod setup;
pub mod uci;
