//! The network transport: automerge-repo's sync protocol over WebSocket, through samod.
//!
//! A campaign is many automerge-repo documents (see [`crate::layout`]): its index and its
//! volumes, each with an id derived from a secret of the campaign's key and the volume's name
//! ([`Places`]), so every device of the campaign meets on the same documents without being
//! told their ids, and a hub, or anyone who learns the campaign's id, cannot work them out.
//! A sync ([`sync_with`]) dials a hub and syncs the index; the counts it lists against this
//! ledger's say which volumes either side lacks, and only those are synced (all at once, over
//! the one connection); then this ledger's counts go into the index. What came in is imported
//! event by event ([`Acceptance::EachEvent`]: a hub is open by design, so an event that does
//! not check out is refused and reported, and the rest still land). The hub is either a
//! standard automerge-repo sync server or a device running [`serve`], which imports into its
//! own ledger what its peers send and offers its peers what its ledger gains.
//!
//! The sync state of each document is fresh on each connection, not kept per peer: a
//! document is bounded (a volume) or small (the index), so the protocol's first message (a
//! Bloom filter over the document's changes) is small too, and which documents to sync at
//! all is decided by the index's counts, which is what per-peer state would have saved.
//!
//! The file transport never depends on this module: both sit behind [`crate::Transport`].

mod dial;
mod engine;
mod exchange;
mod hub;
mod line;
mod places;
mod socket;

pub use exchange::push;
pub use hub::{interrupted, kept_documents, relay, serve, serve_with, HeldDocument, HubReport};
pub use line::{sync_with, watch, NetSynced, HEARTBEAT, MOVES};
pub use places::Places;
pub use samod::DocumentId;
#[allow(unused_imports)]
use {dial::*, engine::*, exchange::*, hub::*, line::*, places::*, socket::*};
