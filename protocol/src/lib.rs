//! The text protocols `sente` speaks, as data: each module parses one line into a
//! command and formats the replies. Nothing here knows a game's rules: positions and
//! moves stay text, checked by the engine.
#![deny(missing_docs)]

pub mod gtp;
pub mod nboard;
pub mod ugi;
