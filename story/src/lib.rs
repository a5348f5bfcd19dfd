//! The stories told from a campaign's log, as typed values every printer (the terminal's
//! text, `--json`, the players' page) prints the same way:
//!
//! - [`history`]: a character's story, or one wound's, with its plot's samples;
//! - [`why`]: the chain of events, rules and rulings behind an injury's state;
//! - [`log`]: the record's events, narrated, with what became of each;
//! - [`diff`]: what changed about a character between two moments.
//!
//! A story reads the ledger through a [`leechbook_ledger::Replica`] and the events about its
//! subject alone (`leechbook_ledger::about`), never the whole log; it narrates with
//! `leechbook_views::narrate`. Nothing here knows terminals, flags or HTTP, and the errors
//! ([`StoryError`]) name no command.

#![warn(missing_docs)]

pub mod diff;
pub mod history;
pub mod log;
pub mod why;

use leechbook_ledger::lookup::Lookup;
use leechbook_ledger::LedgerError;

/// Why a story could not be told.
#[derive(Debug, thiserror::Error)]
pub enum StoryError {
    /// Its character or injury names nothing in the campaign.
    #[error(transparent)]
    Lookup(#[from] Lookup),
    /// The ledger could not be read.
    #[error(transparent)]
    Ledger(#[from] LedgerError),
    /// The ledger file or a query.
    #[error(transparent)]
    Store(#[from] leechbook_store::StoreError),
    /// `why NAME WHAT` names nothing the character's record ever held.
    #[error("{character} has no injury, condition or mark '{what}' on the record (now: {now})")]
    NoSuchMark {
        /// The character.
        character: String,
        /// What was asked.
        what: String,
        /// What the character holds now, in words.
        now: String,
    },
}
