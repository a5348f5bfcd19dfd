//! Why an injury is as it is: the chain of events, rules (by the book's sequence and step)
//! and rulings that produced its state, from the strike to today, with the audit's flags.
//! What `why` prints.

use crate::history::{about, concerns, Before};
use crate::StoryError;
use leechbook_core::fold::{CharacterState, Fate, Ledger};
use leechbook_core::harnmaster::healing::{self, SeqRollKind};
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::ids::{CharacterId, EventId, InjuryId};
use leechbook_core::ruling::Ruling;
use leechbook_core::HmLedger;
use leechbook_core::{Envelope, Event};
use leechbook_ledger::audit::flags_from;
use leechbook_ledger::lookup::{self, Lookup};
use leechbook_ledger::Replica;
use leechbook_store::Log;
use leechbook_views::{marks, narrate, JSON_SCHEMA};
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
            HmEvent::Melee(_) | HmEvent::NaturalMelee(_) => "Melee Sequence, then Injury steps 1-5",
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
        other => match other.kind() {
            "sw.damage" => "Damage vs Toughness (004 l.10-20)",
            "sw.spirit-recovery" => "Spirit roll to end Shaken (004 l.19)",
            "sw.incapacitation" => "Incapacitation (004 l.22-46)",
            "sw.bleeding-out" => "Bleeding Out: Vigor (004 l.48-50)",
            "sw.stabilise" => "Bleeding Out: Healing (004 l.50)",
            "sw.wounds-healed" => "Wounds healed (the GM's ruling)",
            "wg.damage" => "Damage: Resilience, Wounds, Shock",
            "wg.dying-complication" => "Dying: a Wrath Die complication",
            "wg.regroup" | "wg.respite" => "Rest: Regroup or Respite",
            "wg.medicae" => "Regroup: a healer's Medicae (002 l.63)",
            "wg.restore-shock" => "Restoring Shock",
            "wi.quarrel" => "Quarrel: Net Hits, Net Damage",
            "wi.injure" => "Injury tables: Net Damage",
            "wi.end-of-round" => "End of round: Aflame, Bleed, Poison",
            "wi.condition" => "Conditions",
            "wi.care" => "Healing and Surgery",
            _ => "",
        },
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
        _ => Err(lookup::no_injury(ch, text)),
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
    /// The injury's id (a HârnMaster injury's chain only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub injury: Option<String>,
    /// What the chain explains, in words (`Osric's injury 1a2b3c4d`, `Red`, `Red's
    /// Bleeding Out`).
    #[serde(skip)]
    pub heading: String,
    /// The injury (or the character's state, or the marks named) now, in a line.
    pub now: String,
    /// The rulings about the chain's events.
    pub rulings: Vec<Link>,
    /// The JSON schema version.
    pub schema_version: u32,
    /// Always `why`.
    #[serde(rename = "type")]
    pub ty: &'static str,
}

/// Why `name` is as they are: for a HârnMaster character and an injury (its id or short
/// id; a retracted injury's too), that injury's chain; otherwise, for a character of any
/// system, the chain of the events that changed its state, or of those that changed the
/// marks `what` names (`Bleeding Out`, `wounds`, `rib cage`: see [`marks`]).
pub fn why<L: Log>(
    replica: &Replica<L>,
    name: &str,
    what: Option<&str>,
) -> Result<Why, StoryError> {
    // The character now, and the events about it and those its story reads: never the
    // whole log (`leechbook_ledger::about`).
    let full = replica.state_for(&[name])?;
    match (lookup::character(&full, name)?, what) {
        (CharacterState::HarnMaster(ch), Some(injury))
            if lookup::injury(ch, injury).is_ok() || !names_a_mark(&full, ch.id, injury) =>
        {
            let ch = ch.clone();
            injury_chain(replica, &full, ch, injury)
        }
        (c, what) => {
            let (who, name) = (c.id(), c.name().to_string());
            state_chain(replica, &full, who, name, what)
        }
    }
}

/// Whether `text` names one of the marks of the character `who` (rather than an injury).
fn names_a_mark(full: &Ledger, who: CharacterId, text: &str) -> bool {
    full.character(who)
        .is_some_and(|c| marks::of(c).iter().any(|m| wanted(Some(text), &m.what)))
}

/// Whether a mark's name is one `what` asks for (all when none is named).
fn wanted(what: Option<&str>, mark: &str) -> bool {
    what.is_none_or(|w| mark.to_lowercase().contains(&w.trim().to_lowercase()))
}

/// The chain of the events that changed the marks of `who` (those `what` names, if it names
/// any), each with the rule it applies, what it changed and the rulings on it.
fn state_chain<L: Log>(
    replica: &Replica<L>,
    full: &Ledger,
    who: CharacterId,
    name: String,
    what: Option<&str>,
) -> Result<Why, StoryError> {
    let gathered = leechbook_ledger::about::about(replica.store(), who)?;
    let mut ledger = gathered.from_start();
    let leechbook_ledger::about::About {
        events, rulings, ..
    } = gathered;
    let number_of = |id: EventId| number_in(&events, id);
    let mut chain: Vec<Link> = Vec::new();
    let mut ids: Vec<EventId> = Vec::new();
    for env in &events {
        let told = about(env, &rulings, who);
        let before = if told {
            ledger.character(who).map(marks::of).unwrap_or_default()
        } else {
            Vec::new()
        };
        ledger.step(
            env,
            &rulings,
            &mut |l: &Ledger, e: &Envelope, fate: &Fate| {
                if !told {
                    return;
                }
                let after = l.character(who).map(marks::of).unwrap_or_default();
                let changed: Vec<String> = marks::changes(&before, &after)
                    .into_iter()
                    .filter(|c| wanted(what, c))
                    .collect();
                let amended = rulings.amended.get(&e.id);
                let summary = match fate {
                    // An event that changed nothing asked for is left out, unless a ruling
                    // amended it (the ruling is part of why things stand as they do).
                    Fate::Applied(_) if changed.is_empty() && amended.is_none() => return,
                    Fate::Applied(applied) => {
                        let mut s = narrate::event(l, e, applied);
                        if let Some(by) = narrate::by_player(full, e) {
                            s.push_str(&format!(" ({by})"));
                        }
                        s
                    }
                    // What no longer counts is told: it says why a mark is not there.
                    Fate::Retracted(why) => format!(
                        "struck from the record ({why}): {}",
                        crate::log::struck_text(l, e)
                    ),
                    Fate::Void(why) => format!("void ({why}): {}", crate::log::struck_text(l, e)),
                };
                let mut flags = Vec::new();
                if let Some((r, _, reason)) = amended {
                    flags.push(format!("amended by ruling #{} ({reason})", number_of(*r)));
                }
                ids.push(e.id);
                chain.push(Link {
                    at: e.at.to_string(),
                    event: e.id.to_string(),
                    kind: e.event.kind(),
                    rule: rule(&e.event),
                    summary,
                    flags,
                    consequences: changed,
                });
            },
        );
    }
    let now: Vec<String> = full
        .character(who)
        .map(marks::of)
        .unwrap_or_default()
        .into_iter()
        .filter(|m| wanted(what, &m.what))
        .map(|m| match m.value.as_str() {
            "yes" => m.what,
            v => format!("{}: {v}", m.what),
        })
        .collect();
    let moved = chain.iter().any(|l| !l.consequences.is_empty());
    if let (Some(w), false, true) = (what, moved, now.is_empty()) {
        let all: Vec<String> = full
            .character(who)
            .map(marks::of)
            .unwrap_or_default()
            .into_iter()
            .map(|m| m.what)
            .collect();
        return Err(StoryError::NoSuchMark {
            character: name,
            what: w.trim().to_string(),
            now: if all.is_empty() {
                "nothing".into()
            } else {
                all.join(", ")
            },
        });
    }
    Ok(Why {
        rulings: rulings_about(&events, &rulings, &ids, &chain),
        chain,
        heading: match what {
            Some(w) => format!("{name}'s {}", w.trim()),
            None => name.clone(),
        },
        character: name,
        injury: None,
        now: if now.is_empty() {
            "now: nothing of that on the record".into()
        } else {
            format!("now: {}", now.join("; "))
        },
        schema_version: JSON_SCHEMA,
        ty: "why",
    })
}

/// The number `log` gives the event `id` among `events` (its clock), for a ruling named
/// in a chain.
fn number_in(events: &[Envelope], id: EventId) -> u64 {
    events.iter().find(|e| e.id == id).map_or(0, |e| e.clock)
}

/// The chain of a HârnMaster character's injury `injury`.
fn injury_chain<L: Log>(
    replica: &Replica<L>,
    full: &Ledger,
    ch: leechbook_core::harnmaster::state::HmCharacter,
    injury: &str,
) -> Result<Why, StoryError> {
    let store = replica.store();
    // A wound the character holds or filed is told from its stretch of the story: from the
    // checkpoint before the event that inflicted it (its id is that event's) to where the
    // archive filed it for good, as `history` tells it; one struck from the record (found
    // by its strike among the events) from the whole story.
    let (start, gathered, injury) = match lookup::injury(&ch, injury) {
        Ok(id) => {
            // In one read transaction: the archive, the record's fates and the stretch agree.
            let read = store.read().map_err(leechbook_ledger::LedgerError::from)?;
            let (start, gathered) = leechbook_ledger::about::stretch(&read, ch.id, EventId(id.0))?;
            (start, gathered, id)
        }
        Err(_) => {
            let gathered = leechbook_ledger::about::about(store, ch.id)?;
            let id = injury_id(&gathered.events, &ch, injury)?;
            (gathered.from_start(), gathered, id)
        }
    };
    let leechbook_ledger::about::About {
        events, rulings, ..
    } = gathered;
    let number_of = |id: EventId| number_in(&events, id);
    let mut chain: Vec<Link> = Vec::new();
    let mut ids: Vec<EventId> = Vec::new();
    let mut ledger = start.clone();
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
                                if let Some(by) = narrate::by_player(full, e) {
                                    s.push_str(&format!(" ({by})"));
                                }
                                s
                            }),
                        )
                    }
                    // What no longer counts keeps its words, marked with the reason.
                    Fate::Retracted(why) => (
                        e.id.0 == injury.0 || e.event.injury() == Some(injury),
                        Some(format!(
                            "struck from the record ({why}): {}",
                            crate::log::struck_text(l, e)
                        )),
                    ),
                    Fate::Void(why) => (
                        e.event.injury() == Some(injury),
                        Some(format!("void ({why}): {}", crate::log::struck_text(l, e))),
                    ),
                };
                if let (true, Some(summary)) = (keep, summary) {
                    // The audit's flags come first; they are added below, once the chain
                    // is known (the audit keeps only its events' outcomes).
                    let mut fl = Vec::new();
                    if let Some((r, _, reason)) = rulings.amended.get(&e.id) {
                        fl.push(format!("amended by ruling #{} ({reason})", number_of(*r)));
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
    let flags = flags_from(&start, &events, |id| told.contains(id));
    for (link, id) in chain.iter_mut().zip(&ids) {
        if let Some(f) = flags.get(id) {
            link.flags.splice(0..0, f.iter().cloned());
        }
    }
    // The rulings about those events, and the injury now.
    let about = rulings_about(&events, &rulings, &ids, &chain);
    let now = injury_now(full, ch.id, injury);
    Ok(Why {
        chain,
        heading: format!("{}'s {} wound", ch.name, ch.injury_name(injury)),
        character: ch.name.clone(),
        injury: Some(injury.to_string()),
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
    chain: &[Link],
) -> Vec<Link> {
    // A ruling names its target as `log` does: its number and the chain's words for it.
    let told = |target: EventId| {
        let env = events.iter().find(|e| e.id == target)?;
        let link = chain.iter().find(|l| l.event == target.to_string())?;
        // A struck or void link's words without its mark: the ruling says the mark.
        let summary = if link.summary.starts_with("struck from the record (")
            || link.summary.starts_with("void (")
        {
            link.summary
                .split_once("): ")
                .map_or(link.summary.clone(), |(_, rest)| rest.to_string())
        } else {
            link.summary.clone()
        };
        Some(narrate::Told {
            number: env.clock,
            summary,
        })
    };
    events
        .iter()
        .filter_map(|e| match &e.event {
            Event::Ruling(r) if r.target().is_some_and(|t| ids.contains(&t)) => Some(Link {
                at: e.at.to_string(),
                event: e.id.to_string(),
                kind: e.event.kind(),
                rule: "ruling",
                summary: narrate::ruling(r, "", r.target().and_then(told).as_ref()),
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
