//! Why a store operation failed ([`StoreError`]), in words that name the ledger's file.

use crate::codec::CodecError;
use leechbook_core::ids::{CampaignId, DeviceId, EventId};
use std::path::{Path, PathBuf};

/// What went wrong with the ledger file or a query.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// No file at the path.
    #[error("no ledger at {0}")]
    NotFound(PathBuf),
    /// A write to a ledger the file system would only let us read.
    #[error("{0} is read-only (the file or its directory): it can be read, not written")]
    ReadOnly(String),
    /// A file that is not a Leechbook ledger.
    #[error("{path} is not a Leechbook ledger ({why})")]
    NotALedger {
        /// The file.
        path: PathBuf,
        /// What it is instead.
        why: String,
    },
    /// A ledger written by a newer Leechbook.
    #[error("{path} was written by a newer Leechbook (schema {found}; this one knows up to {known}): upgrade Leechbook to open it")]
    TooNew {
        /// The file.
        path: PathBuf,
        /// Its schema version.
        found: i64,
        /// This build's.
        known: i64,
    },
    /// `init` on a path that exists.
    #[error("{0} already exists; choose another path or remove it first")]
    AlreadyExists(PathBuf),
    /// A stored event that does not decode.
    #[error("event {id} does not decode: {source}")]
    Decode {
        /// The event.
        id: String,
        /// Why.
        source: CodecError,
    },
    /// An event from another campaign.
    #[error("event {id} belongs to campaign {campaign}, not this ledger's")]
    ForeignEvent {
        /// The event.
        id: EventId,
        /// Its campaign.
        campaign: CampaignId,
    },
    /// Two different events under one device's sequence number: two ledgers share that
    /// device's identity (a copied ledger file).
    #[error("device {device} numbers both event {held} and event {incoming} #{seq}: two ledgers share its identity (a copied ledger file)")]
    SeqClash {
        /// The device.
        device: DeviceId,
        /// The number both use.
        seq: u64,
        /// The event the log holds.
        held: EventId,
        /// The event that came in.
        incoming: EventId,
    },
    /// The ledger file cannot be opened or created (the file system's cause, in words).
    #[error("cannot open {path}: {why}")]
    CannotOpen {
        /// The file, as given (shortened when it is very long).
        path: String,
        /// Why.
        why: String,
    },
    /// The file system refused a read or a write of the ledger (a full disk, a read-only
    /// file): nothing half-written is kept, as the transaction is not committed.
    #[error("the ledger file could not be {0}")]
    FileSystem(String),
    /// The database said no (its own words: the store's types name no database type).
    #[error("database error: {0}")]
    Database(String),
    /// A column held the wrong type.
    #[error("a stored event has a malformed column: {0}")]
    Column(String),
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        use rusqlite::ErrorCode as C;
        match e.sqlite_error_code() {
            Some(C::DiskFull) => StoreError::FileSystem("written: the disk is full".into()),
            Some(C::ReadOnly) => {
                StoreError::FileSystem("written: the file or its directory is read-only".into())
            }
            Some(C::SystemIoFailure) => StoreError::FileSystem(
                "read or written: the disk refused (full, removed or failing)".into(),
            ),
            Some(C::PermissionDenied) => {
                StoreError::FileSystem("read or written: permission denied".into())
            }
            _ => StoreError::Database(e.to_string()),
        }
    }
}

/// A path as a message shows it: whole, or its ends when it runs past 200 characters.
pub(crate) fn shown(path: &Path) -> String {
    let s = path.display().to_string();
    let n = s.chars().count();
    if n <= 200 {
        return s;
    }
    let head: String = s.chars().take(60).collect();
    let tail: String = s.chars().skip(n - 40).collect();
    format!("{head}...{tail} ({n} characters)")
}

/// Why `path` cannot be opened or created, as far as the file system tells.
pub(crate) fn cannot_open(path: &Path, e: &rusqlite::Error) -> StoreError {
    let long = path
        .components()
        .map(|c| c.as_os_str().len())
        .max()
        .unwrap_or(0);
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
    let why = if long > 255 {
        format!("its name is too long ({long} bytes in one part; file systems allow 255)")
    } else if path.is_dir() {
        "it is a directory".to_string()
    } else if parent.is_some_and(|p| !p.is_dir()) {
        format!(
            "its directory {} does not exist",
            shown(parent.unwrap_or(path))
        )
    } else {
        match StoreError::from(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(e.sqlite_error().map_or(1, |f| f.extended_code)),
            None,
        )) {
            StoreError::FileSystem(w) => w,
            _ => format!(
                "the file system would not open or create it: its directory may be read-only, full or not ours ({e})"
            ),
        }
    };
    StoreError::CannotOpen {
        path: shown(path),
        why,
    }
}

impl From<rusqlite::types::FromSqlError> for StoreError {
    fn from(e: rusqlite::types::FromSqlError) -> StoreError {
        StoreError::Column(e.to_string())
    }
}

/// A prepared envelope signed again ([`crate::codec::sign_again`]), or why not: it holds no
/// chained signature, so this log did not prepare it.
pub(crate) fn signed_again(env: &leechbook_core::Envelope, signed: bool) -> Result<(), StoreError> {
    if signed {
        Ok(())
    } else {
        Err(StoreError::Database(format!(
            "event {} holds no chained signature to sign again",
            env.id
        )))
    }
}
