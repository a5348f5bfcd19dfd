//! HârnMaster, the primary rules system. Modules follow the book's sequences and steps:
//! [`body`] (the BODY LOCATION table), [`injury`] (Injury Sequence steps 1-5 for one strike),
//! [`shock`] (the Shock Reroll, stun recovery and the rolls the GM resolves), [`effect`]
//! (step 5 impairment), [`state`] (the character the fold builds).

#![warn(missing_docs)]
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

/// The kernel's modules this system reads, at the paths its modules name them by.
pub(crate) use leechbook_kernel::{dice, ids, test_roll, time};

pub mod agenda;
pub mod amend;
pub mod arms;
pub mod body;
pub mod effect;
pub mod error;
pub mod exchange;
pub mod healing;
pub mod injury;
pub mod melee;
pub mod missile;
pub mod settings;
pub mod shock;
pub mod shot;
pub mod state;
pub mod system;

use serde::{Deserialize, Serialize};

/// Leechbook's readings of the text, by sequence (each its module's documentation, and
/// `table show readings`).
pub const READINGS: [(&str, &str); 4] = [
    (
        "HârnMaster: the Injury Sequence",
        include_str!("readings/injury.md"),
    ),
    (
        "HârnMaster: the Melee Sequence",
        include_str!("readings/melee.md"),
    ),
    (
        "HârnMaster: the Missile Sequence",
        include_str!("readings/missile.md"),
    ),
    (
        "HârnMaster: the Healing Sequence",
        include_str!("readings/healing.md"),
    ),
];

/// HârnMaster's events. **Frozen format:** variants and fields are encoded by position;
/// add new variants only at the end, never reorder or change a shipped one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HmEvent {
    /// A body location table for creatures (or the campaign's override of the human one).
    /// Undone by defining the table again, or by retracting this event.
    BodyTableDefined(body::BodyTable),
    /// A character's sheet replaced (attributes, Shock ML, fatigue). Undone by another change.
    SheetChanged {
        /// The character.
        character: crate::ids::CharacterId,
        /// The new sheet.
        sheet: state::Sheet,
    },
    /// One strike through the Injury Sequence, with every face its dice showed.
    Strike(injury::Strike),
    /// A Shock Reroll of an INC or UNC character.
    ShockReroll(shock::ShockRoll),
    /// The Shock test that ends STN.
    StunRecovery(shock::ShockRoll),
    /// A Morale, Fumble or Stumble roll the GM resolved.
    GmRoll(shock::GmRoll),
    /// A Healing Sequence roll that needs no healer (blood loss, healing, course rolls, ...).
    SeqRoll(healing::SeqRoll),
    /// A Blood Stoppage Roll.
    BloodStoppage(healing::BloodStoppage),
    /// A Treatment Roll (or amputation as treatment).
    Treatment(healing::Treatment),
    /// A healer attends to Extended Shock or infection.
    HealerAttends(healing::HealerAttends),
    /// A campaign option turned on or off (`random-healing-period`, `aggravation`).
    OptionSet {
        /// The option.
        name: String,
        /// On or off.
        on: bool,
    },
    /// The campaign's TREATMENT ROLL tables, replacing the built-in ones.
    TreatmentTableDefined(healing::TreatmentTable),
    /// Weapons and armour the campaign uses (a later definition of a name replaces it).
    ArmsDefined(arms::Arms),
    /// A character's readied weapons, armour worn and combat skills.
    Equipped {
        /// The character.
        character: crate::ids::CharacterId,
        /// What they carry and can do.
        gear: arms::Gear,
    },
    /// One melee exchange through to the Injury Sequence.
    Melee(Box<exchange::MeleeExchange>),
    /// One missile attack through to the Injury Sequence.
    Shot(Box<shot::Shot>),
    /// Fatigue gained or recovered, as the GM records it.
    Fatigue(healing::FatigueChange),
    /// The aggravation option's Agility test on moving with a Serious injury.
    MoveTest(healing::MoveTest),
    /// One melee exchange whose attacker strikes with a natural weapon (an armed Block that
    /// wins by a star strikes back at its zone, 001 l.420).
    NaturalMelee(Box<exchange::NaturalMelee>),
}

impl HmEvent {
    /// The melee exchange the event records, if it records one (a natural weapon's too).
    pub fn exchange(&self) -> Option<&exchange::MeleeExchange> {
        match self {
            HmEvent::Melee(x) => Some(x),
            HmEvent::NaturalMelee(n) => Some(&n.exchange),
            _ => None,
        }
    }

    /// [`HmEvent::exchange`], to correct.
    pub fn exchange_mut(&mut self) -> Option<&mut exchange::MeleeExchange> {
        match self {
            HmEvent::Melee(x) => Some(x),
            HmEvent::NaturalMelee(n) => Some(&mut n.exchange),
            _ => None,
        }
    }
}

impl HmEvent {
    /// What the roll stakes, if it is a roll the rules owe once in its slot (see the
    /// kernel's `claim`): a shock reroll or stun recovery try at one moment, a Healing
    /// Sequence roll or a treatment for one injury at one moment, a blood stoppage for one
    /// bleeder in five minutes ("every five minutes", Healing Sequence step 1). (Rolls for
    /// one owed roll made at different moments are the fold's: the later is void with the
    /// rule's reason, and `disputes` lists the pair.)
    pub fn claim(&self, at: crate::time::CampaignTime) -> Option<leechbook_kernel::claim::Claim> {
        use leechbook_kernel::claim::Claim;
        Some(match self {
            HmEvent::ShockReroll(r) => Claim::at(r.character, "shock-reroll", None, at, 1),
            HmEvent::StunRecovery(r) => Claim::at(r.character, "stun-recovery", None, at, 1),
            HmEvent::SeqRoll(r) if !r.forced => {
                Claim::at(r.character, r.kind.name(), r.injury, at, 1)
            }
            HmEvent::BloodStoppage(b) => Claim::at(
                b.character,
                "blood-stoppage",
                Some(b.injury),
                at,
                5 * crate::time::MINUTE,
            ),
            HmEvent::Treatment(t) if !t.forced => {
                Claim::at(t.character, "treatment", Some(t.injury), at, 1)
            }
            _ => return None,
        })
    }
}

impl HmEvent {
    /// Checks every face the event records as a single field against its die: the check a
    /// recording command makes as it takes a face. Recording and amending call it before
    /// they write, and the fold voids an event that fails it (a face that came by another
    /// path), so no path takes a face its die cannot show. (The dice of a strike, exchange
    /// or shot are checked by `RecordedDice` as the sequence asks for them.)
    pub fn check_faces(&self) -> Result<(), crate::dice::DiceError> {
        use crate::dice::Die;
        let d100 = |name: &str, f: u16| Die::D100.check(name, f.into()).map(|_| ());
        let d3 = |name: &str, f: u16| Die::new(3)?.check(name, f.into()).map(|_| ());
        match self {
            HmEvent::ShockReroll(r) | HmEvent::StunRecovery(r) => d100("roll", r.roll),
            HmEvent::GmRoll(g) => g.roll.map_or(Ok(()), |f| d100("roll", f)),
            HmEvent::SeqRoll(r) => {
                if r.kind == healing::SeqRollKind::HealingPeriod {
                    d3("roll", r.roll)?;
                } else {
                    d100("roll", r.roll)?;
                }
                r.period.map_or(Ok(()), |p| d3("period", p))
            }
            HmEvent::BloodStoppage(b) => d100("roll", b.roll),
            HmEvent::Treatment(t) => d100("treatment", t.roll),
            HmEvent::Melee(_) | HmEvent::NaturalMelee(_) => {
                // 0: a forced CF rolled no die (the fold checks it is one).
                let x = self.exchange().expect("an exchange");
                if x.attack_roll != 0 {
                    d100("attack", x.attack_roll)?;
                }
                x.defence_roll
                    .filter(|&f| f != 0)
                    .map_or(Ok(()), |f| d100("defence", f))
            }
            HmEvent::Shot(x) if x.roll == 0 => Ok(()),
            HmEvent::Shot(x) => d100("attack", x.roll),
            // An automatic CF rolls no die: 0 (the fold checks it is automatic).
            HmEvent::MoveTest(m) if m.roll == 0 => Ok(()),
            HmEvent::MoveTest(m) => d100("roll", m.roll),
            _ => Ok(()),
        }
    }
}
