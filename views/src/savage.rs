//! A Savage Worlds character as `show` prints it, what it owes, and its text printer.

use crate::{OwedView, JSON_SCHEMA};
use leechbook_core::fold::Ledger;
use leechbook_core::owed::{Owed, SwRoll};
use serde::Serialize;
use std::fmt::Write;

/// A Savage Worlds character as `show` prints it.
#[derive(Serialize, Clone, Debug)]
pub struct SwView {
    /// Always `character`.
    #[serde(rename = "type")]
    pub ty: &'static str,
    /// The JSON schema version.
    pub schema_version: u32,
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Always `savage-worlds`.
    pub system: &'static str,
    /// The campaign clock.
    pub campaign_time: String,
    /// Toughness.
    pub toughness: i32,
    /// A Wild Card.
    pub wild_card: bool,
    /// Shaken.
    pub shaken: bool,
    /// Wounds.
    pub wounds: u8,
    /// The wound penalty to trait rolls.
    pub wound_penalty: i32,
    /// Pace after the wound penalty.
    pub pace: i32,
    /// Incapacitated.
    pub incapacitated: bool,
    /// Bleeding Out.
    pub bleeding_out: bool,
    /// Dead.
    pub dead: bool,
    /// Why and when.
    pub death: Option<String>,
    /// Injury Table results, with whether each is in effect now.
    pub injuries: Vec<SwInjuryView>,
    /// Rolls owed.
    pub owed: Vec<OwedView>,
    /// The attribute dice recorded (`sw attributes`), each as in effect now.
    pub attributes: Vec<SwAttributeView>,
}

/// An attribute die of a Savage Worlds character: recorded, and in effect now.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct SwAttributeView {
    /// Agility, Smarts, Spirit, Strength or Vigor.
    pub name: &'static str,
    /// The die on the sheet (`d8`).
    pub recorded: String,
    /// The die in effect now (`d6`: an injury lowers it a type).
    pub now: String,
    /// The injuries in effect that lower it.
    pub lowered_by: Vec<String>,
}

/// One Injury Table result of a Savage Worlds character, as `show` prints it. Its fields
/// are declared in the order of their JSON keys, which have always been sorted.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct SwInjuryView {
    /// Whether it is in effect now.
    pub active: bool,
    /// Its effect.
    pub effect: String,
    /// How long it lasts, in words.
    pub lasting: String,
    /// The 2d6 total.
    pub roll: u8,
    /// What it is (`Guts: Battered`).
    pub what: String,
}

/// Builds a Savage Worlds character's view.
pub fn sw_character(ledger: &Ledger, c: &leechbook_core::savage::SwCharacter) -> SwView {
    use leechbook_core::savage::Lasting;
    let now = ledger.now;
    let active: Vec<&leechbook_core::savage::SwInjury> = c.active_injuries(now).collect();
    let owe = |roll: SwRoll, note: &'static str| OwedView {
        roll: Owed::SavageWorlds(roll),
        character_id: c.id,
        injury_id: None,
        character: c.name.clone(),
        target: c.name.clone(),
        injury: None,
        place: None,
        due_at: None,
        due: None,
        due_now: true,
        recordable_now: true,
        eml: None,
        eml_parts: vec![format!("{} wound penalty", c.wound_penalty())],
        decision: false,
        automatic: false,
        note,
    };
    let mut owed = Vec::new();
    if c.death.is_none() {
        if c.shaken {
            owed.push(owe(
                SwRoll::SpiritRecovery,
                "a Spirit roll at the start of the turn (a free action)",
            ));
        }
        if c.vigor_owed {
            owed.push(owe(
                SwRoll::Incapacitation,
                "a Vigor roll, then the Injury Table",
            ));
        }
        if c.bleeding_out {
            let mut o = owe(SwRoll::BleedingOut, "Vigor at the start of each turn, or each minute out of combat; another's Healing roll stabilises");
            if let Some(due) = c.bleeding_due(ledger.round_seconds()) {
                o.due_at = Some(due.to_string());
                o.due = Some(due);
                o.due_now = due <= now;
                o.recordable_now = o.due_now;
            }
            owed.push(o);
        }
    }
    SwView {
        ty: "character",
        schema_version: JSON_SCHEMA,
        id: c.id.to_string(),
        name: c.name.clone(),
        system: "savage-worlds",
        campaign_time: now.to_string(),
        toughness: c.sheet.toughness,
        wild_card: c.sheet.wild_card,
        shaken: c.shaken,
        wounds: c.wounds,
        wound_penalty: c.wound_penalty(),
        pace: c.pace(),
        incapacitated: c.incapacitated,
        bleeding_out: c.bleeding_out,
        dead: c.death.is_some(),
        death: c.death.as_ref().map(|(w, at)| format!("{w} ({at})")),
        injuries: c
            .injuries
            .iter()
            .map(|i| SwInjuryView {
                active: active.iter().any(|a| std::ptr::eq(*a, i)),
                effect: i.effect.clone(),
                lasting: match i.lasting {
                    Lasting::Permanent => "permanent".to_string(),
                    Lasting::UntilHealed => "until all wounds heal".to_string(),
                    Lasting::Day(t) => format!("until {t} or all wounds heal"),
                },
                roll: i.roll,
                what: i.what.clone(),
            })
            .collect(),
        owed,
        attributes: leechbook_core::savage::Attribute::ALL
            .iter()
            .filter_map(|&a| {
                let d = c.die(a, now)?;
                Some(SwAttributeView {
                    name: a.name(),
                    recorded: format!("d{}", d.recorded),
                    now: format!("d{}", d.now),
                    lowered_by: d.lowered_by,
                })
            })
            .collect(),
    }
}

/// Renders a Savage Worlds character.
pub fn render_sw(v: &SwView) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} (Savage Worlds, Toughness {}, {}) at {}",
        v.name,
        v.toughness,
        if v.wild_card { "Wild Card" } else { "Extra" },
        v.campaign_time
    );
    if let Some(d) = &v.death {
        let _ = writeln!(out, "  DEAD: {d}");
    }
    let mut state = vec![format!("{} wound(s)", v.wounds)];
    if v.shaken {
        state.push("Shaken".into());
    }
    if v.incapacitated {
        state.push("Incapacitated".into());
    }
    if v.bleeding_out {
        state.push("Bleeding Out".into());
    }
    let _ = writeln!(
        out,
        "  {}; {} to trait rolls, pace {}",
        state.join(", "),
        v.wound_penalty,
        v.pace
    );
    for i in &v.injuries {
        let _ = writeln!(
            out,
            "  injury {}: {}: {} ({}{})",
            i.roll,
            i.what,
            i.effect,
            i.lasting,
            if i.active { "" } else { ", over" }
        );
    }
    if !v.attributes.is_empty() {
        let dice: Vec<String> = v
            .attributes
            .iter()
            .map(|a| {
                if a.lowered_by.is_empty() {
                    format!("{} {}", a.name, a.now)
                } else {
                    format!(
                        "{} {} ({}, lowered by {})",
                        a.name,
                        a.now,
                        a.recorded,
                        a.lowered_by.join(", ")
                    )
                }
            })
            .collect();
        let _ = writeln!(out, "  {}", dice.join(", "));
    }
    for o in &v.owed {
        let due = o
            .due_at
            .as_deref()
            .map(|t| format!(" due {t}"))
            .unwrap_or_default();
        let _ = writeln!(out, "  owes: {}{due} [{}]", o.kind(), o.note);
    }
    out
}
