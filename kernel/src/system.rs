//! The seams between the fold and the rules systems.
//!
//! - [`RulesSystem`] is what **one** rules system implements, the same way for every system,
//!   naming no list: its character, events, settings, outcome, what an event did
//!   (`Applied`), error and decree as associated types; `touches` (the
//!   characters an event reads and writes), `decide` (pure: those characters, the settings
//!   and the event's recorded dice give a typed outcome or a typed refusal) and `apply`
//!   (writes the outcome; cannot fail), and `decree` for the GM's overrides. A refused event
//!   changes nothing, because nothing is written before the decision is made.
//! - [`Systems`] is the **list** of the systems a ledger knows: the one place they are
//!   named together (Leechbook's is `leechbook_core::AllSystems`). It gives the fold the
//!   types every campaign's state is made of (a character of any system, every system's
//!   settings, what applying an event did, why it is void), tells the fold what an event is
//!   ([`Systems::entry`]: the campaign's creation, a character joining, the clock, a ruling,
//!   a roster change, or an event of one system, which applies itself through
//!   [`SystemEvent`]), makes a character from its sheet and hands a GM's decree to the
//!   character's system.
//! - [`Hosts`] is what a list implements once per system it names: where it keeps that
//!   system's characters and settings, its outcomes and refusals in the list's words, and
//!   which of the list's decrees it takes. The fold reaches a system only through it, so a
//!   system's crate depends on the kernel alone.
//!
//! The fold ([`crate::fold::Ledger`]) is generic over a [`Systems`]: it knows no rules system.
//! This module knows no ledger: an event of a system applies to a [`Cast`], the characters a
//! ledger holds and its settings, lent for the one event.

use crate::dice::{DiceError, DiceSource, Drawing, RecordedDie, Replayed};
use crate::envelope::{LedgerEvent, OrderKey};
use crate::ids::{CampaignId, CharacterId, EventId};
use crate::roster::RosterChange;
use crate::ruling::Ruling;
use crate::time::CampaignTime;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::{Debug, Display};

/// The rules systems a ledger knows, listed once: the types the fold is made of and the
/// dispatch from an event to its system.
pub trait Systems: Sized + Clone + Debug + PartialEq + Eq + 'static {
    /// Which system a campaign plays (`CampaignCreated` names it; it never changes).
    type Id: Copy + Eq + Debug + Serialize + DeserializeOwned;
    /// An event of the campaign: the kernel's kinds and every system's.
    type Event: LedgerEvent<Decree = Self::Decree> + Clone + Debug;
    /// A character sheet of any system.
    type Sheet;
    /// A character of any system.
    type Character: Character + Clone + Debug + PartialEq + Eq + Serialize + DeserializeOwned;
    /// Every system's campaign-wide settings (tables, options, arms).
    type Settings: Default + Clone + Debug + PartialEq + Eq + Serialize + DeserializeOwned;
    /// What a GM's override decrees.
    type Decree;
    /// What applying an event did (for narration).
    type Applied: From<Settled> + Clone + Debug + PartialEq;
    /// Why an event is void.
    type Error: From<Refusal> + Display + Debug;

    /// What a GM's override may decree, in words (a system whose rules define no override
    /// refuses one, naming these).
    const DECREES: &'static str;

    /// A system's name, as the CLI takes it.
    fn name(id: Self::Id) -> &'static str;
    /// What an event is, to the fold.
    fn entry(e: &Self::Event) -> Entry<'_, Self>;
    /// An event of one rules system, to write the faces its sequence draws into as it is
    /// recorded (`None` for the kernel's own kinds, which draw no dice).
    fn system_mut(e: &mut Self::Event) -> Option<&mut dyn SystemEvent<Self>>;
    /// A new character of the sheet's system, its id the event's that added it.
    fn character(
        settings: &Self::Settings,
        id: CharacterId,
        name: &str,
        sheet: &Self::Sheet,
    ) -> Result<Self::Character, Self::Error>;
    /// A GM's override of a character's state, handed to the character's system: what it
    /// did, in a few words.
    fn decree(
        settings: &Self::Settings,
        character: &mut Self::Character,
        decree: &Self::Decree,
        world: &World,
    ) -> Result<String, Self::Error>;
}

/// What an event is, to the fold.
pub enum Entry<'a, S: Systems> {
    /// The campaign began (the first event of every ledger).
    CampaignCreated {
        /// Its name.
        name: &'a str,
        /// Its system.
        system: S::Id,
        /// Seconds per combat round.
        round_seconds: i64,
    },
    /// A character joined; their id is the event's.
    CharacterAdded {
        /// Their name.
        name: &'a str,
        /// Their sheet.
        sheet: &'a S::Sheet,
        /// The sheet's system.
        system: S::Id,
    },
    /// The campaign clock moved forward.
    ClockAdvanced {
        /// To.
        to: CampaignTime,
    },
    /// A GM's ruling about the record.
    Ruling(&'a Ruling<S::Event, S::Decree>),
    /// A roster change.
    Roster(&'a RosterChange),
    /// Where a character stands in the story (their side, set aside or not).
    Standing {
        /// Who.
        character: CharacterId,
        /// Where they stand from now.
        standing: &'a crate::standing::Standing,
    },
    /// Whether a character is GM-only from now ([`crate::standing`]).
    Secret {
        /// Who.
        character: CharacterId,
        /// GM-only (true) or seen by the table (false: revealed).
        secret: bool,
    },
    /// An event of one rules system.
    System(&'a dyn SystemEvent<S>),
}

/// An event of one rules system, as the fold applies it (every event type that is
/// [`OfSystem`] is one): it says whose it is and applies itself through [`Cast::apply`], the
/// one way every system's events apply.
pub trait SystemEvent<S: Systems> {
    /// The system it belongs to.
    fn system(&self) -> S::Id;
    /// Applies it to the characters a ledger holds (every one it touches) and the settings.
    fn apply_to(&self, cast: Cast<'_, S>, world: &World) -> Result<S::Applied, S::Error>;
    /// Applies it as it is recorded, drawing its dice from `dice` and writing the faces drawn
    /// into it (see [`Cast::apply_drawing`]).
    fn apply_drawing_to(
        &mut self,
        cast: Cast<'_, S>,
        world: &World,
        dice: &mut dyn Drawing,
    ) -> Result<S::Applied, S::Error>;
}

/// The rules system an event type belongs to (each system's crate says so of its events).
pub trait OfSystem: Sized {
    /// The system, whose events are this type.
    type System: RulesSystem<Event = Self>;
}

impl<S: Hosts<E::System>, E: OfSystem> SystemEvent<S> for E {
    fn system(&self) -> S::Id {
        S::ID
    }

    fn apply_to(&self, cast: Cast<'_, S>, world: &World) -> Result<S::Applied, S::Error> {
        cast.apply::<E::System>(self, world)
    }

    fn apply_drawing_to(
        &mut self,
        cast: Cast<'_, S>,
        world: &World,
        dice: &mut dyn Drawing,
    ) -> Result<S::Applied, S::Error> {
        cast.apply_drawing::<E::System>(self, world, dice)
    }
}

/// What the fold needs of a character of any system.
pub trait Character {
    /// Its id (the id of the event that added it).
    fn id(&self) -> CharacterId;
    /// Its name.
    fn name(&self) -> &str;
}

/// What applying one of the kernel's own events did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Settled {
    /// The campaign began.
    CampaignCreated,
    /// A character joined.
    CharacterAdded(CharacterId),
    /// The clock moved.
    ClockAdvanced {
        /// From.
        from: CampaignTime,
        /// To.
        to: CampaignTime,
    },
    /// A roster change or a setting, in a few words.
    Setting(String),
    /// A ruling was recorded (retractions and amendments act through the rulings in force;
    /// an override says what it decreed).
    Ruling(String),
}

/// Why the kernel voids an event, whatever the system.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// An event before the campaign began.
    NoCampaign,
    /// A second `CampaignCreated`.
    CampaignExists,
    /// An event of another campaign.
    ForeignCampaign(CampaignId),
    /// A character id the ledger does not know (or does not hold).
    UnknownCharacter(CharacterId),
    /// A character name already taken.
    NameTaken(String),
    /// An empty or unusable name.
    BadName(String),
    /// A sheet or event of another system.
    WrongSystem {
        /// The campaign's system.
        campaign: &'static str,
        /// The event's.
        event: &'static str,
    },
    /// The roster does not allow the event.
    Roster(String),
    /// The clock would go backwards.
    ClockBackwards {
        /// The clock now.
        now: CampaignTime,
        /// The time asked for.
        to: CampaignTime,
    },
    /// A player's device dated the event beyond the campaign clock: only the GM moves the
    /// clock, so a player's event is recorded at the clock its device holds, never past it.
    BeyondClock {
        /// The campaign clock where the event stands in the order.
        now: CampaignTime,
        /// The campaign time the event claims.
        at: CampaignTime,
    },
    /// The envelope's clock, number or times are outside the span any device writes.
    OutOfBounds(crate::envelope::OutOfBounds),
    /// Dice given for an event that draws none, or a face that does not fit its die.
    Dice(DiceError),
    /// A change that changes nothing (a character's standing as it already is), in words.
    Unchanged(String),
    /// An event that joins a GM-only character with one the table sees: its fold reads the
    /// GM-only one's state, which no player's device holds (the two names, GM-only first).
    JoinsSecret(String, String),
    /// A rules system refused the event, in its own words.
    System {
        /// The system.
        system: &'static str,
        /// Why.
        message: String,
    },
}

/// What of the campaign an event may read besides its characters and its system's settings.
/// Not the ledger's clock: an event reads its own campaign time, so that a character's fold
/// depends only on the events that touch it (and the campaign's settings, roster and
/// rulings), which is what lets an audit fold one character's events alone.
#[derive(Clone, Copy, Debug)]
pub struct World {
    /// The event's id (a strike's injury takes it).
    pub event: EventId,
    /// The event's place in the fold's total order.
    pub order: OrderKey,
    /// The campaign time of the event.
    pub now: CampaignTime,
    /// Seconds per combat round.
    pub round_seconds: i64,
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

/// One rules system, as the fold uses it: its own types, and the rules that decide and
/// apply its events. It names no list of systems: where a list keeps its characters,
/// settings, outcomes and refusals is the list's business ([`Hosts`]), so a system's crate
/// depends on the kernel alone.
pub trait RulesSystem {
    /// A character's state.
    type Character: Character;
    /// The system's events.
    type Event;
    /// Its campaign-wide settings.
    type Settings;
    /// What deciding an event found: everything applying it writes.
    type Outcome;
    /// What applying an event did, in the system's own terms (for narration).
    type Applied;
    /// Why an event of the system does not apply (a die its sequence needs and the event
    /// does not record is one reason).
    type Error: Display + From<DiceError>;
    /// A character sheet of the system.
    type Sheet;
    /// What a GM may decree about one of its characters (`std::convert::Infallible` for a
    /// system that takes no override).
    type Decree;

    /// The system's name, as the CLI takes it (`init --system NAME`).
    const NAME: &'static str;
    /// The kinds of its events that reach a character besides the one they are about (the
    /// ones [`RulesSystem::touches`] names more than one character for): a view of some
    /// characters reads every event of these kinds to see whom it reaches.
    const REACHING: &'static [&'static str] = &[];

    /// Leechbook's readings of the system's text where it is silent or ambiguous: each a
    /// title and its Markdown.
    fn readings() -> Vec<(&'static str, &'static str)>;
    /// An event's kind, as the log keeps it and `log` shows it (`hm.strike`).
    fn kind(e: &Self::Event) -> &'static str;
    /// Checks that every face an event records fits its die, however the event arrived (a
    /// system whose faces are all in [`RulesSystem::dice`] has nothing more to check: the
    /// source checks those as the sequence reads them).
    fn check_faces(_: &Self::Event) -> Result<(), DiceError> {
        Ok(())
    }
    /// The sheet a character was added with (as changed since).
    fn sheet(c: &Self::Character) -> Self::Sheet;
    /// Whether a character is dead.
    fn dead(c: &Self::Character) -> bool;
    /// The character what an event did is about (none for a change of the settings).
    fn about(a: &Self::Applied) -> Option<CharacterId>;
    /// The d100 tests an event made, for the audit (none for a system without them).
    fn tests(_: &Self::Applied) -> Vec<crate::test_roll::TestResult> {
        Vec::new()
    }

    /// A new character of the system from its sheet (its id the event's that added it), or
    /// why the sheet does not fit the campaign's settings.
    fn new_character(
        settings: &Self::Settings,
        id: CharacterId,
        name: &str,
        sheet: &Self::Sheet,
    ) -> Result<Self::Character, Self::Error>;
    /// The characters an event touches, each once, the one it is about first (none for an
    /// event that changes only the settings).
    fn touches(e: &Self::Event) -> Touched;
    /// Decides an event against the characters it touches (in the order
    /// [`RulesSystem::touches`] gives) and the settings, reading nothing else, and drawing
    /// the dice its sequence rolls from `dice`: on replay, the faces the event records
    /// ([`RulesSystem::dice`]); when it is recorded, the table's (given or rolled), which
    /// are then written into it ([`RulesSystem::record`]). The rules run once either way.
    fn decide(
        settings: &Self::Settings,
        characters: &[&Self::Character],
        e: &Self::Event,
        world: &World,
        dice: &mut dyn DiceSource,
    ) -> Result<Self::Outcome, Self::Error>;
    /// The faces an event records for the dice its sequence draws (none for an event whose
    /// rolls are among its declared fields).
    fn dice(e: &Self::Event) -> &[RecordedDie];
    /// Writes the faces drawn while deciding an event into it, as [`RulesSystem::dice`]
    /// gives them back. An event that records no dice is left as it is (its sequence draws
    /// none, so there is nothing to write).
    fn record(e: &mut Self::Event, dice: Vec<RecordedDie>);
    /// What a GM's amendment may correct in an event (none: it records nothing to correct).
    fn amendable(_: &mut Self::Event) -> Option<&mut dyn crate::amend::Amendable> {
        None
    }
    /// Writes what [`RulesSystem::decide`] found, and says what happened.
    fn apply(
        settings: &mut Self::Settings,
        characters: &mut [&mut Self::Character],
        outcome: Self::Outcome,
        world: &World,
    ) -> Self::Applied;
    /// A GM's override of a character's state.
    fn decree(
        settings: &Self::Settings,
        character: &mut Self::Character,
        decree: &Self::Decree,
        world: &World,
    ) -> Result<String, Self::Error>;
}

/// Where a list of systems (`Self`) keeps the system `R`'s own types: its characters among
/// the list's characters, its settings among every system's, its outcomes and refusals in
/// the list's words, and the decrees it takes among the list's. The list implements it
/// once per system it names; the fold reaches a system only through it.
pub trait Hosts<R: RulesSystem>: Systems {
    /// Which system `R` is in the list.
    const ID: Self::Id;
    /// The system's character as a character of any system.
    fn wrap(c: R::Character) -> Self::Character;
    /// The system's character in a character of any system, if it is one.
    fn held(state: &Self::Character) -> Option<&R::Character>;
    /// The same, to write.
    fn held_mut(state: &mut Self::Character) -> Option<&mut R::Character>;
    /// The system's settings among every system's.
    fn settings(all: &Self::Settings) -> &R::Settings;
    /// The same, to write.
    fn settings_mut(all: &mut Self::Settings) -> &mut R::Settings;
    /// What applying one of its events did, in the list's words.
    fn applied(a: R::Applied) -> Self::Applied;
    /// Why one of its events is void, in the list's words.
    fn refused(e: R::Error) -> Self::Error;
    /// The decree as one the system takes, if it takes such a decree at all.
    fn decree_of(d: &Self::Decree) -> Option<&R::Decree>;
}

/// A decree of a list (`D`) as one a system takes: the list's own decree type takes itself,
/// and a system that takes no override (`Infallible`) takes none.
pub trait DecreeOf<D> {
    /// The decree as this system's, if it is one.
    fn of(d: &D) -> Option<&Self>;
}

impl<D> DecreeOf<D> for std::convert::Infallible {
    fn of(_: &D) -> Option<&std::convert::Infallible> {
        None
    }
}

/// A new character of the system `R` in a ledger that knows the systems `L`, from its sheet
/// and the system's settings among every system's: what a list's [`Systems::character`]
/// does for each of its systems.
pub fn new_character<L: Hosts<R>, R: RulesSystem>(
    all: &L::Settings,
    id: CharacterId,
    name: &str,
    sheet: &R::Sheet,
) -> Result<L::Character, L::Error> {
    R::new_character(L::settings(all), id, name, sheet)
        .map(L::wrap)
        .map_err(L::refused)
}

/// A GM's decree handed to the system `R` for `character` (one of its characters), with
/// its settings among every system's: what a list's [`Systems::decree`] does for each of its
/// systems. A system that takes no such decree refuses it in the kernel's words.
pub fn decree_on<L: Hosts<R>, R: RulesSystem>(
    all: &L::Settings,
    character: &mut L::Character,
    decree: &L::Decree,
    world: &World,
) -> Result<String, L::Error> {
    let id = character.id();
    let Some(decree) = <L as Hosts<R>>::decree_of(decree) else {
        let system = L::name(L::ID);
        return Err(Refusal::System {
            system,
            message: format!("a {system} character takes no override of {}", L::DECREES),
        }
        .into());
    };
    match L::held_mut(character) {
        Some(c) => R::decree(L::settings(all), c, decree, world).map_err(L::refused),
        None => Err(Refusal::UnknownCharacter(id).into()),
    }
}

/// The characters a ledger holds (with their places by id) and every system's settings,
/// lent to one event of a rules system.
pub struct Cast<'a, S: Systems> {
    characters: &'a mut [S::Character],
    by_id: &'a BTreeMap<CharacterId, usize>,
    settings: &'a mut S::Settings,
}

impl<'a, S: Systems> Cast<'a, S> {
    /// Lends the characters held (`by_id` gives each one's place) and the settings.
    pub fn new(
        characters: &'a mut [S::Character],
        by_id: &'a BTreeMap<CharacterId, usize>,
        settings: &'a mut S::Settings,
    ) -> Cast<'a, S> {
        Cast {
            characters,
            by_id,
            settings,
        }
    }

    /// Applies an event of the rules system `R` the one way every system's events apply:
    /// the system decides against the characters the event touches and its settings
    /// (reading only, and reading every die the event records), then writes the outcome. A
    /// refusal writes nothing.
    pub fn apply<R: RulesSystem>(self, e: &R::Event, world: &World) -> Result<S::Applied, S::Error>
    where
        S: Hosts<R>,
    {
        let mut dice = Replayed::new(R::dice(e));
        let (at, outcome) = self.decide::<R>(e, world, &mut dice)?;
        dice.all_read().map_err(|d| S::refused(d.into()))?;
        self.write::<R>(&at, R::touches(e), outcome, world)
    }

    /// Applies an event of `R` as it is recorded: the system decides once, drawing its dice
    /// from `dice` (the table's faces, given or rolled); the faces drawn are written into the
    /// event, and then the outcome into the state. Dice given that the sequence never asked
    /// for refuse it, as a recorded die it never reads refuses a replay.
    pub fn apply_drawing<R: RulesSystem>(
        self,
        e: &mut R::Event,
        world: &World,
        dice: &mut dyn Drawing,
    ) -> Result<S::Applied, S::Error>
    where
        S: Hosts<R>,
    {
        let (at, outcome) = self.decide::<R>(e, world, dice)?;
        let drawn = dice.drawn().map_err(|d| S::refused(d.into()))?;
        let count = drawn.len();
        let first = drawn.first().map(|d| d.name.clone());
        R::record(e, drawn);
        // An event that cannot hold the faces its sequence drew would be void on replay:
        // refused now rather than written.
        if R::dice(e).len() != count {
            let name = first.unwrap_or_default();
            return Err(S::refused(DiceError::Unused(name).into()));
        }
        self.write::<R>(&at, R::touches(e), outcome, world)
    }

    /// The places of the characters `e` touches, and what the system decided.
    fn decide<R: RulesSystem>(
        &self,
        e: &R::Event,
        world: &World,
        dice: &mut dyn DiceSource,
    ) -> Result<(Places, R::Outcome), S::Error>
    where
        S: Hosts<R>,
    {
        // Every event of a replay comes through here: it allocates nothing for the one
        // character most events touch (an exchange's two or a shot's three take a small Vec).
        let ids = R::touches(e);
        let ids = ids.as_slice();
        let mut at = Places {
            at: [0usize; Touched::MAX],
            len: ids.len(),
        };
        let unknown = |id: CharacterId| S::Error::from(Refusal::UnknownCharacter(id));
        for (k, id) in ids.iter().enumerate() {
            let i = *self.by_id.get(id).ok_or_else(|| unknown(*id))?;
            if at.at[..k].contains(&i) || S::held(&self.characters[i]).is_none() {
                return Err(unknown(*id));
            }
            at.at[k] = i;
        }
        let held = |k: usize| S::held(&self.characters[at.at[k]]).ok_or_else(|| unknown(ids[k]));
        let settings = S::settings(self.settings);
        let outcome = match at.len {
            0 => R::decide(settings, &[], e, world, dice),
            1 => R::decide(settings, &[held(0)?], e, world, dice),
            2 => R::decide(settings, &[held(0)?, held(1)?], e, world, dice),
            _ => R::decide(settings, &[held(0)?, held(1)?, held(2)?], e, world, dice),
        }
        .map_err(S::refused)?;
        Ok((at, outcome))
    }

    /// Writes what the system decided to the characters at `at` (`ids` are theirs).
    fn write<R: RulesSystem>(
        self,
        at: &Places,
        ids: Touched,
        outcome: R::Outcome,
        world: &World,
    ) -> Result<S::Applied, S::Error>
    where
        S: Hosts<R>,
    {
        let unknown = |id: CharacterId| S::Error::from(Refusal::UnknownCharacter(id));
        let settings = S::settings_mut(self.settings);
        Ok(S::applied(match &at.at[..at.len] {
            [] => R::apply(settings, &mut [], outcome, world),
            [i] => match S::held_mut(&mut self.characters[*i]) {
                Some(c) => R::apply(settings, &mut [c], outcome, world),
                None => return Err(unknown(ids.as_slice()[0])),
            },
            places => {
                let mut held: Vec<&mut R::Character> = pick_mut(self.characters, places)
                    .into_iter()
                    .filter_map(S::held_mut)
                    .collect();
                R::apply(settings, &mut held, outcome, world)
            }
        }))
    }
}

/// Where the characters an event touches are held, in the order it names them.
struct Places {
    at: [usize; Touched::MAX],
    len: usize,
}

/// The outcome of a system that decides on copies of the characters an event touches (a
/// system whose rules are one function per event, run on the copies): the characters
/// after the event, in the order [`RulesSystem::touches`] gave, and what the rules found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Copies<C, O> {
    /// The characters after.
    pub characters: Vec<C>,
    /// What the rules found.
    pub outcome: O,
}

/// Copies of `characters`, for a system's rules to change (see [`Copies`]).
pub fn copies<C: Clone>(characters: &[&C]) -> Vec<C> {
    characters.iter().map(|c| (*c).clone()).collect()
}

impl<C: Character, O> Copies<C, O> {
    /// Writes the copies back over the characters they were made from, and gives what the
    /// rules found with the character the event is about: the first it touches (the nil id
    /// for an event that touches none).
    pub fn write_back(self, characters: &mut [&mut C]) -> (CharacterId, O) {
        for (slot, c) in characters.iter_mut().zip(self.characters) {
            **slot = c;
        }
        let about = characters
            .first()
            .map_or(CharacterId(uuid::Uuid::nil()), |c| c.id());
        (about, self.outcome)
    }
}

/// Mutable borrows of the elements at `at` (distinct indices), in the order of `at`.
fn pick_mut<'a, T>(all: &'a mut [T], at: &[usize]) -> Vec<&'a mut T> {
    let mut order: Vec<usize> = (0..at.len()).collect();
    order.sort_by_key(|&k| at[k]);
    let mut out: Vec<Option<&'a mut T>> = (0..at.len()).map(|_| None).collect();
    let mut rest: &'a mut [T] = all;
    let mut base = 0;
    for k in order {
        let tail = std::mem::take(&mut rest);
        let (one, after) = tail[at[k] - base..].split_at_mut(1);
        out[k] = one.first_mut();
        rest = after;
        base = at[k] + 1;
    }
    out.into_iter().flatten().collect()
}
