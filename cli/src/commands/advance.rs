//! `leechbook advance`: move the campaign clock forward; with `--roll` (or `--ask`), roll
//! (or ask for) every roll that falls due on the way, in time order, recording each.

use crate::ctx::Ctx;
use crate::dice::{roller, Roller};
use crate::error::CommandError;
use clap::Args;
use leechbook_core::dice::Die;
use leechbook_core::fold::{CharacterState, Ledger};
use leechbook_core::harnmaster::healing::SeqRollKind;
use leechbook_core::harnmaster::state::HmCharacter;
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::time::{parse_duration, CampaignTime, MINUTE};
use leechbook_core::Event;
use leechbook_ledger::owed::{next_due, NextDue as Next};
use leechbook_views::narrate;

/// Move the clock by a duration (30s, 10m, 4h, 5d, 2r for rounds, 1d4h) or --to an instant.
#[derive(Args, Debug)]
pub struct AdvanceArgs {
    /// How far: 30s, 10m, 4h, 5d, 2r (rounds), or sums like 1d4h.
    #[arg(
        required_unless_present = "to",
        conflicts_with = "to",
        allow_hyphen_values = true
    )]
    pub by: Option<String>,
    /// The instant to move to: "day 30 08:00".
    #[arg(long)]
    pub to: Option<String>,
    /// Roll every roll that falls due on the way (Leechbook's dice), in time order; with
    /// the global --ask (which implies --roll), ask for each die instead (physical dice).
    #[arg(long)]
    pub roll: bool,
    /// Let bleeders bleed without stopping to ask for a blood stoppage attempt.
    #[arg(long)]
    pub untended: bool,
    /// Let untreated injuries heal as untreated (CF) without stopping to ask for a treatment.
    #[arg(long)]
    pub untreated: bool,
    /// Without --roll: move the clock past the rolls that fall due on the way without making
    /// them (they stay owed, and `due` lists them).
    #[arg(long, conflicts_with = "roll")]
    pub skip_owed: bool,
    /// With --roll: go on rolling past a character's death (else the advance stops there).
    #[arg(long)]
    pub run_on: bool,
    /// Move the clock more than a year at once (a typo like 50d for 50m is caught before).
    #[arg(long)]
    pub yes: bool,
}

impl AdvanceArgs {
    /// A plain `advance BY`: it stops where an owed roll falls due on the way.
    pub fn by(by: String) -> AdvanceArgs {
        AdvanceArgs {
            by: Some(by),
            to: None,
            roll: false,
            untended: false,
            untreated: false,
            skip_owed: false,
            run_on: false,
            yes: false,
        }
    }
}

/// The longest move `advance` makes without --yes.
const LONGEST: i64 = 365 * leechbook_core::time::DAY;

fn target(a: &AdvanceArgs, ledger: &Ledger) -> Result<CampaignTime, CommandError> {
    if a.by
        .as_deref()
        .is_some_and(|b| b.trim_start().starts_with('-'))
    {
        return Err(CommandError::user(format!(
            "the clock only moves forward ({} is back): to take back an advance, retract it (leechbook retract #N, the number `log` shows)",
            a.by.as_deref().unwrap_or_default()
        )));
    }
    match (&a.by, &a.to) {
        (Some(by), _) => {
            let round = ledger.round_seconds();
            let secs = parse_duration(by, round).map_err(|e| CommandError::user(e.to_string()))?;
            if secs <= 0 {
                return Err(CommandError::user(format!(
                    "advance by {by}: the clock only moves forward"
                )));
            }
            let to = ledger.now.plus(secs);
            if !to.in_span() {
                return Err(CommandError::user(format!(
                    "advance by {by}: the campaign clock ends on day {} (ten thousand years), and it is at {}",
                    CampaignTime::LAST_DAY,
                    ledger.now
                )));
            }
            Ok(to)
        }
        (None, Some(to)) => {
            let t = CampaignTime::parse(to).map_err(|e| CommandError::user(e.to_string()))?;
            if t <= ledger.now {
                return Err(CommandError::user(format!(
                    "the clock is at {}; it cannot go back or stay at {t}",
                    ledger.now
                )));
            }
            Ok(t)
        }
        (None, None) => Err(CommandError::user("advance by how much?")),
    }
}

/// How far a plain `advance BY` moves the clock (None for `--to`): worked again from the
/// clock the write finds.
fn by_only(a: &AdvanceArgs, ledger: &Ledger) -> Result<Option<i64>, CommandError> {
    Ok(match &a.by {
        Some(_) => Some(target(a, ledger)?.0 - ledger.now.0),
        None => None,
    })
}

/// The earliest roll with a due time that Leechbook does not roll itself (another system's:
/// a Savage Worlds Bleeding Out roll takes the trait die), due by `until`: when, and the line
/// that names it and its command.
fn others_due(ledger: &Ledger, until: CampaignTime) -> Option<(CampaignTime, String)> {
    let mut best: Option<(CampaignTime, String)> = None;
    for c in ledger
        .characters
        .iter()
        .filter(|c| c.hm().is_none() && ledger.standing_of(c.id()).in_story())
    {
        for o in crate::views::owed_any(ledger, c) {
            let Some(at) = o.due.filter(|&at| at <= until) else {
                continue;
            };
            if best.as_ref().is_some_and(|(b, _)| *b <= at) {
                continue;
            }
            let command = match c {
                CharacterState::SavageWorlds(_) => {
                    format!(
                        "leechbook sw roll {} {}",
                        super::shell_word(&o.character),
                        o.kind()
                    )
                }
                _ => format!("the {} roll's own command", o.kind()),
            };
            best = Some((
                at,
                format!(
                    "{} owes {} roll; record it ({command})",
                    o.character,
                    a_kind(o.kind())
                ),
            ));
        }
    }
    best
}

/// A decision the GM owes before `n` can be rolled, in words.
fn decision(h: &HmCharacter, n: &Next, a: &AdvanceArgs) -> Option<String> {
    let inj = n.due.injury.and_then(|id| h.injury(id))?;
    match n.due.seq {
        Some(SeqRollKind::BloodLoss) if !a.untended => {
            let tended = inj.heal.stops_after_next_loss
                || inj
                    .heal
                    .last_stoppage
                    .is_some_and(|t| t.plus(5 * MINUTE) > n.at);
            (!tended).then(|| {
                format!(
                    "{}'s {} {} bleeds: record a blood stoppage (leechbook staunch {} {} --physician ML) or pass --untended",
                    h.name,
                    inj.code(),
                    inj.place.label(),
                    super::shell_word(&h.name),
                    super::shell_word(&leechbook_ledger::lookup::injury_name(h, inj.id))
                )
            })
        }
        // Untreated, when a treatment may be made (not while bleeding or in Extended Shock:
        // 000 l.737, l.890).
        Some(SeqRollKind::Healing)
            if !a.untreated
                && inj.heal.treatment.is_none()
                && !h.bleeding()
                && h.extended_shock.is_none() => Some(format!(
            "{}'s {} {} is untreated: treat it (leechbook treat {} {} --physician ML) or pass --untreated",
            h.name,
            inj.code(),
            inj.place.label(),
            super::shell_word(&h.name),
            super::shell_word(&leechbook_ledger::lookup::injury_name(h, inj.id))
        )),
        _ => None,
    }
}

/// Moves the clock to `to`; `by`, when given, is how far the command asked to move it, worked
/// from the clock as the write transaction finds it (another terminal may have moved it
/// since the command read it: six `advance 1m` at once move it six minutes).
fn clock_to(ctx: &mut Ctx, to: CampaignTime, by: Option<i64>) -> Result<(), CommandError> {
    // The clock touches no character: the record holds none.
    let (ledger, env, applied) = ctx.record_for(Some(&[]), |ledger, _| {
        let to = match by {
            Some(secs) => ledger.now.plus(secs),
            None => to,
        };
        if to <= ledger.now {
            return Err(CommandError::user(format!(
                "the clock is at {} (another command moved it meanwhile); it cannot go back or stay at {to}",
                ledger.now
            )));
        }
        Ok((Event::ClockAdvanced { to }, Some(to)))
    })?;
    ctx.say(narrate::event(&ledger, &env, &applied));
    Ok(())
}

/// Moves the clock from `now` to `at` (unless it is there or past it) and says why it stopped.
fn stop_at(
    ctx: &mut Ctx,
    at: CampaignTime,
    now: CampaignTime,
    why: String,
) -> Result<(), CommandError> {
    if at > now {
        clock_to(ctx, at, None)?;
    }
    ctx.say(format!("stopped at {}: {why}", at.max(now)));
    Ok(())
}

/// The roll `n` owes, its faces rolled (or asked for) by `rng`: the typed path every owed
/// roll takes (`leechbook_ledger::owed`).
fn owed_roll(n: &Next, ledger: &Ledger, rng: &mut Roller) -> Result<HmEvent, CommandError> {
    let ch = ledger
        .character(n.character)
        .and_then(CharacterState::hm)
        .ok_or_else(|| CommandError::internal(format!("{} was not loaded", n.name)))?;
    let mut asked = Asked {
        what: format!("{} {}", n.name, n.due.kind()),
        rng,
    };
    let mut dice = leechbook_core::dice::Table::new("the roll", Vec::new(), &mut asked);
    let options = leechbook_ledger::owed::HmRollOptions::default();
    Ok(leechbook_ledger::owed::hm_roll(
        ledger,
        ch,
        n.due.roll,
        n.due.injury,
        &options,
        &mut dice,
    )?)
}

/// The roller of `advance --roll`, its dice named by what they are for when asked for
/// (`Osric healing`, `Osric healing next period`).
struct Asked<'a> {
    what: String,
    rng: &'a mut Roller,
}

impl leechbook_core::dice::Roll for Asked<'_> {
    fn face(
        &mut self,
        name: &'static str,
        die: Die,
    ) -> Result<u16, leechbook_core::dice::DiceError> {
        match name {
            "period" => self.rng.face(&format!("{} next period", self.what), die),
            _ => self.rng.face(&self.what, die),
        }
    }

    fn rolls(&self) -> bool {
        leechbook_core::dice::Roll::rolls(&*self.rng)
    }
}

/// Moves the clock, rolling what falls due on the way when asked to.
pub fn cmd_advance(a: AdvanceArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let (replica, ledger) = ctx.load_head()?;
    leechbook_ledger::roster::may_move_clock(&ledger, replica.store().device())?;
    let until = target(&a, &ledger)?;
    if until.0 - ledger.now.0 > LONGEST && !a.yes {
        return Err(CommandError::user(format!(
            "that moves the clock {} days at once, from {} to {until}: pass --yes if it is meant",
            (until.0 - ledger.now.0) / leechbook_core::time::DAY,
            ledger.now
        )));
    }
    if !(a.roll || ctx.ask) {
        if !a.skip_owed {
            // Time never passes a roll in silence: stop where the first one falls due.
            // (One that falls due at the very time asked for is not jumped over: the clock
            // reaches it, and it is due.)
            let (_, open) = ctx.load_open()?;
            let hm = next_due(&open, until).filter(|n| n.at < until);
            if let Some((at, what)) = others_due(&open, until)
                .filter(|(at, _)| *at < until && hm.as_ref().is_none_or(|n| *at < n.at))
            {
                return stop_at(
                    ctx,
                    at,
                    open.now,
                    format!("{what}, or run on with --skip-owed (it stays owed)"),
                );
            }
            if let Some(n) = hm {
                let line = format!(
                    "{} owes {} roll{}; record it (leechbook roll {} {}",
                    n.name,
                    a_kind(n.due.kind()),
                    n.due
                        .injury
                        .and_then(|id| open.character(n.character)?.hm()?.injury(id))
                        .map(|i| format!(" for {} {}", i.code(), i.place.label()))
                        .unwrap_or_default(),
                    super::shell_word(&n.name),
                    n.due.kind(),
                ) + &wound_word(&open, &n)
                    + "), or run on with --roll (Leechbook rolls what falls due) or --skip-owed (it stays owed)";
                return stop_at(ctx, n.at, open.now, line);
            }
            // The clock lands on a moment a roll falls due: it is said, not passed in
            // silence.
            clock_to(ctx, until, by_only(&a, &ledger)?)?;
            let (_, now) = ctx.load_open()?;
            if let Some(n) = next_due(&now, now.now).filter(|n| n.at == now.now) {
                ctx.say(format!(
                    "due now: {} owes {} roll; record it (leechbook roll {} {}{})",
                    n.name,
                    a_kind(n.due.kind()),
                    super::shell_word(&n.name),
                    n.due.kind(),
                    wound_word(&now, &n)
                ));
            } else if let Some((_, what)) =
                others_due(&now, now.now).filter(|(at, _)| *at == now.now)
            {
                ctx.say(format!("due now: {what}"));
            }
            return Ok(());
        }
        return clock_to(ctx, until, by_only(&a, &ledger)?);
    }
    let mut rng = roller(ctx, 0);
    let mut rolled = 0usize;
    // Asking for dice talks on the terminal itself: no progress over it.
    let progress =
        crate::progress::Progress::start(ctx, "advance: rolling what falls due", None, ctx.ask);
    loop {
        // What is owed is open state: no healed injury of the archive owes a roll.
        let (_, ledger) = ctx.load_open()?;
        let next = next_due(&ledger, until);
        if let Some((at, what)) =
            others_due(&ledger, until).filter(|(at, _)| next.as_ref().is_none_or(|n| *at < n.at))
        {
            return stop_at(
                ctx,
                at,
                ledger.now,
                format!("{what}: Leechbook does not roll it for you; {rolled} roll(s) made"),
            );
        }
        let Some(n) = next else {
            break;
        };
        progress.say(format!("advance: {rolled} rolled, now at {}", ledger.now));
        if n.at > ledger.now {
            clock_to(ctx, n.at, None)?;
        }
        let h = ledger
            .character(n.character)
            .and_then(CharacterState::hm)
            .ok_or_else(|| CommandError::internal("a character vanished"))?;
        if let Some(why) = decision(h, &n, &a) {
            ctx.say(format!("stopped at {}: {why}", n.at.max(ledger.now)));
            return Ok(());
        }
        let event = owed_roll(&n, &ledger, &mut rng)?;
        let (after, env, applied) = ctx.record_for(Some(&[n.name.as_str()]), |_, _| {
            Ok((Event::HarnMaster(event), None))
        })?;
        ctx.say(format!("  {}", narrate::event(&after, &env, &applied)));
        // What the roll did, said under it (the record says it: `Ctx::told`).
        for c in ctx.take_told() {
            ctx.say(format!("  -> {c}"));
        }
        // Each roll is committed as it is made: shown as it is.
        ctx.flush_out();
        rolled += 1;
        let now = after.character(n.character).and_then(CharacterState::hm);
        if let Some(now) = now {
            if now.dead() && !a.run_on {
                ctx.say(format!(
                    "stopped: {} died; {rolled} roll(s) made (pass --run-on to roll on past a death)",
                    n.name
                ));
                return Ok(());
            }
        }
        if rolled > 100_000 {
            return Err(CommandError::internal(
                "advance rolled 100000 times without reaching the end: stopping",
            ));
        }
    }
    let (_, ledger) = ctx.load_head()?;
    if until > ledger.now {
        clock_to(ctx, until, None)?;
    }
    ctx.say(format!("{rolled} roll(s) made"));
    Ok(())
}

/// The wound a roll owed is for, as `roll` takes it after the roll's kind (` abdomen`), when
/// the roll is a wound's; else nothing.
fn wound_word(ledger: &Ledger, n: &Next) -> String {
    n.due
        .injury
        .filter(|_| !n.due.roll.about_the_character())
        .and_then(|id| {
            let h = ledger.character(n.character)?.hm()?;
            h.injury(id).map(|_| h.injury_name(id))
        })
        .map(|w| format!(" {}", super::shell_word(&w)))
        .unwrap_or_default()
}

/// A roll's kind with its article (`a healing`, `an infection`).
fn a_kind(kind: &str) -> String {
    let an = kind.starts_with(['a', 'e', 'i', 'o', 'u']);
    format!("{} {kind}", if an { "an" } else { "a" })
}
