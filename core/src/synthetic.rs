//! A seeded synthetic campaign, for benchmarks and load tests: a GM's device and four players'
//! devices (each rostered for 25 of the 100 HârnMaster characters), day by day. Each day a
//! character has a one-in-twenty chance of a thorax strike (shock and compound dice recorded,
//! by its player's device), is treated by the GM's device the day after a strike, and
//! otherwise rolls a healing roll for its oldest injury; about every 400th event is a
//! mistaken roll that the GM retracts with a ruling. Deterministic: the same `n` gives the
//! same log, ids included, on every machine. About a million events is ten campaign years.

use crate::harnmaster::healing::{SeqRoll, SeqRollKind};
use crate::harnmaster::injury::*;
use crate::harnmaster::state::*;
use crate::harnmaster::HmEvent;
use crate::ids::*;
use crate::time::{CampaignTime, DAY};
use crate::*;
use chrono::{DateTime, Utc};
use uuid::Uuid;

/// The devices of the synthetic campaign: the GM's (0) and four players' (1 to 4).
pub const DEVICES: u8 = 5;

/// The id of the synthetic campaign's device `d` (0 is the GM's).
pub fn device(d: u8) -> DeviceId {
    DeviceId(Uuid::from_u128(7 + u128::from(d)))
}

/// When the synthetic campaign's event with Lamport clock `clock` was recorded: half a
/// minute apart, from 2020-01-01 00:00 UTC, in the log's order.
pub fn wall_of(clock: u64) -> DateTime<Utc> {
    DateTime::<Utc>::UNIX_EPOCH + chrono::Duration::seconds(1_577_836_800 + 30 * clock as i64)
}

/// A seeded synthetic log of exactly `n` events, the roster holding placeholder keys (the
/// events are not signed).
pub fn campaign(n: usize) -> Vec<Envelope> {
    campaign_keyed(n, |d| vec![d; 32], None)
}

/// A seeded synthetic log of exactly `n` events whose roster gives device `d` the public key
/// `key(d)` (to sign the events with, where signatures are to be checked), and rosters
/// `also_gm` (a device id and key: the ledger's own device, to record on it) as a GM too.
pub fn campaign_keyed(
    n: usize,
    key: impl Fn(u8) -> Vec<u8>,
    also_gm: Option<(DeviceId, Vec<u8>)>,
) -> Vec<Envelope> {
    let mut log = Log {
        out: Vec::with_capacity(n),
        clock: 0,
        seqs: [0; DEVICES as usize],
    };
    let mut ids = cast(&mut log, key, also_gm);
    // Injuries to treat (the day after the strike), by character.
    let mut untreated: Vec<Option<InjuryId>> = vec![None; ids.len()];
    let mut rnd = Lcg(42);
    let mut day = 0i64;
    // The campaign so far, so that no roll is generated for an injury that has healed.
    let mut so_far = crate::fold::Ledger::fold(&log.out);
    while log.out.len() < n {
        day += 1;
        // The GM moves the clock to the day (only the GM does: a player's event dated past
        // the clock is void).
        let advance = Event::ClockAdvanced {
            to: CampaignTime(day * DAY),
        };
        log.push(GM, day * DAY, advance);
        if let Some(e) = log.out.last() {
            let _ = so_far.apply(e);
        }
        for (c, (who, injuries)) in ids.iter_mut().enumerate() {
            if log.out.len() >= n {
                break;
            }
            let player = player_of(c);
            // The dead owe nothing and take no treatment: none is generated for them (a
            // strike can kill, a century into the campaign).
            if so_far
                .character(*who)
                .and_then(|c| c.hm())
                .is_some_and(|c| c.dead())
            {
                continue;
            }
            injuries.retain(|i| {
                so_far
                    .character(*who)
                    .and_then(|c| c.hm())
                    .and_then(|c| c.injury(*i))
                    .is_some_and(|j| !j.healed())
            });
            let len = log.out.len();
            if len % 400 == 399 && len + 2 <= n {
                // A roll recorded by mistake (left out of `so_far`, as the fold will skip it)
                // and the GM's retraction of it.
                let roll = healing_roll(*who, injuries.first().copied(), &mut rnd);
                let mistaken = log.push(player, day * DAY, roll);
                log.push(
                    GM,
                    day * DAY,
                    Event::Ruling(crate::ruling::Ruling::Retract {
                        target: EventId(mistaken),
                        reason: "recorded for the wrong character".into(),
                    }),
                );
            } else if let Some(inj) = untreated[c].take().filter(|i| injuries.contains(i)) {
                log.push(
                    GM,
                    day * DAY,
                    Event::HarnMaster(HmEvent::Treatment(crate::harnmaster::healing::Treatment {
                        character: *who,
                        injury: inj,
                        healer: "Leech".into(),
                        physician_ml: 60,
                        physician_index: 6,
                        dex_mod: 0,
                        broadhead: false,
                        amputate: false,
                        roll: 1 + rnd.next(100) as u16,
                        forced: true,
                    })),
                );
            } else if rnd.next(20) == 0 && injuries.len() < 6 {
                let event = strike(&so_far, *who, &mut rnd);
                let id = log.push(player, day * DAY, event);
                injuries.push(InjuryId(id));
                untreated[c] = Some(InjuryId(id));
            } else if let Some(inj) = injuries.first().copied() {
                let roll = healing_roll(*who, Some(inj), &mut rnd);
                log.push(player, day * DAY, roll);
            } else {
                continue;
            }
            if let Some(e) = log.out.last() {
                let _ = so_far.apply(e);
            }
        }
    }
    log.out
}

/// The GM's device's number among the synthetic campaign's devices.
const GM: u8 = 0;

/// The player whose device records for the character at `c` (the GM's is device 0).
fn player_of(c: usize) -> u8 {
    1 + (c as u64 % (DEVICES as u64 - 1)) as u8
}

/// The synthetic log as it is written: each event numbered by its device and clocked one
/// past the last.
struct Log {
    out: Vec<Envelope>,
    clock: u64,
    seqs: [u64; DEVICES as usize],
}

impl Log {
    /// Appends `event`, recorded by device `by` at campaign time `at`; gives its id.
    fn push(&mut self, by: u8, at: i64, event: Event) -> Uuid {
        self.clock += 1;
        let clock = self.clock;
        self.seqs[usize::from(by)] += 1;
        // The clock in the high half (ids sort as the log does), a hash of it in the low half
        // (the digits a user types differ, as a UUIDv7's random tail does).
        let tail = clock.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (clock >> 29);
        let id = Uuid::from_u128(u128::from(clock) << 64 | u128::from(tail));
        self.out.push(Envelope {
            id: EventId(id),
            campaign: CampaignId(Uuid::from_u128(1)),
            device: device(by),
            seq: self.seqs[usize::from(by)],
            clock,
            wall: wall_of(clock),
            at: CampaignTime(at),
            schema: SCHEMA_VERSION,
            event,
            signature: None,
        });
        id
    }
}

/// The synthetic campaign's dice: a linear congruential generator, so that the same
/// campaign is made every time.
struct Lcg(u64);

impl Lcg {
    /// A number below `m`.
    fn next(&mut self, m: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % m
    }
}

/// The campaign's creation, its hundred characters and its roster (the GM's device, any
/// other GM device `also_gm`, and the players' devices, each for its characters). Gives
/// each character with the injuries it has (none yet).
fn cast(
    log: &mut Log,
    key: impl Fn(u8) -> Vec<u8>,
    also_gm: Option<(DeviceId, Vec<u8>)>,
) -> Vec<(CharacterId, Vec<InjuryId>)> {
    log.push(
        GM,
        0,
        Event::CampaignCreated {
            name: "bench".into(),
            system: SystemId::HarnMaster,
            round_seconds: 10,
        },
    );
    let mut ids = Vec::new();
    for c in 0..100u64 {
        let id = log.push(
            GM,
            0,
            Event::CharacterAdded {
                name: format!("c{c}"),
                sheet: SheetKind::HarnMaster(Sheet {
                    strength: 12,
                    endurance: 12,
                    shock_ml: 95,
                    healing_base: 13,
                    strength_ml: 60,
                    body: "human".into(),
                    beast: false,
                    fatigue: 0,
                }),
            },
        );
        ids.push((CharacterId(id), Vec::<InjuryId>::new()));
    }
    let gm = |device, key| {
        Event::Roster(crate::roster::RosterChange::Device {
            device,
            key,
            role: crate::roster::Role::Gm,
            characters: Vec::new(),
        })
    };
    log.push(GM, 0, gm(device(GM), key(GM)));
    if let Some((device, key)) = also_gm {
        log.push(GM, 0, gm(device, key));
    }
    for p in 1..DEVICES {
        let characters = (0..ids.len())
            .filter(|c| player_of(*c) == p)
            .map(|c| ids[c].0)
            .collect();
        log.push(
            GM,
            0,
            Event::Roster(crate::roster::RosterChange::Device {
                device: device(p),
                key: key(p),
                role: crate::roster::Role::Player,
                characters,
            }),
        );
    }
    ids
}

/// A forced Healing Roll of the character's injury.
fn healing_roll(who: CharacterId, injury: Option<InjuryId>, rnd: &mut Lcg) -> Event {
    Event::HarnMaster(HmEvent::SeqRoll(SeqRoll {
        character: who,
        kind: SeqRollKind::Healing,
        injury,
        roll: 1 + rnd.next(100) as u16,
        period: None,
        sheltered: true,
        forced: true,
    }))
}

/// A blunt strike to the thorax, with its Shock die, and its compound roll where an open
/// thorax injury calls for one (an event records no die its sequence does not read).
fn strike(so_far: &crate::fold::Ledger, who: CharacterId, rnd: &mut Lcg) -> Event {
    let impact = ImpactInput::Effective(3 + rnd.next(8) as i32);
    let mut dice = vec![RecordedDie {
        name: "shock".into(),
        faces: vec![1 + rnd.next(50) as u16],
    }];
    let open_thorax = so_far.character(who).and_then(|c| c.hm()).is_some_and(|c| {
        c.injuries
            .iter()
            .any(|i| !i.healed() && i.place.location == "thorax")
    });
    if open_thorax {
        dice.push(RecordedDie {
            name: "compound".into(),
            faces: vec![10],
        });
    }
    Event::HarnMaster(HmEvent::Strike(Strike {
        target: who,
        aspect: Aspect::Blunt,
        targeting: Targeting::Chosen {
            location: "thorax".into(),
            side: None,
        },
        impact,
        av: 0,
        rigid: false,
        projectile: false,
        face_option: false,
        dice,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_synthetic_campaign_is_deterministic_and_every_event_applies() {
        let log = campaign(5_000);
        assert_eq!(log.len(), 5_000);
        assert_eq!(log, campaign(5_000));
        let ledger = crate::fold::Ledger::fold(&log);
        assert!(
            ledger.void.is_empty(),
            "void: {:?}",
            &ledger.void[..3.min(ledger.void.len())]
        );
        // Every mistaken roll is retracted; everything else applies.
        let retractions = log
            .iter()
            .filter(|e| e.event.kind() == "ruling.retract")
            .count();
        assert_eq!(retractions, 5_000 / 400);
        assert_eq!(ledger.retracted.len(), retractions);
        assert_eq!(ledger.applied as usize + ledger.retracted.len(), 5_000);
        assert_eq!(ledger.characters.len(), 100);
        // The mix the benchmarks rely on: several devices, treatments, strikes, rolls.
        let kinds = |k: &str| log.iter().filter(|e| e.event.kind() == k).count();
        assert!(kinds("hm.treatment") > 50, "{}", kinds("hm.treatment"));
        assert!(kinds("hm.strike") > 50);
        let devices: std::collections::BTreeSet<_> = log.iter().map(|e| e.device).collect();
        assert_eq!(devices.len(), 5);
    }
}
