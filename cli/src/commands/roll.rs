//! `leechbook roll NAME KIND [INJURY]`: record a roll the character owes.

use super::find;
use crate::ctx::Ctx;
use crate::dice::{parse_dice, roller, TableDice};
use crate::error::CommandError;
use clap::{Args, ValueEnum};
use leechbook_core::fold::CharacterState;
use leechbook_core::harnmaster::healing::SeqRollKind;
use leechbook_core::harnmaster::shock::GmRollKind;
use leechbook_core::harnmaster::state::{HmCharacter, MishapKind};
use leechbook_core::ids::InjuryId;
use leechbook_core::owed::HmRoll;
use leechbook_core::Event;
use leechbook_ledger::owed::{self, HmRollOptions};
use leechbook_views::narrate;

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
    /// The owed roll it records.
    pub fn roll(self) -> HmRoll {
        match (self, self.seq()) {
            (_, Some(seq)) => HmRoll::Seq(seq),
            (RollKind::ShockReroll, _) => HmRoll::ShockReroll,
            (RollKind::StunRecovery, _) => HmRoll::StunRecovery,
            (RollKind::Morale, _) => HmRoll::Gm(GmRollKind::Morale),
            (RollKind::Fumble, _) => HmRoll::Gm(GmRollKind::Mishap(MishapKind::Fumble)),
            _ => HmRoll::Gm(GmRollKind::Mishap(MishapKind::Stumble)),
        }
    }

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
    Ok(leechbook_ledger::lookup::injury(ch, text)?)
}

/// Finds the injury named, or, when none is named, the only injury that `fits`.
pub fn injury_or_only(
    ch: &HmCharacter,
    named: Option<&str>,
    what: &str,
    fits: impl Fn(&leechbook_core::harnmaster::state::Injury) -> bool,
) -> Result<InjuryId, CommandError> {
    Ok(leechbook_ledger::lookup::injury_or_only(
        ch, named, what, fits,
    )?)
}

/// Records the roll and narrates it.
pub fn cmd_roll(a: RollArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let given = parse_dice(a.dice.as_deref(), &["roll", "period"])?;
    let names = [a.name.as_str()];
    let options = HmRollOptions {
        ml: a.ml,
        outcome: a.outcome.clone(),
        unsheltered: a.unsheltered,
        force: a.force,
    };
    let (ledger, env, applied) = ctx.record_for(Some(&names), |ledger, ctx| {
        let ch = find(ledger, &a.name)?;
        let injury = a
            .injury
            .as_deref()
            .map(|i| find_injury(ch, i))
            .transpose()?;
        let mut r = roller(ctx, 0);
        let mut dice = TableDice::new("the roll", given.clone(), &mut r);
        let event = owed::hm_roll(ledger, ch, a.kind.roll(), injury, &options, &mut dice)?;
        dice.refuse_unused()?;
        if !dice.rolled.is_empty() {
            let faces: Vec<String> = owed::rolled_faces(&dice.recorded, &dice.rolled).collect();
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
