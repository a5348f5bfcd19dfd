//! `leechbook sw ...`: Savage Worlds' damage, Shaken recovery, Incapacitation, Bleeding Out,
//! stabilising and healing. Dice ace: give a die's faces as `6+6+2` (each ace and the roll
//! after it), several dice as `6+3/4`; any die not given is rolled (aces included).

use crate::ctx::Ctx;
use crate::dice::roller;
use crate::error::CommandError;
use clap::{Args, Subcommand, ValueEnum};
use leechbook_core::savage::{SwAttributes, SwCharacter, SwEvent};
use leechbook_core::Event;
use leechbook_ledger::owed::{self, Chains};
use leechbook_views::narrate;

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

impl SwRoll {
    /// The owed roll it records.
    pub fn roll(self) -> leechbook_core::owed::SwRoll {
        use leechbook_core::owed::SwRoll as R;
        match self {
            SwRoll::SpiritRecovery => R::SpiritRecovery,
            SwRoll::Incapacitation => R::Incapacitation,
            SwRoll::BleedingOut => R::BleedingOut,
        }
    }
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
    /// The healer: a Savage Worlds character of the campaign (their wound penalty applies,
    /// and one who is Shaken takes no action), or with --npc someone the campaign does not
    /// hold.
    #[arg(long)]
    pub healer: String,
    /// The healer is not a character of the campaign (an NPC): taken as named, unchecked.
    #[arg(long)]
    pub npc: bool,
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
fn parse(spec: Option<&str>, known: &[&str]) -> Result<Chains, CommandError> {
    let mut out = Chains::new();
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
    Ok(owed::savage_die(s)?)
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
    Ok(leechbook_ledger::lookup::savage(ledger, name)?)
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
    // A stabilisation reads its healer too.
    let mut names = vec![name.as_str()];
    if let SwCommand::Stabilise(a) = &c {
        names.push(a.healer.as_str());
    }
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
                        let n: usize =
                            n.parse()
                                .ok()
                                .filter(|n| (1..=20).contains(n))
                                .ok_or_else(|| {
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
                let dice = owed::chains(&mut given, "damage", &dice, &mut rng, &mut rolled)?;
                owed::refuse_unused(&given)?;
                SwEvent::Damage {
                    character: id,
                    dice,
                    modifier,
                }
            }
            SwCommand::Roll(a) => {
                let ch = sw(ledger, &a.name)?;
                let mut given = parse(a.dice.as_deref(), &["trait", "wild", "injury", "sub"])?;
                let die = a.trait_die.as_deref().map(sides).transpose()?;
                let event = owed::sw_roll(
                    ledger,
                    ch,
                    a.kind.roll(),
                    die,
                    a.modifier,
                    &mut given,
                    &mut rng,
                    &mut rolled,
                )?;
                owed::refuse_unread(&event, &given)?;
                event
            }
            SwCommand::Stabilise(a) => {
                let id = sw_id(ledger, &a.name)?;
                let penalty =
                    owed::healer_penalty(ledger, id, &a.healer, a.npc).map_err(|e| match e {
                        owed::RollError::Lookup(
                            l @ leechbook_ledger::lookup::Lookup::NoCharacter { .. },
                        ) => CommandError::from(l)
                            .hint("--npc for a healer the campaign does not hold"),
                        e => e.into(),
                    })?;
                if penalty != 0 {
                    ctx.note(format!(
                        "{}'s wound penalty {penalty} is on the roll (not to be given in --mod)",
                        a.healer
                    ));
                }
                let mut given = parse(a.dice.as_deref(), &["trait", "wild"])?;
                let roll = owed::trait_roll(
                    &mut given,
                    sides(&a.trait_die)?,
                    a.modifier + penalty,
                    &mut rng,
                    &mut rolled,
                )?;
                owed::refuse_unused(&given)?;
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
