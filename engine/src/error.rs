//! The engine's one error type, and the one place it becomes each protocol's error
//! reply: GTP's standard error texts (`illegal move`, `syntax error`, …), UGI+'s
//! `info string error: …` line, and plain text for the CLI and NBoard.

use protocol::gtp::errors;
use thiserror::Error;

/// Why a command could not be carried out. The engine keeps its state.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EngineError {
    /// A command or an argument that cannot be read.
    #[error("{0}")]
    Syntax(String),
    /// A move the rules forbid (or one that cannot be read as a move).
    #[error("{0}")]
    IllegalMove(String),
    /// A board size the game is not played on.
    #[error("{0}")]
    BoardSize(String),
    /// Nothing to take back.
    #[error("cannot undo: no move to take back")]
    CannotUndo,
    /// A command this engine does not know.
    #[error("unknown command '{0}'")]
    UnknownCommand(String),
    /// Anything else the engine refuses (a bad position, option or setting), with why.
    #[error("{0}")]
    Refused(String),
}

impl EngineError {
    /// The text of a GTP failure reply (after `? `): the standard texts where GTP
    /// defines one, the message otherwise.
    pub fn gtp_reply(&self) -> String {
        match self {
            EngineError::Syntax(_) => errors::SYNTAX_ERROR.to_string(),
            EngineError::IllegalMove(_) => errors::ILLEGAL_MOVE.to_string(),
            EngineError::BoardSize(_) => errors::UNACCEPTABLE_SIZE.to_string(),
            EngineError::CannotUndo => errors::CANNOT_UNDO.to_string(),
            EngineError::UnknownCommand(_) => errors::UNKNOWN_COMMAND.to_string(),
            EngineError::Refused(message) => message.clone(),
        }
    }

    /// The UGI+ line that reports the error.
    pub fn ugi_line(&self) -> String {
        format!("info string error: {self}")
    }

    /// The NBoard line that reports the error (NBoard has no error reply: a status).
    pub fn nboard_line(&self) -> String {
        format!("status error: {self}")
    }
}

impl From<String> for EngineError {
    fn from(message: String) -> EngineError {
        EngineError::Refused(message)
    }
}

impl From<&str> for EngineError {
    fn from(message: &str) -> EngineError {
        EngineError::Refused(message.to_string())
    }
}

/// The engine's result type.
pub type Result<T, E = EngineError> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_protocol_gets_its_own_words() {
        let illegal = EngineError::IllegalMove("move 2 'a1' is illegal".into());
        assert_eq!(illegal.gtp_reply(), "illegal move");
        assert_eq!(illegal.ugi_line(), "info string error: move 2 'a1' is illegal");
        assert_eq!(EngineError::BoardSize("Go boards up to 9x9".into()).gtp_reply(), "unacceptable size");
        assert_eq!(EngineError::CannotUndo.gtp_reply(), "cannot undo");
        assert_eq!(EngineError::Syntax("bad colour".into()).gtp_reply(), "syntax error");
        assert_eq!(EngineError::UnknownCommand("frob".into()).gtp_reply(), "unknown command");
        assert_eq!(EngineError::from("bad komi").gtp_reply(), "bad komi");
        assert_eq!(illegal.nboard_line(), "status error: move 2 'a1' is illegal");
    }
}
