//! The GM's rulings: `retract`, `reinstate`, `amend`, `override`. Each records a ruling event;
//! the fold re-derives everything after it, and nothing is deleted.

use super::find;
use super::roll::find_injury;
use crate::ctx::Ctx;
use crate::error::CommandError;
use clap::{Args, ValueEnum};
use leechbook_core::amend::Correction;
use leechbook_core::fold::Ledger;
use leechbook_core::harnmaster::state::ShockState;
use leechbook_core::ruling::{Decree, Ruling};
use leechbook_core::{Envelope, Event};
use leechbook_ledger::rulings::{self, Amendment, Downstream};
use leechbook_views::narrate;

/// Finds an event by its full id or a unique tail of at least six hex digits.
pub fn find_event<'a>(events: &'a [Envelope], text: &str) -> Result<&'a Envelope, CommandError> {
    Ok(leechbook_ledger::find_event(events, text)?)
}

/// Strike an event from the record (it stays in the log, marked).
#[derive(Args, Debug)]
pub struct RetractArgs {
    /// The event: the number `log` prints before it (#12), its id from `log --json`, or the
    /// id's last six or more hex digits.
    pub event: String,
    /// Why: kept with the ruling (a ruling needs one; `what-if` none).
    #[arg(long, default_value = "")]
    pub reason: String,
}

/// Retract the last thing this device recorded that still stands.
#[derive(Args, Debug)]
pub struct UndoArgs {
    /// Why (recorded with the ruling as `undone: WHY`).
    #[arg(long, default_value = "")]
    pub reason: String,
}

/// Undo a retraction.
#[derive(Args, Debug)]
pub struct ReinstateArgs {
    /// The retracted event.
    pub event: String,
    /// Why: kept with the ruling (a ruling needs one; `what-if` none).
    #[arg(long, default_value = "")]
    pub reason: String,
}

/// Amend an event: its dice faces or its inputs. What is not named stays as it was.
#[derive(Args, Debug)]
pub struct AmendArgs {
    /// The event.
    pub event: String,
    /// Why: kept with the ruling (a ruling needs one; `what-if` and `--list` none).
    #[arg(long, default_value = "")]
    pub reason: String,
    /// Name the event's dice and inputs, each with its value as recorded, and amend nothing.
    #[arg(long, conflicts_with_all = ["dice", "set"])]
    pub list: bool,
    /// Corrected faces: NAME=FACE,... by the dice's names (`roll` for a roll, a strike's
    /// dice by name, Savage Worlds' `trait=8+3,wild=2`, several dice as `damage=6+2/4`).
    /// `amend EVENT --reason R --list` names them.
    #[arg(long, value_name = "LIST")]
    pub dice: Option<String>,
    /// A corrected input of any system's event, by its name: `--set mod=-2`,
    /// `--set net-damage=9`, `--set mortal=true` (repeatable; `--list` names them).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// A strike's armour value.
    #[arg(long)]
    pub av: Option<i32>,
    /// A strike's aim (ZN).
    #[arg(long)]
    pub aim: Option<u8>,
    /// A strike's impact roll (`d10+3`).
    #[arg(long)]
    pub impact: Option<String>,
    /// A strike's entered effective impact.
    #[arg(long, allow_negative_numbers = true)]
    pub effective: Option<i32>,
    /// A strike's Strength impact modifier.
    #[arg(long, allow_negative_numbers = true)]
    pub str_mod: Option<i32>,
    /// A strike's Impact TA bonus.
    #[arg(long)]
    pub impact_ta: Option<i32>,
    /// Whether the armour was rigid.
    #[arg(long)]
    pub rigid: Option<bool>,
    /// A treatment's or stoppage's Physician ML.
    #[arg(long)]
    pub physician: Option<i32>,
    /// A Morale or mishap roll's ML.
    #[arg(long)]
    pub ml: Option<i32>,
    /// A Morale or mishap roll's outcome as the GM ruled it (one recorded without
    /// `--outcome` gets one later).
    #[arg(long)]
    pub outcome: Option<String>,
}

/// Shock states as `override --shock` takes them.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum ShockArg {
    /// No shock state.
    None,
    /// Stunned.
    Stn,
    /// Incapacitated.
    Inc,
    /// Unconscious.
    Unc,
    /// Killed.
    Kia,
}

/// Decree an outcome from now on: an injury's level or Healing Rate, or a shock state.
#[derive(Args, Debug)]
pub struct OverrideArgs {
    /// The character.
    pub name: String,
    /// Why: kept with the ruling (a ruling needs one; `what-if` none).
    #[arg(long, default_value = "")]
    pub reason: String,
    /// The injury (for --level and --hr).
    #[arg(long)]
    pub injury: Option<String>,
    /// The injury's new level (0 heals it).
    #[arg(long, requires = "injury")]
    pub level: Option<u8>,
    /// The injury's new Healing Rate.
    #[arg(long, requires = "injury")]
    pub hr: Option<i32>,
    /// The character's new shock state.
    #[arg(long, value_enum)]
    pub shock: Option<ShockArg>,
}

/// A ruling keeps its reason: refused without one (what-if records nothing and needs none).
fn reason_given(reason: &str) -> Result<(), CommandError> {
    if reason.trim().is_empty() {
        return Err(CommandError::user(
            "a ruling keeps its reason: give --reason \"...\" (what-if needs none)",
        ));
    }
    Ok(())
}

/// Records the ruling `make` builds from the events a ruling reads when `spec` names its
/// target ([`leechbook_ledger::ruling_context`]: the rulings, their targets and the events
/// `spec` may name, not the whole log) and the state now, then says what it changed
/// downstream: the events it makes void and those that apply again.
fn record_ruling(
    ctx: &mut Ctx,
    spec: Option<&str>,
    make: impl FnOnce(&[Envelope], &Ledger) -> Result<Ruling, CommandError>,
) -> Result<(), CommandError> {
    let replica = ctx.replica()?;
    let events = match spec {
        Some(spec) => leechbook_ledger::ruling_context(replica.store(), spec)?,
        None => Vec::new(),
    };
    let before = replica.fates()?;
    drop(replica);
    let (ledger, env, applied) = ctx.record(|ledger, _| {
        let ruling = make(&events, ledger)?;
        Ok((Event::Ruling(ruling), None))
    })?;
    let Event::Ruling(r) = &env.event else {
        unreachable!("a ruling was recorded")
    };
    let Some(target) = r.target() else {
        ctx.say(narrate::event(&ledger, &env, &applied));
        return Ok(());
    };
    // The target and what the ruling changed downstream are named as `log` names them: by
    // their number and their words, never by a hex id.
    // The ruling is recorded: a telling that fails falls back to its id, never to an error
    // (an error now would read as "not recorded", and a retry would record it twice).
    let replica = ctx.replica()?;
    let told = |id: leechbook_core::ids::EventId, kind: &str| {
        leechbook_story::log::told(&replica, id)
            .map_or_else(|_| format!("{kind} {}", id.short()), |t| t.line())
    };
    let mut lines = vec![match leechbook_story::log::told(&replica, target) {
        Ok(t) => narrate::ruling(r, "", Some(&t)),
        Err(_) => narrate::event(&ledger, &env, &applied),
    }];
    let d = Downstream::of(target, &before.void, &ledger.void);
    for v in &d.void_now {
        lines.push(format!(
            "  now void: {} ({})",
            told(v.id, &v.kind),
            v.reason
        ));
    }
    for v in &d.applies_again {
        lines.push(format!("  applies again: {}", told(v.id, &v.kind)));
    }
    drop(replica);
    for l in lines {
        ctx.say(l);
    }
    Ok(())
}

/// `retract`.
pub fn cmd_retract(a: RetractArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    reason_given(&a.reason)?;
    record_ruling(ctx, Some(&a.event), |events, _| build_retract(events, &a))
}

/// Builds a retraction.
pub fn build_retract(events: &[Envelope], a: &RetractArgs) -> Result<Ruling, CommandError> {
    Ok(rulings::retract(events, &a.event, &a.reason)?)
}

/// `undo`: the last event this device recorded that stands (neither struck nor void), struck
/// by a retraction recorded like any other, jj-style: nothing is erased, and the undo is in
/// the log for the audit. An undo of an undo is a retraction of that retraction, which
/// restores the event.
pub fn cmd_undo(a: UndoArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let target = {
        let replica = ctx.replica()?;
        let fates = replica.fates()?;
        let gone = |id: &leechbook_core::ids::EventId| {
            fates.retracted.iter().any(|(e, _, _)| e == id)
                || fates.void.iter().any(|v| v.id == *id)
        };
        let store = replica.store();
        rulings::undo_target(store, store.device(), gone)?
    };
    let args = RetractArgs {
        event: target.to_string(),
        reason: rulings::undo_reason(&a.reason),
    };
    record_ruling(ctx, Some(&args.event), |events, _| {
        build_retract(events, &args)
    })
}

/// `reinstate`.
pub fn cmd_reinstate(a: ReinstateArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    reason_given(&a.reason)?;
    record_ruling(ctx, Some(&a.event), |events, _| build_reinstate(events, &a))
}

/// Builds a reinstatement.
pub fn build_reinstate(events: &[Envelope], a: &ReinstateArgs) -> Result<Ruling, CommandError> {
    Ok(rulings::reinstate(events, &a.event, &a.reason)?)
}

/// `amend`.
pub fn cmd_amend(a: AmendArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    if a.list {
        let replica = ctx.replica()?;
        let events = leechbook_ledger::ruling_context(replica.store(), &a.event)?;
        let target = find_event(&events, &a.event)?;
        let rulings = leechbook_core::ruling::Rulings::from_log(&events);
        let event = rulings
            .amended
            .get(&target.id)
            .map_or(&target.event, |(_, e, _)| e);
        let fields = rulings::fields_of(event);
        if fields.is_empty() {
            return Err(CommandError::user(format!(
                "the {} records no die or input to amend",
                event.kind()
            )));
        }
        drop(replica);
        for f in fields {
            let how = if f.die { "--dice" } else { "--set" };
            ctx.say(format!("{how} {}={}", f.name, f.now));
        }
        return Ok(());
    }
    reason_given(&a.reason)?;
    record_ruling(ctx, Some(&a.event), |events, _| build_amend(events, &a))
}

/// Builds an amendment from the content in force and the corrections asked for: `--dice`
/// and `--set` by the names the event's system gives its dice and inputs, and the
/// HârnMaster flags (`--av`, `--physician`, ...) as the inputs they name.
pub fn build_amend(events: &[Envelope], a: &AmendArgs) -> Result<Ruling, CommandError> {
    let mut amendment = Amendment {
        corrections: parse_chains(a.dice.as_deref())?,
    };
    amendment
        .input("av", a.av)
        .input("aim", a.aim)
        .input("impact", a.impact.as_ref())
        .input("str-mod", a.str_mod)
        .input("impact-ta", a.impact_ta)
        .input("effective", a.effective)
        .input("rigid", a.rigid)
        .input("physician", a.physician)
        .input("ml", a.ml)
        .input("outcome", a.outcome.as_ref());
    for set in &a.set {
        let (name, value) = set
            .split_once('=')
            .ok_or_else(|| CommandError::user(format!("--set '{set}': expected NAME=VALUE")))?;
        amendment.input(name.trim(), Some(value.trim()));
    }
    Ok(rulings::amend(events, &a.event, &amendment, &a.reason)?)
}

/// Parses `--dice NAME=FACES,...` for an amendment: several dice of one name apart by `/`,
/// an acing die's chain by `+` (`damage=6+2/4`), `00` as 100.
fn parse_chains(spec: Option<&str>) -> Result<Vec<(String, Correction)>, CommandError> {
    let mut out: Vec<(String, Correction)> = Vec::new();
    for part in spec.unwrap_or_default().split(',').map(str::trim) {
        if part.is_empty() {
            continue;
        }
        let (name, faces) = part.split_once('=').ok_or_else(|| {
            CommandError::user(format!(
                "--dice '{part}': expected NAME=FACE (several dice as FACE/FACE, an ace as 6+2)"
            ))
        })?;
        let name = name.trim().to_ascii_lowercase();
        if out.iter().any(|(n, _)| *n == name) {
            return Err(CommandError::user(format!(
                "--dice: die '{name}' given twice"
            )));
        }
        let face = |f: &str| -> Result<u16, CommandError> {
            match f.trim() {
                "00" => Ok(100),
                f => f.parse::<u16>().map_err(|_| {
                    CommandError::user(format!("--dice: '{f}' is not a face of die '{name}'"))
                }),
            }
        };
        let chains = faces
            .split('/')
            .map(|chain| chain.split('+').map(face).collect())
            .collect::<Result<Vec<Vec<u16>>, _>>()?;
        out.push((name, Correction::Faces(chains)));
    }
    Ok(out)
}

/// `override`.
pub fn cmd_override(a: OverrideArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    reason_given(&a.reason)?;
    record_ruling(ctx, None, |_, ledger| build_override(ledger, &a))
}

/// Builds an override.
pub fn build_override(ledger: &Ledger, a: &OverrideArgs) -> Result<Ruling, CommandError> {
    {
        let ch = find(ledger, &a.name)?;
        let decree = match (a.level, a.hr, a.shock) {
            (Some(level), None, None) => Decree::InjuryLevel {
                injury: find_injury(ch, a.injury.as_deref().unwrap_or_default())?,
                level,
            },
            (None, Some(rate), None) => Decree::HealingRate {
                injury: find_injury(ch, a.injury.as_deref().unwrap_or_default())?,
                rate,
            },
            (None, None, Some(s)) => Decree::ShockState(match s {
                ShockArg::None => ShockState::None,
                ShockArg::Stn => ShockState::Stunned,
                ShockArg::Inc => ShockState::Incapacitated,
                ShockArg::Unc => ShockState::Unconscious,
                ShockArg::Kia => ShockState::Killed,
            }),
            _ => return Err(CommandError::user(
                "override one thing: --injury ID --level N, --injury ID --hr N, or --shock STATE",
            )),
        };
        Ok(Ruling::Override {
            character: ch.id,
            decree,
            reason: a.reason.clone(),
        })
    }
}

/// The rolls a GM may waive: those the GM resolves, which belong to the fight's moment.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum WaivedRoll {
    /// A Morale Roll (page 162).
    Morale,
    /// A Fumble Roll (page 161).
    Fumble,
    /// A Stumble Roll (page 161).
    Stumble,
}

/// Ruling: drop a roll the GM resolves (Morale, a Fumble, a Stumble) from what a character
/// owes. Recorded like any ruling: retracting it owes the roll again.
#[derive(Args, Debug)]
pub struct WaiveArgs {
    /// The character.
    pub name: String,
    /// The roll.
    #[arg(value_enum)]
    pub roll: WaivedRoll,
    /// The injury that called for it, when several did.
    pub injury: Option<String>,
    /// Why: kept with the ruling (a ruling needs one; `what-if` none).
    #[arg(long, default_value = "")]
    pub reason: String,
}

/// `waive`.
pub fn cmd_waive(a: WaiveArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    reason_given(&a.reason)?;
    use leechbook_core::harnmaster::shock::GmRollKind;
    use leechbook_core::harnmaster::state::MishapKind;
    record_ruling(ctx, None, |_, ledger| {
        let ch = find(ledger, &a.name)?;
        let injury = match &a.injury {
            Some(text) => Some(find_injury(ch, text)?),
            None => None,
        };
        Ok(Ruling::Override {
            character: ch.id,
            decree: Decree::Waive {
                kind: match a.roll {
                    WaivedRoll::Morale => GmRollKind::Morale,
                    WaivedRoll::Fumble => GmRollKind::Mishap(MishapKind::Fumble),
                    WaivedRoll::Stumble => GmRollKind::Mishap(MishapKind::Stumble),
                },
                injury,
            },
            reason: a.reason.clone(),
        })
    })
}
