//! Injury Sequence step 4 after the strike: the Shock Reroll of an INC or UNC character and the
//! Shock test that ends STN; and the step 5 rolls the GM resolves (Morale, Fumble, Stumble).
//!
//! Readings: the Shock Reroll is due at the end of the next turn (INC; Leechbook takes one
//! round, the campaign's `round_seconds`) or ten minutes after the Shock Roll (UNC); the STN
//! recovery test is due at the end of the next turn and retried every round after a failure.
//! Coma HR = 12 - Location Shock - Injury Level of the injury whose shock caused the state,
//! never below 1 (the coma course roll's own minimum).

use super::injury::{kill, set_shock_owed, Context};
use super::state::{Coma, ExtendedShock, HmCharacter, MishapKind, Owed, ShockState};
use crate::ids::{CharacterId, InjuryId};
use crate::test_roll::{d100_test, SuccessLevel, TestResult};
use crate::time::CampaignTime;
use serde::{Deserialize, Serialize};

/// Why a shock or step 5 roll cannot be recorded now.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RollError {
    /// A GM-resolved test given without the Mastery Level it is tested against.
    #[error("{what} needs the ML it is tested against")]
    NeedsMl {
        /// The roll.
        what: &'static str,
    },
    /// A change the rules do not allow now (a fatigue change: no recovery of more than is
    /// held, none during Extended Shock).
    #[error("{who} cannot {what}: {why}")]
    Cannot {
        /// Who.
        who: String,
        /// What they would do.
        what: &'static str,
        /// Why not.
        why: String,
    },
    /// The roll is not owed at all.
    #[error("{who} owes no {what}: {why}")]
    NotOwed {
        /// The character.
        who: String,
        /// The roll.
        what: &'static str,
        /// Why not.
        why: String,
    },
    /// The roll is owed, but later.
    #[error("{who}'s {what} is not due until {due} (it is {now}; advance the clock first)")]
    NotDue {
        /// The character.
        who: String,
        /// The roll.
        what: &'static str,
        /// When it falls due.
        due: CampaignTime,
        /// The clock now.
        now: CampaignTime,
    },
    /// A retry before its round: the roll was already made at this moment.
    #[error("{who} already rolled the {what} at {tried} and failed; the next try is due at {next}, a round later")]
    AlreadyRolled {
        /// The character.
        who: String,
        /// The roll.
        what: &'static str,
        /// When the failed try was made.
        tried: CampaignTime,
        /// When the next try falls due.
        next: CampaignTime,
    },
    /// A roll given where none is made, or missing where one is.
    #[error("{0}")]
    Roll(String),
}

/// A Shock Reroll (INC or UNC), or the Shock test that ends STN.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShockRoll {
    /// Who rolls.
    pub character: CharacterId,
    /// The d100 face.
    pub roll: u16,
}

/// What a shock roll did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShockRollOutcome {
    /// The test.
    pub test: TestResult,
    /// The state before.
    pub before: ShockState,
    /// The state after.
    pub after: ShockState,
    /// Extended Shock began with this HR.
    pub extended_shock: Option<i32>,
    /// A coma began with this HR.
    pub coma: Option<i32>,
}

fn owed_due(ch: &HmCharacter, reroll: bool) -> Option<CampaignTime> {
    ch.owed.iter().find_map(|o| match (o, reroll) {
        (Owed::ShockReroll { due_at }, true) | (Owed::StunRecovery { due_at, .. }, false) => {
            Some(*due_at)
        }
        _ => None,
    })
}

/// When the failed stun recovery try that the owed one retries was made.
fn stun_tried(ch: &HmCharacter) -> Option<CampaignTime> {
    ch.owed.iter().find_map(|o| match o {
        Owed::StunRecovery { tried, .. } => *tried,
        _ => None,
    })
}

fn check_due(
    ch: &HmCharacter,
    reroll: bool,
    now: CampaignTime,
    what: &'static str,
) -> Result<(), RollError> {
    let not_owed = |why: String| RollError::NotOwed {
        who: ch.name.clone(),
        what,
        why,
    };
    if ch.dead() {
        return Err(not_owed("they are dead".into()));
    }
    if ch.extended_shock.is_some() {
        return Err(not_owed(
            "they are in Extended Shock, which runs on course rolls".into(),
        ));
    }
    let due = owed_due(ch, reroll)
        .ok_or_else(|| not_owed(format!("their Shock State is {}", ch.shock.code())))?;
    // "The end of the next turn" is the GM's to call, so only the UNC reroll's ten minutes
    // are enforced against the clock, and a stun recovery retry's round: the test is
    // "retried every round after a failure", so a second try at the moment of a failed one
    // (a double tap, two devices at once) is refused, and a player cannot fish for a
    // success.
    if ch.shock == ShockState::Unconscious && now < due {
        return Err(RollError::NotDue {
            who: ch.name.clone(),
            what,
            due,
            now,
        });
    }
    if let Some(tried) = stun_tried(ch).filter(|_| !reroll && now < due) {
        return Err(RollError::AlreadyRolled {
            who: ch.name.clone(),
            what,
            tried,
            next: due,
        });
    }
    Ok(())
}

/// Resolves a Shock Reroll: Shock ML - 20 - fatigue. CF: Extended Shock HR4, and a coma if
/// UNC; F: Extended Shock HR5; S: STN; CS: the state is removed.
pub fn resolve_shock_reroll(
    ch: &HmCharacter,
    roll: u16,
    now: CampaignTime,
) -> Result<ShockRollOutcome, RollError> {
    check_due(ch, true, now, "Shock Reroll")?;
    let test = d100_test(ch.sheet.shock_ml - 20 - ch.fatigue(), roll);
    let before = ch.shock;
    let (after, extended_shock, coma) = match test.level {
        SuccessLevel::CF => {
            let coma = (before == ShockState::Unconscious).then(|| coma_rate(ch));
            (before, Some(4), coma)
        }
        SuccessLevel::F => (before, Some(5), None),
        SuccessLevel::S => (ShockState::Stunned, None, None),
        SuccessLevel::CS => (ShockState::None, None, None),
    };
    Ok(ShockRollOutcome {
        test,
        before,
        after,
        extended_shock,
        coma,
    })
}

/// Returns the initial coma HR from the injury that caused the state.
fn coma_rate(ch: &HmCharacter) -> i32 {
    let (shock, level) = ch
        .shock_injury
        .and_then(|id| ch.injury(id))
        .map(|i| (i32::from(i.location_shock), i32::from(i.level)))
        .unwrap_or((0, 0));
    (12 - shock - level).max(1)
}

/// Resolves the Shock test that ends STN: Shock ML - fatigue; S or CS removes the state.
pub fn resolve_stun_recovery(
    ch: &HmCharacter,
    roll: u16,
    now: CampaignTime,
) -> Result<ShockRollOutcome, RollError> {
    check_due(ch, false, now, "stun recovery test")?;
    let test = d100_test(ch.sheet.shock_ml - ch.fatigue(), roll);
    let after = if test.level.is_success() {
        ShockState::None
    } else {
        ShockState::Stunned
    };
    Ok(ShockRollOutcome {
        test,
        before: ch.shock,
        after,
        extended_shock: None,
        coma: None,
    })
}

/// Applies a shock roll's outcome.
pub fn apply_shock_roll(ch: &mut HmCharacter, out: &ShockRollOutcome, ctx: Context) {
    ch.shock = out.after;
    if let Some(hr) = out.extended_shock {
        ch.extended_shock = Some(ExtendedShock {
            healing_rate: hr,
            since: ctx.at,
            next_roll: ctx.at.plus(4 * crate::time::HOUR),
        });
    }
    if let Some(hr) = out.coma {
        ch.coma = Some(Coma {
            healing_rate: hr,
            since: ctx.at,
            next_roll: ctx.at.plus(10 * crate::time::DAY),
        });
    }
    if out.after == ShockState::None {
        ch.shock_injury = None;
    }
    set_shock_owed(ch, ctx);
    // A failed stun recovery test (STN before and after): its retry waits for its round.
    if out.before == ShockState::Stunned && out.after == ShockState::Stunned {
        for o in &mut ch.owed {
            if let Owed::StunRecovery { tried, .. } = o {
                *tried = Some(ctx.at);
            }
        }
    }
    if ch.shock == ShockState::Killed {
        kill(ch, "killed in action", ctx.at);
    }
}

/// A Morale roll or a Fumble or Stumble roll: rules on pages the text does not include, so the
/// GM gives the ML and, on a failure, the outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GmRoll {
    /// Who rolls.
    pub character: CharacterId,
    /// What roll: Morale, or a mishap kind.
    pub kind: GmRollKind,
    /// The injury that owes it (None: the first owed of that kind).
    pub injury: Option<InjuryId>,
    /// The ML tested (None for an automatic failure).
    pub ml: Option<i32>,
    /// The d100 face (None for an automatic failure).
    pub roll: Option<u16>,
    /// What the GM ruled happened.
    pub outcome: Option<String>,
}

/// The kinds of [`GmRoll`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GmRollKind {
    /// A Morale Roll (page 162).
    Morale,
    /// A Fumble or Stumble Roll (page 161).
    Mishap(MishapKind),
}

impl GmRollKind {
    /// Returns the word.
    pub fn word(self) -> &'static str {
        match self {
            GmRollKind::Morale => "Morale roll",
            GmRollKind::Mishap(MishapKind::Fumble) => "Fumble roll",
            GmRollKind::Mishap(MishapKind::Stumble) => "Stumble roll",
        }
    }
}

/// What a GM roll resolved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GmRollOutcome {
    /// The test, when a roll was made.
    pub test: Option<TestResult>,
    /// The injury that owed it (None for a mishap after a failed test).
    pub injury: Option<InjuryId>,
    /// Whether it was an automatic failure.
    pub automatic: bool,
}

/// Checks a GM roll against what is owed and tests it.
pub fn resolve_gm_roll(ch: &HmCharacter, r: &GmRoll) -> Result<GmRollOutcome, RollError> {
    let what = r.kind.word();
    let not_owed = |why: String| RollError::NotOwed {
        who: ch.name.clone(),
        what,
        why,
    };
    if ch.dead() {
        return Err(not_owed("they are dead".into()));
    }
    let (_, injury, automatic) = owed_gm_roll(ch, r.kind, r.injury)
        .ok_or_else(|| not_owed("no injury calls for one".into()))?;
    if r.kind == GmRollKind::Morale && ch.shock != ShockState::None {
        return Err(not_owed(format!(
            "it comes after the Shock State ({}) is recovered from",
            ch.shock.code()
        )));
    }
    let test = match (automatic, r.ml, r.roll) {
        (true, None, None) => None,
        (true, _, _) => {
            return Err(RollError::Roll(format!(
                "{what} for {} is an automatic failure: give no ML or roll, only the outcome",
                ch.name
            )))
        }
        (false, Some(ml), Some(roll)) => Some(d100_test(ml, roll)),
        (false, None, _) => return Err(RollError::NeedsMl { what }),
        (false, Some(_), None) => return Err(RollError::Roll(format!("{what} needs a roll"))),
    };
    Ok(GmRollOutcome {
        test,
        injury,
        automatic,
    })
}

/// The owed roll a GM roll of `kind` (for `injury`, if named) settles: the first such in
/// the character's owed list, as (its index, its injury, whether it is an automatic failure).
/// Recording, applying and the CLI's "is it automatic?" all ask this one question.
pub fn owed_gm_roll(
    ch: &HmCharacter,
    kind: GmRollKind,
    injury: Option<crate::ids::InjuryId>,
) -> Option<(usize, Option<crate::ids::InjuryId>, bool)> {
    ch.owed.iter().enumerate().find_map(|(i, o)| {
        gm_roll_of(o, kind)
            .filter(|(owed, _)| injury.is_none_or(|want| *owed == Some(want)))
            .map(|(owed, automatic)| (i, owed, automatic))
    })
}

/// The injuries each owed roll of `kind` of `ch` is for (`None`: a test's, no injury's), in
/// the order owed: a roll named without its injury is ambiguous when several differ.
pub fn owed_gm_roll_injuries(
    ch: &HmCharacter,
    kind: GmRollKind,
) -> Vec<Option<crate::ids::InjuryId>> {
    ch.owed
        .iter()
        .filter_map(|o| gm_roll_of(o, kind).map(|(injury, _)| injury))
        .collect()
}

/// An owed entry as a GM roll of `kind`: its injury and whether it is an automatic failure.
fn gm_roll_of(o: &Owed, kind: GmRollKind) -> Option<(Option<crate::ids::InjuryId>, bool)> {
    match (o, kind) {
        (Owed::Morale { injury, .. }, GmRollKind::Morale) => Some((Some(*injury), false)),
        (
            Owed::Mishap {
                injury,
                kind,
                automatic,
                ..
            },
            GmRollKind::Mishap(k),
        ) if *kind == k => Some((Some(*injury), *automatic)),
        (
            Owed::TestMishap {
                kind, automatic, ..
            },
            GmRollKind::Mishap(k),
        ) if *kind == k => Some((None, *automatic)),
        _ => None,
    }
}

/// Applies a GM roll: it is no longer owed.
pub fn apply_gm_roll(ch: &mut HmCharacter, r: &GmRoll, _out: &GmRollOutcome) {
    if let Some((pos, _, _)) = owed_gm_roll(ch, r.kind, r.injury) {
        ch.owed.remove(pos);
    }
}

/// A GM's waiver of a roll they resolve (Morale, a Fumble, a Stumble): it is no longer owed.
/// With several owed and no injury named, which one is the GM's to say.
pub fn waive(
    ch: &mut HmCharacter,
    kind: GmRollKind,
    injury: Option<crate::ids::InjuryId>,
) -> Result<String, crate::error::HmError> {
    use crate::error::HmError;
    let name = ch.name.clone();
    // Several owed and none named: which one is the GM's to say.
    let owed = ch
        .owed
        .iter()
        .filter(|o| match (o, kind) {
            (Owed::Morale { .. }, GmRollKind::Morale) => true,
            (
                Owed::Mishap { kind: k, .. } | Owed::TestMishap { kind: k, .. },
                GmRollKind::Mishap(m),
            ) => *k == m,
            _ => false,
        })
        .count();
    if injury.is_none() && owed > 1 {
        return Err(HmError::Setting(format!(
            "{name} owes {owed} {}s: name the injury whose roll is waived",
            kind.word()
        )));
    }
    let wound = injury.map_or(String::new(), |i| format!(" for the {}", ch.injury_name(i)));
    let (at, _, _) = owed_gm_roll(ch, kind, injury).ok_or_else(|| {
        HmError::Setting(format!("{name} owes no {}{wound} to waive", kind.word()))
    })?;
    ch.owed.remove(at);
    Ok(format!("{name}'s {}{wound} is waived", kind.word()))
}
