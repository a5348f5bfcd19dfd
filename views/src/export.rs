//! A campaign or one character as versioned JSON (its schema:
//! `fixtures/schemas/export-v1.schema.json`): each character's sheet, which an import brings
//! into another campaign, and its state as `show --json` prints it.

use crate::JSON_SCHEMA;
use leechbook_core::fold::{CharacterState, Ledger};
use leechbook_core::SheetKind;
use serde::{Deserialize, Serialize};

/// The version of the export format (its schema is `export-v<N>.schema.json`).
pub const EXPORT_VERSION: u32 = 1;

/// What a character's exported state holds beyond its sheet, which an import (a new
/// character from its sheet) cannot bring: one phrase each, from the `show --json` view of
/// whichever system.
pub fn beyond_the_sheet(state: &serde_json::Value) -> Vec<String> {
    use serde_json::Value;
    let mut out = Vec::new();
    let num = |k: &str| state.get(k).and_then(Value::as_i64).unwrap_or(0);
    let yes = |k: &str| state.get(k).and_then(Value::as_bool).unwrap_or(false);
    if yes("dead") {
        out.push("death".to_string());
    }
    let open = state
        .get("injuries")
        .and_then(Value::as_array)
        .map_or(0, |a| {
            a.iter()
                .filter(|i| i.get("healed").and_then(Value::as_bool) != Some(true))
                .count()
        });
    if open > 0 {
        out.push(format!("{open} open wound(s)"));
    }
    for (k, what) in [
        ("blood_loss", "blood loss"),
        ("wounds", "Wounds"),
        ("shock", "Shock"),
        ("fatigue", "fatigue"),
    ] {
        if num(k) > 0 {
            out.push(format!("{what} {}", num(k)));
        }
    }
    if let Some(s) = state.get("shock_state").and_then(Value::as_str) {
        if s != "none" {
            out.push(format!("Shock State {s}"));
        }
    }
    for k in ["shaken", "incapacitated", "bleeding_out", "dying"] {
        if yes(k) {
            out.push(k.replace('_', " "));
        }
    }
    for k in [
        "conditions",
        "memorable_injuries",
        "traumatic_injuries",
        "lost",
    ] {
        let n = match state.get(k) {
            Some(Value::Array(a)) => a.len(),
            Some(Value::Object(o)) => o.len(),
            _ => 0,
        };
        if n > 0 {
            out.push(format!("{n} {}", k.replace('_', " ")));
        }
    }
    out
}

/// The campaign an export comes from.
#[derive(Serialize, Deserialize, Debug)]
pub struct ExportedCampaign {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its rules system.
    pub system: String,
    /// Seconds per combat round.
    pub round_seconds: i64,
    /// The campaign clock when exported.
    pub campaign_time: String,
}

/// One character in an export: its sheet (what `import` adds) and its state (`show --json`).
#[derive(Serialize, Deserialize, Debug)]
pub struct ExportedCharacter {
    /// Its name.
    pub name: String,
    /// Its system.
    pub system: String,
    /// Its sheet.
    pub sheet: SheetKind,
    /// Its state, as `show --json` prints it.
    pub state: serde_json::Value,
    /// What a HârnMaster character carries and can do (weapons, armour, combat skills), which
    /// an import records again when the campaign's arms define what it names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gear: Option<leechbook_core::harnmaster::state::Gear>,
}

/// An export.
#[derive(Serialize, Deserialize, Debug)]
pub struct Export {
    /// Always `leechbook-export`.
    #[serde(rename = "type")]
    pub ty: String,
    /// The export format's version.
    pub export_version: u32,
    /// The JSON views' schema version.
    pub schema_version: u32,
    /// The campaign.
    pub campaign: ExportedCampaign,
    /// Its characters (or the one asked for).
    pub characters: Vec<ExportedCharacter>,
}

impl Export {
    /// The export of `chosen`, characters of the campaign `ledger` holds (None when it
    /// holds no campaign yet).
    pub fn of(ledger: &Ledger, chosen: &[&CharacterState]) -> Option<Export> {
        let campaign = ledger.campaign.as_ref()?;
        Some(Export {
            ty: "leechbook-export".into(),
            export_version: EXPORT_VERSION,
            schema_version: JSON_SCHEMA,
            campaign: ExportedCampaign {
                id: campaign.id.to_string(),
                name: campaign.name.clone(),
                system: campaign.system.name().into(),
                round_seconds: campaign.round_seconds,
                campaign_time: ledger.now.to_string(),
            },
            characters: chosen
                .iter()
                .map(|c| ExportedCharacter {
                    name: c.name().to_string(),
                    system: c.sheet().system().name().into(),
                    sheet: c.sheet(),
                    state: crate::view(ledger, c),
                    gear: c
                        .hm()
                        .map(|h| h.gear.clone())
                        .filter(|g| *g != Default::default()),
                })
                .collect(),
        })
    }
}
