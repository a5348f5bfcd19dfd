//! The GM's rulings: `retract`, `reinstate`, `amend`, `override`. Each records a ruling event;
//! the fold re-derives everything after it, and nothing is deleted.

use super::find;
use super::roll::find_injury;
use crate::ctx::Ctx;
use crate::dice::parse_dice;
use crate::error::CommandError;
use clap::{Args, ValueEnum};
use leechbook_core::dice::DiceExpr;
use leechbook_core::fold::Ledger;
use leechbook_core::harnmaster::injury::{ImpactInput, Targeting, STRIKE_DICE};
use leechbook_core::harnmaster::state::ShockState;
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::ruling::{Decree, Ruling, Rulings};
use leechbook_core::{Envelope, Event};
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
    /// Why.
    #[arg(long)]
    pub reason: String,
}

/// Retract the last thing this device recorded that still stands.
#[derive(Args, Debug)]
pub struct UndoArgs {
    /// Why (recorded with the ruling).
    #[arg(long, default_value = "undone")]
    pub reason: String,
}

/// Undo a retraction.
#[derive(Args, Debug)]
pub struct ReinstateArgs {
    /// The retracted event.
    pub event: String,
    /// Why.
    #[arg(long)]
    pub reason: String,
}

/// Amend an event: its dice faces or its inputs. What is not named stays as it was.
#[derive(Args, Debug)]
pub struct AmendArgs {
    /// The event.
    pub event: String,
    /// Why.
    #[arg(long)]
    pub reason: String,
    /// Corrected faces: name=face,... (a strike's dice by name; `roll` or `treatment` for a
    /// roll).
    #[arg(long, value_name = "LIST")]
    pub dice: Option<String>,
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
    /// Why.
    #[arg(long)]
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
    ctx.say(narrate::event(&ledger, &env, &applied));
    if let Event::Ruling(r) = &env.event {
        if let Some(target) = r.target() {
            let void_now: Vec<String> = ledger
                .void
                .iter()
                .filter(|v| v.id != target && !before.void.iter().any(|b| b.id == v.id))
                .map(|v| format!("  now void: {} {} ({})", v.kind, v.id.short(), v.reason))
                .collect();
            for line in void_now {
                ctx.say(line);
            }
            let back: Vec<String> = before
                .void
                .iter()
                .filter(|v| !ledger.void.iter().any(|b| b.id == v.id))
                .map(|v| format!("  applies again: {} {}", v.kind, v.id.short()))
                .collect();
            for line in back {
                ctx.say(line);
            }
        }
    }
    Ok(())
}

/// `retract`.
pub fn cmd_retract(a: RetractArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    record_ruling(ctx, Some(&a.event), |events, _| build_retract(events, &a))
}

/// Builds a retraction.
pub fn build_retract(events: &[Envelope], a: &RetractArgs) -> Result<Ruling, CommandError> {
    {
        let target = find_event(events, &a.event)?;
        if Rulings::from_log(events).retracted.contains_key(&target.id) {
            return Err(CommandError::user(format!(
                "event {} is already retracted",
                target.id.short()
            )));
        }
        Ok(Ruling::Retract {
            target: target.id,
            reason: a.reason.clone(),
        })
    }
}

/// `undo`: the last event this device recorded that stands (neither struck nor void), struck
/// by a retraction recorded like any other, jj-style: nothing is erased, and the undo is in
/// the log for the audit. An undo of an undo is a retraction of that retraction, which
/// restores the event.
pub fn cmd_undo(a: UndoArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let target = {
        let replica = ctx.replica()?;
        let fates = replica.fates()?;
        let store = replica.store();
        let me = store.device();
        let gone = |id: &leechbook_core::ids::EventId| {
            fates.retracted.iter().any(|(e, _, _)| e == id)
                || fates.void.iter().any(|v| v.id == *id)
        };
        // The campaign's creation and the roster's changes are not undone so (a device is
        // taken off the roster with `device revoke`).
        let undoable = |e: &leechbook_core::Envelope| {
            use leechbook_core::roster::LedgerEvent;
            !e.event.creates_campaign() && e.event.roster_change().is_none() && !gone(&e.id)
        };
        let mut seq = store.last_number(me)?;
        loop {
            let found = if seq > 0 {
                store.events_numbered(me, seq, seq)?.pop()
            } else {
                None
            };
            let Some(e) = found else {
                return Err(CommandError::user(
                    "this device has recorded nothing that stands to undo (the campaign's creation and the roster are not undone: `device revoke` takes a device off)",
                ));
            };
            if undoable(&e) {
                break e.id;
            }
            seq -= 1;
        }
    };
    let args = RetractArgs {
        event: target.to_string(),
        reason: a.reason,
    };
    record_ruling(ctx, Some(&args.event), |events, _| {
        build_retract(events, &args)
    })
}

/// `reinstate`.
pub fn cmd_reinstate(a: ReinstateArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    record_ruling(ctx, Some(&a.event), |events, _| build_reinstate(events, &a))
}

/// Builds a reinstatement.
pub fn build_reinstate(events: &[Envelope], a: &ReinstateArgs) -> Result<Ruling, CommandError> {
    {
        let target = find_event(events, &a.event)?;
        if !Rulings::from_log(events).retracted.contains_key(&target.id) {
            return Err(CommandError::user(format!(
                "event {} is not retracted",
                target.id.short()
            )));
        }
        Ok(Ruling::Reinstate {
            target: target.id,
            reason: a.reason.clone(),
        })
    }
}

/// `amend`.
pub fn cmd_amend(a: AmendArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    record_ruling(ctx, Some(&a.event), |events, _| build_amend(events, &a))
}

/// A strike's inputs amended: its dice, AV, rigidity, aim and impact, as given. Returns
/// whether anything was given.
fn amend_strike(
    s: &mut leechbook_core::harnmaster::injury::Strike,
    a: &AmendArgs,
    no: impl Fn(&str) -> CommandError,
) -> Result<bool, CommandError> {
    let mut changed = false;
    for d in parse_dice(a.dice.as_deref(), &STRIKE_DICE)? {
        match s.dice.iter_mut().find(|x| x.name == d.name) {
            Some(x) => x.faces = d.faces,
            None => s.dice.push(d),
        }
        changed = true;
    }
    if let Some(av) = a.av {
        s.av = av;
        changed = true;
    }
    if let Some(r) = a.rigid {
        s.rigid = r;
        changed = true;
    }
    if let Some(new) = a.aim {
        match &mut s.targeting {
            Targeting::Rolled { aim, .. } => *aim = new,
            _ => return Err(no("aim")),
        }
        changed = true;
    }
    if a.impact.is_some() || a.str_mod.is_some() || a.impact_ta.is_some() {
        let (mut roll, mut sm, mut ta) = match &s.impact {
            ImpactInput::Rolled {
                roll,
                strength_mod,
                impact_ta,
            } => (*roll, *strength_mod, *impact_ta),
            ImpactInput::Effective(_) => (
                "0".parse::<DiceExpr>()
                    .map_err(|e| CommandError::internal(e.to_string()))?,
                0,
                0,
            ),
        };
        if let Some(i) = &a.impact {
            roll = i
                .parse()
                .map_err(|e| CommandError::user(format!("--impact: {e}")))?;
        }
        sm = a.str_mod.unwrap_or(sm);
        ta = a.impact_ta.unwrap_or(ta);
        s.impact = ImpactInput::Rolled {
            roll,
            strength_mod: sm,
            impact_ta: ta,
        };
        changed = true;
    }
    if let Some(e) = a.effective {
        s.impact = ImpactInput::Effective(e);
        changed = true;
    }
    Ok(changed)
}

/// Builds an amendment from the content in force and the changes asked for.
pub fn build_amend(events: &[Envelope], a: &AmendArgs) -> Result<Ruling, CommandError> {
    {
        let target = find_event(events, &a.event)?;
        let rulings = Rulings::from_log(events);
        // Start from the content in force (an earlier amendment, if any).
        let mut event = rulings
            .amended
            .get(&target.id)
            .map(|(_, e, _)| e.clone())
            .unwrap_or_else(|| target.event.clone());
        let mut changed = false;
        let no = |what: &str| {
            CommandError::user(format!("a {} has no {what} to amend", target.event.kind()))
        };
        match &mut event {
            Event::HarnMaster(HmEvent::Strike(s)) => changed = amend_strike(s, a, no)?,
            Event::HarnMaster(hm) => {
                let names: &[&str] = match hm {
                    HmEvent::Treatment(_) => &["treatment", "roll"],
                    _ => &["roll"],
                };
                let given = parse_dice(a.dice.as_deref(), names)?;
                // One roll, one face: a second die or face would be dropped, so refuse it.
                if given.len() > 1 || given.iter().any(|d| d.faces.len() != 1) {
                    return Err(CommandError::user(format!(
                        "the {} records one roll: give one face (--dice {}=N)",
                        target.event.kind(),
                        names[0]
                    )));
                }
                let face = given.first().and_then(|d| d.faces.first().copied());
                match hm {
                    HmEvent::ShockReroll(r) | HmEvent::StunRecovery(r) => {
                        if let Some(f) = face {
                            r.roll = f;
                            changed = true;
                        }
                    }
                    HmEvent::SeqRoll(r) => {
                        if let Some(f) = face {
                            r.roll = f;
                            changed = true;
                        }
                    }
                    HmEvent::BloodStoppage(b) => {
                        if let Some(f) = face {
                            b.roll = f;
                            changed = true;
                        }
                        if let Some(p) = a.physician {
                            b.physician_ml = p;
                            changed = true;
                        }
                    }
                    HmEvent::Treatment(t) => {
                        if let Some(f) = face {
                            t.roll = f;
                            changed = true;
                        }
                        if let Some(p) = a.physician {
                            t.physician_ml = p;
                            changed = true;
                        }
                    }
                    HmEvent::GmRoll(g) => {
                        if face.is_some() {
                            g.roll = face;
                            changed = true;
                        }
                        if a.ml.is_some() {
                            g.ml = a.ml;
                            changed = true;
                        }
                        if a.outcome.is_some() {
                            g.outcome = a.outcome.clone();
                            changed = true;
                        }
                    }
                    _ => return Err(no("roll or input")),
                }
            }
            _ => return Err(no("roll or input")),
        }
        if !changed {
            // An option the event does not take is named, not met by "nothing to amend".
            if a.outcome.is_some() && !matches!(target.event, Event::HarnMaster(HmEvent::GmRoll(_)))
            {
                return Err(CommandError::user(format!(
                    "the {} takes no --outcome: only a roll the GM resolves (Morale, Fumble, Stumble) records one",
                    target.event.kind()
                )));
            }
            return Err(CommandError::user(format!(
                "nothing to amend in the {}: name what changes (--dice, --av, ...)",
                target.event.kind()
            )));
        }
        // The corrected event must still resolve (a new die it now needs must be given):
        // the ledger refuses an amendment whose amended event is void in the record it
        // leaves (`LedgerError::AmendmentCannotStand`).
        Ok(Ruling::Amend {
            target: target.id,
            replacement: Box::new(event),
            reason: a.reason.clone(),
        })
    }
}

/// `override`.
pub fn cmd_override(a: OverrideArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
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
