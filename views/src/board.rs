//! The board's view of a campaign (`leechbook board`): every character with what matters
//! at the table now (shock, bleeding, open wounds with their healing rate and impairment, or
//! the system's own conditions), and the rolls owed in time order with their EMLs. Built
//! from the fold alone; the terminal's printer draws it.

use crate::{self as views, OwedView};
use leechbook_core::fold::{CharacterState, Ledger};

/// One character on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// Name and system.
    pub title: String,
    /// What matters now, a line each.
    pub lines: Vec<String>,
}

/// The board's view of a campaign.
#[derive(Clone, Debug, Default)]
pub struct Board {
    /// The campaign's name and clock.
    pub header: String,
    /// Every character.
    pub party: Vec<Member>,
    /// The owed rolls: the rolls due now, then each character's next timed roll, then the
    /// rest (decisions, later rolls) in time order.
    pub agenda: Vec<OwedView>,
    /// The first character the party pane shows when the GM scrolls it (0: the pane follows
    /// the selected roll's character).
    pub party_from: usize,
}

/// What one character shows on the board.
fn member(ledger: &Ledger, c: &CharacterState) -> Member {
    let mut lines = Vec::new();
    let title = match c {
        CharacterState::HarnMaster(h) => {
            let v = views::character(ledger, h);
            let mut status = format!("shock {}", v.shock_state);
            if v.dead {
                status = "DEAD".into();
            }
            // The dead bleed no more and owe nothing: their line says only that they died.
            let bleeders = v.injuries.iter().filter(|i| i.bleeder && !i.healed).count();
            if bleeders > 0 && !v.dead {
                status.push_str(&format!(", {bleeders} bleeder(s)"));
                if let Some(o) = v.owed.iter().find(|o| {
                    o.roll
                        == leechbook_core::owed::Owed::HarnMaster(
                            leechbook_core::owed::HmRoll::Seq(
                                leechbook_core::harnmaster::healing::SeqRollKind::BloodLoss,
                            ),
                        )
                }) {
                    status.push_str(&format!(
                        ", blood loss {}",
                        o.due_at.as_deref().unwrap_or("now")
                    ));
                }
            }
            if let Some(hr) = v.infection_hr {
                status.push_str(&format!(", infected (HR{hr})"));
            }
            lines.push(status);
            for i in v.injuries.iter().filter(|i| !i.healed) {
                let mut marks = String::new();
                if i.bleeder {
                    marks.push_str(", bleeding");
                }
                if i.infected {
                    marks.push_str(", infected");
                }
                if i.permanent_impairment != 0 {
                    marks.push_str(&format!(", permanent {}", i.permanent_impairment));
                }
                lines.push(format!(
                    "  {} {}{}: HR{}{marks}",
                    i.code,
                    i.side.map(|s| format!("{s} ")).unwrap_or_default(),
                    i.location,
                    i.healing_rate,
                ));
            }
            let impaired = v.impaired_zones();
            if !impaired.is_empty() {
                lines.push(format!("  impairment: {}", impaired.join(", ")));
            }
            format!("{} (HârnMaster)", h.name)
        }
        CharacterState::SavageWorlds(s) => {
            let v = views::sw_character(ledger, s);
            lines.push(format!(
                "{} Wound(s){}{}{}",
                v.wounds,
                if v.shaken { ", Shaken" } else { "" },
                if v.incapacitated {
                    ", Incapacitated"
                } else {
                    ""
                },
                if v.bleeding_out { ", Bleeding Out" } else { "" }
            ));
            format!("{} (Savage Worlds)", s.name)
        }
        CharacterState::WrathGlory(w) => {
            let v = views::wg_character(ledger, w);
            lines.push(format!(
                "{}/{} Wounds, {} Shock{}",
                v.wounds,
                v.max_wounds,
                v.shock,
                if v.dying { ", Dying" } else { "" }
            ));
            format!("{} (Wrath & Glory)", w.name)
        }
        CharacterState::WitchIron(w) => {
            let v = views::wi_character(ledger, w);
            let conds: Vec<String> = v
                .conditions
                .iter()
                .map(|(k, c)| format!("{k} {}", c.rating))
                .collect();
            lines.push(if conds.is_empty() {
                "no conditions".into()
            } else {
                conds.join(", ")
            });
            for i in &v.injuries {
                lines.push(format!("  {}: {}", i.location, i.name));
            }
            format!("{} (Witch Iron)", w.name)
        }
    };
    if c.dead() && !lines.iter().any(|l| l.starts_with("DEAD")) {
        lines.insert(0, "DEAD".into());
    }
    Member { title, lines }
}

impl Board {
    /// The board of a campaign's state, as a GM's device (`gm`) or another reads it: on
    /// another, a GM-only character's record stops where the GM hid them, and neither they
    /// nor what they owe are on the board (as `due` leaves them out: [`views::owed_list`]).
    pub fn of(ledger: &Ledger, gm: bool) -> Board {
        let header = match &ledger.campaign {
            Some(c) => format!("{} at {}", c.name, ledger.now),
            None => "no campaign yet".into(),
        };
        // The pane holds the story's characters (one set aside is out of it), a foe's or an
        // NPC's side and a GM-only character marked.
        let party = ledger
            .characters
            .iter()
            .filter(|c| ledger.standing_of(c.id()).in_story())
            .filter(|c| gm || !ledger.is_secret(c.id()))
            .map(|c| {
                let mut m = member(ledger, c);
                let side = ledger.standing_of(c.id()).side;
                if side != leechbook_core::standing::Side::Party {
                    m.title.push_str(&format!(" ({})", side.word()));
                }
                if ledger.is_secret(c.id()) {
                    m.title.push_str(" [GM-only]");
                }
                m
            })
            .collect();
        // What the story owes: a character set aside is out of it.
        let mut agenda: Vec<OwedView> = views::owed_list(ledger, None, gm).unwrap_or_default();
        // The rolls the table rolls now first; then each character's next timed roll, so
        // that a small terminal shows every character's next one; then the rest (the GM's
        // and the healers' decisions, later rolls) by the time they fall due.
        agenda.sort_by_key(|o| (!o.due_now, o.due.map_or(i64::MIN, |t| t.0)));
        let mut next: Vec<OwedView> = Vec::new();
        let mut rest: Vec<OwedView> = Vec::new();
        for o in agenda {
            let rolled_now = o.due_now && o.roll.rollable();
            let first_timed = !o.due_now
                && o.due.is_some()
                && !next
                    .iter()
                    .any(|n| n.character_id == o.character_id && n.due.is_some() && !n.due_now);
            if rolled_now || first_timed {
                next.push(o);
            } else {
                rest.push(o);
            }
        }
        next.extend(rest);
        let agenda = next;
        Board {
            header,
            party,
            agenda,
            party_from: 0,
        }
    }
}
