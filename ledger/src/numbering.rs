//! A device's numbering as `verify` checks it: its numbers 1, 2, 3, ... without a gap or a
//! number used twice, its clocks rising with them, and each chained event following its
//! previous number.

use leechbook_core::ids::{DeviceId, EventId};
use leechbook_core::Envelope;
use std::collections::BTreeMap;

/// Each device numbers its events 1, 2, 3, ...: a gap (a deleted row) or a number used twice
/// (two ledgers sharing one identity) is a problem, named with the event after it; and its
/// clocks rise with its numbers, so an event whose clock is not above its previous number's
/// was dated back (a revoked device dodging its revocation); and a chained event follows its
/// previous number (its signed link is that event's), so a replaced event, or a copied
/// ledger's other branch, breaks the chain where it stands.
pub(crate) fn sequence_problems(events: &[Envelope]) -> Vec<String> {
    // One device's events (the stream hands over only the devices it found irregular).
    let mut by_device: BTreeMap<DeviceId, Vec<&Envelope>> = BTreeMap::new();
    for e in events {
        by_device.entry(e.device).or_default().push(e);
    }
    let mut out = Vec::new();
    for (device, mut seqs) in by_device {
        seqs.sort_unstable_by_key(|e| e.seq);
        let (mut next, mut prev) = (1u64, None::<(EventId, u64)>);
        let mut before: Option<&Envelope> = None;
        for e in seqs {
            let (seq, id, clock) = (e.seq, e.id, e.clock);
            let after_previous = before.filter(|b| b.seq + 1 == seq);
            if (seq == 1 || after_previous.is_some())
                && leechbook_store::codec::follows(after_previous, e) == Some(false)
            {
                out.push(format!(
                    "event {id}: device {}'s #{seq} does not follow its #{} ({}): its signed chain names another event (a replaced event, or a copied ledger's other branch)",
                    device.short(),
                    seq.saturating_sub(1),
                    after_previous.map_or("none".to_string(), |b| b.id.to_string())
                ));
            }
            before = Some(e);
            if seq < next {
                out.push(format!(
                    "event {id}: device {} numbers it #{seq}, as it numbered event {}",
                    device.short(),
                    prev.map(|p| p.0.to_string()).unwrap_or_default()
                ));
            } else if seq > next {
                out.push(format!(
                    "device {}: its events #{next}-#{} are missing, before event {id} (#{seq}): deleted rows?",
                    device.short(),
                    seq - 1
                ));
            } else if let Some((_, c)) = prev.filter(|(_, c)| *c >= clock) {
                out.push(format!(
                    "event {id}: device {}'s #{seq} has clock {clock}, not above its #{}'s clock {c}: dated back",
                    device.short(),
                    seq - 1
                ));
            }
            next = next.max(seq + 1);
            prev = Some((id, clock));
        }
    }
    out
}
