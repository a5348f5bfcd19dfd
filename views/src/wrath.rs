//! A Wrath & Glory character as `show` prints it, what it owes, and its text printer.

use crate::{OwedView, JSON_SCHEMA};
use leechbook_core::fold::Ledger;
use leechbook_core::owed::{Owed, WgRoll};
use leechbook_core::wrath::BothLost;
use serde::Serialize;
use std::fmt::Write;

pub(crate) fn owed(w: &leechbook_core::wrath::WgCharacter) -> Vec<OwedView> {
    if w.death.is_some() || !w.dying {
        return vec![];
    }
    vec![OwedView {
        roll: Owed::WrathGlory(WgRoll::Dying),
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
        eml_parts: vec![format!("{} Wrath Dice in every pool", w.wrath_dice())],
        decision: false,
        automatic: false,
        note: "any Wound is a Traumatic Injury; a complication on a Wrath Die too; recovering a Wound ends it",
    }]
}

/// What of a Wrath & Glory sheet `show` prints.
#[derive(Serialize, Clone, Debug)]
pub struct WgSheetView {
    /// Max Shock.
    pub max_shock: i32,
    /// Rank.
    pub rank: i32,
    /// Resilience.
    pub resilience: i32,
    /// Tier.
    pub tier: i32,
    /// Toughness.
    pub toughness: i32,
}

/// A Memorable Injury.
#[derive(Serialize, Clone, Debug)]
pub struct WgMemorableView {
    /// Escalated.
    pub escalated: bool,
    /// Its name.
    pub name: String,
}

/// A Traumatic Injury.
#[derive(Serialize, Clone, Debug)]
pub struct WgTraumaticView {
    /// Its effect.
    pub effect: String,
    /// The part.
    pub part: String,
    /// The side (null for a part without one).
    pub side: Option<String>,
    /// A replacement mitigates its penalties entirely.
    pub replaced: bool,
}

/// A Wrath & Glory character as `show` prints it (fields in the order the JSON has them).
#[derive(Serialize, Clone, Debug)]
pub struct WgView {
    /// The campaign clock.
    pub campaign_time: String,
    /// Dead.
    pub dead: bool,
    /// Why and when.
    pub death: Option<String>,
    /// Dying.
    pub dying: bool,
    /// +1 DN while Wounded.
    pub dn_penalty: i32,
    /// Exhausted.
    pub exhausted: bool,
    /// Id.
    pub id: String,
    /// Max Wounds.
    pub max_wounds: i32,
    /// Memorable Injuries.
    pub memorable_injuries: Vec<WgMemorableView>,
    /// Name.
    pub name: String,
    /// Rolls owed.
    pub owed: Vec<OwedView>,
    /// Prone (while Dying).
    pub prone: bool,
    /// The JSON schema version.
    pub schema_version: u32,
    /// The sheet.
    pub sheet: WgSheetView,
    /// Shock.
    pub shock: i32,
    /// Always `wrath-glory`.
    pub system: &'static str,
    /// Traumatic Injuries.
    pub traumatic_injuries: Vec<WgTraumaticView>,
    /// Always `character`.
    #[serde(rename = "type")]
    pub ty: &'static str,
    /// Wounded.
    pub wounded: bool,
    /// Wounds.
    pub wounds: i32,
    /// Wrath Dice in every pool.
    pub wrath_dice: usize,
    /// Wrath points.
    pub wrath: i32,
    /// Parts lost on both sides, and what that means.
    pub both_lost: Vec<&'static str>,
    /// Rest counts from here (the last Wound, strenuous hour or rest); null: never exerted.
    pub rest_from: Option<String>,
}

/// Builds a Wrath & Glory character's view.
pub fn wg_character(ledger: &Ledger, w: &leechbook_core::wrath::WgCharacter) -> WgView {
    WgView {
        ty: "character",
        schema_version: JSON_SCHEMA,
        id: w.id.to_string(),
        name: w.name.clone(),
        system: "wrath-glory",
        campaign_time: ledger.now.to_string(),
        sheet: WgSheetView {
            tier: w.sheet.tier,
            toughness: w.sheet.toughness,
            resilience: w.sheet.resilience,
            max_shock: w.sheet.max_shock,
            rank: w.sheet.rank,
        },
        wounds: w.wounds,
        max_wounds: w.max_wounds(),
        shock: w.shock,
        wounded: w.wounded(),
        dn_penalty: i32::from(w.wounded()),
        exhausted: w.exhausted(),
        dying: w.dying,
        prone: w.dying,
        wrath_dice: w.wrath_dice(),
        memorable_injuries: w
            .memorable
            .iter()
            .map(|m| WgMemorableView {
                name: m.name.clone(),
                escalated: m.escalated,
            })
            .collect(),
        traumatic_injuries: w
            .traumatic
            .iter()
            .map(|t| WgTraumaticView {
                part: t.part.clone(),
                side: t.side.clone(),
                effect: t.effect.clone(),
                replaced: t.replaced,
            })
            .collect(),
        wrath: w.wrath,
        both_lost: w.both_lost().into_iter().map(both_lost).collect(),
        rest_from: w.rest_from.map(|t| t.to_string()),
        dead: w.death.is_some(),
        death: w.death.as_ref().map(|(why, at)| format!("{why} ({at})")),
        owed: owed(w),
    }
}

/// Renders a Wrath & Glory character.
pub fn render_wg(v: &WgView) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} (Wrath & Glory, Tier {}) at {}",
        v.name, v.sheet.tier, v.campaign_time
    );
    if let Some(d) = &v.death {
        let _ = writeln!(out, "  DEAD: {d}");
    }
    let mut s = format!(
        "  {} of {} Wounds, {} Shock",
        v.wounds, v.max_wounds, v.shock
    );
    for (flag, word) in [
        (v.wounded, "Wounded (+1 DN)"),
        (v.exhausted, "Exhausted"),
        (v.dying, "Dying, prone"),
    ] {
        if flag {
            s.push_str(&format!(", {word}"));
        }
    }
    let _ = writeln!(out, "{s}");
    let _ = writeln!(
        out,
        "  Wrath {}{}",
        v.wrath,
        v.rest_from
            .as_deref()
            .map(|t| format!("; rest counts from {t}"))
            .unwrap_or_default()
    );
    for m in &v.memorable_injuries {
        let _ = writeln!(out, "  memorable injury: {}", m.name);
    }
    for t in &v.traumatic_injuries {
        let _ = writeln!(
            out,
            "  traumatic injury: {}{}: {}{}",
            t.side
                .as_deref()
                .map(|s| format!("{s} "))
                .unwrap_or_default(),
            t.part,
            t.effect,
            if t.replaced {
                " (replaced: mitigated)"
            } else {
                ""
            }
        );
    }
    for b in &v.both_lost {
        let _ = writeln!(out, "  {b}");
    }
    out
}

/// What losing a part on both sides means (rules text 002, Traumatic Injury).
pub fn both_lost(b: BothLost) -> &'static str {
    match b {
        BothLost::Hands => "both hands lost: unable to hold any weapons or similar gear",
        BothLost::Legs => "both legs lost: unable to walk, Run or Sprint; may only Crawl",
        BothLost::Eyes => "both eyes lost: Blinded",
    }
}
