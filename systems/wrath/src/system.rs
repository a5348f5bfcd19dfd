//! WrathGlory as a rules system: the kernel's `RulesSystem`, deciding on copies of the
//! characters an event touches (`leechbook_kernel::system::Copies`).

use super::WgApplyError;
use crate::ids::CharacterId;
use leechbook_kernel::dice::{DiceSource, RecordedDie};
use leechbook_kernel::system::{copies, Copies, RulesSystem, Touched, World};

/// Wrath & Glory (rules text 002). Its events carry their dice, and every die recorded must
/// be read.
pub struct WrathGlory;

impl leechbook_kernel::system::OfSystem for crate::WgEvent {
    type System = WrathGlory;
}

impl RulesSystem for WrathGlory {
    type Character = crate::WgCharacter;
    type Event = crate::WgEvent;
    type Settings = ();
    type Outcome = Copies<Self::Character, Vec<crate::WgStep>>;
    type Error = WgApplyError;

    type Applied = (CharacterId, Vec<crate::WgStep>);
    /// It takes no GM's override.
    type Decree = std::convert::Infallible;
    type Sheet = crate::WgSheet;
    const NAME: &'static str = "wrath-glory";
    const REACHING: &'static [&'static str] = &["wg.medicae"];

    fn readings() -> Vec<(&'static str, &'static str)> {
        vec![("Wrath & Glory", crate::READINGS)]
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
        sheet: &crate::WgSheet,
    ) -> Result<Self::Character, Self::Error> {
        Ok(crate::WgCharacter::new(id, name.to_string(), sheet.clone()))
    }

    fn touches(e: &Self::Event) -> Touched {
        match e {
            crate::WgEvent::MedicaeRegroup { character, by, .. } => {
                Touched::one(*character).and_maybe(*by)
            }
            _ => Touched::one(e.character()),
        }
    }

    fn decide(
        _: &(),
        characters: &[&Self::Character],
        e: &Self::Event,
        world: &World,
        dice: &mut dyn DiceSource,
    ) -> Result<Self::Outcome, Self::Error> {
        let mut after = copies(characters);
        // A healer of the campaign heals one character a Regroup (002 l.63).
        if let crate::WgEvent::MedicaeRegroup {
            character,
            by: Some(by),
            ..
        } = e
        {
            // A healer who heals themself is the one character touched.
            let at = usize::from(by != character);
            if let Some(healer) = after.get_mut(at) {
                crate::rest::heals(healer, world.now)?;
            }
        }
        let outcome = crate::apply(&mut after[0], e, dice, world.now)?;
        Ok(Copies {
            characters: after,
            outcome,
        })
    }

    fn dice(e: &Self::Event) -> &[RecordedDie] {
        e.dice()
    }

    fn record(e: &mut Self::Event, drawn: Vec<RecordedDie>) {
        if let crate::WgEvent::Damage { dice, .. }
        | crate::WgEvent::DyingComplication { dice, .. } = e
        {
            *dice = drawn;
        }
    }

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
impl leechbook_kernel::system::Character for crate::WgCharacter {
    fn id(&self) -> CharacterId {
        self.id
    }

    fn name(&self) -> &str {
        &self.name
    }
}
