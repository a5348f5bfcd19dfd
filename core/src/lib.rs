//! Leechbook's core: the list of the rules systems this build knows (HârnMaster, Savage
//! Worlds, Wrath & Glory, Witch Iron, each its own crate under `systems/`, re-exported here
//! at the paths they always had), this campaign's events, and [`AllSystems`], the one place
//! the systems are listed together for the kernel's fold (`leechbook_kernel::fold`, which
//! [`Ledger`] is over `AllSystems`). The kernel's dice, ids, time and d100 test are
//! re-exported at the paths they always had.
//!
//! **Architecture invariant:** this crate is pure. It does no I/O, never reads a clock or a
//! random source, and knows nothing of SQL, automerge or terminals: dice faces, times and ids
//! arrive as values. The same events always fold to the same state.

#![warn(missing_docs)]
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

pub mod applied;
pub mod archive;
pub mod dispute;
pub mod event;
pub mod fold;
pub mod list;
pub mod owed;
pub mod roster;
pub mod ruling;
pub mod synthetic;
pub mod system;
pub mod systems;

/// The rules systems, each its own crate.
pub use leechbook_harnmaster as harnmaster;
pub use leechbook_savage as savage;
pub use leechbook_witch as witch;
pub use leechbook_wrath as wrath;

/// The kernel and `uuid`, for the code [`rules_systems!`] writes in the crate that invokes it.
#[doc(hidden)]
pub use leechbook_kernel as __kernel;
#[doc(hidden)]
pub use uuid as __uuid;

/// The bounds every envelope is held to where it is decoded (the kernel's).
pub use leechbook_kernel::envelope::{clock_ceiling, OutOfBounds, MAX_CLOCK, MAX_SEQ};
/// The kernel's modules, at the paths the rules systems and the ledger have always used.
pub use leechbook_kernel::{amend, claim, dice, ids, name, standing, test_roll, time};

pub use event::{Envelope, Event, SheetKind, SystemId, SCHEMA_VERSION};
pub use fold::{Applied, CharacterState, FoldError, HmLedger, Ledger};
pub use systems::AllSystems;
