//! `leechbook shoot SHOOTER [TARGET]`: one missile attack (Missile Sequence), flowing into the
//! Injury Sequence when it strikes, every die given or rolled.

use super::find;
use super::melee::TaArg;
use crate::ctx::Ctx;
use crate::dice::{parse_dice, rolled_faces, roller, TableDice};
use crate::error::CommandError;
use clap::Args;
use leechbook_core::dice::Die;
use leechbook_core::harnmaster::injury::STRIKE_DICE;
use leechbook_core::harnmaster::melee::Ta;
use leechbook_core::harnmaster::missile::Movement;
use leechbook_core::harnmaster::shot::Shot;
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::Event;
use leechbook_ledger::Draft;
use leechbook_views::narrate;

/// Record a missile attack. Dice in --dice: attack (d100), count (d20, or d10 with Volley
/// Precision), ta (the d10 rolled with it), deviation (d8), then the strike's zone, location,
/// impact, shock, ... Any not given are rolled.
#[derive(Args, Debug)]
pub struct ShootArgs {
    /// The shooter.
    pub shooter: String,
    /// The intended target of a direct shot (a volley aims at an area: leave it out).
    pub target: Option<String>,
    /// The missile weapon.
    #[arg(long)]
    pub weapon: String,
    /// Its mode.
    #[arg(long, default_value = "shoot")]
    pub mode: String,
    /// The range in feet (1 or more).
    #[arg(long, allow_negative_numbers = true)]
    pub range: i32,
    /// Bows and crossbows are wet: Base Range halved.
    #[arg(long)]
    pub wet: bool,
    /// The overhead in feet (under 10 forbids volleys).
    #[arg(long, allow_negative_numbers = true)]
    pub overhead: Option<i32>,
    /// The target is moving (-10).
    #[arg(long, conflicts_with = "evading")]
    pub moving: bool,
    /// The target is evading: its Dodge index (-5 each).
    #[arg(long, allow_negative_numbers = true)]
    pub evading: Option<i32>,
    /// The target is carried (a rider on a moving mount): its movement as given, even with
    /// a Grievous injury, which otherwise makes it Still against missiles (000 l.626).
    #[arg(long)]
    pub carried: bool,
    /// The shooter moved (-10, not for throwers).
    #[arg(long)]
    pub moving_shooter: bool,
    /// The shooter aimed last round (+10).
    #[arg(long)]
    pub aimed: bool,
    /// Crosswind Windforce.
    #[arg(long, default_value_t = 0)]
    pub windforce: u8,
    /// A massive target's TAR (TAR2+: +5 per TAR, direct only).
    #[arg(long, default_value_t = 0)]
    pub tar: u8,
    /// The target area moves (-10, volley).
    #[arg(long)]
    pub moving_area: bool,
    /// Another modifier.
    #[arg(long = "mod", default_value_t = 0, allow_negative_numbers = true)]
    pub modifier: i32,
    /// The ZN aimed at (direct).
    #[arg(long)]
    pub aim: Option<u8>,
    /// A thrown object, not a weapon (-10).
    #[arg(long)]
    pub thrown_object: bool,
    /// An oblong thrown object (-20).
    #[arg(long)]
    pub oblong: bool,
    /// A thrown weapon after a Charge of 20 ft or more (the CHARGE impact column).
    #[arg(long)]
    pub charge: bool,
    /// The target count: in the volley's area, or within five feet of a missed target.
    #[arg(long, default_value_t = 0)]
    pub count: u16,
    /// The creature the count roll indicates, when it hits.
    #[arg(long)]
    pub struck: Option<String>,
    /// TAs chosen (impact or precision; repeat).
    #[arg(long = "ta", value_enum)]
    pub tas: Vec<TaArg>,
    /// Faces: attack=N,count=N,ta=N,deviation=N,zone=N,...
    #[arg(long, value_name = "LIST")]
    pub dice: Option<String>,
}

/// Records the attack.
pub fn cmd_shoot(a: ShootArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    if a.range < 1 {
        return Err(CommandError::user(format!(
            "--range {}: the range to the target is at least 1 ft",
            a.range
        )));
    }
    if let Some(h) = a.overhead.filter(|h| *h < 0) {
        return Err(CommandError::user(format!(
            "--overhead {h}: an overhead is 0 ft or more"
        )));
    }
    if let Some(i) = a.evading.filter(|i| *i < 0) {
        return Err(CommandError::user(format!(
            "--evading {i}: a Dodge index is 0 or more"
        )));
    }
    let mut names: Vec<&str> = vec!["attack", "count", "ta", "deviation"];
    names.extend(STRIKE_DICE);
    let given = parse_dice(a.dice.as_deref(), &names)?;
    let (rolls, other): (Vec<_>, Vec<_>) = given.into_iter().partition(|d| d.name == "attack");
    let attack_given = !rolls.is_empty();
    let names: Vec<&str> = std::iter::once(a.shooter.as_str())
        .chain(a.target.as_deref())
        .chain(a.struck.as_deref())
        .collect();
    // The attack roll is the shot's field, rolled here (stream 0); the Missile and Injury
    // Sequences run once, in the fold, drawing their dice from the table's (stream 1).
    let mut r = roller(ctx, 0);
    let mut t = TableDice::new("the attack", rolls, &mut r);
    let mut r2 = roller(ctx, 1);
    let mut dice = TableDice::new("the attack", other, &mut r2);
    let drawing = &mut dice;
    let mut notes = Vec::new();
    let (ledger, env, applied) = ctx.record_for(Some(&names), |ledger, _| {
        let shooter = find(ledger, &a.shooter)?;
        let target = a
            .target
            .as_deref()
            .map(|t| find(ledger, t).map(|c| c.id))
            .transpose()?;
        let struck = a
            .struck
            .as_deref()
            .map(|t| find(ledger, t).map(|c| c.id))
            .transpose()?;
        // A target with a Grievous injury is considered Still against missiles (000 l.626):
        // what the GM typed of its moving or evading is not used, and said so.
        let still = match a.target.as_deref() {
            Some(name) if !a.carried => find(ledger, name)?.still_against_missiles(),
            _ => false,
        };
        if still && (a.moving || a.evading.is_some()) {
            notes.push(format!(
                "{} has a Grievous injury: considered Still against missiles (000 l.626), so {} is not used",
                a.target.as_deref().unwrap_or_default(),
                if a.moving { "--moving" } else { "--evading" }
            ));
        }
        let mut x = Shot {
            shooter: shooter.id,
            weapon: a.weapon.clone(),
            mode: a.mode.clone(),
            range_ft: a.range,
            wet: a.wet,
            overhead_ft: a.overhead,
            movement: match (a.moving, a.evading) {
                _ if still => Movement::Still,
                (true, _) => Movement::Moving,
                (_, Some(_)) => Movement::Evading,
                _ => Movement::Still,
            },
            dodge_index: if still { 0 } else { a.evading.unwrap_or(0) },
            moving_shooter: a.moving_shooter,
            aimed: a.aimed,
            windforce: a.windforce,
            massive_tar: a.tar,
            moving_area: a.moving_area,
            modifier: a.modifier,
            thrown_object: match (a.thrown_object, a.oblong) {
                (_, true) => Some(true),
                (true, false) => Some(false),
                _ => None,
            },
            charge: a.charge,
            target,
            aim: a.aim,
            target_count: a.count,
            struck,
            roll: 0,
            tas: a
                .tas
                .iter()
                .map(|t| match t {
                    TaArg::Precision => Ta::Precision,
                    TaArg::Action => Ta::Action,
                    TaArg::Setup => Ta::Setup,
                    TaArg::Impact => Ta::Impact,
                })
                .collect(),
            dice: Vec::new(),
        };
        // A shot that needs a zone a Grievous injury made unusable is an automatic CF: no die.
        x.roll = match (ledger.settings.hm.shot_forced_cf(shooter, &x, ledger.now), attack_given) {
            (true, true) => {
                return Err(CommandError::user(format!(
                    "{}'s shot is an automatic CF (a zone it needs is unusable: Grievous): it takes no die",
                    shooter.name
                )))
            }
            (true, false) => 0,
            (false, _) => t.one("attack", Die::D100)?,
        };
        Ok(Draft {
            event: Event::HarnMaster(HmEvent::Shot(Box::new(x))),
            at: None,
            dice: Some(drawing),
        })
    })
    .map_err(|e| {
        // Zone dice the strike drew more of than given: say why before refusing.
        if let Some(n) = e
            .message
            .split("die 'zone' needs ")
            .nth(1)
            .and_then(|r| r.split(' ').next())
            .and_then(|n| n.parse::<usize>().ok())
        {
            let example: Vec<&str> = ["4", "2", "5", "1", "3", "6"].into_iter().cycle().take(n).collect();
            e.hint(format!("each Precision TA rolls one more Zone Die (--ta precision, or the automatic one against a Still target), and the first applies: give a face for each, zone={}", example.join("/")))
        } else {
            e
        }
    })?;
    if let Event::HarnMaster(HmEvent::Shot(x)) = &env.event {
        let mut faces: Vec<String> = Vec::new();
        if !t.rolled.is_empty() {
            faces.push(format!("attack={}", x.roll));
        }
        faces.extend(rolled_faces(&x.dice, &dice.rolled));
        if !faces.is_empty() {
            ctx.note(format!("rolled by Leechbook: {}", faces.join(",")));
        }
    }
    for n in notes {
        ctx.note(n);
    }
    ctx.say(narrate::event(&ledger, &env, &applied));
    Ok(())
}
