//! WrathGlory as a rules system: the kernel's `RulesSystem`, deciding on copies of the
//! characters an event touches (`crate::system::Copies`).

use super::WgApplyError;
use crate::applied::{Applied, CharacterState, FoldError, Host, Settings, SystemOutcome};
use crate::system::{copies, system_applied, Copies, RulesSystem, Touched, World};
use crate::SystemId;

/// Wrath & Glory (rules text 002). Its events carry their dice, and every die recorded must
/// be read.
pub struct WrathGlory;

impl<L: Host> RulesSystem<L> for WrathGlory {
    const SYSTEM: SystemId = SystemId::WrathGlory;
    type Character = crate::wrath::WgCharacter;
    type Event = crate::wrath::WgEvent;
    type Settings = ();
    type Outcome = Copies<Self::Character, Vec<crate::wrath::WgStep>>;
    type Error = WgApplyError;

    fn refusal(e: Self::Error) -> FoldError {
        e.into()
    }

    type Sheet = crate::wrath::WgSheet;

    fn new_character(
        _: &Self::Settings,
        id: crate::ids::CharacterId,
        name: &str,
        sheet: &crate::wrath::WgSheet,
    ) -> Result<Self::Character, Self::Error> {
        Ok(crate::wrath::WgCharacter::new(
            id,
            name.to_string(),
            sheet.clone(),
        ))
    }

    fn wrap(c: Self::Character) -> CharacterState {
        CharacterState::WrathGlory(c)
    }

    fn held(state: &CharacterState) -> Option<&Self::Character> {
        match state {
            CharacterState::WrathGlory(c) => Some(c),
            _ => None,
        }
    }

    fn held_mut(state: &mut CharacterState) -> Option<&mut Self::Character> {
        match state {
            CharacterState::WrathGlory(c) => Some(c),
            _ => None,
        }
    }

    fn settings(_: &Settings) -> &() {
        &()
    }

    fn settings_mut(_: &mut Settings) -> &mut () {
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
        let mut dice = crate::dice::Replayed::new(e.dice());
        let outcome = crate::wrath::apply(&mut after[0], e, &mut dice, world.now)?;
        dice.all_read()?;
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
        system_applied(characters, SystemOutcome::WrathGlory(outcome))
    }
}
