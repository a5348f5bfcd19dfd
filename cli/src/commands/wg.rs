//! `leechbook wg ...`: Wrath & Glory's damage (with Determination, against one target or
//! several), complications while Dying, Wrath, rests (Regroup, Respite, and the strenuous hour
//! that interrupts them), restoring Shock and replacements. Dice: determination (one d6 per
//! Toughness), memorable, traumatic, side; any not given are rolled.

use super::find_any;
use crate::dice::{parse_dice, rolled_faces, roller, TableDice};
use crate::error::CommandError;
use crate::narrate;
use crate::Ctx;
use clap::{Args, Subcommand};
use leechbook_core::fold::{CharacterState, Ledger};
use leechbook_core::wrath::{WgCharacter, WgEvent};
use leechbook_core::Event;

/// Wrath & Glory commands.
#[derive(Subcommand, Debug)]
pub enum WgCommand {
    /// An attack's damage against Resilience (Determination rolled for you if not given).
    /// Several targets take one damage roll: `wg damage Vex Kal --damage 9`.
    Damage(DamageArgs),
    /// A complication on a Wrath Die while Dying: a Traumatic Injury.
    Complication(DiceArgs),
    /// A Regroup: Wounds regained from a Medicae healer, after an hour's rest.
    Regroup(RegroupArgs),
    /// A Respite after six hours' rest: Wounds and Shock to zero, Wrath to 2.
    Respite(NamesArgs),
    /// A Combat Action and a point of Wrath: restore Rank + Tier Shock.
    RestoreShock(NameArgs),
    /// Wrath gained (a Wrath Critical, a GM's award) or spent (negative).
    Wrath(WrathArgs),
    /// An hour or more of strenuous activity: it interrupts a rest, which begins again.
    Strenuous(NamesArgs),
    /// A replacement for a Traumatic Injury's part: its penalties are mitigated entirely.
    Replace(ReplaceArgs),
}

/// `wg damage`.
#[derive(Args, Debug)]
pub struct DamageArgs {
    /// Who: one target, or several struck by a single attack (one damage roll for all).
    #[arg(required = true, num_args = 1..)]
    pub names: Vec<String>,
    /// The damage.
    #[arg(long)]
    pub damage: i32,
    /// Mortal Wounds: ignore Resilience and Determination.
    #[arg(long)]
    pub mortal: bool,
    /// Faces: determination=4/6/1,memorable=3,traumatic=2,side=5. With several targets,
    /// give one --dice per target in the order named.
    #[arg(long, value_name = "LIST")]
    pub dice: Vec<String>,
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

/// Characters.
#[derive(Args, Debug)]
pub struct NamesArgs {
    /// Who (one or more).
    #[arg(required = true, num_args = 1..)]
    pub names: Vec<String>,
}

/// `wg wrath`.
#[derive(Args, Debug)]
pub struct WrathArgs {
    /// Who.
    pub name: String,
    /// Points gained (negative: spent), as +1 or -1.
    #[arg(allow_hyphen_values = true)]
    pub points: i32,
}

/// `wg replace`.
#[derive(Args, Debug)]
pub struct ReplaceArgs {
    /// Who.
    pub name: String,
    /// The part: Hand, Arm, Foot, Leg, Torso or Eye.
    pub part: String,
    /// The side: left or right (none for the torso).
    pub side: Option<String>,
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

const PARTS: [&str; 6] = ["Hand", "Arm", "Foot", "Leg", "Torso", "Eye"];

/// The part and side a replacement names, spelled as the Traumatic Injury table spells them.
fn part_and_side(a: &ReplaceArgs) -> Result<(String, Option<String>), CommandError> {
    let part = PARTS
        .iter()
        .find(|p| p.eq_ignore_ascii_case(&a.part))
        .ok_or_else(|| {
            CommandError::user(format!(
                "'{}' is not a part of the Traumatic Injury table (one of {})",
                a.part,
                PARTS.join(", ")
            ))
        })?;
    let side = match (a.side.as_deref().map(str::to_ascii_lowercase), *part) {
        (None, "Torso") => None,
        (Some(_), "Torso") => return Err(CommandError::user("the Torso has no side")),
        (Some(s), _) if s == "left" || s == "right" => Some(s),
        (Some(s), _) => {
            return Err(CommandError::user(format!(
                "'{s}' is not a side (left or right)"
            )))
        }
        (None, p) => {
            return Err(CommandError::user(format!(
                "which {p}? give its side: left or right"
            )))
        }
    };
    Ok((part.to_string(), side))
}

/// The characters a command names, each once.
fn named(c: &WgCommand) -> Result<Vec<&str>, CommandError> {
    let names: Vec<&str> = match c {
        WgCommand::Damage(a) => a.names.iter().map(String::as_str).collect(),
        WgCommand::Respite(a) | WgCommand::Strenuous(a) => {
            a.names.iter().map(String::as_str).collect()
        }
        WgCommand::Complication(a) => vec![&a.name],
        WgCommand::Regroup(a) => vec![&a.name],
        WgCommand::RestoreShock(a) => vec![&a.name],
        WgCommand::Wrath(a) => vec![&a.name],
        WgCommand::Replace(a) => vec![&a.name],
    };
    for (i, n) in names.iter().enumerate() {
        if names[..i]
            .iter()
            .any(|m| leechbook_core::name::same_name(m, n))
        {
            return Err(CommandError::user(format!("{n} is named twice")));
        }
    }
    Ok(names)
}

/// The event a command records for its `i`th character, and the dice it was given.
fn event_for<'c>(
    c: &'c WgCommand,
    i: usize,
    ch: &WgCharacter,
) -> Result<(WgEvent, Option<&'c str>), CommandError> {
    let character = ch.id;
    Ok(match c {
        WgCommand::Damage(a) => (
            WgEvent::Damage {
                character,
                damage: a.damage,
                mortal: a.mortal,
                dice: vec![],
            },
            a.dice.get(i).map(String::as_str),
        ),
        WgCommand::Complication(a) => (
            WgEvent::DyingComplication {
                character,
                dice: vec![],
            },
            a.dice.as_deref(),
        ),
        WgCommand::Regroup(a) => (
            WgEvent::RestedRegroup {
                character,
                regained: a.regain,
            },
            None,
        ),
        WgCommand::Respite(_) => (WgEvent::RestedRespite { character }, None),
        WgCommand::RestoreShock(_) => (WgEvent::SpendWrath { character }, None),
        WgCommand::Wrath(a) => (
            WgEvent::Wrath {
                character,
                points: a.points,
            },
            None,
        ),
        WgCommand::Strenuous(_) => (WgEvent::Strenuous { character }, None),
        WgCommand::Replace(a) => {
            let (part, side) = part_and_side(a)?;
            (
                WgEvent::Replacement {
                    character,
                    part,
                    side,
                },
                None,
            )
        }
    })
}

/// A refusal in one line; a rest taken too soon says how far to move the clock.
fn refused(e: leechbook_core::wrath::WgError) -> CommandError {
    match &e {
        leechbook_core::wrath::WgError::TooSoon { more, .. } => CommandError::user(format!(
            "{e} (move the clock first: `leechbook advance {}`)",
            leechbook_core::time::format_duration(*more).replace(' ', "")
        )),
        _ => CommandError::user(e.to_string()),
    }
}

/// Runs a Wrath & Glory command.
pub fn cmd_wg(c: WgCommand, ctx: &mut Ctx) -> Result<(), CommandError> {
    let names = named(&c)?;
    if let WgCommand::Damage(a) = &c {
        if a.dice.len() > a.names.len() {
            return Err(CommandError::user(format!(
                "{} --dice lists for {} target(s): give one per target, in the order named",
                a.dice.len(),
                a.names.len()
            )));
        }
    }
    let (ledger, recorded) = ctx.record_all(Some(&names), |ledger, ctx| {
        let mut events = Vec::new();
        for (i, name) in names.iter().enumerate() {
            let ch = wg(ledger, name)?;
            let (event, spec) = event_for(&c, i, ch)?;
            // Resolve on a copy to learn which dice the event needs, rolling those not given.
            let given = parse_dice(spec, &DICE)?;
            let mut r = roller(ctx, i as u64);
            let mut dice = TableDice::new(given, &mut r);
            let mut copy = ch.clone();
            leechbook_core::wrath::apply(&mut copy, &event, &mut dice, ledger.now)
                .map_err(refused)?;
            TableDice::refuse_unused("the roll", &[&dice])?;
            if !dice.rolled.is_empty() {
                let faces: Vec<String> = rolled_faces(&dice.recorded, &dice.rolled).collect();
                let whose = if names.len() > 1 {
                    format!(" for {}", ch.name)
                } else {
                    String::new()
                };
                ctx.note(format!("rolled by Leechbook{whose}: {}", faces.join(",")));
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
            events.push((Event::WrathGlory(event), None));
        }
        Ok(events)
    })?;
    if let WgCommand::Damage(a) = &c {
        if names.len() > 1 {
            ctx.say(format!(
                "one damage roll, {}, against {} targets (a single attack)",
                a.damage,
                names.len()
            ));
        }
    }
    for (env, applied) in &recorded {
        ctx.say(narrate::event(&ledger, env, applied));
    }
    Ok(())
}
