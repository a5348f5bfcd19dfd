//! The fold: a campaign's state is `events.fold(Ledger::default(), apply)`, for any list of
//! rules systems ([`Systems`]).
//!
//! [`Ledger::apply`] is deterministic and atomic: it either applies an event whole or leaves
//! the state untouched and returns why the event is void. The store hands events over in the
//! total order `(clock, device, seq)`; the fold trusts that order. A void event stays in the
//! log and is listed in [`Ledger::void`] with its reason: nothing is dropped silently.
//!
//! The kernel applies its own events (the campaign's creation, a character joining, the
//! clock, rulings, roster changes) and hands every event of a rules system to that system the
//! one way ([`Cast::apply`]): find the characters it touches, let the system decide
//! against them and its settings (reading only), then write the outcome.

use crate::dice::{DiceError, Drawing};
use crate::envelope::Envelope;
use crate::ids::{CampaignId, CharacterId, EventId};
use crate::roster::{Role, Roster, RosterChange};
use crate::ruling::{Ruling, Rulings};
use crate::system::{Cast, Character, Entry, Refusal, Settled, Systems, World};
use crate::time::CampaignTime;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The campaign, as `CampaignCreated` declared it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Campaign<S: Systems> {
    /// Its id.
    pub id: CampaignId,
    /// Its name.
    pub name: String,
    /// Its rules system.
    pub system: S::Id,
    /// Seconds per combat round.
    pub round_seconds: i64,
}

/// What became of events that did not simply apply: a [`Ledger`]'s `void`, `retracted` and
/// `amended`, kept apart from the rest of its head where they are stored.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fates {
    /// The events that were void.
    pub void: Vec<VoidEvent>,
    /// The events struck by a retraction in force: the event, the ruling and its reason.
    pub retracted: Vec<(EventId, EventId, String)>,
    /// The events whose amended content was used: the event, the ruling and its reason.
    pub amended: Vec<(EventId, EventId, String)>,
}

/// An event the fold refused, with the reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VoidEvent {
    /// The event.
    pub id: EventId,
    /// Its kind.
    pub kind: String,
    /// Why it is void.
    pub reason: String,
}

/// What became of one event in a derivation (`A`: what applying an event did).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fate<A> {
    /// It applied.
    Applied(A),
    /// It is void, and why (its premise is gone, or it never fit).
    Void(String),
    /// A ruling struck it from the record, and why.
    Retracted(String),
}

/// The folded state of a campaign. It serialises (deterministically: maps are ordered) so
/// that the store can keep snapshots of it.
///
/// A ledger can hold every character (a fold, a checkpoint) or only some of them, the ones a
/// command touches, with the rest of the campaign's state (its *head*: [`Ledger::head`]):
/// the ledger's projection keeps the head and each character apart, so that a command reads
/// and writes what it touches, not the campaign's whole history. [`Ledger::roll`] lists every
/// character either way. An event applied to a ledger must touch only characters it holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Ledger<S: Systems> {
    /// The campaign, once created.
    pub campaign: Option<Campaign<S>>,
    /// The campaign clock: where the GM's clock events (`advance`) have moved it.
    pub now: CampaignTime,
    /// The characters held, in the order they joined (all of them, unless the ledger was
    /// assembled from a projection for some: [`Ledger::with_characters`]).
    pub characters: Vec<S::Character>,
    by_id: BTreeMap<CharacterId, usize>,
    /// Every character of the campaign, held or not: id and name, in the order they joined.
    roll: Vec<(CharacterId, String)>,
    /// Each system's campaign-wide settings (tables, options, arms).
    pub settings: S::Settings,
    /// The roster in force (worked out from the whole log before the fold).
    pub roster: Roster,
    /// How many events were applied.
    pub applied: u64,
    /// The events that were void, in log order.
    pub void: Vec<VoidEvent>,
    /// The events struck from the record by a retraction in force: the event, the ruling and
    /// its reason.
    pub retracted: Vec<(EventId, EventId, String)>,
    /// The events whose amended content was used: the event, the ruling and its reason.
    pub amended: Vec<(EventId, EventId, String)>,
    /// Where each character stands whose standing the GM recorded (the others are of the
    /// party and in the story).
    #[serde(default)]
    pub standing: BTreeMap<CharacterId, crate::standing::Standing>,
    /// The GM-only characters ([`crate::standing`]): what only the GM's devices read.
    #[serde(default)]
    pub secret: std::collections::BTreeSet<CharacterId>,
}

impl<S: Systems> Default for Ledger<S> {
    fn default() -> Ledger<S> {
        Ledger::new()
    }
}

impl<S: Systems> Ledger<S> {
    /// Returns an empty ledger.
    pub fn new() -> Ledger<S> {
        Ledger {
            campaign: None,
            now: CampaignTime::default(),
            characters: Vec::new(),
            by_id: BTreeMap::new(),
            roll: Vec::new(),
            settings: S::Settings::default(),
            roster: Roster::default(),
            applied: 0,
            void: Vec::new(),
            retracted: Vec::new(),
            amended: Vec::new(),
            standing: BTreeMap::new(),
            secret: Default::default(),
        }
    }

    /// Whether the character `id` is GM-only (read only on the GM's devices).
    pub fn is_secret(&self, id: CharacterId) -> bool {
        self.secret.contains(&id)
    }

    /// Where the character `id` stands (of the party and in the story unless recorded).
    pub fn standing_of(&self, id: CharacterId) -> crate::standing::Standing {
        self.standing.get(&id).cloned().unwrap_or_default()
    }

    /// Folds a log (in the total order), with the rulings in force over it.
    pub fn fold(events: &[Envelope<S::Event>]) -> Ledger<S> {
        Ledger::derive(events, |_, _, _| {})
    }

    /// Folds a log with the rulings in force over it, calling `observe` with every event,
    /// the envelope as applied (amended where a ruling amended it) and what became of it.
    /// Retracted events are skipped and listed in [`Ledger::retracted`].
    pub fn derive(
        events: &[Envelope<S::Event>],
        observe: impl FnMut(&Ledger<S>, &Envelope<S::Event>, &Fate<S::Applied>),
    ) -> Ledger<S> {
        Ledger::derive_with(events, &Rulings::from_log(events), observe)
    }

    /// [`Ledger::derive`] with the rulings in force given (a cut of a log judged against the
    /// whole log: [`Rulings::from_cut`]).
    pub fn derive_with(
        events: &[Envelope<S::Event>],
        rulings: &Rulings<S::Event>,
        mut observe: impl FnMut(&Ledger<S>, &Envelope<S::Event>, &Fate<S::Applied>),
    ) -> Ledger<S> {
        let mut l = Ledger::new();
        l.roster = Roster::from_log(events);
        for env in events {
            l.step(env, rulings, &mut observe);
        }
        l
    }

    /// Applies one event of a log whose rulings in force are `rulings`.
    pub fn step(
        &mut self,
        env: &Envelope<S::Event>,
        rulings: &Rulings<S::Event>,
        observe: &mut impl FnMut(&Ledger<S>, &Envelope<S::Event>, &Fate<S::Applied>),
    ) {
        use crate::envelope::LedgerEvent;
        if let Some((ruling, reason)) = rulings.retracted.get(&env.id) {
            self.retracted.push((env.id, *ruling, reason.clone()));
            observe(self, env, &Fate::Retracted(reason.clone()));
            return;
        }
        if let Some(why) = rulings.void.get(&env.id) {
            self.void.push(VoidEvent {
                id: env.id,
                kind: env.event.kind().to_string(),
                reason: why.clone(),
            });
            observe(self, env, &Fate::Void(why.clone()));
            return;
        }
        let amended;
        let env = match rulings.amended.get(&env.id) {
            Some((ruling, event, reason)) => {
                self.amended.push((env.id, *ruling, reason.clone()));
                amended = Envelope {
                    event: event.clone(),
                    ..env.clone()
                };
                &amended
            }
            None => env,
        };
        let fate = match self.apply(env) {
            Ok(a) => Fate::Applied(a),
            Err(e) => Fate::Void(e.to_string()),
        };
        observe(self, env, &fate);
    }

    /// Finds a character by name among those held, as [`Ledger::id_named`] finds it.
    pub fn character_named(&self, name: &str) -> Option<&S::Character> {
        self.character(self.id_named(name)?)
    }

    /// Every character of the campaign (held or not): id and name, in the order they joined.
    pub fn roll(&self) -> &[(CharacterId, String)] {
        &self.roll
    }

    /// The name of the character `id`, held or not, as the roll records it.
    pub fn name_of(&self, id: CharacterId) -> Option<&str> {
        self.roll
            .iter()
            .find(|(c, _)| *c == id)
            .map(|(_, n)| n.as_str())
    }

    /// The id of the character named `name`, held or not: the name as recorded, else
    /// without regard to ASCII case, else as [`crate::name::same_name`] compares names (when
    /// one character only answers to it).
    pub fn id_named(&self, name: &str) -> Option<CharacterId> {
        let name = name.trim();
        if let Some(id) = self.id_taken(name) {
            return Some(id);
        }
        let mut like = self
            .roll
            .iter()
            .filter(|(_, n)| crate::name::same_name(n, name));
        match (like.next(), like.next()) {
            (Some((id, _)), None) => Some(*id),
            _ => None,
        }
    }

    /// The name of a character that `name` would be told apart from by neither case (in any
    /// script) nor the encoding of its accents: what a new character may not be called.
    pub fn name_like(&self, name: &str) -> Option<&str> {
        self.roll
            .iter()
            .find(|(_, n)| crate::name::same_name(n, name))
            .map(|(_, n)| n.as_str())
    }

    /// The fold's rule for a name already taken, as recorded ledgers were folded by it: the
    /// same name without regard to ASCII case. (New names are held to
    /// [`Ledger::name_like`] by the command that records them.)
    fn id_taken(&self, name: &str) -> Option<CharacterId> {
        let name = name.trim();
        self.roll
            .iter()
            .find(|(_, n)| n == name)
            .or_else(|| self.roll.iter().find(|(_, n)| n.eq_ignore_ascii_case(name)))
            .map(|(id, _)| *id)
    }

    /// The campaign's round length in seconds (10 before a campaign is folded).
    pub fn round_seconds(&self) -> i64 {
        self.campaign.as_ref().map_or(10, |c| c.round_seconds)
    }

    /// Whether every character of the campaign is held.
    pub fn complete(&self) -> bool {
        self.characters.len() == self.roll.len()
    }

    /// The campaign's state without its characters (what a projection keeps apart from
    /// them): the campaign, clock, tables, options, roster, arms, and what became of events.
    pub fn head(&self) -> Ledger<S> {
        Ledger {
            campaign: self.campaign.clone(),
            now: self.now,
            characters: Vec::new(),
            by_id: BTreeMap::new(),
            roll: self.roll.clone(),
            settings: self.settings.clone(),
            roster: self.roster.clone(),
            applied: self.applied,
            void: self.void.clone(),
            retracted: self.retracted.clone(),
            amended: self.amended.clone(),
            standing: self.standing.clone(),
            secret: self.secret.clone(),
        }
    }

    /// The head without what became of events (void, retracted, amended), which it hands
    /// over: the write path keeps them apart, since only a ruling (which re-derives the
    /// record) changes them, and a command that records reads none of them.
    pub fn take_fates(&mut self) -> Fates {
        Fates {
            void: std::mem::take(&mut self.void),
            retracted: std::mem::take(&mut self.retracted),
            amended: std::mem::take(&mut self.amended),
        }
    }

    /// Puts back what [`Ledger::take_fates`] took.
    pub fn set_fates(&mut self, fates: Fates) {
        self.void = fates.void;
        self.retracted = fates.retracted;
        self.amended = fates.amended;
    }

    /// A ledger of `head` (a [`Ledger::head`]) holding `characters` (some or all of the
    /// roll's, in any order; those not on the roll are left out).
    pub fn with_characters(head: Ledger<S>, characters: Vec<S::Character>) -> Ledger<S> {
        let mut l = head;
        let mut chars = characters;
        let order: BTreeMap<CharacterId, usize> = l
            .roll
            .iter()
            .enumerate()
            .map(|(i, (id, _))| (*id, i))
            .collect();
        chars.retain(|c| order.contains_key(&c.id()));
        chars.sort_by_key(|c| order[&c.id()]);
        l.by_id = chars.iter().enumerate().map(|(i, c)| (c.id(), i)).collect();
        l.characters = chars;
        l
    }

    /// Finds a character by id.
    pub fn character(&self, id: CharacterId) -> Option<&S::Character> {
        self.by_id.get(&id).map(|&i| &self.characters[i])
    }

    fn world(&self, env: &Envelope<S::Event>) -> World {
        World {
            event: env.id,
            order: env.order_key(),
            now: env.at,
            round_seconds: self.round_seconds(),
        }
    }

    /// Applies one event. On error the state is unchanged and the event is listed as void.
    pub fn apply(&mut self, env: &Envelope<S::Event>) -> Result<S::Applied, S::Error> {
        let r = self.try_apply(env);
        self.settle(env, r)
    }

    /// Applies an event as it is recorded: an event of a rules system is decided once,
    /// drawing its dice from `dice`, and the faces drawn are written into `env`'s event (to
    /// be signed and appended as it now reads: see [`crate::system::Cast::apply_drawing`]).
    /// Any other event applies as [`Ledger::apply`] does, and dice given for it refuse it.
    pub fn apply_drawing(
        &mut self,
        env: &mut Envelope<S::Event>,
        dice: &mut dyn Drawing,
    ) -> Result<S::Applied, S::Error> {
        let system = S::system_mut(&mut env.event).map(|e| e.system());
        let r = match system {
            // The kernel's own kinds draw no dice: any given refuse the event, before it
            // applies.
            None => match dice.drawn() {
                Ok(_) => self.try_apply(env),
                Err(e) => Err(Refusal::Dice(e).into()),
            },
            Some(system) => self.admit(env, Some(system)).and_then(|world| {
                match S::system_mut(&mut env.event) {
                    Some(e) => e.apply_drawing_to(
                        Cast::new(&mut self.characters, &self.by_id, &mut self.settings),
                        &world,
                        dice,
                    ),
                    None => Err(Refusal::Dice(DiceError::Unused(String::new())).into()),
                }
            }),
        };
        self.settle(env, r)
    }

    /// Counts an event that applied and moves the clock to it; lists one that did not as void.
    fn settle(
        &mut self,
        env: &Envelope<S::Event>,
        r: Result<S::Applied, S::Error>,
    ) -> Result<S::Applied, S::Error> {
        use crate::envelope::LedgerEvent;
        match r {
            Ok(a) => {
                self.applied += 1;
                // Only the clock's own events move it (fold version 12: before, any event
                // dated past it did, so a player's device could move the GM's clock). A
                // ruling moves none either, so retracting an advance made by mistake takes
                // the clock back to where it was. So the clock depends on the campaign's own
                // events alone, which every audit folds.
                Ok(a)
            }
            Err(e) => {
                self.void.push(VoidEvent {
                    id: env.id,
                    kind: env.event.kind().to_string(),
                    reason: e.to_string(),
                });
                Err(e)
            }
        }
    }

    /// Checks what applying `env` would do, without changing the state.
    pub fn check(&self, env: &Envelope<S::Event>) -> Result<S::Applied, S::Error> {
        self.clone().try_apply(env)
    }

    /// What every event past the campaign's creation must be: allowed by the roster, of this
    /// campaign, and of its system when it is a system's (`system`). Gives the event's world.
    ///
    /// Time belongs to the record: an envelope outside the span any device writes is void,
    /// and so is a player's event dated beyond the campaign clock where it stands in the
    /// order (only the GM moves the clock; a player's device records at the clock it holds,
    /// and the order puts every event after the clock events its device had taken in). It
    /// reads the clock events alone, which every audit folds, so an audit judges it alike.
    fn admit(&self, env: &Envelope<S::Event>, system: Option<S::Id>) -> Result<World, S::Error> {
        self.roster.allows(env).map_err(Refusal::Roster)?;
        if let Some(b) = env.out_of_bounds() {
            return Err(Refusal::OutOfBounds(b).into());
        }
        if env.at > self.now && self.roster.is_player(env.device) {
            return Err(Refusal::BeyondClock {
                now: self.now,
                at: env.at,
            }
            .into());
        }
        let campaign = self.campaign.as_ref().ok_or(Refusal::NoCampaign)?;
        if campaign.id != env.campaign {
            return Err(Refusal::ForeignCampaign(env.campaign).into());
        }
        if let Some(sys) = system {
            if sys != campaign.system {
                return Err(Refusal::WrongSystem {
                    campaign: S::name(campaign.system),
                    event: S::name(sys),
                }
                .into());
            }
        }
        self.keeps_secrets(env)?;
        Ok(self.world(env))
    }

    /// Refuses an event that joins a GM-only character with one the table sees: its outcome
    /// reads the GM-only one's sheet and state, which no player's device holds, so the
    /// players' devices could not fold it as the GM's do ([`crate::standing`]).
    fn keeps_secrets(&self, env: &Envelope<S::Event>) -> Result<(), Refusal> {
        use crate::envelope::LedgerEvent;
        if self.secret.is_empty() {
            return Ok(());
        }
        let touched = env.event.touched();
        let ids = touched.as_slice();
        let hidden = ids.iter().find(|c| self.is_secret(**c));
        let seen = ids.iter().find(|c| !self.is_secret(**c));
        match (hidden, seen) {
            (Some(h), Some(s)) => Err(Refusal::JoinsSecret(
                self.name_of(*h)
                    .unwrap_or("a GM-only character")
                    .to_string(),
                self.name_of(*s).unwrap_or("another character").to_string(),
            )),
            _ => Ok(()),
        }
    }

    fn try_apply(&mut self, env: &Envelope<S::Event>) -> Result<S::Applied, S::Error> {
        let entry = S::entry(&env.event);
        if let Entry::CampaignCreated {
            name,
            system,
            round_seconds,
        } = entry
        {
            self.roster.allows(env).map_err(Refusal::Roster)?;
            if let Some(b) = env.out_of_bounds() {
                return Err(Refusal::OutOfBounds(b).into());
            }
            if self.campaign.is_some() {
                return Err(Refusal::CampaignExists.into());
            }
            self.campaign = Some(Campaign {
                id: env.campaign,
                name: name.to_string(),
                system,
                round_seconds: round_seconds.max(1),
            });
            return Ok(Settled::CampaignCreated.into());
        }
        let system = match &entry {
            Entry::CharacterAdded { system, .. } => Some(*system),
            Entry::System(e) => Some(e.system()),
            _ => None,
        };
        let world = self.admit(env, system)?;
        match entry {
            Entry::CampaignCreated { .. } => Err(Refusal::CampaignExists.into()),
            Entry::CharacterAdded { name, sheet, .. } => {
                let name = name.trim();
                if name.is_empty() || name.len() > 64 || name.chars().any(char::is_control) {
                    return Err(Refusal::BadName(name.to_string()).into());
                }
                if self.id_taken(name).is_some() {
                    return Err(Refusal::NameTaken(name.to_string()).into());
                }
                let id = CharacterId(env.id.0);
                let state = S::character(&self.settings, id, name, sheet)?;
                self.by_id.insert(id, self.characters.len());
                self.characters.push(state);
                self.roll.push((id, name.to_string()));
                Ok(Settled::CharacterAdded(id).into())
            }
            Entry::ClockAdvanced { to } => {
                let from = self.now;
                if !to.in_span() {
                    return Err(Refusal::OutOfBounds(crate::envelope::OutOfBounds::At(to.0)).into());
                }
                if to < from {
                    return Err(Refusal::ClockBackwards { now: from, to }.into());
                }
                self.now = to;
                Ok(Settled::ClockAdvanced { from, to }.into())
            }
            Entry::System(e) => e.apply_to(
                Cast::new(&mut self.characters, &self.by_id, &mut self.settings),
                &world,
            ),
            Entry::Ruling(r) => self.apply_ruling(r, &world),
            Entry::Roster(change) => Ok(Settled::Setting(self.roster_words(change)).into()),
            Entry::Standing {
                character,
                standing,
            } => {
                let name = self
                    .roll
                    .iter()
                    .find(|(id, _)| *id == character)
                    .map(|(_, n)| n.clone())
                    .ok_or(Refusal::UnknownCharacter(character))?;
                let was = self.standing_of(character);
                if was == *standing {
                    return Err(Refusal::Unchanged(format!(
                        "{name} is already {}{}",
                        standing.side.word(),
                        match &standing.aside {
                            Some(why) => format!(", set aside ({why})"),
                            None => ", in the story".to_string(),
                        }
                    ))
                    .into());
                }
                let words = match (&standing.aside, &was.aside) {
                    (Some(why), old) if old.as_ref() != Some(why) => {
                        format!("{name} is set aside ({why})")
                    }
                    (None, Some(_)) => format!("{name} is back in the story"),
                    _ => format!("{name} is {}", standing.side.word()),
                };
                self.standing.insert(character, standing.clone());
                Ok(Settled::Setting(words).into())
            }
            Entry::Secret { character, secret } => {
                let name = self
                    .name_of(character)
                    .ok_or(Refusal::UnknownCharacter(character))?
                    .to_string();
                // A character a player's device plays records in the open from that device:
                // it cannot be the GM's secret.
                if secret && self.roster.plays(character) {
                    return Err(Refusal::Unchanged(format!(
                        "{name} is played from a player's device: a player's character cannot be GM-only"
                    ))
                    .into());
                }
                if self.is_secret(character) == secret {
                    return Err(Refusal::Unchanged(if secret {
                        format!("{name} is already GM-only")
                    } else {
                        format!("{name} is already seen by the table")
                    })
                    .into());
                }
                let words = if secret {
                    self.secret.insert(character);
                    format!("{name} is GM-only from now: only the GM's devices read what happens to them")
                } else {
                    self.secret.remove(&character);
                    format!("{name} is revealed: the table sees them and their record")
                };
                Ok(Settled::Setting(words).into())
            }
        }
    }

    /// A roster change in a few words.
    fn roster_words(&self, change: &RosterChange) -> String {
        match change {
            RosterChange::Device {
                device,
                role: Role::Gm,
                ..
            } => format!("device {} joins the roster as a GM", device.short()),
            RosterChange::Device {
                device,
                role: Role::Player,
                characters,
                ..
            } => {
                let names: Vec<&str> = characters
                    .iter()
                    .map(|c| {
                        self.roll
                            .iter()
                            .find(|(id, _)| id == c)
                            .map_or("an unknown character", |(_, n)| n.as_str())
                    })
                    .collect();
                format!(
                    "device {} joins the roster as a player, for {}",
                    device.short(),
                    if names.is_empty() {
                        "no character yet".to_string()
                    } else {
                        names.join(", ")
                    }
                )
            }
            RosterChange::Revoke { device } => format!("device {} is revoked", device.short()),
            RosterChange::RevokeAfter { device, last } => format!(
                "device {} is revoked after its event #{last}: every later number of it is void",
                device.short()
            ),
            RosterChange::Places { generation } => format!(
                "the campaign's documents on hubs move to generation {generation} (ids a hub that squatted the old ones does not know)"
            ),
        }
    }

    fn apply_ruling(
        &mut self,
        r: &Ruling<S::Event, S::Decree>,
        world: &World,
    ) -> Result<S::Applied, S::Error> {
        let Ruling::Override {
            character,
            decree,
            reason,
        } = r
        else {
            return Ok(Settled::Ruling(r.reason().to_string()).into());
        };
        let i = *self
            .by_id
            .get(character)
            .ok_or(Refusal::UnknownCharacter(*character))?;
        let what = S::decree(&self.settings, &mut self.characters[i], decree, world)?;
        Ok(Settled::Ruling(format!("override: {what} ({reason})")).into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::RecordedDie;
    use crate::dice::Table;
    use crate::toy::{character, device, env, id, Always, Hit, Toy, ToyApplied, ToyLedger};

    fn log(events: Vec<Toy>) -> Vec<Envelope<Toy>> {
        let gm = device(1);
        (1..).zip(events).map(|(n, e)| env(n, gm, e)).collect()
    }

    fn aldric() -> CharacterId {
        character(2)
    }

    fn table() -> Vec<Toy> {
        vec![
            Toy::Created,
            Toy::Joined("Aldric".into()),
            Toy::Roll(Hit(30, aldric(), vec![])),
            Toy::Roll(Hit(120, aldric(), vec![])),
            Toy::Roll(Hit(12, aldric(), vec![])),
            Toy::Roll(Hit(5, character(99), vec![])),
            Toy::Joined(" aldric ".into()),
        ]
    }

    /// The fold applies the kernel's events and the toy system's, and voids what does not
    /// fit with its reason: 30 + 12 wounds; the 120 (no d100 shows it), the hit on nobody and
    /// the second Aldric are void, in log order.
    #[test]
    fn the_fold_applies_a_system_it_does_not_know() {
        let l = ToyLedger::fold(&log(table()));
        assert_eq!(l.applied, 4);
        assert_eq!(l.characters.len(), 1);
        assert_eq!(l.characters[0].wounds, 42);
        assert_eq!(
            l.character(aldric()).map(|c| c.name.as_str()),
            Some("Aldric")
        );
        let void: Vec<(EventId, &str)> = l.void.iter().map(|v| (v.id, v.reason.as_str())).collect();
        assert_eq!(void.len(), 3);
        assert_eq!(void[0], (id(4), "no d100 shows more than 100"));
        assert_eq!(void[1].0, id(6));
        assert!(void[1].1.contains("UnknownCharacter"), "{}", void[1].1);
        assert_eq!(void[2].0, id(7));
        assert!(void[2].1.contains("NameTaken"), "{}", void[2].1);
    }

    /// A refused event changes nothing but the void list; `check` changes nothing at all.
    #[test]
    fn a_refused_event_writes_nothing() {
        let events = log(table());
        let mut l = ToyLedger::fold(&events[..3]);
        let before = l.clone();
        assert!(l.check(&events[3]).is_err());
        assert_eq!(l, before);
        assert!(l.apply(&events[3]).is_err());
        assert_eq!(l.characters, before.characters);
        assert_eq!(l.applied, before.applied);
        assert_eq!(l.void.len(), 1);
        assert_eq!(
            l.check(&events[4]).ok(),
            Some(ToyApplied::Wounds(42)),
            "a check says what applying would do"
        );
        assert_eq!(l.characters[0].wounds, 30);
    }

    /// A retraction strikes its target from the fold (12 wounds left of 42); an override
    /// decrees the wounds from its moment on (7), and later hits add to it (10).
    #[test]
    fn rulings_act_on_any_system() {
        let mut events = table();
        events.push(Toy::Ruled(Ruling::Retract {
            target: id(3),
            reason: "misheard".into(),
        }));
        let l = ToyLedger::fold(&log(events.clone()));
        assert_eq!(l.characters[0].wounds, 12);
        assert_eq!(l.retracted, vec![(id(3), id(8), "misheard".to_string())]);
        events.push(Toy::Ruled(Ruling::Override {
            character: aldric(),
            decree: 7,
            reason: "the GM rules".into(),
        }));
        events.push(Toy::Roll(Hit(3, aldric(), vec![])));
        let mut fates = Vec::new();
        let l = ToyLedger::derive(&log(events), |_, env, fate| {
            fates.push((env.id, fate.clone()))
        });
        assert_eq!(l.characters[0].wounds, 10);
        assert_eq!(
            fates[8],
            (
                id(9),
                Fate::Applied(ToyApplied::Kernel(Settled::Ruling(
                    "override: Aldric has 7 wounds (the GM rules)".into()
                )))
            )
        );
        assert_eq!(fates[2], (id(3), Fate::Retracted("misheard".into())));
    }

    /// Nothing applies before the campaign's creation, and it is created once.
    #[test]
    fn the_campaign_comes_first_and_once() {
        let l = ToyLedger::fold(&log(vec![
            Toy::Joined("Early".into()),
            Toy::Created,
            Toy::Created,
        ]));
        assert_eq!(l.applied, 1);
        assert!(l.void[0].reason.contains("NoCampaign"));
        assert!(l.void[1].reason.contains("CampaignExists"));
        assert!(l.characters.is_empty());
    }

    /// A ledger taken apart into its head and characters, and put together again, is the
    /// same; a head alone still knows the roll.
    #[test]
    fn a_head_and_its_characters_make_the_ledger() {
        let full = ToyLedger::fold(&log(table()));
        let head = full.head();
        assert!(head.characters.is_empty());
        assert!(!head.complete());
        assert_eq!(head.id_named("ALDRIC"), Some(aldric()));
        assert_eq!(
            ToyLedger::with_characters(head, full.characters.clone()),
            full
        );
    }

    fn given(name: &str, face: u16) -> Vec<RecordedDie> {
        vec![RecordedDie {
            name: name.into(),
            faces: vec![face],
        }]
    }

    /// Recording decides once: a hit of no points draws its graze die from the table (here
    /// rolled: 5), the face is written into the event, and replaying the event as written
    /// reaches the same state without a table.
    #[test]
    fn a_drawing_writes_the_faces_it_drew_into_the_event() {
        let events = log(table());
        let mut l = ToyLedger::fold(&events[..3]);
        let mut e = env(4, device(1), Toy::Roll(Hit(0, aldric(), vec![])));
        let mut five = Always(5);
        let mut t = Table::new("the hit", vec![], &mut five);
        assert_eq!(
            l.apply_drawing(&mut e, &mut t).ok(),
            Some(ToyApplied::Wounds(35))
        );
        assert_eq!(e.event, Toy::Roll(Hit(0, aldric(), given("graze", 5))));
        let mut replayed = events[..3].to_vec();
        replayed.push(e);
        assert_eq!(ToyLedger::fold(&replayed), l);
    }

    /// A face given at the table is the one drawn; a die given that the rules never asked
    /// for refuses the event, naming it, and the state is as it was (but for the void list),
    /// whether the event is a system's or the kernel's own.
    #[test]
    fn a_die_given_and_not_needed_refuses_the_recording() {
        let events = log(table());
        let mut l = ToyLedger::fold(&events[..3]);
        let mut e = env(4, device(1), Toy::Roll(Hit(0, aldric(), vec![])));
        let mut five = Always(5);
        let mut t = Table::new("the hit", given("graze", 2), &mut five);
        assert_eq!(
            l.apply_drawing(&mut e, &mut t).ok(),
            Some(ToyApplied::Wounds(32))
        );
        let before = l.clone();
        for event in [
            Toy::Roll(Hit(4, aldric(), vec![])),
            Toy::Joined("Brea".into()),
        ] {
            let mut e = env(5, device(1), event);
            let mut t = Table::new("the hit", given("graze", 2), &mut five);
            let err = l
                .apply_drawing(&mut e, &mut t)
                .expect_err("graze not needed");
            assert!(
                err.to_string()
                    .contains("the hit did not need the given 1 die(s): graze"),
                "{err}"
            );
            assert_eq!(l.characters, before.characters);
            assert_eq!(l.roll(), before.roll());
        }
    }
}
