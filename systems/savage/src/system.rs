//! SavageWorlds as a rules system: the kernel's `RulesSystem`, deciding on copies of the
//! characters an event touches (`leechbook_kernel::system::Copies`).

use crate::ids::CharacterId;
use leechbook_kernel::system::{copies, Copies, RulesSystem, Touched, World};

/// Savage Worlds (rules text 004).
pub struct SavageWorlds;

impl leechbook_kernel::system::OfSystem for crate::SwEvent {
    type System = SavageWorlds;
}

impl RulesSystem for SavageWorlds {
    type Character = crate::SwCharacter;
    type Event = crate::SwEvent;
    type Settings = ();
    type Outcome = Copies<Self::Character, crate::SwOutcome>;
    type Error = crate::SwError;

    type Applied = (CharacterId, crate::SwOutcome);
    /// It takes no GM's override.
    type Decree = std::convert::Infallible;
    type Sheet = crate::SwSheet;

    fn new_character(
        _: &Self::Settings,
        id: CharacterId,
        name: &str,
        sheet: &crate::SwSheet,
    ) -> Result<Self::Character, Self::Error> {
        Ok(crate::SwCharacter::new(id, name.to_string(), sheet.clone()))
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
        let outcome = crate::apply(&mut after[0], e, world.now)?;
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
    ) -> Self::Applied {
        let outcome = outcome.write_back(characters);
        (about(characters), outcome)
    }

    fn decree(
        _: &(),
        _: &mut Self::Character,
        decree: &std::convert::Infallible,
        _: &World,
    ) -> Result<String, Self::Error> {
        match *decree {}
    }
}

/// The character an event is about (the first it touches).
fn about(characters: &[&mut crate::SwCharacter]) -> CharacterId {
    characters
        .first()
        .map_or(CharacterId(uuid::Uuid::nil()), |c| c.id)
}
