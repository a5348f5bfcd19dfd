//! The GM's rulings as typed requests: which event a retraction, a reinstatement or an
//! amendment names ([`crate::find_event`], among the events a ruling reads:
//! [`crate::ruling_context`]), what an amendment changes ([`Amendment`]), which event `undo`
//! strikes ([`undo_target`]), and what a recorded ruling changed downstream ([`Downstream`]).
//! Every front end builds a ruling here and records it through the replica; the refusals are
//! [`RulingError`]s, which name no command.

use crate::{find_event, LedgerError};
use leechbook_core::amend::{AmendError, Correction, Field};
use leechbook_core::fold::VoidEvent;
use leechbook_core::ids::{DeviceId, EventId};
use leechbook_core::ruling::{Ruling, Rulings};
use leechbook_core::{Envelope, Event};
use leechbook_store::{ReadLog, Store};

/// Why a ruling was not built.
#[derive(Debug, thiserror::Error)]
pub enum RulingError {
    /// The event named is not found, or several are.
    #[error(transparent)]
    Ledger(#[from] LedgerError),
    /// A retraction of an event already retracted.
    #[error("#{0} is already retracted")]
    AlreadyRetracted(u64),
    /// A reinstatement of an event that is not retracted: its number, and the event it
    /// struck when it is a retraction in force (an undo is taken back by reinstating that).
    #[error("#{0} is not retracted: it stands{hint}", hint = .1.map(|n| format!(" (it is a retraction: to take it back, reinstate what it struck, #{n})")).unwrap_or_default())]
    NotRetracted(u64, Option<u64>),
    /// An amendment of something the event does not hold.
    #[error("a {kind} has no {what} to amend")]
    NoSuch {
        /// The event's kind.
        kind: &'static str,
        /// What the amendment named.
        what: &'static str,
    },
    /// A die the event does not roll.
    #[error("the {kind} rolls no die '{name}' (its dice: {})", .known.join(", "))]
    UnknownDie {
        /// The event's kind.
        kind: &'static str,
        /// The die named.
        name: String,
        /// The dice it rolls.
        known: Vec<&'static str>,
    },
    /// More than one face for an event that records one roll.
    #[error("the {kind} records one roll: give one face")]
    OneFace {
        /// The event's kind.
        kind: &'static str,
        /// The name its face goes under.
        name: &'static str,
    },
    /// An outcome for an event that records none.
    #[error("the {0} takes no outcome: only a roll the GM resolves (Morale, Fumble, Stumble) records one")]
    NoOutcome(&'static str),
    /// An amendment that changes nothing.
    #[error("nothing to amend in the {0}: name what changes")]
    Nothing(&'static str),
    /// A correction that does not fit the field it names.
    #[error("the {kind} {error}")]
    Correction {
        /// The event's kind.
        kind: &'static str,
        /// Why.
        error: AmendError,
    },
    /// Corrections that leave the event as it stands.
    #[error("the {0} already records that: nothing changes")]
    Unchanged(&'static str),
    /// Nothing this device recorded stands to undo (the campaign's creation and the roster
    /// are not undone so).
    #[error("this device has recorded nothing that stands to undo (the campaign's creation and the roster are not undone)")]
    NothingToUndo,
}

/// A retraction of the event `spec` names among `events`.
pub fn retract(events: &[Envelope], spec: &str, reason: &str) -> Result<Ruling, RulingError> {
    let target = find_event(events, spec)?;
    if Rulings::from_log(events).retracted.contains_key(&target.id) {
        return Err(RulingError::AlreadyRetracted(target.clock));
    }
    Ok(Ruling::Retract {
        target: target.id,
        reason: reason.to_string(),
    })
}

/// A reinstatement of the retracted event `spec` names among `events`.
pub fn reinstate(events: &[Envelope], spec: &str, reason: &str) -> Result<Ruling, RulingError> {
    let target = find_event(events, spec)?;
    if !Rulings::from_log(events).retracted.contains_key(&target.id) {
        let struck = match &target.event {
            Event::Ruling(Ruling::Retract { target: t, .. }) => {
                events.iter().find(|e| e.id == *t).map(|e| e.clock)
            }
            _ => None,
        };
        return Err(RulingError::NotRetracted(target.clock, struck));
    }
    Ok(Ruling::Reinstate {
        target: target.id,
        reason: reason.to_string(),
    })
}

/// What an amendment changes of an event: corrections of its dice and inputs, each by the
/// name the event's system gives it ([`Amendable::fields`]); what is not named stays as it
/// was.
#[derive(Clone, Debug, Default)]
pub struct Amendment {
    /// The corrections, in the order given.
    pub corrections: Vec<(String, Correction)>,
}

impl Amendment {
    /// Adds a correction of the input `name` when `value` is given.
    pub fn input(&mut self, name: &str, value: Option<impl ToString>) -> &mut Amendment {
        if let Some(v) = value {
            self.corrections
                .push((name.to_string(), Correction::Value(v.to_string())));
        }
        self
    }
}

/// What an event records that an amendment may name (none: it takes no amendment).
pub fn fields_of(event: &Event) -> Vec<Field> {
    event
        .clone()
        .amendable()
        .map_or_else(Vec::new, |a| a.fields())
}

/// A correction refused, in the ruling's terms.
fn refused(kind: &'static str, name: &str, c: &Correction, e: AmendError) -> RulingError {
    match e {
        AmendError::Unknown {
            what: "die", known, ..
        } => RulingError::UnknownDie {
            kind,
            name: name.to_string(),
            known,
        },
        // An outcome is a GM-resolved roll's alone: said so, not "no such input".
        AmendError::Unknown { .. } if name == "outcome" => RulingError::NoOutcome(kind),
        AmendError::Unknown { known, .. } if known.is_empty() => RulingError::NoSuch {
            kind,
            what: "input",
        },
        AmendError::NotHere(what) => RulingError::NoSuch { kind, what },
        AmendError::OneFace(die) if matches!(c, Correction::Faces(_)) => {
            RulingError::OneFace { kind, name: die }
        }
        e => RulingError::Correction { kind, error: e },
    }
}

/// An amendment of the event `spec` names among `events`, from the content in force (an
/// earlier amendment, if any) and the corrections asked for, for an event of any system.
/// The corrected event must still resolve: the replica refuses an amendment whose amended
/// event is void in the record it leaves ([`LedgerError::AmendmentCannotStand`]).
pub fn amend(
    events: &[Envelope],
    spec: &str,
    a: &Amendment,
    reason: &str,
) -> Result<Ruling, RulingError> {
    let target = find_event(events, spec)?;
    let kind = target.event.kind();
    let rulings = Rulings::from_log(events);
    let mut event = rulings
        .amended
        .get(&target.id)
        .map(|(_, e, _)| e.clone())
        .unwrap_or_else(|| target.event.clone());
    let in_force = event.clone();
    let Some(amendable) = event.amendable().filter(|a| !a.fields().is_empty()) else {
        return Err(RulingError::NoSuch {
            kind,
            what: "roll or input",
        });
    };
    if a.corrections.is_empty() {
        return Err(RulingError::Nothing(kind));
    }
    for (name, c) in &a.corrections {
        amendable
            .correct(name, c)
            .map_err(|e| refused(kind, name, c, e))?;
    }
    if event == in_force {
        return Err(RulingError::Unchanged(kind));
    }
    Ok(Ruling::Amend {
        target: target.id,
        replacement: Box::new(event),
        reason: reason.to_string(),
    })
}

/// The reason an undo records: `undone`, or `undone: WHY` (what tells an undo from a GM's
/// retraction of their own event by hand, which `undo` steps back through like any other).
pub fn undo_reason(why: &str) -> String {
    match why.trim() {
        "" | "undone" => "undone".to_string(),
        why => format!("undone: {why}"),
    }
}

/// Whether a retraction's reason is an undo's ([`undo_reason`]).
pub fn is_undo_reason(reason: &str) -> bool {
    reason == "undone" || reason.starts_with("undone: ")
}

/// The event `undo` strikes: the last that the device `me` recorded and that stands
/// (neither struck nor void), found number by number from its last (the campaign's
/// creation and the roster's changes are not undone so). An undo (a retraction by `me` of
/// an event `me` recorded, with an undo's reason) is stepped over, so that undo after undo
/// steps back through the device's recordings; an undo is undone only when asked by name
/// (`reinstate`, `retract`). A retraction by hand is a recording like any other: an undo
/// retracts it, and its target stands again. `gone` says whether an event is struck or void.
pub fn undo_target(
    store: &Store,
    me: DeviceId,
    gone: impl Fn(&EventId) -> bool,
) -> Result<EventId, RulingError> {
    use leechbook_core::roster::LedgerEvent;
    let mut seq = store.last_number(me).map_err(LedgerError::from)?;
    while seq > 0 {
        let found = store
            .events_numbered(me, seq, seq)
            .map_err(LedgerError::from)?
            .pop();
        let an_undo = |e: &Envelope| match &e.event {
            Event::Ruling(Ruling::Retract { target, reason }) if is_undo_reason(reason) => store
                .events_with_id_suffix(&target.0.simple().to_string())
                .is_ok_and(|hits| hits.iter().any(|(_, key)| key.1 == me)),
            _ => false,
        };
        if let Some(e) = found.filter(|e| {
            !e.event.creates_campaign()
                && e.event.roster_change().is_none()
                && !gone(&e.id)
                && !an_undo(e)
        }) {
            return Ok(e.id);
        }
        seq -= 1;
    }
    Err(RulingError::NothingToUndo)
}

/// What a ruling on `target` changed downstream: the events it made void (besides its
/// target) and those that apply again, against the void events before it.
#[derive(Clone, Debug, Default)]
pub struct Downstream {
    /// Void now, and not before.
    pub void_now: Vec<VoidEvent>,
    /// Void before, and applying again now.
    pub applies_again: Vec<VoidEvent>,
}

impl Downstream {
    /// The difference between the void events `before` and `after` a ruling on `target`.
    pub fn of(target: EventId, before: &[VoidEvent], after: &[VoidEvent]) -> Downstream {
        Downstream {
            void_now: after
                .iter()
                .filter(|v| v.id != target && !before.iter().any(|b| b.id == v.id))
                .cloned()
                .collect(),
            applies_again: before
                .iter()
                .filter(|v| !after.iter().any(|b| b.id == v.id))
                .cloned()
                .collect(),
        }
    }
}
