//! The GM's rulings as typed requests: which event a retraction, a reinstatement or an
//! amendment names ([`crate::find_event`], among the events a ruling reads:
//! [`crate::ruling_context`]), what an amendment changes ([`Amendment`]), which event `undo`
//! strikes ([`undo_target`]), and what a recorded ruling changed downstream ([`Downstream`]).
//! Every front end builds a ruling here and records it through the replica; the refusals are
//! [`RulingError`]s, which name no command.

use crate::{find_event, LedgerError};
use leechbook_core::dice::{DiceExpr, RecordedDie};
use leechbook_core::fold::VoidEvent;
use leechbook_core::harnmaster::injury::{ImpactInput, Strike, Targeting, STRIKE_DICE};
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::ids::{DeviceId, EventId};
use leechbook_core::ruling::{Ruling, Rulings};
use leechbook_core::{Envelope, Event};
use leechbook_store::Store;

/// Why a ruling was not built.
#[derive(Debug, thiserror::Error)]
pub enum RulingError {
    /// The event named is not found, or several are.
    #[error(transparent)]
    Ledger(#[from] LedgerError),
    /// A retraction of an event already retracted.
    #[error("event {0} is already retracted")]
    AlreadyRetracted(String),
    /// A reinstatement of an event that is not retracted.
    #[error("event {0} is not retracted")]
    NotRetracted(String),
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
    /// An impact roll that does not read as dice.
    #[error("impact: {0}")]
    Impact(String),
    /// Nothing this device recorded stands to undo (the campaign's creation and the roster
    /// are not undone so).
    #[error("this device has recorded nothing that stands to undo (the campaign's creation and the roster are not undone)")]
    NothingToUndo,
}

/// A retraction of the event `spec` names among `events`.
pub fn retract(events: &[Envelope], spec: &str, reason: &str) -> Result<Ruling, RulingError> {
    let target = find_event(events, spec)?;
    if Rulings::from_log(events).retracted.contains_key(&target.id) {
        return Err(RulingError::AlreadyRetracted(target.id.short()));
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
        return Err(RulingError::NotRetracted(target.id.short()));
    }
    Ok(Ruling::Reinstate {
        target: target.id,
        reason: reason.to_string(),
    })
}

/// What an amendment changes of an event: its faces and its inputs; what is not named stays
/// as it was.
#[derive(Clone, Debug, Default)]
pub struct Amendment {
    /// Corrected faces by die name (a strike's dice by name; `roll` or `treatment` for a
    /// roll).
    pub dice: Vec<RecordedDie>,
    /// A strike's armour value.
    pub av: Option<i32>,
    /// A strike's aim (ZN).
    pub aim: Option<u8>,
    /// A strike's impact roll (`d10+3`).
    pub impact: Option<String>,
    /// A strike's entered effective impact.
    pub effective: Option<i32>,
    /// A strike's Strength impact modifier.
    pub str_mod: Option<i32>,
    /// A strike's Impact TA bonus.
    pub impact_ta: Option<i32>,
    /// Whether the armour was rigid.
    pub rigid: Option<bool>,
    /// A treatment's or stoppage's Physician ML.
    pub physician: Option<i32>,
    /// A Morale or mishap roll's ML.
    pub ml: Option<i32>,
    /// A Morale or mishap roll's outcome as the GM ruled it.
    pub outcome: Option<String>,
}

/// The names of the dice an event records, as an amendment names them (empty: none can be
/// amended).
pub fn dice_of(event: &Event) -> &'static [&'static str] {
    match event {
        Event::HarnMaster(HmEvent::Strike(_)) => &STRIKE_DICE,
        Event::HarnMaster(HmEvent::Treatment(_)) => &["treatment", "roll"],
        Event::HarnMaster(_) => &["roll"],
        _ => &[],
    }
}

/// A strike's inputs amended. Returns whether anything was given.
fn amend_strike(
    s: &mut Strike,
    a: &Amendment,
    no: impl Fn(&'static str) -> RulingError,
) -> Result<bool, RulingError> {
    let mut changed = false;
    for d in &a.dice {
        match s.dice.iter_mut().find(|x| x.name == d.name) {
            Some(x) => x.faces = d.faces.clone(),
            None => s.dice.push(d.clone()),
        }
        changed = true;
    }
    if let Some(av) = a.av {
        s.av = av;
        changed = true;
    }
    if let Some(r) = a.rigid {
        s.rigid = r;
        changed = true;
    }
    if let Some(new) = a.aim {
        match &mut s.targeting {
            Targeting::Rolled { aim, .. } => *aim = new,
            _ => return Err(no("aim")),
        }
        changed = true;
    }
    if a.impact.is_some() || a.str_mod.is_some() || a.impact_ta.is_some() {
        let (mut roll, mut sm, mut ta) = match &s.impact {
            ImpactInput::Rolled {
                roll,
                strength_mod,
                impact_ta,
            } => (*roll, *strength_mod, *impact_ta),
            ImpactInput::Effective(_) => (
                "0".parse::<DiceExpr>()
                    .map_err(|e| RulingError::Impact(e.to_string()))?,
                0,
                0,
            ),
        };
        if let Some(i) = &a.impact {
            roll = i.parse().map_err(|e| RulingError::Impact(format!("{e}")))?;
        }
        sm = a.str_mod.unwrap_or(sm);
        ta = a.impact_ta.unwrap_or(ta);
        s.impact = ImpactInput::Rolled {
            roll,
            strength_mod: sm,
            impact_ta: ta,
        };
        changed = true;
    }
    if let Some(e) = a.effective {
        s.impact = ImpactInput::Effective(e);
        changed = true;
    }
    Ok(changed)
}

/// A HârnMaster roll's face and inputs amended. Returns whether anything was given.
fn amend_roll(
    hm: &mut HmEvent,
    kind: &'static str,
    a: &Amendment,
    no: impl Fn(&'static str) -> RulingError,
) -> Result<bool, RulingError> {
    let names = dice_of(&Event::HarnMaster(hm.clone()));
    // One roll, one face: a second die or face would be dropped, so refuse it.
    if a.dice.len() > 1 || a.dice.iter().any(|d| d.faces.len() != 1) {
        return Err(RulingError::OneFace {
            kind,
            name: names[0],
        });
    }
    let face = a.dice.first().and_then(|d| d.faces.first().copied());
    let mut changed = false;
    let mut set = |slot: &mut u16| {
        if let Some(f) = face {
            *slot = f;
            changed = true;
        }
    };
    match hm {
        HmEvent::ShockReroll(r) | HmEvent::StunRecovery(r) => set(&mut r.roll),
        HmEvent::SeqRoll(r) => set(&mut r.roll),
        HmEvent::BloodStoppage(b) => {
            set(&mut b.roll);
            if let Some(p) = a.physician {
                b.physician_ml = p;
                changed = true;
            }
        }
        HmEvent::Treatment(t) => {
            set(&mut t.roll);
            if let Some(p) = a.physician {
                t.physician_ml = p;
                changed = true;
            }
        }
        HmEvent::GmRoll(g) => {
            if face.is_some() {
                g.roll = face;
                changed = true;
            }
            if a.ml.is_some() {
                g.ml = a.ml;
                changed = true;
            }
            if a.outcome.is_some() {
                g.outcome = a.outcome.clone();
                changed = true;
            }
        }
        _ => return Err(no("roll or input")),
    }
    Ok(changed)
}

/// An amendment of the event `spec` names among `events`, from the content in force (an
/// earlier amendment, if any) and the changes asked for. The corrected event must still
/// resolve: the replica refuses an amendment whose amended event is void in the record it
/// leaves ([`LedgerError::AmendmentCannotStand`]).
pub fn amend(
    events: &[Envelope],
    spec: &str,
    a: &Amendment,
    reason: &str,
) -> Result<Ruling, RulingError> {
    let target = find_event(events, spec)?;
    let kind = target.event.kind();
    let known = dice_of(&target.event);
    let unknown = a.dice.iter().find(|d| !known.contains(&d.name.as_str()));
    if let Some(d) = unknown.filter(|_| !known.is_empty()) {
        return Err(RulingError::UnknownDie {
            kind,
            name: d.name.clone(),
            known: known.to_vec(),
        });
    }
    let rulings = Rulings::from_log(events);
    let mut event = rulings
        .amended
        .get(&target.id)
        .map(|(_, e, _)| e.clone())
        .unwrap_or_else(|| target.event.clone());
    let no = |what: &'static str| RulingError::NoSuch { kind, what };
    let changed = match &mut event {
        Event::HarnMaster(HmEvent::Strike(s)) => amend_strike(s, a, no)?,
        Event::HarnMaster(hm) => amend_roll(hm, kind, a, no)?,
        _ => return Err(no("roll or input")),
    };
    if !changed {
        // An option the event does not take is named, not met by "nothing to amend".
        if a.outcome.is_some() && !matches!(target.event, Event::HarnMaster(HmEvent::GmRoll(_))) {
            return Err(RulingError::NoOutcome(kind));
        }
        return Err(RulingError::Nothing(kind));
    }
    Ok(Ruling::Amend {
        target: target.id,
        replacement: Box::new(event),
        reason: reason.to_string(),
    })
}

/// The event `undo` strikes: the last that the device `me` recorded and that stands
/// (neither struck nor void), found number by number from its last (the campaign's
/// creation and the roster's changes are not undone so). `gone` says whether an event is
/// struck or void.
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
        if let Some(e) = found.filter(|e| {
            !e.event.creates_campaign() && e.event.roster_change().is_none() && !gone(&e.id)
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
