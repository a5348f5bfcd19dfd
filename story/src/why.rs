//! Why an injury is as it is: the chain of events, rules (by the book's sequence and step)
//! and rulings that produced its state, from the strike to today, with the audit's flags.
//! What `why` prints.

use crate::history::{about, concerns, Before};
use crate::StoryError;
use leechbook_core::fold::{CharacterState, Fate, Ledger};
use leechbook_core::harnmaster::healing::{self, SeqRollKind};
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::ids::{EventId, InjuryId};
use leechbook_core::ruling::Ruling;
use leechbook_core::HmLedger;
use leechbook_core::{Envelope, Event};
use leechbook_ledger::audit::flags_for;
use leechbook_ledger::lookup::{self, Lookup};
use leechbook_ledger::Replica;
use leechbook_store::Log;
use leechbook_views::{narrate, JSON_SCHEMA};
use serde::Serialize;

/// One link of the chain.
#[derive(Serialize)]
pub struct Link {
    /// Campaign time.
    pub at: String,
    /// The event.
    pub event: String,
    /// The event's kind.
    pub kind: &'static str,
    /// The rule it applies.
    pub rule: &'static str,
    /// What happened (or why it no longer counts).
    pub summary: String,
    /// What rulings changed about it.
    pub flags: Vec<String>,
    /// What it did to the character that the table must hear (a death, a Shock State ...).
    pub consequences: Vec<String>,
}

/// The rule an event applies, by the book's sequence and step.
pub fn rule(e: &Event) -> &'static str {
    match e {
        Event::HarnMaster(h) => match h {
            HmEvent::Strike(_) => "Injury Sequence steps 1-5",
            HmEvent::Melee(_) => "Melee Sequence, then Injury steps 1-5",
            HmEvent::Shot(_) => "Missile Sequence, then Injury steps 1-5",
            HmEvent::ShockReroll(_) => "Injury step 4: Shock Reroll",
            HmEvent::StunRecovery(_) => "Injury step 4: STN",
            HmEvent::GmRoll(_) => "Injury step 5: Morale or mishap (GM resolves)",
            HmEvent::BloodStoppage(_) => "Healing step 1: Blood Stoppage Roll",
            HmEvent::Treatment(_) => "Healing step 5: TREATMENT ROLL tables",
            HmEvent::HealerAttends(_) => "Healing steps 2 and 7: healer bonus",
            HmEvent::Fatigue(_) => "Healing steps 2-3: fatigue (the GM records it)",
            HmEvent::MoveTest(_) => "Healing step 8: aggravation option, moving",
            HmEvent::SeqRoll(r) => match r.kind {
                SeqRollKind::BloodLoss => "Healing step 1: Blood Loss Advance Roll",
                SeqRollKind::ExtendedShock => "Healing step 2: Extended Shock",
                SeqRollKind::Coma => "Healing step 3: coma",
                SeqRollKind::Healing | SeqRollKind::HealingPeriod => "Healing step 6: Healing Roll",
                SeqRollKind::BloodRegeneration => "Healing step 6: blood regeneration",
                SeqRollKind::Infection => "Healing step 7: infection",
                SeqRollKind::GrimShock => "Healing step 5: grim wound",
                SeqRollKind::Aggravation => "Healing step 8: aggravation option",
            },
            _ => "campaign setting",
        },
        Event::Ruling(_) => "ruling",
        _ => "",
    }
}

/// Finds the injury: a current one by id, or any strike's id (a retracted injury).
fn injury_id(
    events: &[Envelope],
    ch: &leechbook_core::harnmaster::state::HmCharacter,
    text: &str,
) -> Result<InjuryId, Lookup> {
    if let Ok(id) = lookup::injury(ch, text) {
        return Ok(id);
    }
    let t = text.trim().to_ascii_lowercase().replace('-', "");
    let hits: Vec<&Envelope> = events
        .iter()
        .filter(|e| matches!(&e.event, Event::HarnMaster(HmEvent::Strike(s)) if s.target == ch.id))
        .filter(|e| t.len() >= 4 && e.id.0.simple().to_string().ends_with(&t))
        .collect();
    match hits.as_slice() {
        [one] => Ok(InjuryId(one.id.0)),
        _ => Err(Lookup::NoInjury {
            character: ch.name.clone(),
            text: text.to_string(),
        }),
    }
}

/// Why an injury is as it is: the chain of events, rules and rulings that produced it.
/// Serialised, its keys are sorted at every level (the shape `why --json` has always had).
#[derive(Serialize)]
pub struct Why {
    /// The chain, in the fold's order.
    pub chain: Vec<Link>,
    /// The character.
    pub character: String,
    /// The injury's id.
    pub injury: String,
    /// The same, typed.
    #[serde(skip)]
    pub injury_id: InjuryId,
    /// The injury now, in a line.
    pub now: String,
    /// The rulings about the chain's events.
    pub rulings: Vec<Link>,
    /// The JSON schema version.
    pub schema_version: u32,
    /// Always `why`.
    #[serde(rename = "type")]
    pub ty: &'static str,
}

/// The chain of `name`'s injury `injury` (its id or short id; a retracted injury's too).
pub fn why<L: Log>(replica: &Replica<L>, name: &str, injury: &str) -> Result<Why, StoryError> {
    // The character now, and the events about it and those its story reads: never the
    // whole log (`leechbook_ledger::about`).
    let full = replica.state_for(&[name])?;
    let store = replica.store();
    let ch = lookup::harnmaster(&full, name)?.clone();
    let leechbook_ledger::about::About {
        events, rulings, ..
    } = leechbook_ledger::about::about(store, ch.id)?;
    let injury = injury_id(&events, &ch, injury)?;
    let mut chain: Vec<Link> = Vec::new();
    let mut ids: Vec<EventId> = Vec::new();
    let mut ledger = Ledger::new();
    for env in &events {
        // What the chain reads of the character before an event is taken only before the
        // events that may concern it (see `Before`); every other event is stepped untold.
        let told = about(env, &rulings, ch.id);
        let before = if told {
            Before::of(ledger.character(ch.id).and_then(CharacterState::hm), injury)
        } else {
            Before::default()
        };
        let was = told
            .then(|| ledger.character(ch.id).and_then(CharacterState::hm))
            .flatten()
            .map(narrate::Condition::of);
        ledger.step(
            env,
            &rulings,
            &mut |l: &Ledger, e: &Envelope, fate: &Fate| {
                let (keep, summary) = match fate {
                    Fate::Applied(applied) => {
                        let keep = concerns(before, ch.id, applied, injury)
                            || e.event.injury() == Some(injury)
                                && matches!(e.event, Event::Ruling(_));
                        // Narrated only when told: narrating every event of a long
                        // campaign cost more than folding it.
                        (
                            keep,
                            keep.then(|| {
                                let mut s = narrate::event(l, e, applied);
                                // The roster as it stands: the story's events alone
                                // carry no roster change.
                                if let Some(by) = narrate::by_player(&full, e) {
                                    s.push_str(&format!(" ({by})"));
                                }
                                s
                            }),
                        )
                    }
                    Fate::Retracted(why) => (
                        e.id.0 == injury.0 || e.event.injury() == Some(injury),
                        Some(format!("struck from the record: {why}")),
                    ),
                    Fate::Void(why) => (
                        e.event.injury() == Some(injury),
                        Some(format!("void: {why}")),
                    ),
                };
                if let (true, Some(summary)) = (keep, summary) {
                    // The audit's flags come first; they are added below, once the chain
                    // is known (the audit keeps only its events' outcomes).
                    let mut fl = Vec::new();
                    if let Some((r, _, reason)) = rulings.amended.get(&e.id) {
                        fl.push(format!("amended by ruling {} ({reason})", r.short()));
                    }
                    ids.push(e.id);
                    let consequences = match (&was, l.character(ch.id).and_then(CharacterState::hm))
                    {
                        (Some(was), Some(now)) if matches!(fate, Fate::Applied(_)) => {
                            narrate::consequences(was, now, narrate::tells_shock(e.event.kind()))
                        }
                        _ => vec![],
                    };
                    chain.push(Link {
                        at: e.at.to_string(),
                        event: e.id.to_string(),
                        kind: e.event.kind(),
                        rule: rule(&e.event),
                        summary,
                        flags: fl,
                        consequences,
                    });
                }
            },
        );
    }
    let told: std::collections::HashSet<EventId> = ids.iter().copied().collect();
    let flags = flags_for(&events, |id| told.contains(id));
    for (link, id) in chain.iter_mut().zip(&ids) {
        if let Some(f) = flags.get(id) {
            link.flags.splice(0..0, f.iter().cloned());
        }
    }
    // The rulings about those events, and the injury now.
    let about = rulings_about(&events, &rulings, &ids);
    let now = injury_now(&full, ch.id, injury);
    Ok(Why {
        chain,
        character: ch.name.clone(),
        injury: injury.to_string(),
        injury_id: injury,
        now,
        rulings: about,
        schema_version: JSON_SCHEMA,
        ty: "why",
    })
}

/// The rulings whose target is one of the events `ids` (a void retraction or amendment so
/// flagged).
fn rulings_about(
    events: &[Envelope],
    rulings: &leechbook_core::ruling::Rulings,
    ids: &[EventId],
) -> Vec<Link> {
    events
        .iter()
        .filter_map(|e| match &e.event {
            Event::Ruling(r) if r.target().is_some_and(|t| ids.contains(&t)) => Some(Link {
                at: e.at.to_string(),
                event: e.id.to_string(),
                kind: e.event.kind(),
                rule: "ruling",
                summary: narrate::ruling(r, ""),
                consequences: vec![],
                flags: match r {
                    Ruling::Retract { .. } | Ruling::Amend { .. }
                        if rulings.void.contains_key(&e.id) =>
                    {
                        vec!["void".into()]
                    }
                    _ => vec![],
                },
            }),
            _ => None,
        })
        .collect()
}

/// The injury as the record holds it now, in a line.
fn injury_now(full: &Ledger, who: leechbook_core::ids::CharacterId, injury: InjuryId) -> String {
    match full.character(who).and_then(CharacterState::hm) {
        Some(h) => h.any_injury(injury).map(|i| {
            let tt = full.treatment_table();
            if let Some((cause, at)) = &h.death {
                return format!("{} when {} died ({cause}) at {at}", i.code(), h.name);
            }
            format!(
                "now {}{}, healing at HR{}{}",
                i.code(),
                if i.healed() { " (healed)" } else { "" },
                healing::healing_rate(i, tt),
                match healing::permanent_impairment(i, tt, full.now) {
                    0 => String::new(),
                    p => format!(", {p} permanent impairment"),
                }
            )
        }),
        None => None,
    }
    .unwrap_or_else(|| "the injury is not on the record now".into())
}
