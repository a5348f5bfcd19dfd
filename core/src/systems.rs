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

use crate::applied::{Applied, CharacterState, FoldError, Settings, SystemOutcome};
use crate::event::{Decree, Event, SheetKind, SystemId};
use crate::harnmaster::system::{HarnMaster, HmApplied};
use crate::ids::CharacterId;
use crate::savage::system::SavageWorlds;
use crate::witch::system::{WiApplied, WitchIron};
use crate::wrath::system::WrathGlory;
use leechbook_kernel::system::{
    decree_on, new_character, Entry, Hosts, SystemEvent, Systems, World,
};

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

    fn system_mut(e: &mut Event) -> Option<&mut dyn SystemEvent<AllSystems>> {
        match e {
            Event::HarnMaster(e) => Some(e),
            Event::SavageWorlds(e) => Some(e),
            Event::WrathGlory(e) => Some(e),
            Event::WitchIron(e) => Some(e),
            Event::CampaignCreated { .. }
            | Event::CharacterAdded { .. }
            | Event::ClockAdvanced { .. }
            | Event::Ruling(_)
            | Event::Roster(_) => None,
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

/// Where the list keeps a system's characters: the variant `$variant` of
/// [`CharacterState`] (the three methods of [`Hosts`] every system's impl shares).
macro_rules! characters_in {
    ($variant:ident, $character:ty) => {
        fn wrap(c: $character) -> CharacterState {
            CharacterState::$variant(c)
        }

        fn held(state: &CharacterState) -> Option<&$character> {
            match state {
                CharacterState::$variant(c) => Some(c),
                _ => None,
            }
        }

        fn held_mut(state: &mut CharacterState) -> Option<&mut $character> {
            match state {
                CharacterState::$variant(c) => Some(c),
                _ => None,
            }
        }
    };
}

impl Hosts<HarnMaster> for AllSystems {
    const ID: SystemId = SystemId::HarnMaster;
    characters_in!(HarnMaster, crate::harnmaster::state::HmCharacter);

    fn settings(all: &Settings) -> &crate::harnmaster::settings::HmSettings {
        &all.hm
    }

    fn settings_mut(all: &mut Settings) -> &mut crate::harnmaster::settings::HmSettings {
        &mut all.hm
    }

    fn applied(a: HmApplied) -> Applied {
        a.into()
    }

    fn refused(e: crate::harnmaster::error::HmError) -> FoldError {
        FoldError::HarnMaster(e)
    }

    fn decree_of(d: &Decree) -> Option<&Decree> {
        Some(d)
    }
}

/// Savage Worlds and Wrath & Glory keep no settings: a unit borrows nothing, and leaking a
/// boxed `()` allocates nothing.
fn no_settings() -> &'static mut () {
    Box::leak(Box::new(()))
}

impl Hosts<SavageWorlds> for AllSystems {
    const ID: SystemId = SystemId::SavageWorlds;
    characters_in!(SavageWorlds, crate::savage::SwCharacter);

    fn settings(_: &Settings) -> &() {
        &()
    }

    fn settings_mut(_: &mut Settings) -> &mut () {
        no_settings()
    }

    fn applied((character, outcome): (CharacterId, crate::savage::SwOutcome)) -> Applied {
        Applied::System {
            character,
            outcome: SystemOutcome::SavageWorlds(outcome),
        }
    }

    fn refused(e: crate::savage::SwError) -> FoldError {
        e.into()
    }

    fn decree_of(_: &Decree) -> Option<&std::convert::Infallible> {
        None
    }
}

impl Hosts<WrathGlory> for AllSystems {
    const ID: SystemId = SystemId::WrathGlory;
    characters_in!(WrathGlory, crate::wrath::WgCharacter);

    fn settings(_: &Settings) -> &() {
        &()
    }

    fn settings_mut(_: &mut Settings) -> &mut () {
        no_settings()
    }

    fn applied((character, steps): (CharacterId, Vec<crate::wrath::WgStep>)) -> Applied {
        Applied::System {
            character,
            outcome: SystemOutcome::WrathGlory(steps),
        }
    }

    fn refused(e: crate::wrath::WgApplyError) -> FoldError {
        e.into()
    }

    fn decree_of(_: &Decree) -> Option<&std::convert::Infallible> {
        None
    }
}

impl Hosts<WitchIron> for AllSystems {
    const ID: SystemId = SystemId::WitchIron;
    characters_in!(WitchIron, crate::witch::WiCharacter);

    fn settings(all: &Settings) -> &crate::witch::WiSettings {
        &all.wi
    }

    fn settings_mut(all: &mut Settings) -> &mut crate::witch::WiSettings {
        &mut all.wi
    }

    fn applied(a: WiApplied) -> Applied {
        match a {
            WiApplied::Steps(character, steps) => Applied::System {
                character,
                outcome: SystemOutcome::WitchIron(steps),
            },
            WiApplied::Setting(what) => Applied::Setting(what),
        }
    }

    fn refused(e: crate::witch::WiError) -> FoldError {
        e.into()
    }

    fn decree_of(_: &Decree) -> Option<&std::convert::Infallible> {
        None
    }
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
