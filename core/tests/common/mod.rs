//! Helpers shared by the core's worked-example tests: a campaign folded in memory.

#![allow(dead_code)]

use chrono::{TimeZone, Utc};
use leechbook_core::harnmaster::healing::{HealOutcome, Treatment};
use leechbook_core::harnmaster::injury::*;
use leechbook_core::harnmaster::state::*;
use leechbook_core::harnmaster::system::HmApplied;
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::ids::*;
use leechbook_core::time::CampaignTime;
use leechbook_core::*;
use uuid::Uuid;

pub struct World {
    pub ledger: Ledger,
    pub clock: u64,
    pub campaign: CampaignId,
    pub at: CampaignTime,
}

impl World {
    pub fn new() -> World {
        let mut w = World {
            ledger: Ledger::new(),
            clock: 0,
            campaign: CampaignId(Uuid::from_u128(1)),
            at: CampaignTime::START,
        };
        w.apply(Event::CampaignCreated {
            name: "test".into(),
            system: SystemId::HarnMaster,
            round_seconds: 10,
        })
        .unwrap();
        w
    }

    pub fn envelope(&mut self, event: Event) -> Envelope {
        self.clock += 1;
        Envelope {
            id: EventId(Uuid::from_u128(1000 + u128::from(self.clock))),
            campaign: self.campaign,
            device: DeviceId(Uuid::from_u128(7)),
            seq: self.clock,
            clock: self.clock,
            wall: Utc.timestamp_opt(0, 0).unwrap(),
            at: self.at,
            schema: SCHEMA_VERSION,
            event,
            signature: None,
        }
    }

    /// Applies `event` at `self.at`, the GM moving the clock there first where it is behind
    /// (only the clock's own events move it).
    pub fn apply(&mut self, event: Event) -> Result<Applied, FoldError> {
        if self.at > self.ledger.now && !matches!(event, Event::ClockAdvanced { .. }) {
            let advance = self.envelope(Event::ClockAdvanced { to: self.at });
            self.ledger.apply(&advance)?;
        }
        let env = self.envelope(event);
        self.ledger.apply(&env)
    }

    pub fn add(&mut self, name: &str, shock_ml: i32) -> CharacterId {
        match self
            .apply(Event::CharacterAdded {
                name: name.into(),
                sheet: SheetKind::HarnMaster(Sheet {
                    strength: 12,
                    endurance: 12,
                    shock_ml,
                    healing_base: 13,
                    strength_ml: 60,
                    body: "human".into(),
                    beast: false,
                    fatigue: 0,
                }),
            })
            .unwrap()
        {
            Applied::CharacterAdded(id) => id,
            other => panic!("{other:?}"),
        }
    }

    pub fn strike(&mut self, s: Strike) -> Result<StrikeOutcome, FoldError> {
        match self.apply(Event::HarnMaster(HmEvent::Strike(s)))?.into_hm() {
            Some(HmApplied::Strike { outcome, .. }) => Ok(*outcome),
            other => panic!("{other:?}"),
        }
    }

    pub fn hm(&self, id: CharacterId) -> &HmCharacter {
        self.ledger
            .character(id)
            .and_then(CharacterState::hm)
            .unwrap()
    }
}

pub fn dice(list: &[(&str, &[u16])]) -> Vec<RecordedDie> {
    list.iter()
        .map(|(n, f)| RecordedDie {
            name: n.to_string(),
            faces: f.to_vec(),
        })
        .collect()
}

pub fn chosen(
    target: CharacterId,
    aspect: Aspect,
    location: &str,
    side: Option<Side>,
    effective: i32,
    d: &[(&str, &[u16])],
) -> Strike {
    Strike {
        target,
        aspect,
        targeting: Targeting::Chosen {
            location: location.into(),
            side,
        },
        impact: ImpactInput::Effective(effective),
        av: 0,
        rigid: false,
        projectile: false,
        face_option: false,
        dice: dice(d),
    }
}

/// A Treatment Roll by "Healer" (Physician ML `ml`, index `index`), not forced.
pub fn treat(
    w: &mut World,
    who: CharacterId,
    injury: InjuryId,
    ml: i32,
    index: i32,
    roll: u16,
) -> Result<HealOutcome, FoldError> {
    let t = Treatment {
        character: who,
        injury,
        healer: "Healer".into(),
        physician_ml: ml,
        physician_index: index,
        dex_mod: 0,
        broadhead: false,
        amputate: false,
        roll,
        forced: false,
    };
    match w.apply(Event::HarnMaster(HmEvent::Treatment(t)))?.into_hm() {
        Some(HmApplied::Heal { outcome, .. }) => Ok(*outcome),
        other => panic!("{other:?}"),
    }
}
