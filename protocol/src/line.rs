//! What every line protocol's parser can find wrong with a line: shared by UGI+ and
//! the Phantom Go platform protocol (which adds its own cases).

use thiserror::Error;

/// What is wrong with a line that is not a command.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LineError {
    /// Nothing on the line.
    #[error("empty line")]
    Empty,
    /// A command word we do not know.
    #[error("unknown command '{0}'")]
    Unknown(String),
    /// A required argument is missing.
    #[error("'{command}' needs {what}")]
    Missing {
        /// The command.
        command: &'static str,
        /// What is missing.
        what: &'static str,
    },
    /// An argument with a bad value.
    #[error("'{command}': bad value '{token}' for {what}")]
    BadValue {
        /// The command.
        command: &'static str,
        /// The offending token.
        token: String,
        /// What it should have been.
        what: &'static str,
    },
    /// An argument the command does not take.
    #[error("'{command}': unexpected '{token}'")]
    Unexpected {
        /// The command.
        command: &'static str,
        /// The offending token.
        token: String,
    },
}
