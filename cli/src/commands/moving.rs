//! `leechbook move NAME --pace full --ml N`: the Serious-injury aggravation option's Agility
//! test for moving with a Serious head, torso or leg injury.

use super::find;
use crate::ctx::Ctx;
use crate::dice::{one_d100, parse_dice};
use crate::error::CommandError;
use clap::{Args, ValueEnum};
use leechbook_core::harnmaster::healing::{MovePace, MoveTest};
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::Event;
use leechbook_views::narrate;

/// How fast the character moves.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum Pace {
    /// A half Move: a test every four hours.
    Half,
    /// A full Move: a test every turn.
    Full,
    /// The Charge action: a test every turn.
    Charge,
    /// A Double Move: not allowed with such an injury (refused).
    Double,
}

/// Record the Agility test for moving with a Serious head, torso or leg injury (the
/// Serious-injury aggravation option, `option aggravation on`): every turn at a full Move or a
/// Charge, every four hours at a half Move. A CF calls an aggravation Shock SR for each such
/// injury (`roll NAME aggravation INJURY`). The die is `roll` in --dice.
#[derive(Args, Debug)]
pub struct MoveArgs {
    /// Who moves.
    pub name: String,
    /// How fast.
    #[arg(long, value_enum)]
    pub pace: Pace,
    /// The Agility EML the test is made against.
    #[arg(long)]
    pub ml: i32,
    /// The face rolled at the table: roll=N.
    #[arg(long, value_name = "LIST")]
    pub dice: Option<String>,
}

/// Records the test.
pub fn cmd_move(a: MoveArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let given = parse_dice(a.dice.as_deref(), &["roll"])?;
    let names = [a.name.as_str()];
    let (ledger, env, applied) = ctx.record_for(Some(&names), |ledger, ctx| {
        let ch = find(ledger, &a.name)?;
        let pace = match a.pace {
            Pace::Half => MovePace::Half,
            Pace::Full => MovePace::Full,
            Pace::Charge => MovePace::Charge,
            Pace::Double => MovePace::Double,
        };
        // The shock state says what move there may be, before any die is drawn.
        if let Some(why) =
            leechbook_core::harnmaster::healing::move_refused(ch.shock, ch.coma.is_some(), pace)
        {
            return Err(CommandError::user(format!(
                "{} is {}: {why}",
                ch.name,
                ch.shock.code()
            )));
        }
        // A Grievous head, torso or leg makes the move an automatic CF: no die is rolled.
        let roll = if leechbook_core::harnmaster::healing::move_is_automatic_cf(ch) {
            if !given.is_empty() {
                return Err(CommandError::user(format!(
                    "{}'s move is an automatic CF (a Grievous head, torso or leg injury): it takes no die",
                    ch.name
                )));
            }
            0
        } else {
            one_d100(ctx, given, "roll")?
        };
        Ok((
            Event::HarnMaster(HmEvent::MoveTest(MoveTest {
                character: ch.id,
                pace,
                ml: a.ml,
                roll,
            })),
            None,
        ))
    })?;
    ctx.say(narrate::event(&ledger, &env, &applied));
    // Each aggravation Shock SR the CF called for, with the command that records it.
    if let Some(leechbook_core::harnmaster::system::HmApplied::Heal { outcome, .. }) = applied.hm()
    {
        if let leechbook_core::harnmaster::healing::Effect::MoveTest { aggravating, .. } =
            &outcome.effect
        {
            for id in aggravating {
                ctx.say(format!(
                    "  record it: leechbook roll {} aggravation {}",
                    super::shell_word(&a.name),
                    id.short()
                ));
            }
        }
    }
    Ok(())
}
