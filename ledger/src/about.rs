//! An audit of one character reads the events about it, not the whole log (issue 27).
//!
//! A character's fold depends only on the events that touch it, the campaign's own events
//! (its creation, its characters joining, the clock, its settings, the roster) and the
//! rulings in force: no rule reads another character's state unless the event touches that
//! character too, and none reads the ledger's clock (`kernel::system::World`). An event
//! that touches a second character (an exchange, a shot, a Quarrel) reads that character
//! as it stood just before, so that character's events up to it are needed too, and so on:
//! [`about`] gathers that closure through the store's index of what each event is about
//! (`ReadLog::events_about`), each other character bounded by the last event that reaches
//! it from the story told. An event a ruling amends counts as about the characters its
//! amended form touches as well.
//!
//! The fold of what [`about`] gathers gives the character the very state the whole log's
//! fold gives it, at every step (`tests/tests/audit_about.rs` compares them after random
//! commands, rulings and syncs); the other characters it holds are partial, and its clock
//! and lists of void events are the gathered events' only.

use crate::LedgerError;
use leechbook_core::fold::Ledger;
use leechbook_core::ids::{CharacterId, EventId};
use leechbook_core::roster::Roster;
use leechbook_core::ruling::{Ruling, Rulings};
use leechbook_core::{Envelope, Event};
use leechbook_store::{OrderKey, ReadLog};
use std::collections::{HashMap, HashSet};

/// What an audit of one character folds: the events about it and those its story reads, in
/// the total order, with the rulings in force over the whole log.
pub struct About {
    /// The events, in the fold's total order.
    pub events: Vec<Envelope>,
    /// The rulings in force on the events gathered (and on such rulings), judged under the
    /// whole log's roster.
    pub rulings: Rulings,
    /// The whole log's roster.
    pub roster: Roster,
}

/// Gathers what an audit of `who` folds (see the module's docs). Reads the campaign's own
/// events, the roster's, and each needed character's events through the store's index;
/// the rulings kept are those on an event gathered (and on such a ruling), so a story's
/// fold and its flags weigh the few rulings about it, not the campaign's thousands.
pub fn about(log: &impl ReadLog, who: CharacterId) -> Result<About, LedgerError> {
    Ok(gather(log, who, None, None)?.0)
}

/// What [`about`] gathers after the place `after` of the log (a checkpoint's: the closure
/// then reaches the characters the events after it need) and up to `upto`, each when
/// given, with the characters gathered.
fn gather(
    log: &impl ReadLog,
    who: CharacterId,
    after: Option<OrderKey>,
    upto: Option<OrderKey>,
) -> Result<(About, Vec<CharacterId>), LedgerError> {
    let read = |c: Option<CharacterId>| log.events_about_within(c, after, upto);
    let roster = Roster::from_log(&log.roster_events()?);
    // The campaign's own events hold every ruling but the overrides (which are about a
    // character, and come with its events).
    let campaign = read(None)?;
    // What an amendment makes of its target, whether or not it stands (the closure may
    // gather more than it needs, never less): the target's id to the replacement, and each
    // character a replacement touches to the targets it reaches so.
    // Every amendment of a target counts: which one stands is the rulings' judgement (a
    // later one may be void or retracted, and an earlier one then stands).
    let mut amended: HashMap<EventId, Vec<&Event>> = HashMap::new();
    let mut reached_by_amend: HashMap<CharacterId, Vec<(EventId, CharacterId)>> = HashMap::new();
    for env in &campaign {
        if let Event::Ruling(Ruling::Amend {
            target,
            replacement,
            ..
        }) = &env.event
        {
            amended.entry(*target).or_default().push(replacement);
            // An amendment keeps its target's character (else it is void): that character's
            // events hold the target.
            if let Some(owner) = replacement.character() {
                for c in replacement.characters() {
                    reached_by_amend
                        .entry(c)
                        .or_default()
                        .push((*target, owner));
                }
            }
        }
    }
    let touched = |env: &Envelope| {
        let mut all = env.event.characters();
        for r in amended.get(&env.id).into_iter().flatten() {
            all.extend(r.characters());
        }
        all
    };
    // The closure: each character needed, up to the last event that reaches it (None: all).
    let mut bound: HashMap<CharacterId, Option<OrderKey>> = HashMap::from([(who, None)]);
    let mut fetched: HashMap<CharacterId, Vec<Envelope>> = HashMap::new();
    let mut work = vec![who];
    let widen = |bound: &mut HashMap<CharacterId, Option<OrderKey>>,
                 work: &mut Vec<CharacterId>,
                 d: CharacterId,
                 key: OrderKey| {
        let wider = match bound.get(&d) {
            None => true,
            Some(None) => false,
            Some(Some(k)) => key > *k,
        };
        if wider {
            bound.insert(d, Some(key));
            work.push(d);
        }
    };
    while let Some(c) = work.pop() {
        // A target whose amendment reaches `c`, held by another character's events: that
        // character is needed up to it.
        for &(target, owner) in reached_by_amend.get(&c).into_iter().flatten() {
            if owner == c {
                continue;
            }
            if let std::collections::hash_map::Entry::Vacant(slot) = fetched.entry(owner) {
                slot.insert(read(Some(owner))?);
            }
            if let Some(t) = fetched[&owner].iter().find(|e| e.id == target) {
                let key = t.order_key();
                if bound.get(&c).is_some_and(|b| b.is_none_or(|b| key <= b)) {
                    widen(&mut bound, &mut work, owner, key);
                }
            }
        }
        if let std::collections::hash_map::Entry::Vacant(slot) = fetched.entry(c) {
            slot.insert(read(Some(c))?);
        }
        let upto = bound[&c];
        for env in &fetched[&c] {
            if upto.is_some_and(|u| env.order_key() > u) {
                break;
            }
            for d in touched(env).into_iter().filter(|d| *d != c) {
                widen(&mut bound, &mut work, d, env.order_key());
            }
        }
    }
    let mut seen: HashSet<EventId> = HashSet::new();
    let mut events: Vec<Envelope> = Vec::new();
    for (c, list) in fetched {
        let Some(&upto) = bound.get(&c) else {
            continue;
        };
        for env in list {
            if upto.is_some_and(|u| env.order_key() > u) {
                break;
            }
            if seen.insert(env.id) {
                events.push(env);
            }
        }
    }
    // The campaign's own events, and the rulings on what is gathered (a ruling follows its
    // target in the total order, so one pass in order finds rulings on rulings too).
    for env in campaign {
        match &env.event {
            Event::Ruling(r) => {
                if r.target().is_none_or(|t| seen.contains(&t)) && seen.insert(env.id) {
                    events.push(env);
                }
            }
            _ => {
                if seen.insert(env.id) {
                    events.push(env);
                }
            }
        }
    }
    events.sort_by_key(|e| e.order_key());
    // The rulings kept and their targets: all that judging them reads.
    let targets: HashSet<EventId> = events
        .iter()
        .filter_map(|e| match &e.event {
            Event::Ruling(r) => r.target(),
            _ => None,
        })
        .collect();
    let ruled: Vec<Envelope> = events
        .iter()
        .filter(|e| matches!(e.event, Event::Ruling(_)) || targets.contains(&e.id))
        .cloned()
        .collect();
    let rulings = Rulings::from_log_under(&ruled, &roster);
    let characters = bound.into_keys().collect();
    Ok((
        About {
            events,
            rulings,
            roster,
        },
        characters,
    ))
}

/// Folds what an audit of `who` reads, handing `each` the state before each event, the event
/// and the rulings in force, as [`crate::replay`] does for the whole log; `each` steps the
/// state itself.
pub fn replay_about(
    log: &impl ReadLog,
    who: CharacterId,
    each: impl FnMut(&mut Ledger, &Envelope, &Rulings),
) -> Result<Ledger, LedgerError> {
    let (about, _) = gather(log, who, None, None)?;
    Ok(fold(about.from_start(), &about, each))
}

impl About {
    /// A fold from the campaign's start under the whole log's roster, as a story is judged
    /// (a device's event the roster refuses is void in it as in the record).
    pub fn from_start(&self) -> Ledger {
        let mut ledger = Ledger::new();
        ledger.roster = self.roster.clone();
        ledger
    }
}

/// Steps `ledger` through what `about` gathered with `each`.
fn fold(
    mut ledger: Ledger,
    about: &About,
    mut each: impl FnMut(&mut Ledger, &Envelope, &Rulings),
) -> Ledger {
    for env in &about.events {
        each(&mut ledger, env, &about.rulings);
    }
    ledger
}

/// [`replay_about`] for the story of what the event `first` made (a wound: its id is the
/// event's that inflicted it), which begins at that event and, once the archive filed it
/// for good (healed, and no decree of the GM's reopened it), ends where it was filed: no
/// later event can touch what the character no longer holds. Folded from the newest
/// checkpoint before `first`, holding the characters the events after it need, so that the
/// audit reads that stretch of the log, not the character's whole story; `each` is handed
/// the events of the stretch only. From the start when no checkpoint of this fold version
/// lies before `first`, or it lacks a character needed.
///
/// The checkpoint's state and the archive are the record's under the rulings in force: the
/// store drops every checkpoint a ruling reaches into and files the archive anew with the
/// projection, so no ruling after the checkpoint rules on what it folds.
pub fn replay_about_from(
    log: &impl ReadLog,
    who: CharacterId,
    first: EventId,
    each: impl FnMut(&mut Ledger, &Envelope, &Rulings),
) -> Result<Ledger, LedgerError> {
    let (ledger, about) = stretch(log, who, first)?;
    Ok(fold(ledger, &about, each))
}

/// What [`replay_about_from`] folds, unfolded: the state it starts from (the newest
/// checkpoint's before `first`, or the campaign's start, judged under the whole log's
/// roster) and the stretch of the story of `who` it folds on with, for an audit that folds
/// it more than once (`why`'s flags: [`crate::audit::flags_from`]).
pub fn stretch(
    log: &impl ReadLog,
    who: CharacterId,
    first: EventId,
) -> Result<(Ledger, About), LedgerError> {
    // The archive is read only while it is current (it is written with the projection);
    // else the story runs to the log's end, which tells the same.
    let upto = if crate::projection::current(log)? {
        filed_for_good(log, who, first)?
    } else {
        None
    };
    let (ledger, about, characters) = stretch_upto(log, who, first, upto)?;
    // A story cut where the wound was filed is judged by the rulings up to there. A later
    // ruling on one of its events (a roll of the wound amended or struck after it healed;
    // the archive, filed under the rulings in force, may still file it there) shows in the
    // record's fates, kept with the projection; a later amendment that makes another
    // event touch a character the story reads (an exchange's defender amended), in the
    // amendments after the cut. Where either is so, the story runs to the log's end.
    if let Some(cut) = upto {
        let reaches = log.amendments_after(cut)?.iter().any(|a| match &a.event {
            Event::Ruling(Ruling::Amend { replacement, .. }) => replacement
                .characters()
                .iter()
                .any(|c| characters.contains(c)),
            _ => false,
        });
        if reaches || !judged_alike(log, &about)? {
            let (ledger, about, _) = stretch_upto(log, who, first, None)?;
            return Ok((ledger, about));
        }
    }
    Ok((ledger, about))
}

/// [`stretch`] cut at `upto` (the log's end when None), with the characters it reads.
fn stretch_upto(
    log: &impl ReadLog,
    who: CharacterId,
    first: EventId,
    upto: Option<OrderKey>,
) -> Result<(Ledger, About, Vec<CharacterId>), LedgerError> {
    Ok(match from_checkpoint(log, who, first, upto)? {
        Some(from) => from,
        None => {
            let (about, characters) = gather(log, who, None, upto)?;
            (about.from_start(), about, characters)
        }
    })
}

/// Whether the rulings `about` holds judge each of its events as the record's fates (the
/// rulings of the whole log, kept with the projection) do: struck by the same ruling or
/// not, and if not struck, amended by the same ruling or not (the fates keep no amendment
/// of a struck event: the fold never reads it).
fn judged_alike(log: &impl ReadLog, about: &About) -> Result<bool, LedgerError> {
    let Some(fates) = crate::projection::fates(log)? else {
        return Ok(false);
    };
    let retracted: HashMap<EventId, EventId> =
        fates.retracted.iter().map(|(e, r, _)| (*e, *r)).collect();
    let amended: HashMap<EventId, EventId> =
        fates.amended.iter().map(|(e, r, _)| (*e, *r)).collect();
    Ok(about.events.iter().all(|env| {
        let struck = about.rulings.retracted.get(&env.id).map(|(r, _)| r);
        struck == retracted.get(&env.id)
            && (struck.is_some()
                || about.rulings.amended.get(&env.id).map(|(r, _, _)| r) == amended.get(&env.id))
    }))
}

/// Where the archive filed the record `first` names of `who` for good: the place of the
/// event after which its latest record was filed, if no decree reopened that one.
fn filed_for_good(
    log: &impl ReadLog,
    who: CharacterId,
    first: EventId,
) -> Result<Option<OrderKey>, LedgerError> {
    Ok(log
        .archived(Some(&[who]), None)?
        .into_iter()
        .filter(|r| r.key == first.0)
        .max_by_key(|r| r.since)
        .filter(|r| r.reopened.is_none())
        .map(|r| r.since))
}

/// The newest checkpoint before the event `first` holding what the story of `who` from it
/// reads, what the story reads after it (up to `upto`), and the characters it reads.
fn from_checkpoint(
    log: &impl ReadLog,
    who: CharacterId,
    first: EventId,
    upto: Option<OrderKey>,
) -> Result<Option<(Ledger, About, Vec<CharacterId>)>, LedgerError> {
    let Some(&(_, key)) = log
        .events_with_id_suffix(&first.0.simple().to_string())?
        .iter()
        .find(|(id, _)| *id == first)
    else {
        return Ok(None);
    };
    let Some(head) = log
        .snapshot_heads()?
        .into_iter()
        .find(|h| h.fold_version == leechbook_core::fold::FOLD_VERSION && h.last < key)
    else {
        return Ok(None);
    };
    // The roster in force is the whole log's, over every event before it too (a device
    // rostered for other characters later: its earlier events are judged so): a checkpoint
    // with a roster change after it was folded otherwise, and is passed over, as every
    // fold from a checkpoint passes it over.
    if log
        .roster_events()?
        .iter()
        .any(|e| e.order_key() > head.last)
    {
        return Ok(None);
    }
    let (about, characters) = gather(log, who, Some(head.last), upto)?;
    let Some(mut ledger) =
        crate::checkpoint::checkpoint_state(log, head.position, Some(&characters))?
    else {
        return Ok(None);
    };
    // Judged, as the whole story is, under the whole log's roster.
    ledger.roster = about.roster.clone();
    Ok(Some((ledger, about, characters)))
}
