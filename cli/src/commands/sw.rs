//! `leechbook sw ...`: Savage Worlds' damage, Shaken recovery, Incapacitation, Bleeding Out,
//! stabilising and healing. Dice ace: give a die's faces as `6+6+2` (each ace and the roll
//! after it), several dice as `6+3/4`; any die not given is rolled (aces included).

use super::find_any;
use crate::dice::{roller, Roller};
use crate::error::CommandError;
use crate::narrate;
use crate::Ctx;
use clap::{Args, Subcommand, ValueEnum};
use leechbook_core::fold::CharacterState;
use leechbook_core::savage::{Attribute, Chain, SwAttributes, SwCharacter, SwEvent, TraitRoll};
use leechbook_core::Event;
use std::collections::HashMap;

/// Savage Worlds commands.
#[derive(Subcommand, Debug)]
pub enum SwCommand {
    /// Damage against Toughness (`--damage d8+d6+1`; dice as damage=6+2/4).
    Damage(DamageArgs),
    /// A trait roll the character owes (trait=..., wild=...; injury=a/b and sub=N for the
    /// Injury Table).
    Roll(RollArgs),
    /// Another character's Healing roll to stabilise a bleeding character.
    Stabilise(StabiliseArgs),
    /// Wounds healed.
    Heal(HealArgs),
    /// The sheet's attribute dice: a trait roll then uses the die in effect (an Injury Table
    /// result lowers one a type while it lasts).
    Attributes(AttributesArgs),
}

/// `sw attributes`.
#[derive(Args, Debug)]
pub struct AttributesArgs {
    /// Who.
    pub name: String,
    /// Agility's die (d4-d12).
    #[arg(long, value_name = "DIE")]
    pub agility: Option<String>,
    /// Smarts' die.
    #[arg(long, value_name = "DIE")]
    pub smarts: Option<String>,
    /// Spirit's die.
    #[arg(long, value_name = "DIE")]
    pub spirit: Option<String>,
    /// Strength's die.
    #[arg(long, value_name = "DIE")]
    pub strength: Option<String>,
    /// Vigor's die.
    #[arg(long, value_name = "DIE")]
    pub vigor: Option<String>,
}

/// `sw damage`.
#[derive(Args, Debug)]
pub struct DamageArgs {
    /// Who is hit.
    pub name: String,
    /// The damage dice and modifier: `d8+d6+1` (Strength die + weapon die), or `2d6+1`.
    #[arg(long)]
    pub damage: String,
    /// Faces: damage=6+2/4 (one die per `/`, aces chained by `+`).
    #[arg(long, value_name = "LIST")]
    pub dice: Option<String>,
}

/// The rolls a character can owe.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum SwRoll {
    /// Spirit, to recover from Shaken.
    SpiritRecovery,
    /// Vigor, on Incapacitation (then the Injury Table).
    Incapacitation,
    /// Vigor, while Bleeding Out.
    BleedingOut,
}

/// `sw roll`.
#[derive(Args, Debug)]
pub struct RollArgs {
    /// Who rolls.
    pub name: String,
    /// What roll.
    #[arg(value_enum)]
    pub kind: SwRoll,
    /// The trait's die (d4-d12); by default the die in effect of the attribute recorded with
    /// `sw attributes` (Spirit or Vigor).
    #[arg(long = "trait", value_name = "DIE")]
    pub trait_die: Option<String>,
    /// Other modifiers (the wound penalty is applied for you).
    #[arg(long = "mod", default_value_t = 0, allow_negative_numbers = true)]
    pub modifier: i32,
    /// Faces: trait=8+3,wild=4,injury=3/4,sub=2.
    #[arg(long, value_name = "LIST")]
    pub dice: Option<String>,
}

/// `sw stabilise`.
#[derive(Args, Debug)]
pub struct StabiliseArgs {
    /// Who bleeds.
    pub name: String,
    /// The healer.
    #[arg(long)]
    pub healer: String,
    /// The healer's Healing die.
    #[arg(long = "trait", value_name = "DIE")]
    pub trait_die: String,
    /// Modifiers.
    #[arg(long = "mod", default_value_t = 0, allow_negative_numbers = true)]
    pub modifier: i32,
    /// Faces: trait=...,wild=...
    #[arg(long, value_name = "LIST")]
    pub dice: Option<String>,
}

/// `sw heal`.
#[derive(Args, Debug)]
pub struct HealArgs {
    /// Who.
    pub name: String,
    /// How many Wounds heal.
    #[arg(long, default_value_t = 1)]
    pub wounds: u8,
}

/// Parses `name=6+6+2/3,...` into dice per name, each a list of ace chains.
fn parse(
    spec: Option<&str>,
    known: &[&str],
) -> Result<HashMap<String, Vec<Vec<u16>>>, CommandError> {
    let mut out = HashMap::new();
    let Some(spec) = spec else { return Ok(out) };
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (name, v) = part
            .split_once('=')
            .ok_or_else(|| CommandError::user(format!("--dice '{part}': expected NAME=FACES")))?;
        let name = name.trim().to_ascii_lowercase();
        if !known.contains(&name.as_str()) {
            return Err(CommandError::user(format!(
                "--dice: unknown die '{name}' (known: {})",
                known.join(", ")
            )));
        }
        let dice = v
            .split('/')
            .map(|d| {
                d.split('+')
                    .map(|f| {
                        f.trim().parse::<u16>().map_err(|_| {
                            CommandError::user(format!("--dice: '{f}' is not a face of '{name}'"))
                        })
                    })
                    .collect::<Result<Vec<u16>, _>>()
            })
            .collect::<Result<Vec<_>, _>>()?;
        out.insert(name, dice);
    }
    Ok(out)
}

fn sides(s: &str) -> Result<u16, CommandError> {
    s.trim()
        .trim_start_matches(['d', 'D'])
        .parse::<u16>()
        .ok()
        .filter(|n| [4, 6, 8, 10, 12].contains(n))
        .ok_or_else(|| CommandError::user(format!("'{s}' is not a Savage Worlds die (d4-d12)")))
}

/// Rolls (or asks for) one die, and again while it aces.
fn roll_chain(rng: &mut Roller, name: &str, sides: u16) -> Result<Vec<u16>, CommandError> {
    let die =
        leechbook_core::dice::Die::new(sides).map_err(|e| CommandError::user(e.to_string()))?;
    let mut faces = Vec::new();
    loop {
        let f = rng
            .face(name, die)
            .map_err(|e| CommandError::user(e.to_string()))?;
        faces.push(f);
        if f != sides || faces.len() > 20 {
            return Ok(faces);
        }
    }
}

/// Refuses given dice that the roll did not take (a die given but not used is a mistake on
/// the command line, as in every recording command).
fn refuse_unused(given: &HashMap<String, Vec<Vec<u16>>>) -> Result<(), CommandError> {
    if given.is_empty() {
        return Ok(());
    }
    let mut names: Vec<String> = given.keys().cloned().collect();
    names.sort_unstable();
    Err(CommandError::user(
        leechbook_core::dice::DiceError::NotNeeded {
            what: "the roll",
            names,
        }
        .to_string(),
    ))
}

/// Takes the given chains for `name` (one per die), or rolls them.
fn chains(
    given: &mut HashMap<String, Vec<Vec<u16>>>,
    name: &str,
    dice: &[u16],
    rng: &mut Roller,
    rolled: &mut Vec<String>,
) -> Result<Vec<Chain>, CommandError> {
    match given.remove(name) {
        Some(faces) => {
            if faces.len() != dice.len() {
                return Err(CommandError::user(format!(
                    "die '{name}' needs {} dice, got {}",
                    dice.len(),
                    faces.len()
                )));
            }
            Ok(dice
                .iter()
                .zip(faces)
                .map(|(&sides, faces)| Chain { sides, faces })
                .collect())
        }
        None => {
            let c: Vec<Chain> = dice
                .iter()
                .map(|&s| {
                    Ok(Chain {
                        sides: s,
                        faces: roll_chain(rng, name, s)?,
                    })
                })
                .collect::<Result<_, CommandError>>()?;
            rolled.push(format!(
                "{name}={}",
                c.iter()
                    .map(|c| c
                        .faces
                        .iter()
                        .map(u16::to_string)
                        .collect::<Vec<_>>()
                        .join("+"))
                    .collect::<Vec<_>>()
                    .join("/")
            ));
            Ok(c)
        }
    }
}

fn trait_roll(
    given: &mut HashMap<String, Vec<Vec<u16>>>,
    die: &str,
    modifier: i32,
    rng: &mut Roller,
    rolled: &mut Vec<String>,
) -> Result<TraitRoll, CommandError> {
    let t = chains(given, "trait", &[sides(die)?], rng, rolled)?.remove(0);
    let w = chains(given, "wild", &[6], rng, rolled)?.remove(0);
    Ok(TraitRoll {
        trait_die: t,
        wild_die: w,
        modifier,
    })
}

fn sw_id(
    ledger: &leechbook_core::fold::Ledger,
    name: &str,
) -> Result<leechbook_core::ids::CharacterId, CommandError> {
    sw(ledger, name).map(|c| c.id)
}

fn sw<'a>(
    ledger: &'a leechbook_core::fold::Ledger,
    name: &str,
) -> Result<&'a SwCharacter, CommandError> {
    match find_any(ledger, name)? {
        CharacterState::SavageWorlds(c) => Ok(c),
        other => Err(CommandError::user(format!(
            "{} is not a Savage Worlds character",
            other.name()
        ))),
    }
}

/// The die a roll of `kind` takes when none is given: its attribute's die in effect.
fn in_effect(
    ch: &SwCharacter,
    kind: SwRoll,
    now: leechbook_core::time::CampaignTime,
) -> Result<String, CommandError> {
    let a = match kind {
        SwRoll::SpiritRecovery => Attribute::Spirit,
        SwRoll::Incapacitation | SwRoll::BleedingOut => Attribute::Vigor,
    };
    ch.die(a, now)
        .map(|d| format!("d{}", d.now))
        .ok_or_else(|| {
            CommandError::user(format!(
                "which die is {}'s {}? give it (--trait d8), or record the sheet's dice once (leechbook sw attributes {} --{} d8)",
                ch.name,
                a.name(),
                super::shell_word(&ch.name),
                a.name().to_ascii_lowercase()
            ))
        })
}

/// Runs a Savage Worlds command.
pub fn cmd_sw(c: SwCommand, ctx: &mut Ctx) -> Result<(), CommandError> {
    let name = match &c {
        SwCommand::Damage(a) => a.name.clone(),
        SwCommand::Roll(a) => a.name.clone(),
        SwCommand::Stabilise(a) => a.name.clone(),
        SwCommand::Heal(a) => a.name.clone(),
        SwCommand::Attributes(a) => a.name.clone(),
    };
    let names = [name.as_str()];
    let (ledger, env, applied) = ctx.record_for(Some(&names), |ledger, ctx| {
        let mut rng = roller(ctx, 0);
        let mut rolled = Vec::new();
        let event = match &c {
            SwCommand::Damage(a) => {
                let id = sw_id(ledger, &a.name)?;
                let mut given = parse(a.dice.as_deref(), &["damage"])?;
                let mut dice = Vec::new();
                let mut modifier = 0i32;
                for term in a
                    .damage
                    .replace('-', "+-")
                    .split('+')
                    .map(str::trim)
                    .filter(|t| !t.is_empty())
                {
                    if term.starts_with(['d', 'D']) {
                        dice.push(sides(term)?);
                    } else if let Some((n, die)) = term.split_once(['d', 'D']) {
                        // `2d6`: two d6s, each acing on its own.
                        let n: usize = n.parse().ok().filter(|n| (1..=20).contains(n)).ok_or_else(|| {
                            CommandError::user(format!(
                                "--damage: '{term}' is not a number of dice (1-20) and a die"
                            ))
                        })?;
                        let s = sides(&format!("d{die}"))?;
                        dice.extend(std::iter::repeat_n(s, n));
                    } else {
                        modifier += term.parse::<i32>().map_err(|_| {
                            CommandError::user(format!(
                                "--damage: '{term}' is neither a die nor a number"
                            ))
                        })?;
                    }
                }
                if dice.is_empty() {
                    return Err(CommandError::user("--damage names no dice (like d8+d6)"));
                }
                let dice = chains(&mut given, "damage", &dice, &mut rng, &mut rolled)?;
                refuse_unused(&given)?;
                SwEvent::Damage {
                    character: id,
                    dice,
                    modifier,
                }
            }
            SwCommand::Roll(a) => {
                let ch = sw(ledger, &a.name)?;
                let id = ch.id;
                let mut given = parse(a.dice.as_deref(), &["trait", "wild", "injury", "sub"])?;
                let die = match &a.trait_die {
                    Some(d) => d.clone(),
                    None => in_effect(ch, a.kind, ledger.now)?,
                };
                let roll = trait_roll(&mut given, &die, a.modifier, &mut rng, &mut rolled)?;
                let event = match a.kind {
                    SwRoll::SpiritRecovery => SwEvent::SpiritRecovery {
                        character: id,
                        roll,
                    },
                    SwRoll::BleedingOut => {
                        // "At the start of his turn ... must roll again next turn": not before.
                        // (The fold keeps rolls recorded before due times were kept.)
                        let round = ledger.round_seconds();
                        if let Some(due) = ch.bleeding_due(round).filter(|d| *d > ledger.now) {
                            return Err(CommandError::user(format!(
                                "{}'s Bleeding Out roll is due at {due}, the start of the next turn (a round after the last); it is {}: move the clock first (leechbook advance 1r)",
                                ch.name, ledger.now
                            )));
                        }
                        SwEvent::BleedingOut {
                            character: id,
                            roll,
                        }
                    }
                    SwRoll::Incapacitation => {
                        let inj = chains(&mut given, "injury", &[6, 6], &mut rng, &mut rolled)?;
                        let sub = chains(&mut given, "sub", &[6], &mut rng, &mut rolled)?;
                        // The Injury Table's d6s do not ace: take the first face.
                        SwEvent::Incapacitation {
                            character: id,
                            roll,
                            injury: [inj[0].faces[0], inj[1].faces[0]],
                            sub: sub[0].faces[0],
                        }
                    }
                };
                refuse_unused(&given)?;
                event
            }
            SwCommand::Stabilise(a) => {
                let id = sw_id(ledger, &a.name)?;
                let mut given = parse(a.dice.as_deref(), &["trait", "wild"])?;
                let roll = trait_roll(&mut given, &a.trait_die, a.modifier, &mut rng, &mut rolled)?;
                refuse_unused(&given)?;
                SwEvent::Stabilise {
                    character: id,
                    healer: a.healer.clone(),
                    roll,
                }
            }
            SwCommand::Heal(a) => SwEvent::WoundsHealed {
                character: sw_id(ledger, &a.name)?,
                count: a.wounds,
            },
            SwCommand::Attributes(a) => {
                let die = |d: &Option<String>| d.as_deref().map(sides).transpose();
                SwEvent::Attributes {
                    character: sw_id(ledger, &a.name)?,
                    dice: SwAttributes {
                        agility: die(&a.agility)?,
                        smarts: die(&a.smarts)?,
                        spirit: die(&a.spirit)?,
                        strength: die(&a.strength)?,
                        vigor: die(&a.vigor)?,
                    },
                }
            }
        };
        if !rolled.is_empty() {
            ctx.note(format!("rolled by Leechbook: {}", rolled.join(",")));
        }
        Ok((Event::SavageWorlds(event), None))
    })?;
    ctx.say(narrate::event(&ledger, &env, &applied));
    Ok(())
}
