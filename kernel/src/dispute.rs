//! Disputes: events of different devices that contradict each other under the rules.
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

use crate::envelope::{Envelope, LedgerEvent};
use crate::fold::{Fate, Ledger};
use crate::ids::EventId;
use crate::system::Systems;

/// How many candidates are tried for one void event, nearest first.
pub const MAX_CANDIDATES: usize = 16;

/// Two events of different devices that the rules will not both accept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dispute {
    /// The event that stands (earlier in the total order).
    pub kept: EventId,
    /// The event the fold voided because of it.
    pub void: EventId,
    /// Why the later one is void.
    pub reason: String,
}

/// Lists the disputes of a log (in the total order).
pub fn disputes<S: Systems>(events: &[Envelope<S::Event>]) -> Vec<Dispute> {
    let mut fates: Vec<Option<String>> = Vec::with_capacity(events.len());
    let mut applied: Vec<bool> = Vec::with_capacity(events.len());
    // `derive` observes every event exactly once, in order.
    Ledger::<S>::derive(events, |_, _, fate| {
        applied.push(matches!(fate, Fate::Applied(_)));
        fates.push(match fate {
            Fate::Void(why) => Some(why.clone()),
            _ => None,
        });
    });
    let mut out = Vec::new();
    for (v, why) in fates.iter().enumerate() {
        let Some(why) = why else { continue };
        let e = &events[v];
        let candidates = (0..v)
            .rev()
            .filter(|&j| applied[j] && events[j].device != e.device)
            .filter(|&j| {
                events[j].event.is_ruling()
                    || (e.event.character().is_some()
                        && events[j].event.character() == e.event.character())
            })
            .take(MAX_CANDIDATES);
        for j in candidates {
            let without: Vec<Envelope<S::Event>> = events
                .iter()
                .enumerate()
                .filter(|&(k, _)| k != j)
                .map(|(_, env)| env.clone())
                .collect();
            let l = Ledger::<S>::fold(&without);
            let still_out = l.void.iter().any(|x| x.id == e.id)
                || l.retracted.iter().any(|(x, _, _)| *x == e.id);
            if !still_out {
                out.push(Dispute {
                    kept: events[j].id,
                    void: e.id,
                    reason: why.clone(),
                });
                break;
            }
        }
    }
    out
}
