//! `leechbook wg ...`: Wrath & Glory's damage (with Determination), complications while
//! Dying, Regroup, Respite and restoring Shock. Dice: determination (one d6 per Toughness),
//! memorable, traumatic, side; any not given are rolled.

use super::find_any;
use crate::dice::{parse_dice, roller, TableDice};
use crate::error::CommandError;
use crate::narrate;
use crate::Ctx;
use clap::{Args, Subcommand};
use leechbook_core::fold::{CharacterState, Ledger};
use leechbook_core::ids::CharacterId;
use leechbook_core::wrath::{WgCharacter, WgEvent};
use leechbook_core::Event;

/// Wrath & Glory commands.
#[derive(Subcommand, Debug)]
pub enum WgCommand {
    /// An attack's damage against Resilience (Determination rolled for you if not given).
    Damage(DamageArgs),
    /// A complication on a Wrath Die while Dying: a Traumatic Injury.
    Complication(DiceArgs),
    /// A Regroup: Wounds regained from a Medicae healer.
    Regroup(RegroupArgs),
    /// A Respite: Wounds and Shock to zero.
    Respite(NameArgs),
    /// A Combat Action and a point of Wrath: restore Rank + Tier Shock.
    RestoreShock(NameArgs),
}

/// `wg damage`.
#[derive(Args, Debug)]
pub struct DamageArgs {
    /// Who.
    pub name: String,
    /// The damage.
    #[arg(long)]
    pub damage: i32,
    /// Mortal Wounds: ignore Resilience and Determination.
    #[arg(long)]
    pub mortal: bool,
    /// Faces: determination=4/6/1,memorable=3,traumatic=2,side=5.
    #[arg(long, value_name = "LIST")]
    pub dice: Option<String>,
}

/// A character and dice.
#[derive(Args, Debug)]
pub struct DiceArgs {
    /// Who.
    pub name: String,
    /// Faces: traumatic=2,side=5.
    #[arg(long, value_name = "LIST")]
    pub dice: Option<String>,
}

/// `wg regroup`.
#[derive(Args, Debug)]
pub struct RegroupArgs {
    /// Who.
    pub name: String,
    /// Wounds regained (the healer's Medicae dice pool).
    #[arg(long)]
    pub regain: i32,
}

/// A character.
#[derive(Args, Debug)]
pub struct NameArgs {
    /// Who.
    pub name: String,
}

fn wg<'a>(ledger: &'a Ledger, name: &str) -> Result<&'a WgCharacter, CommandError> {
    match find_any(ledger, name)? {
        CharacterState::WrathGlory(c) => Ok(c),
        other => Err(CommandError::user(format!(
            "{} is not a Wrath & Glory character",
            other.name()
        ))),
    }
}

const DICE: [&str; 4] = ["determination", "memorable", "traumatic", "side"];

/// Runs a Wrath & Glory command.
pub fn cmd_wg(c: WgCommand, ctx: &mut Ctx) -> Result<(), CommandError> {
    let name = match &c {
        WgCommand::Damage(a) => a.name.clone(),
        WgCommand::Complication(a) => a.name.clone(),
        WgCommand::Regroup(a) => a.name.clone(),
        WgCommand::Respite(a) | WgCommand::RestoreShock(a) => a.name.clone(),
    };
    let names = [name.as_str()];
    let (ledger, env, applied) = ctx.record_for(Some(&names), |ledger, ctx| {
        let (ch, event, spec): (&WgCharacter, WgEvent, Option<&str>) = match &c {
            WgCommand::Damage(a) => {
                let ch = wg(ledger, &a.name)?;
                let e = WgEvent::Damage {
                    character: ch.id,
                    damage: a.damage,
                    mortal: a.mortal,
                    dice: vec![],
                };
                (ch, e, a.dice.as_deref())
            }
            WgCommand::Complication(a) => {
                let ch = wg(ledger, &a.name)?;
                (
                    ch,
                    WgEvent::DyingComplication {
                        character: ch.id,
                        dice: vec![],
                    },
                    a.dice.as_deref(),
                )
            }
            WgCommand::Regroup(a) => {
                let ch = wg(ledger, &a.name)?;
                (
                    ch,
                    WgEvent::Regroup {
                        character: ch.id,
                        regained: a.regain,
                    },
                    None,
                )
            }
            WgCommand::Respite(a) => {
                let ch = wg(ledger, &a.name)?;
                (ch, WgEvent::Respite { character: ch.id }, None)
            }
            WgCommand::RestoreShock(a) => {
                let ch = wg(ledger, &a.name)?;
                (ch, WgEvent::RestoreShock { character: ch.id }, None)
            }
        };
        // Resolve on a copy to learn which dice the event needs, rolling those not given.
        let given = parse_dice(spec, &DICE)?;
        let mut r = roller(ctx, 0);
        let mut dice = TableDice::new(given, &mut r);
        let mut copy = ch.clone();
        leechbook_core::wrath::apply(&mut copy, &event, &mut dice, ledger.now)
            .map_err(|e| CommandError::user(e.to_string()))?;
        TableDice::refuse_unused("the roll", &[&dice])?;
        if !dice.rolled.is_empty() {
            let faces: Vec<String> = dice
                .recorded
                .iter()
                .filter(|d| dice.rolled.contains(&d.name.as_str()))
                .map(|d| {
                    format!(
                        "{}={}",
                        d.name,
                        d.faces
                            .iter()
                            .map(u16::to_string)
                            .collect::<Vec<_>>()
                            .join("/")
                    )
                })
                .collect();
            ctx.note(format!("rolled by Leechbook: {}", faces.join(",")));
        }
        let event = match event {
            WgEvent::Damage {
                character,
                damage,
                mortal,
                ..
            } => WgEvent::Damage {
                character,
                damage,
                mortal,
                dice: dice.recorded,
            },
            WgEvent::DyingComplication { character, .. } => WgEvent::DyingComplication {
                character,
                dice: dice.recorded,
            },
            other => other,
        };
        let _: CharacterId = event.character();
        Ok((Event::WrathGlory(event), None))
    })?;
    ctx.say(narrate::event(&ledger, &env, &applied));
    Ok(())
}
