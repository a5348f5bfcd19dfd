//! The CLI's one error type: every library error becomes a [`CommandError`] whose kind sets
//! the exit code and whose message is one line naming what was wrong.

use leechbook_core::fold::FoldError;
use leechbook_store::StoreError;
use std::fmt;

/// What kind of failure, which sets the exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// Bad input or a refused request (exit 1).
    User,
    /// Command-line usage (exit 2, as clap).
    Usage,
    /// A bug or an environment failure (exit 3).
    Internal,
}

impl ErrorKind {
    /// Returns the process exit code.
    pub fn exit_code(self) -> i32 {
        match self {
            ErrorKind::User => 1,
            ErrorKind::Usage => 2,
            ErrorKind::Internal => 3,
        }
    }
}

/// A failed command: its kind and a one-line message.
#[derive(Debug)]
pub struct CommandError {
    /// The kind.
    pub kind: ErrorKind,
    /// The message (one line).
    pub message: String,
}

impl CommandError {
    /// A user error.
    pub fn user(message: impl Into<String>) -> CommandError {
        CommandError {
            kind: ErrorKind::User,
            message: message.into(),
        }
    }

    /// An internal error.
    pub fn internal(message: impl Into<String>) -> CommandError {
        CommandError {
            kind: ErrorKind::Internal,
            message: message.into(),
        }
    }
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // One line, always.
        f.write_str(&self.message.replace('\n', " "))
    }
}

impl From<StoreError> for CommandError {
    fn from(e: StoreError) -> CommandError {
        if let StoreError::NotFound(_) = e {
            return CommandError::user(format!("{e} (create one with `leechbook init`)"));
        }
        let kind = match e {
            StoreError::NotFound(_)
            | StoreError::NotALedger { .. }
            | StoreError::TooNew { .. }
            | StoreError::AlreadyExists(_)
            | StoreError::ForeignEvent { .. }
            | StoreError::SeqClash { .. }
            | StoreError::CannotOpen { .. }
            | StoreError::ReadOnly(_)
            | StoreError::FileSystem(_) => ErrorKind::User,
            StoreError::Decode { .. } | StoreError::Database(_) | StoreError::Column(_) => {
                ErrorKind::Internal
            }
        };
        CommandError {
            kind,
            message: e.to_string(),
        }
    }
}

impl From<FoldError> for CommandError {
    fn from(e: FoldError) -> CommandError {
        match e {
            FoldError::HarnMaster(leechbook_core::harnmaster::system::HmError::UnknownTable(_)) => {
                CommandError::user(format!("{e} (define it with `leechbook table load FILE`)"))
            }
            FoldError::WitchIron(leechbook_core::witch::WiError::TableNotLoaded { .. }) => {
                CommandError::user(format!("{e} (leechbook wi table FILE)"))
            }
            e => CommandError::user(e.to_string()),
        }
    }
}

impl From<leechbook_ledger::LedgerError> for CommandError {
    fn from(e: leechbook_ledger::LedgerError) -> CommandError {
        use leechbook_ledger::LedgerError as L;
        match e {
            L::Store(s) => s.into(),
            L::Fold(f) => f.into(),
            L::NotAMoment(m) => CommandError::user(format!(
                "'{m}' is not a moment: give an event id, a campaign time ('day 3 08:00') or a wall time (2026-11-22T10:00:00Z)"
            )),
            L::Internal(m) => CommandError::internal(m),
            L::NotAnEventId(t) => CommandError::user(format!(
                "'{t}' is not an event id (give the id from `log --json`, or at least its last six hex digits)"
            )),
            other => CommandError::user(other.to_string()),
        }
    }
}

impl From<leechbook_sync::SyncError> for CommandError {
    fn from(e: leechbook_sync::SyncError) -> CommandError {
        match e {
            leechbook_sync::SyncError::MissingChanges => CommandError::user(format!(
                "{e} (`leechbook sync export FILE` without --to, on the other device)"
            )),
            leechbook_sync::SyncError::Store(s) => s.into(),
            e => CommandError::user(e.to_string()),
        }
    }
}

impl From<std::io::Error> for CommandError {
    fn from(e: std::io::Error) -> CommandError {
        CommandError::internal(format!("i/o error: {e}"))
    }
}

impl From<serde_json::Error> for CommandError {
    fn from(e: serde_json::Error) -> CommandError {
        CommandError::internal(format!("JSON error: {e}"))
    }
}
