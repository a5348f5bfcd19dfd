//! Moments of the log (`--at`, `--until`).
//!
//! A moment is an event id (the log up to and including it, rulings included only as far as
//! they had been made: the record as it stood then), a wall time in RFC 3339 (the same, by the
//! clock of the recording devices), or a campaign time `day N [HH:MM]` (every event that
//! happened by then in the story, judged with every retraction, reinstatement and amendment
//! made since: the story as we now know it). An override is not a judgement of an event but
//! a decree about the story from its own moment on, so it counts from its campaign time like
//! any event. A ruling on an event beyond a moment stands as it does over the whole log and
//! acts on nothing within the moment.

use crate::LedgerError;
use leechbook_core::fold::Ledger;
use leechbook_core::ruling::Rulings;
use leechbook_core::time::CampaignTime;
use leechbook_core::{Envelope, Event};

/// Finds an event by its id or its last six or more hex digits.
pub fn find_event<'a>(events: &'a [Envelope], text: &str) -> Result<&'a Envelope, LedgerError> {
    let t = id_digits(text)?;
    let hits: Vec<&Envelope> = events
        .iter()
        .filter(|e| e.id.0.simple().to_string().ends_with(&t))
        .collect();
    match hits.as_slice() {
        [one] => Ok(one),
        [] => Err(LedgerError::NoSuchEvent(text.trim().to_string())),
        _ => Err(LedgerError::AmbiguousEvent(text.trim().to_string())),
    }
}

/// The hex digits of an event id as given (dashes dropped), at least six.
fn id_digits(text: &str) -> Result<String, LedgerError> {
    let t = text.trim().to_ascii_lowercase().replace('-', "");
    if t.len() < 6 || !t.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(LedgerError::NotAnEventId(text.trim().to_string()));
    }
    Ok(t)
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
pub fn moment(events: &[Envelope], spec: &str) -> Result<Moment, LedgerError> {
    let spec = spec.trim();
    if spec.to_ascii_lowercase().starts_with("day") {
        let t = CampaignTime::parse(spec).map_err(|_| LedgerError::NotAMoment(spec.to_string()))?;
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
    let target = find_event(events, spec).map_err(|e| match e {
        LedgerError::NotAnEventId(_) => LedgerError::NotAMoment(spec.to_string()),
        other => other,
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
) -> Result<leechbook_store::OrderKey, LedgerError> {
    let t = id_digits(spec).map_err(|_| LedgerError::NotAMoment(spec.trim().to_string()))?;
    match log.events_with_id_suffix(&t)?.as_slice() {
        [(_, key)] => Ok(*key),
        [] => Err(LedgerError::NoSuchEvent(spec.trim().to_string())),
        _ => Err(LedgerError::AmbiguousEvent(spec.trim().to_string())),
    }
}

/// The events a ruling's builder reads when `spec` names its target: the rulings and the
/// events they rule on (what the rulings in force are judged from), and every event whose id
/// ends with `spec`'s digits (so a short id that is ambiguous in the log stays ambiguous), in
/// the total order. Found through the store's indexes: a ruling at a million events reads a
/// few thousand events, not the log.
pub fn ruling_context(
    log: &impl leechbook_store::ReadLog,
    spec: &str,
) -> Result<Vec<Envelope>, LedgerError> {
    let mut out = log.rulings_and_targets()?;
    if let Ok(t) = id_digits(spec) {
        for (id, key) in log.events_with_id_suffix(&t)? {
            if out.iter().any(|e| e.id == id) {
                continue;
            }
            // The one event at `key`: the keys after (clock, device, seq - 1) up to it (a
            // device's numbers start at 1, and no key lies between those two).
            let below = (key.0, key.1, key.2.saturating_sub(1));
            out.extend(
                log.events_between(Some(below), key)?
                    .into_iter()
                    .filter(|e| e.id == id),
            );
        }
    }
    out.sort_by_key(Envelope::order_key);
    Ok(out)
}

/// Folds the log at a moment.
pub fn state_at(m: &Moment) -> Ledger {
    let mut l = Ledger::derive_with(&m.events, &m.rulings, |_, _, _| {});
    if let Some(t) = m.now {
        // Rulings made later in the story still count, but the clock is the moment's.
        l.now = t;
    }
    l
}
