//! The ledger's services, between the store and a front end (the CLI today): a [`Replica`]
//! opens a campaign's log, records an event atomically (the write lock, the fold it is
//! checked against, the append, the checkpoint policy), gives the state now or at any
//! [`Moment`], and what a ruling would change. A command parses its arguments, calls one
//! service and renders what it returns; nothing here knows terminals, JSON or flags, and the
//! errors are [`LedgerError`]s without command-line wording (the CLI adds the hints).
//!
//! - [`checkpoint`]: when a snapshot of the folded state is kept, which are thinned, and the
//!   fold from the latest usable one (the path every read and write takes).
//! - [`moment`]: the log as of an event, a wall time or a campaign time, with the rulings in
//!   force over it judged against the whole log.
//! - `projection`: the current state kept as a head and one entry per character, written
//!   in each append's transaction, so that a command costs what it touches.
//! - [`archive`]: the records of healed injuries that no rule reads again, kept apart from
//!   the characters' entries and read only by the views that list them.
//! - [`replica`]: the services over one ledger file.
//! - [`about`]: what an audit of one character reads: the events about it and those its
//!   story reads, never the whole log.
//! - [`audit`]: what each roll's outcome was when recorded against what it is after every
//!   ruling in force.
//! - [`lookup`]: a character by name, an injury by id, for every front end alike.
//! - [`rulings`]: the GM's rulings built from typed requests, and what one changed.
//! - [`roster`]: the GM's roster changes, checked before they are recorded (a player's
//!   device never given a GM-only character, the last GM device never revoked).
//! - [`owed`]: the typed path from a roll a character owes to the event recording it (the
//!   terminal's roll commands, the board and the players' page all go through it).

#![warn(missing_docs)]

pub mod about;
pub mod archive;
pub mod audit;
pub mod checkpoint;
pub mod claims;
mod error;
pub mod lookup;
pub mod moment;
mod numbering;
pub mod owed;
mod projection;
pub mod replica;
pub mod roster;
pub mod rulings;
pub mod verify;

pub use checkpoint::{fold_latest, full_fold, replay, snapshots_kept, SNAPSHOT_EVERY};
pub use error::LedgerError;
pub use moment::{find_event, ruling_context, Moment};
pub use replica::{Draft, Recorded, Replica, NEW_CHARACTER};
