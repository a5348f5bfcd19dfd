//! The record as `log` tells it: every event in the fold's order (up to a moment, about one
//! character), narrated, with what became of it (void, struck) and what rulings changed
//! about it since it was recorded.

use crate::StoryError;
use leechbook_core::fold::{Fate, Ledger};
use leechbook_ledger::lookup;
use leechbook_ledger::Replica;
use leechbook_store::Log;
use leechbook_views::{narrate, JSON_SCHEMA};
use serde::Serialize;

/// One event as `log --json` prints it.
#[derive(Serialize)]
pub struct EventView {
    /// Always `event`.
    #[serde(rename = "type")]
    pub ty: &'static str,
    /// The JSON schema version.
    pub schema_version: u32,
    /// The event id.
    pub id: String,
    /// The Lamport clock.
    pub clock: u64,
    /// The device.
    pub device: String,
    /// The device's sequence number.
    pub seq: u64,
    /// Campaign time.
    pub at: String,
    /// Wall time (UTC, RFC 3339).
    pub wall: String,
    /// The kind.
    pub kind: &'static str,
    /// The narration (empty for void events).
    pub summary: String,
    /// Why the event is void, if it is.
    pub void: Option<String>,
    /// Who recorded it, when a player's device did ("by Osric's player").
    pub by: Option<String>,
    /// What rulings changed about it since it was recorded.
    pub flags: Vec<String>,
    /// What it did to the characters it is about that the table must hear: a death, a
    /// Shock State, Extended Shock, a coma, an infection, a bleeder stopped, a wound healed.
    pub consequences: Vec<String>,
}

/// The log as `log` shows it (up to a moment, about one character): each event narrated,
/// with what became of it and what rulings changed about it since.
pub fn views<L: Log>(
    replica: &Replica<L>,
    character: Option<&str>,
    until: Option<&str>,
) -> Result<Vec<EventView>, StoryError> {
    // The character is found on the roll; the log is read up to the moment (only the
    // events it keeps are held).
    let head = replica.state_for(&[])?;
    let only = match character {
        Some(n) => match head.id_named(n) {
            Some(id) => Some(id),
            None => Some(lookup::character(&head, n)?.id()),
        },
        None => None,
    };
    views_of(replica, only, until)
}

/// The event `id` as `log` tells it now: its number and its words (a struck or void one's as
/// it would have applied, else what it recorded). Reads the log of the character it is about
/// (the whole log for an event about none).
pub fn told<L: Log>(
    replica: &Replica<L>,
    id: leechbook_core::ids::EventId,
) -> Result<narrate::Told, StoryError> {
    let spec = id.to_string();
    let events = leechbook_ledger::ruling_context(replica.store(), &spec)?;
    let env = leechbook_ledger::find_event(&events, &spec)?.clone();
    let about = match &env.event {
        leechbook_core::Event::CharacterAdded { .. } => {
            Some(leechbook_core::ids::CharacterId(id.0))
        }
        e => e.character(),
    };
    // An event about no character (the clock, a setting, a ruling) is told from itself: its
    // telling never reads the whole log.
    let Some(about) = about else {
        let summary = match &env.event {
            leechbook_core::Event::ClockAdvanced { to } => format!("the clock advances to {to}"),
            // A ruling names its target by its number (found through the id's index).
            leechbook_core::Event::Ruling(r) => {
                let target = r.target().and_then(|t| {
                    leechbook_ledger::moment::event_key(replica.store(), &t.to_string()).ok()
                });
                let told = target.map(|(number, _, _)| narrate::Told {
                    number,
                    summary: String::new(),
                });
                narrate::ruling_short(r, told.as_ref())
            }
            e => narrate::kind_words(e.kind()).to_string(),
        };
        return Ok(narrate::Told {
            number: env.clock,
            summary,
        });
    };
    let view = views_of(replica, Some(about), None)?
        .into_iter()
        .find(|v| v.id == id.to_string());
    Ok(narrate::Told {
        number: env.clock,
        summary: view.map_or_else(|| env.event.kind().to_string(), |v| v.summary),
    })
}

/// [`views`] of the character `only` (every event when None).
fn views_of<L: Log>(
    replica: &Replica<L>,
    only: Option<leechbook_core::ids::CharacterId>,
    until: Option<&str>,
) -> Result<Vec<EventView>, StoryError> {
    let store = replica.store();
    let (events, rulings) = match until {
        Some(spec) => {
            let m = leechbook_ledger::moment::moment_of(store, spec)?;
            (m.events, m.rulings)
        }
        // One character's log reads the events about it and those its story reads, never
        // the whole log (`leechbook_ledger::about`).
        None => match only {
            Some(id) => {
                let about = leechbook_ledger::about::about(store, id)?;
                (about.events, about.rulings)
            }
            None => {
                let events = store.events()?;
                let rulings = leechbook_core::ruling::Rulings::from_log(&events);
                (events, rulings)
            }
        },
    };
    // The events about the character: those that touch it, its joining (the character's id
    // is that event's), and every ruling on one of those (or on such a ruling), so its
    // audit shows what was retracted or amended and by whom. A ruling follows its target in
    // the total order: one pass finds them.
    let about: Option<std::collections::HashSet<leechbook_core::ids::EventId>> = only.map(|id| {
        let mut about = std::collections::HashSet::new();
        for env in &events {
            let direct = env.event.characters().contains(&id) || env.id.0 == id.0;
            let ruled = match &env.event {
                leechbook_core::Event::Ruling(r) => r.target().is_some_and(|t| about.contains(&t)),
                _ => false,
            };
            if direct || ruled {
                about.insert(env.id);
            }
        }
        about
    });
    let mut views = Vec::with_capacity(events.len());
    let mut ids = Vec::with_capacity(events.len());
    let wanted = |id: &leechbook_core::ids::EventId| about.as_ref().is_none_or(|a| a.contains(id));
    let mut watch = narrate::Watch::default();
    // What each event told, so that a ruling names its target as `log` showed it (`#12` and
    // its words), not by a hex id.
    let mut told: std::collections::HashMap<leechbook_core::ids::EventId, narrate::Told> =
        std::collections::HashMap::new();
    // Only the events some ruling names are kept so (not a copy of every line of the log).
    let targets: std::collections::HashSet<leechbook_core::ids::EventId> = events
        .iter()
        .filter_map(|e| match &e.event {
            leechbook_core::Event::Ruling(r) => r.target(),
            _ => None,
        })
        .collect();
    let mut push = |ledger: &Ledger,
                    env: &leechbook_core::Envelope,
                    fate: &Fate,
                    then: Option<&Fate>| {
        let consequences = watch.told(ledger, env);
        if about.as_ref().is_some_and(|about| !about.contains(&env.id)) {
            return;
        }
        ids.push(env.id);
        let (mut summary, void) = match fate {
            Fate::Applied(applied) => (narrate::event(ledger, env, applied), None),
            // Void since a ruling: told as it read when it was recorded.
            Fate::Void(why) => match then {
                Some(Fate::Applied(a)) => (narrate::event(ledger, env, a), Some(why.clone())),
                _ => (struck_text(ledger, env), Some(why.clone())),
            },
            Fate::Retracted(why) => (struck_text(ledger, env), Some(format!("retracted: {why}"))),
        };
        if let leechbook_core::Event::Ruling(r) = &env.event {
            let target = r.target().and_then(|t| told.get(&t));
            if target.is_some() && r.target().is_some() {
                summary = match fate {
                    Fate::Applied(_) => narrate::ruling(r, "", target),
                    // A ruling not in force changed nothing: it is named by what it was, with
                    // its reason, never by how its target reads (which is as before it).
                    _ => format!(
                        "{}{}",
                        narrate::ruling_short(r, target),
                        Some(r.reason())
                            .filter(|w| !w.is_empty())
                            .map(|w| format!(" ({w})"))
                            .unwrap_or_default()
                    ),
                };
            }
        }
        // A ruling is named by what it did, not by its whole chain of words.
        if targets.contains(&env.id) {
            let short = match &env.event {
                leechbook_core::Event::Ruling(r) => {
                    narrate::ruling_short(r, r.target().and_then(|t| told.get(&t)))
                }
                _ => summary.clone(),
            };
            told.insert(
                env.id,
                narrate::Told {
                    number: env.clock,
                    summary: short,
                },
            );
        }
        views.push(EventView {
            ty: "event",
            schema_version: JSON_SCHEMA,
            id: env.id.to_string(),
            clock: env.clock,
            device: env.device.to_string(),
            seq: env.seq,
            at: env.at.to_string(),
            wall: env.wall.to_rfc3339(),
            kind: env.event.kind(),
            summary,
            void,
            by: narrate::by_player(ledger, env),
            flags: Vec::new(),
            consequences,
        });
    };
    let flags = match until {
        // A moment's record is told under the rulings judged against the whole log; its
        // flags, under the rulings made by then.
        Some(_) => {
            let flags = leechbook_ledger::audit::flags_for(&events, wanted);
            Ledger::derive_with(&events, &rulings, |l, e, f| push(l, e, f, None));
            flags
        }
        // The record now is folded once: told, and compared with what was recorded.
        None => leechbook_ledger::audit::flags_observed(&events, wanted, &mut push),
    };
    for (v, id) in views.iter_mut().zip(&ids) {
        if let Some(f) = flags.get(id) {
            v.flags = f.clone();
        }
    }
    Ok(views)
}

/// What a struck or void event says, kept for the audit: its narration as it would have
/// applied at its place (a struck event usually would), else its kind and whom it is about.
pub(crate) fn struck_text(ledger: &Ledger, env: &leechbook_core::Envelope) -> String {
    match ledger.check(env) {
        Ok(applied) => narrate::event(ledger, env, &applied),
        Err(_) => {
            let who: Vec<&str> = env
                .event
                .characters()
                .into_iter()
                .filter_map(|c| ledger.name_of(c))
                .collect();
            // The dice and inputs it recorded, by name: what the GM typed, told.
            let recorded: Vec<String> = leechbook_ledger::rulings::fields_of(&env.event)
                .into_iter()
                .filter(|f| !f.now.is_empty() && f.now != "none")
                .map(|f| format!("{} {}", f.name, f.now))
                .collect();
            let recorded = if recorded.is_empty() {
                String::new()
            } else {
                format!(" ({})", recorded.join(", "))
            };
            let what = narrate::kind_words(env.event.kind());
            if who.is_empty() {
                format!("{what}{recorded}")
            } else {
                format!("{} {what}{recorded}", who.join(", "))
            }
        }
    }
}

/// The events stored after row `after`, a line each as the GM reads them (`took in #12:
/// Osric Shock Reroll 30 vs EML45: CS (by Osric's player)`), none of the device `except`'s
/// own (what it recorded it has said already), nor the campaign's creation or the roster's
/// changes. What `sync serve` prints and the board's message line says as events arrive.
pub fn arrived<L: Log>(
    replica: &Replica<L>,
    after: u64,
    except: Option<leechbook_core::ids::DeviceId>,
) -> Vec<String> {
    use leechbook_core::roster::LedgerEvent;
    let Ok((events, _)) = replica.store().events_after_row(after as i64) else {
        return Vec::new();
    };
    let head = replica.state_for(&[]).ok();
    events
        .iter()
        .filter(|e| e.event.roster_change().is_none() && !e.event.creates_campaign())
        .filter(|e| Some(e.device) != except)
        .map(|e| {
            let by = head
                .as_ref()
                .and_then(|h| narrate::by_player(h, e))
                .map(|b| format!(" ({b})"))
                .unwrap_or_default();
            match told(replica, e.id) {
                Ok(t) => format!("took in {}{by}", t.line()),
                Err(_) => format!("took in #{}: {}{by}", e.clock, e.event.kind()),
            }
        })
        .collect()
}
