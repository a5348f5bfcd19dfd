//! `leechbook verify`: re-folds the log from scratch, checks every snapshot and the file's
//! integrity, every signature against the roster, each device's numbering, the indexed
//! columns against the payload and the sync document against the log, and reports. Stale or
//! wrong snapshots are dropped (they are a cache).

use crate::ctx::Ctx;
use crate::error::CommandError;
use crate::views::JSON_SCHEMA;
use clap::Args;
use leechbook_ledger::verify::{verify, Verified};

/// Verify the ledger.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Check everything: the file's integrity, every event, fold, checkpoint and sync
    /// document. Without it, a ledger verified before has only what came since checked.
    #[arg(long)]
    pub full: bool,
}

/// Runs the ledger's verify service (`leechbook_ledger::verify`, with the sync documents
/// checked by the sync crate) and prints what it found.
pub fn cmd_verify(a: VerifyArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let progress =
        crate::progress::Progress::start(ctx, "verify: reading the ledger", None, a.json);
    let mut store = ctx.open()?;
    let path = ctx.db_path()?;
    let v = verify(
        &mut store,
        &path,
        a.full,
        &mut |stage| progress.say(stage),
        |s| leechbook_sync::document_problems(s).map_err(CommandError::from),
    )?;
    drop(progress);
    print(&a, ctx, &v)?;
    if !v.sound() {
        return Err(CommandError::user("verification found problems"));
    }
    if v.mark_not_kept {
        ctx.note("the ledger is read-only: this verify's mark is not kept, so the next one starts from the last mark");
    }
    Ok(())
}

/// Prints what a verify found: its report, then a summary line (text), or one JSON value.
fn print(a: &VerifyArgs, ctx: &mut Ctx, v: &Verified) -> Result<(), CommandError> {
    if a.json {
        let mut out = serde_json::json!({
            "type": "verify",
            "schema_version": JSON_SCHEMA,
            "sound": v.sound(),
            "full": v.full,
            "events": v.events,
            "report": v.report,
        });
        if let Some(r) = &v.record {
            out["void"] = r.void.into();
            out["retracted"] = r.retracted.into();
        }
        return ctx.json(&out);
    }
    for line in &v.report {
        ctx.say(line);
    }
    for h in crate::error::hints_for(&v.report) {
        ctx.note(format!("hint: {h}"));
    }
    let summary = match &v.record {
        Some(r) => format!(
            "{} events, {} characters, {} void, {} struck by rulings, {} amended; {}",
            v.events,
            r.characters,
            r.void,
            r.retracted,
            r.amended,
            if v.sound() {
                "the ledger is sound"
            } else {
                "PROBLEMS FOUND"
            }
        ),
        None => format!(
            "{} new events since the last verify; {}",
            v.events,
            if v.sound() {
                "they are sound (the events before them are not checked again: `verify --full`)"
            } else {
                "PROBLEMS FOUND"
            }
        ),
    };
    ctx.say(summary);
    Ok(())
}
