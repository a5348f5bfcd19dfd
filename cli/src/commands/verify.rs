//! `leechbook verify`: re-folds the log from scratch, checks every snapshot and the file's
//! integrity, and reports. Stale or wrong snapshots are dropped (they are a cache).

use crate::error::CommandError;
use crate::views::JSON_SCHEMA;
use crate::Ctx;
use clap::Args;
use leechbook_core::fold::{Ledger, FOLD_VERSION};
use leechbook_store::codec::decode_ledger;

/// Verify the ledger.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs the checks.
pub fn cmd_verify(a: VerifyArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let mut store = ctx.open()?;
    let integrity = store.integrity_check()?;
    // Every event must decode (a decode failure is an error naming the event).
    let events = store.events()?;
    let full = Ledger::fold(&events);
    let mut report: Vec<String> = Vec::new();
    let mut problems = integrity.len();
    for line in &integrity {
        report.push(format!("integrity: {line}"));
    }
    for snap in store.snapshots()? {
        let verdict = if snap.fold_version != FOLD_VERSION {
            Some(format!(
                "made by fold version {} (now {FOLD_VERSION})",
                snap.fold_version
            ))
        } else {
            match decode_ledger(&snap.payload) {
                Err(e) => Some(format!("does not decode ({e})")),
                Ok(l) => {
                    let n = (snap.position as usize).min(events.len());
                    let at_key = events.get(n.wrapping_sub(1)).map(|e| e.order_key());
                    if at_key != Some(snap.last) || l != Ledger::fold(&events[..n]) {
                        Some("differs from the fold of its events".into())
                    } else {
                        None
                    }
                }
            }
        };
        match verdict {
            None => report.push(format!("snapshot at {}: ok", snap.position)),
            Some(why) => {
                store.drop_snapshot(snap.position)?;
                report.push(format!("snapshot at {}: {why}; dropped", snap.position));
            }
        }
    }
    let (_, fast) = ctx.load()?;
    if fast != full {
        problems += 1;
        report.push("the snapshot-and-tail fold differs from the full fold".into());
    }
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
