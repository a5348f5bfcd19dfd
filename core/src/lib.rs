//! Leechbook's core: the four rules systems (HârnMaster, Savage Worlds, Wrath & Glory, Witch
//! Iron), each in its own module tree, this campaign's events, and [`AllSystems`], the one
//! place the systems are listed together for the kernel's fold (`leechbook_kernel::fold`,
//! which [`Ledger`] is over `AllSystems`). The kernel's dice, ids, time and d100 test are
//! re-exported at the paths they always had.
//!
//! **Architecture invariant:** this crate is pure. It does no I/O, never reads a clock or a
//! random source, and knows nothing of SQL, automerge or terminals: dice faces, times and ids
//! arrive as values. The same events always fold to the same state.

#![warn(missing_docs)]
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

pub mod applied;
pub mod dispute;
pub mod event;
pub mod fold;
pub mod harnmaster;
pub mod roster;
pub mod ruling;
pub mod savage;
pub mod synthetic;
pub mod system;
pub mod systems;
pub mod witch;
pub mod wrath;

/// The kernel's modules, at the paths the rules systems and the ledger have always used.
pub use leechbook_kernel::{dice, ids, name, test_roll, time};

pub use event::{Envelope, Event, SheetKind, SystemId, SCHEMA_VERSION};
pub use fold::{Applied, CharacterState, FoldError, HmLedger, Ledger};
pub use systems::AllSystems;
