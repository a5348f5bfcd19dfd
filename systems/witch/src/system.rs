//! WitchIron as a rules system: the kernel's `RulesSystem`, deciding on copies of the
//! characters an event touches (`leechbook_kernel::system::Copies`).

use super::WiSettings;
use crate::ids::CharacterId;
use leechbook_kernel::dice::{DiceSource, RecordedDie};
use leechbook_kernel::system::{copies, Copies, RulesSystem, Touched, World};

/// Witch Iron (rules text 003). A Quarrel touches its defender and its attacker; the Arms &
/// Legs tables the GM supplies are its settings.
pub struct WitchIron;

impl leechbook_kernel::system::OfSystem for crate::WiEvent {
    type System = WitchIron;
}

/// What applying a Witch Iron event did, for narration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WiApplied {
    /// What the rules found, step by step, about the character the event is about.
    Steps(CharacterId, Vec<crate::WiStep>),
    /// An Arms & Legs table defined.
    Setting(String),
}

/// What a Witch Iron event found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WiOutcome {
    /// The characters after a Quarrel, an injury, a condition or care.
    Changed(Copies<crate::WiCharacter, Vec<crate::WiStep>>),
    /// An Arms & Legs table the GM supplied.
    TableDefined(crate::PartTable),
}

impl RulesSystem for WitchIron {
    type Character = crate::WiCharacter;
    type Event = crate::WiEvent;
    type Settings = WiSettings;
    type Outcome = WiOutcome;
    type Error = crate::WiError;

    type Applied = WiApplied;
    /// It takes no GM's override.
    type Decree = std::convert::Infallible;
    type Sheet = crate::WiSheet;
    const NAME: &'static str = "witch-iron";
    /// A Quarrel reaches its attacker besides the defender it is about.
    const REACHING: &'static [&'static str] = &["wi.quarrel"];

    fn readings() -> Vec<(&'static str, &'static str)> {
        vec![("Witch Iron", crate::READINGS)]
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
        match a {
            WiApplied::Steps(id, _) => Some(*id),
            WiApplied::Setting(_) => None,
        }
    }

    fn new_character(
        _: &Self::Settings,
        id: CharacterId,
        name: &str,
        sheet: &crate::WiSheet,
    ) -> Result<Self::Character, Self::Error> {
        Ok(crate::WiCharacter::new(id, name.to_string(), sheet.clone()))
    }

    fn touches(e: &Self::Event) -> Touched {
        let out = Touched::none().and_maybe(e.character());
        match e {
            crate::WiEvent::Quarrel { attacker, .. } => out.and(*attacker),
            _ => out,
        }
    }

    fn decide(
        settings: &WiSettings,
        characters: &[&Self::Character],
        e: &Self::Event,
        world: &World,
        _: &mut dyn DiceSource,
    ) -> Result<Self::Outcome, Self::Error> {
        match e {
            crate::WiEvent::TableDefined(t) => {
                t.validate()?;
                Ok(WiOutcome::TableDefined(t.clone()))
            }
            crate::WiEvent::Quarrel {
                attacker, defender, ..
            } if attacker == defender => Err(crate::WiError::SelfQuarrel),
            _ => {
                let mut after = copies(characters);
                let (target, rest) = after.split_first_mut().ok_or(crate::WiError::NoCharacter)?;
                let steps = crate::apply(
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

    /// Its events declare their faces (units, critical, dent, d6): its rules draw no die.
    fn dice(_: &Self::Event) -> &[RecordedDie] {
        &[]
    }

    fn record(_: &mut Self::Event, _: Vec<RecordedDie>) {}

    fn amendable(e: &mut Self::Event) -> Option<&mut dyn leechbook_kernel::amend::Amendable> {
        Some(e)
    }

    fn apply(
        settings: &mut WiSettings,
        characters: &mut [&mut Self::Character],
        outcome: Self::Outcome,
        _: &World,
    ) -> WiApplied {
        match outcome {
            WiOutcome::TableDefined(t) => {
                let what = format!("Witch Iron {} table defined", t.part);
                settings.tables.push(t);
                WiApplied::Setting(what)
            }
            WiOutcome::Changed(c) => {
                let (about, steps) = c.write_back(characters);
                WiApplied::Steps(about, steps)
            }
        }
    }

    fn decree(
        _: &WiSettings,
        _: &mut Self::Character,
        decree: &std::convert::Infallible,
        _: &World,
    ) -> Result<String, Self::Error> {
        match *decree {}
    }
}

/// What the kernel's fold and `Copies` read of a character.
impl leechbook_kernel::system::Character for crate::WiCharacter {
    fn id(&self) -> CharacterId {
        self.id
    }

    fn name(&self) -> &str {
        &self.name
    }
}
