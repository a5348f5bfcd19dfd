//! `leechbook staunch NAME INJURY`: a Blood Stoppage Roll (Healing Sequence step 1).

use super::find;
use super::roll::injury_or_only;
use crate::ctx::Ctx;
use crate::dice::{one_d100, parse_dice};
use crate::error::CommandError;
use clap::Args;
use leechbook_core::harnmaster::healing::{BloodStoppage, Stoppage};
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::Event;
use leechbook_views::narrate;

/// Try to stop a bleeder: staunch (with a tourniquet on a limb, +20) or cauterise (+30). The
/// die is `roll` in --dice; if not given, Leechbook rolls it.
#[derive(Args, Debug)]
pub struct StaunchArgs {
    /// The patient.
    pub name: String,
    /// The bleeding injury (its id or short id; may be left out when only one bleeds).
    pub injury: Option<String>,
    /// The healer's Physician ML.
    #[arg(long)]
    pub physician: i32,
    /// The healer's name.
    #[arg(long, default_value = "healer")]
    pub healer: String,
    /// Cauterise instead of staunch (+30; raises the chance of infection later).
    #[arg(long)]
    pub cauterise: bool,
    /// Use a tourniquet (limb bleeders only, +20 to staunch).
    #[arg(long, conflicts_with = "cauterise")]
    pub tourniquet: bool,
    /// Other bleeders the healer treats in the same five minutes (-10 each).
    #[arg(long, default_value_t = 0)]
    pub others: u8,
    /// The face rolled at the table: roll=N.
    #[arg(long, value_name = "LIST")]
    pub dice: Option<String>,
    /// Record it although it is not due (a GM ruling).
    #[arg(long)]
    pub force: bool,
}

/// Records the stoppage roll.
pub fn cmd_staunch(a: StaunchArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let given = parse_dice(a.dice.as_deref(), &["roll"])?;
    let names = [a.name.as_str()];
    let (ledger, env, applied) = ctx.record_for(Some(&names), |ledger, ctx| {
        let ch = find(ledger, &a.name)?;
        let injury = injury_or_only(ch, a.injury.as_deref(), "staunch", |i| {
            i.bleeder && !i.healed()
        })?;
        let roll = one_d100(ctx, given, "roll")?;
        Ok((
            Event::HarnMaster(HmEvent::BloodStoppage(BloodStoppage {
                character: ch.id,
                injury,
                method: if a.cauterise {
                    Stoppage::Cauterise
                } else {
                    Stoppage::Staunch
                },
                tourniquet: a.tourniquet,
                healer: a.healer.clone(),
                physician_ml: a.physician,
                other_bleeders: a.others,
                roll,
                forced: a.force,
            })),
            None,
        ))
    })?;
    ctx.say(narrate::event(&ledger, &env, &applied));
    Ok(())
}
