//! A HârnMaster character as the fold sees it: the sheet the GM entered, the injuries, the
//! Shock State and what is owed (shock rerolls, stun recovery, Morale and mishap rolls).

use super::body::ZoneKind;
use crate::ids::{CharacterId, InjuryId};
use crate::test_roll::SuccessLevel;
use crate::time::CampaignTime;
use serde::{Deserialize, Serialize};
use std::fmt;

mod archive;
mod owed;
pub use archive::{Archive, Archived, Filed, TakenArchive};
pub use owed::{Owed, MOMENT};

/// The attributes and skills the Injury Sequence reads, as the GM entered them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sheet {
    /// Strength.
    pub strength: i32,
    /// Endurance.
    pub endurance: i32,
    /// Shock ML (tested in step 4.3 and the Shock Reroll).
    pub shock_ml: i32,
    /// Healing Base (HB), for the Healing Sequence.
    pub healing_base: i32,
    /// The Strength test's ML. HârnMaster attribute tests are at five times the attribute
    /// (the bleeding example's "Strength ML60" is STR 12), so this defaults to STR x 5.
    pub strength_ml: i32,
    /// The name of the character's body location table.
    pub body: String,
    /// Beasts other than Folk: amputation and blood loss tests are at fixed MLs.
    pub beast: bool,
    /// Fatigue penalty the GM carries on the sheet (the Healing Sequence adds its own).
    pub fatigue: i32,
}

/// An injury's severity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Severity {
    /// Minor (IL1).
    Minor,
    /// Serious (IL2-3).
    Serious,
    /// Grievous (IL4-5).
    Grievous,
}

impl Severity {
    /// Returns the severity of an Injury Level.
    pub fn of_level(level: u8) -> Severity {
        match level {
            0 | 1 => Severity::Minor,
            2 | 3 => Severity::Serious,
            _ => Severity::Grievous,
        }
    }

    /// Returns the book's letter (M, S, G).
    pub fn letter(self) -> char {
        match self {
            Severity::Minor => 'M',
            Severity::Serious => 'S',
            Severity::Grievous => 'G',
        }
    }

    /// Returns the word for JSON and prose.
    pub fn word(self) -> &'static str {
        match self {
            Severity::Minor => "minor",
            Severity::Serious => "serious",
            Severity::Grievous => "grievous",
        }
    }
}

/// A strike's aspect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Aspect {
    /// Blunt.
    Blunt,
    /// Edge.
    Edge,
    /// Point.
    Point,
    /// Fire.
    Fire,
    /// Frost.
    Frost,
}

impl Aspect {
    /// Returns the book's letter: B, E, P, and F for both fire and frost (their AV column).
    pub fn letter(self) -> char {
        match self {
            Aspect::Blunt => 'B',
            Aspect::Edge => 'E',
            Aspect::Point => 'P',
            Aspect::Fire | Aspect::Frost => 'F',
        }
    }

    /// Returns the word for JSON and prose.
    pub fn word(self) -> &'static str {
        match self {
            Aspect::Blunt => "blunt",
            Aspect::Edge => "edge",
            Aspect::Point => "point",
            Aspect::Fire => "fire",
            Aspect::Frost => "frost",
        }
    }

    /// Returns true for fire and frost.
    pub fn is_thermal(self) -> bool {
        matches!(self, Aspect::Fire | Aspect::Frost)
    }
}

/// Left or right, for sided locations (odd is left, even is right).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    /// Left (odd).
    Left,
    /// Right (even).
    Right,
}

impl Side {
    /// Returns the side a die face gives: odd left, even right.
    pub fn of_face(face: u16) -> Side {
        if face % 2 == 1 {
            Side::Left
        } else {
            Side::Right
        }
    }

    /// Returns the word.
    pub fn word(self) -> &'static str {
        match self {
            Side::Left => "left",
            Side::Right => "right",
        }
    }
}

/// Where an injury is: a location (with its side, if sided), or the whole body for an area
/// injury.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Place {
    /// The location's name (`abdomen`, `eye`), or `area` for area injuries.
    pub location: String,
    /// The side, for sided zones.
    pub side: Option<Side>,
    /// The body zone's name (`torso`).
    pub zone: String,
    /// The zone's kind; None for area injuries (which impair like the head, and everything).
    pub kind: Option<ZoneKind>,
}

impl Place {
    /// Returns the location as it reads aloud (`right shoulder`).
    pub fn label(&self) -> String {
        match self.side {
            Some(s) => format!("{} {}", s.word(), self.location),
            None => self.location.clone(),
        }
    }

    /// Returns the body zone with its side (`right arm`), the key of impairment.
    pub fn zone_label(&self) -> String {
        match self.side {
            Some(s) => format!("{} {}", s.word(), self.zone),
            None => self.zone.clone(),
        }
    }
}

/// One injury, as the Injury Sequence left it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Injury {
    /// Its id (the strike event's).
    pub id: InjuryId,
    /// Where it is.
    pub place: Place,
    /// The strike's aspect.
    pub aspect: Aspect,
    /// Inflicted by an area attack.
    pub area: bool,
    /// Inflicted by an arrow or bolt.
    pub projectile: bool,
    /// The Injury Level, 1-5 (0 once healed).
    pub level: u8,
    /// The highest Injury Level it reached (its code once healed).
    pub worst: u8,
    /// The location's Location Shock (step 4.1; 6 for area injuries), kept for the coma's HR.
    pub location_shock: u8,
    /// A Bleeder (step 3.3, or amputation).
    pub bleeder: bool,
    /// The location was severed (step 3.4).
    pub severed: bool,
    /// An impaled projectile awaits Extraction (step 5, projectile impalement).
    pub impaled: bool,
    /// The shock roll that followed it succeeded (a Minor injury then imparts no impairment
    /// for ten minutes).
    pub shock_roll_succeeded: bool,
    /// When it was inflicted.
    pub inflicted_at: CampaignTime,
    /// Its course through the Healing Sequence.
    pub heal: HealState,
    /// Its number among the character's injuries, from 0, in the order inflicted (open and
    /// archived alike: views list them in this order).
    pub n: u32,
}

/// One injury's course through the Healing Sequence.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HealState {
    /// The treatment that applies (None: untreated, which counts as CF).
    pub treatment: Option<Treated>,
    /// Healing Rate lost to aggravation (the Serious-injury aggravation option), min HR1.
    pub aggravation: i32,
    /// When the next injury Healing Roll falls due.
    pub next_healing: CampaignTime,
    /// With the random-period option: the d3+3 period is not rolled yet.
    pub period_unrolled: bool,
    /// When the next Blood Loss Advance Roll falls due (while a Bleeder).
    pub next_blood_loss: CampaignTime,
    /// The +10 a failed Blood Stoppage Roll grants the healer who failed, to that healer's
    /// next Staunch of this bleeder (Healing Sequence step 1, F: "the healer receives +10
    /// bonus"): by healer, as another healer's roll is at their own ML.
    pub staunch_bonus: Vec<(String, i32)>,
    /// A successful stoppage: the bleeding stops after one more blood loss roll.
    pub stops_after_next_loss: bool,
    /// When the last Blood Stoppage Roll was made.
    pub last_stoppage: Option<CampaignTime>,
    /// The bleeding was stopped by Cauterisation (healing CFs on ones 3, 5, 8, 0).
    pub cauterised: bool,
    /// This injury is the infected one.
    pub infected: bool,
    /// When it first healed to Minor (permanent impairment stops accruing).
    pub minor_at: Option<CampaignTime>,
    /// When it healed.
    pub healed_at: Option<CampaignTime>,
    /// When the next grim-wound Shock Roll falls due.
    pub next_grim: CampaignTime,
    /// A Healing Rate the GM decreed (an override ruling).
    pub rate_override: Option<i32>,
}

impl Injury {
    /// Returns the severity of the current Injury Level.
    pub fn severity(&self) -> Severity {
        Severity::of_level(self.level)
    }

    /// Returns the book's code, such as `S2E`; a healed injury keeps its worst code.
    pub fn code(&self) -> String {
        let level = if self.level == 0 {
            self.worst
        } else {
            self.level
        };
        format!(
            "{}{}{}",
            Severity::of_level(level).letter(),
            level,
            self.aspect.letter()
        )
    }

    /// Returns true once the injury has healed (level 0).
    pub fn healed(&self) -> bool {
        self.level == 0
    }
}

/// The Shock States, least to most severe.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ShockState {
    /// No shock state.
    #[default]
    None,
    /// STN: stunned.
    Stunned,
    /// INC: incapacitated.
    Incapacitated,
    /// UNC: unconscious.
    Unconscious,
    /// KIA: killed in action.
    Killed,
}

impl ShockState {
    /// Returns the state the SHOCK STATE table gives for a Shock State Index.
    pub fn of_index(shk: i32) -> ShockState {
        match shk {
            i32::MIN..=6 => ShockState::None,
            7 => ShockState::Stunned,
            8 => ShockState::Incapacitated,
            9 => ShockState::Unconscious,
            _ => ShockState::Killed,
        }
    }

    /// Returns the book's abbreviation (`none` when there is no state).
    pub fn code(self) -> &'static str {
        match self {
            ShockState::None => "none",
            ShockState::Stunned => "STN",
            ShockState::Incapacitated => "INC",
            ShockState::Unconscious => "UNC",
            ShockState::Killed => "KIA",
        }
    }

    /// Combines a new state with the current one (step 4): a new STN while stunned becomes
    /// INC, a new INC while incapacitated becomes UNC, and otherwise only the most severe
    /// applies.
    pub fn escalate(self, new: ShockState) -> ShockState {
        match (self, new) {
            (ShockState::Stunned, ShockState::Stunned) => ShockState::Incapacitated,
            (ShockState::Incapacitated, ShockState::Incapacitated) => ShockState::Unconscious,
            (a, b) => a.max(b),
        }
    }
}

impl fmt::Display for ShockState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The two mishaps of the injury mishap table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MishapKind {
    /// A Fumble Roll.
    Fumble,
    /// A Stumble Roll.
    Stumble,
}

impl MishapKind {
    /// Returns the word.
    pub fn word(self) -> &'static str {
        match self {
            MishapKind::Fumble => "fumble",
            MishapKind::Stumble => "stumble",
        }
    }
}

/// Extended Shock (Healing Sequence step 2), entered from a failed Shock Reroll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExtendedShock {
    /// Its Healing Rate (4 after CF, 5 after F).
    pub healing_rate: i32,
    /// When it began.
    pub since: CampaignTime,
    /// When the next four-hourly course roll falls due.
    pub next_roll: CampaignTime,
}

/// A coma (Healing Sequence step 3), entered from a CF Shock Reroll while UNC.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Coma {
    /// Its Healing Rate: 12 - Location Shock - Injury Level of the causing injury.
    pub healing_rate: i32,
    /// When it began.
    pub since: CampaignTime,
    /// When the next ten-daily course roll falls due.
    pub next_roll: CampaignTime,
}

/// A HârnMaster character's folded state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HmCharacter {
    /// The character's id.
    pub id: CharacterId,
    /// The character's name.
    pub name: String,
    /// The sheet.
    pub sheet: Sheet,
    /// The injuries the rules still read, in the order inflicted: the open ones, and the
    /// healed ones that still matter (see [`HmCharacter::file_healed`]).
    pub injuries: Vec<Injury>,
    /// The healed injuries filed in the archive: enough of each to name it (every rule that
    /// meets one refuses it as healed). Their whole records are in [`HmCharacter::archive`].
    pub archived: Vec<Filed>,
    /// The archived injuries' whole records: not part of the character's encoding (the store
    /// keeps them apart, one row each), so a command that does not list them never reads
    /// them. The fold never reads them but for a GM's decree on one.
    #[serde(skip)]
    pub archive: Archive,
    /// The current Shock State.
    pub shock: ShockState,
    /// The injury whose shock set the current state (for the coma's HR).
    pub shock_injury: Option<InjuryId>,
    /// Extended Shock, if the character is in it.
    pub extended_shock: Option<ExtendedShock>,
    /// Coma, if the character is in one.
    pub coma: Option<Coma>,
    /// Why and when the character died.
    pub death: Option<(String, CampaignTime)>,
    /// Rolls owed.
    pub owed: Vec<Owed>,
    /// Blood Loss Points (0-3; the fourth kills).
    pub blood_loss: u8,
    /// When the next blood regeneration (Endurance) test falls due.
    pub next_regeneration: Option<CampaignTime>,
    /// The current Shock State came from blood loss: it lasts until all bleeding stops.
    pub blood_loss_shock: bool,
    /// The infection being fought, if any.
    pub infection: Option<Infection>,
    /// The best healer bonus to Extended Shock course rolls.
    pub extended_shock_bonus: i32,
    /// The healers who have tested for this Extended Shock ("one test per healer per
    /// patient", step 2, Treatment).
    pub extended_shock_healers: Vec<String>,
    /// The best healer bonus to infection course rolls.
    pub infection_bonus: i32,
    /// Weariness fatigue left by a coma (less what the GM recorded recovered).
    pub weariness: i32,
    /// Personal Fatigue the GM recorded (moving while INC, exertion), less what recovered.
    pub personal_fatigue: i32,
    /// Weapons, armour and combat skills.
    pub gear: Gear,
    /// The injuries whose aggravation Shock SR a CF called for and that is not rolled yet
    /// (the aggravation option: a CF Impaired test using the zone, or a CF on moving). Kept
    /// on the character, not the injury: an injury's record is archived in a frozen shape.
    #[serde(default)]
    pub aggravation_called: Vec<InjuryId>,
}

/// The order key of an event (Lamport clock, device, sequence number): where it stands in
/// the fold's total order.
pub type OrderKey = (u64, crate::ids::DeviceId, u64);

/// An infection (Healing Sequence step 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Infection {
    /// The infected injury.
    pub injury: InjuryId,
    /// The infection Healing Rate.
    pub healing_rate: i32,
    /// When it began.
    pub since: CampaignTime,
    /// When the next daily course roll falls due.
    pub next_roll: CampaignTime,
}

impl HmCharacter {
    /// Returns a fresh, uninjured character.
    pub fn new(id: CharacterId, name: String, sheet: Sheet) -> HmCharacter {
        HmCharacter {
            id,
            name,
            sheet,
            injuries: Vec::new(),
            archived: Vec::new(),
            archive: Archive {
                held: true,
                records: Vec::new(),
            },
            shock: ShockState::None,
            shock_injury: None,
            extended_shock: None,
            coma: None,
            death: None,
            owed: Vec::new(),
            blood_loss: 0,
            next_regeneration: None,
            blood_loss_shock: false,
            infection: None,
            extended_shock_bonus: 0,
            extended_shock_healers: Vec::new(),
            infection_bonus: 0,
            weariness: 0,
            personal_fatigue: 0,
            gear: Gear::default(),
            aggravation_called: Vec::new(),
        }
    }

    /// Returns true if the character is dead.
    pub fn dead(&self) -> bool {
        self.death.is_some()
    }

    /// Finds an injury the rules still read by id (not an archived one).
    pub fn injury(&self, id: InjuryId) -> Option<&Injury> {
        self.injuries.iter().rev().find(|i| i.id == id)
    }

    /// Finds an archived injury by id.
    pub fn filed(&self, id: InjuryId) -> Option<&Filed> {
        self.archived.iter().rev().find(|f| f.id == id)
    }

    /// How many injuries the character has suffered (open and archived): the next one's
    /// number.
    pub fn injuries_suffered(&self) -> u32 {
        (self.injuries.len() + self.archived.len()) as u32
    }

    /// Every injury, open and archived, in the order inflicted. Needs the archive held
    /// ([`Archive::held`]): a character read without it lists only what the rules read.
    pub fn all_injuries(&self) -> Vec<&Injury> {
        let mut all: Vec<&Injury> = self.injuries.iter().collect();
        all.extend(self.archive.filed().map(|a| &a.injury));
        all.sort_by_key(|i| i.n);
        all
    }

    /// Finds an injury by id, open or archived (an archived one only when the archive is
    /// held).
    pub fn any_injury(&self, id: InjuryId) -> Option<&Injury> {
        self.injury(id).or_else(|| {
            self.archive
                .filed()
                .find(|a| a.injury.id == id)
                .map(|a| &a.injury)
        })
    }

    /// How a person names the injury `id` among the open ones: its place (`thorax`) when no
    /// other open injury is there, else its place and code (`left thigh S2B`) when that tells
    /// it apart, else that and its place among the wounds alike, in the order they were
    /// taken (`left calf S2E (2)`): what a lookup by name takes back.
    pub fn injury_name(&self, id: InjuryId) -> String {
        let Some(inj) = self.any_injury(id) else {
            return id.short();
        };
        let label = inj.place.label();
        let code = inj.code();
        let alike = |same_code: bool| -> Vec<InjuryId> {
            self.injuries
                .iter()
                .filter(|o| {
                    (o.id == id || !o.healed())
                        && o.place.label() == label
                        && (!same_code || o.code() == code)
                })
                .map(|o| o.id)
                .collect()
        };
        if alike(false).len() <= 1 {
            return label.to_string();
        }
        let same = alike(true);
        match same.iter().position(|o| *o == id) {
            Some(_) if same.len() <= 1 => format!("{label} {code}"),
            Some(k) => format!("{label} {code} ({})", k + 1),
            None => format!("{label} {code}"),
        }
    }

    /// Files the healed injuries that no rule will read again in the archive, as of the event
    /// at `since` (the fold calls it after every event that changes the character).
    ///
    /// An injury is filed once it has healed and nothing can read it again: it is not severed
    /// (a severed location stays unusable), it accrues no permanent impairment (its worst
    /// level was Minor, or the treatment cell it healed under carries no permanent mark: an
    /// untreated one reads the campaign's treatment table, which the GM may change, so it
    /// stays), it is not the infected one, and no Shock State, owed roll or infection names
    /// it. Its impairment is then nothing at every later moment, so the rules' sums over the
    /// injuries are unchanged; an event that names it is refused as for any healed injury
    /// ([`Filed`] keeps the code such refusals print). Only a GM's decree reopens one.
    pub fn file_healed(&mut self, since: OrderKey) {
        // Called after every event of the character, so the common case (nothing to file)
        // allocates nothing and reads each injury once; a filing moves only the injuries
        // from the first one filed on (the replay's hot path: BENCHMARKS.md).
        let Some(first) = self.injuries.iter().position(|i| self.inert(i)) else {
            return;
        };
        let rest = self.injuries.split_off(first);
        for inj in rest {
            if self.inert(&inj) {
                self.file(inj, since);
            } else {
                self.injuries.push(inj);
            }
        }
    }

    /// [`HmCharacter::file_healed`] after an event that changed only the injury `id`, when no
    /// other injury was left to file before it: files that one if nothing can read it again.
    /// Looked for from the newest, as the injuries still healing are.
    pub fn file_healed_injury(&mut self, id: InjuryId, since: OrderKey) {
        if let Some(k) = self.injuries.iter().rposition(|i| i.id == id) {
            if self.inert(&self.injuries[k]) {
                let inj = self.injuries.remove(k);
                self.file(inj, since);
            }
        }
    }

    /// Whether no rule can read the injury again (see [`HmCharacter::file_healed`]).
    fn inert(&self, i: &Injury) -> bool {
        let named = |id: InjuryId| {
            self.shock_injury == Some(id)
                || self.infection.is_some_and(|i| i.injury == id)
                || self.owed.iter().any(|o| match o {
                    Owed::Morale { injury, .. } | Owed::Mishap { injury, .. } => *injury == id,
                    _ => false,
                })
        };
        i.healed()
            && !i.severed
            && !i.impaled
            && !i.heal.infected
            && (i.worst <= 1 || i.heal.treatment.as_ref().is_some_and(|t| !t.cell.permanent))
            && !named(i.id)
    }

    fn file(&mut self, inj: Injury, since: OrderKey) {
        self.archived.push(Filed::of(&inj));
        self.archive.records.push(Archived {
            since,
            injury: inj,
            reopened: None,
        });
    }

    /// Takes an archived injury back among the ones the rules read (a GM's decree on it, the
    /// event at `at`); its record stays in the archive, marked reopened, as the record of
    /// what it was until then. None when it is not archived, or its record is not held.
    pub fn reopen(&mut self, id: InjuryId, at: OrderKey) -> Option<&mut Injury> {
        let f = self.archived.iter().rposition(|f| f.id == id)?;
        let a = self
            .archive
            .records
            .iter()
            .rposition(|a| a.injury.id == id && a.reopened.is_none())?;
        self.archived.remove(f);
        self.archive.records[a].reopened = Some(at);
        let inj = self.archive.records[a].injury.clone();
        let at = self.injuries.partition_point(|i| i.n < inj.n);
        self.injuries.insert(at, inj);
        Some(&mut self.injuries[at])
    }

    /// Returns the fatigue penalty: the sheet's, 5 weakness per Blood Loss Point (anaemia),
    /// infection weakness, the weariness a coma left and Personal Fatigue recorded.
    pub fn fatigue(&self) -> i32 {
        self.sheet.fatigue
            + self.anaemia()
            + self.infection_weakness()
            + self.weariness
            + self.personal_fatigue
    }

    /// Returns the anaemia weakness fatigue: 5 per Blood Loss Point.
    pub fn anaemia(&self) -> i32 {
        5 * i32::from(self.blood_loss)
    }

    /// Returns the infection weakness fatigue: 10 at infection HR1-2, 5 at HR3-4, none at 5.
    pub fn infection_weakness(&self) -> i32 {
        match self.infection.map(|i| i.healing_rate) {
            Some(hr) if hr <= 2 => 10,
            Some(3 | 4) => 5,
            _ => 0,
        }
    }

    /// Whether the character is considered Still against missile attacks: a Grievous injury
    /// leaves a zone it cannot use (000 l.626: "Against missile attacks, such an injured
    /// target is considered Still"). Reading (missile.md): any open Grievous injury, whatever
    /// its zone.
    pub fn still_against_missiles(&self) -> bool {
        self.injuries
            .iter()
            .any(|i| !i.healed() && i.severity() == Severity::Grievous)
    }

    /// Returns true while any injury bleeds.
    pub fn bleeding(&self) -> bool {
        self.injuries.iter().any(|i| i.bleeder && !i.healed())
    }
}

// ---------------------------------------------------------------------------------------
// What a character carries, and what a treatment left on an injury (state the Melee and
// Healing Sequences read and write; their tables live with them).

/// The skills the Melee and Missile Sequences use, and the Strength Impact Modifier.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skills {
    /// Melee ML.
    pub melee: i32,
    /// Dodge ML.
    pub dodge: i32,
    /// Archery ML.
    pub archery: i32,
    /// Throwing ML.
    pub throwing: i32,
    /// Slings ML.
    pub slings: i32,
    /// Initiative ML.
    pub initiative: i32,
    /// Riding ML (mounted combat).
    pub riding: i32,
    /// Strength Impact Modifier.
    pub str_impact: i32,
}

/// What a character carries.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gear {
    /// Readied weapons, by name.
    pub weapons: Vec<String>,
    /// Armour worn, by name.
    pub armour: Vec<String>,
    /// Skills.
    pub skills: Skills,
}

/// What one cell of a TREATMENT ROLL table gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CellResult {
    /// A Healing Rate.
    Hr(u8),
    /// HEAL: the treatment heals the injury at once.
    Heal,
    /// Frost amputation: the patient suffers an edge injury of this level instead.
    Amputated(u8),
}

/// One cell: the result and its marks (the boxes the extraction lost; see `treatment_table`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    /// The result.
    pub result: CellResult,
    /// The chance of infection (step 7).
    pub infection: bool,
    /// The chance of permanent impairment (step 8).
    pub permanent: bool,
    /// The treatment causes a Bleeder.
    pub bleeder: bool,
}

/// A treatment as it applies to an injury.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Treated {
    /// The success level whose row applies (after the Grievous cap, CF if any healer's CF).
    pub level: SuccessLevel,
    /// That row's cell.
    pub cell: Cell,
    /// The healers who rolled, with their Physician Index.
    pub healers: Vec<(String, i32)>,
    /// The best success level among the healers' rolls, each capped by its own healer's
    /// Physician Index on a Grievous injury (before a CF replaces it).
    pub best: SuccessLevel,
    /// Any healer rolled CF (it replaces all other results).
    pub any_cf: bool,
    /// When the last treatment roll was made.
    pub at: CampaignTime,
}
