//! The Healing Sequence, steps 1-8 (rules text pages 178-182): blood stoppage and blood loss,
//! Extended Shock, coma, treatment, healing rolls, blood regeneration, infection and
//! impairment; and the grim wound's daily Shock Roll and the Serious-injury aggravation option.
//!
//! Every roll is checked against what is owed and when (`check_*`, read-only) and then
//! applied (`apply_*`, infallible), so the fold stays atomic. A roll the GM *forces* skips the
//! due-time checks (not the existence checks) and is recorded as such.
//!
//! ## Readings of the text (decisions, pinned by tests)
//! - **Step 1.** Blood loss rolls fall due five minutes after the injury and every five
//!   minutes after. Each BP checks a box of the SHOCK STATE table (1 STN, 2 INC, 3 UNC, 4 KIA),
//!   combined with the current state as in Injury step 4 (INC while INC becomes UNC). The
//!   blood-loss state blocks shock rerolls until all bleeding stops; then STN clears and INC or
//!   UNC owes a Shock Reroll (unless in Extended Shock).
//! - **Step 2.** Extended Shock course rolls fall due every four hours from its onset, at
//!   HB x HR - fatigue + the single highest healer bonus. The worked example's "EML50 (HB13 x
//!   HR5 = 15 fatigue)" reads as 65 - 15 = 50, and its "EML55" adds the healer's +5.
//! - **Step 3.** A coma that ends while Extended Shock lasts leaves the character UNC; the
//!   weariness fatigue is the coma's days rounded down to a multiple of 5.
//! - **Step 5.** Treatment needs the patient's bleeding stopped and Extended Shock ended.
//!   The delay penalty counts whole days since the injury. The Grievous HR cap picks the row
//!   of the capped HR, and that row's marks apply.
//! - **Schedules.** Every periodic roll keeps the calendar it started on: the next falls due
//!   one period after the last one *fell due*, not after it was recorded, so a late roll
//!   does not shift the campaign's healing days ("every five days after incurring it").
//! - **Step 6.** An untreated injury heals at its current severity's CF HR. When an infection
//!   ends, every injury's next Healing Roll falls due five days later (the example's day 21).
//! - **Step 7.** Infection course rolls are HB x infection HR + healer bonus; the text names no
//!   fatigue penalty for them, so none applies.
//! - **Fatigue.** The text names Personal Fatigue accrued by moving while INC (step 2) and the
//!   weariness a coma leaves (step 3), and says characters "do not recover from fatigue while
//!   suffering Extended Shock" but "recover from fatigue normally while in a coma" once out of
//!   it. The normal rate of recovery is on pages the text lacks: as for other such rules, the
//!   GM records fatigue gained and recovered (`leechbook fatigue`), and the fold refuses a
//!   recovery during Extended Shock and a recovery of more than is held. Weakness fatigue
//!   (anaemia, infection) goes only with its cause (blood regeneration, the infection's end).
//! - **Step 8.** Permanent impairment accrues 5 per 20 days from the injury until it first
//!   reaches Minor; it then stays, and only the higher of permanent and indefinite applies.

use super::body::{BodyTable, ZoneKind};
use super::injury::Context;
use super::shock::RollError;
use super::state::*;
use crate::ids::{CharacterId, InjuryId};
use crate::test_roll::{d100_test, SuccessLevel, TestResult};
use crate::time::{CampaignTime, DAY, HOUR, MINUTE};
use serde::{Deserialize, Serialize};

mod apply;
mod events;
mod impairment;
mod rolls;
mod tables;
mod treatment;

/// What a treatment leaves on an injury: kept with the character's state.
pub use super::state::{Cell, CellResult, Treated};
pub use apply::*;
pub use events::*;
pub use impairment::*;
pub use rolls::*;
pub use tables::*;
pub use treatment::*;

/// One term of an EML, for showing how it was made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmlPart {
    /// What the term is (`HB13 x HR4`, `fatigue`).
    pub label: String,
    /// Its value.
    pub value: i32,
}

pub(crate) fn part(label: impl Into<String>, value: i32) -> EmlPart {
    EmlPart {
        label: label.into(),
        value,
    }
}

/// Sums EML parts.
pub fn eml_of(parts: &[EmlPart]) -> i32 {
    parts.iter().map(|p| p.value).sum()
}

// Helpers the checks and the application share.

pub(crate) fn not_owed(ch: &HmCharacter, what: &'static str, why: impl Into<String>) -> RollError {
    RollError::NotOwed {
        who: ch.name.clone(),
        what,
        why: why.into(),
    }
}

pub(crate) fn check_due(
    ch: &HmCharacter,
    what: &'static str,
    due: CampaignTime,
    now: CampaignTime,
    forced: bool,
) -> Result<(), RollError> {
    if !forced && now < due {
        return Err(RollError::NotDue {
            who: ch.name.clone(),
            what,
            due,
            now,
        });
    }
    Ok(())
}

/// An archived injury is found as healed (its code and id, all a refusal of it prints), so
/// that every roll refuses it as it refuses any healed injury.
pub(crate) fn injury<'a>(
    ch: &'a HmCharacter,
    id: Option<InjuryId>,
    what: &'static str,
) -> Result<std::borrow::Cow<'a, Injury>, RollError> {
    let id = id.ok_or_else(|| RollError::Roll(format!("a {what} is for one injury: name it")))?;
    if let Some(i) = ch.injury(id) {
        return Ok(std::borrow::Cow::Borrowed(i));
    }
    ch.filed(id)
        .map(|f| std::borrow::Cow::Owned(f.as_healed()))
        .ok_or_else(|| not_owed(ch, what, format!("they have no injury {}", id.short())))
}

/// Returns the Healing Rate an injury heals at: its treatment's (untreated: its severity's CF
/// cell), less aggravation, at least 1. None when the treatment healed it.
pub fn healing_rate(inj: &Injury, table: &TreatmentTable) -> i32 {
    if let Some(hr) = inj.heal.rate_override {
        return hr;
    }
    let cell = match &inj.heal.treatment {
        Some(t) => t.cell,
        None => table.column(inj).cells[0],
    };
    let hr = match cell.result {
        CellResult::Hr(hr) => i32::from(hr),
        CellResult::Heal => 6,
        CellResult::Amputated(_) => 1,
    };
    (hr - inj.heal.aggravation).max(1)
}

/// Returns the marks that apply to an injury now (its treatment's cell, or CF if untreated).
pub fn marks(inj: &Injury, table: &TreatmentTable) -> Cell {
    match &inj.heal.treatment {
        Some(t) => t.cell,
        None => table.column(inj).cells[0],
    }
}

/// Returns true if the injury is a grim wound: Grievous with a CF treatment (or untreated);
/// and always an area G4F or G5F fire injury, whatever its treatment ("Area injury treatment").
pub fn grim(inj: &Injury) -> bool {
    !inj.healed()
        && inj.severity() == Severity::Grievous
        && ((inj.area && inj.aspect == Aspect::Fire)
            || inj
                .heal
                .treatment
                .as_ref()
                .is_none_or(|t| t.level == SuccessLevel::CF))
}

pub(crate) fn shift(test: &TestResult) -> i32 {
    match test.level {
        SuccessLevel::CF => -2,
        SuccessLevel::F => -1,
        SuccessLevel::S => 1,
        SuccessLevel::CS => 2,
    }
}
