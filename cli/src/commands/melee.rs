//! `leechbook melee ATTACKER DEFENDER`: one exchange of the Melee Sequence, flowing into the
//! Injury Sequence, every die given or rolled.

use super::find;
use crate::ctx::Ctx;
use crate::dice::{parse_dice, rolled_faces, roller, TableDice};
use crate::error::CommandError;
use clap::{Args, ValueEnum};
use leechbook_core::dice::Die;
use leechbook_core::harnmaster::exchange::{
    DefenceDecl, MeleeExchange, Natural, NaturalMelee, Situation, StrikeDecl,
};
use leechbook_core::harnmaster::injury::STRIKE_DICE;
use leechbook_core::harnmaster::melee::{Grip, Ta};
use leechbook_core::harnmaster::system::HmApplied;
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::Event;
use leechbook_ledger::Draft;
use leechbook_views::narrate;

/// The defence options.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum DefenceArg {
    /// Block with --with WEAPON.
    Block,
    /// Dodge (--with names the weapon whose reach counts).
    Dodge,
    /// Counterstrike with --with WEAPON --with-mode MODE.
    Counterstrike,
    /// Ignore (no roll).
    Ignore,
}

/// How a weapon is held.
#[derive(ValueEnum, Clone, Copy, Debug, Default)]
pub enum GripArg {
    /// The primary (right) hand.
    #[default]
    Primary,
    /// Both hands (HFT -5; an injury to either arm counts, a Grievous one is an automatic CF).
    TwoHanded,
    /// The off (left) hand (HFT +5).
    OffHand,
}

impl From<GripArg> for Grip {
    fn from(g: GripArg) -> Grip {
        match g {
            GripArg::Primary => Grip::Primary,
            GripArg::TwoHanded => Grip::TwoHanded,
            GripArg::OffHand => Grip::OffHand,
        }
    }
}

/// Tactical Advantages.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum TaArg {
    /// A bonus action.
    Action,
    /// Extra impact.
    Impact,
    /// An extra Zone Die.
    Precision,
    /// A setup.
    Setup,
}

/// Record a melee exchange. Dice in --dice: attack, defence (d100s), then the strike's
/// zone, location, side, face, impact, compound, amputation, shock. Any not given are rolled.
#[derive(Args, Debug)]
pub struct MeleeArgs {
    /// The attacker.
    pub attacker: String,
    /// The defender.
    pub defender: String,
    /// The attacker's readied weapon.
    #[arg(long)]
    pub weapon: String,
    /// Its strike mode (edge, point, bash, ...).
    #[arg(long)]
    pub mode: String,
    /// How the attacker holds it.
    #[arg(long, value_enum, default_value_t)]
    pub grip: GripArg,
    /// The ZN aimed at (default: the defender's default aim, ZN2 for a prone striker against a
    /// standing human; another costs -10, unless the defender is prone and the attacker
    /// standing).
    #[arg(long)]
    pub aim: Option<u8>,
    /// The defender's option.
    #[arg(long, value_enum)]
    pub defence: DefenceArg,
    /// The defender's weapon (Block, Counterstrike; for Dodge, the one whose reach counts).
    #[arg(long = "with")]
    pub with: Option<String>,
    /// The counterstrike's mode.
    #[arg(long)]
    pub with_mode: Option<String>,
    /// How the defender holds it.
    #[arg(long, value_enum, default_value_t)]
    pub with_grip: GripArg,
    /// The counterstrike's aim.
    #[arg(long)]
    pub counter_aim: Option<u8>,
    /// The attacker strikes with a natural weapon (a fist, claw or bite) of this body zone
    /// (`arm`, `head`): an armed Block that wins by a star strikes back at the zone, its
    /// location rolled on the d10 (001 l.420), with --with-mode or the weapon's first mode.
    #[arg(long, value_name = "ZONE")]
    pub natural: Option<String>,
    /// With --natural: the blocker forgoes the strike back the Block won.
    #[arg(long, requires = "natural")]
    pub forgo: bool,
    /// Standing foes threatening the defender, the attacker included unless prone; prone and
    /// Ignored foes do not count (-10 each beyond one).
    #[arg(long, default_value_t = 1)]
    pub foes: u8,
    /// The attacker is prone.
    #[arg(long)]
    pub attacker_prone: bool,
    /// The defender is prone.
    #[arg(long)]
    pub defender_prone: bool,
    /// The two are In Close.
    #[arg(long)]
    pub in_close: bool,
    /// The attacker is mounted.
    #[arg(long)]
    pub attacker_mounted: bool,
    /// The defender is mounted.
    #[arg(long)]
    pub defender_mounted: bool,
    /// Another modifier to the attack.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub attack_mod: i32,
    /// Another modifier to the defence.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub defence_mod: i32,
    /// The attacker spends a Setup TA won earlier (+1 success level).
    #[arg(long)]
    pub attack_setup: bool,
    /// The defender spends a Setup TA won earlier (+1 success level).
    #[arg(long)]
    pub defence_setup: bool,
    /// The winner's Tactical Advantages (repeat; default impact for a strike, setup for a
    /// block or dodge).
    #[arg(long = "ta", value_enum)]
    pub tas: Vec<TaArg>,
    /// Faces: attack=N,defence=N,zone=N,...
    #[arg(long, value_name = "LIST")]
    pub dice: Option<String>,
}

/// Records the exchange.
pub fn cmd_melee(a: MeleeArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let mut names: Vec<&str> = vec!["attack", "defence"];
    names.extend(STRIKE_DICE);
    let given = parse_dice(a.dice.as_deref(), &names)?;
    // A defence die given for a defence that rolls none (Ignore) is handed to the strike's
    // dice, which never ask for it: the fold's one refusal of dice not needed names it with
    // any strike die not needed either, after any refusal of the rules.
    let rolls_here = |d: &leechbook_core::dice::RecordedDie| {
        d.name == "attack" || (d.name == "defence" && !matches!(a.defence, DefenceArg::Ignore))
    };
    let (rolls, strike_dice): (Vec<_>, Vec<_>) = given.into_iter().partition(rolls_here);
    let given_roll = |name: &str| rolls.iter().any(|d| d.name == name);
    let given_rolls = (given_roll("attack"), given_roll("defence"));
    let names = [a.attacker.as_str(), a.defender.as_str()];
    // The exchange's own rolls are its fields, rolled here (stream 0); the Injury Sequence
    // it flows into runs once, in the fold, drawing its dice from the table's (stream 1).
    let mut r = roller(ctx, 0);
    let mut table = TableDice::new("the exchange", rolls, &mut r);
    let mut r2 = roller(ctx, 1);
    let mut strike = TableDice::new("the exchange", strike_dice, &mut r2);
    let drawing = &mut strike;
    let mut rolls_made = (0, None);
    let (ledger, env, applied) = ctx.record_for(Some(&names), |ledger, _| {
        let att = find(ledger, &a.attacker)?;
        let def = find(ledger, &a.defender)?;
        let defence = match a.defence {
            DefenceArg::Ignore => DefenceDecl::Ignore,
            DefenceArg::Dodge => DefenceDecl::Dodge {
                reach_weapon: a.with.clone(),
            },
            DefenceArg::Block => DefenceDecl::Block {
                weapon: a.with.clone().ok_or_else(|| {
                    CommandError::user(
                        "a Block needs the readied weapon it blocks with (--with WEAPON)",
                    )
                })?,
                grip: a.with_grip.into(),
                reach_weapon: None,
            },
            DefenceArg::Counterstrike => DefenceDecl::Counterstrike(StrikeDecl {
                weapon: a.with.clone().ok_or_else(|| {
                    CommandError::user(
                        "a Counterstrike needs its weapon (--with WEAPON --with-mode MODE)",
                    )
                })?,
                mode: a
                    .with_mode
                    .clone()
                    .ok_or_else(|| CommandError::user("a Counterstrike needs --with-mode"))?,
                grip: a.with_grip.into(),
                aim: a.counter_aim,
            }),
        };
        // A test that needs a zone a Grievous injury made unusable is an automatic CF: no die
        // is rolled for it (0), and a face given for it is refused.
        let attack_decl = StrikeDecl {
            weapon: a.weapon.clone(),
            mode: a.mode.clone(),
            grip: a.grip.into(),
            aim: a.aim,
        };
        let forced = ledger.settings.hm.melee_forced_cfs(
            (att, def),
            &attack_decl,
            &defence,
            ledger.now,
        )?;
        let mut roll = |name: &'static str, forced: bool, given: bool, who: &str| {
            match (forced, given) {
                (true, true) => Err(CommandError::user(format!(
                    "{who}'s {name} test is an automatic CF (a zone it needs is unusable: Grievous): it takes no die"
                ))),
                (true, false) => Ok(0),
                (false, _) => Ok(table.one(name, Die::D100)?),
            }
        };
        let attack_roll = roll("attack", forced.0, given_rolls.0, &att.name)?;
        let defence_roll = match defence {
            DefenceDecl::Ignore => None,
            _ => Some(roll("defence", forced.1, given_rolls.1, &def.name)?),
        };
        rolls_made = (attack_roll, defence_roll);
        let x = MeleeExchange {
            attacker: att.id,
            defender: def.id,
            attack: attack_decl,
            defence,
            situation: Situation {
                foes: a.foes,
                attacker_prone: a.attacker_prone,
                defender_prone: a.defender_prone,
                in_close: a.in_close,
                attacker_mounted: a.attacker_mounted,
                defender_mounted: a.defender_mounted,
                attack_mod: a.attack_mod,
                defence_mod: a.defence_mod,
                attack_setup: a.attack_setup,
                defence_setup: a.defence_setup,
            },
            attack_roll,
            defence_roll,
            tas: a
                .tas
                .iter()
                .map(|t| match t {
                    TaArg::Action => Ta::Action,
                    TaArg::Impact => Ta::Impact,
                    TaArg::Precision => Ta::Precision,
                    TaArg::Setup => Ta::Setup,
                })
                .collect(),
            dice: Vec::new(),
        };
        let event = match &a.natural {
            None => HmEvent::Melee(Box::new(x)),
            Some(zone) => {
                // The blocker strikes back with the blocking weapon: the mode given, or its
                // first.
                let strike_back = match (&x.defence, a.forgo) {
                    (DefenceDecl::Block { weapon, .. }, false) => match &a.with_mode {
                        Some(m) => Some(m.clone()),
                        None => ledger
                            .settings
                            .hm
                            .arms
                            .weapon(weapon)
                            .and_then(|w| w.modes.first())
                            .map(|m| m.name.clone()),
                    },
                    _ => None,
                };
                HmEvent::NaturalMelee(Box::new(NaturalMelee {
                    exchange: x,
                    natural: Natural {
                        zone: zone.trim().to_ascii_lowercase(),
                        strike_back,
                    },
                }))
            }
        };
        Ok(Draft {
            event: Event::HarnMaster(event),
            at: None,
            dice: Some(drawing),
        })
    })?;
    let (attack_roll, defence_roll) = rolls_made;
    let mut faces: Vec<String> = Vec::new();
    if table.rolled.contains(&"attack") {
        faces.push(format!("attack={attack_roll}"));
    }
    if let (true, Some(d)) = (table.rolled.contains(&"defence"), defence_roll) {
        faces.push(format!("defence={d}"));
    }
    if let Some(x) = match &env.event {
        Event::HarnMaster(h) => h.exchange(),
        _ => None,
    } {
        faces.extend(rolled_faces(&x.dice, &strike.rolled));
    }
    if !faces.is_empty() {
        ctx.note(format!("rolled by Leechbook: {}", faces.join(",")));
    }
    ctx.say(narrate::event(&ledger, &env, &applied));
    if let Some(HmApplied::Melee { outcome, .. }) = applied.hm() {
        if let Some((target, _)) = &outcome.strike {
            if let Some(leechbook_core::fold::CharacterState::HarnMaster(h)) =
                ledger.character(*target)
            {
                for o in crate::views::immediate(&ledger, h) {
                    ctx.say(format!("  owes: {}", crate::views::render_owed(&o)));
                }
            }
        }
    }
    Ok(())
}
