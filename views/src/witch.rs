//! A Witch Iron character as `show` prints it, what it owes, and its text printer.

use crate::{OwedView, JSON_SCHEMA};
use leechbook_core::fold::Ledger;
use leechbook_core::owed::{Owed, WiRoll};
use serde::Serialize;
use std::fmt::Write;

pub(crate) fn owed(ledger: &Ledger, w: &leechbook_core::witch::WiCharacter) -> Vec<OwedView> {
    use leechbook_core::witch::Condition;
    let round = ledger.round_seconds();
    if w.death.is_some() {
        return vec![];
    }
    let owe = |roll: WiRoll, part: String, note: &'static str| OwedView {
        roll: Owed::WitchIron(roll),
        character_id: w.id,
        injury_id: None,
        character: w.name.clone(),
        target: w.name.clone(),
        injury: None,
        place: None,
        due_at: None,
        due: None,
        due_now: true,
        recordable_now: true,
        eml: None,
        eml_parts: vec![part],
        decision: false,
        automatic: false,
        note,
    };
    let mut out = Vec::new();
    for (c, kind, change) in [
        (Condition::Corruption, WiRoll::Corruption, "Mutation"),
        (Condition::Stress, WiRoll::Stress, "Madness"),
    ] {
        let n = w.rating(c, ledger.now, round);
        if n >= 3 {
            out.push(owe(
                kind,
                format!(
                    "{} {n}: a Hardship or Steel Quarrel vs {n} Hits, or {change}",
                    c.word()
                ),
                "three stacks call a Quarrel",
            ));
        }
    }
    let rating = w.hardship(ledger.now, round);
    if rating > 0 {
        out.push(owe(
            WiRoll::EndOfRound,
            format!("Aflame + Bleed + Poison {rating}"),
            "a d6 at the end of each round; at or under the rating, a Hardship Quarrel against it",
        ));
    }
    out
}

/// A Witch Iron condition as `show` prints it.
#[derive(Serialize, Clone, Debug)]
pub struct WiConditionView {
    /// The rating now.
    pub rating: i32,
    /// Trauma's location (null for other conditions).
    pub location: Option<String>,
}

/// A Witch Iron injury as `show` prints it.
#[derive(Serialize, Clone, Debug)]
pub struct WiInjuryView {
    /// When.
    pub at: String,
    /// The marked effects that wait for their Healing or Surgery.
    pub awaiting: Vec<String>,
    /// The care recorded for it.
    pub cared: Vec<&'static str>,
    /// Its effects as the table prints them (marks kept).
    pub effects: String,
    /// The location (with its side).
    pub location: String,
    /// The injury's name.
    pub name: String,
    /// The Net Damage.
    pub net_damage: i32,
    /// The care its cell requires (`healing`, `surgery`).
    pub requires: Option<String>,
}

/// What of a Witch Iron sheet `show` prints.
#[derive(Serialize, Clone, Debug)]
pub struct WiSheetView {
    /// Resilience Bonus.
    pub rb: i32,
}

/// A Witch Iron character as `show` prints it (fields in the order the JSON has them).
#[derive(Serialize, Clone, Debug)]
pub struct WiView {
    /// The campaign clock.
    pub campaign_time: String,
    /// The Check penalties its conditions inflict now.
    pub check_penalties: WiChecksView,
    /// The conditions held, by name (`Trauma (pelvis)` per location).
    pub conditions: std::collections::BTreeMap<String, WiConditionView>,
    /// Dead.
    pub dead: bool,
    /// Why and when.
    pub death: Option<String>,
    /// Id.
    pub id: String,
    /// Injuries.
    pub injuries: Vec<WiInjuryView>,
    /// Lasting losses (and marked effects until their care).
    pub lost: Vec<String>,
    /// Name.
    pub name: String,
    /// Rolls owed.
    pub owed: Vec<OwedView>,
    /// The JSON schema version.
    pub schema_version: u32,
    /// The sheet.
    pub sheet: WiSheetView,
    /// Always `witch-iron`.
    pub system: &'static str,
    /// Always `character`.
    #[serde(rename = "type")]
    pub ty: &'static str,
}

/// A Witch Iron character's Check penalties, in percent (negative: a penalty).
#[derive(Serialize, Clone, Debug)]
pub struct WiChecksView {
    /// On every Check (Pain, Prone).
    pub all: i32,
    /// Each term of `all`: `Pain 1: -10%`.
    pub terms: Vec<String>,
    /// More on sight-based Checks (Blind).
    pub sight: i32,
    /// More on hearing-based Checks (Deaf).
    pub hearing: i32,
    /// More on Checks involving a location (Trauma), by location.
    pub locations: std::collections::BTreeMap<String, i32>,
    /// What foes' Checks against the character gain (Prone).
    pub opponents_bonus: i32,
    /// All of it in a line.
    pub line: String,
}

/// Builds a Witch Iron character's view.
pub fn wi_character(ledger: &Ledger, w: &leechbook_core::witch::WiCharacter) -> WiView {
    let round = ledger.round_seconds();
    use leechbook_core::witch::Condition;
    let mut conditions = std::collections::BTreeMap::new();
    for c in Condition::ALL
        .into_iter()
        .filter(|c| *c != Condition::Trauma)
    {
        let rating = w.rating(c, ledger.now, round);
        if rating > 0 {
            conditions.insert(
                c.word().to_string(),
                WiConditionView {
                    rating,
                    location: None,
                },
            );
        }
    }
    // Trauma is one condition per location: "Trauma (pelvis)".
    for (loc, rating) in w.traumas(ledger.now) {
        let key = if loc.is_empty() {
            "Trauma".to_string()
        } else {
            format!("Trauma ({loc})")
        };
        conditions.insert(
            key,
            WiConditionView {
                rating,
                location: (!loc.is_empty()).then_some(loc),
            },
        );
    }
    WiView {
        ty: "character",
        schema_version: JSON_SCHEMA,
        id: w.id.to_string(),
        name: w.name.clone(),
        system: "witch-iron",
        campaign_time: ledger.now.to_string(),
        conditions,
        injuries: w
            .injuries
            .iter()
            .map(|i| WiInjuryView {
                location: i.location.clone(),
                net_damage: i.net_damage,
                name: i.cell.name.clone(),
                effects: i.cell.effects.clone(),
                requires: i.cell.requires.clone(),
                at: i.at.to_string(),
                cared: i.care.iter().map(|c| c.word()).collect(),
                awaiting: i
                    .awaiting()
                    .iter()
                    .map(|(e, k)| format!("{e} ({})", k.word()))
                    .collect(),
            })
            .collect(),
        lost: w.losses(),
        check_penalties: {
            let p = w.check_penalties(ledger.now, round);
            WiChecksView {
                all: p.total(),
                terms: p.all.iter().map(|(t, n)| format!("{t}: {n}%")).collect(),
                sight: p.sight,
                hearing: p.hearing,
                locations: p.locations.iter().cloned().collect(),
                opponents_bonus: p.opponents,
                line: checks(&w.name, &p),
            }
        },
        sheet: WiSheetView { rb: w.sheet.rb },
        dead: w.death.is_some(),
        death: w.death.as_ref().map(|(why, at)| format!("{why} ({at})")),
        owed: owed(ledger, w),
    }
}

/// Renders a Witch Iron character.
pub fn render_wi(v: &WiView) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} (Witch Iron) at {}", v.name, v.campaign_time);
    if let Some(d) = &v.death {
        let _ = writeln!(out, "  DEAD: {d}");
    }
    let conds: Vec<String> = v
        .conditions
        .iter()
        .map(|(k, c)| format!("{k} {}", c.rating))
        .collect();
    if !conds.is_empty() {
        let _ = writeln!(out, "  conditions: {}", conds.join(", "));
        let _ = writeln!(out, "  {}", v.check_penalties.line);
    }
    for i in &v.injuries {
        // What its marks still wait for, and the care already given.
        let mut care = Vec::new();
        if !i.awaiting.is_empty() {
            care.push(format!("awaiting: {}", i.awaiting.join(", ")));
        }
        if !i.cared.is_empty() {
            care.push(format!("given: {}", i.cared.join(", ")));
        }
        let care = if care.is_empty() {
            String::new()
        } else {
            format!(" [{}]", care.join("; "))
        };
        let _ = writeln!(
            out,
            "  {} ({}): {}, {}{care}",
            i.location, i.net_damage, i.name, i.effects,
        );
    }
    out
}

/// A character's Check penalties in one line: `Gerd's Checks -30% (Pain 1 -10%, Prone -20%)`,
/// then what sight, hearing and locations take more, and what foes gain.
pub fn checks(name: &str, p: &leechbook_core::witch::CheckPenalties) -> String {
    let mut s = if p.all.is_empty() {
        format!("{name}'s Checks: no penalty")
    } else {
        let terms: Vec<String> = p.all.iter().map(|(t, n)| format!("{t} {n}%")).collect();
        format!("{name}'s Checks {}% ({})", p.total(), terms.join(", "))
    };
    if p.sight != 0 {
        s.push_str(&format!("; sight {}% more (Blind)", p.sight));
    }
    if p.hearing != 0 {
        s.push_str(&format!("; hearing {}% more (Deaf)", p.hearing));
    }
    for (loc, n) in &p.locations {
        if loc.is_empty() {
            s.push_str(&format!(
                "; involving its (unnamed) location {n}% more (Trauma)"
            ));
        } else {
            s.push_str(&format!("; involving the {loc} {n}% more (Trauma)"));
        }
    }
    if p.opponents != 0 {
        s.push_str(&format!("; foes +{}% against them (Prone)", p.opponents));
    }
    s
}
