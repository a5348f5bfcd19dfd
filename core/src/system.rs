//! The seam a rules system implements: [`RulesSystem`]. The fold applies every event of a
//! system the same way ([`crate::fold::Ledger`]'s `apply_system`): it finds the characters
//! the event touches, applies the event to copies of them, and writes the copies back only
//! when the event applied whole, so a refused event changes nothing. Savage Worlds, Wrath &
//! Glory and Witch Iron implement it here; HârnMaster's sequences read campaign-wide tables
//! (body, treatment, arms) and keep their own check-then-apply split in `harnmaster`.
//!
//! Adding a system: its module (sheet, character, events, `apply`), a variant in `SystemId`,
//! `SheetKind`, `CharacterState` and `Event` (appended: the stored format is frozen), an
//! implementation of [`RulesSystem`] below, and one arm in the fold's dispatch.

use crate::fold::CharacterState;
use crate::ids::CharacterId;
use crate::time::CampaignTime;
use crate::SystemId;

/// What of the campaign a system's event may read besides its characters.
pub struct World<'a> {
    /// The campaign time of the event.
    pub now: CampaignTime,
    /// Seconds per combat round.
    pub round_seconds: i64,
    /// Witch Iron's Arms & Legs tables the GM supplied.
    pub wi_tables: &'a [crate::witch::PartTable],
}

/// A rules system, as the fold uses it.
pub trait RulesSystem {
    /// Which system.
    const SYSTEM: SystemId;
    /// A character's state.
    type Character: Clone;
    /// The system's events.
    type Event;
    /// Why an event of the system does not apply.
    type Error: std::fmt::Display;

    /// The system's character in a character state, if it is one.
    fn held(state: &CharacterState) -> Option<&Self::Character>;
    /// A character state of the system's character.
    fn state(c: Self::Character) -> CharacterState;
    /// The characters an event touches, the one it is about first.
    fn touches(e: &Self::Event) -> Vec<CharacterId>;
    /// Applies an event to the characters it touches (in the order [`RulesSystem::touches`]
    /// gives), returning what happened in words. On error the fold drops the copies.
    fn apply(
        characters: &mut [Self::Character],
        e: &Self::Event,
        world: &World<'_>,
    ) -> Result<String, Self::Error>;
}

/// Savage Worlds (rules text 004).
pub struct SavageWorlds;

impl RulesSystem for SavageWorlds {
    const SYSTEM: SystemId = SystemId::SavageWorlds;
    type Character = crate::savage::SwCharacter;
    type Event = crate::savage::SwEvent;
    type Error = crate::savage::SwError;

    fn held(state: &CharacterState) -> Option<&Self::Character> {
        match state {
            CharacterState::SavageWorlds(c) => Some(c),
            _ => None,
        }
    }

    fn state(c: Self::Character) -> CharacterState {
        CharacterState::SavageWorlds(c)
    }

    fn touches(e: &Self::Event) -> Vec<CharacterId> {
        vec![e.character()]
    }

    fn apply(
        characters: &mut [Self::Character],
        e: &Self::Event,
        world: &World<'_>,
    ) -> Result<String, Self::Error> {
        crate::savage::apply(&mut characters[0], e, world.now).map(|o| o.summary)
    }
}

/// Wrath & Glory (rules text 002). Its events carry their dice, and every die recorded must
/// be read.
pub struct WrathGlory;

/// Why a Wrath & Glory event does not apply: the rules' refusal, or a recorded die its
/// sequence does not read.
#[derive(Debug, thiserror::Error)]
pub enum WgApplyError {
    /// The rules refused.
    #[error(transparent)]
    Rules(#[from] crate::wrath::WgError),
    /// A recorded die.
    #[error(transparent)]
    Dice(#[from] crate::harnmaster::injury::StrikeError),
}

impl RulesSystem for WrathGlory {
    const SYSTEM: SystemId = SystemId::WrathGlory;
    type Character = crate::wrath::WgCharacter;
    type Event = crate::wrath::WgEvent;
    type Error = WgApplyError;

    fn held(state: &CharacterState) -> Option<&Self::Character> {
        match state {
            CharacterState::WrathGlory(c) => Some(c),
            _ => None,
        }
    }

    fn state(c: Self::Character) -> CharacterState {
        CharacterState::WrathGlory(c)
    }

    fn touches(e: &Self::Event) -> Vec<CharacterId> {
        vec![e.character()]
    }

    fn apply(
        characters: &mut [Self::Character],
        e: &Self::Event,
        world: &World<'_>,
    ) -> Result<String, Self::Error> {
        let mut dice = crate::harnmaster::injury::Replayed::new(e.dice());
        let summary = crate::wrath::apply(&mut characters[0], e, &mut dice, world.now)?;
        dice.all_read()?;
        Ok(summary)
    }
}

/// Witch Iron (rules text 003). A Quarrel touches its defender and its attacker; the Arms &
/// Legs table the GM supplies is campaign-wide (the fold keeps it).
pub struct WitchIron;

impl RulesSystem for WitchIron {
    const SYSTEM: SystemId = SystemId::WitchIron;
    type Character = crate::witch::WiCharacter;
    type Event = crate::witch::WiEvent;
    type Error = String;

    fn held(state: &CharacterState) -> Option<&Self::Character> {
        match state {
            CharacterState::WitchIron(c) => Some(c),
            _ => None,
        }
    }

    fn state(c: Self::Character) -> CharacterState {
        CharacterState::WitchIron(c)
    }

    fn touches(e: &Self::Event) -> Vec<CharacterId> {
        let mut out: Vec<CharacterId> = e.character().into_iter().collect();
        if let crate::witch::WiEvent::Quarrel { attacker, .. } = e {
            out.push(*attacker);
        }
        out
    }

    fn apply(
        characters: &mut [Self::Character],
        e: &Self::Event,
        world: &World<'_>,
    ) -> Result<String, Self::Error> {
        let (target, rest) = characters
            .split_first_mut()
            .ok_or_else(|| "the event names no character".to_string())?;
        crate::witch::apply(
            target,
            rest.first_mut(),
            world.wi_tables,
            e,
            world.now,
            world.round_seconds,
        )
    }
}
