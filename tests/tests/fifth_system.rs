//! A fifth rules system takes one entry in the list (ARCHITECTURE.md, "Adding a fifth
//! system"): `Tally`, a toy system defined here (a hit adds its points to a character's
//! wounds; ten or more and the character is dead), is listed after Leechbook's four with
//! `leechbook_core::rules_systems!` and nothing else. The list it makes folds a Tally
//! campaign through the kernel's fold, refuses what Tally refuses, and encodes every event of
//! the first four systems byte for byte as Leechbook's own list does (the stored format is
//! frozen: a fifth system is appended).

use leechbook_core::dice::{DiceError, DiceSource, RecordedDie};
use leechbook_core::ids::{CampaignId, CharacterId, DeviceId, EventId};
use leechbook_core::time::CampaignTime;
use leechbook_kernel::system::{Character, RulesSystem, Touched, World};
use serde::{Deserialize, Serialize};

/// A Tally character: wounds counted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tallied {
    id: CharacterId,
    name: String,
    wounds: u16,
}

impl Character for Tallied {
    fn id(&self) -> CharacterId {
        self.id
    }
    fn name(&self) -> &str {
        &self.name
    }
}

/// A hit of so many points.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hit {
    character: CharacterId,
    points: u16,
}

/// Why Tally refuses a hit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TallyError(String);

impl std::fmt::Display for TallyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<DiceError> for TallyError {
    fn from(e: DiceError) -> TallyError {
        TallyError(e.to_string())
    }
}

/// The toy system.
pub struct Tally;

impl leechbook_kernel::system::OfSystem for Hit {
    type System = Tally;
}

impl RulesSystem for Tally {
    type Character = Tallied;
    type Event = Hit;
    type Settings = ();
    type Outcome = u16;
    type Applied = (CharacterId, u16);
    type Error = TallyError;
    type Sheet = ();
    type Decree = std::convert::Infallible;
    const NAME: &'static str = "tally";

    fn readings() -> Vec<(&'static str, &'static str)> {
        vec![("Tally", "A hit adds its points; ten wounds kill.")]
    }
    fn kind(_: &Hit) -> &'static str {
        "tally.hit"
    }
    fn sheet(_: &Tallied) {}
    fn dead(c: &Tallied) -> bool {
        c.wounds >= 10
    }
    fn about(a: &(CharacterId, u16)) -> Option<CharacterId> {
        Some(a.0)
    }
    fn new_character(_: &(), id: CharacterId, name: &str, _: &()) -> Result<Tallied, TallyError> {
        Ok(Tallied {
            id,
            name: name.to_string(),
            wounds: 0,
        })
    }
    fn touches(e: &Hit) -> Touched {
        Touched::one(e.character)
    }
    fn decide(
        _: &(),
        characters: &[&Tallied],
        e: &Hit,
        _: &World,
        _: &mut dyn DiceSource,
    ) -> Result<u16, TallyError> {
        let c = characters[0];
        if c.wounds >= 10 {
            return Err(TallyError(format!("{} is dead", c.name)));
        }
        Ok(c.wounds + e.points)
    }
    fn dice(_: &Hit) -> &[RecordedDie] {
        &[]
    }
    fn record(_: &mut Hit, _: Vec<RecordedDie>) {}
    fn apply(_: &mut (), cs: &mut [&mut Tallied], wounds: u16, _: &World) -> (CharacterId, u16) {
        cs[0].wounds = wounds;
        (cs[0].id, wounds)
    }
    fn decree(
        _: &(),
        _: &mut Tallied,
        d: &std::convert::Infallible,
        _: &World,
    ) -> Result<String, TallyError> {
        match *d {}
    }
}

/// Leechbook's four systems and Tally: one entry more than `leechbook_core::systems`.
mod five {
    use leechbook_core::harnmaster::system::Decree;

    leechbook_core::rules_systems! {
        /// Leechbook's systems and a fifth.
        list FiveSystems;
        decree Decree, "injury level, shock state or healing rate";
        /// HârnMaster.
        HarnMaster(leechbook_core::harnmaster::system::HarnMaster), hm;
        /// Savage Worlds.
        SavageWorlds(leechbook_core::savage::system::SavageWorlds), sw;
        /// Wrath & Glory.
        WrathGlory(leechbook_core::wrath::system::WrathGlory), wg;
        /// Witch Iron.
        WitchIron(leechbook_core::witch::system::WitchIron), wi;
        /// The toy fifth.
        Tally(super::Tally), tally;
    }
}

use five::{Applied, Event, FiveSystems, SheetKind, SystemId, SystemOutcome};

fn env(n: u64, event: Event) -> leechbook_kernel::envelope::Envelope<Event> {
    leechbook_kernel::envelope::Envelope {
        id: EventId(uuid::Uuid::from_u128(u128::from(n))),
        campaign: CampaignId(uuid::Uuid::from_u128(1)),
        device: DeviceId(uuid::Uuid::from_u128(7)),
        seq: n,
        clock: n,
        wall: chrono::DateTime::<chrono::Utc>::UNIX_EPOCH,
        at: CampaignTime::START,
        schema: leechbook_core::SCHEMA_VERSION,
        event,
        signature: None,
    }
}

/// A Tally campaign folds through the kernel's fold: 4 + 5 wounds, then a hit of 3 kills
/// (12 wounds), and a hit on the dead is refused in Tally's words and changes nothing.
#[test]
fn a_fifth_system_folds_by_one_entry() {
    assert_eq!(SystemId::from_name("tally"), Some(SystemId::Tally));
    assert_eq!(SystemId::ALL.len(), 5);
    let ada = CharacterId(uuid::Uuid::from_u128(2));
    let hit = |points| {
        Event::Tally(Hit {
            character: ada,
            points,
        })
    };
    let log = vec![
        env(
            1,
            Event::CampaignCreated {
                name: "toy".into(),
                system: SystemId::Tally,
                round_seconds: 6,
            },
        ),
        env(
            2,
            Event::CharacterAdded {
                name: "Ada".into(),
                sheet: SheetKind::Tally(()),
            },
        ),
        env(3, hit(4)),
        env(4, hit(5)),
        env(5, hit(3)),
        env(6, hit(1)),
    ];
    let mut l = leechbook_kernel::fold::Ledger::<FiveSystems>::default();
    let mut applied = Vec::new();
    for e in &log {
        applied.push(l.apply(e).map_err(|e| e.to_string()));
    }
    assert_eq!(
        applied[4],
        Ok(Applied::System {
            character: ada,
            outcome: SystemOutcome::Tally((ada, 12)),
        })
    );
    assert_eq!(applied[5], Err("Ada is dead".to_string()));
    let ada_now = l.character(ada).expect("Ada is held");
    assert!(ada_now.dead());
    assert_eq!(ada_now.name(), "Ada");
    assert_eq!(l.void.len(), 1);
    assert_eq!(log[2].event.kind(), "tally.hit");
    assert_eq!(log[2].event.character(), Some(ada));
    // A Tally sheet in a HârnMaster campaign is of another system.
    let mut hm = leechbook_kernel::fold::Ledger::<FiveSystems>::default();
    let created = env(
        1,
        Event::CampaignCreated {
            name: "hm".into(),
            system: SystemId::HarnMaster,
            round_seconds: 6,
        },
    );
    hm.apply(&created).expect("created");
    let refused = hm.apply(&log[1]).expect_err("a Tally sheet");
    assert_eq!(
        refused.to_string(),
        "the campaign plays harnmaster, not tally"
    );
}

/// The four systems' events encode to the same bytes in the list of five as in
/// Leechbook's list (every event of the four fixture ledgers, one per system, and of the
/// synthetic campaign): the stored format does not move when a system is appended.
#[test]
fn a_fifth_entry_moves_no_stored_byte_of_the_four() {
    let config = bincode::config::standard();
    let encode = |e: &dyn erased::Encode| e.bytes(config);
    let mut events = leechbook_core::synthetic::campaign(400);
    let dir = tempfile::tempdir().unwrap();
    for system in ["harnmaster", "savage-worlds", "wrath-glory", "witch-iron"] {
        let db = dir.path().join(format!("{system}.db"));
        let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("../fixtures/ledgers/v1-{system}.db"));
        std::fs::copy(fixture, &db).unwrap();
        events.extend(leechbook_store::Store::open(&db).unwrap().events().unwrap());
    }
    let mut kinds = std::collections::BTreeSet::new();
    for env in &events {
        let bytes = encode(&env.event);
        let five: Event = bincode::serde::decode_from_slice(&bytes, config)
            .map(|(e, _)| e)
            .expect("decodes");
        assert_eq!(encode(&five), bytes, "{}", env.event.kind());
        assert_eq!(five.kind(), env.event.kind());
        assert_eq!(five.characters(), env.event.characters());
        kinds.insert(env.event.kind());
    }
    for kind in [
        "hm.strike",
        "sw.",
        "wg.",
        "wi.quarrel",
        "ruling.",
        "roster.device",
    ] {
        assert!(
            kinds.iter().any(|k| k.starts_with(kind)),
            "{kind} in {kinds:?}"
        );
    }
}

/// Encoding either list's events with one function.
mod erased {
    pub trait Encode {
        fn bytes(&self, config: bincode::config::Configuration) -> Vec<u8>;
    }

    impl<T: serde::Serialize> Encode for T {
        fn bytes(&self, config: bincode::config::Configuration) -> Vec<u8> {
            bincode::serde::encode_to_vec(self, config).expect("encodes")
        }
    }
}
