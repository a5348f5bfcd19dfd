//! The audit of rulings: what each roll's outcome was when it was recorded against what it
//! is after every ruling in force.

use leechbook_core::fold::{Applied, Fate, Ledger};
use leechbook_core::ids::EventId;
use leechbook_core::ruling::Rulings;
use leechbook_core::test_roll::TestResult;
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
