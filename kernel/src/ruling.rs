//! Rulings: the GM's decisions about the record itself. Nothing is ever deleted; a ruling is
//! an event, and the fold re-derives everything after it.
//!
//! - **Retract** strikes an event from the record, as if it had not happened (with a reason).
//! - **Reinstate** undoes a retraction.
//! - **Amend** replaces an event's content (a roll's faces, an input such as an AV or an aim)
//!   with the GM's corrected version of the same kind of event.
//! - **Override** decrees an outcome from its moment on, of the kind the campaign's rules
//!   system lets the GM decree (its `LedgerEvent::Decree`).
//!
//! Undoing a ruling is another ruling: retracting an amendment restores the original;
//! retracting a retraction (or reinstating) restores the event.
//!
//! ## Which rulings are in force (the documented rule)
//! Rulings are read from the **last to the first** in the fold's total order. A ruling that a
//! later ruling in force has retracted is not in force. For each target, the latest ruling in
//! force decides: a later Reinstate beats an earlier Retract and vice versa, and the latest
//! Amend is the content used. Concurrent rulings from two devices are ordered by the total
//! order `(clock, device, seq)` like every event, so every device derives the same record.
//! A ruling whose target is unknown, is not earlier in the log, or does not fit (an amendment
//! of another kind or about another character, a retraction of the campaign's creation) is
//! void, with its reason. So is a ruling whose device the roster does not let rule (a
//! player's, a revoked or unrostered device's): a void ruling has no effect of any kind, so
//! a player who edits their own ledger file to pass as a GM strikes nothing on any other
//! device. The roster is the one worked out from the log's roster events, signed by GM
//! devices; a device's own idea of its role never counts.

use crate::envelope::Envelope;
pub use crate::event::{LedgerEvent, Ruling};
use crate::ids::EventId;
use crate::roster::Roster;
use std::collections::{HashMap, HashSet};

/// The ruling an event of type `E` may be.
pub type EventRuling<E> = Ruling<E, <E as LedgerEvent>::Decree>;

/// The rulings in force over a log.
#[derive(Clone, Debug)]
pub struct Rulings<E> {
    /// Retracted events: the ruling and its reason.
    pub retracted: HashMap<EventId, (EventId, String)>,
    /// Amended events: the ruling, the content used, and the reason.
    pub amended: HashMap<EventId, (EventId, E, String)>,
    /// Rulings that are void, with why.
    pub void: HashMap<EventId, String>,
}

impl<E> Default for Rulings<E> {
    fn default() -> Rulings<E> {
        Rulings {
            retracted: HashMap::new(),
            amended: HashMap::new(),
            void: HashMap::new(),
        }
    }
}

impl<E: LedgerEvent + Clone> Rulings<E> {
    /// Works out the rulings in force over `events` (in the total order).
    pub fn from_log(events: &[Envelope<E>]) -> Rulings<E> {
        Rulings::judge(events, None, &Roster::from_log(events))
    }

    /// Works out the rulings in force over `events`, a stretch of a log whose roster in force
    /// is `roster` (the stretch after a checkpoint, which holds none of the roster's events
    /// before it).
    pub fn from_log_under(events: &[Envelope<E>], roster: &Roster) -> Rulings<E> {
        Rulings::judge(events, None, roster)
    }

    /// The rulings in force over `events`, a cut of a log whose rulings in force are `whole`
    /// (a campaign-time or wall-time moment, which keeps rulings whose target lies beyond
    /// it): a ruling on an event outside the cut is void only where it is void over the whole
    /// log; otherwise it stands as made and acts on nothing in the cut.
    pub fn from_cut(events: &[Envelope<E>], whole: &Rulings<E>) -> Rulings<E> {
        Rulings::judge(events, Some(whole), &Roster::from_log(events))
    }

    /// [`Rulings::from_cut`] of a cut that holds only rulings and their targets, under the
    /// roster the cut sees.
    pub fn from_cut_under(
        events: &[Envelope<E>],
        whole: &Rulings<E>,
        roster: &Roster,
    ) -> Rulings<E> {
        Rulings::judge(events, Some(whole), roster)
    }

    fn judge(events: &[Envelope<E>], whole: Option<&Rulings<E>>, roster: &Roster) -> Rulings<E> {
        let mut out = Rulings::default();
        let rulings: Vec<(usize, &Envelope<E>, &EventRuling<E>)> = events
            .iter()
            .enumerate()
            .filter_map(|(i, e)| e.event.ruling().map(|r| (i, e, r)))
            .collect();
        if rulings.is_empty() {
            return out;
        }
        let targets: HashSet<EventId> = rulings.iter().filter_map(|(_, _, r)| r.target()).collect();
        let position: HashMap<EventId, usize> = events
            .iter()
            .enumerate()
            .filter(|(_, e)| targets.contains(&e.id))
            .map(|(i, e)| (e.id, i))
            .collect();
        // decided[target] = Some(true): retracted; Some(false): stands.
        let mut decided: HashMap<EventId, bool> = HashMap::new();
        for (i, env, r) in rulings.into_iter().rev() {
            if let Err(why) = roster.allows(env) {
                // Not the device's to rule: void, and of no effect at all.
                out.void.insert(env.id, why);
                continue;
            }
            if decided.get(&env.id) == Some(&true) {
                continue; // retracted by a later ruling in force
            }
            let Some(target) = r.target() else { continue };
            let Some(&at) = position.get(&target) else {
                match whole {
                    None => {
                        out.void.insert(
                            env.id,
                            format!("it rules on event {target}, which the log does not hold"),
                        );
                    }
                    Some(w) => {
                        if let Some(why) = w.void.get(&env.id) {
                            out.void.insert(env.id, why.clone());
                        }
                    }
                }
                continue;
            };
            if at >= i {
                out.void.insert(env.id, "it rules on a later event".into());
                continue;
            }
            let original = &events[at].event;
            match r {
                Ruling::Retract { reason, .. } => {
                    if original.creates_campaign() {
                        out.void
                            .insert(env.id, "the campaign's creation cannot be retracted".into());
                        continue;
                    }
                    if let std::collections::hash_map::Entry::Vacant(e) = decided.entry(target) {
                        e.insert(true);
                        out.retracted.insert(target, (env.id, reason.clone()));
                    }
                }
                Ruling::Reinstate { .. } => {
                    decided.entry(target).or_insert(false);
                }
                Ruling::Amend {
                    replacement,
                    reason,
                    ..
                } => {
                    if replacement.kind() != original.kind()
                        || replacement.character() != original.character()
                    {
                        out.void.insert(
                            env.id,
                            format!(
                                "an amendment must be the same kind of event about the same character ({})",
                                original.kind()
                            ),
                        );
                        continue;
                    }
                    out.amended.entry(target).or_insert((
                        env.id,
                        (**replacement).clone(),
                        reason.clone(),
                    ));
                }
                Ruling::Override { .. } => {}
            }
        }
        // A retracted ruling has no force; neither do its amendments.
        out.amended
            .retain(|_, (ruling, _, _)| !decided.get(ruling).copied().unwrap_or(false));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::CharacterId;
    use crate::toy::{device, env, id, Hit, Toy};

    /// The documented rule over an event type that is no rules system's: read from the last
    /// ruling to the first, a retracted ruling has no force, the latest amendment's content
    /// is used, and a retraction of the campaign's creation, an amendment of another kind
    /// and a ruling on an event the log lacks are void, each with its reason.
    #[test]
    fn the_rulings_in_force_over_any_event_type() {
        let gm = device(1);
        let c = CharacterId(uuid::Uuid::from_u128(9));
        let retract = |target, reason: &str| {
            Toy::Ruled(Ruling::Retract {
                target,
                reason: reason.into(),
            })
        };
        let amend = |target, replacement, reason: &str| {
            Toy::Ruled(Ruling::Amend {
                target,
                replacement: Box::new(replacement),
                reason: reason.into(),
            })
        };
        let log = vec![
            env(1, gm, Toy::Created),
            env(2, gm, Toy::Roll(Hit(40, c, vec![]))),
            env(3, gm, Toy::Roll(Hit(70, c, vec![]))),
            env(4, gm, retract(id(2), "wrong character")),
            env(
                5,
                gm,
                amend(id(3), Toy::Roll(Hit(45, c, vec![])), "misread"),
            ),
            env(6, gm, retract(id(4), "it stood after all")),
            env(7, gm, retract(id(1), "start again")),
            env(8, gm, amend(id(2), Toy::Created, "not a roll")),
            env(9, gm, retract(id(99), "no such event")),
            env(
                10,
                gm,
                amend(id(3), Toy::Roll(Hit(52, c, vec![])), "misread again"),
            ),
        ];
        let r = Rulings::from_log(&log);
        // The retraction of the retraction leaves the roll standing.
        assert_eq!(r.retracted.keys().copied().collect::<Vec<_>>(), vec![id(4)]);
        assert!(!r.retracted.contains_key(&id(2)));
        // The latest of the two amendments is the content used.
        assert_eq!(
            r.amended.get(&id(3)),
            Some(&(
                id(10),
                Toy::Roll(Hit(52, c, vec![])),
                "misread again".to_string()
            ))
        );
        let mut void: Vec<_> = r.void.keys().copied().collect();
        void.sort();
        assert_eq!(void, vec![id(7), id(8), id(9)]);
        assert_eq!(
            r.void[&id(7)],
            "the campaign's creation cannot be retracted"
        );
        assert_eq!(
            r.void[&id(8)],
            "an amendment must be the same kind of event about the same character (roll)"
        );
        assert_eq!(
            r.void[&id(9)],
            format!("it rules on event {}, which the log does not hold", id(99))
        );
        // Retracting the latest amendment leaves the earlier one in force; retracting both
        // restores the original content.
        let mut undone = log.clone();
        undone.push(env(11, gm, retract(id(10), "it was 45")));
        assert_eq!(
            Rulings::from_log(&undone).amended.get(&id(3)).map(|a| a.0),
            Some(id(5))
        );
        undone.push(env(12, gm, retract(id(5), "it was 70")));
        assert!(Rulings::from_log(&undone).amended.is_empty());
    }

    /// A ruling whose device the roster does not let rule is void and acts on nothing: a
    /// player who passes for a GM on their own copy of the ledger retracts and amends nothing
    /// on anyone else's (the hostile-ground threat model: "a rostered player").
    #[test]
    fn a_players_ruling_is_void_and_has_no_effect() {
        use crate::event::{Role, RosterChange};
        let (gm, player) = (device(1), device(2));
        let c = CharacterId(uuid::Uuid::from_u128(9));
        let joins = |d: crate::ids::DeviceId, role| {
            Toy::Roster(RosterChange::Device {
                device: d,
                key: vec![0; 32],
                role,
                characters: vec![c],
            })
        };
        let log = vec![
            env(1, gm, Toy::Created),
            env(2, gm, joins(gm, Role::Gm)),
            env(3, gm, joins(player, Role::Player)),
            env(4, gm, Toy::Roll(Hit(40, c, vec![]))),
            env(
                5,
                player,
                Toy::Ruled(Ruling::Retract {
                    target: id(4),
                    reason: "I am the GM now".into(),
                }),
            ),
            env(
                6,
                player,
                Toy::Ruled(Ruling::Amend {
                    target: id(4),
                    replacement: Box::new(Toy::Roll(Hit(1, c, vec![]))),
                    reason: "and I say it missed".into(),
                }),
            ),
        ];
        for r in [
            Rulings::from_log(&log),
            Rulings::from_log_under(&log[3..], &Roster::from_log(&log)),
        ] {
            assert!(r.retracted.is_empty(), "{:?}", r.retracted);
            assert!(r.amended.is_empty());
            assert_eq!(
                r.void.get(&id(5)).map(String::as_str),
                Some("device 00000000 is a player's: this is the GM's to record")
            );
            assert!(r.void.contains_key(&id(6)));
        }
        // The same rulings from the GM's device stand.
        let mut by_gm = log.clone();
        by_gm[4].device = gm;
        assert!(Rulings::from_log(&by_gm).retracted.contains_key(&id(4)));
    }
}
