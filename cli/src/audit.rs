//! Auditing and time travel over a log: what each roll's outcome was when it was recorded
//! against what it is after every ruling, and the log as of a moment.
//!
//! A moment is an event id (the log up to and including it, rulings included only as far as
//! they had been made: the record as it stood then), a wall time in RFC 3339 (the same, by the
//! clock of the recording devices), or a campaign time `day N [HH:MM]` (every event that
//! happened by then in the story, judged with every retraction, reinstatement and amendment
//! made since: the story as we now know it). An override is not a judgement of an event but
//! a decree about the story from its own moment on, so it counts from its campaign time like
//! any event. A ruling on an event beyond a moment stands as it does over the whole log and
//! acts on nothing within the moment.

use crate::commands::ruling::find_event;
use crate::error::CommandError;
use leechbook_core::fold::{Applied, Fate, Ledger};
use leechbook_core::ids::EventId;
use leechbook_core::ruling::Rulings;
use leechbook_core::test_roll::TestResult;
use leechbook_core::time::CampaignTime;
use leechbook_core::{Envelope, Event};
use std::collections::HashMap;

/// Returns the d100 tests an applied event made.
pub fn tests_of(applied: &Applied) -> Vec<TestResult> {
    match applied {
        Applied::Strike { outcome, .. } => outcome
            .amputation
            .iter()
            .map(|a| a.test)
            .chain(outcome.shock.iter().map(|s| s.test))
            .collect(),
        Applied::ShockRoll { outcome, .. } => vec![outcome.test],
        Applied::GmRoll { outcome, .. } => outcome.test.into_iter().collect(),
        Applied::Heal { outcome, .. } => outcome.test.into_iter().collect(),
        _ => Vec::new(),
    }
}

/// What a ruling changed about one event, in words, keyed by the event's id: rolls whose
/// target moved ("rolled 48 against EML52, now EML44: S becomes F"), amended faces, and
/// events that applied when recorded but are void now.
pub fn flags(events: &[Envelope]) -> HashMap<EventId, Vec<String>> {
    // The outcome of each event as it was recorded: the log up to it, with the rulings made
    // by then.
    let mut recorded: HashMap<EventId, Fate> = HashMap::new();
    let mut ledger = Ledger::new();
    let mut rulings = Rulings::default();
    for (i, env) in events.iter().enumerate() {
        if let Event::Ruling(r) = &env.event {
            if r.target().is_some() {
                rulings = Rulings::from_log(&events[..=i]);
                ledger = Ledger::new();
                for e in &events[..=i] {
                    ledger.step(e, &rulings, &mut |_, _, _| {});
                }
                continue;
            }
        }
        ledger.step(env, &rulings, &mut |_, e, fate| {
            recorded.insert(e.id, fate.clone());
        });
    }
    if rulings.retracted.is_empty()
        && rulings.amended.is_empty()
        && !events.iter().any(|e| matches!(e.event, Event::Ruling(_)))
    {
        return HashMap::new();
    }
    let mut out: HashMap<EventId, Vec<String>> = HashMap::new();
    Ledger::derive(events, |_, env, fate| {
        let Some(then) = recorded.get(&env.id) else {
            return;
        };
        let mut notes = Vec::new();
        match (then, fate) {
            (Fate::Applied(a), Fate::Applied(b)) => {
                for (x, y) in tests_of(a).iter().zip(tests_of(b).iter()) {
                    if x.roll != y.roll {
                        notes.push(format!(
                            "amended: rolled {} (was {}) against EML{}: {} becomes {}",
                            y.roll, x.roll, y.eml, x.level, y.level
                        ));
                    } else if x.eml != y.eml || x.level != y.level {
                        notes.push(format!(
                            "rolled {} against EML{}, now EML{}: {} {} {}",
                            x.roll,
                            x.eml,
                            y.eml,
                            x.level,
                            if x.level == y.level {
                                "stays"
                            } else {
                                "becomes"
                            },
                            y.level
                        ));
                    }
                }
            }
            (Fate::Applied(_), Fate::Void(why)) => {
                notes.push(format!("void since a ruling: {why}"))
            }
            (Fate::Void(_), Fate::Applied(_)) => notes.push("applies since a ruling".into()),
            _ => {}
        }
        if !notes.is_empty() {
            out.insert(env.id, notes);
        }
    });
    out
}

/// A moment of the log.
pub struct Moment {
    /// The events that make up the record at that moment.
    pub events: Vec<Envelope>,
    /// The rulings in force over those events (judged against the whole log).
    pub rulings: Rulings,
    /// The campaign clock to show the state at, when the moment is a campaign time.
    pub now: Option<CampaignTime>,
    /// The moment, in words.
    pub label: String,
}

/// Cuts the log at a moment: an event id, a wall time (RFC 3339) or a campaign time.
pub fn moment(events: &[Envelope], spec: &str) -> Result<Moment, CommandError> {
    let spec = spec.trim();
    if spec.to_ascii_lowercase().starts_with("day") {
        let t = CampaignTime::parse(spec).map_err(|e| CommandError::user(e.to_string()))?;
        let cut: Vec<Envelope> = events
            .iter()
            .filter(|e| e.at <= t || matches!(&e.event, Event::Ruling(r) if r.target().is_some()))
            .cloned()
            .collect();
        return Ok(Moment {
            rulings: Rulings::from_cut(&cut, &Rulings::from_log(events)),
            events: cut,
            now: Some(t),
            label: format!("campaign time {t}"),
        });
    }
    if let Ok(w) = chrono::DateTime::parse_from_rfc3339(spec) {
        let w = w.with_timezone(&chrono::Utc);
        let cut: Vec<Envelope> = events.iter().filter(|e| e.wall <= w).cloned().collect();
        return Ok(Moment {
            rulings: Rulings::from_cut(&cut, &Rulings::from_log(events)),
            events: cut,
            now: None,
            label: format!("wall time {}", w.to_rfc3339()),
        });
    }
    let target = find_event(events, spec).map_err(|_| {
        CommandError::user(format!(
            "'{spec}' is not a moment: give an event id, a campaign time ('day 3 08:00') or a wall time (2026-11-22T10:00:00Z)"
        ))
    })?;
    let end = events
        .iter()
        .position(|e| e.id == target.id)
        .unwrap_or(events.len().saturating_sub(1));
    let cut = events[..=end].to_vec();
    Ok(Moment {
        rulings: Rulings::from_log(&cut),
        events: cut,
        now: None,
        label: format!("event {}", target.id.short()),
    })
}

/// Whether a moment is given as an event id (not a campaign or wall time).
pub fn is_event_spec(spec: &str) -> bool {
    let s = spec.trim();
    !s.to_ascii_lowercase().starts_with("day") && chrono::DateTime::parse_from_rfc3339(s).is_err()
}

/// The order key of the event `spec` names (its id, or its last six or more hex digits),
/// found through the store's index.
pub fn event_key(
    log: &impl leechbook_store::ReadLog,
    spec: &str,
) -> Result<leechbook_store::OrderKey, CommandError> {
    let t = spec.trim().to_ascii_lowercase().replace('-', "");
    if t.len() < 6 || !t.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(CommandError::user(format!(
            "'{spec}' is not a moment: give an event id, a campaign time ('day 3 08:00') or a wall time (2026-11-22T10:00:00Z)"
        )));
    }
    match log.events_with_id_suffix(&t)?.as_slice() {
        [(_, key)] => Ok(*key),
        [] => Err(CommandError::user(format!(
            "the log holds no event '{}'",
            spec.trim()
        ))),
        _ => Err(CommandError::user(format!(
            "'{}' matches several events: give more of the id",
            spec.trim()
        ))),
    }
}

/// Folds the log at a moment.
pub fn ledger_at(m: &Moment) -> Ledger {
    let mut l = Ledger::derive_with(&m.events, &m.rulings, |_, _, _| {});
    if let Some(t) = m.now {
        // Rulings made later in the story still count, but the clock is the moment's.
        l.now = t;
    }
    l
}
