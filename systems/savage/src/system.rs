//! SavageWorlds as a rules system: the kernel's `RulesSystem`, deciding on copies of the
//! characters an event touches (`leechbook_kernel::system::Copies`).

use crate::ids::CharacterId;
use leechbook_kernel::dice::{DiceSource, RecordedDie};
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
    const NAME: &'static str = "savage-worlds";

    fn readings() -> Vec<(&'static str, &'static str)> {
        vec![("Savage Worlds", crate::READINGS)]
    }

    fn kind(e: &Self::Event) -> &'static str {
        e.kind()
    }

    fn sheet(c: &Self::Character) -> Self::Sheet {
        c.sheet.clone()
    }

    fn dead(c: &Self::Character) -> bool {
        c.death.is_some()
    }

    fn about(a: &Self::Applied) -> Option<CharacterId> {
        Some(a.0)
    }

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
        _: &mut dyn DiceSource,
    ) -> Result<Self::Outcome, Self::Error> {
        let mut after = copies(characters);
        let outcome = crate::apply(&mut after[0], e, world.now)?;
        Ok(Copies {
            characters: after,
            outcome,
        })
    }

    /// Its events declare their faces (the ace chains): its rules draw no die.
    fn dice(_: &Self::Event) -> &[RecordedDie] {
        &[]
    }

    fn record(_: &mut Self::Event, _: Vec<RecordedDie>) {}

    fn amendable(e: &mut Self::Event) -> Option<&mut dyn leechbook_kernel::amend::Amendable> {
        Some(e)
    }

    fn apply(
        _: &mut (),
        characters: &mut [&mut Self::Character],
        outcome: Self::Outcome,
        _: &World,
    ) -> Self::Applied {
        outcome.write_back(characters)
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

/// What the kernel's fold and `Copies` read of a character.
impl leechbook_kernel::system::Character for crate::SwCharacter {
    fn id(&self) -> CharacterId {
        self.id
    }

    fn name(&self) -> &str {
        &self.name
    }
}
