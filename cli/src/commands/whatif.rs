//! `leechbook what-if RULING ...`: the record as it would be if a ruling were made, shown as a
//! diff against the record now; nothing is recorded.

use super::ruling;
use crate::ctx::Ctx;
use crate::error::CommandError;
use clap::Subcommand;
use leechbook_story::diff::{flat_view, in_words};

/// The ruling to try.
#[derive(Subcommand, Debug)]
pub enum WhatIf {
    /// As `retract`.
    Retract(ruling::RetractArgs),
    /// As `reinstate`.
    Reinstate(ruling::ReinstateArgs),
    /// As `amend`.
    Amend(ruling::AmendArgs),
    /// As `override`.
    Override(ruling::OverrideArgs),
}

/// Shows what the ruling would change.
pub fn cmd_what_if(w: WhatIf, ctx: &mut Ctx) -> Result<(), CommandError> {
    let mut replica = ctx.replica()?;
    let context = |spec: &str| leechbook_ledger::ruling_context(replica.store(), spec);
    let r = match w {
        WhatIf::Retract(a) => ruling::build_retract(&context(&a.event)?, &a)?,
        WhatIf::Reinstate(a) => ruling::build_reinstate(&context(&a.event)?, &a)?,
        WhatIf::Amend(a) => ruling::build_amend(&context(&a.event)?, &a)?,
        WhatIf::Override(a) => ruling::build_override(&replica.state()?, &a)?,
    };
    // Say which ruling is tried, naming its target as `log` does.
    if let Some(target) = r.target() {
        if let Ok(t) = leechbook_story::log::told(&replica, target) {
            // An amendment is told by what it corrects: the record reads as before until it
            // is made, and what it would change follows.
            let words = match &r {
                leechbook_core::ruling::Ruling::Amend { .. } => {
                    format!("#{} were amended (it reads now: {})", t.number, t.summary)
                }
                r => leechbook_views::narrate::ruling(r, "", Some(&t))
                    .trim_start_matches("RULING: ")
                    .to_string(),
            };
            ctx.say(format!("what if {words}:"));
        }
    }
    let (now, then) = replica.what_if(r)?;
    let mut any = false;
    for c in &now.characters {
        // A character the ruling leaves as it was has nothing to show: only the others'
        // views are built and compared (a view of every wound of every character cost a
        // what-if at a million events ten seconds).
        if then.character(c.id()) == Some(c) && then.now == now.now && then.settings == now.settings
        {
            continue;
        }
        let list = in_words(&flat_view(&now, c.name()), &flat_view(&then, c.name()));
        if !list.is_empty() {
            any = true;
            ctx.say(format!("{}:", c.name()));
            for l in list {
                ctx.say(format!("  {l}"));
            }
        }
    }
    // Each named as `log` names it: its number and its words.
    let newly_void: Vec<String> = then
        .void
        .iter()
        .filter(|v| !now.void.iter().any(|b| b.id == v.id))
        .map(|v| {
            leechbook_story::log::told(&replica, v.id)
                .map(|t| format!("would be void: {} ({})", t.line(), v.reason))
        })
        .collect::<Result<_, _>>()?;
    for l in &newly_void {
        ctx.say(l);
    }
    if !any && newly_void.is_empty() {
        ctx.say("the ruling would change nothing");
    }
    ctx.note("(nothing was recorded)");
    Ok(())
}
