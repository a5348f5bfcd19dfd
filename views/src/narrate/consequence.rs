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
            match self.last.get_mut(&id) {
                Some(was) => {
                    out.extend(consequences(was, now, tells_shock(env.event.kind())));
                    was.refill(now);
                }
                None => {
                    self.last.insert(id, Condition::of(now));
                }
            }
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
        let mut out = Condition {
            dead: false,
            shock: c.shock,
            extended_shock: None,
            coma: None,
            infection: None,
            injuries: Vec::with_capacity(c.injuries.len()),
        };
        out.refill(c);
        out
    }

    /// This condition made `c`'s now, in place (a record read in order takes one after
    /// every event: no allocation once its list of injuries is long enough).
    fn refill(&mut self, c: &HmCharacter) {
        self.dead = c.dead();
        self.shock = c.shock;
        self.extended_shock = c.extended_shock;
        self.coma = c.coma;
        self.infection = c.infection;
        self.injuries.clear();
        self.injuries
            .extend(c.injuries.iter().map(|i| (i.id, i.bleeder, i.level)));
    }

    /// Where injury `id` stood, looked for from `from` on first: the open injuries keep
    /// their order, so a walk in step finds each at once (and one looked for again from the
    /// start otherwise).
    fn injury_from(&self, from: usize, id: InjuryId) -> Option<usize> {
        let later = self.injuries.get(from..).unwrap_or_default();
        later
            .iter()
            .position(|i| i.0 == id)
            .map(|k| from + k)
            .or_else(|| {
                self.injuries[..from.min(self.injuries.len())]
                    .iter()
                    .position(|i| i.0 == id)
            })
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
    let mut from = 0;
    for inj in &after.injuries {
        let Some(k) = before.injury_from(from, inj.id) else {
            continue;
        };
        from = k + 1;
        let (_, bled, level) = before.injuries[k];
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

#[cfg(test)]
mod tests {
    use super::*;

    fn condition(ids: &[InjuryId]) -> Condition {
        Condition {
            dead: false,
            shock: ShockState::None,
            extended_shock: None,
            coma: None,
            infection: None,
            injuries: ids.iter().map(|id| (*id, false, 1)).collect(),
        }
    }

    /// Each injury is found wherever it stood: in step (the open injuries keep their order,
    /// one healed between), out of step (found again from the start), or not at all; and
    /// an id held twice (an amputation's edge injury of an edge injury takes its grand-
    /// parent's id back) is paired by its place, not with the first that holds it.
    #[test]
    fn an_injury_is_found_wherever_it_stood_before() {
        let ids: Vec<InjuryId> = (1..=4u8)
            .map(|n| InjuryId(uuid::Uuid::from_bytes([n; 16])))
            .collect();
        // Where each of `order` stood in `before`, walked as `consequences` walks.
        let walk = |before: &Condition, order: &[InjuryId]| {
            let mut from = 0;
            order
                .iter()
                .map(|id| {
                    let k = before.injury_from(from, *id);
                    from = k.map_or(from, |k| k + 1);
                    k
                })
                .collect::<Vec<_>>()
        };
        let before = condition(&ids[..3]);
        assert_eq!(
            walk(&before, &[ids[0], ids[2], ids[3]]),
            vec![Some(0), Some(2), None]
        );
        assert_eq!(
            walk(&before, &[ids[2], ids[0], ids[1]]),
            vec![Some(2), Some(0), Some(1)]
        );
        assert_eq!(walk(&before, &[ids[1], ids[1]]), vec![Some(1), Some(1)]);
        let twice = [ids[0], ids[1], ids[0]];
        assert_eq!(
            walk(&condition(&twice), &twice),
            vec![Some(0), Some(1), Some(2)]
        );
        assert_eq!(condition(&[]).injury_from(3, ids[0]), None);
    }
}
