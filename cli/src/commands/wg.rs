//! `leechbook wg ...`: Wrath & Glory's damage (with Determination, against one target or
//! several), complications while Dying, Wrath, rests (Regroup, Respite, and the strenuous hour
//! that interrupts them), restoring Shock and replacements. Dice: determination (one d6 per
//! Toughness), memorable, traumatic, side; any not given are rolled.

use crate::ctx::Ctx;
use crate::dice::{parse_dice, rolled_faces, roller, TableDice};
use crate::error::CommandError;
use clap::{Args, Subcommand};
use leechbook_core::dice::Drawing;
use leechbook_core::fold::Ledger;
use leechbook_core::wrath::{WgCharacter, WgEvent};
use leechbook_core::Event;
use leechbook_ledger::Draft;
use leechbook_views::narrate;

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
    /// Wounds regained, as the GM rules them (with no healer named).
    #[arg(long, required_unless_present = "healer", conflicts_with = "healer")]
    pub regain: Option<i32>,
    /// The healer with a Medicae rating who heals them during the Regroup (002 l.63): a
    /// Wrath & Glory character of the campaign, who heals a single character a Regroup, or
    /// with --npc someone the campaign does not hold.
    #[arg(long, requires = "medicae")]
    pub healer: Option<String>,
    /// The healer is not a character of the campaign (an NPC): taken as named.
    #[arg(long, requires = "healer")]
    pub npc: bool,
    /// The healer's Medicae (Int) dice pool: the Wounds regained (002 l.64).
    #[arg(long, requires = "healer", value_name = "DICE")]
    pub medicae: Option<i32>,
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
    Ok(leechbook_ledger::lookup::wrath(ledger, name)?)
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

/// The dice given for the command's `i`th character.
fn dice_given(c: &WgCommand, i: usize) -> Option<&str> {
    match c {
        WgCommand::Damage(a) => a.dice.get(i).map(String::as_str),
        WgCommand::Complication(a) => a.dice.as_deref(),
        _ => None,
    }
}

/// The event a command records for a character (a rolling one without its faces: the fold
/// writes those in as it draws them).
fn event_for(c: &WgCommand, ch: &WgCharacter, ledger: &Ledger) -> Result<WgEvent, CommandError> {
    let character = ch.id;
    Ok(match c {
        WgCommand::Damage(a) => WgEvent::Damage {
            character,
            damage: a.damage,
            mortal: a.mortal,
            dice: vec![],
        },
        WgCommand::Complication(_) => WgEvent::DyingComplication {
            character,
            dice: vec![],
        },
        WgCommand::Regroup(a) => match (&a.healer, a.medicae) {
            (Some(healer), Some(pool)) => {
                let by = if a.npc {
                    None
                } else {
                    let found = wg(ledger, healer)
                        .map_err(|e| e.hint("--npc for a healer the campaign does not hold"))?;
                    Some(found)
                };
                WgEvent::MedicaeRegroup {
                    character,
                    healer: by.map_or_else(|| healer.trim().to_string(), |h| h.name.clone()),
                    by: by.map(|h| h.id),
                    pool,
                }
            }
            _ => WgEvent::RestedRegroup {
                character,
                regained: a.regain.unwrap_or(0),
            },
        },
        WgCommand::Respite(_) => WgEvent::RestedRespite { character },
        WgCommand::RestoreShock(_) => WgEvent::SpendWrath { character },
        WgCommand::Wrath(a) => WgEvent::Wrath {
            character,
            points: a.points,
        },
        WgCommand::Strenuous(_) => WgEvent::Strenuous { character },
        WgCommand::Replace(a) => {
            let (part, side) = part_and_side(a)?;
            WgEvent::Replacement {
                character,
                part,
                side,
            }
        }
    })
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
    // Each character's event is decided once, in the fold, drawing its dice from its own
    // table (the given faces for it, the others rolled: stream i for the ith named).
    // A --dice list that does not parse is said where it always was: after the ledger
    // opened and its character was found.
    let mut rollers: Vec<_> = (0..names.len()).map(|i| roller(ctx, i as u64)).collect();
    let mut tables = Vec::with_capacity(names.len());
    let mut bad = Vec::with_capacity(names.len());
    for (i, r) in rollers.iter_mut().enumerate() {
        let (given, error) = match parse_dice(dice_given(&c, i), &DICE) {
            Ok(given) => (given, None),
            Err(e) => (Vec::new(), Some(e)),
        };
        tables.push(TableDice::new("the roll", given, r));
        bad.push(error);
    }
    let drawings = &mut tables;
    // The state read holds the named and a healer of the campaign.
    let mut load = names.clone();
    if let WgCommand::Regroup(RegroupArgs {
        healer: Some(h),
        npc: false,
        ..
    }) = &c
    {
        load.push(h);
    }
    let (ledger, recorded) = ctx.record_all(Some(&load), |ledger, _| {
        let mut events = Vec::new();
        for ((name, dice), bad) in names.iter().zip(drawings.iter_mut()).zip(bad) {
            let ch = wg(ledger, name)?;
            if let Some(e) = bad {
                return Err(e);
            }
            events.push(Draft {
                event: Event::WrathGlory(event_for(&c, ch, ledger)?),
                at: None,
                dice: Some(dice as &mut dyn Drawing),
            });
        }
        Ok(events)
    })?;
    for ((env, _), dice) in recorded.iter().zip(&tables) {
        if let (Event::WrathGlory(e), false) = (&env.event, dice.rolled.is_empty()) {
            let faces: Vec<String> = rolled_faces(e.dice(), &dice.rolled).collect();
            let whose = match ledger.character(e.character()) {
                Some(ch) if names.len() > 1 => format!(" for {}", ch.name()),
                _ => String::new(),
            };
            ctx.note(format!("rolled by Leechbook{whose}: {}", faces.join(",")));
        }
    }
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
