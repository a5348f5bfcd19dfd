//! `leechbook verify`: re-folds the log from scratch, checks every snapshot and the file's
//! integrity, every signature against the roster, each device's numbering, the indexed
//! columns against the payload and the sync document against the log, and reports. Stale or
//! wrong snapshots are dropped (they are a cache).

use crate::error::CommandError;
use crate::views::JSON_SCHEMA;
use crate::Ctx;
use clap::Args;
use leechbook_core::fold::{Ledger, FOLD_VERSION};
use leechbook_core::ids::{DeviceId, EventId};
use leechbook_core::Envelope;
use leechbook_store::codec::decode_ledger;
use leechbook_store::ReadLog;
use std::collections::{BTreeMap, HashMap};

/// Verify the ledger.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs the checks.
pub fn cmd_verify(a: VerifyArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let progress =
        crate::progress::Progress::start(ctx, "verify: the file's integrity", None, a.json);
    let mut store = ctx.open()?;
    let integrity = store.integrity_check()?;
    progress.say("verify: reading and folding the log");
    // Every event must decode (a decode failure is an error naming the event).
    let events = store.events()?;
    let mut report: Vec<String> = Vec::new();
    let mut problems = integrity.len();
    for line in &integrity {
        report.push(format!("integrity: {line}"));
    }
    // Each snapshot against the fold of the events up to it (the record as it stood then),
    // and the whole log: the log folded once, in order, up to each place (a snapshot's
    // characters are read only when the fold reaches it).
    let snapshots = store.snapshots()?;
    let mut order: Vec<usize> = (0..snapshots.len()).collect();
    order.sort_by_key(|&i| snapshots[i].position);
    let mut places: Vec<usize> = order
        .iter()
        .map(|&i| (snapshots[i].position as usize).min(events.len()))
        .collect();
    places.push(events.len());
    let mut verdicts: Vec<Option<String>> = vec![None; snapshots.len()];
    let mut failed: Option<leechbook_ledger::LedgerError> = None;
    let mut full = Ledger::new();
    let mut k = 0;
    leechbook_ledger::audit::states_at(&events, &places, |n, l| {
        let Some(&i) = order.get(k) else {
            full = l.clone();
            return;
        };
        k += 1;
        let snap = &snapshots[i];
        verdicts[i] = if snap.fold_version != FOLD_VERSION {
            Some(format!(
                "made by fold version {} (now {FOLD_VERSION})",
                snap.fold_version
            ))
        } else {
            match decode_ledger(&snap.payload).map(|_| {
                leechbook_ledger::checkpoint::checkpoint_state(&store, snap.position, None)
            }) {
                Err(e) => Some(format!("does not decode ({e})")),
                Ok(Err(e)) => {
                    failed.get_or_insert(e);
                    None
                }
                Ok(Ok(None)) => Some("lacks a character's entry, or one does not decode".into()),
                Ok(Ok(Some(state))) => {
                    let at_key = events.get(n.wrapping_sub(1)).map(|e| e.order_key());
                    (at_key != Some(snap.last) || &state != l)
                        .then(|| "differs from the fold of its events".to_string())
                }
            }
        };
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    for (snap, verdict) in snapshots.iter().zip(verdicts) {
        match verdict {
            None => report.push(format!("snapshot at {}: ok", snap.position)),
            Some(why) => {
                store.drop_snapshot(snap.position)?;
                report.push(format!("snapshot at {}: {why}; dropped", snap.position));
            }
        }
    }
    progress.say("verify: the state every command starts from");
    let (_, fast) = ctx.load()?;
    if fast != full {
        problems += 1;
        report.push("the snapshot-and-tail fold differs from the full fold".into());
    }
    // What the log says of itself, each line naming the event: every signature against the
    // roster (the judgement a sync import makes), each device's numbering, the indexed
    // columns against the payload, and the sync document against the log.
    let mut found: Vec<String> = Vec::new();
    progress.say("verify: signatures, numbering, columns and the sync document");
    for (id, why) in
        leechbook_sync::signature_problems(&events, (store.device(), store.public_key()))
    {
        found.push(format!("event {id}: {why}"));
    }
    found.extend(sequence_problems(&events));
    let by_id: HashMap<EventId, &Envelope> = events.iter().map(|e| (e.id, e)).collect();
    for (id, kind, character) in store.indexed_columns()? {
        let Some(e) = by_id.get(&id) else { continue };
        if kind != e.event.kind() {
            found.push(format!(
                "event {id}: its kind column says {kind}, its payload is {}",
                e.event.kind()
            ));
        }
        if character != e.event.character() {
            found.push(format!(
                "event {id}: its character column disagrees with its payload"
            ));
        }
    }
    found.extend(
        leechbook_sync::document_problems(&store, &events)
            .map_err(|e| CommandError::user(e.to_string()))?,
    );
    problems += found.len();
    report.extend(found);
    let summary = format!(
        "{} events, {} characters, {} void, {} struck by rulings, {} amended; {}",
        events.len(),
        full.characters.len(),
        full.void.len(),
        full.retracted.len(),
        full.amended.len(),
        if problems == 0 {
            "the ledger is sound"
        } else {
            "PROBLEMS FOUND"
        }
    );
    if a.json {
        ctx.json(&serde_json::json!({
            "type": "verify",
            "schema_version": JSON_SCHEMA,
            "sound": problems == 0,
            "events": events.len(),
            "void": full.void.len(),
            "retracted": full.retracted.len(),
            "report": report,
        }))?;
    } else {
        for r in &report {
            ctx.say(r);
        }
        ctx.say(summary);
    }
    if problems > 0 {
        return Err(CommandError::user("verification found problems"));
    }
    Ok(())
}

/// Each device numbers its events 1, 2, 3, ...: a gap (a deleted row) or a number used twice
/// (two ledgers sharing one identity) is a problem, named with the event after it; and its
/// clocks rise with its numbers, so an event whose clock is not above its previous number's
/// was dated back (a revoked device dodging its revocation); and a chained event follows its
/// previous number (its signed link is that event's), so a replaced event, or a copied
/// ledger's other branch, breaks the chain where it stands.
fn sequence_problems(events: &[Envelope]) -> Vec<String> {
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
