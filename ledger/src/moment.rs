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
    let hits: Vec<&Envelope> = match event_number(text) {
        Some(n) => events.iter().filter(|e| e.clock == n).collect(),
        None => {
            let t = id_digits(text)?;
            events.iter().filter(|e| e.id.named_by(&t)).collect()
        }
    };
    match hits.as_slice() {
        [one] => Ok(one),
        [] => Err(LedgerError::NoSuchEvent(text.trim().to_string())),
        many => Err(match event_number(text) {
            Some(number) => LedgerError::SharedNumber {
                number,
                ids: many.iter().map(|e| e.id.short()).collect(),
            },
            None => LedgerError::AmbiguousEvent(text.trim().to_string()),
        }),
    }
}

/// The number `log` prints before an event, when `text` gives one: `#12`, or `12` (fewer
/// than six digits; six or more read as the end of an id). It is the event's Lamport clock:
/// part of what its device signed, so it never changes, whatever a sync brings; two devices
/// that recorded offline may share one, and then the id tells them apart.
pub fn event_number(text: &str) -> Option<u64> {
    let t = text.trim();
    match t.strip_prefix('#') {
        Some(n) => n.parse().ok(),
        None if t.len() < 6 && !t.is_empty() && t.chars().all(|c| c.is_ascii_digit()) => {
            t.parse().ok()
        }
        None => None,
    }
}

/// The events numbered `n` (see [`event_number`]), through the order index.
fn numbered(log: &impl leechbook_store::ReadLog, n: u64) -> Result<Vec<Envelope>, LedgerError> {
    let top = leechbook_core::ids::DeviceId(uuid::Uuid::max());
    let below = (n.saturating_sub(1), top, u64::MAX);
    Ok(log
        .events_between((n > 0).then_some(below), (n, top, u64::MAX))?
        .into_iter()
        .filter(|e| e.clock == n)
        .collect())
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
    if let Some(cut) = Cut::of(spec)? {
        let kept: Vec<Envelope> = events.iter().filter(|e| cut.keeps(e)).cloned().collect();
        return Ok(Moment {
            rulings: Rulings::from_cut(&kept, &Rulings::from_log(events)),
            events: kept,
            now: match cut {
                Cut::Day(t) => Some(t),
                Cut::Wall(_) => None,
            },
            label: cut.label(),
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

/// [`moment`] read from the store, holding only the moment's events (a campaign or wall time
/// keeps the events it cuts as the log is read; an event is the log up to it, read through
/// the order index; a late moment still holds most of the log). The same moment as
/// [`moment`] of the whole log.
pub fn moment_of(log: &impl leechbook_store::ReadLog, spec: &str) -> Result<Moment, LedgerError> {
    let spec = spec.trim();
    if let Some(cut) = Cut::of(spec)? {
        let roster = leechbook_core::roster::Roster::from_log(&log.roster_events()?);
        let whole = Rulings::from_log_under(&log.rulings_and_targets()?, &roster);
        let mut kept: Vec<Envelope> = Vec::new();
        log.for_each_event(|e| {
            if cut.keeps(&e) {
                kept.push(e);
            }
            Ok(())
        })?;
        return Ok(Moment {
            rulings: Rulings::from_cut(&kept, &whole),
            events: kept,
            now: match cut {
                Cut::Day(t) => Some(t),
                Cut::Wall(_) => None,
            },
            label: cut.label(),
        });
    }
    let key = event_key(log, spec)?;
    let upto = log.events_between(None, key)?;
    let label = match upto.last() {
        Some(e) => format!("event {}", e.id.short()),
        None => return Err(LedgerError::NoSuchEvent(spec.to_string())),
    };
    Ok(Moment {
        rulings: Rulings::from_log(&upto),
        events: upto,
        now: None,
        label,
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
    if let Some(n) = event_number(spec) {
        return match numbered(log, n)?.as_slice() {
            [one] => Ok(one.order_key()),
            [] => Err(LedgerError::NoSuchEvent(spec.trim().to_string())),
            many => Err(LedgerError::SharedNumber {
                number: n,
                ids: many.iter().map(|e| e.id.short()).collect(),
            }),
        };
    }
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
/// the total order, with the roster's events (which say who may rule). Found through the
/// store's indexes: a ruling at a million events reads a few thousand events, not the log.
pub fn ruling_context(
    log: &impl leechbook_store::ReadLog,
    spec: &str,
) -> Result<Vec<Envelope>, LedgerError> {
    let mut out = log.rulings_and_targets()?;
    for e in log.roster_events()? {
        if !out.iter().any(|o| o.id == e.id) {
            out.push(e);
        }
    }
    if let Some(n) = event_number(spec) {
        for e in numbered(log, n)? {
            if !out.iter().any(|o| o.id == e.id) {
                out.push(e);
            }
        }
    } else if let Ok(t) = id_digits(spec) {
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

/// The state at a moment given as a campaign time or a wall time, and the moment in words,
/// read from the log as it streams: the same state as [`state_at`] of [`moment`], but the
/// log is never held whole (the cut's rulings in force and roster come from the rulings,
/// their targets and the roster's events, found by kind; the log is decoded on one thread
/// and the cut folded on another: `checkpoint::stream`). None when `spec` names an event, which a checkpoint
/// serves (`checkpoint::state_for_upto`).
pub fn state_at_time(
    log: &impl leechbook_store::ReadLog,
    spec: &str,
) -> Result<Option<(Ledger, String)>, LedgerError> {
    Ok(states_at_times(log, &[spec])?.and_then(|mut v| v.pop()))
}

/// The characters `names` at a moment given as a campaign time or a wall time, and the
/// moment in words: from a checkpoint and the stretch of the log after it that can hold the
/// moment's events ([`state_from_checkpoint`]), when one serves; else as the log streams
/// ([`state_at_time`]). None when `spec` names an event. The characters named and the clock
/// are exactly those of [`state_at`] of [`moment`]; a view of them reads nothing else of it.
pub fn state_for_at_time(
    log: &impl leechbook_store::ReadLog,
    names: &[&str],
    spec: &str,
) -> Result<Option<(Ledger, String)>, LedgerError> {
    if let Some(served) = state_from_checkpoint(log, names, spec)? {
        return Ok(Some(served));
    }
    state_at_time(log, spec)
}

/// The characters `names` at a moment given as a campaign time or a wall time, read as a
/// view of them needs, and the moment in words; None when `spec` names an event or no
/// checkpoint serves (then the moment is folded as the log streams: [`state_at_time`]).
///
/// The checkpoint is the latest all of whose events that changed anything the moment keeps:
/// for a campaign time, the latest whose clock is at most the time (the events it folds
/// that did not change anything, void or struck, change nothing left out either); for a
/// wall time, the latest whose every event was recorded by then (the store keeps each
/// checkpoint's latest wall time). The moment's other events lie after it, up to the first
/// checkpoint after which every event lies beyond the moment (the store keeps each
/// checkpoint's earliest campaign and wall times after it), or the log's end: only that
/// stretch is read, and only its events about the characters or about no character are
/// decoded and stepped (`checkpoint::step_stretch`, as `checkpoint::state_for_upto` does,
/// with the rulings in force over the stretch, which are all in it). Not served, as there:
/// an event of the stretch that touches a character named and one not named, a roster
/// change, an exchange or a shot among the characters named (its outcome reads the clock
/// other characters' events move), a roster that the moment would see otherwise than the
/// checkpoint did, and (for a wall time, whose clock is the latest campaign time applied) a
/// ruling on another character's event that only the whole record can judge.
pub fn state_from_checkpoint(
    log: &impl leechbook_store::ReadLog,
    names: &[&str],
    spec: &str,
) -> Result<Option<(Ledger, String)>, LedgerError> {
    use crate::checkpoint::{checkpoint_head, multi, step_stretch, view_from};
    use leechbook_core::fold::FOLD_VERSION;
    let Some(cut) = Cut::of(spec)? else {
        return Ok(None);
    };
    let all = log.snapshot_heads()?;
    let heads: Vec<&leechbook_store::SnapshotHead> = all
        .iter()
        .filter(|h| h.fold_version == FOLD_VERSION)
        .collect();
    // Whether the moment keeps every event a checkpoint folds that changed anything: true
    // of the earlier checkpoints, false of the later (latest first here), so the list is
    // halved, decoding a few heads for a campaign time and none for a wall time (the head
    // of the one found is kept).
    let (mut lo, mut hi) = (0, heads.len());
    let mut found = None;
    while lo < hi {
        let mid = (lo + hi) / 2;
        let (kept, top) = match cut {
            Cut::Day(t) => match checkpoint_head(log, heads[mid].position)? {
                Some(top) => (top.now <= t, Some(top)),
                None => return Ok(None),
            },
            Cut::Wall(w) => (heads[mid].latest_wall_upto_ms <= w.timestamp_millis(), None),
        };
        if kept {
            found = Some((heads[mid], top));
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    let Some((head, top)) = found else {
        return Ok(None);
    };
    let top = match top {
        Some(top) => top,
        None => match checkpoint_head(log, head.position)? {
            Some(top) => top,
            None => return Ok(None),
        },
    };
    let rostered = log.roster_events()?;
    let seen: Vec<Envelope> = rostered.iter().filter(|e| cut.keeps(e)).cloned().collect();
    if leechbook_core::roster::Roster::from_log(&seen) != top.roster
        || leechbook_core::roster::Roster::from_log(&rostered) != top.roster
    {
        return Ok(None);
    }
    let Some((ids, mut ledger)) = view_from(log, head.position, &top, names)? else {
        return Ok(None);
    };
    // Every event after the first checkpoint past this one that is beyond the moment lies
    // beyond it.
    const END: leechbook_store::OrderKey = (
        i64::MAX as u64,
        leechbook_core::ids::DeviceId(uuid::Uuid::max()),
        i64::MAX as u64,
    );
    let beyond = |h: &leechbook_store::SnapshotHead| match cut {
        Cut::Day(t) => h.earliest_after > t,
        Cut::Wall(w) => h.earliest_wall_after_ms > w.timestamp_millis(),
    };
    let upto = all
        .iter()
        .rev()
        .find(|h| h.position > head.position && h.last > head.last && beyond(h))
        .map_or(END, |h| h.last);
    let (tail, skipped) = log.tail_for(head.last, upto, &ids, multi())?;
    let tail: Vec<Envelope> = tail.into_iter().filter(|e| cut.keeps(e)).collect();
    let Some(mut stretch) = step_stretch(&mut ledger, &ids, tail, skipped) else {
        return Ok(None);
    };
    match cut {
        // Rulings made later in the story still count, but the clock is the moment's.
        Cut::Day(t) => ledger.now = t,
        // The latest campaign time applied: the other characters' events of the moment
        // count unless a ruling struck them.
        Cut::Wall(w) => {
            let w = w.timestamp_millis();
            stretch.keep_skipped(|s| s.wall_ms <= w);
            match stretch.clock(ledger.now) {
                Some(now) => ledger.now = now,
                None => return Ok(None),
            }
        }
    }
    Ok(Some((ledger, cut.label())))
}

/// [`state_at_time`] of several moments in one read of the log (`diff`'s two); None when
/// any names an event.
pub fn states_at_times(
    log: &impl leechbook_store::ReadLog,
    specs: &[&str],
) -> Result<Option<Vec<(Ledger, String)>>, LedgerError> {
    let mut cuts = Vec::with_capacity(specs.len());
    for spec in specs {
        match Cut::of(spec)? {
            Some(c) => cuts.push(c),
            None => return Ok(None),
        }
    }
    let ruled = log.rulings_and_targets()?;
    let rostered = log.roster_events()?;
    let whole =
        Rulings::from_log_under(&ruled, &leechbook_core::roster::Roster::from_log(&rostered));
    let mut folds: Vec<(Ledger, Rulings)> = Vec::with_capacity(cuts.len());
    for cut in &cuts {
        let mine: Vec<Envelope> = ruled.iter().filter(|e| cut.keeps(e)).cloned().collect();
        let mut ledger = Ledger::new();
        let roster: Vec<Envelope> = rostered.iter().filter(|e| cut.keeps(e)).cloned().collect();
        ledger.roster = leechbook_core::roster::Roster::from_log(&roster);
        let rulings = Rulings::from_cut_under(&mine, &whole, &ledger.roster);
        folds.push((ledger, rulings));
    }
    let folds = crate::checkpoint::stream(log, folds, |folds, e| {
        for (cut, (ledger, rulings)) in cuts.iter().zip(folds.iter_mut()) {
            if cut.keeps(e) {
                ledger.step(e, rulings, &mut |_, _, _| {});
            }
        }
    })?;
    Ok(Some(
        folds
            .into_iter()
            .zip(cuts)
            .map(|((mut ledger, _), cut)| {
                if let Cut::Day(t) = cut {
                    // Rulings made later in the story still count, but the clock is the
                    // moment's.
                    ledger.now = t;
                }
                (ledger, cut.label())
            })
            .collect(),
    ))
}

/// A moment given as a time, and the cut of the log it makes (as [`moment`] makes it).
#[derive(Clone, Copy)]
enum Cut {
    /// Every event that happened by then in the story, and every ruling on an event.
    Day(CampaignTime),
    /// Every event recorded by then by the recording devices' clocks.
    Wall(chrono::DateTime<chrono::Utc>),
}

impl Cut {
    /// The cut `spec` names; None when it names an event.
    fn of(spec: &str) -> Result<Option<Cut>, LedgerError> {
        let spec = spec.trim();
        if spec.to_ascii_lowercase().starts_with("day") {
            let t =
                CampaignTime::parse(spec).map_err(|_| LedgerError::NotAMoment(spec.to_string()))?;
            return Ok(Some(Cut::Day(t)));
        }
        Ok(chrono::DateTime::parse_from_rfc3339(spec)
            .ok()
            .map(|w| Cut::Wall(w.with_timezone(&chrono::Utc))))
    }

    fn keeps(&self, e: &Envelope) -> bool {
        match self {
            Cut::Day(t) => {
                e.at <= *t || matches!(&e.event, Event::Ruling(r) if r.target().is_some())
            }
            Cut::Wall(w) => e.wall <= *w,
        }
    }

    fn label(&self) -> String {
        match self {
            Cut::Day(t) => format!("campaign time {t}"),
            Cut::Wall(w) => format!("wall time {}", w.to_rfc3339()),
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use leechbook_core::ids::CampaignId;
    use leechbook_store::memory::MemoryLog;
    use leechbook_store::{ReadLog, WriteLog};

    /// A campaign-time or wall-time moment read from the streamed log is the moment cut from
    /// the whole log and folded (the definition), label included, on a campaign with rulings,
    /// a roster, and events recorded out of the story's order and of the wall clock's.
    #[test]
    fn a_moment_read_from_the_stream_is_the_moment_folded() {
        let mut events = leechbook_core::synthetic::campaign(8_000);
        let epoch = chrono::DateTime::<chrono::Utc>::UNIX_EPOCH;
        for (i, e) in events.iter_mut().enumerate() {
            e.wall = epoch + chrono::Duration::seconds(i as i64);
            if i % 997 == 500 {
                // An offline device's event, entered days after it happened, and its clock.
                e.at = CampaignTime((e.at.0 - 3 * 86_400).max(0));
                e.wall = epoch + chrono::Duration::seconds(i as i64 + 5_000);
            }
        }
        let mut log = MemoryLog::new(CampaignId(uuid::Uuid::from_u128(1)));
        log.import(&events).unwrap();
        let events = log.events().unwrap();
        let last = events.last().unwrap().at.0 / 86_400;
        let mut specs: Vec<String> = [1, 2, last / 3, last / 2, last, last + 5]
            .iter()
            .map(|d| format!("day {d}"))
            .collect();
        specs.push(format!("day {} 08:00", last / 2));
        for s in [10, 3_000, 7_999] {
            specs.push((epoch + chrono::Duration::seconds(s)).to_rfc3339());
        }
        for spec in &specs {
            let (streamed, label) = state_at_time(&log, spec).unwrap().unwrap();
            let m = moment(&events, spec).unwrap();
            assert_eq!(label, m.label);
            assert!(streamed == state_at(&m), "the state at {spec}");
        }
        // Several moments in one read of the log: each is its own cut.
        let all: Vec<&str> = specs.iter().map(String::as_str).collect();
        let together = states_at_times(&log, &all).unwrap().unwrap();
        assert_eq!(together.len(), specs.len());
        for ((l, label), spec) in together.iter().zip(&specs) {
            let m = moment(&events, spec).unwrap();
            assert_eq!(label, &m.label);
            assert!(
                l == &state_at(&m),
                "the state at {spec}, read with the others"
            );
        }
        // The moment read from the store holds the same events, clock and label, and folds
        // to the same state (its rulings), for an event given by its id too.
        let some = events[100].id.0.simple().to_string();
        let short = events[4_321].id.0.simple().to_string()[24..].to_string();
        for spec in specs.iter().chain([&some, &short]) {
            let (held, read) = (
                moment(&events, spec).unwrap(),
                moment_of(&log, spec).unwrap(),
            );
            assert_eq!(read.label, held.label);
            assert_eq!(read.now, held.now);
            assert!(read.events == held.events, "the events of {spec}");
            assert!(state_at(&read) == state_at(&held), "the state at {spec}");
        }
        assert!(matches!(
            moment_of(&log, "not a moment"),
            Err(LedgerError::NotAMoment(_))
        ));
        assert!(matches!(
            moment_of(&log, "ffffffffffff"),
            Err(LedgerError::NoSuchEvent(_))
        ));
        assert!(state_at_time(&log, &some).unwrap().is_none(), "an event id");
        assert!(states_at_times(&log, &["day 3", &some]).unwrap().is_none());
    }
}
