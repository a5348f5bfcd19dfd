//! WitchIron as a rules system: the kernel's `RulesSystem`, deciding on copies of the
//! characters an event touches (`crate::system::Copies`).

use super::WiSettings;
use crate::applied::{Applied, CharacterState, FoldError, Host, Settings, SystemOutcome};
use crate::system::{copies, system_applied, Copies, RulesSystem, Touched, World};
use crate::SystemId;

/// Witch Iron (rules text 003). A Quarrel touches its defender and its attacker; the Arms &
/// Legs tables the GM supplies are its settings.
pub struct WitchIron;

/// What a Witch Iron event found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WiOutcome {
    /// The characters after a Quarrel, an injury, a condition or care.
    Changed(Copies<crate::witch::WiCharacter, Vec<crate::witch::WiStep>>),
    /// An Arms & Legs table the GM supplied.
    TableDefined(crate::witch::PartTable),
}

impl<L: Host> RulesSystem<L> for WitchIron {
    const SYSTEM: SystemId = SystemId::WitchIron;
    type Character = crate::witch::WiCharacter;
    type Event = crate::witch::WiEvent;
    type Settings = WiSettings;
    type Outcome = WiOutcome;
    type Error = crate::witch::WiError;

    fn refusal(e: Self::Error) -> FoldError {
        e.into()
    }

    type Sheet = crate::witch::WiSheet;

    fn new_character(
        _: &Self::Settings,
        id: crate::ids::CharacterId,
        name: &str,
        sheet: &crate::witch::WiSheet,
    ) -> Result<Self::Character, Self::Error> {
        Ok(crate::witch::WiCharacter::new(
            id,
            name.to_string(),
            sheet.clone(),
        ))
    }

    fn wrap(c: Self::Character) -> CharacterState {
        CharacterState::WitchIron(c)
    }

    fn held(state: &CharacterState) -> Option<&Self::Character> {
        match state {
            CharacterState::WitchIron(c) => Some(c),
            _ => None,
        }
    }

    fn held_mut(state: &mut CharacterState) -> Option<&mut Self::Character> {
        match state {
            CharacterState::WitchIron(c) => Some(c),
            _ => None,
        }
    }

    fn settings(all: &Settings) -> &WiSettings {
        &all.wi
    }

    fn settings_mut(all: &mut Settings) -> &mut WiSettings {
        &mut all.wi
    }

    fn touches(e: &Self::Event) -> Touched {
        let out = Touched::none().and_maybe(e.character());
        match e {
            crate::witch::WiEvent::Quarrel { attacker, .. } => out.and(*attacker),
            _ => out,
        }
    }

    fn decide(
        settings: &WiSettings,
        characters: &[&Self::Character],
        e: &Self::Event,
        world: &World,
    ) -> Result<Self::Outcome, Self::Error> {
        match e {
            crate::witch::WiEvent::TableDefined(t) => {
                t.validate()?;
                Ok(WiOutcome::TableDefined(t.clone()))
            }
            crate::witch::WiEvent::Quarrel {
                attacker, defender, ..
            } if attacker == defender => Err(crate::witch::WiError::SelfQuarrel),
            _ => {
                let mut after = copies(characters);
                let (target, rest) = after
                    .split_first_mut()
                    .ok_or(crate::witch::WiError::NoCharacter)?;
                let steps = crate::witch::apply(
                    target,
                    rest.first_mut(),
                    &settings.tables,
                    e,
                    world.now,
                    world.round_seconds,
                )?;
                Ok(WiOutcome::Changed(Copies {
                    characters: after,
                    outcome: steps,
                }))
            }
        }
    }

    fn apply(
        settings: &mut WiSettings,
        characters: &mut [&mut Self::Character],
        outcome: Self::Outcome,
        _: &World,
    ) -> Applied {
        match outcome {
            WiOutcome::TableDefined(t) => {
                let what = format!("Witch Iron {} table defined", t.part);
                settings.tables.push(t);
                Applied::Setting(what)
            }
            WiOutcome::Changed(c) => {
                let steps = c.write_back(characters);
                system_applied(characters, SystemOutcome::WitchIron(steps))
            }
        }
    }
}
