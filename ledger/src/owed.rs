//! The typed path from a roll a character owes to the event that records it: the rules and
//! refusals the terminal's roll commands (`roll`, `sw roll`, `wi round`) apply, as functions
//! of typed values, so the board and the players' page record an owed roll the same way
//! without building a command line.
//!
//! [`owed_event`] takes an owed entry ([`Owed`], as the agenda lists it), the faces the table
//! gives for it ([`Faces`]: one per die the roll takes, or none to have Leechbook roll) and
//! the source of the faces nobody gave; [`hm_roll`], [`sw_roll`] and [`end_of_round`] are the
//! per-system rules the terminal's commands call with their options.

use crate::lookup::Lookup;
use leechbook_core::dice::{DiceError, Die, RecordedDie, Roll, Table};
use leechbook_core::fold::{CharacterState, Ledger};
use leechbook_core::harnmaster::agenda::DueRoll;
use leechbook_core::harnmaster::healing::{SeqRoll, SeqRollKind};
use leechbook_core::harnmaster::shock::{owed_gm_roll, GmRoll, ShockRoll};
use leechbook_core::harnmaster::state::HmCharacter;
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::ids::{CharacterId, InjuryId};
use leechbook_core::owed::{HmRoll, Owed, SwRoll, WgRoll};
use leechbook_core::savage::{Attribute, Chain, SwCharacter, SwEvent, TraitRoll};
use leechbook_core::time::CampaignTime;
use leechbook_core::witch::{WiCharacter, WiEvent};
use leechbook_core::{Event, HmLedger};
use std::collections::HashMap;

mod error;
pub use error::RollError;

/// A roll Leechbook can make by itself as the clock moves (`advance --roll`): a Shock
/// Reroll, a stun recovery, or a roll of the Healing Sequence's schedules but aggravation
/// (which falls due only on a CF or a move).
#[derive(Clone, Debug)]
pub struct NextDue {
    /// Who owes it.
    pub character: CharacterId,
    /// Their name.
    pub name: String,
    /// The roll.
    pub due: DueRoll,
    /// When it falls due.
    pub at: CampaignTime,
}

/// Whether Leechbook makes the owed roll `d` by itself as the clock moves.
pub fn rollable_as_time_passes(d: &DueRoll) -> bool {
    match d.roll {
        HmRoll::ShockReroll | HmRoll::StunRecovery => true,
        HmRoll::Seq(k) => k != SeqRollKind::Aggravation,
        _ => false,
    }
}

/// The earliest roll of a HârnMaster character that Leechbook makes by itself, due by
/// `until` (the first in the characters' order among those due at the same time).
pub fn next_due(ledger: &Ledger, until: CampaignTime) -> Option<NextDue> {
    let mut best: Option<NextDue> = None;
    // A character set aside (captured, fled) is out of the story: nothing of theirs is
    // rolled as time passes.
    for c in ledger
        .characters
        .iter()
        .filter(|c| ledger.standing_of(c.id()).in_story())
    {
        let Some(h) = c.hm() else { continue };
        for d in leechbook_core::harnmaster::agenda::agenda(
            h,
            ledger.treatment_table(),
            ledger.options(),
            ledger.now,
        ) {
            let Some(at) = d.due_at else { continue };
            if !rollable_as_time_passes(&d) || at > until {
                continue;
            }
            if best.as_ref().is_none_or(|b| at < b.at) {
                best = Some(NextDue {
                    character: h.id,
                    name: h.name.clone(),
                    due: d,
                    at,
                });
            }
        }
    }
    best
}

/// The faces the table gives for an owed roll: none (Leechbook rolls every die), or one per
/// die the roll takes in its order ([`Owed::dice`]); a Savage Worlds die that aced gives its
/// faces in a chain (`8+3`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Faces(pub Vec<Vec<u16>>);

impl Faces {
    /// Reads faces as a person types them: dice apart by spaces or commas, a die's chain of
    /// aces joined by `+`, `00` the d100's 100; empty text is no faces (roll them). `None`
    /// when the text is not faces (the front end says so).
    pub fn parse(text: &str) -> Option<Faces> {
        let mut dice = Vec::new();
        for die in text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|d| !d.is_empty())
        {
            let chain = die
                .split('+')
                .map(|f| match f {
                    "00" => Some(100),
                    f if !f.is_empty() && f.len() <= 3 && f.bytes().all(|b| b.is_ascii_digit()) => {
                        f.parse::<u16>().ok()
                    }
                    _ => None,
                })
                .collect::<Option<Vec<u16>>>()?;
            if chain.len() > 20 {
                return None;
            }
            dice.push(chain);
        }
        (dice.len() <= 8).then_some(Faces(dice))
    }

    /// No faces: Leechbook rolls them.
    pub fn rolled(&self) -> bool {
        self.0.is_empty()
    }
}

/// The dice the table gives for `owed` in this campaign: [`Owed::dice`], and the d3 of the
/// next healing period after a Healing Roll when the random healing period option is on.
pub fn dice_for(ledger: &Ledger, owed: Owed) -> Vec<&'static str> {
    let mut dice = owed.dice().to_vec();
    if owed == Owed::HarnMaster(HmRoll::Seq(SeqRollKind::Healing))
        && ledger.options().random_healing_period
    {
        dice.push("period");
    }
    dice
}

/// What [`owed_event`] made: the event, and the dice Leechbook rolled for it (`name=faces`).
#[derive(Debug)]
pub struct Made {
    /// The event to record.
    pub event: Event,
    /// The dice Leechbook rolled, as `name=faces` (aces joined by `+`).
    pub rolled: Vec<String>,
}

/// The event that records the roll `owed` of `character` (for `injury`, where it is an
/// injury's), with the faces the table gave, the rest drawn from `roll`: the same rules
/// and refusals as the terminal's command for it.
pub fn owed_event(
    ledger: &Ledger,
    character: CharacterId,
    owed: Owed,
    injury: Option<InjuryId>,
    faces: &Faces,
    roll: &mut dyn Roll,
) -> Result<Made, RollError> {
    let c = ledger
        .character(character)
        .ok_or_else(|| Lookup::NotLoaded(character.to_string()))?;
    let dice = dice_for(ledger, owed);
    if dice.is_empty() {
        return Err(RollError::Decision {
            character: c.name().to_string(),
            owed,
        });
    }
    if !faces.rolled() && faces.0.len() != dice.len() {
        return Err(RollError::Faces {
            character: c.name().to_string(),
            roll: owed.kind(),
            dice: dice.clone(),
            got: faces.0.len(),
        });
    }
    // Each die's faces under its name, as the terminal's --dice gives them (a name that
    // comes twice, the Injury Table's two d6, holds both).
    let named = || dice.iter().copied().zip(&faces.0);
    let recorded = || -> Vec<RecordedDie> {
        named()
            .map(|(n, f)| RecordedDie {
                name: n.to_string(),
                faces: f.clone(),
            })
            .collect()
    };
    let decision = || RollError::Decision {
        character: c.name().to_string(),
        owed,
    };
    // Every owed roll has its arm: a new one (or a new system's) is a compile error here
    // until its typed path is written.
    match owed {
        Owed::HarnMaster(r) => {
            let CharacterState::HarnMaster(ch) = c else {
                return Err(decision());
            };
            let mut table = Table::new("the roll", recorded(), roll);
            let event = hm_roll(ledger, ch, r, injury, &HmRollOptions::default(), &mut table)?;
            table.refuse_unused()?;
            let rolled = rolled_faces(&table.recorded, &table.rolled).collect();
            Ok(Made {
                event: Event::HarnMaster(event),
                rolled,
            })
        }
        Owed::SavageWorlds(r) => {
            let CharacterState::SavageWorlds(ch) = c else {
                return Err(decision());
            };
            let mut given = Chains::new();
            for (n, f) in named() {
                given.entry(n.to_string()).or_default().push(f.clone());
            }
            let mut rolled = Vec::new();
            let event = sw_roll(ledger, ch, r, None, 0, &mut given, roll, &mut rolled)?;
            // The page and the board take every die the roll may read before its result is
            // known: the Injury Table's faces its result did not read (on a critical failure,
            // or the sub-roll of a row without one) are set aside, not refused.
            for name in unread(&event) {
                given.remove(*name);
            }
            refuse_unused(&given)?;
            Ok(Made {
                event: Event::SavageWorlds(event),
                rolled,
            })
        }
        // The GM's: Witch Iron's end of round takes the Hardship Quarrel's Hits, and its
        // Quarrels and Wrath & Glory's Dying are the GM's to resolve.
        Owed::WitchIron(_) | Owed::WrathGlory(WgRoll::Dying) => Err(decision()),
    }
}

/// `name=face/face` for each die of `recorded` that Leechbook rolled (`rolled` names them),
/// in the order drawn.
pub fn rolled_faces<'a>(
    recorded: &'a [RecordedDie],
    rolled: &'a [&str],
) -> impl Iterator<Item = String> + 'a {
    recorded
        .iter()
        .filter(|d| rolled.contains(&d.name.as_str()))
        .map(|d| {
            let faces: Vec<String> = d.faces.iter().map(u16::to_string).collect();
            format!("{}={}", d.name, faces.join("/"))
        })
}

/// What a HârnMaster roll records beyond its faces: the GM's ML and ruled outcome (Morale
/// and mishaps, whose pages the text lacks), a coma patient's shelter, and a forced roll.
#[derive(Clone, Debug, Default)]
pub struct HmRollOptions {
    /// The ML tested (Morale and mishaps).
    pub ml: Option<i32>,
    /// What the GM ruled happened (Morale and mishaps).
    pub outcome: Option<String>,
    /// Coma: not in a restful, sheltered place (-20).
    pub unsheltered: bool,
    /// Recorded although not due (a GM ruling, shown as forced).
    pub force: bool,
}

/// The one injury of `ch` that owes a roll of `kind`.
fn only_injury(
    ledger: &Ledger,
    ch: &HmCharacter,
    kind: SeqRollKind,
) -> Result<InjuryId, RollError> {
    let owing: Vec<(InjuryId, bool)> = leechbook_core::harnmaster::agenda::agenda(
        ch,
        ledger.treatment_table(),
        ledger.options(),
        ledger.now,
    )
    .into_iter()
    .filter(|d| d.seq == Some(kind))
    .filter_map(|d| {
        d.injury
            .map(|i| (i, d.due_at.is_none_or(|at| at <= ledger.now)))
    })
    .collect();
    // The one due now, where one alone is among several owed later.
    let due: Vec<InjuryId> = owing
        .iter()
        .filter(|(_, now)| *now)
        .map(|(i, _)| *i)
        .collect();
    let owing: Vec<InjuryId> = match due.as_slice() {
        [one] => vec![*one],
        _ => owing.into_iter().map(|(i, _)| i).collect(),
    };
    match owing.as_slice() {
        [one] => Ok(*one),
        [] => Err(RollError::OwesNone {
            character: ch.name.clone(),
            roll: kind.name(),
        }),
        many => Err(RollError::SeveralOwe {
            character: ch.name.clone(),
            roll: kind.name(),
            candidates: many
                .iter()
                .map(|i| crate::lookup::injury_name(ch, *i))
                .collect(),
        }),
    }
}

/// The HârnMaster event of the roll `roll` of `ch` (for `injury`, where it is an injury's;
/// a periodic roll owed by one injury alone finds it), its die `roll` (and `period`, the d3
/// of the random healing period option) drawn from `dice`.
pub fn hm_roll(
    ledger: &Ledger,
    ch: &HmCharacter,
    roll: HmRoll,
    mut injury: Option<InjuryId>,
    opts: &HmRollOptions,
    dice: &mut Table<'_>,
) -> Result<HmEvent, RollError> {
    if opts.force && !matches!(roll, HmRoll::Seq(_)) {
        return Err(RollError::ForcedOutOfSequence);
    }
    let d3 = Die::new(3)?;
    Ok(match roll {
        HmRoll::Seq(seq) => {
            if seq.per_injury() && injury.is_none() {
                injury = Some(only_injury(ledger, ch, seq)?);
            }
            let face = if seq == SeqRollKind::HealingPeriod {
                dice.one("roll", d3)?
            } else {
                dice.one("roll", Die::D100)?
            };
            let period = (seq == SeqRollKind::Healing && ledger.options().random_healing_period)
                .then(|| dice.one("period", d3))
                .transpose()?;
            HmEvent::SeqRoll(SeqRoll {
                character: ch.id,
                kind: seq,
                injury,
                roll: face,
                period,
                sheltered: !opts.unsheltered,
                forced: opts.force,
            })
        }
        HmRoll::ShockReroll | HmRoll::StunRecovery => {
            if opts.ml.is_some() || opts.outcome.is_some() {
                return Err(RollError::ShockMlGiven);
            }
            let r = ShockRoll {
                character: ch.id,
                roll: dice.one("roll", Die::D100)?,
            };
            if roll == HmRoll::ShockReroll {
                HmEvent::ShockReroll(r)
            } else {
                HmEvent::StunRecovery(r)
            }
        }
        HmRoll::Gm(kind) => {
            // Named without its wound while several wounds owe one: which, is asked.
            if injury.is_none() {
                let mut owing: Vec<InjuryId> =
                    leechbook_core::harnmaster::shock::owed_gm_roll_injuries(ch, kind)
                        .into_iter()
                        .flatten()
                        .collect();
                owing.dedup();
                if owing.len() > 1 {
                    return Err(RollError::SeveralOwe {
                        character: ch.name.clone(),
                        roll: kind.word().trim_end_matches(" roll"),
                        candidates: owing
                            .iter()
                            .map(|i| crate::lookup::injury_name(ch, *i))
                            .collect(),
                    });
                }
            }
            let automatic =
                owed_gm_roll(ch, kind, injury).is_some_and(|(_, _, automatic)| automatic);
            let face = if automatic || opts.ml.is_none() {
                if automatic && !dice.unused().is_empty() {
                    return Err(RollError::Automatic {
                        character: ch.name.clone(),
                        what: kind.word(),
                    });
                }
                None
            } else {
                Some(dice.one("roll", Die::D100)?)
            };
            HmEvent::GmRoll(GmRoll {
                character: ch.id,
                kind,
                injury,
                ml: opts.ml,
                roll: face,
                outcome: opts.outcome.clone(),
            })
        }
        HmRoll::BloodStoppage | HmRoll::Treatment => {
            return Err(RollError::Decision {
                character: ch.name.clone(),
                owed: Owed::HarnMaster(roll),
            })
        }
    })
}

/// The Savage Worlds dice given for a roll: each die's name, and its dice, each a chain of
/// the faces it showed (aces chained).
pub type Chains = HashMap<String, Vec<Vec<u16>>>;

/// The sides of a Savage Worlds die as written (`d8`, `D10`, `6`).
pub fn savage_die(s: &str) -> Result<u16, RollError> {
    s.trim()
        .trim_start_matches(['d', 'D'])
        .parse::<u16>()
        .ok()
        .filter(|n| [4, 6, 8, 10, 12].contains(n))
        .ok_or_else(|| RollError::NotASavageDie(s.to_string()))
}

/// Rolls one die, and again while it aces (at most twenty times).
fn roll_chain(roll: &mut dyn Roll, name: &'static str, sides: u16) -> Result<Vec<u16>, RollError> {
    let die = Die::new(sides)?;
    let mut faces = Vec::new();
    loop {
        let f = roll.face(name, die)?;
        faces.push(f);
        if f != sides || faces.len() > 20 {
            return Ok(faces);
        }
    }
}

/// Refuses the dice given that the roll did not take (a die given but not used is a mistake,
/// as in every recording).
pub fn refuse_unused(given: &Chains) -> Result<(), RollError> {
    if given.is_empty() {
        return Ok(());
    }
    let mut names: Vec<String> = given.keys().cloned().collect();
    names.sort_unstable();
    Err(DiceError::NotNeeded {
        what: "the roll",
        names,
    }
    .into())
}

/// [`refuse_unused`] for a Savage Worlds roll's `event`, naming why the Injury Table's dice
/// given were not read: a critical failure reads no table, and Unmentionables and a leg roll
/// no sub-roll (004 l.34-46).
pub fn refuse_unread(event: &SwEvent, given: &Chains) -> Result<(), RollError> {
    let unread = unread(event);
    if unread.iter().any(|n| given.contains_key(*n)) {
        let SwEvent::Incapacitation { injury, .. } = event else {
            return refuse_unused(given);
        };
        return Err(RollError::Unread(if unread.contains(&"injury") {
            "a critical failure on the Incapacitation roll kills and reads no Injury Table: give no injury or sub dice".into()
        } else {
            let total = injury[0] + injury[1];
            let row = if total == 2 {
                "Unmentionables"
            } else {
                "a leg"
            };
            format!("the Injury Table's {total} is {row}, which rolls no sub-roll: give no sub die")
        }));
    }
    refuse_unused(given)
}

/// The Injury Table's dice a Savage Worlds roll did not read, as `sw_roll` records them (0):
/// none of the table on a critical failure, the sub-roll on a row without one.
fn unread(event: &SwEvent) -> &'static [&'static str] {
    match event {
        SwEvent::Incapacitation { injury: [0, 0], .. } => &["injury", "sub"],
        SwEvent::Incapacitation { sub: 0, .. } => &["sub"],
        _ => &[],
    }
}

/// Takes the chains given for `name` (one per die of `dice`), or rolls them, adding what it
/// rolled to `rolled` as `name=faces`.
pub fn chains(
    given: &mut Chains,
    name: &'static str,
    dice: &[u16],
    roll: &mut dyn Roll,
    rolled: &mut Vec<String>,
) -> Result<Vec<Chain>, RollError> {
    if let Some(faces) = given.remove(name) {
        if faces.iter().any(Vec::is_empty) {
            return Err(RollError::NoFace(name.to_string()));
        }
        if faces.len() != dice.len() {
            return Err(RollError::ChainCount {
                name: name.to_string(),
                wanted: dice.len(),
                got: faces.len(),
            });
        }
        return Ok(dice
            .iter()
            .zip(faces)
            .map(|(&sides, faces)| Chain { sides, faces })
            .collect());
    }
    let c: Vec<Chain> = dice
        .iter()
        .map(|&s| {
            Ok(Chain {
                sides: s,
                faces: roll_chain(roll, name, s)?,
            })
        })
        .collect::<Result<_, RollError>>()?;
    let written: Vec<String> = c
        .iter()
        .map(|c| {
            let faces: Vec<String> = c.faces.iter().map(u16::to_string).collect();
            faces.join("+")
        })
        .collect();
    // Faces asked for at the table (--ask) are not Leechbook's rolls.
    if roll.rolls() {
        rolled.push(format!("{name}={}", written.join("/")));
    }
    Ok(c)
}

/// A trait roll: the trait die (`sides`) and the wild die, given or rolled, with `modifier`.
pub fn trait_roll(
    given: &mut Chains,
    sides: u16,
    modifier: i32,
    roll: &mut dyn Roll,
    rolled: &mut Vec<String>,
) -> Result<TraitRoll, RollError> {
    let t = chains(given, "trait", &[sides], roll, rolled)?.remove(0);
    let w = chains(given, "wild", &[6], roll, rolled)?.remove(0);
    Ok(TraitRoll {
        trait_die: t,
        wild_die: w,
        modifier,
    })
}

/// The die a roll of `kind` takes when none is given: its attribute's die in effect.
fn in_effect(ch: &SwCharacter, kind: SwRoll, now: CampaignTime) -> Result<u16, RollError> {
    let a = match kind {
        SwRoll::SpiritRecovery => Attribute::Spirit,
        SwRoll::Incapacitation | SwRoll::BleedingOut => Attribute::Vigor,
    };
    ch.die(a, now)
        .map(|d| d.now)
        .ok_or_else(|| RollError::NoTraitDie {
            character: ch.name.clone(),
            attribute: a.name(),
        })
}

/// The Savage Worlds event of the roll `kind` of `ch`: its trait die (`sides`, else the
/// attribute's die in effect), the wild die, and for Incapacitation the Injury Table's dice,
/// each given in `given` or rolled (added to `rolled`).
#[allow(clippy::too_many_arguments)]
pub fn sw_roll(
    ledger: &Ledger,
    ch: &SwCharacter,
    kind: SwRoll,
    sides: Option<u16>,
    modifier: i32,
    given: &mut Chains,
    roll: &mut dyn Roll,
    rolled: &mut Vec<String>,
) -> Result<SwEvent, RollError> {
    let sides = match sides {
        Some(s) => s,
        None => in_effect(ch, kind, ledger.now)?,
    };
    // A Spirit roll to recover from Shaken, once a turn (004 l.4, l.20): not before a round
    // after the last, and no die drawn for a roll refused.
    if kind == SwRoll::SpiritRecovery {
        if let Some(due) = ch
            .spirit_due(ledger.round_seconds())
            .filter(|d| *d > ledger.now)
        {
            return Err(RollError::SpiritNotYetDue {
                character: ch.name.clone(),
                due,
                now: ledger.now,
            });
        }
    }
    // "At the start of his turn ... must roll again next turn": not before, and no die is
    // drawn (or asked for) for a roll refused.
    if kind == SwRoll::BleedingOut {
        if let Some(due) = ch
            .bleeding_due(ledger.round_seconds())
            .filter(|d| *d > ledger.now)
        {
            return Err(RollError::NotYetDue {
                character: ch.name.clone(),
                due,
                now: ledger.now,
            });
        }
    }
    let r = trait_roll(given, sides, modifier, roll, rolled)?;
    Ok(match kind {
        SwRoll::SpiritRecovery => SwEvent::SpiritRecovery {
            character: ch.id,
            roll: r,
        },
        SwRoll::BleedingOut => SwEvent::BleedingOut {
            character: ch.id,
            roll: r,
        },
        SwRoll::Incapacitation => {
            // Only the dice the rules read are drawn (or asked for): none of the Injury
            // Table's on a critical failure, which kills (004 l.26); its sub-roll only for the
            // rows that roll one (`injury_rolls_sub`). One not drawn is recorded as 0.
            let critical = leechbook_core::savage::trait_roll(&r, ch.wound_penalty())
                .is_ok_and(|t| t.outcome == leechbook_core::savage::Outcome::CriticalFailure);
            // The Injury Table's d6s do not ace: one face each, 1 to 6; one rolled here takes
            // its first face.
            let mut d6 = |name: &'static str, count: usize| -> Result<Vec<u16>, RollError> {
                let typed = given.contains_key(name);
                chains(given, name, &vec![6; count], roll, rolled)?
                    .into_iter()
                    .map(|c| match (typed, c.faces.as_slice()) {
                        (false, [f, ..]) => Ok(*f),
                        (true, [f]) => Ok(Die::D6.check(name, u32::from(*f))?),
                        _ => Err(RollError::NoAce(name.to_string())),
                    })
                    .collect()
            };
            let (injury, sub) = if critical {
                ([0, 0], 0)
            } else {
                let inj = d6("injury", 2)?;
                let total = inj[0] + inj[1];
                let sub = if leechbook_core::savage::injury_rolls_sub(total) {
                    d6("sub", 1)?[0]
                } else {
                    0
                };
                ([inj[0], inj[1]], sub)
            };
            SwEvent::Incapacitation {
                character: ch.id,
                roll: r,
                injury,
                sub,
            }
        }
    })
}

/// The healer of a Savage Worlds stabilisation, checked: another character of the campaign
/// who may act (a Healing roll to stabilise is an action, 004 l.50; not dead, not Shaken,
/// l.20), whose wound penalty (l.21) the roll takes; or, `npc`, someone the campaign does
/// not hold (no penalty known). Returns the penalty.
pub fn healer_penalty(
    ledger: &Ledger,
    bleeder: CharacterId,
    healer: &str,
    npc: bool,
) -> Result<i32, RollError> {
    let found = match crate::lookup::savage(ledger, healer) {
        Ok(h) => h,
        Err(Lookup::NoCharacter { .. }) if npc => return Ok(0),
        Err(e) => return Err(e.into()),
    };
    if npc {
        return Err(RollError::NpcIsCharacter(found.name.clone()));
    }
    if found.id == bleeder {
        return Err(RollError::HealerIsBleeder(found.name.clone()));
    }
    // A GM-only healer's name and state would reach the players' devices with the roll.
    if ledger.is_secret(found.id) && !ledger.is_secret(bleeder) {
        return Err(RollError::HealerGmOnly(found.name.clone()));
    }
    if let Some(why) = found.action_prevented() {
        return Err(RollError::HealerCannotAct {
            healer: found.name.clone(),
            why,
        });
    }
    Ok(found.wound_penalty())
}

/// The end of a Witch Iron character's round: its d6 drawn from `dice`, and the Hardship
/// Quarrel's Hits when one follows (a d6 over the rating spares the character, and Hits
/// given before the d6 was known go unused).
pub fn end_of_round(
    ledger: &Ledger,
    who: &WiCharacter,
    hardship_hits: Option<i32>,
    dice: &mut Table<'_>,
) -> Result<WiEvent, RollError> {
    let d6 = dice.one("d6", Die::D6)?;
    let rating = who.hardship(ledger.now, ledger.round_seconds());
    let hardship_hits = hardship_hits.filter(|_| !(rating > 0 && i32::from(d6) > rating));
    Ok(WiEvent::EndOfRound {
        character: who.id,
        d6,
        hardship_hits,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use leechbook_core::owed::WiRoll;

    #[test]
    fn faces_read_as_typed() {
        assert_eq!(Faces::parse(""), Some(Faces(vec![])));
        assert_eq!(Faces::parse(" 42 "), Some(Faces(vec![vec![42]])));
        assert_eq!(Faces::parse("00"), Some(Faces(vec![vec![100]])));
        assert_eq!(
            Faces::parse("8+3 4"),
            Some(Faces(vec![vec![8, 3], vec![4]]))
        );
        assert_eq!(Faces::parse("5,3"), Some(Faces(vec![vec![5], vec![3]])));
        assert_eq!(Faces::parse("x"), None);
        assert_eq!(Faces::parse("1234"), None);
        assert_eq!(Faces::parse("5++3"), None);
        assert_eq!(Faces::parse("-3"), None);
    }

    #[test]
    fn every_roll_names_its_dice_and_decisions_none() {
        use leechbook_core::harnmaster::shock::GmRollKind;
        assert_eq!(Owed::HarnMaster(HmRoll::ShockReroll).dice(), ["roll"]);
        assert_eq!(
            Owed::SavageWorlds(SwRoll::BleedingOut).dice(),
            ["trait", "wild"]
        );
        assert_eq!(
            Owed::SavageWorlds(SwRoll::Incapacitation).dice(),
            ["trait", "wild", "injury", "injury", "sub"]
        );
        assert!(!Owed::WitchIron(WiRoll::EndOfRound).rollable());
        assert!(!Owed::HarnMaster(HmRoll::Seq(SeqRollKind::Aggravation)).rollable());
        assert!(!Owed::HarnMaster(HmRoll::Treatment).rollable());
        assert!(!Owed::HarnMaster(HmRoll::BloodStoppage).rollable());
        assert!(!Owed::HarnMaster(HmRoll::Gm(GmRollKind::Morale)).rollable());
        assert!(!Owed::WitchIron(WiRoll::Stress).rollable());
    }
}
