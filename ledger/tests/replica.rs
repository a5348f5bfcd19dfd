//! The replica's services are the same whatever keeps its log: one contract, run on a SQLite
//! ledger file and on the in-memory log. Each answer is checked against its definition, the
//! fold of the log (`Ledger::fold`), and a refused or what-if recording must leave the log
//! exactly as it was.

use leechbook_core::dice::{DiceError, Die, RecordedDie, Roll, Table};
use leechbook_core::fold::Ledger;
use leechbook_core::harnmaster::healing::{SeqRoll, SeqRollKind};
use leechbook_core::harnmaster::injury::{ImpactInput, Strike, Targeting};
use leechbook_core::harnmaster::state::Aspect;
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::ids::{CampaignId, DeviceId, EventId, InjuryId};
use leechbook_core::ruling::Ruling;
use leechbook_core::{synthetic, Envelope, Event};
use leechbook_ledger::checkpoint::checkpoint_state;
use leechbook_ledger::{Draft, LedgerError, Replica};
use leechbook_store::memory::MemoryLog;
use leechbook_store::{Log, Store};

/// The synthetic campaign's id (`synthetic::campaign` makes every event of it).
fn campaign() -> CampaignId {
    CampaignId(uuid::Uuid::from_u128(1))
}

/// The synthetic campaign of `n` events with `device` (the replica's own) rostered as a GM.
fn log_for(n: usize, device: DeviceId, key: [u8; 32]) -> Vec<Envelope> {
    synthetic::campaign_keyed(n, |d| vec![d; 32], Some((device, key.to_vec())))
}

/// A strike at c7's abdomen with its Shock die's face (none: for the table to give).
fn strike(target: leechbook_core::ids::CharacterId, shock: u16) -> Event {
    strike_with(target, (shock > 0).then_some(shock))
}

fn strike_with(target: leechbook_core::ids::CharacterId, shock: Option<u16>) -> Event {
    Event::HarnMaster(HmEvent::Strike(Strike {
        target,
        aspect: Aspect::Blunt,
        targeting: Targeting::Chosen {
            location: "abdomen".into(),
            side: None,
        },
        impact: ImpactInput::Effective(9),
        av: 0,
        rigid: false,
        projectile: false,
        face_option: false,
        dice: shock
            .map(|f| RecordedDie {
                name: "shock".into(),
                faces: vec![f],
            })
            .into_iter()
            .collect(),
    }))
}

/// The table's roller in a test: every die not given shows 5.
struct Fives;

impl Roll for Fives {
    fn face(&mut self, _: &'static str, _: Die) -> Result<u16, DiceError> {
        Ok(5)
    }
    fn rolls(&self) -> bool {
        true
    }
}

/// The table's dice for a strike: the faces given, a 5 for any other die.
fn table<'r>(faces: &[(&str, u16)], roll: &'r mut Fives) -> Table<'r> {
    let given = faces
        .iter()
        .map(|(name, f)| RecordedDie {
            name: (*name).into(),
            faces: vec![*f],
        })
        .collect();
    Table::new("the strike", given, roll)
}

fn healing(character: leechbook_core::ids::CharacterId, injury: InjuryId, forced: bool) -> Event {
    Event::HarnMaster(HmEvent::SeqRoll(SeqRoll {
        character,
        kind: SeqRollKind::Healing,
        injury: Some(injury),
        roll: 5,
        period: None,
        sheltered: true,
        forced,
    }))
}

/// The log in the total order, and its fold.
fn folded<L: Log>(r: &Replica<L>) -> (Vec<Envelope>, Ledger) {
    let events = r.store().events().unwrap();
    let ledger = Ledger::fold(&events);
    (events, ledger)
}

fn contract<L: Log>(mut r: Replica<L>, log: &[Envelope]) {
    let (c7, struck) = states_and_a_recording(&mut r, log);
    dice_drawn_once(&mut r, c7);
    refusals_write_nothing(&mut r, c7, struck);
    rulings_rederive_the_record(&mut r, c7, struck);
}

/// c7 as the fold holds it, without the records of its archive.
fn bare(
    l: &Ledger,
    c7: leechbook_core::ids::CharacterId,
) -> leechbook_core::harnmaster::state::HmCharacter {
    let mut c = l.character(c7).unwrap().hm().unwrap().clone();
    c.archive = Default::default();
    c
}

/// The state, the open state, and a recording (the event as appended, the state after it,
/// the checkpoint policy). Returns c7 and the strike recorded on it.
fn states_and_a_recording<L: Log>(
    r: &mut Replica<L>,
    log: &[Envelope],
) -> (leechbook_core::ids::CharacterId, EventId) {
    r.store_mut().import(log).unwrap();
    r.refresh().unwrap();
    let (_, full) = folded(r);
    assert!(
        r.state().unwrap() == full,
        "the state is the fold of the log"
    );
    // The open state: every character, all the rules read, none of the archive's records.
    let mut open = full.clone();
    for c in open.characters.iter_mut() {
        if let leechbook_core::CharacterState::HarnMaster(h) = c {
            h.archive = Default::default();
        }
    }
    assert!(
        r.state_open().unwrap() == open,
        "the open state is the fold without the archive's records"
    );
    let c7 = full.id_named("c7").unwrap();

    // A recording: the event as appended, the state after it, and the checkpoint policy.
    let done = r
        .record_for(Some(&["c7"]), |_| {
            Ok::<_, LedgerError>((strike(c7, 20), None))
        })
        .unwrap();
    let struck = done.envelope.id;
    let (events, full) = folded(r);
    assert_eq!(events.len(), log.len() + 1);
    assert_eq!(
        events.last().unwrap().id,
        struck,
        "appended last in the order"
    );
    assert!(r.state().unwrap() == full, "the projection is the fold");
    // The recorded state holds c7 as the fold does (it reads no archive records: only a
    // view that lists them does).
    assert!(
        bare(&done.ledger, c7) == bare(&full, c7),
        "the recorded state is the fold"
    );
    let c7_now = full.character(c7).unwrap().hm().unwrap();
    let wound = InjuryId(struck.0);
    assert!(
        c7_now.injury(wound).is_some(),
        "the strike's injury is c7's"
    );
    // More than a thousand events since none: the recording kept a checkpoint of itself.
    let heads = r.store().snapshot_heads().unwrap();
    assert_eq!(heads.first().map(|h| h.position), Some(events.len() as u64));
    let at_checkpoint = checkpoint_state(r.store(), events.len() as u64, None)
        .unwrap()
        .unwrap();
    assert!(at_checkpoint == full, "the checkpoint is the fold up to it");

    (c7, struck)
}

/// One pass: a strike recorded with the table's dice is decided once, drawing them; a die
/// given that the sequence never asks for refuses the recording.
fn dice_drawn_once<L: Log>(r: &mut Replica<L>, c7: leechbook_core::ids::CharacterId) {
    // One pass: a strike recorded with the table's dice is decided once, drawing them; the
    // event appended holds the faces drawn, signed as it reads, and folds to the same state.
    let mut fives = Fives;
    let mut table = table(&[("shock", 20)], &mut fives);
    let drawn = r
        .record_for(Some(&["c7"]), |_| {
            Ok::<_, LedgerError>(Draft {
                event: strike(c7, 0),
                at: None,
                dice: Some(&mut table),
            })
        })
        .unwrap();
    let Event::HarnMaster(HmEvent::Strike(s)) = &drawn.envelope.event else {
        panic!("a strike was recorded")
    };
    assert_eq!(
        s.dice, table.recorded,
        "the faces drawn, in the order drawn"
    );
    let shock = s.dice.iter().find(|d| d.name == "shock").map(|d| &d.faces);
    assert_eq!(shock, Some(&vec![20]), "the Shock die given");
    assert!(
        s.dice.len() > 1,
        "and the dice not given drawn: {:?}",
        s.dice
    );
    let (events, full) = folded(r);
    assert_eq!(events.last(), Some(&drawn.envelope), "appended as drawn");
    assert_eq!(
        leechbook_store::codec::signature_problem(&full.roster, &drawn.envelope),
        None,
        "signed after its faces were written"
    );
    assert!(r.state().unwrap() == full, "the projection is the fold");
    // A die given that the sequence never asks for (a chosen location rolls no zone)
    // refuses the recording, naming it, and writes nothing.
    let before = r.store().events().unwrap();
    let mut table = self::table(&[("shock", 20), ("zone", 3)], &mut fives);
    let refused = r.record_for(Some(&["c7"]), |_| {
        Ok::<_, LedgerError>(Draft {
            event: strike(c7, 0),
            at: None,
            dice: Some(&mut table),
        })
    });
    let Err(LedgerError::Fold(why)) = refused else {
        panic!("the zone die was not needed")
    };
    assert!(
        why.to_string()
            .contains("did not need the given 1 die(s): zone"),
        "{why}"
    );
    assert_eq!(r.store().events().unwrap(), before, "nothing was written");
}

/// A refusal leaves the log as it was; a forced roll is recorded.
fn refusals_write_nothing<L: Log>(
    r: &mut Replica<L>,
    c7: leechbook_core::ids::CharacterId,
    struck: EventId,
) {
    let wound = InjuryId(struck.0);
    let (_, full) = folded(r);
    // A refusal leaves the log as it was: an unforced Healing Roll before it falls due.
    let before = r.store().events().unwrap();
    let refused = r.record_for(Some(&["c7"]), |_| {
        Ok::<_, LedgerError>((healing(c7, wound, false), None))
    });
    assert!(
        matches!(refused, Err(LedgerError::Fold(_))),
        "the Healing Roll is not due for five days"
    );
    assert_eq!(r.store().events().unwrap(), before, "nothing was written");
    assert!(r.state().unwrap() == full);

    // A forced roll (5 on HB13 x HR: a success) is recorded; the state upto the strike is
    // the fold of the log up to it.
    r.record_for(Some(&["c7"]), |_| {
        Ok::<_, LedgerError>((healing(c7, wound, true), None))
    })
    .unwrap();
    let (events, full) = folded(r);
    assert!(r.state().unwrap() == full);
    let upto = events.iter().position(|e| e.id == struck).unwrap();
    assert!(
        r.state_upto(events[upto].order_key()).unwrap() == Ledger::fold(&events[..=upto]),
        "as of the strike"
    );
}

/// What-if records nothing; the ruling re-derives the record, the projection and the fates;
/// a ruling that cannot stand writes nothing.
fn rulings_rederive_the_record<L: Log>(
    r: &mut Replica<L>,
    c7: leechbook_core::ids::CharacterId,
    struck: EventId,
) {
    let wound = InjuryId(struck.0);
    let (events, full) = folded(r);
    // What-if: the record as it would be, with nothing recorded.
    let retract = Ruling::Retract {
        target: struck,
        reason: "the wrong target".into(),
    };
    let heads = r.store().snapshot_heads().unwrap();
    let (now, then) = r.what_if(retract.clone()).unwrap();
    assert!(now == full, "now is the record as it stands");
    assert!(
        then.character(c7)
            .unwrap()
            .hm()
            .unwrap()
            .injury(wound)
            .is_none(),
        "without the strike, no injury"
    );
    assert_eq!(
        r.store().events().unwrap(),
        events,
        "what-if recorded nothing"
    );
    // Its append dropped the checkpoint after the strike, in a transaction never committed.
    assert_eq!(
        r.store().snapshot_heads().unwrap(),
        heads,
        "nor dropped a checkpoint"
    );
    assert!(r.state().unwrap() == full);

    // The ruling itself: the record is re-derived, the projection and fates follow.
    let ruled = r
        .record_for(None, |_| {
            Ok::<_, LedgerError>((Event::Ruling(retract), None))
        })
        .unwrap();
    let (events, full) = folded(r);
    assert!(ruled.ledger == full, "the ruling's record is the fold");
    // As what-if said (its ruling was another envelope: only the characters compare).
    assert!(
        bare(&ruled.ledger, c7) == bare(&then, c7),
        "as what-if said"
    );
    assert!(r.state().unwrap() == full);
    let fates = r.fates().unwrap();
    assert!(
        fates.retracted.iter().any(|(t, _, _)| *t == struck),
        "the strike is retracted"
    );
    // The Healing Roll on the struck-out injury is void now: it names no injury.
    let heal = events
        .iter()
        .rev()
        .find(|e| e.event.kind() == "hm.seq-roll");
    assert!(fates.void.iter().any(|v| Some(v.id) == heal.map(|e| e.id)));

    // A ruling that cannot stand (on an event the log does not hold) writes nothing.
    let stray = Ruling::Retract {
        target: EventId(uuid::Uuid::from_u128(99)),
        reason: "no such event".into(),
    };
    let refused = r.record_for(None, |_| Ok::<_, LedgerError>((Event::Ruling(stray), None)));
    assert!(
        matches!(refused, Err(LedgerError::RulingCannotStand(_))),
        "{:?}",
        refused.err()
    );
    assert_eq!(r.store().events().unwrap(), events, "nothing was written");
    assert!(r.state().unwrap() == full);
}

#[test]
fn the_replica_keeps_its_contract_in_a_ledger_file() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::create_joining(&dir.path().join("l.db"), campaign()).unwrap();
    let log = log_for(2_500, store.device(), store.public_key());
    contract(Replica::from_store(store), &log);
}

#[test]
fn the_replica_keeps_its_contract_in_memory() {
    let device = DeviceId(uuid::Uuid::from_u128(42));
    let secret = [7u8; 32];
    let public = ed25519_dalek::SigningKey::from_bytes(&secret)
        .verifying_key()
        .to_bytes();
    let log = log_for(2_500, device, public);
    contract(
        Replica::from_store(MemoryLog::with_device(campaign(), device, secret)),
        &log,
    );
}
