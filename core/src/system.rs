//! The seam a rules system implements: [`RulesSystem`]. The fold applies every system's
//! events one way ([`crate::fold::Ledger`]'s `apply_system`): it finds the characters the
//! event touches, asks the system to **decide** (a pure reading of the characters, the
//! system's campaign-wide [`Settings`] and the event's recorded dice, giving an outcome or a
//! typed refusal), and then to **apply** that outcome, which cannot fail. A refused event
//! changes nothing, because nothing is written before the decision is made.
//!
//! HârnMaster ([`crate::harnmaster::system::HarnMaster`]) decides by resolving its
//! sequences and writes only what they found. Savage Worlds, Wrath & Glory and Witch Iron
//! decide by running their rules on copies of the characters they touch ([`Copies`]: the
//! outcome is the characters after), so their rules code stays one function per event.
//!
//! Adding a system: its module (sheet, character, events, settings, `decide`/`apply`), a
//! variant in `SystemId`, `SheetKind`, `CharacterState` and `Event` (appended: the stored
//! format is frozen), its settings in [`Settings`], and one arm in the fold's dispatch.

use crate::applied::{Applied, CharacterState, FoldError};
pub use crate::applied::{SystemOutcome, World};
use crate::harnmaster::settings::HmSettings;
use crate::ids::CharacterId;
use crate::ruling::Decree;
pub use crate::wrath::WgApplyError;
use crate::SystemId;

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

/// The characters an event touches, each once, the one it is about first: at most three (a
/// missile attack's shooter, target and the one struck instead), held without allocating,
/// since the fold asks for them on every event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Touched {
    ids: [CharacterId; Touched::MAX],
    len: usize,
}

impl Touched {
    /// The most characters one event touches.
    pub const MAX: usize = 3;

    /// No character (an event that changes only the settings).
    pub fn none() -> Touched {
        Touched {
            ids: [CharacterId(uuid::Uuid::nil()); Touched::MAX],
            len: 0,
        }
    }

    /// One character.
    pub fn one(id: CharacterId) -> Touched {
        Touched::none().and(id)
    }

    /// These characters and `id`, unless it is among them already.
    ///
    /// Architecture invariant: no event names more than [`Touched::MAX`] characters (each
    /// system's `touches` says which it names); a fourth is a bug, and debug builds stop.
    pub fn and(mut self, id: CharacterId) -> Touched {
        if !self.as_slice().contains(&id) {
            debug_assert!(self.len < Touched::MAX, "an event touches at most three");
            if self.len < Touched::MAX {
                self.ids[self.len] = id;
                self.len += 1;
            }
        }
        self
    }

    /// These characters and `id`, if there is one.
    pub fn and_maybe(self, id: Option<CharacterId>) -> Touched {
        match id {
            Some(id) => self.and(id),
            None => self,
        }
    }

    /// The characters, in order.
    pub fn as_slice(&self) -> &[CharacterId] {
        &self.ids[..self.len]
    }
}

/// A rules system, as the fold uses it.
pub trait RulesSystem {
    /// Which system.
    const SYSTEM: SystemId;
    /// A character's state.
    type Character;
    /// The system's events.
    type Event;
    /// Its campaign-wide settings.
    type Settings;
    /// What deciding an event found: everything applying it writes.
    type Outcome;
    /// Why an event of the system does not apply.
    type Error: std::fmt::Display;

    /// The system's character in a character state, if it is one.
    fn held(state: &CharacterState) -> Option<&Self::Character>;
    /// The same, to write.
    fn held_mut(state: &mut CharacterState) -> Option<&mut Self::Character>;
    /// The system's settings among every system's.
    fn settings(all: &Settings) -> &Self::Settings;
    /// The same, to write.
    fn settings_mut(all: &mut Settings) -> &mut Self::Settings;
    /// The characters an event touches, each once, the one it is about first (none for an
    /// event that changes only the settings).
    fn touches(e: &Self::Event) -> Touched;
    /// Decides an event against the characters it touches (in the order
    /// [`RulesSystem::touches`] gives) and the settings, reading nothing else: the dice are
    /// the faces the event records.
    fn decide(
        settings: &Self::Settings,
        characters: &[&Self::Character],
        e: &Self::Event,
        world: &World,
    ) -> Result<Self::Outcome, Self::Error>;
    /// Writes what [`RulesSystem::decide`] found, and says what happened.
    fn apply(
        settings: &mut Self::Settings,
        characters: &mut [&mut Self::Character],
        outcome: Self::Outcome,
        world: &World,
    ) -> Applied;
    /// The fold's word for a refusal (by default the system's own words).
    fn refusal(e: Self::Error) -> FoldError {
        FoldError::System {
            system: Self::SYSTEM.name(),
            message: e.to_string(),
        }
    }
    /// A GM's override ([`Decree`]) of a character's state; the decrees are HârnMaster's
    /// (injury level, shock state, healing rate), and another system refuses them.
    fn decree(
        settings: &Self::Settings,
        character: &mut Self::Character,
        decree: &Decree,
        world: &World,
    ) -> Result<String, FoldError> {
        let _ = (settings, character, decree, world);
        Err(FoldError::System {
            system: Self::SYSTEM.name(),
            message: format!(
                "a {} character takes no override of injury level, shock state or healing rate",
                Self::SYSTEM.name()
            ),
        })
    }
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

impl RulesSystem for SavageWorlds {
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

impl RulesSystem for WrathGlory {
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

impl RulesSystem for WitchIron {
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
