//! A character's state as marks, for every system alike: each thing the table tracks of it
//! (a Shock State, Wounds, Shaken, a condition, each injury) named once with its value in
//! words. Comparing a character's marks before and after an event says what the event did
//! to it ([`changes`]), which is how `why` and `history` tell the story of a character of
//! any system without a rule of each system announcing itself.

use leechbook_core::fold::CharacterState;
use leechbook_core::savage::Lasting;

/// One thing the table tracks of a character, and its value now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    /// What it is (`Wounds`, `Shaken`, `Trauma (rib cage)`, `Guts: Battered`, `injury
    /// 1a2b3c4d`).
    pub what: String,
    /// Its value in words (`2`, `yes`, `S2E, bleeding`).
    pub value: String,
}

fn mark(what: impl Into<String>, value: impl ToString) -> Mark {
    Mark {
        what: what.into(),
        value: value.to_string(),
    }
}

/// A yes-or-no condition: marked while it holds.
fn flag(out: &mut Vec<Mark>, what: &str, on: bool) {
    if on {
        out.push(mark(what, "yes"));
    }
}

/// The marks of a character of any system, as its state holds them (a condition that wears
/// off with time is marked at the rating last recorded).
pub fn of(c: &CharacterState) -> Vec<Mark> {
    let mut out = Vec::new();
    match c {
        CharacterState::HarnMaster(h) => {
            if h.shock != leechbook_core::harnmaster::state::ShockState::None {
                out.push(mark("Shock State", h.shock.code()));
            }
            flag(&mut out, "Extended Shock", h.extended_shock.is_some());
            flag(&mut out, "coma", h.coma.is_some());
            if h.blood_loss > 0 {
                out.push(mark("Blood Loss", h.blood_loss));
            }
            for i in &h.injuries {
                let mut v = i.code();
                if i.bleeder {
                    v.push_str(", bleeding");
                }
                if h.infection.is_some_and(|f| f.injury == i.id) {
                    v.push_str(", infected");
                }
                // Its treatment is part of how it stands: a treatment changes the mark.
                if let Some(t) = &i.heal.treatment {
                    v.push_str(&format!(", treated {}", t.level));
                    if let leechbook_core::harnmaster::healing::CellResult::Hr(hr) = t.cell.result {
                        v.push_str(&format!(" HR{hr}"));
                    }
                }
                out.push(mark(format!("{} {}", i.place.label(), i.id.short()), v));
            }
        }
        CharacterState::SavageWorlds(s) => {
            flag(&mut out, "Shaken", s.shaken);
            if s.wounds > 0 {
                out.push(mark("Wounds", s.wounds));
            }
            flag(&mut out, "Incapacitated", s.incapacitated);
            flag(&mut out, "Bleeding Out", s.bleeding_out);
            for i in &s.injuries {
                let lasting = match i.lasting {
                    Lasting::Permanent => "permanent".to_string(),
                    Lasting::UntilHealed => "until all Wounds heal".to_string(),
                    Lasting::Day(t) => format!("until {t} or all Wounds heal"),
                };
                let v = match i.ended {
                    Some(t) => format!("ended at {t}"),
                    None => lasting,
                };
                out.push(mark(&i.what, v));
            }
        }
        CharacterState::WrathGlory(w) => {
            if w.wounds > 0 {
                out.push(mark("Wounds", w.wounds));
            }
            if w.shock > 0 {
                out.push(mark("Shock", w.shock));
            }
            flag(&mut out, "Dying", w.dying);
            for m in &w.memorable {
                let v = if m.escalated { "escalated" } else { "yes" };
                out.push(mark(format!("Memorable Injury: {}", m.name), v));
            }
            for t in &w.traumatic {
                let part = match &t.side {
                    Some(side) => format!("{side} {}", t.part),
                    None => t.part.clone(),
                };
                let v = if t.replaced {
                    format!("{} (replaced)", t.effect)
                } else {
                    t.effect.clone()
                };
                out.push(mark(format!("Traumatic Injury: {part}"), v));
            }
        }
        CharacterState::WitchIron(w) => {
            for (c, held) in &w.conditions {
                let what = match &held.location {
                    Some(l) => format!("{} ({l})", c.word()),
                    None => c.word().to_string(),
                };
                out.push(mark(what, held.rating));
            }
            for (location, held) in &w.trauma {
                out.push(mark(format!("Trauma ({location})"), held.rating));
            }
            for i in &w.injuries {
                let mut v = format!("{} (Net Damage {})", i.cell.name, i.net_damage);
                for care in &i.care {
                    v.push_str(&format!(", {} given", care.word()));
                }
                out.push(mark(format!("injury: {}", i.location), v));
            }
            for part in &w.lost {
                out.push(mark(format!("lost: {part}"), "yes"));
            }
        }
    }
    if let Some((cause, at)) = death(c) {
        out.push(mark("dead", format!("{cause}, at {at}")));
    }
    out
}

/// How a character of any system died, and when.
pub fn death(c: &CharacterState) -> Option<&(String, leechbook_core::time::CampaignTime)> {
    match c {
        CharacterState::HarnMaster(h) => h.death.as_ref(),
        CharacterState::SavageWorlds(s) => s.death.as_ref(),
        CharacterState::WrathGlory(w) => w.death.as_ref(),
        CharacterState::WitchIron(w) => w.death.as_ref(),
    }
}

/// What changed from `before` to `after`, in words, one line each: a mark gained (`Shaken`,
/// `Wounds: 2`), changed (`Wounds: 2 -> 3`) or gone (`no longer Shaken`).
pub fn changes(before: &[Mark], after: &[Mark]) -> Vec<String> {
    let mut out = Vec::new();
    for a in after {
        match before.iter().find(|b| b.what == a.what) {
            Some(b) if b.value == a.value => {}
            Some(b) => out.push(format!("{}: {} -> {}", a.what, b.value, a.value)),
            None if a.value == "yes" => out.push(a.what.clone()),
            None => out.push(format!("{}: {}", a.what, a.value)),
        }
    }
    for b in before {
        if !after.iter().any(|a| a.what == b.what) {
            out.push(format!("no longer {}", b.what));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_name_what_was_gained_changed_and_lost() {
        let before = vec![mark("Shaken", "yes"), mark("Wounds", 1)];
        let after = vec![mark("Wounds", 2), mark("Bleeding Out", "yes")];
        assert_eq!(
            changes(&before, &after),
            vec!["Wounds: 1 -> 2", "Bleeding Out", "no longer Shaken"]
        );
        assert!(changes(&after, &after).is_empty());
    }
}
