//! A character's story, or one wound's: every event about it in the fold's order, each told
//! as the table heard it with what it did to the character, how the story ends, and the
//! wound's samples for its plot. What `history` prints and the players' page shows.

use crate::StoryError;
use leechbook_core::fold::{Applied, Fate, Ledger};
use leechbook_core::harnmaster::healing::Effect;
use leechbook_core::harnmaster::state::HmCharacter;
use leechbook_core::harnmaster::system::HmApplied;
use leechbook_core::ids::{CharacterId, InjuryId};
use leechbook_core::ruling::Rulings;
use leechbook_core::time::DAY;
use leechbook_core::HmLedger;
use leechbook_ledger::lookup;
use leechbook_ledger::Replica;
use leechbook_store::Log;
use leechbook_views::plot::Sample;
use leechbook_views::{self as views, narrate, JSON_SCHEMA};
use serde::Serialize;

/// One chapter of the story.
#[derive(Serialize)]
pub struct Entry {
    /// Campaign time.
    pub at: String,
    /// The campaign day.
    pub day: i64,
    /// The event's kind.
    pub kind: &'static str,
    /// The event's id.
    pub event: String,
    /// What happened.
    pub summary: String,
    /// What it did to the character that the table must hear (a death, a Shock State ...),
    /// also told at the end of `summary`.
    pub consequences: Vec<String>,
}

/// The whole story.
#[derive(Serialize)]
pub struct Story {
    /// Always `history`.
    #[serde(rename = "type")]
    pub ty: &'static str,
    /// The JSON schema version.
    pub schema_version: u32,
    /// The character.
    pub character: String,
    /// The injury, if one.
    pub injury: Option<views::InjuryView>,
    /// The chapters, in the fold's order.
    pub entries: Vec<Entry>,
    /// How the story ends, in words.
    pub ending: Option<String>,
}

fn hm(ledger: &Ledger, id: CharacterId) -> Option<&HmCharacter> {
    ledger.character(id)?.hm()
}

/// What [`concerns`] reads of a character just before an event: the injury its Shock State
/// came from, and whether the injury asked about was regenerating blood. Taken only before
/// the events that touch the character: a copy of the whole character (its archive's
/// records included) before every event made a story at a million events take minutes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Before {
    shock_injury: Option<InjuryId>,
    regenerating: bool,
}

impl Before {
    /// What `c` (None: not in the campaign yet) holds just before an event, for `injury`.
    pub fn of(c: Option<&HmCharacter>, injury: InjuryId) -> Before {
        c.map_or_else(Before::default, |c| Before {
            shock_injury: c.shock_injury,
            regenerating: c
                .any_injury(injury)
                .is_some_and(|i| i.heal.next_blood_loss > i.inflicted_at.plus(5 * 60)),
        })
    }
}

/// Whether `env` may be about the character `who`: it touches it, as recorded or as a
/// ruling amended it, or it is its joining (the character's id is that event's). A story
/// steps every other event untold.
pub fn about(env: &leechbook_core::Envelope, rulings: &Rulings, who: CharacterId) -> bool {
    env.event.touches(who)
        || env.id.0 == who.0
        || rulings
            .amended
            .get(&env.id)
            .is_some_and(|(_, e, _)| e.touches(who))
}

/// Returns whether an applied event concerns `injury` of character `who`, given what the
/// character held just before it.
pub fn concerns(before: Before, who: CharacterId, applied: &Applied, injury: InjuryId) -> bool {
    match applied.hm() {
        Some(HmApplied::Shot { outcome, .. }) => outcome.strike.as_ref().is_some_and(|(t, s)| {
            *t == who
                && (s.injury.as_ref().is_some_and(|i| i.id == injury)
                    || s.raised.is_some_and(|r| r.0 == injury))
        }),
        Some(HmApplied::Melee { outcome, .. }) => outcome.strike.as_ref().is_some_and(|(t, s)| {
            *t == who
                && (s.injury.as_ref().is_some_and(|i| i.id == injury)
                    || s.raised.is_some_and(|r| r.0 == injury))
        }),
        Some(HmApplied::Strike { target, outcome }) => {
            *target == who
                && (outcome.injury.as_ref().is_some_and(|i| i.id == injury)
                    || outcome.raised.is_some_and(|r| r.0 == injury))
        }
        Some(HmApplied::ShockRoll { character, .. }) => {
            *character == who && before.shock_injury == Some(injury)
        }
        Some(HmApplied::GmRoll { character, outcome }) => {
            *character == who && outcome.injury == Some(injury)
        }
        Some(HmApplied::Heal {
            character,
            kind,
            outcome,
        }) => {
            *character == who
                && (outcome.injury == Some(injury)
                    // A move whose CF called the injury's aggravation roll.
                    || matches!(&outcome.effect, Effect::MoveTest { aggravating, .. }
                        if aggravating.contains(&injury))
                    || match *kind {
                        "extended-shock" | "coma" => before.shock_injury == Some(injury),
                        "blood-regeneration" => before.regenerating,
                        _ => false,
                    })
        }
        _ => false,
    }
}

/// The outcome of the test an event made (S, F, CS, CF), if it made one.
fn outcome_of(applied: &leechbook_core::Applied) -> Option<&'static str> {
    match applied.hm() {
        Some(HmApplied::Heal { outcome, .. }) => outcome.test.map(|t| t.level.code()),
        Some(HmApplied::ShockRoll { outcome, .. }) => Some(outcome.test.level.code()),
        Some(HmApplied::GmRoll { outcome, .. }) => outcome.test.map(|t| t.level.code()),
        _ => None,
    }
}

/// The story of `name` (of one injury of theirs, if `injury` names one), with the wound's
/// samples for its plot: what `history` prints and the players' page shows.
pub fn story<L: Log>(
    replica: &Replica<L>,
    name: &str,
    injury: Option<&str>,
) -> Result<(Story, Vec<Sample>), StoryError> {
    // The character now, and the events about it and those its story reads: never the
    // whole log (`leechbook_ledger::about`).
    let full = replica.state_for(&[name])?;
    let store = replica.store();
    // A character of any system has a whole story; a wound's alone is HârnMaster's (its
    // injuries have ids, levels and healing rates to follow).
    let any = lookup::character(&full, name)?;
    let ch = match (any, injury) {
        (leechbook_core::CharacterState::HarnMaster(h), _) => Some(h),
        (_, None) => None,
        (other, Some(_)) => {
            return Err(lookup::Lookup::OtherSystem {
                name: other.name().to_string(),
                wanted: leechbook_core::SystemId::HarnMaster,
            }
            .into())
        }
    };
    let who = any.id();
    let injury = match (ch, injury) {
        (Some(ch), Some(i)) => Some(lookup::injury(ch, i)?),
        _ => None,
    };
    let mut entries = Vec::new();
    let mut samples: Vec<Sample> = Vec::new();
    // A wound's story begins with the event that inflicted it (its id is the wound's): told
    // from the newest checkpoint before that event.
    let step = |ledger: &mut Ledger, env: &leechbook_core::Envelope, rulings: &Rulings| {
        if !about(env, rulings, who) {
            // Not about the character: stepped, never told.
            ledger.step(env, rulings, &mut |_, _, _| {});
            return;
        }
        let before = injury.map_or_else(Before::default, |id| Before::of(hm(ledger, who), id));
        // The character as it stood, so that what the event did to it is told (a death, a
        // Shock State, Extended Shock ...), not only what the event was.
        let was = hm(ledger, who).map(narrate::Condition::of);
        ledger.step(
            env,
            rulings,
            &mut |ledger: &Ledger, env: &leechbook_core::Envelope, fate: &Fate| {
                let applied = match fate {
                    Fate::Applied(applied) => applied,
                    // What no longer counts keeps its words in the whole story, marked with
                    // the ruling's reason (a wound's story tells only what shaped it).
                    Fate::Void(why) | Fate::Retracted(why) if injury.is_none() => {
                        let mark = if matches!(fate, Fate::Retracted(_)) {
                            "STRUCK"
                        } else {
                            "VOID"
                        };
                        entries.push(Entry {
                            at: env.at.to_string(),
                            day: env.at.day(),
                            kind: env.event.kind(),
                            event: env.id.to_string(),
                            summary: format!(
                                "{mark} ({why}): {}",
                                crate::log::struck_text(ledger, env)
                            ),
                            consequences: vec![],
                        });
                        return;
                    }
                    _ => return,
                };
                let keep = match injury {
                    Some(id) => concerns(before, who, applied, id),
                    // The character's whole story: what they did and every blow they took
                    // (a melee or a shot names the attacker as its character).
                    None => true,
                };
                if keep {
                    if let (Some(id), Some(c)) = (injury, hm(ledger, who)) {
                        samples.extend(sample(ledger, c, id, env, applied));
                    }
                    let mut summary = narrate::event(ledger, env, applied);
                    if rulings.amended.contains_key(&env.id) {
                        summary.push_str(" [amended by a ruling]");
                    }
                    let consequences = match (&was, hm(ledger, who)) {
                        (Some(was), Some(now)) => {
                            narrate::consequences(was, now, narrate::tells_shock(env.event.kind()))
                        }
                        _ => vec![],
                    };
                    for c in &consequences {
                        summary.push_str(&format!("; -> {c}"));
                    }
                    entries.push(Entry {
                        at: env.at.to_string(),
                        day: env.at.day(),
                        kind: env.event.kind(),
                        event: env.id.to_string(),
                        summary,
                        consequences,
                    });
                }
            },
        );
    };
    match injury {
        // In one read transaction: the archive, the record's fates and the stretch agree.
        Some(id) => leechbook_ledger::about::replay_about_from(
            &store.read().map_err(leechbook_ledger::LedgerError::from)?,
            who,
            leechbook_core::ids::EventId(id.0),
            step,
        )?,
        None => leechbook_ledger::about::replay_about(store, who, step)?,
    };
    let (view, ending) = match ch {
        Some(ch) => ending(&full, ch, injury),
        None => (
            None,
            views::marks::death(any)
                .map(|(cause, at)| format!("{} died ({cause}) at {at}", any.name())),
        ),
    };
    let story = Story {
        ty: "history",
        schema_version: JSON_SCHEMA,
        character: any.name().to_string(),
        injury: view,
        entries,
        ending,
    };
    Ok((story, samples))
}

/// The plot's point for the injury `id` of `c` as an event left it.
fn sample(
    ledger: &Ledger,
    c: &leechbook_core::harnmaster::state::HmCharacter,
    id: InjuryId,
    env: &leechbook_core::Envelope,
    applied: &leechbook_core::Applied,
) -> Option<Sample> {
    use leechbook_core::harnmaster::healing::{healing_rate, impairment_of, permanent_impairment};
    let i = c.any_injury(id)?;
    let tt = ledger.treatment_table();
    let (imp, _) = impairment_of(i, tt, ledger.now);
    Some(Sample {
        day: env.at.0 as f64 / DAY as f64,
        level: f64::from(i.level),
        healing_rate: f64::from(healing_rate(i, tt)),
        infection: c
            .infection
            .filter(|f| f.injury == id)
            .map_or(0.0, |f| f64::from(f.healing_rate)),
        blood_loss: f64::from(c.blood_loss),
        impairment: f64::from(imp),
        permanent: f64::from(permanent_impairment(i, tt, ledger.now)),
        event: format!("{} {}", env.at, env.event.kind()),
        outcome: outcome_of(applied),
        extended_shock: c.extended_shock.is_some(),
        coma: c.coma.is_some(),
        dead: c.dead(),
    })
}

/// The injury's view and how its story ends (healed, still healing, or with a death), or
/// for the whole story, the character's death.
fn ending(
    full: &Ledger,
    ch: &leechbook_core::harnmaster::state::HmCharacter,
    injury: Option<InjuryId>,
) -> (Option<views::InjuryView>, Option<String>) {
    let who = ch.id;
    let Some(id) = injury else {
        return (
            None,
            hm(full, who)
                .and_then(|c| c.death.clone())
                .map(|(cause, at)| format!("{} died ({cause}) at {at}", ch.name)),
        );
    };
    let c = hm(full, who).and_then(|c| c.any_injury(id));
    let tt = full.treatment_table();
    let view = c.and_then(|i| {
        views::character(full, ch)
            .injuries
            .into_iter()
            .find(|v| v.id == i.id.to_string())
    });
    let died = hm(full, who).and_then(|c| c.death.clone());
    let ending = c.map(|i| match (&died, i.heal.healed_at) {
        (Some((cause, at)), _) => {
            format!("{} when {} died ({cause}) at {at}", i.code(), ch.name)
        }
        (None, Some(at)) => {
            let days = (at.0 - i.inflicted_at.0) / DAY;
            let permanent =
                leechbook_core::harnmaster::healing::permanent_impairment(i, tt, full.now);
            format!(
                "healed on day {} ({days} days after it was inflicted){}",
                at.day(),
                if permanent > 0 {
                    format!("; {permanent} permanent impairment remains")
                } else {
                    String::new()
                }
            )
        }
        (None, None) => format!(
            "{} at {}, healing at HR{}",
            i.code(),
            full.now,
            leechbook_core::harnmaster::healing::healing_rate(i, tt)
        ),
    });
    (view, ending)
}
