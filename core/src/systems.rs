//! The rules systems Leechbook knows, listed together in one place: [`AllSystems`], the
//! kernel's [`Systems`] for this campaign's types. The kernel's fold is generic over it
//! (`leechbook_core::Ledger` is `leechbook_kernel::fold::Ledger<AllSystems>`); here the fold
//! learns what an event is ([`Systems::entry`]), makes a character from its sheet, and hands
//! a GM's decree and each system's events to that system's
//! [`RulesSystem`].
//!
//! Each system's types are a variant of the campaign's enums (`SystemId`, `SheetKind`,
//! `Event`, `CharacterState`, `SystemOutcome`) whose order is the frozen stored format; the
//! matches below and in those enums are exhaustive, so a fifth system's every place is named
//! by the compiler.

use crate::applied::{Applied, CharacterState, FoldError};
use crate::applied::{Host, Settings};
use crate::event::{Decree, Event, SheetKind, SystemId};
use crate::harnmaster::system::HarnMaster;
use crate::harnmaster::HmEvent;
use crate::ids::CharacterId;
use crate::savage::system::SavageWorlds;
use crate::witch::system::WitchIron;
use crate::wrath::system::WrathGlory;
use leechbook_kernel::system::{decree_on, new_character, Entry, OfSystem, Systems, World};

/// HârnMaster, Savage Worlds, Wrath & Glory and Witch Iron: the systems this build knows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AllSystems;

impl Systems for AllSystems {
    type Id = SystemId;
    type Event = Event;
    type Sheet = SheetKind;
    type Character = CharacterState;
    type Settings = Settings;
    type Decree = Decree;
    type Applied = Applied;
    type Error = FoldError;
    const DECREES: &'static str = "injury level, shock state or healing rate";

    fn name(id: SystemId) -> &'static str {
        id.name()
    }

    fn entry(e: &Event) -> Entry<'_, AllSystems> {
        match e {
            Event::CampaignCreated {
                name,
                system,
                round_seconds,
            } => Entry::CampaignCreated {
                name,
                system: *system,
                round_seconds: *round_seconds,
            },
            Event::CharacterAdded { name, sheet } => Entry::CharacterAdded {
                name,
                sheet,
                system: sheet.system(),
            },
            Event::ClockAdvanced { to } => Entry::ClockAdvanced { to: *to },
            Event::Ruling(r) => Entry::Ruling(r),
            Event::Roster(change) => Entry::Roster(change),
            Event::HarnMaster(e) => Entry::System(e),
            Event::SavageWorlds(e) => Entry::System(e),
            Event::WrathGlory(e) => Entry::System(e),
            Event::WitchIron(e) => Entry::System(e),
        }
    }

    fn character(
        all: &Settings,
        id: CharacterId,
        name: &str,
        sheet: &SheetKind,
    ) -> Result<CharacterState, FoldError> {
        match sheet {
            SheetKind::HarnMaster(s) => new_character::<Self, HarnMaster>(all, id, name, s),
            SheetKind::SavageWorlds(s) => new_character::<Self, SavageWorlds>(all, id, name, s),
            SheetKind::WrathGlory(s) => new_character::<Self, WrathGlory>(all, id, name, s),
            SheetKind::WitchIron(s) => new_character::<Self, WitchIron>(all, id, name, s),
        }
    }

    fn decree(
        all: &Settings,
        character: &mut CharacterState,
        decree: &Decree,
        world: &World,
    ) -> Result<String, FoldError> {
        match character {
            CharacterState::HarnMaster(_) => {
                decree_on::<Self, HarnMaster>(all, character, decree, world)
            }
            CharacterState::SavageWorlds(_) => {
                decree_on::<Self, SavageWorlds>(all, character, decree, world)
            }
            CharacterState::WrathGlory(_) => {
                decree_on::<Self, WrathGlory>(all, character, decree, world)
            }
            CharacterState::WitchIron(_) => {
                decree_on::<Self, WitchIron>(all, character, decree, world)
            }
        }
    }
}

impl Host for AllSystems {}

impl OfSystem<AllSystems> for HmEvent {
    type System = HarnMaster;
}

impl OfSystem<AllSystems> for crate::savage::SwEvent {
    type System = SavageWorlds;
}

impl OfSystem<AllSystems> for crate::wrath::WgEvent {
    type System = WrathGlory;
}

impl OfSystem<AllSystems> for crate::witch::WiEvent {
    type System = WitchIron;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harnmaster::state::ShockState;
    use crate::ruling::Ruling;
    use crate::time::CampaignTime;

    /// A GM's override on a character of a system that defines none (Savage Worlds) is void,
    /// and the reason names the overrides there are; the character is untouched.
    #[test]
    fn a_system_without_overrides_refuses_one_naming_them() {
        let campaign = crate::ids::CampaignId(uuid::Uuid::from_u128(1));
        let device = crate::ids::DeviceId(uuid::Uuid::from_u128(2));
        let env = |n: u64, event: Event| crate::Envelope {
            id: crate::ids::EventId(uuid::Uuid::from_u128(u128::from(n))),
            campaign,
            device,
            seq: n,
            clock: n,
            wall: chrono::DateTime::<chrono::Utc>::UNIX_EPOCH,
            at: CampaignTime::START,
            schema: crate::SCHEMA_VERSION,
            event,
            signature: None,
        };
        let red = CharacterId(uuid::Uuid::from_u128(2));
        let log = vec![
            env(
                1,
                Event::CampaignCreated {
                    name: "test".into(),
                    system: SystemId::SavageWorlds,
                    round_seconds: 6,
                },
            ),
            env(
                2,
                Event::CharacterAdded {
                    name: "Red".into(),
                    sheet: SheetKind::SavageWorlds(crate::savage::SwSheet {
                        toughness: 6,
                        wild_card: true,
                        pace: 6,
                    }),
                },
            ),
            env(
                3,
                Event::Ruling(Ruling::Override {
                    character: red,
                    decree: Decree::ShockState(ShockState::Stunned),
                    reason: "dazed".into(),
                }),
            ),
        ];
        let l = crate::Ledger::fold(&log);
        assert_eq!(l.applied, 2);
        assert_eq!(
            l.void[0].reason,
            "a savage-worlds character takes no override of injury level, shock state or healing rate"
        );
        let fresh = crate::Ledger::fold(&log[..2]);
        assert_eq!(l.characters, fresh.characters);
    }
}
