//! The Healing Sequence, steps 1-8 (rules text pages 178-182): blood stoppage and blood loss,
//! Extended Shock, coma, treatment, healing rolls, blood regeneration, infection and
//! impairment; and the grim wound's daily Shock Roll and the Serious-injury aggravation option.
//!
//! Every roll is checked against what is owed and when (`check_*`, read-only) and then
//! applied (`apply_*`, infallible), so the fold stays atomic. A roll the GM *forces* skips the
//! due-time checks (not the existence checks) and is recorded as such.
//!
#![doc = include_str!("../readings/healing.md")]

use super::shock::RollError;
use super::state::{Aspect, HmCharacter, Injury, Severity};

use crate::ids::InjuryId;
use crate::test_roll::{SuccessLevel, TestResult};
use crate::time::CampaignTime;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

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
    pub label: Label,
    /// Its value.
    pub value: i32,
}

pub(crate) fn part(label: impl Into<Label>, value: i32) -> EmlPart {
    EmlPart {
        label: label.into(),
        value,
    }
}

/// What a term of an EML is, kept as its words and figures and written out only when it is
/// shown (`Strength ML12`, `HB13 x HR4`): a replay, which shows nothing, writes no figure
/// out (a healer's name is still joined to its words, once a treatment or stoppage).
/// It serializes as the text it reads (no payload, checkpoint or document holds one), and
/// two labels are equal when they read the same.
#[derive(Clone, Debug)]
pub enum Label {
    /// Words: `fatigue`, `Kale's earlier failed staunch`.
    Words(Cow<'static, str>),
    /// Words, a figure, words: `Strength ML` and 12 read `Strength ML12`; 3 and
    /// ` days' delay` read `3 days' delay`.
    Figure(Cow<'static, str>, i32, &'static str),
    /// Two terms multiplied, each words and a figure: `HB13 x HR4`, `END12 x 5`.
    Product((&'static str, i32), (&'static str, i32)),
}

impl Label {
    /// Words and a figure after them: `Shock ML` and 65 read `Shock ML65`.
    pub fn ml(words: impl Into<Cow<'static, str>>, figure: i32) -> Label {
        Label::Figure(words.into(), figure, "")
    }
}

impl std::fmt::Display for Label {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Label::Words(w) => f.write_str(w),
            Label::Figure(before, n, after) => write!(f, "{before}{n}{after}"),
            Label::Product((a, x), (b, y)) => write!(f, "{a}{x} x {b}{y}"),
        }
    }
}

impl PartialEq for Label {
    fn eq(&self, other: &Label) -> bool {
        match (self, other) {
            (Label::Words(a), Label::Words(b)) => a == b,
            _ => self.to_string() == other.to_string(),
        }
    }
}

impl Eq for Label {}

impl PartialEq<&str> for Label {
    fn eq(&self, other: &&str) -> bool {
        match self {
            Label::Words(w) => w == other,
            _ => self.to_string().as_str() == *other,
        }
    }
}

impl From<&'static str> for Label {
    fn from(words: &'static str) -> Label {
        Label::Words(Cow::Borrowed(words))
    }
}

impl From<String> for Label {
    fn from(words: String) -> Label {
        Label::Words(Cow::Owned(words))
    }
}

impl Serialize for Label {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Label::Words(w) => s.serialize_str(w),
            _ => s.collect_str(self),
        }
    }
}

impl<'de> Deserialize<'de> for Label {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Label, D::Error> {
        String::deserialize(d).map(Label::from)
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

#[cfg(test)]
mod label_tests {
    use super::{EmlPart, Label};
    use serde::de::{value::StrDeserializer, IntoDeserializer};
    use serde::Deserialize;
    use std::borrow::Cow;

    #[test]
    fn a_label_reads_as_the_words_it_was_made_of() {
        let cases = [
            (Label::ml("Strength ML", 12), "Strength ML12"),
            (Label::ml("Shock ML", -5), "Shock ML-5"),
            (Label::Product(("HB", 13), ("HR", 4)), "HB13 x HR4"),
            (Label::Product(("END", 12), ("", 5)), "END12 x 5"),
            (
                Label::Figure(Cow::Borrowed(""), 3, " days' delay"),
                "3 days' delay",
            ),
            (Label::from("fatigue"), "fatigue"),
            (
                Label::ml(format!("{} Physician ML", "Kale"), 60),
                "Kale Physician ML60",
            ),
        ];
        for (label, text) in cases {
            assert_eq!(label.to_string(), text);
            assert_eq!(label, text);
            // Equal to the same text however it is held: as read back from a file.
            let read = Label::deserialize::<StrDeserializer<'_, serde::de::value::Error>>(
                text.into_deserializer(),
            )
            .unwrap();
            assert!(matches!(read, Label::Words(_)));
            assert_eq!(read, label);
            assert_eq!(
                EmlPart { label, value: 1 },
                EmlPart {
                    label: read,
                    value: 1
                }
            );
        }
        assert_ne!(Label::ml("Shock ML", 65), Label::ml("Shock ML", 6));
        assert_ne!(Label::from("fatigue"), "Fatigue");
    }
}
