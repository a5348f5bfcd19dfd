//! Sync: the one place that knows automerge. A campaign's events travel in automerge
//! documents: each device's events in volumes of 4,096 numbers, and a small index of counts
//! per volume (see [`layout`]); each event once, under its id, sealed under the campaign's
//! key ([`crypt`]), so that merging is commutative, associative and idempotent and a hub
//! reads nothing. The local SQLite log stays the source of truth for the fold; the documents
//! are a cache in the store's sync state, rebuilt from the log when lost.
//!
//! Transports sit behind [`Transport`]; the file transport is here, the network in [`net`].
//! A file to a known peer carries the volumes that gained events since the last file to it,
//! as the changes since what it was sent; if it never imported that file, its import of the
//! next one is refused (the changes build on ones it lacks) and a full export catches it up.
//! An import is refused whole when the data does not load, belongs to another campaign, holds
//! an entry that does not open or decode, or holds a new event that the roster does not
//! vouch for (unrostered device, bad signature).

#![warn(missing_docs)]
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

pub mod bound;
pub mod crypt;
pub mod entry;
pub mod heads;
pub mod keys;
pub mod layout;
pub mod mirror;
pub mod names;
pub mod net;
pub mod order;
pub mod sealing;
pub mod signed;
pub mod take;

pub use crypt::{Keyring, Rotation};
pub use entry::{Entry, Undecoded};
pub use keys::{adopt_code, invite, join_code, rotate_key};
pub use mirror::{export, Exported, FileTransport, Mirror, MAX_DOCUMENT};
pub use take::{
    document_problems, import, import_bytes, import_changes, rescan, signature_problem, Acceptance,
    Imported,
};

use leechbook_store::StoreError;

/// What every refusal or problem that a copied ledger file causes names as its cause: a
/// front end adds how to part the copies.
pub const COPIED_LEDGER: &str = "(a copied ledger file)";

/// What a problem names when no entry opens under this device's key: a front end adds how
/// to take the campaign's keys again.
pub const WRONG_KEY: &str = "the key is wrong";

/// What went wrong in a sync.
#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    /// The sync data does not load as an automerge document or changes.
    #[error("the sync data is not a Leechbook sync file ({0})")]
    NotSync(String),
    /// An event in it does not decode.
    #[error("the sync data holds an event that does not decode: {0}")]
    BadEvent(String),
    /// An event of another campaign.
    #[error("the sync data belongs to another campaign")]
    ForeignCampaign,
    /// The store said no.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// An event whose signature does not check out, or whose device is not on the roster.
    #[error("the sync data holds {0}")]
    Unsigned(String),
    /// Changes that build on changes this ledger does not hold.
    #[error("the sync data builds on changes this ledger does not hold (an earlier sync file was never imported here): it needs a full export")]
    MissingChanges,
    /// The network transport failed (no hub there, the hub went away, a timeout).
    #[error("network sync: {0}")]
    Network(String),
    /// The hub holds nothing of the campaign under this device's keys (at this generation of
    /// document ids).
    #[error("network sync: {0}")]
    Absent(String),
    /// A hub holds or sends a campaign document no Leechbook device writes (its operator, or
    /// a peer on it, squatted it): a one-shot sync moves to a fresh generation of ids.
    #[error("network sync: {0}")]
    Poisoned(String),
    /// Reading or writing a sync file.
    #[error("sync file: {0}")]
    Io(#[from] std::io::Error),
    /// A join code or join file that does not serve this ledger.
    #[error("{0}")]
    Key(String),
    /// This device holds no key to the campaign.
    #[error("this device holds no key to the campaign's sync data: ask the GM for a join code")]
    NoKey,
    /// Text given as a join code that is not one (the prefix a code starts with).
    #[error("that is not a join code")]
    NotAJoinCode(&'static str),
    /// A join code whose check digits do not match the rest.
    #[error("the join code has a typo: its check digits do not match the rest")]
    CodeTypo,
    /// The campaign keys a ledger keeps do not read.
    #[error("the ledger's campaign keys do not read (damaged?)")]
    KeysUnreadable,
    /// An entry that does not open under the campaign's keys (refused whole from a file).
    #[error("the sync data holds {0}")]
    Sealed(String),
}

/// A way to carry changes between devices.
pub trait Transport {
    /// Sends the changes this side has.
    fn send(&mut self, bytes: &[u8]) -> Result<(), SyncError>;
    /// Receives the changes the other side sent, if any.
    fn receive(&mut self) -> Result<Option<Vec<u8>>, SyncError>;
}
