//! Disputes (the kernel's, `leechbook_kernel::dispute`, for this campaign's events): events of different devices that contradict each other under the rules.
//!
//! Devices record offline, so two of them can record what the rules allow only once (two
//! healing rolls for one injury and period, two treatments of one injury) or record a roll
//! for an injury another device's ruling concurrently retracted. A device never records an
//! event its own fold refuses, so when the merged log voids an event because of another
//! device's event, the two were recorded concurrently: that pair is a **dispute**.
//!
//! **The default until the GM rules** is the fold's own: the event earlier in the total
//! order `(clock, device, seq)` stands and the later one is void, with the rule's reason;
//! nothing is dropped. The GM resolves a dispute with a ruling: retracting either side (the
//! void one to close the question, the kept one to let the other stand), after which the pair
//! is no longer listed.
//!
//! Finding the other side: for a void event, the candidates are the applied events of other
//! devices before it that touch the same character, and the rulings of other devices; the
//! nearest candidate whose absence lets the void event apply is its other side. This re-folds
//! the log once per candidate tried (at most [`MAX_CANDIDATES`] per void event), so it runs
//! on demand (`leechbook disputes`), never in the fold.

use crate::event::Envelope;
use crate::systems::AllSystems;
pub use leechbook_kernel::dispute::{Dispute, MAX_CANDIDATES};

/// Lists the disputes of a log (in the total order).
pub fn disputes(events: &[Envelope]) -> Vec<Dispute> {
    leechbook_kernel::dispute::disputes::<AllSystems>(events)
}
