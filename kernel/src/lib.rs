//! Leechbook's kernel: what every rules system and the ledger itself speak in, and nothing
//! of any one system: ids, campaign time, dice with the faces they showed (and the source
//! that hands recorded faces back, so that replaying the log never rolls again), the d100
//! test, the envelope with the fold's total order, the roster of devices, the rulings in
//! force over a log, disputes, and the fold itself: generic over the list of rules systems a
//! ledger knows ([`system::Systems`]), each of which implements one trait
//! ([`system::RulesSystem`]) the same way.
//!
//! **Architecture invariant:** this crate depends on no rules system and no system's type
//! appears in it (its docs may say where a rule comes from, as the d100 test's do); it is
//! pure (no I/O, no clock, no random source: faces, times and ids arrive as values). A rules
//! system's crate or module builds on it, never the other way.

#![warn(missing_docs)]
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

pub mod amend;
pub mod claim;
pub mod dice;
pub mod dispute;
pub mod envelope;
pub mod event;
pub mod fold;
pub mod ids;
pub mod name;
pub mod roster;
pub mod ruling;
pub mod standing;
pub mod system;
pub mod test_roll;
pub mod time;

/// A toy event type and a toy rules system for the kernel's own tests: the kernel works for
/// any event that is a [`envelope::LedgerEvent`] and any list of systems that is a
/// [`system::Systems`], with no real rules system in sight.
#[cfg(test)]
pub(crate) mod toy {
    use crate::dice::{DiceError, DiceSource, Die, RecordedDie};
    use crate::envelope::{Envelope, LedgerEvent};
    use crate::fold::Ledger;
    use crate::ids::{CampaignId, CharacterId, DeviceId, EventId};
    use crate::roster::RosterChange;
    use crate::ruling::Ruling;
    use crate::system::{
        Character, Entry, Hosts, OfSystem, Refusal, RulesSystem, Settled, Systems, Touched, World,
    };
    use crate::time::CampaignTime;
    use serde::{Deserialize, Serialize};

    /// The events of a toy campaign: its creation, a character joining, a hit on a
    /// character (the toy system's one event), rulings (decreeing a number of wounds), roster
    /// changes.
    #[derive(Clone, Debug, PartialEq)]
    pub enum Toy {
        Created,
        Joined(String),
        Roll(Hit),
        Ruled(Ruling<Toy, u16>),
        Roster(RosterChange),
    }

    /// A hit of so many points on a character: the toy system refuses more than 100. A hit
    /// of no points rolls a d6 named `graze` for them (its face recorded in the third field).
    #[derive(Clone, Debug, PartialEq)]
    pub struct Hit(pub u16, pub CharacterId, pub Vec<RecordedDie>);

    impl LedgerEvent for Toy {
        type Decree = u16;
        fn kind(&self) -> &'static str {
            match self {
                Toy::Created => "created",
                Toy::Joined(_) => "joined",
                Toy::Roll(..) => "roll",
                Toy::Ruled(_) => "ruling",
                Toy::Roster(_) => "roster",
            }
        }
        fn creates_campaign(&self) -> bool {
            matches!(self, Toy::Created)
        }
        fn roster_change(&self) -> Option<&RosterChange> {
            match self {
                Toy::Roster(c) => Some(c),
                _ => None,
            }
        }
        fn ruling(&self) -> Option<&Ruling<Toy, u16>> {
            match self {
                Toy::Ruled(r) => Some(r),
                _ => None,
            }
        }
        fn character(&self) -> Option<CharacterId> {
            match self {
                Toy::Roll(Hit(_, c, _)) => Some(*c),
                Toy::Ruled(Ruling::Override { character, .. }) => Some(*character),
                _ => None,
            }
        }
    }

    /// The one system the toy campaign knows.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct ToySystems;

    /// A toy character: wounds counted.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub struct Wounded {
        pub id: CharacterId,
        pub name: String,
        pub wounds: u16,
    }

    impl Character for Wounded {
        fn id(&self) -> CharacterId {
            self.id
        }
        fn name(&self) -> &str {
            &self.name
        }
    }

    /// What applying a toy event did.
    #[derive(Clone, Debug, PartialEq)]
    pub enum ToyApplied {
        Kernel(Settled),
        Wounds(u16),
    }

    impl From<Settled> for ToyApplied {
        fn from(s: Settled) -> ToyApplied {
            ToyApplied::Kernel(s)
        }
    }

    /// Why a toy event is void.
    #[derive(Debug)]
    pub struct ToyError(pub Refusal);

    impl From<Refusal> for ToyError {
        fn from(r: Refusal) -> ToyError {
            ToyError(r)
        }
    }

    impl std::fmt::Display for ToyError {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            match &self.0 {
                Refusal::System { message, .. } => write!(f, "{message}"),
                Refusal::Dice(e) => write!(f, "{e}"),
                other => write!(f, "{other:?}"),
            }
        }
    }

    impl Systems for ToySystems {
        type Id = u8;
        type Event = Toy;
        type Sheet = ();
        type Character = Wounded;
        type Settings = ();
        type Decree = u16;
        type Applied = ToyApplied;
        type Error = ToyError;
        const DECREES: &'static str = "wounds";

        fn name(_: u8) -> &'static str {
            "toy"
        }
        fn entry(e: &Toy) -> Entry<'_, ToySystems> {
            match e {
                Toy::Created => Entry::CampaignCreated {
                    name: "toy",
                    system: 1,
                    round_seconds: 10,
                },
                Toy::Joined(name) => Entry::CharacterAdded {
                    name,
                    sheet: &(),
                    system: 1,
                },
                Toy::Roll(hit) => Entry::System(hit),
                Toy::Ruled(r) => Entry::Ruling(r),
                Toy::Roster(c) => Entry::Roster(c),
            }
        }
        fn system_mut(e: &mut Toy) -> Option<&mut dyn crate::system::SystemEvent<ToySystems>> {
            match e {
                Toy::Roll(hit) => Some(hit),
                _ => None,
            }
        }
        fn character(
            all: &(),
            id: CharacterId,
            name: &str,
            sheet: &(),
        ) -> Result<Wounded, ToyError> {
            crate::system::new_character::<ToySystems, Dice>(all, id, name, sheet)
        }
        fn decree(
            settings: &(),
            character: &mut Wounded,
            decree: &u16,
            world: &World,
        ) -> Result<String, ToyError> {
            crate::system::decree_on::<ToySystems, Dice>(settings, character, decree, world)
        }
    }

    /// The toy rules system: a hit adds its points to the wounds; a GM decrees the wounds.
    pub struct Dice;

    /// Why the toy system refuses a hit, in words.
    #[derive(Debug)]
    pub struct ToyRefusal(pub String);

    impl From<&str> for ToyRefusal {
        fn from(s: &str) -> ToyRefusal {
            ToyRefusal(s.to_string())
        }
    }

    impl From<DiceError> for ToyRefusal {
        fn from(e: DiceError) -> ToyRefusal {
            ToyRefusal(e.to_string())
        }
    }

    impl std::fmt::Display for ToyRefusal {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(&self.0)
        }
    }

    impl OfSystem for Hit {
        type System = Dice;
    }

    impl Hosts<Dice> for ToySystems {
        const ID: u8 = 1;
        fn wrap(c: Wounded) -> Wounded {
            c
        }
        fn held(state: &Wounded) -> Option<&Wounded> {
            Some(state)
        }
        fn held_mut(state: &mut Wounded) -> Option<&mut Wounded> {
            Some(state)
        }
        fn settings(all: &()) -> &() {
            all
        }
        fn settings_mut(all: &mut ()) -> &mut () {
            all
        }
        fn applied(wounds: u16) -> ToyApplied {
            ToyApplied::Wounds(wounds)
        }
        fn refused(e: ToyRefusal) -> ToyError {
            ToyError(Refusal::System {
                system: "toy",
                message: e.0,
            })
        }
        fn decree_of(d: &u16) -> Option<&u16> {
            Some(d)
        }
    }

    impl RulesSystem for Dice {
        type Character = Wounded;
        type Event = Hit;
        type Settings = ();
        type Outcome = u16;
        type Applied = u16;
        type Error = ToyRefusal;
        type Sheet = ();
        type Decree = u16;
        const NAME: &'static str = "toy";

        fn readings() -> Vec<(&'static str, &'static str)> {
            Vec::new()
        }
        fn kind(_: &Hit) -> &'static str {
            "roll"
        }
        fn sheet(_: &Wounded) {}
        fn dead(c: &Wounded) -> bool {
            c.wounds >= 100
        }
        fn about(_: &u16) -> Option<CharacterId> {
            None
        }

        fn new_character(
            _: &(),
            id: CharacterId,
            name: &str,
            _: &(),
        ) -> Result<Wounded, ToyRefusal> {
            Ok(Wounded {
                id,
                name: name.to_string(),
                wounds: 0,
            })
        }
        fn touches(e: &Hit) -> Touched {
            Touched::one(e.1)
        }
        fn decide(
            _: &(),
            characters: &[&Wounded],
            e: &Hit,
            _: &World,
            dice: &mut dyn DiceSource,
        ) -> Result<u16, ToyRefusal> {
            if e.0 > 100 {
                return Err("no d100 shows more than 100".into());
            }
            let points = match e.0 {
                0 => dice.faces("graze", Die::D6, 1)?[0],
                n => n,
            };
            Ok(characters[0].wounds + points)
        }
        fn dice(e: &Hit) -> &[RecordedDie] {
            &e.2
        }
        fn record(e: &mut Hit, dice: Vec<RecordedDie>) {
            e.2 = dice;
        }
        fn apply(_: &mut (), characters: &mut [&mut Wounded], wounds: u16, _: &World) -> u16 {
            characters[0].wounds = wounds;
            wounds
        }
        fn decree(
            _: &(),
            character: &mut Wounded,
            decree: &u16,
            _: &World,
        ) -> Result<String, ToyRefusal> {
            character.wounds = *decree;
            Ok(format!("{} has {decree} wounds", character.name))
        }
    }

    /// The toy fold.
    pub type ToyLedger = Ledger<ToySystems>;

    /// The toy's roller: every die it rolls shows the same face.
    pub struct Always(pub u16);

    impl crate::dice::Roll for Always {
        fn face(&mut self, _: &'static str, _: Die) -> Result<u16, DiceError> {
            Ok(self.0)
        }
        fn rolls(&self) -> bool {
            true
        }
    }

    /// The id of the `n`th toy event.
    pub fn id(n: u64) -> EventId {
        EventId(uuid::Uuid::from_u128(u128::from(n)))
    }

    /// The character added by the `n`th toy event.
    pub fn character(n: u64) -> CharacterId {
        CharacterId(id(n).0)
    }

    /// A device.
    pub fn device(n: u8) -> DeviceId {
        DeviceId(uuid::Uuid::from_u128(u128::from(n) << 64))
    }

    /// The `n`th event of the log, recorded by `by`: its number is its place.
    pub fn env(n: u64, by: DeviceId, event: Toy) -> Envelope<Toy> {
        Envelope {
            id: id(n),
            campaign: CampaignId(uuid::Uuid::from_u128(1)),
            device: by,
            seq: n,
            clock: n,
            wall: chrono::DateTime::<chrono::Utc>::UNIX_EPOCH,
            at: CampaignTime::START,
            schema: 1,
            event,
            signature: None,
        }
    }
}
