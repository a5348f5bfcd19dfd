//! `leechbook roll NAME KIND [INJURY]`: record a roll the character owes.

use super::find;
use crate::dice::{parse_dice, rolled_faces, roller, TableDice};
use crate::error::CommandError;
use crate::narrate;
use crate::Ctx;
use clap::{Args, ValueEnum};
use leechbook_core::dice::Die;
use leechbook_core::fold::{CharacterState, Ledger};
use leechbook_core::harnmaster::healing::{SeqRoll, SeqRollKind};
use leechbook_core::harnmaster::shock::{GmRoll, GmRollKind, ShockRoll};
use leechbook_core::harnmaster::state::{HmCharacter, MishapKind};
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::ids::InjuryId;
use leechbook_core::Event;
use leechbook_core::HmLedger;

/// The kinds of owed roll, as `due --json` names them.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum RollKind {
    /// The Shock Reroll of an INC or UNC character (Shock ML - 20).
    ShockReroll,
    /// The Shock test that ends STN.
    StunRecovery,
    /// A Morale roll (the GM gives --ml; page 162).
    Morale,
    /// A Fumble roll (the GM gives --ml; page 161).
    Fumble,
    /// A Stumble roll (the GM gives --ml; page 161).
    Stumble,
    /// A Blood Loss Advance Roll (Strength), per bleeder every five minutes.
    BloodLoss,
    /// An injury Healing Roll (HB x HR), every five days.
    Healing,
    /// The d3 of the random healing period option.
    HealingPeriod,
    /// A blood regeneration test (Endurance), every ten days.
    BloodRegeneration,
    /// An infection course roll, daily.
    Infection,
    /// An Extended Shock course roll, every four hours.
    ExtendedShock,
    /// A coma course roll, every ten days.
    Coma,
    /// A grim wound's daily Shock Roll.
    GrimShock,
    /// The aggravation option's Shock roll (after a CF impaired test, or moving).
    Aggravation,
}

impl RollKind {
    /// Returns the Healing Sequence kind, for the periodic rolls.
    pub fn seq(self) -> Option<SeqRollKind> {
        Some(match self {
            RollKind::BloodLoss => SeqRollKind::BloodLoss,
            RollKind::Healing => SeqRollKind::Healing,
            RollKind::HealingPeriod => SeqRollKind::HealingPeriod,
            RollKind::BloodRegeneration => SeqRollKind::BloodRegeneration,
            RollKind::Infection => SeqRollKind::Infection,
            RollKind::ExtendedShock => SeqRollKind::ExtendedShock,
            RollKind::Coma => SeqRollKind::Coma,
            RollKind::GrimShock => SeqRollKind::GrimShock,
            RollKind::Aggravation => SeqRollKind::Aggravation,
            _ => return None,
        })
    }
}

/// Record an owed roll. The die is named `roll` in --dice (and `period`, the d3 of the next
/// healing period, with the random period option); if not given, Leechbook rolls it.
#[derive(Args, Debug)]
pub struct RollArgs {
    /// The character.
    pub name: String,
    /// What roll.
    #[arg(value_enum)]
    pub kind: RollKind,
    /// The injury it is for (its id or short id), where several owe one.
    pub injury: Option<String>,
    /// The face rolled at the table: roll=N (00 is 100).
    #[arg(long, value_name = "LIST")]
    pub dice: Option<String>,
    /// The ML tested, for rolls whose rules are on pages the text lacks (Morale, mishaps).
    #[arg(long)]
    pub ml: Option<i32>,
    /// What the GM ruled happened (Morale and mishap results).
    #[arg(long)]
    pub outcome: Option<String>,
    /// Coma: the patient is not in a restful, sheltered place (-20).
    #[arg(long)]
    pub unsheltered: bool,
    /// Record it although it is not due (a GM ruling, shown as forced).
    #[arg(long)]
    pub force: bool,
}

/// Finds an injury of `ch` by full id or unique short id.
pub fn find_injury(ch: &HmCharacter, text: &str) -> Result<InjuryId, CommandError> {
    let t = text.trim().to_ascii_lowercase().replace('-', "");
    // Healed injuries in the archive are named too: the rules refuse them as healed.
    let hits: Vec<InjuryId> = ch
        .injuries
        .iter()
        .map(|i| i.id)
        .chain(ch.archived.iter().map(|f| f.id))
        .filter(|id| {
            let full = id.0.simple().to_string();
            full == t || (t.len() >= 4 && full.ends_with(&t))
        })
        .collect();
    match hits.as_slice() {
        [one] => Ok(*one),
        [] => Err(CommandError::user(format!(
            "{} has no injury '{text}' (see `leechbook show {}`)",
            ch.name, ch.name
        ))),
        _ => Err(CommandError::user(format!(
            "injury '{text}' matches several of {}'s injuries: give more of its id",
            ch.name
        ))),
    }
}

/// Finds the injury named, or, when none is named, the only injury that `fits`.
pub fn injury_or_only(
    ch: &HmCharacter,
    named: Option<&str>,
    what: &str,
    fits: impl Fn(&leechbook_core::harnmaster::state::Injury) -> bool,
) -> Result<InjuryId, CommandError> {
    if let Some(n) = named {
        return find_injury(ch, n);
    }
    let hits: Vec<InjuryId> = ch
        .injuries
        .iter()
        .filter(|i| fits(i))
        .map(|i| i.id)
        .collect();
    match hits.as_slice() {
        [one] => Ok(*one),
        [] => Err(CommandError::user(format!(
            "{} has no injury to {what}",
            ch.name
        ))),
        many => Err(CommandError::user(format!(
            "{} has several injuries to {what}: name one ({})",
            ch.name,
            many.iter()
                .map(|i| i.short())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// The one injury that owes a roll of `kind`, or an error naming the candidates.
fn only_injury(
    ledger: &Ledger,
    ch: &HmCharacter,
    kind: SeqRollKind,
) -> Result<InjuryId, CommandError> {
    let owing: Vec<InjuryId> =
        leechbook_core::harnmaster::agenda::agenda(ch, ledger.treatment_table(), ledger.options())
            .into_iter()
            .filter(|d| d.seq == Some(kind))
            .filter_map(|d| d.injury)
            .collect();
    match owing.as_slice() {
        [one] => Ok(*one),
        [] => Err(CommandError::user(format!(
            "{} owes no {} roll",
            ch.name,
            kind.name()
        ))),
        many => Err(CommandError::user(format!(
            "several of {}'s injuries owe a {} roll: name one ({})",
            ch.name,
            kind.name(),
            many.iter()
                .map(|i| i.short())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

fn hm<'a>(ledger: &'a Ledger, name: &str) -> Result<&'a HmCharacter, CommandError> {
    find(ledger, name)
}

/// Records the roll and narrates it.
pub fn cmd_roll(a: RollArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let given = parse_dice(a.dice.as_deref(), &["roll", "period"])?;
    let names = [a.name.as_str()];
    let (ledger, env, applied) = ctx.record_for(Some(&names), |ledger, ctx| {
        let ch = hm(ledger, &a.name)?;
        let mut injury = a.injury.as_deref().map(|i| find_injury(ch, i)).transpose()?;
        let mut r = roller(ctx, 0);
        let mut dice = TableDice::new("the roll", given.clone(), &mut r);
        if a.force && a.kind.seq().is_none() {
            return Err(CommandError::user(
                "--force is for the Healing Sequence's rolls; shock and Morale rolls follow the state",
            ));
        }
        let event = match a.kind {
            kind if kind.seq().is_some() => {
                let seq = kind.seq().unwrap_or(SeqRollKind::Healing);
                if seq.per_injury() && injury.is_none() {
                    injury = Some(only_injury(ledger, ch, seq)?);
                }
                let roll = if seq == SeqRollKind::HealingPeriod {
                    dice.one("roll", Die::new(3).map_err(|e| CommandError::internal(e.to_string()))?)?
                } else {
                    dice.one("roll", Die::D100)?
                };
                let period = if seq == SeqRollKind::Healing && ledger.options().random_healing_period {
                    Some(dice.one("period", Die::new(3).map_err(|e| CommandError::internal(e.to_string()))?)?)
                } else {
                    None
                };
                HmEvent::SeqRoll(SeqRoll {
                    character: ch.id,
                    kind: seq,
                    injury,
                    roll,
                    period,
                    sheltered: !a.unsheltered,
                    forced: a.force,
                })
            }
            RollKind::ShockReroll | RollKind::StunRecovery => {
                if a.ml.is_some() || a.outcome.is_some() {
                    return Err(CommandError::user(
                        "a shock roll's EML comes from the sheet: give no --ml or --outcome",
                    ));
                }
                let roll = ShockRoll {
                    character: ch.id,
                    roll: dice.one("roll", Die::D100)?,
                };
                if a.kind == RollKind::ShockReroll {
                    HmEvent::ShockReroll(roll)
                } else {
                    HmEvent::StunRecovery(roll)
                }
            }
            kind => {
                let kind = match kind {
                    RollKind::Morale => GmRollKind::Morale,
                    RollKind::Fumble => GmRollKind::Mishap(MishapKind::Fumble),
                    _ => GmRollKind::Mishap(MishapKind::Stumble),
                };
                let automatic = leechbook_core::harnmaster::shock::owed_gm_roll(ch, kind, injury)
                    .is_some_and(|(_, _, automatic)| automatic);
                let roll = if automatic || a.ml.is_none() {
                    if !given.is_empty() && automatic {
                        return Err(CommandError::user(format!(
                            "{}'s {} is an automatic failure: give no dice, only --outcome",
                            ch.name,
                            kind.word()
                        )));
                    }
                    None
                } else {
                    Some(dice.one("roll", Die::D100)?)
                };
                HmEvent::GmRoll(GmRoll {
                    character: ch.id,
                    kind,
                    injury,
                    ml: a.ml,
                    roll,
                    outcome: a.outcome.clone(),
                })
            }
        };
        dice.refuse_unused()?;
        if !dice.rolled.is_empty() {
            let faces: Vec<String> = rolled_faces(&dice.recorded, &dice.rolled).collect();
            ctx.note(format!("rolled by Leechbook: {}", faces.join(",")));
        }
        Ok((Event::HarnMaster(event), None))
    })?;
    let line = narrate::event(&ledger, &env, &applied);
    ctx.say(line);
    if let Some(CharacterState::HarnMaster(h)) = ledger.character_named(&a.name) {
        for o in crate::views::immediate(&ledger, h) {
            ctx.say(format!("  owes: {}", crate::views::render_owed(&o)));
        }
    }
    Ok(())
}
