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

/// Why an import of characters from an export is refused before anything is written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportRefused {
    /// A character asked for that the export does not hold.
    #[error("the export holds no character named '{0}'")]
    NoSuchCharacter(String),
    /// The campaign records no campaign yet.
    #[error("the ledger holds no campaign yet")]
    NoCampaign,
    /// A character of another rules system than the campaign plays.
    #[error("{name} is a {system} character; this campaign plays {campaign}")]
    OtherSystem {
        /// Its name.
        name: String,
        /// Its system.
        system: &'static str,
        /// The campaign's.
        campaign: &'static str,
    },
    /// A name the campaign has already.
    #[error("the campaign already has a character named '{0}'")]
    NameTaken(String),
    /// Equipment the campaign's arms do not define (and the sheet alone was not asked for).
    #[error("{name} carries {}, which this campaign's arms do not define", .missing.join(", "))]
    UnknownArms {
        /// The character.
        name: String,
        /// What it carries that is not defined.
        missing: Vec<String>,
    },
    /// A state beyond the sheet (and the sheet alone was not asked for).
    #[error("{name} carries what an import cannot bring ({})", .more.join(", "))]
    BeyondTheSheet {
        /// The character.
        name: String,
        /// What it carries beyond its sheet.
        more: Vec<String>,
    },
}

/// What an import of an export into a campaign does: the characters it adds (each from its
/// sheet), the equipment each carries that the campaign's arms define, and what is left
/// behind (with the sheet alone asked for).
#[derive(Debug)]
pub struct ImportPlan<'a> {
    /// The characters to add, in the export's order.
    pub chosen: Vec<&'a ExportedCharacter>,
    /// The equipment to record for each, by name.
    pub equip: Vec<(String, leechbook_core::harnmaster::state::Gear)>,
    /// What stays behind, a line each (`NAME: what`).
    pub behind: Vec<String>,
}

impl Export {
    /// Refuses a character asked for that this export does not hold (checked before the
    /// campaign is read).
    pub fn wanted(&self, wanted: &[String]) -> Result<(), ImportRefused> {
        use leechbook_core::name::same_name;
        match wanted
            .iter()
            .find(|w| !self.characters.iter().any(|c| same_name(&c.name, w)))
        {
            Some(want) => Err(ImportRefused::NoSuchCharacter(want.clone())),
            None => Ok(()),
        }
    }

    /// The import of this export's characters (`wanted`: those named, or every one) into
    /// the campaign `ledger` holds, every check made before anything is written: the names
    /// are the export's and free in the campaign, the system is the campaign's, and what
    /// only the sheet cannot carry is refused (or, with `sheet_only`, left behind).
    pub fn plan<'a>(
        &'a self,
        ledger: &Ledger,
        wanted: &[String],
        sheet_only: bool,
    ) -> Result<ImportPlan<'a>, ImportRefused> {
        use leechbook_core::name::same_name;
        self.wanted(wanted)?;
        let chosen: Vec<&ExportedCharacter> = self
            .characters
            .iter()
            .filter(|c| wanted.is_empty() || wanted.iter().any(|w| same_name(&c.name, w)))
            .collect();
        let system = ledger
            .campaign
            .as_ref()
            .ok_or(ImportRefused::NoCampaign)?
            .system;
        for c in &chosen {
            if c.sheet.system() != system {
                return Err(ImportRefused::OtherSystem {
                    name: c.name.clone(),
                    system: c.sheet.system().name(),
                    campaign: system.name(),
                });
            }
            if ledger.id_named(&c.name).is_some() {
                return Err(ImportRefused::NameTaken(c.name.clone()));
            }
        }
        // Equipment is carried when this campaign's arms define what it names.
        let mut behind = Vec::new();
        let mut equip = Vec::new();
        for c in &chosen {
            let Some(g) = &c.gear else { continue };
            let arms = &ledger.settings.hm.arms;
            let missing: Vec<String> = g
                .weapons
                .iter()
                .filter(|w| arms.weapon(w).is_none())
                .chain(g.armour.iter().filter(|x| arms.armour(x).is_none()))
                .cloned()
                .collect();
            if missing.is_empty() {
                equip.push((c.name.clone(), g.clone()));
            } else if sheet_only {
                behind.push(format!("{}: equipment ({})", c.name, missing.join(", ")));
            } else {
                return Err(ImportRefused::UnknownArms {
                    name: c.name.clone(),
                    missing,
                });
            }
        }
        for c in &chosen {
            let more = beyond_the_sheet(&c.state);
            if more.is_empty() {
                continue;
            }
            if !sheet_only {
                return Err(ImportRefused::BeyondTheSheet {
                    name: c.name.clone(),
                    more,
                });
            }
            behind.push(format!("{}: {}", c.name, more.join(", ")));
        }
        Ok(ImportPlan {
            chosen,
            equip,
            behind,
        })
    }
}
