//! The fold: a campaign's state is `events.fold(Ledger::default(), apply)`.
//!
//! [`Ledger::apply`] is deterministic and atomic: it either applies an event whole or leaves
//! the state untouched and returns why the event is void. The store hands events over in the
//! total order `(clock, device, seq)`; the fold trusts that order. A void event stays in the
//! log and is listed in [`Ledger::void`] with its reason: nothing is dropped silently.

pub use crate::applied::{Applied, CharacterState, FoldError};
use crate::event::{Envelope, Event, SheetKind, SystemId};
use crate::harnmaster::body::BodyTable;
use crate::harnmaster::healing::TreatmentTable;
use crate::harnmaster::state::HmCharacter;
use crate::harnmaster::system::{HarnMaster, HmError};
use crate::ids::{CampaignId, CharacterId, EventId, InjuryId};
use crate::ruling::{Ruling, Rulings};
use crate::system::{RulesSystem, Settings, Touched, World};
use crate::time::CampaignTime;
use std::collections::BTreeMap;

pub use crate::harnmaster::system::{Options, OPTION_NAMES};

/// The campaign, as `CampaignCreated` declared it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Campaign {
    /// Its id.
    pub id: CampaignId,
    /// Its name.
    pub name: String,
    /// Its rules system.
    pub system: SystemId,
    /// Seconds per combat round.
    pub round_seconds: i64,
}

/// The version of the fold's semantics. Snapshots made by another version are dropped.
/// (5: each system's campaign-wide settings are one field of the ledger's head; 6: healed
/// injuries no rule reads again are filed in an archive kept apart from the character; 7: a
/// Wrath & Glory event lacking a recorded die is void in the kernel's words, "the event
/// needs die ...", where it borrowed HârnMaster's "the strike needs die ...".)
pub const FOLD_VERSION: u32 = 7;

/// What became of events that did not simply apply: a [`Ledger`]'s `void`, `retracted` and
/// `amended`, kept apart from the rest of its head where they are stored.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Fates {
    /// The events that were void.
    pub void: Vec<VoidEvent>,
    /// The events struck by a retraction in force: the event, the ruling and its reason.
    pub retracted: Vec<(EventId, EventId, String)>,
    /// The events whose amended content was used: the event, the ruling and its reason.
    pub amended: Vec<(EventId, EventId, String)>,
}

/// An event the fold refused, with the reason.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct VoidEvent {
    /// The event.
    pub id: EventId,
    /// Its kind.
    pub kind: String,
    /// Why it is void.
    pub reason: String,
}

/// What became of one event in a derivation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fate {
    /// It applied.
    Applied(Applied),
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
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Ledger {
    /// The campaign, once created.
    pub campaign: Option<Campaign>,
    /// The campaign clock: the latest campaign time any event carried.
    pub now: CampaignTime,
    /// The characters held, in the order they joined (all of them, unless the ledger was
    /// assembled from a projection for some: [`Ledger::with_characters`]).
    pub characters: Vec<CharacterState>,
    by_id: BTreeMap<CharacterId, usize>,
    /// Every character of the campaign, held or not: id and name, in the order they joined.
    roll: Vec<(CharacterId, String)>,
    /// Each system's campaign-wide settings (tables, options, arms).
    pub settings: Settings,
    /// The roster in force (worked out from the whole log before the fold).
    pub roster: crate::roster::Roster,
    /// How many events were applied.
    pub applied: u64,
    /// The events that were void, in log order.
    pub void: Vec<VoidEvent>,
    /// The events struck from the record by a retraction in force: the event, the ruling and
    /// its reason.
    pub retracted: Vec<(EventId, EventId, String)>,
    /// The events whose amended content was used: the event, the ruling and its reason.
    pub amended: Vec<(EventId, EventId, String)>,
}

impl Ledger {
    /// Returns an empty ledger.
    pub fn new() -> Ledger {
        Ledger::default()
    }

    /// Folds a log (in the total order), with the rulings in force over it.
    pub fn fold(events: &[Envelope]) -> Ledger {
        Ledger::derive(events, |_, _, _| {})
    }

    /// Folds a log with the rulings in force over it, calling `observe` with every event,
    /// the envelope as applied (amended where a ruling amended it) and what became of it.
    /// Retracted events are skipped and listed in [`Ledger::retracted`].
    pub fn derive(events: &[Envelope], observe: impl FnMut(&Ledger, &Envelope, &Fate)) -> Ledger {
        Ledger::derive_with(events, &Rulings::from_log(events), observe)
    }

    /// [`Ledger::derive`] with the rulings in force given (a cut of a log judged against the
    /// whole log: [`Rulings::from_cut`]).
    pub fn derive_with(
        events: &[Envelope],
        rulings: &Rulings,
        mut observe: impl FnMut(&Ledger, &Envelope, &Fate),
    ) -> Ledger {
        let mut l = Ledger::new();
        l.roster = crate::roster::Roster::from_log(events);
        for env in events {
            l.step(env, rulings, &mut observe);
        }
        l
    }

    /// Applies one event of a log whose rulings in force are `rulings`.
    pub fn step(
        &mut self,
        env: &Envelope,
        rulings: &Rulings,
        observe: &mut impl FnMut(&Ledger, &Envelope, &Fate),
    ) {
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

    /// Finds a character by name, case-insensitively, among those held.
    pub fn character_named(&self, name: &str) -> Option<&CharacterState> {
        self.characters
            .iter()
            .find(|c| c.name().eq_ignore_ascii_case(name.trim()))
    }

    /// Every character of the campaign (held or not): id and name, in the order they joined.
    pub fn roll(&self) -> &[(CharacterId, String)] {
        &self.roll
    }

    /// The id of the character named `name` (case-insensitively), held or not.
    pub fn id_named(&self, name: &str) -> Option<CharacterId> {
        self.roll
            .iter()
            .find(|(_, n)| n.eq_ignore_ascii_case(name.trim()))
            .map(|(id, _)| *id)
    }

    /// Whether every character of the campaign is held.
    pub fn complete(&self) -> bool {
        self.characters.len() == self.roll.len()
    }

    /// The campaign's state without its characters (what a projection keeps apart from
    /// them): the campaign, clock, tables, options, roster, arms, and what became of events.
    pub fn head(&self) -> Ledger {
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
    pub fn with_characters(head: Ledger, characters: Vec<CharacterState>) -> Ledger {
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
    pub fn character(&self, id: CharacterId) -> Option<&CharacterState> {
        self.by_id.get(&id).map(|&i| &self.characters[i])
    }

    /// Returns the body table named `name`: the campaign's latest definition, else the
    /// built-in human table.
    pub fn table(&self, name: &str) -> Option<&BodyTable> {
        self.settings.hm.table(name)
    }

    /// Returns the TREATMENT ROLL tables in force: the campaign's, else the built-in ones.
    pub fn treatment_table(&self) -> &TreatmentTable {
        self.settings.hm.treatment_table()
    }

    /// HârnMaster's optional rules in force.
    pub fn options(&self) -> Options {
        self.settings.hm.options
    }

    fn hm(&self, id: CharacterId) -> Result<&HmCharacter, FoldError> {
        self.character(id)
            .and_then(HarnMaster::held)
            .ok_or(FoldError::UnknownCharacter(id))
    }

    fn world(&self, env: &Envelope) -> World {
        World {
            event: env.id,
            order: env.order_key(),
            now: env.at,
            clock: self.now,
            round_seconds: self.campaign.as_ref().map_or(10, |c| c.round_seconds),
        }
    }

    /// Applies one event. On error the state is unchanged and the event is listed as void.
    pub fn apply(&mut self, env: &Envelope) -> Result<Applied, FoldError> {
        match self.try_apply(env) {
            Ok(a) => {
                self.applied += 1;
                if env.at > self.now {
                    self.now = env.at;
                }
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
    pub fn check(&self, env: &Envelope) -> Result<Applied, FoldError> {
        self.clone().try_apply(env)
    }

    fn try_apply(&mut self, env: &Envelope) -> Result<Applied, FoldError> {
        self.roster.allows(env).map_err(FoldError::Setting)?;
        if let Event::CampaignCreated {
            name,
            system,
            round_seconds,
        } = &env.event
        {
            if self.campaign.is_some() {
                return Err(FoldError::CampaignExists);
            }
            self.campaign = Some(Campaign {
                id: env.campaign,
                name: name.clone(),
                system: *system,
                round_seconds: (*round_seconds).max(1),
            });
            return Ok(Applied::CampaignCreated);
        }
        let campaign = self.campaign.as_ref().ok_or(FoldError::NoCampaign)?;
        if campaign.id != env.campaign {
            return Err(FoldError::ForeignCampaign(env.campaign));
        }
        let world = self.world(env);
        if let Some(sys) = env.event.system() {
            if sys != campaign.system {
                return Err(FoldError::WrongSystem {
                    campaign: campaign.system.name(),
                    event: sys.name(),
                });
            }
        }
        match &env.event {
            Event::CampaignCreated { .. } => Err(FoldError::CampaignExists),
            Event::CharacterAdded { name, sheet } => {
                let name = name.trim();
                if name.is_empty() || name.len() > 64 || name.chars().any(char::is_control) {
                    return Err(FoldError::BadName(name.to_string()));
                }
                if self.id_named(name).is_some() {
                    return Err(FoldError::NameTaken(name.to_string()));
                }
                let id = CharacterId(env.id.0);
                let state = match sheet {
                    SheetKind::HarnMaster(s) => {
                        if self.table(&s.body).is_none() {
                            return Err(HmError::UnknownTable(s.body.clone()).into());
                        }
                        CharacterState::HarnMaster(HmCharacter::new(
                            id,
                            name.to_string(),
                            s.clone(),
                        ))
                    }
                    SheetKind::SavageWorlds(s) => CharacterState::SavageWorlds(
                        crate::savage::SwCharacter::new(id, name.to_string(), s.clone()),
                    ),
                    SheetKind::WrathGlory(s) => CharacterState::WrathGlory(
                        crate::wrath::WgCharacter::new(id, name.to_string(), s.clone()),
                    ),
                    SheetKind::WitchIron(s) => CharacterState::WitchIron(
                        crate::witch::WiCharacter::new(id, name.to_string(), s.clone()),
                    ),
                };
                self.by_id.insert(id, self.characters.len());
                self.characters.push(state);
                self.roll.push((id, name.to_string()));
                Ok(Applied::CharacterAdded(id))
            }
            Event::ClockAdvanced { to } => {
                let from = self.now;
                if *to < from {
                    return Err(FoldError::ClockBackwards { now: from, to: *to });
                }
                self.now = *to;
                Ok(Applied::ClockAdvanced { from, to: *to })
            }
            Event::HarnMaster(e) => self.apply_system::<HarnMaster>(e, &world),
            Event::Ruling(r) => self.apply_ruling(r, &world),
            Event::SavageWorlds(e) => self.apply_system::<crate::system::SavageWorlds>(e, &world),
            Event::WitchIron(e) => self.apply_system::<crate::system::WitchIron>(e, &world),
            Event::Roster(change) => Ok(Applied::Setting(match change {
                crate::roster::RosterChange::Device {
                    device,
                    role,
                    characters,
                    ..
                } => match role {
                    crate::roster::Role::Gm => {
                        format!("device {} joins the roster as a GM", device.short())
                    }
                    crate::roster::Role::Player => {
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
                },
                crate::roster::RosterChange::Revoke { device } => {
                    format!("device {} is revoked", device.short())
                }
            })),
            Event::WrathGlory(e) => self.apply_system::<crate::system::WrathGlory>(e, &world),
        }
    }

    /// Resolves a melee exchange against the current state without applying it, reading
    /// the strike's dice from `dice`.
    pub fn check_melee(
        &self,
        x: &crate::harnmaster::exchange::MeleeExchange,
        id: InjuryId,
        dice: &mut dyn crate::dice::DiceSource,
    ) -> Result<crate::harnmaster::exchange::ExchangeOutcome, FoldError> {
        let (attacker, defender) = (self.hm(x.attacker)?, self.hm(x.defender)?);
        Ok(self
            .settings
            .hm
            .check_melee(attacker, defender, x, id, self.now, dice)?)
    }

    /// Resolves a missile attack against the current state without applying it.
    pub fn check_shot(
        &self,
        x: &crate::harnmaster::shot::Shot,
        id: InjuryId,
        dice: &mut dyn crate::dice::DiceSource,
    ) -> Result<crate::harnmaster::shot::ShotOutcome, FoldError> {
        let shooter = self.hm(x.shooter)?;
        let target = x.target.map(|c| self.hm(c)).transpose()?;
        let struck = x.struck.map(|c| self.hm(c)).transpose()?;
        Ok(self
            .settings
            .hm
            .check_shot(shooter, target, struck, x, id, self.now, dice)?)
    }

    /// Applies an event of a rules system the one way every system's events apply: the
    /// system decides against the characters the event touches and its settings (reading
    /// only), then writes the outcome. A refusal writes nothing.
    fn apply_system<S: RulesSystem>(
        &mut self,
        e: &S::Event,
        world: &World,
    ) -> Result<Applied, FoldError> {
        // Every event of a replay comes through here: it allocates nothing for the one or
        // two characters an event touches (a Vec for three, a shot's, is rare).
        let ids = S::touches(e);
        let ids = ids.as_slice();
        let mut at = [0usize; Touched::MAX];
        for (k, id) in ids.iter().enumerate() {
            let i = *self.by_id.get(id).ok_or(FoldError::UnknownCharacter(*id))?;
            if at[..k].contains(&i) || S::held(&self.characters[i]).is_none() {
                return Err(FoldError::UnknownCharacter(*id));
            }
            at[k] = i;
        }
        let at = &at[..ids.len()];
        let held =
            |k: usize| S::held(&self.characters[at[k]]).ok_or(FoldError::UnknownCharacter(ids[k]));
        let settings = S::settings(&self.settings);
        let outcome = match at.len() {
            0 => S::decide(settings, &[], e, world),
            1 => S::decide(settings, &[held(0)?], e, world),
            2 => S::decide(settings, &[held(0)?, held(1)?], e, world),
            _ => S::decide(settings, &[held(0)?, held(1)?, held(2)?], e, world),
        }
        .map_err(S::refusal)?;
        let settings = S::settings_mut(&mut self.settings);
        Ok(match at {
            [] => S::apply(settings, &mut [], outcome, world),
            [i] => match S::held_mut(&mut self.characters[*i]) {
                Some(c) => S::apply(settings, &mut [c], outcome, world),
                None => return Err(FoldError::UnknownCharacter(ids[0])),
            },
            _ => {
                let mut held: Vec<&mut S::Character> = pick_mut(&mut self.characters, at)
                    .into_iter()
                    .filter_map(S::held_mut)
                    .collect();
                S::apply(settings, &mut held, outcome, world)
            }
        })
    }

    fn apply_ruling(&mut self, r: &Ruling, world: &World) -> Result<Applied, FoldError> {
        let Ruling::Override {
            character,
            decree,
            reason,
        } = r
        else {
            return Ok(Applied::Ruling(r.reason().to_string()));
        };
        let i = *self
            .by_id
            .get(character)
            .ok_or(FoldError::UnknownCharacter(*character))?;
        let all = &self.settings;
        let what = match &mut self.characters[i] {
            CharacterState::HarnMaster(c) => {
                HarnMaster::decree(HarnMaster::settings(all), c, decree, world)
            }
            CharacterState::SavageWorlds(c) => {
                use crate::system::SavageWorlds as S;
                S::decree(S::settings(all), c, decree, world)
            }
            CharacterState::WrathGlory(c) => {
                use crate::system::WrathGlory as S;
                S::decree(S::settings(all), c, decree, world)
            }
            CharacterState::WitchIron(c) => {
                use crate::system::WitchIron as S;
                S::decree(S::settings(all), c, decree, world)
            }
        }?;
        Ok(Applied::Ruling(format!("override: {what} ({reason})")))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A ledger taken apart into its head and characters, and put together again, is the
    /// same; one holding some characters still knows the whole roll.
    #[test]
    fn a_head_and_its_characters_make_the_ledger() {
        let log = crate::synthetic::campaign(3_000);
        let full = Ledger::fold(&log);
        assert!(full.complete());
        let again = Ledger::with_characters(full.head(), full.characters.clone());
        assert_eq!(again, full);
        let some: Vec<CharacterState> = full.characters.iter().rev().take(3).cloned().collect();
        let part = Ledger::with_characters(full.head(), some);
        assert!(!part.complete());
        assert_eq!(part.characters.len(), 3);
        assert_eq!(part.roll(), full.roll());
        let last = &full.characters[full.characters.len() - 1];
        assert_eq!(part.character(last.id()), Some(last));
        assert_eq!(
            part.id_named(full.characters[0].name()),
            Some(full.characters[0].id())
        );
        assert!(part.character(full.characters[0].id()).is_none());
    }
}
