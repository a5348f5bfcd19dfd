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
    let roster = Roster::from_log(&log.roster_events()?);
    // The campaign's own events hold every ruling but the overrides (which are about a
    // character, and come with its events).
    let campaign = log.events_about(None)?;
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
                slot.insert(log.events_about(Some(owner))?);
            }
            if let Some(t) = fetched[&owner].iter().find(|e| e.id == target) {
                let key = t.order_key();
                if bound.get(&c).is_some_and(|b| b.is_none_or(|b| key <= b)) {
                    widen(&mut bound, &mut work, owner, key);
                }
            }
        }
        if let std::collections::hash_map::Entry::Vacant(slot) = fetched.entry(c) {
            slot.insert(log.events_about(Some(c))?);
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
    Ok(About {
        events,
        rulings,
        roster,
    })
}

/// Folds what an audit of `who` reads, handing `each` the state before each event, the event
/// and the rulings in force, as [`crate::replay`] does for the whole log; `each` steps the
/// state itself.
pub fn replay_about(
    log: &impl ReadLog,
    who: CharacterId,
    mut each: impl FnMut(&mut Ledger, &Envelope, &Rulings),
) -> Result<Ledger, LedgerError> {
    let About {
        events,
        rulings,
        roster,
    } = about(log, who)?;
    let mut ledger = Ledger::new();
    ledger.roster = roster;
    for env in &events {
        each(&mut ledger, env, &rulings);
    }
    Ok(ledger)
}
