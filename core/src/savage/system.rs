//! SavageWorlds as a rules system: the kernel's `RulesSystem`, deciding on copies of the
//! characters an event touches (`crate::system::Copies`).

use crate::applied::{Applied, CharacterState, FoldError, Host, Settings, SystemOutcome};
use crate::system::{copies, system_applied, Copies, RulesSystem, Touched, World};
use crate::SystemId;

/// Savage Worlds (rules text 004).
pub struct SavageWorlds;

impl<L: Host> RulesSystem<L> for SavageWorlds {
    const SYSTEM: SystemId = SystemId::SavageWorlds;
    type Character = crate::savage::SwCharacter;
    type Event = crate::savage::SwEvent;
    type Settings = ();
    type Outcome = Copies<Self::Character, crate::savage::SwOutcome>;
    type Error = crate::savage::SwError;

    fn refusal(e: Self::Error) -> FoldError {
        e.into()
    }

    type Sheet = crate::savage::SwSheet;

    fn new_character(
        _: &Self::Settings,
        id: crate::ids::CharacterId,
        name: &str,
        sheet: &crate::savage::SwSheet,
    ) -> Result<Self::Character, Self::Error> {
        Ok(crate::savage::SwCharacter::new(
            id,
            name.to_string(),
            sheet.clone(),
        ))
    }

    fn wrap(c: Self::Character) -> CharacterState {
        CharacterState::SavageWorlds(c)
    }

    fn held(state: &CharacterState) -> Option<&Self::Character> {
        match state {
            CharacterState::SavageWorlds(c) => Some(c),
            _ => None,
        }
    }

    fn held_mut(state: &mut CharacterState) -> Option<&mut Self::Character> {
        match state {
            CharacterState::SavageWorlds(c) => Some(c),
            _ => None,
        }
    }

    fn settings(_: &Settings) -> &() {
        &()
    }

    fn settings_mut(_: &mut Settings) -> &mut () {
        // A unit borrows nothing: leaking a boxed `()` allocates nothing.
        Box::leak(Box::new(()))
    }

    fn touches(e: &Self::Event) -> Touched {
        Touched::one(e.character())
    }

    fn decide(
        _: &(),
        characters: &[&Self::Character],
        e: &Self::Event,
        world: &World,
    ) -> Result<Self::Outcome, Self::Error> {
        let mut after = copies(characters);
        let outcome = crate::savage::apply(&mut after[0], e, world.now)?;
        Ok(Copies {
            characters: after,
            outcome,
        })
    }

    fn apply(
        _: &mut (),
        characters: &mut [&mut Self::Character],
        outcome: Self::Outcome,
        _: &World,
    ) -> Applied {
        let outcome = outcome.write_back(characters);
        system_applied(characters, SystemOutcome::SavageWorlds(outcome))
    }
}
