//! The rules systems' implementations of the kernel's seam
//! ([`leechbook_kernel::system::RulesSystem`], re-exported here): the fold applies every
//! system's events one way (the kernel's `Ledger::apply_system`): it finds the characters
//! the event touches, asks the system to **decide** (a pure reading of the characters, the
//! system's campaign-wide [`Settings`] and the event's recorded dice, giving an outcome or a
//! typed refusal), and then to **apply** that outcome, which cannot fail. A refused event
//! changes nothing, because nothing is written before the decision is made.
//!
//! HârnMaster ([`crate::harnmaster::system::HarnMaster`]) decides by resolving its
//! sequences and writes only what they found. Savage Worlds, Wrath & Glory and Witch Iron
//! (here) decide by running their rules on copies of the characters they touch ([`Copies`]:
//! the outcome is the characters after), so their rules code stays one function per event.
//!
//! The four are listed together in one place, [`crate::systems::AllSystems`].

pub use crate::applied::SystemOutcome;
use crate::applied::{Applied, CharacterState, FoldError};
use crate::harnmaster::settings::HmSettings;
use crate::ids::CharacterId;
use crate::systems::AllSystems;
pub use crate::wrath::WgApplyError;
use crate::SystemId;
pub use leechbook_kernel::system::{RulesSystem, Touched, World};

/// Every system's campaign-wide settings: what its setting events define (tables, options,
/// arms). A campaign plays one system, so only its own ever changes.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Settings {
    /// HârnMaster's body and treatment tables, options and arms.
    pub hm: HmSettings,
    /// Witch Iron's Arms & Legs tables the GM supplied.
    pub wi: WiSettings,
}

/// Witch Iron's campaign-wide settings.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct WiSettings {
    /// The Arms & Legs tables the GM supplied.
    pub tables: Vec<crate::witch::PartTable>,
}

/// The outcome of a system that decides on copies: the touched characters after the event,
/// in the order [`RulesSystem::touches`] gave, and what the rules found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Copies<C, O> {
    /// The characters after.
    pub characters: Vec<C>,
    /// What the rules found.
    pub outcome: O,
}

impl<C, O> Copies<C, O> {
    /// Writes the copies back over the characters they were made from.
    fn write_back(self, characters: &mut [&mut C]) -> O {
        for (slot, c) in characters.iter_mut().zip(self.characters) {
            **slot = c;
        }
        self.outcome
    }
}

fn copies<C: Clone>(characters: &[&C]) -> Vec<C> {
    characters.iter().map(|c| (*c).clone()).collect()
}

fn system_applied(characters: &[&mut impl HasId], outcome: SystemOutcome) -> Applied {
    Applied::System {
        character: characters
            .first()
            .map_or(CharacterId(uuid::Uuid::nil()), |c| c.id()),
        outcome,
    }
}

/// A character with an id (for narration).
trait HasId {
    fn id(&self) -> CharacterId;
}

impl HasId for crate::savage::SwCharacter {
    fn id(&self) -> CharacterId {
        self.id
    }
}

impl HasId for crate::wrath::WgCharacter {
    fn id(&self) -> CharacterId {
        self.id
    }
}

impl HasId for crate::witch::WiCharacter {
    fn id(&self) -> CharacterId {
        self.id
    }
}

/// Savage Worlds (rules text 004).
pub struct SavageWorlds;

impl RulesSystem<AllSystems> for SavageWorlds {
    const SYSTEM: SystemId = SystemId::SavageWorlds;
    type Character = crate::savage::SwCharacter;
    type Event = crate::savage::SwEvent;
    type Settings = ();
    type Outcome = Copies<Self::Character, crate::savage::SwOutcome>;
    type Error = crate::savage::SwError;

    fn refusal(e: Self::Error) -> FoldError {
        e.into()
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

/// Wrath & Glory (rules text 002). Its events carry their dice, and every die recorded must
/// be read.
pub struct WrathGlory;

impl RulesSystem<AllSystems> for WrathGlory {
    const SYSTEM: SystemId = SystemId::WrathGlory;
    type Character = crate::wrath::WgCharacter;
    type Event = crate::wrath::WgEvent;
    type Settings = ();
    type Outcome = Copies<Self::Character, Vec<crate::wrath::WgStep>>;
    type Error = WgApplyError;

    fn refusal(e: Self::Error) -> FoldError {
        e.into()
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

impl RulesSystem<AllSystems> for WitchIron {
    const SYSTEM: SystemId = SystemId::WitchIron;
    type Character = crate::witch::WiCharacter;
    type Event = crate::witch::WiEvent;
    type Settings = WiSettings;
    type Outcome = WiOutcome;
    type Error = crate::witch::WiError;

    fn refusal(e: Self::Error) -> FoldError {
        e.into()
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
