//! The audit of rulings: what each roll's outcome was when it was recorded against what it
//! is after every ruling in force.

use leechbook_core::fold::{CharacterState, Fate, Ledger};
use leechbook_core::ids::EventId;
use leechbook_core::roster::Roster;
use leechbook_core::ruling::{Ruling, Rulings};
use leechbook_core::{Envelope, Event};
use std::collections::HashMap;

/// What a ruling changed about one event, in words, keyed by the event's id: rolls whose
/// target moved ("rolled 48 against EML52, now EML44: S becomes F"), amended faces, and
/// events that applied when recorded but are void now.
pub fn flags(events: &[Envelope]) -> HashMap<EventId, Vec<String>> {
    flags_for(events, |_| true)
}

/// [`flags`] of the events `wanted` picks only (a character's, a wound's chain): the others'
/// outcomes as recorded are not kept, which at a million events is most of the audit's
/// memory.
pub fn flags_for(
    events: &[Envelope],
    wanted: impl Fn(&EventId) -> bool,
) -> HashMap<EventId, Vec<String>> {
    flags_observed(events, wanted, |_, _, _, _| {})
}

/// [`flags_for`], handing `observe` each event with the state before it and its fate in the
/// record now, as `Ledger::derive_with` does, and its fate as recorded where a ruling may
/// have changed it (a wanted event, in a log that holds rulings): the fold that tells the
/// record now is the one the flags compare against, so a view that narrates the record and
/// flags it folds it once, and tells a void event as it read when it was recorded. Nothing
/// as recorded is worked out when no ruling is in the log.
pub fn flags_observed(
    events: &[Envelope],
    wanted: impl Fn(&EventId) -> bool,
    observe: impl FnMut(&Ledger, &Envelope, &Fate, Option<&Fate>),
) -> HashMap<EventId, Vec<String>> {
    let mut start = Ledger::new();
    start.roster = Roster::from_log(events);
    flags_observed_from(&start, events, wanted, observe)
}

/// [`flags_for`] of a stretch of a story: `events` folded on from `start`, the state
/// before the first of them with the roster in force over the whole log (a checkpoint's,
/// `crate::about::stretch`). The outcomes as recorded are those of the stretch's events
/// folded on from `start` under the rulings made by then among `events`: a checkpoint
/// stands only while no ruling after it reaches into what it folds (the store drops it
/// then), so the state it holds is the record's as recorded and as it is now alike.
pub fn flags_from(
    start: &Ledger,
    events: &[Envelope],
    wanted: impl Fn(&EventId) -> bool,
) -> HashMap<EventId, Vec<String>> {
    flags_observed_from(start, events, wanted, |_, _, _, _| {})
}

/// [`flags_observed`] of `events` folded on from `start` (see [`flags_from`]).
fn flags_observed_from(
    start: &Ledger,
    events: &[Envelope],
    wanted: impl Fn(&EventId) -> bool,
    mut observe: impl FnMut(&Ledger, &Envelope, &Fate, Option<&Fate>),
) -> HashMap<EventId, Vec<String>> {
    let rulings = Rulings::from_log_under(events, &start.roster);
    let ruled = !(rulings.retracted.is_empty()
        && rulings.amended.is_empty()
        && !events.iter().any(|e| matches!(e.event, Event::Ruling(_))));
    let recorded = if ruled {
        recorded(start, events, 2_000, &wanted)
    } else {
        HashMap::new()
    };
    let mut out: HashMap<EventId, Vec<String>> = HashMap::new();
    let mut ledger = start.clone();
    let mut each = |ledger: &Ledger, env: &Envelope, fate: &Fate| {
        let then = recorded.get(&env.id);
        observe(ledger, env, fate, then);
        let Some(then) = then else {
            return;
        };
        let mut notes = Vec::new();
        match (then, fate) {
            (Fate::Applied(a), Fate::Applied(b)) => {
                for (x, y) in a.tests().iter().zip(b.tests().iter()) {
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
            // The reason is the line's own (`VOID (why)`): said once.
            (Fate::Applied(_), Fate::Void(_)) => notes.push("void since a ruling".into()),
            (Fate::Void(_), Fate::Applied(_)) => notes.push("applies since a ruling".into()),
            _ => {}
        }
        if !notes.is_empty() {
            out.insert(env.id, notes);
        }
    };
    for env in events {
        ledger.step(env, &rulings, &mut each);
    }
    out
}

/// The outcome of each event `wanted` picks as it was recorded, where it may differ from
/// its outcome now: the fold of the log up to it (from `start`), with the rulings made by
/// then. An event no later ruling reaches back to is left out: the log up to it is judged
/// alike by the rulings made by then and by all of them, so it reads as recorded as it
/// reads now (most of a story: a ruling usually strikes or amends what was just recorded).
/// Snapshots are kept every `every` events.
fn recorded(
    start: &Ledger,
    events: &[Envelope],
    every: usize,
    wanted: &impl Fn(&EventId) -> bool,
) -> HashMap<EventId, Fate> {
    // The fold is brought up to each wanted event only when it is reached, under the rulings
    // made by then: a ruling changes the record from the first event whose standing it
    // changes (`first_change`), and the state before that is the same under the rulings
    // before and after it, so when the fold has passed that event it is folded again from
    // the latest snapshot at or before it, not from the start (which cost a long campaign's
    // audit hours: one fold of the log per ruling). The rulings made between two wanted
    // events are taken together, so an audit of a few events (`why`'s chain) folds the log
    // about once, however many rulings the campaign holds. Snapshots are kept every `every`
    // events, without the archive's records (see `Lean`), and every one after a changed event
    // is dropped and made again.
    let position: HashMap<EventId, usize> =
        events.iter().enumerate().map(|(i, e)| (e.id, i)).collect();
    let mut recorded: HashMap<EventId, Fate> = HashMap::new();
    // Who may rule: the roster over the whole log (a ruling its device may not make is void).
    let roster = &start.roster;
    // `ledger` folds `events[..folded]` under the rulings `applied`.
    let mut ledger = Lean(start.clone());
    let mut folded = 0;
    let mut applied = Rulings::default();
    let mut snapshots: Vec<(usize, Lean)> = Vec::new();
    // The rulings made so far and their targets: all that working out the rulings made by a
    // moment needs (a ruling on a ruling reaches its target's target too).
    let mut so_far: Vec<Envelope> = Vec::new();
    let mut stale = false;
    let reached = reached_after(events, &position);
    for (i, env) in events.iter().enumerate() {
        if let Event::Ruling(r) = &env.event {
            if let Some(t) = r.target() {
                if let Some(&p) = position.get(&t) {
                    so_far.push(events[p].clone());
                }
                so_far.push(env.clone());
                stale = true;
                continue;
            }
        }
        if !wanted(&env.id) || reached[i] > i {
            continue;
        }
        if stale {
            so_far.sort_by_key(Envelope::order_key);
            so_far.dedup_by_key(|e| e.id);
            let now = Rulings::from_log_under(&so_far, roster);
            if let Some(from) = first_change(&applied, &now, &position).filter(|f| *f < folded) {
                snapshots.retain(|(at, _)| *at <= from);
                let (at, state) = match snapshots.last() {
                    Some((at, s)) => (*at, s.restore(*at, events, &mut ledger)),
                    None => (0, Lean(start.clone())),
                };
                ledger = state;
                folded = at;
            }
            applied = now;
            stale = false;
        }
        while folded <= i {
            if folded % every == 0 && snapshots.last().is_none_or(|(at, _)| *at < folded) {
                keep(&mut snapshots, folded, ledger.keep(), every);
            }
            ledger.0.step(&events[folded], &applied, &mut |_, e, fate| {
                if e.id == env.id {
                    recorded.insert(e.id, fate.clone());
                }
            });
            folded += 1;
        }
    }
    recorded
}

/// For each place of `events`, the earliest place a ruling after it reaches back to: its
/// target, and where a ruling on a ruling reaches, that ruling's target too, and so on
/// (`usize::MAX` where no ruling follows; 0 for a ruling whose target is not among
/// `events`: it may reach anywhere). A later ruling changes how the rulings judge an event
/// only by what it reaches so (a retraction, an amendment or a reinstatement acts on its
/// target; one on a ruling, on what that ruling acted on, and an amended ruling on what
/// its replacement names too).
fn reached_after(events: &[Envelope], position: &HashMap<EventId, usize>) -> Vec<usize> {
    let mut reach = vec![usize::MAX; events.len()];
    for (i, env) in events.iter().enumerate() {
        let Event::Ruling(r) = &env.event else {
            continue;
        };
        let of = |t: EventId, reach: &[usize]| match position.get(&t) {
            Some(&p) if p < i => p.min(reach[p]),
            _ => 0,
        };
        if let Some(t) = r.target() {
            reach[i] = of(t, &reach);
        }
        // An amended ruling acts, as amended, on its replacement's target.
        if let Ruling::Amend { replacement, .. } = r {
            if let Some(t) = match replacement.as_ref() {
                Event::Ruling(r) => r.target(),
                _ => None,
            } {
                reach[i] = reach[i].min(of(t, &reach));
            }
        }
    }
    // From the end: the earliest reach of any ruling after each place.
    let mut after = vec![usize::MAX; events.len()];
    for i in (0..events.len().saturating_sub(1)).rev() {
        after[i] = after[i + 1].min(reach[i + 1]);
    }
    after
}

/// Keeps the snapshot `state` at place `at`, thinning the older ones: every one of the last
/// sixteen, and one each `25 * every` places before (a ruling rarely reaches far back, and
/// each snapshot costs the characters' open state).
fn keep(snapshots: &mut Vec<(usize, Lean)>, at: usize, state: Lean, every: usize) {
    snapshots.push((at, state));
    let recent = at.saturating_sub(16 * every);
    snapshots.retain(|(k, _)| *k >= recent || *k % (25 * every) == 0);
}

/// The first event (its place in the log) whose standing differs between two sets of rulings
/// in force: retracted or not, amended or not (or otherwise), void or not.
fn first_change(
    before: &Rulings,
    after: &Rulings,
    position: &HashMap<EventId, usize>,
) -> Option<usize> {
    changed(&before.retracted, &after.retracted)
        .chain(changed(&before.amended, &after.amended))
        .chain(changed(&before.void, &after.void))
        .filter_map(|id| position.get(&id))
        .min()
        .copied()
}

/// The events two sets of rulings judge differently (retracted, amended or void under one
/// and not alike under the other).
pub fn ruled_differently<'a>(
    before: &'a Rulings,
    after: &'a Rulings,
) -> impl Iterator<Item = EventId> + 'a {
    changed(&before.retracted, &after.retracted)
        .chain(changed(&before.amended, &after.amended))
        .chain(changed(&before.void, &after.void))
}

/// The keys whose values differ between two maps (in one and not the other, or both with
/// different values).
fn changed<'a, V: PartialEq>(
    before: &'a HashMap<EventId, V>,
    after: &'a HashMap<EventId, V>,
) -> impl Iterator<Item = EventId> + 'a {
    let gone = before.keys().filter(|id| !after.contains_key(id));
    let new = after
        .iter()
        .filter(|(id, v)| before.get(id) != Some(v))
        .map(|(id, _)| id);
    gone.chain(new).copied()
}

/// A ledger for the audit's folds, whose snapshots leave out the archive's records: they
/// grow with the campaign (a copy of them per snapshot cost more than the fold) and are
/// only ever appended or marked reopened, in the order of the log, so the records as of a
/// snapshot's place are the current ones filed by then, with the reopenings after it undone.
struct Lean(Ledger);

impl Lean {
    /// A copy of the state without the archive's records.
    fn keep(&mut self) -> Lean {
        let characters: Vec<CharacterState> = self
            .0
            .characters
            .iter_mut()
            .map(CharacterState::copy_without_records)
            .collect();
        Lean(Ledger::with_characters(self.0.head(), characters))
    }

    /// The state kept before place `at` of `events`, with the archive's records as they
    /// stood then, taken from `current` (a fold that has passed `at` under rulings that agree
    /// with the ones now in force before it, so it filed the same records by then, in the
    /// order of the log): those filed before the event at `at`, with the reopenings from it
    /// on undone. `current` is left without its records.
    fn restore(&self, at: usize, events: &[Envelope], current: &mut Lean) -> Lean {
        let mut l = Lean(self.0.clone());
        let Some(key) = events.get(at).map(Envelope::order_key) else {
            return l;
        };
        for c in l.0.characters.iter_mut() {
            if let Some(now) = current.0.characters.iter_mut().find(|n| n.id() == c.id()) {
                c.archive_before(now, key);
            }
        }
        l
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The outcome of each event as recorded, by the definition: the fold of the log up to
    /// it with the rulings made by then, folded again from the start at every ruling.
    fn recorded_by_definition(events: &[Envelope]) -> HashMap<EventId, Fate> {
        let mut recorded = HashMap::new();
        let mut ledger = start(events);
        let mut rulings = Rulings::default();
        for (i, env) in events.iter().enumerate() {
            if let Event::Ruling(r) = &env.event {
                if r.target().is_some() {
                    rulings = Rulings::from_log(&events[..=i]);
                    ledger = start(events);
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
        recorded
    }

    /// `recorded`'s outcomes, each event it leaves out (no later ruling reaches back to it)
    /// given its outcome now.
    fn with_now(events: &[Envelope], mut got: HashMap<EventId, Fate>) -> HashMap<EventId, Fate> {
        let rulings = Rulings::from_log(events);
        let mut ledger = start(events);
        for env in events {
            ledger.step(env, &rulings, &mut |_, e, fate| {
                // A ruling on an event has no outcome as recorded of its own.
                if !matches!(&e.event, Event::Ruling(r) if r.target().is_some()) {
                    got.entry(e.id).or_insert_with(|| fate.clone());
                }
            });
        }
        got
    }

    /// `got` and `expected` hold the same outcomes (the first that differs named briefly: a
    /// whole outcome is long).
    fn same(got: &HashMap<EventId, Fate>, expected: &HashMap<EventId, Fate>) {
        for (id, e) in expected {
            if got.get(id) != Some(e) {
                let short =
                    |f: Option<&Fate>| format!("{f:?}").chars().take(200).collect::<String>();
                panic!("{id}: {} against {}", short(got.get(id)), short(Some(e)));
            }
        }
        assert_eq!(got.len(), expected.len());
    }

    /// The campaign's start under the whole log's roster.
    fn start(events: &[Envelope]) -> Ledger {
        let mut l = Ledger::new();
        l.roster = Roster::from_log(events);
        l
    }

    /// Folding again from snapshots after each ruling gives every event the outcome the
    /// definition gives it, on a campaign with a retraction every few hundred events.
    #[test]
    fn the_recorded_outcomes_from_snapshots_are_those_by_definition() {
        let events = leechbook_core::synthetic::campaign(25_000);
        assert!(
            events
                .iter()
                .filter(|e| matches!(e.event, Event::Ruling(_)))
                .count()
                > 20
        );
        let got = recorded(&start(&events), &events, 300, &|_| true);
        let expected = recorded_by_definition(&events);
        same(&with_now(&events, got.clone()), &expected);
        // The events no later ruling reaches read now as recorded, and are not folded twice.
        assert!(
            got.len() * 4 < expected.len(),
            "{} of {}",
            got.len(),
            expected.len()
        );
    }

    /// The same where rulings reach far back: every other retraction strikes an event
    /// dozens of places before it (and the events between read otherwise as recorded than
    /// now), and one of those retractions is itself retracted at the end, which reaches as
    /// far back as it did.
    #[test]
    fn the_recorded_outcomes_under_rulings_reaching_far_back_are_those_by_definition() {
        let mut events = leechbook_core::synthetic::campaign(25_000);
        let mut n = 0;
        let mut far_ruling = None;
        for i in 0..events.len() {
            let far = events[i.saturating_sub(37)].id;
            let open = !matches!(events[i.saturating_sub(37)].event, Event::Ruling(_));
            if let Event::Ruling(leechbook_core::ruling::Ruling::Retract { target, .. }) =
                &mut events[i].event
            {
                n += 1;
                if n % 2 == 0 && open {
                    *target = far;
                    far_ruling.get_or_insert(events[i].id);
                }
            }
        }
        let mut undo = events
            .iter()
            .rfind(|e| matches!(e.event, Event::Ruling(_)))
            .unwrap()
            .clone();
        undo.event = Event::Ruling(leechbook_core::ruling::Ruling::Retract {
            target: far_ruling.unwrap(),
            reason: "that retraction was a mistake".into(),
        });
        undo.id = EventId(uuid::Uuid::from_u128(u128::MAX));
        undo.seq += 1_000_000;
        undo.clock += 1_000_000;
        events.push(undo);
        let got = recorded(&start(&events), &events, 300, &|_| true);
        let expected = recorded_by_definition(&events);
        same(&with_now(&events, got.clone()), &expected);
        // From the undone retraction's target on, everything reads as recorded afresh.
        assert!(
            got.len() * 2 > expected.len(),
            "{} of {}",
            got.len(),
            expected.len()
        );
    }

    /// The same for a few events far apart (a wound's chain): the rulings made between two
    /// of them are taken together, and each still gets the outcome the definition gives it.
    #[test]
    fn the_recorded_outcomes_of_a_few_events_are_those_by_definition() {
        let events = leechbook_core::synthetic::campaign(25_000);
        let picked: std::collections::HashSet<EventId> =
            events.iter().step_by(997).map(|e| e.id).collect();
        let mut expected = recorded_by_definition(&events);
        expected.retain(|id, _| picked.contains(id));
        assert!(expected.len() > 20);
        let got = recorded(&start(&events), &events, 300, &|id| picked.contains(id));
        let mut got = with_now(&events, got);
        got.retain(|id, _| picked.contains(id));
        assert_eq!(got, expected);
    }
}
