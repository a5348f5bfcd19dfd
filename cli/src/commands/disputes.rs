//! `leechbook disputes`: events of different devices that the rules will not both accept
//! (see `leechbook_core::dispute` for what counts and the default until the GM rules).

use crate::ctx::Ctx;
use crate::error::CommandError;
use crate::views::JSON_SCHEMA;
use clap::Args;
use leechbook_core::dispute::disputes;
use leechbook_core::ids::EventId;
use leechbook_core::Envelope;
use serde::Serialize;

/// List disputes.
#[derive(Args, Debug)]
pub struct DisputesArgs {
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// One side of a dispute.
#[derive(Serialize)]
pub struct Side {
    /// The event id.
    pub id: String,
    /// Its kind.
    pub kind: &'static str,
    /// The device that recorded it.
    pub device: String,
    /// Its campaign time.
    pub at: String,
}

/// One dispute as `disputes --json` prints it.
#[derive(Serialize)]
pub struct DisputeView {
    /// Always `dispute`.
    #[serde(rename = "type")]
    pub ty: &'static str,
    /// The JSON schema version.
    pub schema_version: u32,
    /// The event that stands until the GM rules.
    pub kept: Side,
    /// The event the fold voided.
    pub void: Side,
    /// Why it is void.
    pub reason: String,
}

fn side(env: &Envelope) -> Side {
    Side {
        id: env.id.to_string(),
        kind: env.event.kind(),
        device: env.device.short(),
        at: env.at.to_string(),
    }
}

/// Lists the disputes.
pub fn cmd_disputes(a: DisputesArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let store = ctx.open()?;
    let events = store.events()?;
    let by_id: std::collections::HashMap<_, _> = events.iter().map(|e| (e.id, e)).collect();
    let views: Vec<DisputeView> = disputes(&events)
        .into_iter()
        .map(|d| DisputeView {
            ty: "dispute",
            schema_version: JSON_SCHEMA,
            kept: side(by_id[&d.kept]),
            void: side(by_id[&d.void]),
            reason: d.reason,
        })
        .collect();
    if a.json {
        return ctx.json(&views);
    }
    if views.is_empty() {
        ctx.say("no disputes");
        return Ok(());
    }
    ctx.say(format!(
        "{} dispute(s): the earlier event stands until the GM retracts one side",
        views.len()
    ));
    // Each side told as `log` tells it: its number and its words (by a player's device or
    // the GM's), which `retract` takes.
    let replica = ctx.replica()?;
    let told = |s: &Side| {
        s.id.parse::<uuid::Uuid>()
            .ok()
            .and_then(|u| leechbook_story::log::told(&replica, EventId(u)).ok())
            .map_or_else(|| format!("{} {}", s.id, s.kind), |t| t.line())
    };
    let lines: Vec<String> = views
        .iter()
        .flat_map(|v| {
            [
                format!(
                    "kept {} (device {}, {})",
                    told(&v.kept),
                    v.kept.device,
                    v.kept.at
                ),
                format!(
                    "void {} (device {}, {}): {}",
                    told(&v.void),
                    v.void.device,
                    v.void.at,
                    v.reason
                ),
            ]
        })
        .collect();
    for l in lines {
        ctx.say(l);
    }
    Ok(())
}
