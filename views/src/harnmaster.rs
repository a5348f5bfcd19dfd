//! A HârnMaster character as `show` prints it ([`CharacterView`]: its injuries with level,
//! healing rate, bleeding, infection and impairment, its shock state, and what it owes
//! with each roll's EML and its terms), and its text printer.

use crate::{render_owed, OwedView, JSON_SCHEMA};
use leechbook_core::fold::Ledger;
use leechbook_core::harnmaster::agenda::agenda;
use leechbook_core::harnmaster::effect::{impaired_tests, impairment, TestImpairment};
use leechbook_core::harnmaster::healing::{self, eml_of, CellResult, TreatmentTable};
use leechbook_core::harnmaster::state::{HmCharacter, Injury};
use leechbook_core::owed::Owed;
use leechbook_core::HmLedger;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;

/// One injury.
#[derive(Serialize, Clone, Debug)]
pub struct InjuryView {
    /// The injury's id (its strike's event id).
    pub id: String,
    /// The last eight hex digits, which the CLI accepts too.
    pub short_id: String,
    /// The location (`abdomen`, `area`).
    pub location: String,
    /// `left`, `right`, or null.
    pub side: Option<&'static str>,
    /// The body zone.
    pub zone: String,
    /// The aspect.
    pub aspect: &'static str,
    /// minor, serious, grievous.
    pub severity: &'static str,
    /// The Injury Level.
    pub level: u8,
    /// The book's code (`S2E`).
    pub code: String,
    /// A bleeder.
    pub bleeder: bool,
    /// Severed.
    pub severed: bool,
    /// An impaled projectile.
    pub impaled: bool,
    /// From an area attack.
    pub area: bool,
    /// Healed (level 0).
    pub healed: bool,
    /// When inflicted.
    pub inflicted_at: String,
    /// When healed, if it has.
    pub healed_at: Option<String>,
    /// The Healing Rate it heals at (untreated: its CF rate).
    pub healing_rate: i32,
    /// The treatment: its success level and result, or null if untreated.
    pub treatment: Option<String>,
    /// The treatment leaves a chance of infection.
    pub infection_chance: bool,
    /// The treatment leaves a chance of permanent impairment.
    pub permanent_chance: bool,
    /// Permanent impairment accrued so far.
    pub permanent_impairment: i32,
    /// The injury is infected.
    pub infected: bool,
    /// A grim wound (Grievous with CF treatment).
    pub grim: bool,
}

impl InjuryView {
    fn of(
        i: &Injury,
        table: &TreatmentTable,
        now: leechbook_core::time::CampaignTime,
    ) -> InjuryView {
        let marks = healing::marks(i, table);
        InjuryView {
            id: i.id.to_string(),
            short_id: i.id.short(),
            location: i.place.location.clone(),
            side: i.place.side.map(|s| s.word()),
            zone: i.place.zone.clone(),
            aspect: i.aspect.word(),
            severity: i.severity().word(),
            level: i.level,
            code: i.code(),
            bleeder: i.bleeder,
            severed: i.severed,
            impaled: i.impaled,
            area: i.area,
            healed: i.healed(),
            inflicted_at: i.inflicted_at.to_string(),
            healed_at: i.heal.healed_at.map(|t| t.to_string()),
            healing_rate: healing::healing_rate(i, table),
            treatment: i.heal.treatment.as_ref().map(|t| {
                let result = match t.cell.result {
                    CellResult::Hr(h) => format!("HR{h}"),
                    CellResult::Heal => "healed".into(),
                    CellResult::Amputated(_) => "amputated".into(),
                };
                format!("{} {result}", t.level)
            }),
            infection_chance: marks.infection,
            permanent_chance: marks.permanent,
            permanent_impairment: healing::permanent_impairment(i, table, now),
            infected: i.heal.infected,
            grim: healing::grim(i),
        }
    }
}

/// One body zone's impairment.
#[derive(Serialize, Clone, Debug)]
pub struct ZoneView {
    /// The impairment penalty.
    pub impairment: i32,
    /// Unusable (a Grievous injury).
    pub unusable: bool,
}

/// Lists what a character owes, from the core's agenda.
pub fn owed(ledger: &Ledger, ch: &HmCharacter) -> Vec<OwedView> {
    let now = ledger.now;
    agenda(ch, ledger.treatment_table(), ledger.options(), ledger.now)
        .into_iter()
        .map(|d| OwedView {
            roll: Owed::HarnMaster(d.roll),
            character_id: ch.id,
            injury_id: d.injury,
            character: ch.name.clone(),
            target: d
                .injury
                .filter(|_| !d.roll.about_the_character())
                .map_or_else(|| ch.name.clone(), |i| i.to_string()),
            injury: d.injury.map(|i| i.to_string()),
            place: d
                .injury
                .filter(|i| ch.any_injury(*i).is_some())
                .map(|i| ch.injury_name(i)),
            due_at: d.due_at.map(|t| t.to_string()),
            due: d.due_at,
            due_now: d.due_at.is_none_or(|t| now >= t),
            recordable_now: d.early || d.due_at.is_none_or(|t| now >= t),
            eml: (!d.eml_parts.is_empty())
                .then(|| leechbook_core::test_roll::bound_eml(eml_of(&d.eml_parts))),
            eml_parts: d
                .eml_parts
                .iter()
                .enumerate()
                .filter(|(i, p)| *i == 0 || p.value != 0)
                .map(|(_, p)| render_part(p))
                .collect(),
            decision: d.decision,
            automatic: d.automatic,
            note: d.note,
        })
        .collect()
}

/// Renders one term of an EML: `HB13 x HR4 = 52`, `Shock ML65`, `-15 fatigue`.
pub fn render_part(p: &healing::EmlPart) -> String {
    let label = p.label.to_string();
    if label.contains(" x ") {
        format!("{label} = {}", p.value)
    } else if label.ends_with(&p.value.to_string()) {
        label
    } else {
        format!("{:+} {label}", p.value)
    }
}

/// The owed rolls of the moment (shock, Morale, mishaps, bleeding), printed after a strike
/// or a roll; the healing schedule is for `due`.
pub fn immediate(ledger: &Ledger, ch: &HmCharacter) -> Vec<OwedView> {
    owed(ledger, ch)
        .into_iter()
        .filter(|o| matches!(o.roll, Owed::HarnMaster(r) if r.of_the_moment()))
        .collect()
}

/// A character as `show` prints it.
#[derive(Serialize, Clone, Debug)]
pub struct CharacterView {
    /// Always `character`.
    #[serde(rename = "type")]
    pub ty: &'static str,
    /// The JSON schema version.
    pub schema_version: u32,
    /// The character's id.
    pub id: String,
    /// The name.
    pub name: String,
    /// The rules system.
    pub system: &'static str,
    /// The campaign clock the state is shown at.
    pub campaign_time: String,
    /// The sheet.
    pub sheet: BTreeMap<&'static str, serde_json::Value>,
    /// `none`, `STN`, `INC`, `UNC`, `KIA`.
    pub shock_state: &'static str,
    /// Dead.
    pub dead: bool,
    /// Why and when, if dead.
    pub death: Option<String>,
    /// Extended Shock's HR, if in it.
    pub extended_shock_hr: Option<i32>,
    /// The coma's HR, if in one.
    pub coma_hr: Option<i32>,
    /// Blood Loss Points.
    pub blood_loss: u8,
    /// Whether any injury bleeds.
    pub bleeding: bool,
    /// The fatigue penalty (sheet, anaemia, infection weakness, weariness, personal).
    pub fatigue: i32,
    /// Its terms that are not zero: `anaemia 15`, `weariness 5`.
    pub fatigue_terms: Vec<String>,
    /// The infection's HR, if infected.
    pub infection_hr: Option<i32>,
    /// Whether concentration is possible (no shock state, grievous skull injury or grim wound).
    pub can_concentrate: bool,
    /// Every injury (healed ones too).
    pub injuries: Vec<InjuryView>,
    /// Impairment per body zone.
    pub impairment: BTreeMap<String, ZoneView>,
    /// The impaired tests (only those with an impairment), with either arm in use.
    pub impaired_tests: Vec<TestImpairment>,
    /// While stunned, impaired tests are made one success level lower.
    pub impaired_tests_one_level_lower: bool,
    /// Rolls owed.
    pub owed: Vec<OwedView>,
}

impl CharacterView {
    /// The zones impaired, a phrase each ("torso 10", "left arm unusable"): what the board
    /// and the players' page list.
    pub fn impaired_zones(&self) -> Vec<String> {
        self.impairment
            .iter()
            .filter(|(_, z)| z.impairment != 0 || z.unusable)
            .map(|(zone, z)| {
                if z.unusable {
                    format!("{zone} unusable")
                } else {
                    format!("{zone} {}", z.impairment)
                }
            })
            .collect()
    }
}

/// Builds the view of a HârnMaster character at the ledger's clock.
pub fn character(ledger: &Ledger, ch: &HmCharacter) -> CharacterView {
    let now = ledger.now;
    let tt = ledger.treatment_table();
    let zones = ledger
        .table(&ch.sheet.body)
        .map(|t| impairment(ch, t, tt, now))
        .unwrap_or_default();
    let s = &ch.sheet;
    let mut sheet = BTreeMap::new();
    for (k, v) in [
        ("strength", s.strength),
        ("endurance", s.endurance),
        ("shock_ml", s.shock_ml),
        ("healing_base", s.healing_base),
        ("strength_ml", s.strength_ml),
        ("fatigue", s.fatigue),
    ] {
        sheet.insert(k, serde_json::Value::from(v));
    }
    sheet.insert("body", serde_json::Value::from(s.body.clone()));
    sheet.insert("beast", serde_json::Value::from(s.beast));
    CharacterView {
        ty: "character",
        schema_version: JSON_SCHEMA,
        id: ch.id.to_string(),
        name: ch.name.clone(),
        system: "harnmaster",
        campaign_time: now.to_string(),
        sheet,
        shock_state: ch.shock.code(),
        dead: ch.dead(),
        death: ch.death.as_ref().map(|(why, at)| format!("{why} ({at})")),
        extended_shock_hr: ch.extended_shock.map(|e| e.healing_rate),
        coma_hr: ch.coma.map(|c| c.healing_rate),
        blood_loss: ch.blood_loss,
        bleeding: ch.bleeding(),
        fatigue: ch.fatigue(),
        fatigue_terms: [
            ("sheet", ch.sheet.fatigue),
            ("anaemia", ch.anaemia()),
            ("infection weakness", ch.infection_weakness()),
            ("weariness", ch.weariness),
            ("personal", ch.personal_fatigue),
        ]
        .into_iter()
        .filter(|(_, n)| *n != 0)
        .map(|(t, n)| format!("{t} {n}"))
        .collect(),
        infection_hr: ch.infection.map(|i| i.healing_rate),
        can_concentrate: ch.shock == leechbook_core::harnmaster::state::ShockState::None
            && !ch.injuries.iter().any(|i| {
                healing::grim(i)
                    || (i.place.location == "skull"
                        && i.severity() == leechbook_core::harnmaster::state::Severity::Grievous
                        && !i.healed())
            }),
        injuries: ch
            .all_injuries()
            .into_iter()
            .map(|i| InjuryView::of(i, tt, now))
            .collect(),
        impairment: zones
            .into_iter()
            .map(|z| {
                (
                    z.zone,
                    ZoneView {
                        impairment: z.impairment,
                        unusable: z.unusable,
                    },
                )
            })
            .collect(),
        impaired_tests: impaired_tests(ch, tt, now)
            .into_iter()
            .filter(|t| t.right != 0 || t.left != 0 || t.right_unusable || t.left_unusable)
            .collect(),
        impaired_tests_one_level_lower: ch.shock
            == leechbook_core::harnmaster::state::ShockState::Stunned,
        owed: owed(ledger, ch),
    }
}

/// One injury in `show`'s list: its short id, code, place, when, and its flags.
fn injury_line(i: &InjuryView) -> String {
    let mut flags = Vec::new();
    for (on, f) in [
        (i.bleeder, "bleeder"),
        (i.severed, "severed"),
        (i.impaled, "impaled"),
        (i.infected, "infected"),
        (i.grim, "grim wound"),
    ] {
        if on {
            flags.push(f.to_string());
        }
    }
    match &i.treatment {
        Some(t) => flags.push(format!("treated {t}")),
        None if !i.healed => flags.push(format!("untreated, HR{}", i.healing_rate)),
        None => {}
    }
    if let Some(h) = &i.healed_at {
        flags.push(format!("healed {h}"));
    }
    if i.permanent_impairment > 0 {
        flags.push(format!("{} permanent impairment", i.permanent_impairment));
    }
    let place = match i.side {
        Some(s) => format!("{s} {}", i.location),
        None => i.location.clone(),
    };
    // Fire and frost share the letter F: the word tells them apart.
    let code = match i.aspect {
        "fire" | "frost" => format!("{} {}", i.code, i.aspect),
        _ => i.code.clone(),
    };
    format!(
        "{}  {:<4} {:<16} {}{}",
        i.short_id,
        code,
        place,
        i.inflicted_at,
        if flags.is_empty() {
            String::new()
        } else {
            format!("  [{}]", flags.join(", "))
        }
    )
}

/// Renders a character for a person.
pub fn render_character(v: &CharacterView) -> String {
    let mut out = String::new();
    let sh = |k: &str| v.sheet.get(k).cloned().unwrap_or_default();
    let _ = writeln!(
        out,
        "{} (STR {} END {} Shock ML{} HB{}, {} body) at {}",
        v.name,
        sh("strength"),
        sh("endurance"),
        sh("shock_ml"),
        sh("healing_base"),
        sh("body").as_str().unwrap_or("?"),
        v.campaign_time
    );
    match &v.death {
        Some(d) => {
            let _ = writeln!(out, "  DEAD: {d}");
        }
        None => {
            let _ = writeln!(out, "  shock state: {}", v.shock_state);
        }
    }
    if let Some(hr) = v.extended_shock_hr {
        let _ = writeln!(out, "  extended shock: HR{hr}");
    }
    if let Some(hr) = v.coma_hr {
        let _ = writeln!(out, "  coma: HR{hr}");
    }
    if v.blood_loss > 0 || v.bleeding {
        let _ = writeln!(
            out,
            "  blood loss: {} BP{}",
            v.blood_loss,
            if v.bleeding { ", still bleeding" } else { "" }
        );
    }
    if let Some(hr) = v.infection_hr {
        let _ = writeln!(out, "  infected: infection HR{hr} (all healing halts)");
    }
    if v.fatigue != 0 {
        let _ = writeln!(
            out,
            "  fatigue: {} ({})",
            v.fatigue,
            v.fatigue_terms.join(", ")
        );
    }
    if v.injuries.is_empty() {
        let _ = writeln!(out, "  no injuries");
    } else {
        let _ = writeln!(out, "  injuries:");
        for i in &v.injuries {
            let _ = writeln!(out, "    {}", injury_line(i));
        }
    }
    let impaired: Vec<String> = v
        .impairment
        .iter()
        .filter(|(_, z)| z.unusable || z.impairment > 0)
        .map(|(name, z)| {
            if z.unusable {
                format!("{name} unusable")
            } else {
                format!("{name} {}", z.impairment)
            }
        })
        .collect();
    if !impaired.is_empty() {
        let _ = writeln!(out, "  impairment: {}", impaired.join(", "));
    }
    if !v.impaired_tests.is_empty() {
        let one = |n: i32, unusable: bool| {
            if unusable {
                "unusable".to_string()
            } else if n == 0 {
                "0".to_string()
            } else {
                format!("-{n}")
            }
        };
        // Tests that share a value are grouped: "Melee, Archery: -10 using the right arm...".
        let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
        for t in &v.impaired_tests {
            let r = one(t.right, t.right_unusable);
            let l = one(t.left, t.left_unusable);
            let value = if r == l {
                r
            } else {
                format!("{r} using the right arm, {l} using the left")
            };
            match groups.iter_mut().find(|(v, _)| *v == value) {
                Some((_, names)) => names.push(t.test),
                None => groups.push((value, vec![t.test])),
            }
        }
        let tests: Vec<String> = groups
            .into_iter()
            .map(|(value, names)| format!("{}: {value}", names.join(", ")))
            .collect();
        let _ = writeln!(out, "  impaired tests: {}", tests.join("; "));
        if v.impaired_tests_one_level_lower {
            let _ = writeln!(out, "  stunned: impaired tests are one success level lower");
        }
    }
    for o in &v.owed {
        let _ = writeln!(out, "  owes: {}", render_owed(o));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::render_part;
    use leechbook_core::harnmaster::healing::{EmlPart, Label};

    #[test]
    fn a_term_is_written_out_as_it_read_when_its_label_was_text() {
        let hb = EmlPart {
            label: Label::Product(("HB", 13), ("HR", 4)),
            value: 52,
        };
        let shock = EmlPart {
            label: Label::ml("Shock ML", 65),
            value: 65,
        };
        let fatigue = EmlPart {
            label: Label::from("fatigue"),
            value: -15,
        };
        assert_eq!(render_part(&hb), "HB13 x HR4 = 52");
        assert_eq!(render_part(&shock), "Shock ML65");
        assert_eq!(render_part(&fatigue), "-15 fatigue");
        // Sent and kept as the text it reads.
        assert_eq!(
            serde_json::to_string(&hb).unwrap(),
            r#"{"label":"HB13 x HR4","value":52}"#
        );
        let back: EmlPart = serde_json::from_str(r#"{"label":"HB13 x HR4","value":52}"#).unwrap();
        assert_eq!(back, hb);
    }
}
