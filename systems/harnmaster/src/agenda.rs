//! The due agenda: every roll a character owes and when, with the EML and how it is made.
//!
//! Periodic rolls come from the Healing Sequence's schedules kept in the state; the EML of
//! each is worked out by the very check that will judge the roll (made forced, with a dummy
//! face), so the agenda and the roll can never disagree.

use super::healing::{self, EmlPart, Label, SeqRoll, SeqRollKind, TreatmentTable};
use super::injury::Context;
use super::shock::GmRollKind;
use super::state::*;
use crate::ids::InjuryId;
use crate::settings::Options;
use crate::time::CampaignTime;

/// What a character owes, typed: a roll of the Injury or Healing Sequence, or a healer's
/// decision. What the board and the players' page record it as, matched by the compiler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HmRoll {
    /// The Shock Reroll of an INC or UNC character (Shock ML - 20; Injury step 4).
    ShockReroll,
    /// The Shock test that ends STN.
    StunRecovery,
    /// A roll the GM resolves: Morale (page 162), a Fumble or a Stumble (page 161).
    Gm(GmRollKind),
    /// A roll of the Healing Sequence's schedules.
    Seq(SeqRollKind),
    /// A healer's attempt to stop a bleeder (staunch or cauterise): a decision.
    BloodStoppage,
    /// A healer's treatment of an untreated injury: a decision.
    Treatment,
}

impl HmRoll {
    /// Its name, as the agenda prints it and the `roll` kinds spell it (`shock-reroll`,
    /// `healing`, `morale`, `blood-stoppage` ...).
    pub fn name(self) -> &'static str {
        match self {
            HmRoll::ShockReroll => "shock-reroll",
            HmRoll::StunRecovery => "stun-recovery",
            HmRoll::Gm(GmRollKind::Morale) => "morale",
            HmRoll::Gm(GmRollKind::Mishap(m)) => m.word(),
            HmRoll::Seq(k) => k.name(),
            HmRoll::BloodStoppage => "blood-stoppage",
            HmRoll::Treatment => "treatment",
        }
    }

    /// Whether it is about the whole character, not the injury it came from (its owed
    /// entry names the character as its target).
    pub fn about_the_character(self) -> bool {
        matches!(self, HmRoll::ShockReroll | HmRoll::StunRecovery)
    }

    /// Whether it is a roll of the moment (shock, Morale, mishaps, bleeding), printed after
    /// a strike or a roll; the healing schedule is for the agenda.
    pub fn of_the_moment(self) -> bool {
        matches!(
            self,
            HmRoll::ShockReroll
                | HmRoll::StunRecovery
                | HmRoll::Gm(_)
                | HmRoll::Seq(SeqRollKind::BloodLoss)
                | HmRoll::BloodStoppage
        )
    }
}

/// One owed roll or decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DueRoll {
    /// What is owed.
    pub roll: HmRoll,
    /// The periodic roll kind, for those `advance --roll` can roll itself.
    pub seq: Option<SeqRollKind>,
    /// The injury concerned.
    pub injury: Option<InjuryId>,
    /// When it falls due (None: when the GM calls it).
    pub due_at: Option<CampaignTime>,
    /// The EML's terms (empty where the GM gives the ML).
    pub eml_parts: Vec<EmlPart>,
    /// A decision the GM or a healer must make, not a roll.
    pub decision: bool,
    /// An automatic failure: only the outcome is recorded.
    pub automatic: bool,
    /// A note on the rule.
    pub note: &'static str,
    /// The GM may call it before the moment it falls due ("the end of the next turn" is
    /// the GM's to call: an INC Shock Reroll, a first stun recovery test).
    pub early: bool,
}

impl DueRoll {
    /// Its name (see [`HmRoll::name`]).
    pub fn kind(&self) -> &'static str {
        self.roll.name()
    }

    fn new(roll: HmRoll) -> DueRoll {
        DueRoll {
            roll,
            seq: None,
            injury: None,
            due_at: None,
            eml_parts: Vec::new(),
            decision: false,
            automatic: false,
            note: "",
            early: false,
        }
    }
}

fn parts(
    ch: &HmCharacter,
    kind: SeqRollKind,
    injury: Option<InjuryId>,
    table: &TreatmentTable,
    at: CampaignTime,
) -> Vec<EmlPart> {
    let probe = SeqRoll {
        character: ch.id,
        kind,
        injury,
        roll: 1,
        period: None,
        sheltered: true,
        forced: true,
    };
    let ctx = Context {
        at,
        round_seconds: 10,
        random_healing_period: false,
    };
    healing::check_seq(ch, &probe, table, ctx)
        .map(|o| o.eml_parts)
        .unwrap_or_default()
}

fn periodic(
    ch: &HmCharacter,
    kind: SeqRollKind,
    injury: Option<InjuryId>,
    due_at: CampaignTime,
    table: &TreatmentTable,
    note: &'static str,
) -> DueRoll {
    DueRoll {
        seq: Some(kind),
        injury,
        due_at: Some(due_at),
        eml_parts: if kind == SeqRollKind::HealingPeriod {
            vec![]
        } else {
            parts(ch, kind, injury, table, due_at)
        },
        note,
        ..DueRoll::new(HmRoll::Seq(kind))
    }
}

/// A roll the Injury Sequence left owed (step 4's shock rolls, step 5's GM-resolved
/// rolls), as the agenda lists it.
fn owed_roll(ch: &HmCharacter, o: &Owed) -> DueRoll {
    match o {
        Owed::ShockReroll { due_at } => DueRoll {
            injury: ch.shock_injury,
            due_at: Some(*due_at),
            eml_parts: vec![
                EmlPart {
                    label: Label::ml("Shock ML", ch.sheet.shock_ml),
                    value: ch.sheet.shock_ml,
                },
                EmlPart {
                    label: "Shock Reroll".into(),
                    value: -20,
                },
                EmlPart {
                    label: "fatigue".into(),
                    value: -ch.fatigue(),
                },
            ],
            note: "INC: at the end of the next turn; UNC: ten minutes after the Shock Roll",
            early: ch.shock != crate::state::ShockState::Unconscious,
            ..DueRoll::new(HmRoll::ShockReroll)
        },
        Owed::StunRecovery { due_at, tried } => DueRoll {
            due_at: Some(*due_at),
            eml_parts: vec![
                EmlPart {
                    label: Label::ml("Shock ML", ch.sheet.shock_ml),
                    value: ch.sheet.shock_ml,
                },
                EmlPart {
                    label: "fatigue".into(),
                    value: -ch.fatigue(),
                },
            ],
            note: "at the end of the next turn; retry every round",
            early: tried.is_none(),
            ..DueRoll::new(HmRoll::StunRecovery)
        },
        Owed::Morale { injury, .. } => DueRoll {
            injury: Some(*injury),
            note: "after the Shock State is recovered from; the GM gives the ML (page 162)",
            ..DueRoll::new(HmRoll::Gm(GmRollKind::Morale))
        },
        Owed::TestMishap {
            kind, automatic, ..
        } => DueRoll {
            automatic: *automatic,
            note: if *automatic {
                "automatic failure after a CF forced by a Grievous zone: record the outcome (page 161)"
            } else {
                "after a CF test; the GM gives the ML (page 161)"
            },
            ..DueRoll::new(HmRoll::Gm(GmRollKind::Mishap(*kind)))
        },
        Owed::Mishap {
            injury,
            kind,
            automatic,
            ..
        } => DueRoll {
            injury: Some(*injury),
            automatic: *automatic,
            note: if *automatic {
                "automatic failure: record the outcome (page 161)"
            } else {
                "the GM gives the ML (page 161)"
            },
            ..DueRoll::new(HmRoll::Gm(GmRollKind::Mishap(*kind)))
        },
    }
}

/// Returns what `ch` owes at `now`, in the order of the sequences (a roll of the fight's
/// moment that has lapsed is not owed: [`crate::state::MOMENT`]).
pub fn agenda(
    ch: &HmCharacter,
    table: &TreatmentTable,
    options: Options,
    now: CampaignTime,
) -> Vec<DueRoll> {
    let mut out = Vec::new();
    if ch.dead() {
        return out;
    }
    // Step 1: bleeding.
    for inj in ch.injuries.iter().filter(|i| i.bleeder && !i.healed()) {
        // A stoppage that succeeded stops the bleeding after one more Blood Loss roll
        // (000 l.747): that roll is owed, another stoppage is not.
        if !inj.heal.stops_after_next_loss {
            out.push(DueRoll {
                injury: Some(inj.id),
                decision: true,
                note: "a healer may try to stop it every five minutes (staunch or cauterise)",
                ..DueRoll::new(HmRoll::BloodStoppage)
            });
        }
        out.push(periodic(
            ch,
            SeqRollKind::BloodLoss,
            Some(inj.id),
            inj.heal.next_blood_loss,
            table,
            "every five minutes until the bleeding stops",
        ));
    }
    // Injury step 4's shock rolls and step 5's GM-resolved rolls.
    out.extend(ch.owed_now(now).map(|o| owed_roll(ch, o)));
    // Steps 2 and 3: Extended Shock and coma.
    if let Some(es) = ch.extended_shock {
        out.push(periodic(
            ch,
            SeqRollKind::ExtendedShock,
            None,
            es.next_roll,
            table,
            "every four hours",
        ));
    }
    if let Some(c) = ch.coma {
        out.push(periodic(
            ch,
            SeqRollKind::Coma,
            None,
            c.next_roll,
            table,
            "every ten days; -20 if not sheltered",
        ));
    }
    // Step 5: untreated injuries await a healer, once the bleeding and Extended Shock have
    // ended (000 l.737, l.890: until then a treatment is refused, and the injury heals as
    // an untreated one).
    let treatable = !ch.bleeding() && ch.extended_shock.is_none();
    for inj in ch
        .injuries
        .iter()
        .filter(|i| treatable && !i.healed() && i.heal.treatment.is_none())
    {
        out.push(DueRoll {
            injury: Some(inj.id),
            decision: true,
            note: "untreated: it heals as a CF treatment until a healer treats it",
            ..DueRoll::new(HmRoll::Treatment)
        });
    }
    // Step 6: healing rolls, halted by an infection.
    if let Some(inf) = ch.infection {
        out.push(periodic(
            ch,
            SeqRollKind::Infection,
            Some(inf.injury),
            inf.next_roll,
            table,
            "daily; healing halts until the infection is defeated",
        ));
    } else {
        for inj in ch.injuries.iter().filter(|i| !i.healed()) {
            if inj.heal.period_unrolled {
                out.push(periodic(
                    ch,
                    SeqRollKind::HealingPeriod,
                    Some(inj.id),
                    inj.inflicted_at,
                    table,
                    "d3+3 days (the random period option)",
                ));
            } else {
                out.push(periodic(
                    ch,
                    SeqRollKind::Healing,
                    Some(inj.id),
                    inj.heal.next_healing,
                    table,
                    "every five days from the injury",
                ));
            }
        }
    }
    if let (Some(at), true) = (ch.next_regeneration, ch.blood_loss > 0) {
        out.push(periodic(
            ch,
            SeqRollKind::BloodRegeneration,
            None,
            at,
            table,
            "every ten days while Blood Loss Points remain",
        ));
    }
    // Grim wounds: a Shock Roll a day.
    for inj in ch.injuries.iter().filter(|i| healing::grim(i)) {
        out.push(periodic(
            ch,
            SeqRollKind::GrimShock,
            Some(inj.id),
            inj.heal.next_grim,
            table,
            "daily while the wound is Grievous with CF treatment",
        ));
    }
    if options.aggravation {
        for inj in ch
            .injuries
            .iter()
            .filter(|i| !i.healed() && i.severity() != Severity::Minor)
            .filter(|i| ch.aggravation_called.contains(&i.id))
        {
            out.push(DueRoll {
                seq: Some(SeqRollKind::Aggravation),
                injury: Some(inj.id),
                eml_parts: parts(
                    ch,
                    SeqRollKind::Aggravation,
                    Some(inj.id),
                    table,
                    CampaignTime::START,
                ),
                note: "a CF Impaired test using the zone (or on moving) called for it",
                ..DueRoll::new(HmRoll::Seq(SeqRollKind::Aggravation))
            });
        }
    }
    out
}
