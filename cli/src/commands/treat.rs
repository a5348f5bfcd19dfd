//! `leechbook treat NAME INJURY`: a Treatment Roll (Healing Sequence step 5).

use super::find;
use super::roll::injury_or_only;
use crate::ctx::Ctx;
use crate::dice::{one_d100, parse_dice};
use crate::error::CommandError;
use clap::Args;
use leechbook_core::harnmaster::healing::Treatment;
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::Event;
use leechbook_views::narrate;

/// Treat an injury. The treatment (CMP, CLN, SET, SUR, EXT, WRM, AMP) and its difficulty come
/// from the TREATMENT ROLL tables; the delay penalty (-5 per day since the injury) is applied.
/// The die is `treatment` in --dice; if not given, Leechbook rolls it.
///
/// Leechbook's reading of the treatment's TIME (the TREATMENTS table: 5 MIN for a staunch, 30
/// MIN for surgery, ...): the healer performs the treatment and then tests, so the roll is
/// recorded at the clock's time; the campaign clock is everyone's and a treatment does not
/// move it by itself. `--advance` moves it by the treatment's time afterwards, as `advance`
/// does: it stops where an owed roll falls due on the way.
#[derive(Args, Debug)]
pub struct TreatArgs {
    /// The patient.
    pub name: String,
    /// The injury (its id or short id; may be left out when only one fits).
    pub injury: Option<String>,
    /// The healer's Physician ML.
    #[arg(long)]
    pub physician: i32,
    /// The healer's Physician Index (default: ML / 10); caps a Grievous injury's HR.
    #[arg(long)]
    pub index: Option<i32>,
    /// The healer's name (one Treatment Roll per healer per injury).
    #[arg(long, default_value = "healer")]
    pub healer: String,
    /// The healer's DEX secondary modifier (added for SUR, EXT and AMP).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub dex: i32,
    /// The projectile was a broadhead.
    #[arg(long)]
    pub broadhead: bool,
    /// Amputate (frost limbs; or an infected limb, which defeats the infection).
    #[arg(long)]
    pub amputate: bool,
    /// The face rolled at the table: treatment=N.
    #[arg(long, value_name = "LIST")]
    pub dice: Option<String>,
    /// Record it although the rules forbid it now (a GM ruling).
    #[arg(long)]
    pub force: bool,
    /// Then move the campaign clock by the treatment's time (the TREATMENTS table's TIME),
    /// stopping where an owed roll falls due on the way.
    #[arg(long)]
    pub advance: bool,
}

/// Records the Treatment Roll.
pub fn cmd_treat(a: TreatArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let given = parse_dice(a.dice.as_deref(), &["treatment"])?;
    if !(0..=200).contains(&a.physician) {
        return Err(CommandError::user(format!(
            "--physician {} is out of range (0-200)",
            a.physician
        )));
    }
    // The clock a treatment's --advance moves is the GM's: a player's device is told so
    // before the treatment is recorded, not after (a failure that had recorded it).
    if a.advance {
        let (replica, head) = ctx.load_head()?;
        leechbook_ledger::roster::may_move_clock(&head, replica.store().device())?;
    }
    let names = [a.name.as_str()];
    let (ledger, env, applied) = ctx.record_for(Some(&names), |ledger, ctx| {
        let ch = find(ledger, &a.name)?;
        // The only untreated injury; or, when every open one is treated, the only open one:
        // a second healer of a higher Physician Index may still treat it (step 5), and the
        // fold says whether this one may.
        let untreated = |i: &leechbook_core::harnmaster::state::Injury| {
            !i.healed() && i.heal.treatment.is_none()
        };
        let injury = if a.injury.is_none() && !ch.injuries.iter().any(untreated) {
            injury_or_only(ch, None, "treat", |i| !i.healed())?
        } else {
            injury_or_only(ch, a.injury.as_deref(), "treat", untreated)?
        };
        let roll = one_d100(ctx, given, "treatment")?;
        Ok((
            Event::HarnMaster(HmEvent::Treatment(Treatment {
                character: ch.id,
                injury,
                healer: a.healer.clone(),
                physician_ml: a.physician,
                physician_index: a.index.unwrap_or(a.physician / 10),
                dex_mod: a.dex,
                broadhead: a.broadhead,
                amputate: a.amputate,
                roll,
                forced: a.force,
            })),
            None,
        ))
    })?;
    ctx.say(narrate::event(&ledger, &env, &applied));
    if a.advance {
        let minutes = match applied.hm() {
            Some(leechbook_core::harnmaster::system::HmApplied::Heal { outcome, .. }) => {
                match &outcome.effect {
                    leechbook_core::harnmaster::healing::Effect::Treated { minutes, .. } => {
                        *minutes
                    }
                    _ => 0,
                }
            }
            _ => 0,
        };
        if minutes > 0 {
            super::advance::cmd_advance(
                super::advance::AdvanceArgs::by(format!("{minutes}m")),
                ctx,
            )?;
        }
    }
    Ok(())
}
