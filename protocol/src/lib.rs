//! The text protocols `sente` speaks, as data: each module parses one line into a
//! command and formats the replies. Nothing here knows a game's rules: positions and
//! moves stay text, checked by the engine. The one exception is the Phantom Go
//! platform ([`phantom`]), whose two-letter points are read into `bitboards` points so
//! that their letter order is defined in one place.
#![deny(missing_docs)]

pub mod gtp;
mod line;
pub mod nboard;
pub mod phantom;
pub mod ugi;

pub use line::LineError;
