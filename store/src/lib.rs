//! Leechbook's event log in SQLite: the one place that knows SQL.
//!
//! A [`Store`] is one ledger file (or an in-memory database for tests): the append-only
//! `events` table (triggers refuse UPDATE and DELETE), a `meta` table with this device's id and
//! the campaign's, and the schema migrations of [`schema`]. Every append runs in its own
//! `BEGIN IMMEDIATE` transaction, so two processes appending at once serialise instead of
//! losing events, and a process killed mid-append leaves the log as of its last commit.
//!
//! Reading and recording go through a [`Writer`]: it holds the write lock while the caller
//! folds the log, decides the next event from that state, and appends it, so no other
//! process can slip an event in between.
//!
//! One file per job: `error` (why an operation failed), `file` (the ledger file, its
//! migrations and this device's identity), `beside` (what is kept beside the log: device
//! numbers, the sync state, the snapshots), `log` (the storage contract: [`ReadLog`],
//! [`WriteLog`], [`Transaction`], [`Log`] and the rows they hand out), `sql` (the SQL behind
//! [`ReadLog`], forwarded once for the store and both transactions), `rows` (the
//! transactions, inserting an event and decoding a row), `sqlite` (the contract as the SQLite
//! store keeps it), `links` (the players' page links), `codec` (the frozen encodings),
//! `schema` (the migrations), `memory` (the same contract in memory) and `through` (a log
//! read through a cache).

#![warn(missing_docs)]
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

mod beside;
pub mod codec;
mod error;
mod file;
mod link;
mod links;
mod log;
pub mod memory;
mod rows;
pub mod schema;
mod sealed;
mod sql;
mod sqlite;
mod through;

pub use through::ReadThrough;

pub use error::StoreError;
pub use file::Store;
pub use links::Link;
pub use log::{
    class_of, ArchiveRow, Columns, Log, Numbered, OrderKey, ReadLog, Skipped, Snapshot,
    SnapshotHead, Tail, Transaction, WriteLog, AMENDMENTS_FROM, CAMPAIGN_EVENTS, ROSTER_KINDS,
    RULING_KINDS,
};
pub use rows::{Reader, Writer};
pub use sealed::Sealed;
