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
use leechbook_core::ruling::Rulings;
use leechbook_core::{Envelope, Event};
use leechbook_store::{OrderKey, ReadLog};
use std::collections::{HashMap, HashSet};

/// What an audit of one character folds: the events about it and those its story reads, in
/// the total order, with the rulings in force over the whole log.
pub struct About {
    /// The events, in the fold's total order.
    pub events: Vec<Envelope>,
    /// The rulings in force, judged under the whole log's roster.
    pub rulings: Rulings,
    /// The whole log's roster.
    pub roster: Roster,
}

/// Gathers what an audit of `who` folds (see the module's docs).
pub fn about(log: &impl ReadLog, who: CharacterId) -> Result<About, LedgerError> {
    let roster = Roster::from_log(&log.roster_events()?);
    let ruled = log.rulings_and_targets()?;
    let rulings = Rulings::from_log_under(&ruled, &roster);
    // A ruling's target, by every character its recorded or amended form touches.
    let mut targets: HashMap<CharacterId, Vec<&Envelope>> = HashMap::new();
    for env in &ruled {
        if matches!(env.event, Event::Ruling(_)) {
            continue;
        }
        let mut touched = env.event.characters();
        if let Some((_, amended, _)) = rulings.amended.get(&env.id) {
            touched.extend(amended.characters());
        }
        touched.sort_unstable();
        touched.dedup();
        for c in touched {
            targets.entry(c).or_default().push(env);
        }
    }
    // The closure: each character needed, up to the last event that reaches it (None: all).
    let mut bound: HashMap<CharacterId, Option<OrderKey>> = HashMap::from([(who, None)]);
    let mut fetched: HashMap<CharacterId, Vec<Envelope>> = HashMap::new();
    let mut work = vec![who];
    while let Some(c) = work.pop() {
        if let std::collections::hash_map::Entry::Vacant(slot) = fetched.entry(c) {
            let mut mine = log.events_about(Some(c))?;
            if let Some(extra) = targets.get(&c) {
                mine.extend(extra.iter().map(|e| (*e).clone()));
                mine.sort_by_key(|e| e.order_key());
                mine.dedup_by_key(|e| e.id);
            }
            slot.insert(mine);
        }
        let upto = bound[&c];
        for env in &fetched[&c] {
            if upto.is_some_and(|u| env.order_key() > u) {
                break;
            }
            let mut others = env.event.characters();
            if let Some((_, amended, _)) = rulings.amended.get(&env.id) {
                others.extend(amended.characters());
            }
            for d in others.into_iter().filter(|d| *d != c) {
                let key = Some(env.order_key());
                let wider = match bound.get(&d) {
                    None => true,
                    Some(None) => false,
                    Some(Some(k)) => key > Some(*k),
                };
                if wider {
                    bound.insert(d, key);
                    work.push(d);
                }
            }
        }
    }
    let mut seen: HashSet<EventId> = HashSet::new();
    let mut events: Vec<Envelope> = Vec::new();
    for (c, list) in fetched {
        let upto = bound[&c];
        for env in list {
            if upto.is_some_and(|u| env.order_key() > u) {
                break;
            }
            if seen.insert(env.id) {
                events.push(env);
            }
        }
    }
    for env in log.events_about(None)?.into_iter().chain(ruled) {
        if seen.insert(env.id) {
            events.push(env);
        }
    }
    events.sort_by_key(|e| e.order_key());
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
