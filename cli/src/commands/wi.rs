//! `leechbook wi ...`: Witch Iron's Quarrels, injuries, the end-of-round Hardship, conditions
//! and the Arms & Legs table the GM supplies.

use crate::ctx::Ctx;
use crate::dice::{parse_dice, roller, Roller, TableDice};
use crate::error::CommandError;
use clap::{Args, Subcommand, ValueEnum};
use leechbook_core::dice::Die;
use leechbook_core::fold::Ledger;
use leechbook_core::ids::CharacterId;
use leechbook_core::witch::{
    net_hits, Care, Condition, PartTable, Strike, WiCharacter, WiDefence, WiEvent,
};
use leechbook_core::Event;
use leechbook_views::narrate;
use std::path::PathBuf;

/// Witch Iron commands.
#[derive(Subcommand, Debug)]
pub enum WiCommand {
    /// A melee or ranged Quarrel, and the injury it inflicts.
    Quarrel(QuarrelArgs),
    /// An injury outside a Quarrel (a fall, a trap), by Net Damage.
    Injure(InjureArgs),
    /// The end-of-round d6 against Aflame, Bleed and Poison (and the Hardship Quarrel).
    ///
    /// Leechbook's reading of the text: the d6 is compared with the three conditions'
    /// combined rating (Aflame 1 and Bleed 2 make 3); at or under it, a Hardship Quarrel
    /// follows, won at Net Hits +0 (Hardship Hits at least the rating).
    Round(RoundArgs),
    /// Gain, reduce or remove a condition.
    ///
    /// Leechbook's reading of the text: conditions of one name add their ratings (Bleed 1
    /// then Bleed 2 is Bleed 3), but Trauma, which is per location.
    Condition(ConditionArgs),
    /// Load the Arms & Legs table the GM supplies (fixtures/witch-iron/ shows the form).
    Table(TableArgs),
    /// Record the Healing (* effects) or Surgery (‡ effects) an injury awaits: its marked
    /// effects are removed.
    Treat(TreatArgs),
}

/// What is given.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum CareArg {
    /// Healing: removes the effects marked *.
    Healing,
    /// Surgery: removes the effects marked ‡.
    Surgery,
}

/// `wi treat`.
#[derive(Args, Debug)]
pub struct TreatArgs {
    /// Who.
    pub name: String,
    /// The injury's location, as `show` lists it (skull, right eye, pelvis).
    #[arg(long)]
    pub location: String,
    /// Healing or surgery.
    #[arg(long, value_enum)]
    pub care: CareArg,
    /// Who gave it, or how.
    #[arg(long, default_value = "the GM's ruling")]
    pub by: String,
}

/// The defence.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum DefenceArg {
    /// Melee: the loser of the Quarrel is injured.
    Melee,
    /// Light-Foot: a dodge.
    LightFoot,
}

/// `wi quarrel`.
#[derive(Args, Debug)]
pub struct QuarrelArgs {
    /// The attacker.
    pub attacker: String,
    /// The attack is the free attack a foe's disengaging gives (003 l.125), not the
    /// attacker's Action: taken even while Stun or Helpless prevents Actions.
    #[arg(long)]
    pub free_attack: bool,
    /// The defender.
    pub defender: String,
    /// The defence.
    #[arg(long, value_enum)]
    pub defence: DefenceArg,
    /// The attacker's Hits.
    #[arg(long, allow_negative_numbers = true)]
    pub attack_hits: i32,
    /// The defender's Hits.
    #[arg(long, allow_negative_numbers = true)]
    pub defence_hits: i32,
    /// The attacker charged (+2 Hits).
    #[arg(long)]
    pub charge: bool,
    /// The defender braced (+2 Hits; deals no damage).
    #[arg(long)]
    pub brace: bool,
    /// The defender gave ground (+2 Hits to Light-Foot).
    #[arg(long)]
    pub give_ground: bool,
    /// The attacker fumbled (falls Prone).
    #[arg(long)]
    pub attacker_fumble: bool,
    /// The defender fumbled (falls Prone).
    #[arg(long)]
    pub defender_fumble: bool,
    /// The part struck, as the defender chooses: head, torso, left arm, right leg, ...
    #[arg(long)]
    pub part: Option<String>,
    /// The striker's weapon damage.
    #[arg(long, default_value_t = 0)]
    pub damage: i32,
    /// The struck one's AV there.
    #[arg(long, default_value_t = 0)]
    pub av: i32,
    /// The struck one's Resilience Bonus (default: the RB on their sheet).
    #[arg(long, allow_negative_numbers = true)]
    pub rb: Option<i32>,
    /// A critical hit: +d6E to the injury.
    #[arg(long)]
    pub critical: bool,
    /// Battle wear: the striker clips their weapon for +1 Damage.
    #[arg(long)]
    pub clip_weapon: bool,
    /// Battle wear: the struck one dents their armour for +d6 AV (die `dent`).
    #[arg(long)]
    pub dent_armour: bool,
    /// Faces: units=N (the attack's units die, 0 is 10), critical=6/3.
    #[arg(long, value_name = "LIST")]
    pub dice: Option<String>,
}

/// `wi injure`.
#[derive(Args, Debug)]
pub struct InjureArgs {
    /// Who.
    pub name: String,
    /// The part.
    #[arg(long)]
    pub part: String,
    /// The Net Damage.
    #[arg(long, allow_negative_numbers = true)]
    pub net_damage: i32,
    /// Faces: units=N.
    #[arg(long, value_name = "LIST")]
    pub dice: Option<String>,
}

/// `wi round`.
#[derive(Args, Debug)]
pub struct RoundArgs {
    /// Who.
    pub name: String,
    /// The Hardship Quarrel's Hits, when the d6 calls for it.
    #[arg(long, allow_negative_numbers = true)]
    pub hardship_hits: Option<i32>,
    /// Faces: d6=N.
    #[arg(long, value_name = "LIST")]
    pub dice: Option<String>,
}

/// `wi condition`.
#[derive(Args, Debug)]
pub struct ConditionArgs {
    /// Who.
    pub name: String,
    /// The condition (bleed, pain, stun, ...).
    pub condition: String,
    /// Add this much to the rating (negative reduces).
    #[arg(long, allow_negative_numbers = true, conflicts_with = "remove")]
    pub add: Option<i32>,
    /// Remove it.
    #[arg(long)]
    pub remove: bool,
    /// How (bandages, an antidote, smelling salts ...).
    #[arg(long, default_value = "the GM's ruling")]
    pub by: String,
}

/// `wi table`.
#[derive(Args, Debug)]
pub struct TableArgs {
    /// The TOML file.
    #[arg(required_unless_present = "sample_arm")]
    pub file: Option<PathBuf>,
    /// Record the made-up sample of the Arms & Legs table's form that ships with Leechbook
    /// (fixtures/witch-iron/sample-arm.toml: NOT the book's rows, which the text cuts off).
    #[arg(long, conflicts_with = "file")]
    pub sample_arm: bool,
}

/// The made-up sample arm table (the form of the table the text cuts off).
const SAMPLE_ARM: &str = include_str!("../../../fixtures/witch-iron/sample-arm.toml");

/// The units die's 0 is read as 10.
fn units_zero_is_ten(given: &mut [leechbook_core::dice::RecordedDie]) {
    for d in given.iter_mut().filter(|d| d.name == "units") {
        for f in d.faces.iter_mut().filter(|f| **f == 0) {
            *f = 10;
        }
    }
}

fn wi_char<'a>(ledger: &'a Ledger, name: &str) -> Result<&'a WiCharacter, CommandError> {
    Ok(leechbook_ledger::lookup::witch(ledger, name)?)
}

fn wi_id(ledger: &Ledger, name: &str) -> Result<CharacterId, CommandError> {
    wi_char(ledger, name).map(|c| c.id)
}

/// The Quarrel a command records: its Hits as given, and the strike's dice (units, the
/// critical d6E, the dent) given or rolled.
fn quarrel(
    a: &QuarrelArgs,
    ledger: &Ledger,
    ctx: &mut Ctx,
    r: &mut Roller,
) -> Result<WiEvent, CommandError> {
    let (attacker, defender) = (wi_char(ledger, &a.attacker)?, wi_char(ledger, &a.defender)?);
    if let Some((c, n)) = attacker
        .action_prevented(ledger.now, ledger.round_seconds())
        .filter(|_| !a.free_attack)
    {
        return Err(CommandError::user(format!(
            "{} is {} {n}: attacking is an Action, and {} prevents Actions (003 l.179-184)",
            attacker.name,
            c.word(),
            c.word()
        )));
    }
    let defence = match a.defence {
        DefenceArg::Melee => WiDefence::Melee,
        DefenceArg::LightFoot => WiDefence::LightFoot,
    };
    // The struck one (the defender at Net Hits +0 or more, else the attacker) has
    // the RB of their sheet unless --rb gives one.
    let net = net_hits(
        a.attack_hits,
        a.defence_hits,
        a.charge,
        a.brace,
        a.give_ground,
        defence,
    );
    let struck = if net >= 0 { defender } else { attacker };
    let mut given = parse_dice(a.dice.as_deref(), &["units", "critical", "dent"])?;
    units_zero_is_ten(&mut given);
    let given_critical = given
        .iter()
        .position(|d| d.name == "critical")
        .map(|i| given.remove(i).faces);
    let mut dice = TableDice::new("the quarrel", given, r);
    let strike = match &a.part {
        None => None,
        Some(part) => {
            let units = dice.one("units", Die::D10)? as u8;
            let critical = if let Some(faces) = given_critical.clone() {
                faces
            } else if a.critical {
                // The d6E: roll on while it shows 6 (when not given).
                let mut faces = Vec::new();
                loop {
                    let f = dice.one("critical", Die::D6)?;
                    faces.push(f);
                    if f != 6 || faces.len() > 10 {
                        break;
                    }
                }
                faces
            } else {
                Vec::new()
            };
            {
                let dent_armour = if a.dent_armour {
                    Some(dice.one("dent", Die::D6)?)
                } else {
                    None
                };
                Some(Strike {
                    part: part.clone(),
                    units,
                    weapon_damage: a.damage,
                    av: a.av,
                    rb: a.rb.unwrap_or(struck.sheet.rb),
                    critical,
                    clip_weapon: a.clip_weapon,
                    dent_armour,
                })
            }
        }
    };
    if given_critical.is_some() && (a.part.is_none() || !a.critical) {
        return Err(CommandError::user(
            "the quarrel did not need the given critical die (a critical is rolled with --part and --critical)",
        ));
    }
    dice.refuse_unused()?;
    if !dice.rolled.is_empty() {
        ctx.note(format!("rolled by Leechbook: {}", dice.rolled.join(",")));
    }
    // The Hits given come from Checks the conditions penalise: say each side's.
    let round = ledger.round_seconds();
    let (pa, pd) = (
        attacker.check_penalties(ledger.now, round),
        defender.check_penalties(ledger.now, round),
    );
    if !(pa.is_empty() && pd.is_empty()) {
        ctx.note(format!(
            "the Hits given are taken as rolled at: {}; {}",
            leechbook_views::witch::checks(&attacker.name, &pa),
            leechbook_views::witch::checks(&defender.name, &pd)
        ));
    }
    Ok(WiEvent::Quarrel {
        attacker: attacker.id,
        defender: defender.id,
        defence,
        attack_hits: a.attack_hits,
        defence_hits: a.defence_hits,
        charge: a.charge,
        brace: a.brace,
        give_ground: a.give_ground,
        attacker_fumble: a.attacker_fumble,
        defender_fumble: a.defender_fumble,
        strike,
    })
}

/// The end of a character's round: its d6 given or rolled, and the Hardship Hits when a
/// Hardship Quarrel follows.
fn end_of_round(
    a: &RoundArgs,
    ledger: &Ledger,
    ctx: &mut Ctx,
    r: &mut Roller,
) -> Result<WiEvent, CommandError> {
    let given = parse_dice(a.dice.as_deref(), &["d6"])?;
    let mut dice = TableDice::new("the roll", given, r);
    let who = wi_char(ledger, &a.name)?;
    let event = leechbook_ledger::owed::end_of_round(ledger, who, a.hardship_hits, &mut dice)?;
    let WiEvent::EndOfRound {
        d6, hardship_hits, ..
    } = &event
    else {
        return Err(CommandError::internal(
            "the end of a round recorded another event",
        ));
    };
    if !dice.rolled.is_empty() {
        ctx.note(format!("rolled by Leechbook: d6={d6}"));
    }
    let round = ledger.round_seconds();
    if let (Some(h), None) = (a.hardship_hits, hardship_hits) {
        let rating = who.hardship(ledger.now, round);
        ctx.note(format!("the d6 {d6} is over the rating {rating}: no Hardship Quarrel, so --hardship-hits {h} is not used"));
    }
    let penalties = who.check_penalties(ledger.now, round);
    if hardship_hits.is_some() && !penalties.is_empty() {
        ctx.note(format!(
            "the Hardship Hits given are taken as rolled at: {}",
            leechbook_views::witch::checks(&who.name, &penalties)
        ));
    }
    Ok(event)
}

/// Runs a Witch Iron command.
pub fn cmd_wi(c: WiCommand, ctx: &mut Ctx) -> Result<(), CommandError> {
    let names: Vec<&str> = match &c {
        WiCommand::Quarrel(a) => vec![a.attacker.as_str(), a.defender.as_str()],
        WiCommand::Injure(a) => vec![a.name.as_str()],
        WiCommand::Round(a) => vec![a.name.as_str()],
        WiCommand::Condition(a) => vec![a.name.as_str()],
        WiCommand::Treat(a) => vec![a.name.as_str()],
        WiCommand::Table(_) => Vec::new(),
    };
    let (ledger, env, applied) = ctx.record_for(Some(&names), |ledger, ctx| {
        let mut r = roller(ctx, 0);
        let event = match &c {
            WiCommand::Quarrel(a) => quarrel(a, ledger, ctx, &mut r)?,
            WiCommand::Injure(a) => {
                let mut given = parse_dice(a.dice.as_deref(), &["units"])?;
                units_zero_is_ten(&mut given);
                let mut dice = TableDice::new("the roll", given, &mut r);
                let units = dice.one("units", Die::D10)? as u8;
                WiEvent::Injure { character: wi_id(ledger, &a.name)?, part: a.part.clone(), units, net_damage: a.net_damage }
            }
            WiCommand::Round(a) => end_of_round(a, ledger, ctx, &mut r)?,
            WiCommand::Condition(a) => {
                let condition = Condition::parse(&a.condition).ok_or_else(|| {
                    CommandError::user(format!("'{}' is not a condition (aflame, bleed, poison, blind, deaf, pain, corruption, stress, fatigue, entangle, helpless, stun, prone, trauma)", a.condition))
                })?;
                if a.add.is_none() && !a.remove {
                    return Err(CommandError::user("say --add N or --remove"));
                }
                WiEvent::Condition { character: wi_id(ledger, &a.name)?, condition, delta: if a.remove { None } else { a.add }, by: a.by.clone() }
            }
            WiCommand::Table(a) => {
                let (text, shown) = super::file_or_shipped(a.file.as_deref(), SAMPLE_ARM, "the sample arm table")?;
                let t: PartTable = toml::from_str(&text).map_err(|e| {
                    CommandError::user(format!("{shown} is not a Witch Iron table: {}", e.message()))
                })?;
                if t.part != "arm" && t.part != "leg" {
                    return Err(CommandError::user("the tables to load are the arm's and the leg's (the text prints the head's and the torso's)"));
                }
                t.validate().map_err(|e| CommandError::user(format!("{shown}: {e}")))?;
                WiEvent::TableDefined(t)
            }
            WiCommand::Treat(a) => WiEvent::Cared {
                character: wi_id(ledger, &a.name)?,
                location: a.location.clone(),
                care: match a.care {
                    CareArg::Healing => Care::Healing,
                    CareArg::Surgery => Care::Surgery,
                },
                by: a.by.clone(),
            },
        };
        Ok((Event::WitchIron(event), None))
    })?;
    ctx.say(narrate::event(&ledger, &env, &applied));
    Ok(())
}
