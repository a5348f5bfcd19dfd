//! `leechbook strike`: one strike through the Injury Sequence, every die given or rolled.

use super::find;
use crate::ctx::Ctx;
use crate::dice::{parse_dice, rolled_faces, roller, TableDice};
use crate::error::CommandError;
use clap::{Args, ValueEnum};
use leechbook_core::dice::{DiceExpr, Die};
use leechbook_core::harnmaster::injury::{ImpactInput, SideRule, Strike, Targeting, STRIKE_DICE};
use leechbook_core::harnmaster::state::{Aspect, Side};
use leechbook_core::harnmaster::system::HmApplied;
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::Event;
use leechbook_core::HmLedger;
use leechbook_ledger::Draft;
use leechbook_views::narrate;

/// The aspects.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum AspectArg {
    /// Blunt (B).
    Blunt,
    /// Edge (E).
    Edge,
    /// Point (P).
    Point,
    /// Fire (F).
    Fire,
    /// Frost (F).
    Frost,
}

/// How the side of an arm or leg is found.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum SideArg {
    /// The location die's parity, odd left (the default).
    Ld,
    /// The zone die's parity.
    Zd,
    /// A separate d10 named `side`.
    Roll,
    /// Left.
    Left,
    /// Right.
    Right,
}

/// Record a strike. Dice named in --dice: zone (several with --precision, as 2/5/3), location
/// (one per zone die that hit the chosen zone), side, face (the face option's d20), impact,
/// compound, amputation, shock. Any die not given is rolled by Leechbook and recorded.
#[derive(Args, Debug)]
pub struct StrikeArgs {
    /// The character struck.
    pub target: String,
    /// The strike's aspect.
    #[arg(long, value_enum)]
    pub aspect: AspectArg,
    /// The Zone Die (d4, d6, d8, d10, d12, d20).
    #[arg(long, value_name = "DIE")]
    pub zone_die: Option<String>,
    /// The ZN aimed at (default: the body table's default aim, ZN1 for humans).
    #[arg(long, value_name = "ZN")]
    pub aim: Option<u8>,
    /// Bonus zone dice from Precision TAs.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=5))]
    pub precision: u8,
    /// Which zone die result applies (1-based; default the first).
    #[arg(long)]
    pub pick_zone: Option<u8>,
    /// Which location die result applies (1-based; default the first).
    #[arg(long)]
    pub pick_location: Option<u8>,
    /// How an arm's or leg's side is found; with --location, left or right.
    #[arg(long, value_enum)]
    pub side: Option<SideArg>,
    /// A helpless target (or press/trip): the location selected instead of rolled.
    #[arg(long, conflicts_with_all = ["zone_die", "area", "precision"])]
    pub location: Option<String>,
    /// An area attack (fire or frost engulfing the whole body): step 1 is skipped.
    #[arg(long, conflicts_with_all = ["zone_die", "location"])]
    pub area: bool,
    /// The target evades the area attack (000 l.362): their Dodge EML. The Dodge test (die
    /// `dodge`) takes 1 (S) or 2 (CS) off the Shock State Index; the evader falls prone.
    #[arg(long, requires = "area", value_name = "EML")]
    pub evade: Option<i32>,
    /// The weapon's impact roll with its modifiers (`d10+3`, `2d6+1`).
    #[arg(long, value_name = "DICE")]
    pub impact: Option<String>,
    /// The wielder's Strength Impact Modifier.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub str_mod: i32,
    /// Bonus impact from Impact TAs (3 blunt, 5 edge, 4 point, 2 fire, or the weapon's).
    #[arg(long, default_value_t = 0)]
    pub impact_ta: i32,
    /// Effective impact entered directly (press and trip attacks skip steps 1 and 2; at
    /// most 1000: the INJURY table's last row starts at 20).
    #[arg(long, conflicts_with = "impact", allow_negative_numbers = true,
          value_parser = clap::value_parser!(i32).range(-1000..=1000))]
    pub effective: Option<i32>,
    /// The armour value at the location for this aspect (Area AV for area attacks).
    #[arg(long, default_value_t = 0)]
    pub av: i32,
    /// The armour there is rigid (glancing blows).
    #[arg(long)]
    pub rigid: bool,
    /// The missile is an arrow or bolt (impalement at S3+).
    #[arg(long)]
    pub projectile: bool,
    /// Roll the face option's d20 when the face is struck.
    #[arg(long)]
    pub face_option: bool,
    /// Faces of the dice rolled at the table: name=face,... (several as 2/5/3; 00 is 100).
    #[arg(long, value_name = "LIST")]
    pub dice: Option<String>,
}

fn aspect(a: AspectArg) -> Aspect {
    match a {
        AspectArg::Blunt => Aspect::Blunt,
        AspectArg::Edge => Aspect::Edge,
        AspectArg::Point => Aspect::Point,
        AspectArg::Fire => Aspect::Fire,
        AspectArg::Frost => Aspect::Frost,
    }
}

/// Records and narrates the strike.
pub fn cmd_strike(a: StrikeArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let given = parse_dice(a.dice.as_deref(), &STRIKE_DICE)?;
    let impact = match (&a.impact, a.effective) {
        (Some(expr), None) => ImpactInput::Rolled {
            roll: expr
                .parse::<DiceExpr>()
                .map_err(|e| CommandError::user(format!("--impact: {e}")))?,
            strength_mod: a.str_mod,
            impact_ta: a.impact_ta,
        },
        (None, Some(e)) => ImpactInput::Effective(e),
        _ => {
            return Err(CommandError::user(
                "say how hard the strike was: --impact DICE (like d10+3) or --effective N",
            ))
        }
    };
    let target_name = a.target.clone();
    let names = [a.target.as_str()];
    // The Injury Sequence runs once, in the fold, drawing its dice from the table's.
    let mut r = roller(ctx, 0);
    let mut dice = TableDice::new("the strike", given, &mut r);
    let drawing = &mut dice;
    let (ledger, env, applied) = ctx.record_for(Some(&names), |ledger, _| {
        let ch = find(ledger, &a.target)?;
        let table = ledger.table(&ch.sheet.body).ok_or_else(|| {
            CommandError::user(format!(
                "{}'s body table '{}' is not defined",
                ch.name, ch.sheet.body
            ))
        })?;
        let targeting = if let Some(dodge) = a.evade {
            Targeting::EvadedArea { dodge }
        } else if a.area {
            Targeting::Area
        } else if let Some(loc) = &a.location {
            Targeting::Chosen {
                location: loc.trim().to_ascii_lowercase(),
                side: match a.side {
                    None => None,
                    Some(SideArg::Left) => Some(Side::Left),
                    Some(SideArg::Right) => Some(Side::Right),
                    Some(_) => {
                        return Err(CommandError::user(
                            "with --location, --side is left or right",
                        ))
                    }
                },
            }
        } else {
            let zd = a.zone_die.as_deref().ok_or_else(|| {
                CommandError::user(
                    "say where the strike goes: --zone-die DIE (with --aim), --location, or --area",
                )
            })?;
            let zone_die: Die = zd
                .parse()
                .map_err(|e| CommandError::user(format!("--zone-die: {e}")))?;
            Targeting::Rolled {
                zone_die,
                aim: a.aim.unwrap_or(table.default_aim),
                precision: a.precision,
                pick_zone: a.pick_zone,
                pick_location: a.pick_location,
                side: match a.side.unwrap_or(SideArg::Ld) {
                    SideArg::Ld => SideRule::LocationDie,
                    SideArg::Zd => SideRule::ZoneDie,
                    SideArg::Roll => SideRule::Roll,
                    SideArg::Left => SideRule::Left,
                    SideArg::Right => SideRule::Right,
                },
            }
        };
        let strike = Strike {
            target: ch.id,
            aspect: aspect(a.aspect),
            targeting,
            impact,
            av: a.av,
            rigid: a.rigid,
            projectile: a.projectile,
            face_option: a.face_option,
            dice: Vec::new(),
        };
        Ok(Draft {
            event: Event::HarnMaster(HmEvent::Strike(strike)),
            at: None,
            dice: Some(drawing),
        })
    })?;
    let Some(HmApplied::Strike { outcome, target }) = applied.hm() else {
        return Err(CommandError::internal("a strike applied as something else"));
    };
    let letter = aspect(a.aspect).letter();
    ctx.say(format!(
        "{}: {}{}",
        target_name.trim(),
        narrate::strike(outcome, letter),
        narrate::beside(&ledger, *target, outcome)
    ));
    if let Event::HarnMaster(HmEvent::Strike(s)) = &env.event {
        if !dice.rolled.is_empty() {
            let list: Vec<String> = rolled_faces(&s.dice, &dice.rolled).collect();
            ctx.note(format!("rolled by Leechbook: {}", list.join(",")));
        }
    }
    if let Some(c) = ledger.character(*target) {
        for o in c
            .hm()
            .map(|h| crate::views::immediate(&ledger, h))
            .unwrap_or_default()
        {
            ctx.say(format!("  owes: {}", crate::views::render_owed(&o)));
        }
    }
    Ok(())
}
