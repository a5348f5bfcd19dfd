//! `leechbook attend NAME extended-shock|infection`: a healer's bonus to course rolls.

use super::find;
use crate::ctx::Ctx;
use crate::error::CommandError;
use clap::{Args, ValueEnum};
use leechbook_core::harnmaster::healing::{Attended, HealerAttends};
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::Event;
use leechbook_views::narrate;

/// What the healer attends.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum Condition {
    /// Extended Shock: +5 x the stars of the healer's Physician SV test.
    ExtendedShock,
    /// Infection: + the SV of the healer's Physician test.
    Infection,
}

/// Record a healer attending a patient: the bonus to their course rolls (the single highest
/// healer's applies).
#[derive(Args, Debug)]
pub struct AttendArgs {
    /// The patient.
    pub name: String,
    /// What the healer attends.
    #[arg(value_enum)]
    pub condition: Condition,
    /// The bonus, from the healer's Physician SV test.
    #[arg(long)]
    pub bonus: i32,
    /// The healer's name.
    #[arg(long, default_value = "healer")]
    pub healer: String,
}

/// Records the attendance.
pub fn cmd_attend(a: AttendArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let names = [a.name.as_str()];
    let (ledger, env, applied) = ctx.record_for(Some(&names), |ledger, _| {
        let ch = find(ledger, &a.name)?;
        Ok((
            Event::HarnMaster(HmEvent::HealerAttends(HealerAttends {
                character: ch.id,
                condition: match a.condition {
                    Condition::ExtendedShock => Attended::ExtendedShock,
                    Condition::Infection => Attended::Infection,
                },
                healer: a.healer.clone(),
                bonus: a.bonus,
            })),
            None,
        ))
    })?;
    ctx.say(narrate::event(&ledger, &env, &applied));
    Ok(())
}
