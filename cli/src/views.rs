//! The result values that commands print, and their two renderers: `--json` (each value
//! carries a `"type"` tag and a schema version) and human text. Both come from the same value.

use leechbook_core::fold::{CharacterState, Ledger};
use leechbook_core::harnmaster::agenda::agenda;
use leechbook_core::harnmaster::effect::{impaired_tests, impairment, TestImpairment};
use leechbook_core::harnmaster::healing::{self, eml_of, CellResult, TreatmentTable};
use leechbook_core::harnmaster::state::{HmCharacter, Injury};
use leechbook_core::HmLedger;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The version of the JSON shapes below.
pub const JSON_SCHEMA: u32 = 1;

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

/// One roll owed.
#[derive(Serialize, Clone, Debug)]
pub struct OwedView {
    /// The owed roll: for HârnMaster the KIND `leechbook roll` takes (`shock-reroll`,
    /// `healing`, `morale`, ...); for Savage Worlds the KIND of `sw roll`; for Wrath & Glory
    /// and Witch Iron a label of the roll owed.
    pub kind: &'static str,
    /// Who owes it.
    pub character: String,
    /// What the roll is for: the injury's id, or the character's name for rolls about the
    /// whole patient (Extended Shock, coma, blood regeneration, shock rolls).
    pub target: String,
    /// The injury it is for, if one.
    pub injury: Option<String>,
    /// When it falls due (null: as soon as the GM calls it).
    pub due_at: Option<String>,
    /// The same, as a campaign time (what `due` sorts by).
    #[serde(skip)]
    pub due: Option<leechbook_core::time::CampaignTime>,
    /// Whether it is due at the campaign clock's time.
    pub due_now: bool,
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

/// Lists what a character owes, from the core's agenda.
pub fn owed(ledger: &Ledger, ch: &HmCharacter) -> Vec<OwedView> {
    let now = ledger.now;
    agenda(ch, ledger.treatment_table(), ledger.options())
        .into_iter()
        .map(|d| OwedView {
            kind: d.kind,
            character: ch.name.clone(),
            target: d
                .injury
                .filter(|_| !matches!(d.kind, "shock-reroll" | "stun-recovery"))
                .map_or_else(|| ch.name.clone(), |i| i.to_string()),
            injury: d.injury.map(|i| i.to_string()),
            due_at: d.due_at.map(|t| t.to_string()),
            due: d.due_at,
            due_now: d.due_at.is_none_or(|t| now >= t),
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
    if p.label.contains(" x ") {
        format!("{} = {}", p.label, p.value)
    } else if p.label.ends_with(&p.value.to_string()) {
        p.label.clone()
    } else {
        format!("{:+} {}", p.value, p.label)
    }
}

/// The owed rolls of the moment (shock, Morale, mishaps, bleeding), printed after a strike
/// or a roll; the healing schedule is for `due`.
pub fn immediate(ledger: &Ledger, ch: &HmCharacter) -> Vec<OwedView> {
    owed(ledger, ch)
        .into_iter()
        .filter(|o| {
            matches!(
                o.kind,
                "shock-reroll"
                    | "stun-recovery"
                    | "morale"
                    | "fumble"
                    | "stumble"
                    | "blood-loss"
                    | "blood-stoppage"
            )
        })
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
        CharacterState::WrathGlory(w) => wg_owed(w),
        CharacterState::WitchIron(w) => wi_owed(ledger, w),
    }
}

fn wi_owed(ledger: &Ledger, w: &leechbook_core::witch::WiCharacter) -> Vec<OwedView> {
    use leechbook_core::witch::Condition;
    let round = ledger.round_seconds();
    if w.death.is_some() {
        return vec![];
    }
    let owe = |kind: &'static str, part: String, note: &'static str| OwedView {
        kind,
        character: w.name.clone(),
        target: w.name.clone(),
        injury: None,
        due_at: None,
        due: None,
        due_now: true,
        eml: None,
        eml_parts: vec![part],
        decision: false,
        automatic: false,
        note,
    };
    let mut out = Vec::new();
    for (c, kind, change) in [
        (Condition::Corruption, "corruption", "Mutation"),
        (Condition::Stress, "stress", "Madness"),
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
            "end-of-round",
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
                line: crate::narrate::witch::checks(&w.name, &p),
            }
        },
        sheet: WiSheetView { rb: w.sheet.rb },
        dead: w.death.is_some(),
        death: w.death.as_ref().map(|(why, at)| format!("{why} ({at})")),
        owed: wi_owed(ledger, w),
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

fn wg_owed(w: &leechbook_core::wrath::WgCharacter) -> Vec<OwedView> {
    if w.death.is_some() || !w.dying {
        return vec![];
    }
    vec![OwedView {
        kind: "dying",
        character: w.name.clone(),
        target: w.name.clone(),
        injury: None,
        due_at: None,
        due: None,
        due_now: true,
        eml: None,
        eml_parts: vec![format!("{} Wrath Dice in every pool", w.wrath_dice())],
        decision: false,
        automatic: false,
        note: "any Wound is a Traumatic Injury; a complication on a Wrath Die too (wg complication); recovering a Wound ends it",
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
        both_lost: w
            .both_lost()
            .into_iter()
            .map(crate::narrate::wrath::both_lost)
            .collect(),
        rest_from: w.rest_from.map(|t| t.to_string()),
        dead: w.death.is_some(),
        death: w.death.as_ref().map(|(why, at)| format!("{why} ({at})")),
        owed: wg_owed(w),
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
    let owe = |kind: &'static str, note: &'static str| OwedView {
        kind,
        character: c.name.clone(),
        target: c.name.clone(),
        injury: None,
        due_at: None,
        due: None,
        due_now: true,
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
                "spirit-recovery",
                "a Spirit roll at the start of the turn (a free action)",
            ));
        }
        if c.vigor_owed {
            owed.push(owe("incapacitation", "a Vigor roll, then the Injury Table"));
        }
        if c.bleeding_out {
            let mut o = owe("bleeding-out", "Vigor at the start of each turn, or each minute out of combat; another's Healing roll stabilises");
            if let Some(due) = c.bleeding_due(ledger.round_seconds()) {
                o.due_at = Some(due.to_string());
                o.due = Some(due);
                o.due_now = due <= now;
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
        let _ = writeln!(out, "  owes: {}{due} [{}]", o.kind, o.note);
    }
    out
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
            let _ = writeln!(
                out,
                "    {}  {:<4} {:<16} {}{}",
                i.short_id,
                code,
                place,
                i.inflicted_at,
                if flags.is_empty() {
                    String::new()
                } else {
                    format!("  [{}]", flags.join(", "))
                }
            );
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

/// Renders one owed roll.
pub fn render_owed(o: &OwedView) -> String {
    let mut s = o.kind.to_string();
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
    if let Some(i) = &o.injury {
        s.push_str(&format!(" for injury {}", &i[i.len().saturating_sub(8)..]));
    }
    if !o.note.is_empty() {
        s.push_str(&format!(" [{}]", o.note));
    }
    s
}
