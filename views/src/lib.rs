//! The result values that commands print, as typed values any printer can use: `--json`
//! (each value carries a `"type"` tag and a schema version, serialised straight from it),
//! human text (the `render_*` functions) and, next, the players' page. Every printer of a
//! character reads the same value, built once from the folded ledger.
//!
//! One module per rules system ([`harnmaster`], [`savage`], [`wrath`], [`witch`]), each with
//! its character's view and its text printer; here, what every system shares (the roll a
//! character owes, [`OwedView`]) and the views of a character of any system.
//!
//! **Architecture invariant:** a view is built from the fold alone (the ledger and the
//! character), reads no store, no clock and no terminal, and holds every figure its
//! printers show: no printer computes a rule.

#![warn(missing_docs)]

pub mod board;
pub mod export;
pub mod harnmaster;
pub mod html;
pub mod marks;
pub mod narrate;
pub mod plot;
pub mod savage;
pub mod tables;
pub mod witch;
pub mod wrath;

pub use harnmaster::{
    character, immediate, owed, render_character, render_part, CharacterView, InjuryView, ZoneView,
};
pub use savage::{render_sw, sw_character, SwView};
pub use witch::{render_wi, wi_character, WiView};
pub use wrath::{render_wg, wg_character, WgView};

use leechbook_core::fold::{CharacterState, Ledger};
use leechbook_core::ids::{CharacterId, InjuryId};
use leechbook_core::owed::Owed;
use serde::Serialize;

/// The version of the JSON shapes of this crate's views.
pub const JSON_SCHEMA: u32 = 1;

/// One roll owed.
#[derive(Serialize, Clone, Debug)]
pub struct OwedView {
    /// The owed roll, typed (printed as its name: for HârnMaster the KIND `roll` takes,
    /// `shock-reroll`, `healing`, `morale` ...; for Savage Worlds the KIND of its trait
    /// roll; for Wrath & Glory and Witch Iron a label of the roll owed).
    #[serde(rename = "kind", serialize_with = "owed_kind")]
    pub roll: Owed,
    /// Who owes it, by id.
    #[serde(skip)]
    pub character_id: CharacterId,
    /// The injury it is for, by id.
    #[serde(skip)]
    pub injury_id: Option<InjuryId>,
    /// Who owes it.
    pub character: String,
    /// What the roll is for: the injury's id, or the character's name for rolls about the
    /// whole patient (Extended Shock, coma, blood regeneration, shock rolls).
    pub target: String,
    /// The injury it is for, if one.
    pub injury: Option<String>,
    /// Where that injury is, as a person names it (`left forearm`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub place: Option<String>,
    /// When it falls due (null: as soon as the GM calls it).
    pub due_at: Option<String>,
    /// The same, as a campaign time (what `due` sorts by).
    #[serde(skip)]
    pub due: Option<leechbook_core::time::CampaignTime>,
    /// Whether it is due at the campaign clock's time.
    pub due_now: bool,
    /// Whether it may be recorded now: due, or one the GM may call before its moment (an
    /// INC Shock Reroll, a first stun recovery test).
    #[serde(skip)]
    pub recordable_now: bool,
    /// The EML the roll is made against, bounded 5..95 as every d100 test is (null where the
    /// GM supplies it); `eml_parts` keep the unbounded terms.
    pub eml: Option<i32>,
    /// How the EML was made.
    pub eml_parts: Vec<String>,
    /// A decision for the GM or a healer (`blood-stoppage`, `treatment`), not a roll.
    pub decision: bool,
    /// An automatic failure: record the outcome, roll nothing.
    pub automatic: bool,
    /// A note for the GM.
    pub note: &'static str,
}

impl OwedView {
    /// Its name (see [`Owed::kind`]).
    pub fn kind(&self) -> &'static str {
        self.roll.kind()
    }
}

fn owed_kind<S: serde::Serializer>(o: &Owed, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(o.kind())
}

/// Returns any character's view as JSON, by its system.
pub fn view(ledger: &Ledger, c: &CharacterState) -> serde_json::Value {
    match c {
        CharacterState::HarnMaster(h) => {
            serde_json::to_value(character(ledger, h)).unwrap_or(serde_json::Value::Null)
        }
        CharacterState::SavageWorlds(s) => {
            serde_json::to_value(sw_character(ledger, s)).unwrap_or(serde_json::Value::Null)
        }
        CharacterState::WrathGlory(w) => {
            serde_json::to_value(wg_character(ledger, w)).unwrap_or(serde_json::Value::Null)
        }
        CharacterState::WitchIron(w) => {
            serde_json::to_value(wi_character(ledger, w)).unwrap_or(serde_json::Value::Null)
        }
    }
}

/// Any character as `show --json` prints it, serialised straight from its typed view (the
/// view as a `serde_json::Value` first cost a third of an as-of query for a character with
/// two thousand injuries). Keys in each object are sorted, as they always were.
pub fn view_json(ledger: &Ledger, c: &CharacterState) -> Result<String, serde_json::Error> {
    match c {
        CharacterState::HarnMaster(h) => serde_json::to_string_pretty(&character(ledger, h)),
        CharacterState::SavageWorlds(s) => serde_json::to_string_pretty(&sw_character(ledger, s)),
        CharacterState::WrathGlory(w) => serde_json::to_string_pretty(&wg_character(ledger, w)),
        CharacterState::WitchIron(w) => serde_json::to_string_pretty(&wi_character(ledger, w)),
    }
}

/// Renders any character for a person.
pub fn render_any(ledger: &Ledger, c: &CharacterState) -> String {
    match c {
        CharacterState::HarnMaster(h) => render_character(&character(ledger, h)),
        CharacterState::SavageWorlds(s) => render_sw(&sw_character(ledger, s)),
        CharacterState::WrathGlory(w) => render_wg(&wg_character(ledger, w)),
        CharacterState::WitchIron(w) => render_wi(&wi_character(ledger, w)),
    }
}

/// Lists what any character owes.
pub fn owed_any(ledger: &Ledger, c: &CharacterState) -> Vec<OwedView> {
    match c {
        CharacterState::HarnMaster(h) => owed(ledger, h),
        CharacterState::SavageWorlds(s) => sw_character(ledger, s).owed,
        CharacterState::WrathGlory(w) => wrath::owed(w),
        CharacterState::WitchIron(w) => witch::owed(ledger, w),
    }
}

/// `due`'s refusal: on a device that is not a GM's, a GM-only character's record stops
/// where the GM hid them, and what they owe is the GM's to follow.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0} is GM-only: this device's record of them stops where the GM hid them, and what they owe is the GM's to follow")]
pub struct OwedHidden(pub String);

/// What is owed, as `due` lists it: `only` one character's rolls, or everyone's in the
/// story (a character set aside is asked for by name only), in the order they fall due (a
/// roll the GM calls at will counts as due now; the characters' order among rolls due
/// together). `gm`: whether the device reading is a GM's. On any other, a GM-only
/// character's record stops at its hide: what it owed then is the GM's to follow, never
/// listed as owed now, and asked for by name it is refused.
pub fn owed_list(
    ledger: &Ledger,
    only: Option<&CharacterState>,
    gm: bool,
) -> Result<Vec<OwedView>, OwedHidden> {
    let shown = |c: &CharacterState| gm || !ledger.is_secret(c.id());
    let mut all: Vec<OwedView> = match only {
        Some(c) if !shown(c) => return Err(OwedHidden(c.name().to_string())),
        Some(c) => owed_any(ledger, c),
        None => ledger
            .characters
            .iter()
            .filter(|c| ledger.standing_of(c.id()).in_story() && shown(c))
            .flat_map(|c| owed_any(ledger, c))
            .collect(),
    };
    all.sort_by_key(|o| o.due.unwrap_or(ledger.now));
    Ok(all)
}

/// One owed roll on a board's line, what matters first: who, what, its EML and when, and
/// where (the EML's terms and the note are for the selected roll's whole line).
pub fn render_owed_short(o: &OwedView) -> String {
    let mut s = format!("{}: {}", o.character, o.kind());
    if let Some(eml) = o.eml {
        s.push_str(&format!(" EML{eml}"));
    }
    match &o.due_at {
        Some(d) if !o.due_now => s.push_str(&format!(", {d}")),
        _ if o.due_now => s.push_str(", now"),
        _ => {}
    }
    if let Some(p) = &o.place {
        s.push_str(&format!(" ({p})"));
    }
    s
}

/// Renders one owed roll.
pub fn render_owed(o: &OwedView) -> String {
    let mut s = o.kind().to_string();
    if let Some(eml) = o.eml {
        s.push_str(&format!(" at EML{eml} ({})", o.eml_parts.join(" ")));
    }
    if o.decision {
        s.push_str(" (a healer's decision)");
    }
    match &o.due_at {
        Some(d) if !o.due_now => s.push_str(&format!(", due {d}")),
        Some(_) => s.push_str(", due now"),
        None => {}
    }
    // The wound by its place where the view knows it (issue 41: no hex where a person reads).
    match (&o.place, &o.injury) {
        (Some(p), _) => s.push_str(&format!(" for the {p}")),
        (None, Some(i)) => s.push_str(&format!(" for injury {}", &i[i.len().saturating_sub(8)..])),
        (None, None) => {}
    }
    if !o.note.is_empty() {
        s.push_str(&format!(" [{}]", o.note));
    }
    s
}
