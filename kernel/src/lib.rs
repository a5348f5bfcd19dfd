//! Leechbook's kernel: what every rules system and the ledger itself speak in, and nothing
//! of any one system: ids, campaign time, dice with the faces they showed (and the source
//! that hands recorded faces back, so that replaying the log never rolls again), the d100
//! test, the envelope with the fold's total order, the roster of devices, and the rulings
//! in force over a log.
//!
//! **Architecture invariant:** this crate depends on no rules system and no system's type
//! appears in it (its docs may say where a rule comes from, as the d100 test's do); it is
//! pure (no I/O, no clock, no random source: faces, times and ids arrive as values). A rules
//! system's crate or module builds on it, never the other way.

#![warn(missing_docs)]
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

pub mod dice;
pub mod envelope;
pub mod ids;
pub mod roster;
pub mod ruling;
pub mod test_roll;
pub mod time;
