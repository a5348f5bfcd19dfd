//! The stored format is frozen: these bytes must never change. If this test fails, an event
//! type or the codec changed shape; old ledgers would no longer decode. Add a new variant or
//! a new codec instead (see store/src/codec.rs).

use leechbook_core::dice::Die;
use leechbook_core::harnmaster::body;
use leechbook_core::harnmaster::injury::*;
use leechbook_core::harnmaster::shock::{GmRoll, GmRollKind, ShockRoll};
use leechbook_core::harnmaster::state::{Aspect, MishapKind, Sheet};
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::ids::*;
use leechbook_core::time::CampaignTime;
use leechbook_core::{Event, SheetKind, SystemId};
use leechbook_store::codec::{decode_event, encode_event};
use uuid::Uuid;

fn samples() -> Vec<Event> {
    let who = CharacterId(Uuid::from_u128(0x0123_4567_89ab_cdef_0123_4567_89ab_cdef));
    vec![
        Event::CampaignCreated {
            name: "Kaldor".into(),
            system: SystemId::HarnMaster,
            round_seconds: 10,
        },
        Event::CharacterAdded {
            name: "Osric".into(),
            sheet: SheetKind::HarnMaster(Sheet {
                strength: 12,
                endurance: 12,
                shock_ml: 65,
                healing_base: 13,
                strength_ml: 60,
                body: "human".into(),
                beast: false,
                fatigue: 0,
            }),
        },
        Event::ClockAdvanced {
            to: CampaignTime(600),
        },
        Event::HarnMaster(HmEvent::Strike(Strike {
            target: who,
            aspect: Aspect::Edge,
            targeting: Targeting::Rolled {
                zone_die: Die::D6,
                aim: 4,
                precision: 0,
                pick_zone: None,
                pick_location: None,
                side: SideRule::LocationDie,
            },
            impact: ImpactInput::Rolled {
                roll: "d10+3".parse().unwrap(),
                strength_mod: 1,
                impact_ta: 0,
            },
            av: 4,
            rigid: false,
            projectile: false,
            face_option: false,
            dice: vec![
                RecordedDie {
                    name: "zone".into(),
                    faces: vec![2],
                },
                RecordedDie {
                    name: "shock".into(),
                    faces: vec![75],
                },
            ],
        })),
        Event::HarnMaster(HmEvent::ShockReroll(ShockRoll {
            character: who,
            roll: 42,
        })),
        Event::HarnMaster(HmEvent::StunRecovery(ShockRoll {
            character: who,
            roll: 61,
        })),
        Event::HarnMaster(HmEvent::GmRoll(GmRoll {
            character: who,
            kind: GmRollKind::Mishap(MishapKind::Fumble),
            injury: None,
            ml: Some(55),
            roll: Some(71),
            outcome: Some("drops his sword".into()),
        })),
        Event::HarnMaster(HmEvent::SheetChanged {
            character: who,
            sheet: Sheet {
                strength: 12,
                endurance: 12,
                shock_ml: 65,
                healing_base: 13,
                strength_ml: 60,
                body: "human".into(),
                beast: false,
                fatigue: 5,
            },
        }),
        // Issue 40's appended variants: an evaded area attack, a strike into a named zone,
        // Wrath & Glory's Medicae Regroup.
        Event::HarnMaster(HmEvent::Strike(Strike {
            target: who,
            aspect: Aspect::Fire,
            targeting: Targeting::EvadedArea { dodge: 55 },
            impact: ImpactInput::Effective(8),
            av: 0,
            rigid: false,
            projectile: false,
            face_option: false,
            dice: vec![RecordedDie {
                name: "dodge".into(),
                faces: vec![32],
            }],
        })),
        Event::HarnMaster(HmEvent::Strike(Strike {
            target: who,
            aspect: Aspect::Edge,
            targeting: Targeting::InZone { zone: "arm".into() },
            impact: ImpactInput::Effective(11),
            av: 0,
            rigid: false,
            projectile: false,
            face_option: false,
            dice: vec![],
        })),
        // Issue 41: where a character stands (a kernel event, after the roster's).
        Event::Standing {
            character: who,
            standing: leechbook_core::standing::Standing {
                side: leechbook_core::standing::Side::Foe,
                aside: Some("captured".into()),
            },
        },
        Event::WrathGlory(leechbook_core::wrath::WgEvent::MedicaeRegroup {
            character: who,
            healer: "Doc".into(),
            by: Some(who),
            pool: 4,
        }),
        // Issue 42: a character GM-only from now (a kernel event, after `Standing`).
        Event::Secret {
            character: who,
            secret: true,
        },
    ]
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn encoded_events_are_frozen() {
    let mut lines = Vec::new();
    for e in samples() {
        let bytes = encode_event(&e);
        assert_eq!(bytes[0], 1, "codec byte");
        assert_eq!(decode_event(1, &bytes).unwrap(), e, "round trip");
        lines.push(format!("{:<24} {}", e.kind(), hex(&bytes)));
    }
    insta::assert_snapshot!("encoded_events_v1", lines.join("\n"));
}

#[test]
fn the_human_table_round_trips_through_the_codec() {
    let e = Event::HarnMaster(HmEvent::BodyTableDefined(body::human()));
    assert_eq!(decode_event(1, &encode_event(&e)).unwrap(), e);
}

#[test]
fn unknown_codecs_schemas_and_corrupt_bytes_are_refused() {
    let bytes = encode_event(&samples()[0]);
    let mut other = bytes.clone();
    other[0] = 9;
    assert!(decode_event(1, &other)
        .unwrap_err()
        .to_string()
        .contains("codec 9"));
    assert!(decode_event(2, &bytes).is_err());
    assert!(decode_event(1, &bytes[..bytes.len() - 1]).is_err());
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(decode_event(1, &longer)
        .unwrap_err()
        .to_string()
        .contains("trailing"));
    assert!(decode_event(1, &[]).is_err());
}

/// 64-bit FNV-1a: a digest that never changes between Rust releases (the std hasher may).
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A folded state's bytes (what checkpoints and the projection keep, whose cache is keyed
/// by `FOLD_VERSION`) are tied to the fold's version: the same campaign folds to the same
/// bytes under one version, whatever is refactored. If this fails, the state's shape
/// changed (a field, a variant's place, a type of `Settings` or `CharacterState`): bump
/// `FOLD_VERSION`, so that ledgers drop the caches of the old shape and fold again, and
/// accept the new snapshot. (Events are frozen for ever: `encoded_events_are_frozen`.)
#[test]
fn a_folded_state_encodes_as_its_fold_version_says() {
    use leechbook_store::codec::{encode_character, encode_ledger};
    let ledger = leechbook_core::Ledger::fold(&leechbook_core::synthetic::campaign(600));
    assert!(ledger.characters.len() > 10 && ledger.void.len() < 600);
    let head = encode_ledger(&ledger.head());
    let mut characters = Vec::new();
    for c in &ledger.characters {
        characters.extend(encode_character(c));
    }
    let settings = encode_ledger(&leechbook_core::Ledger::default());
    insta::assert_snapshot!(
        "folded_state_digest",
        format!(
            "fold version {}\nhead {:016x} ({} bytes)\ncharacters {:016x} ({} bytes)\nempty ledger {}",
            leechbook_core::fold::FOLD_VERSION,
            fnv(&head),
            head.len(),
            fnv(&characters),
            characters.len(),
            hex(&settings)
        )
    );
}
