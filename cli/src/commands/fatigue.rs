//! `leechbook fatigue NAME POINTS`: Personal Fatigue or weariness gained or recovered, as the
//! GM records it (the text's normal rate of recovery is on pages it lacks).

use super::find;
use crate::ctx::Ctx;
use crate::error::CommandError;
use clap::Args;
use leechbook_core::harnmaster::healing::{FatigueChange, FatigueKind};
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::Event;
use leechbook_views::narrate;

/// Record fatigue gained (+5) or recovered (-5): Personal Fatigue (moving while INC accrues
/// it every 10 minutes, Healing step 2), or with --weariness the weariness a coma left.
///
/// Leechbook's reading: the text's normal rate of recovery is on pages it lacks, so the GM
/// records what is gained and recovered. No fatigue is recovered while in Extended Shock
/// (step 2), and it is recovered normally in a coma once Extended Shock ends (step 3).
/// Weakness fatigue (anaemia, infection) goes only with its cause.
#[derive(Args, Debug)]
pub struct FatigueArgs {
    /// Who.
    pub name: String,
    /// Points gained (+5) or recovered (-5).
    #[arg(allow_hyphen_values = true)]
    pub points: i32,
    /// The weariness a coma left, not Personal Fatigue.
    #[arg(long)]
    pub weariness: bool,
}

/// Records the change.
pub fn cmd_fatigue(a: FatigueArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let names = [a.name.as_str()];
    let (ledger, env, applied) = ctx.record_for(Some(&names), |ledger, _| {
        let ch = find(ledger, &a.name)?;
        Ok((
            Event::HarnMaster(HmEvent::Fatigue(FatigueChange {
                character: ch.id,
                kind: if a.weariness {
                    FatigueKind::Weariness
                } else {
                    FatigueKind::Personal
                },
                points: a.points,
            })),
            None,
        ))
    })?;
    ctx.say(narrate::event(&ledger, &env, &applied));
    Ok(())
}
