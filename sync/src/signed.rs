//! Which new events the roster vouches for: each signed by its device's key as the roster
//! of the merged log holds it (forged or tampered events fail here), the roster's own
//! changes judged in order so a GM's rostering of a device vouches for that device's events.

use leechbook_core::ids::EventId;
use leechbook_core::Envelope;
use leechbook_store::codec::signature_problem;

/// Incoming events sorted into those a ledger may take and those it must refuse (with why).
pub(crate) struct Checked {
    pub(crate) accepted: Vec<Envelope>,
    pub(crate) refused: Vec<(EventId, String)>,
}

/// Checks each new event: it must be signed by its device's key as the roster of the merged
/// log holds it (forged or tampered events fail here). `held` is the log's roster events
/// (all the roster is worked out from). The roster is worked out again without the refused
/// events until nothing more is refused, so that a forged roster event cannot vouch for a
/// forged device. Signatures are checked on two threads.
pub(crate) fn check_signatures(held: &[Envelope], mut candidates: Vec<Envelope>) -> Checked {
    let mut refused = Vec::new();
    loop {
        // The roster is worked out from the campaign's creation and the roster changes alone:
        // only those are copied (an import of 50,000 events copies a handful).
        let mut merged: Vec<Envelope> = held
            .iter()
            .chain(candidates.iter().filter(|e| {
                matches!(
                    e.event,
                    leechbook_core::Event::CampaignCreated { .. }
                        | leechbook_core::Event::Roster(_)
                )
            }))
            .cloned()
            .collect();
        merged.sort_by_key(|e| e.order_key());
        let roster = leechbook_core::roster::Roster::from_log(&merged);
        if !roster.in_use() {
            break;
        }
        let before = refused.len();
        let why = |e: &Envelope| signature_problem(&roster, e);
        let half = candidates.len() / 2;
        let verdicts: Vec<Option<String>> = std::thread::scope(|s| {
            let (a, b) = candidates.split_at(half);
            let first = s.spawn(|| a.iter().map(why).collect::<Vec<_>>());
            let mut second: Vec<_> = b.iter().map(why).collect();
            let mut all = first.join().unwrap_or_else(|_| vec![None; half]);
            all.append(&mut second);
            all
        });
        let mut verdicts = verdicts.into_iter();
        candidates.retain(|e| match verdicts.next().flatten() {
            Some(r) => {
                refused.push((e.id, r));
                false
            }
            None => true,
        });
        if refused.len() == before {
            break;
        }
    }
    Checked {
        accepted: candidates,
        refused,
    }
}
