//! What an event did to a character that the table must hear: a death, a Shock State, the
//! start or end of Extended Shock, a coma or an infection, a bleeder stopped, a wound healed.
//! One line each, worked out by comparing the character before and after the event, so no
//! rule has to remember to announce itself.

use leechbook_core::fold::{CharacterState, Ledger};
use leechbook_core::harnmaster::state::{Coma, ExtendedShock, HmCharacter, Infection, ShockState};
use leechbook_core::ids::{CharacterId, InjuryId};
use leechbook_core::{Envelope, Event};
use std::collections::HashMap;

/// The condition each character was left in by the last event about it, so that a record
/// read in order tells each consequence where it happens (`log`, its `--json`).
#[derive(Default)]
pub struct Watch {
    last: HashMap<CharacterId, Condition>,
}

impl Watch {
    /// What `env` (just folded into `ledger`) did to the characters it is about, in words;
    /// nothing for a character this watch has not seen before (its first event is its
    /// joining, when the record read is whole).
    pub fn told(&mut self, ledger: &Ledger, env: &Envelope) -> Vec<String> {
        let mut ids = env.event.characters();
        if matches!(env.event, Event::CharacterAdded { .. }) {
            ids.push(CharacterId(env.id.0));
        }
        let mut out = Vec::new();
        for id in ids {
            let Some(now) = ledger.character(id).and_then(CharacterState::hm) else {
                continue;
            };
            if let Some(was) = self.last.get(&id) {
                out.extend(consequences(was, now, tells_shock(env.event.kind())));
            }
            self.last.insert(id, Condition::of(now));
        }
        out
    }
}

/// What [`consequences`] compares of a character before an event: its condition, without
/// the records of its healed injuries (a copy of the whole character before every event
/// made a long campaign's story take seconds).
#[derive(Clone, Debug)]
pub struct Condition {
    dead: bool,
    shock: ShockState,
    extended_shock: Option<ExtendedShock>,
    coma: Option<Coma>,
    infection: Option<Infection>,
    /// Each open injury: its id, whether it bleeds, and its level.
    injuries: Vec<(InjuryId, bool, u8)>,
}

impl Condition {
    /// The condition of `c` now.
    pub fn of(c: &HmCharacter) -> Condition {
        Condition {
            dead: c.dead(),
            shock: c.shock,
            extended_shock: c.extended_shock,
            coma: c.coma,
            infection: c.infection,
            injuries: c
                .injuries
                .iter()
                .map(|i| (i.id, i.bleeder, i.level))
                .collect(),
        }
    }
}

/// The condition of each HârnMaster character an event is about, taken before it: what
/// [`Conditions::told`] compares once it is recorded (what the terminal prints as `-> `
/// lines, and the board and the players' page after the event's line).
#[derive(Clone, Debug, Default)]
pub struct Conditions(Vec<(CharacterId, Condition)>);

impl Conditions {
    /// The conditions of the characters `ids` as `ledger` holds them (those of other
    /// systems tell nothing).
    pub fn of(ledger: &Ledger, ids: impl IntoIterator<Item = CharacterId>) -> Conditions {
        Conditions(
            ids.into_iter()
                .filter_map(|id| {
                    let h = ledger.character(id).and_then(CharacterState::hm)?;
                    Some((id, Condition::of(h)))
                })
                .collect(),
        )
    }

    /// What the events of `kind` did to these characters, as `after` holds them, in words.
    pub fn told(&self, after: &Ledger, kind: &str) -> Vec<String> {
        self.0
            .iter()
            .filter_map(|(id, was)| {
                let now = after.character(*id).and_then(CharacterState::hm)?;
                Some(consequences(was, now, tells_shock(kind)))
            })
            .flatten()
            .collect()
    }
}

/// Whether an event's own narration already tells the Shock State it leaves (a strike, a
/// melee, a shot, a shock roll), so that its consequences do not say it twice.
pub fn tells_shock(kind: &str) -> bool {
    matches!(
        kind,
        "hm.strike" | "hm.melee" | "hm.shot" | "hm.shock-reroll" | "hm.stun-recovery"
    )
}

/// The consequences of going from `before` to `after` (the same character), in words; the
/// Shock State only when `shock_told` is false.
pub fn consequences(before: &Condition, after: &HmCharacter, shock_told: bool) -> Vec<String> {
    let name = &after.name;
    let mut out = Vec::new();
    if let (false, Some((cause, at))) = (before.dead, &after.death) {
        out.push(format!("{name} DIES ({cause}) at {at}"));
        return out;
    }
    if after.shock != before.shock && !shock_told {
        out.push(if after.shock == ShockState::None {
            format!("{name} is no longer {}", before.shock.code())
        } else if before.shock == ShockState::None {
            format!("{name} is now {}", after.shock.code())
        } else {
            format!(
                "{name} is now {} (was {})",
                after.shock.code(),
                before.shock.code()
            )
        });
    }
    match (&before.extended_shock, &after.extended_shock) {
        (None, Some(e)) => out.push(format!(
            "{name} falls into Extended Shock (HR{})",
            e.healing_rate
        )),
        (Some(_), None) => out.push(format!("{name} comes out of Extended Shock")),
        _ => {}
    }
    match (&before.coma, &after.coma) {
        (None, Some(c)) => out.push(format!("{name} falls into a coma (HR{})", c.healing_rate)),
        (Some(_), None) => out.push(format!("{name} wakes from the coma")),
        _ => {}
    }
    match (&before.infection, &after.infection) {
        (None, Some(_)) => out.push(format!("{name}'s wound is infected")),
        (Some(_), None) => out.push(format!("{name} defeats the infection")),
        _ => {}
    }
    for inj in &after.injuries {
        let Some(&(_, bled, level)) = before.injuries.iter().find(|i| i.0 == inj.id) else {
            continue;
        };
        if bled && !inj.bleeder {
            out.push(format!(
                "{name}'s {} {} stops bleeding",
                inj.code(),
                inj.place.label()
            ));
        }
        if level > 0 && inj.healed() {
            // Told by its level before it healed.
            let mut was = inj.clone();
            was.level = level;
            out.push(format!(
                "{name}'s {} {} is healed",
                was.code(),
                inj.place.label()
            ));
        }
    }
    out
}
