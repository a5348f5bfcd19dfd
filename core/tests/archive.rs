//! The archive of healed injuries (`HmCharacter::file_healed`): a healed injury that no rule
//! reads again leaves the character's live injuries for its archive, every event that names
//! it is refused exactly as a healed injury is, what still matters stays, and a GM's decree
//! reopens one.

use crate::common;
use common::*;
use leechbook_core::event::{Decree, Ruling};
use leechbook_core::harnmaster::healing::*;
use leechbook_core::harnmaster::state::*;
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::ids::*;
use leechbook_core::time::{CampaignTime, DAY};
use leechbook_core::*;

fn seq(
    w: &mut World,
    who: CharacterId,
    kind: SeqRollKind,
    injury: InjuryId,
    roll: u16,
) -> Result<Applied, FoldError> {
    w.apply(Event::HarnMaster(HmEvent::SeqRoll(SeqRoll {
        character: who,
        kind,
        injury: Some(injury),
        roll,
        period: None,
        sheltered: true,
        forced: false,
    })))
}

/// An M1E to the abdomen (effective 3), healed by a successful Healing Roll on day 5.
fn healed_minor(w: &mut World, who: CharacterId) -> InjuryId {
    let id = w
        .strike(chosen(
            who,
            Aspect::Edge,
            "abdomen",
            None,
            3,
            &[("shock", &[12])],
        ))
        .unwrap()
        .injury
        .unwrap()
        .id;
    w.at = CampaignTime(5 * DAY);
    seq(w, who, SeqRollKind::Healing, id, 1).unwrap();
    id
}

#[test]
fn a_healed_injury_no_rule_reads_is_filed_and_refused_as_healed() {
    let mut w = World::new();
    let t = w.add("Patient", 95);
    let id = healed_minor(&mut w, t);
    let order = (w.clock, DeviceId(uuid::Uuid::from_u128(7)), w.clock);
    let c = w.hm(t);
    assert!(c.injuries.is_empty(), "{:?}", c.injuries);
    assert_eq!(
        c.archived,
        vec![Filed {
            id,
            worst: 1,
            aspect: Aspect::Edge
        }]
    );
    // The record, filed after the healing roll, as it healed.
    assert_eq!(c.archive.records.len(), 1);
    assert_eq!(c.archive.records[0].since, order);
    let rec = &c.archive.records[0].injury;
    assert_eq!(
        (rec.code(), rec.heal.healed_at),
        ("M1E".to_string(), Some(CampaignTime(5 * DAY)))
    );
    assert_eq!(c.all_injuries().len(), 1);
    assert!(c.any_injury(id).is_some_and(Injury::healed));

    // Every roll that names it is refused as for any healed injury, with its code.
    w.at = CampaignTime(10 * DAY);
    let healing = seq(&mut w, t, SeqRollKind::Healing, id, 1).unwrap_err();
    assert!(healing.to_string().contains("has healed"), "{healing}");
    let loss = seq(&mut w, t, SeqRollKind::BloodLoss, id, 1).unwrap_err();
    assert!(loss.to_string().contains("M1E is not a bleeder"), "{loss}");
    let period = seq(&mut w, t, SeqRollKind::HealingPeriod, id, 2).unwrap_err();
    assert!(period.to_string().contains("has healed"), "{period}");
    let treatment = w
        .apply(Event::HarnMaster(HmEvent::Treatment(Treatment {
            character: t,
            injury: id,
            healer: "Healer".into(),
            physician_ml: 50,
            physician_index: 4,
            dex_mod: 0,
            broadhead: false,
            amputate: false,
            roll: 10,
            forced: true,
        })))
        .unwrap_err();
    assert!(treatment.to_string().contains("has healed"), "{treatment}");
    // An id the character never had is still unknown, not healed.
    let unknown = seq(
        &mut w,
        t,
        SeqRollKind::Healing,
        InjuryId(uuid::Uuid::from_u128(99)),
        1,
    )
    .unwrap_err();
    assert!(unknown.to_string().contains("no injury"), "{unknown}");
}

#[test]
fn injuries_keep_the_order_inflicted_across_the_archive() {
    let mut w = World::new();
    let t = w.add("Patient", 95);
    let first = healed_minor(&mut w, t);
    let second = w
        .strike(chosen(
            t,
            Aspect::Blunt,
            "thigh",
            Some(Side::Left),
            8,
            &[("shock", &[12])],
        ))
        .unwrap()
        .injury
        .unwrap()
        .id;
    let c = w.hm(t);
    let all: Vec<(InjuryId, u32)> = c.all_injuries().iter().map(|i| (i.id, i.n)).collect();
    assert_eq!(all, vec![(first, 0), (second, 1)]);
    assert_eq!(c.injuries_suffered(), 2);
}

/// An S2E to the abdomen (effective 8), treated (`treat`) at once, then healed by successful
/// Healing Rolls on days 5 and 10 (S2 -> M1 -> healed).
fn healed_serious(w: &mut World, who: CharacterId, treat: bool) -> InjuryId {
    let id = w
        .strike(chosen(
            who,
            Aspect::Edge,
            "abdomen",
            None,
            8,
            &[("shock", &[12])],
        ))
        .unwrap()
        .injury
        .unwrap()
        .id;
    if treat {
        common::treat(w, who, id, 50, 4, 61).unwrap();
    }
    for day in [5, 10, 15, 20] {
        w.at = CampaignTime(day * DAY);
        if w.hm(who).injury(id).is_some_and(Injury::healed) || w.hm(who).filed(id).is_some() {
            break;
        }
        seq(w, who, SeqRollKind::Healing, id, 1).unwrap();
    }
    id
}

#[test]
fn a_treated_healed_injury_without_the_permanent_mark_is_filed() {
    let mut w = World::new();
    let t = w.add("Patient", 95);
    let id = healed_serious(&mut w, t, true);
    // Healed, but the Morale Roll it brought is still owed and names it: it stays.
    assert!(w.hm(t).injury(id).is_some_and(Injury::healed));
    assert!(w.hm(t).archived.is_empty());
    // Once the GM resolves that roll, nothing names it: it is filed.
    w.apply(Event::HarnMaster(HmEvent::GmRoll(
        leechbook_core::harnmaster::shock::GmRoll {
            character: t,
            kind: leechbook_core::harnmaster::shock::GmRollKind::Morale,
            injury: Some(id),
            ml: Some(50),
            roll: Some(20),
            outcome: Some("steady".into()),
        },
    )))
    .unwrap();
    let c = w.hm(t);
    assert!(c.injury(id).is_none(), "{c:?}");
    assert_eq!(c.filed(id).map(|f| f.worst), Some(2));
}

#[test]
fn a_healed_injury_that_may_accrue_permanent_impairment_stays_live() {
    // Treated under a cell with the permanent mark (every cell of the edged Serious column
    // marked): the impairment rules read its permanent impairment at every later moment.
    let mut w = World::new();
    let t = w.add("Patient", 95);
    let mut table = treatment_table();
    for cell in table.types[1].severities[1].cells.iter_mut() {
        cell.permanent = true;
    }
    w.apply(Event::HarnMaster(HmEvent::TreatmentTableDefined(table)))
        .unwrap();
    let id = healed_serious(&mut w, t, true);
    let c = w.hm(t);
    assert!(c.injury(id).is_some_and(Injury::healed), "{c:?}");
    assert!(c.archived.is_empty());

    // Untreated, it reads the campaign's treatment table, which the GM may change: it stays.
    let mut w = World::new();
    let u = w.add("Untreated", 95);
    let id = healed_serious(&mut w, u, false);
    assert!(w.hm(u).injury(id).is_some_and(Injury::healed));
    assert!(w.hm(u).archived.is_empty());
}

#[test]
fn a_decree_reopens_an_archived_injury_and_a_later_healing_files_it_again() {
    let mut w = World::new();
    let t = w.add("Patient", 95);
    let id = healed_minor(&mut w, t);
    w.at = CampaignTime(6 * DAY);
    w.apply(Event::Ruling(Ruling::Override {
        character: t,
        decree: Decree::InjuryLevel {
            injury: id,
            level: 1,
        },
        reason: "the wound reopens".into(),
    }))
    .unwrap();
    let c = w.hm(t);
    assert!(c.archived.is_empty() && c.archive.filed().next().is_none());
    // Its record stays, marked reopened by the decree: the archive as it stood until then.
    assert_eq!(c.archive.records[0].reopened.map(|k| k.0), Some(w.clock));
    let inj = c.injury(id).unwrap();
    assert_eq!((inj.level, inj.worst, inj.n), (1, 1, 0));
    // A decree that heals it files it again, after the decree.
    w.at = CampaignTime(7 * DAY);
    w.apply(Event::Ruling(Ruling::Override {
        character: t,
        decree: Decree::InjuryLevel {
            injury: id,
            level: 0,
        },
        reason: "healed after all".into(),
    }))
    .unwrap();
    let c = w.hm(t);
    assert!(c.injuries.is_empty());
    assert_eq!(c.archived.len(), 1);
    assert_eq!(c.archive.filed().count(), 1);
    assert_eq!(c.archive.filed().next().unwrap().since.0, w.clock);
}

/// The fold files, after each event, only what the event changed (a Healing Roll: its injury),
/// which is all there is to file only if nothing was left before it: after every event of the
/// synthetic campaign (strikes, treatments, Healing Rolls, retractions), a whole look at each
/// character it touched files nothing more.
#[test]
fn after_every_event_nothing_is_left_to_file() {
    let log = leechbook_core::synthetic::campaign(12_000);
    let mut ledger = leechbook_core::fold::Ledger::new();
    let rulings = leechbook_core::ruling::Rulings::from_log(&log);
    ledger.roster = leechbook_core::roster::Roster::from_log(&log);
    let mut filed = 0;
    for env in &log {
        ledger.step(env, &rulings, &mut |_, _, _| {});
        for id in env.event.characters() {
            let Some(c) = ledger.character(id).and_then(|c| c.hm()) else {
                continue;
            };
            filed = filed.max(c.archived.len());
            let mut again = c.clone();
            again.file_healed(env.order_key());
            assert_eq!(
                again.injuries.len(),
                c.injuries.len(),
                "left to file after {}",
                env.event.kind()
            );
        }
    }
    assert!(filed > 20, "the campaign files healed injuries ({filed})");
}
