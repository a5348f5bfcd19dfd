//! HârnMaster as a [`RulesSystem`]: the outcome of one event ([`HmOutcome`]), decided and
//! applied. Its campaign-wide settings ([`HmSettings`]: body tables, TREATMENT ROLL tables,
//! options, arms) are in `settings` and its typed refusals ([`HmError`]) in `error`, so that
//! the kernel's types hold them without importing this module back.
//!
//! [`HarnMaster::decide`] reads: it resolves the event against the characters it touches and
//! the settings, reading every die from the event (replay never rolls), and returns what the
//! sequence found or why the event cannot apply. [`HarnMaster::apply`] writes that outcome
//! and cannot fail. Nothing is cloned per event: a strike on a character with a long history
//! costs the strike, not the history.

use super::arms::{Arms, Gear};
use super::body::BodyTable;
pub use super::error::HmError;
use super::exchange::{self, ExchangeOutcome};
use super::healing::{self, HealOutcome, TreatmentTable};
use super::injury::{self, StrikeOutcome};
pub use super::settings::{HmSettings, Options, OPTION_NAMES};
use super::shock::{self, GmRoll, GmRollOutcome, ShockRollOutcome};
use super::shot::ShotOutcome;
use super::state::ShockState;
use super::state::{HmCharacter, Injury, OrderKey, Sheet};
use super::HmEvent;
use crate::ids::{CharacterId, InjuryId};
use leechbook_kernel::dice::{DiceError, DiceSource, RecordedDie};
use leechbook_kernel::system::{RulesSystem, Touched, World};
use serde::{Deserialize, Serialize};

/// An outcome the GM decrees about a HârnMaster character (a ruling's override).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Decree {
    /// An injury's level (0 heals it).
    InjuryLevel {
        /// The injury.
        injury: InjuryId,
        /// The level, 0-5.
        level: u8,
    },
    /// The character's Shock State.
    ShockState(ShockState),
    /// An injury's Healing Rate.
    HealingRate {
        /// The injury.
        injury: InjuryId,
        /// The HR, 1-6.
        rate: i32,
    },
    /// A roll the GM resolves (Morale, a Fumble, a Stumble) dropped from what the character
    /// owes: the GM waives it (`waive`). Retracting the ruling owes it again.
    Waive {
        /// Which roll.
        kind: super::shock::GmRollKind,
        /// The injury that called for it (None: the one owed, or a test's mishap).
        injury: Option<InjuryId>,
    },
}

/// What applying a HârnMaster event did, for narration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HmApplied {
    /// A body table was defined.
    TableDefined(String),
    /// A sheet (or a character's gear) changed.
    SheetChanged(CharacterId),
    /// A strike was resolved.
    Strike {
        /// The target.
        target: CharacterId,
        /// Everything the sequence found.
        outcome: Box<StrikeOutcome>,
    },
    /// A Shock Reroll (`reroll`) or stun recovery test was made.
    ShockRoll {
        /// Who.
        character: CharacterId,
        /// Reroll (true) or stun recovery (false).
        reroll: bool,
        /// What it did.
        outcome: ShockRollOutcome,
    },
    /// A GM-resolved roll was recorded.
    GmRoll {
        /// Who.
        character: CharacterId,
        /// What it resolved.
        outcome: GmRollOutcome,
    },
    /// A Healing Sequence event.
    Heal {
        /// Who.
        character: CharacterId,
        /// What kind (`healing`, `blood-loss`, `treatment`, ...).
        kind: &'static str,
        /// What it did.
        outcome: Box<HealOutcome>,
    },
    /// A campaign option, the arms or the treatment tables changed.
    Setting(String),
    /// A missile attack was resolved.
    Shot {
        /// The shooter.
        shooter: CharacterId,
        /// Everything it found.
        outcome: Box<ShotOutcome>,
    },
    /// A melee exchange was resolved.
    Melee {
        /// The attacker.
        attacker: CharacterId,
        /// The defender.
        defender: CharacterId,
        /// Everything it found.
        outcome: Box<ExchangeOutcome>,
    },
}

/// What one HârnMaster event found: everything [`HarnMaster::apply`] writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HmOutcome {
    /// A body table defined.
    TableDefined(BodyTable),
    /// A character's new sheet.
    SheetChanged(Sheet),
    /// A strike resolved.
    Strike(Box<StrikeOutcome>),
    /// A Shock Reroll (`reroll`) or stun recovery test.
    ShockRoll {
        /// Reroll (true) or stun recovery (false).
        reroll: bool,
        /// What it did.
        outcome: ShockRollOutcome,
    },
    /// A GM-resolved roll.
    GmRoll {
        /// The roll.
        roll: GmRoll,
        /// What it resolved.
        outcome: GmRollOutcome,
    },
    /// A Healing Sequence roll.
    Heal {
        /// What kind (`healing`, `blood-loss`, `treatment`, ...).
        kind: &'static str,
        /// What it did.
        outcome: Box<HealOutcome>,
    },
    /// An option turned on or off.
    OptionSet {
        /// The option.
        name: String,
        /// On or off.
        on: bool,
    },
    /// Weapons and armour defined.
    ArmsDefined(Arms),
    /// A character's gear.
    Equipped(Gear),
    /// A melee exchange resolved.
    Melee(Box<ExchangeOutcome>),
    /// A missile attack resolved.
    Shot(Box<ShotOutcome>),
    /// The TREATMENT ROLL tables defined.
    TreatmentTableDefined(TreatmentTable),
}

impl HmApplied {
    /// The character the event is about (none for a setting).
    pub fn character(&self) -> Option<CharacterId> {
        match self {
            HmApplied::TableDefined(_) | HmApplied::Setting(_) => None,
            HmApplied::SheetChanged(id) => Some(*id),
            HmApplied::Strike { target, .. } => Some(*target),
            HmApplied::ShockRoll { character, .. }
            | HmApplied::GmRoll { character, .. }
            | HmApplied::Heal { character, .. } => Some(*character),
            HmApplied::Shot { shooter, .. } => Some(*shooter),
            HmApplied::Melee { attacker, .. } => Some(*attacker),
        }
    }

    /// The d100 tests the event made (a strike's amputation and shock rolls, a shock roll,
    /// a GM-resolved roll, a Healing Sequence roll): what the audit of rulings compares.
    pub fn tests(&self) -> Vec<crate::test_roll::TestResult> {
        match self {
            HmApplied::Strike { outcome, .. } => outcome
                .amputation
                .iter()
                .map(|a| a.test)
                .chain(outcome.shock.iter().map(|s| s.test))
                .collect(),
            HmApplied::ShockRoll { outcome, .. } => vec![outcome.test],
            HmApplied::GmRoll { outcome, .. } => outcome.test.into_iter().collect(),
            HmApplied::Heal { outcome, .. } => outcome.test.into_iter().collect(),
            _ => Vec::new(),
        }
    }
}

/// HârnMaster (rules texts 001: the Missile, Melee, Injury and Healing Sequences).
pub struct HarnMaster;

impl leechbook_kernel::system::OfSystem for HmEvent {
    type System = HarnMaster;
}

fn get<'a>(cs: &[&'a HmCharacter], id: CharacterId) -> Result<&'a HmCharacter, HmError> {
    cs.iter()
        .find(|c| c.id == id)
        .copied()
        .ok_or(HmError::UnknownCharacter(id))
}

fn get_mut<'a>(cs: &'a mut [&mut HmCharacter], id: CharacterId) -> Option<&'a mut HmCharacter> {
    cs.iter_mut().find(|c| c.id == id).map(|c| &mut **c)
}

/// What the kernel's fold reads of a character.
impl leechbook_kernel::system::Character for HmCharacter {
    fn id(&self) -> CharacterId {
        self.id
    }

    fn name(&self) -> &str {
        &self.name
    }
}

/// HârnMaster's decrees are the only ones a ledger's rulings carry: a list whose decree is
/// this one hands it to HârnMaster as it is.
impl leechbook_kernel::system::DecreeOf<Decree> for Decree {
    fn of(d: &Decree) -> Option<&Decree> {
        Some(d)
    }
}

impl RulesSystem for HarnMaster {
    type Character = HmCharacter;
    type Event = HmEvent;
    type Settings = HmSettings;
    type Outcome = HmOutcome;
    type Applied = HmApplied;
    type Error = HmError;
    type Decree = Decree;
    const NAME: &'static str = "harnmaster";
    /// An exchange reaches its defender, a shot its target and whoever it strikes instead.
    const REACHING: &'static [&'static str] = &["hm.melee", "hm.shot"];

    fn readings() -> Vec<(&'static str, &'static str)> {
        crate::READINGS.to_vec()
    }

    fn kind(e: &HmEvent) -> &'static str {
        match e {
            HmEvent::BodyTableDefined(_) => "hm.body-table-defined",
            HmEvent::SheetChanged { .. } => "hm.sheet-changed",
            HmEvent::Strike(_) => "hm.strike",
            HmEvent::ShockReroll(_) => "hm.shock-reroll",
            HmEvent::StunRecovery(_) => "hm.stun-recovery",
            HmEvent::GmRoll(_) => "hm.gm-roll",
            HmEvent::SeqRoll(_) => "hm.seq-roll",
            HmEvent::BloodStoppage(_) => "hm.blood-stoppage",
            HmEvent::Treatment(_) => "hm.treatment",
            HmEvent::HealerAttends(_) => "hm.healer-attends",
            HmEvent::OptionSet { .. } => "hm.option-set",
            HmEvent::TreatmentTableDefined(_) => "hm.treatment-table-defined",
            HmEvent::ArmsDefined(_) => "hm.arms-defined",
            HmEvent::Equipped { .. } => "hm.equipped",
            HmEvent::Melee(_) | HmEvent::NaturalMelee(_) => "hm.melee",
            HmEvent::Shot(_) => "hm.shot",
            HmEvent::Fatigue(_) => "hm.fatigue",
            HmEvent::MoveTest(_) => "hm.move-test",
        }
    }

    fn check_faces(e: &HmEvent) -> Result<(), DiceError> {
        e.check_faces()
    }

    fn sheet(c: &HmCharacter) -> Sheet {
        c.sheet.clone()
    }

    fn dead(c: &HmCharacter) -> bool {
        c.dead()
    }

    fn about(a: &HmApplied) -> Option<CharacterId> {
        a.character()
    }

    fn tests(a: &HmApplied) -> Vec<crate::test_roll::TestResult> {
        a.tests()
    }

    type Sheet = Sheet;

    /// A HârnMaster character's sheet names its body table, which the campaign must know.
    fn new_character(
        settings: &HmSettings,
        id: CharacterId,
        name: &str,
        sheet: &Sheet,
    ) -> Result<HmCharacter, HmError> {
        if settings.table(&sheet.body).is_none() {
            return Err(HmError::UnknownTable(sheet.body.clone()));
        }
        Ok(HmCharacter::new(id, name.to_string(), sheet.clone()))
    }

    fn touches(e: &HmEvent) -> Touched {
        match e {
            HmEvent::SheetChanged { character, .. } | HmEvent::Equipped { character, .. } => {
                Touched::one(*character)
            }
            HmEvent::Strike(s) => Touched::one(s.target),
            HmEvent::ShockReroll(r) | HmEvent::StunRecovery(r) => Touched::one(r.character),
            HmEvent::GmRoll(r) => Touched::one(r.character),
            HmEvent::SeqRoll(r) => Touched::one(r.character),
            HmEvent::BloodStoppage(r) => Touched::one(r.character),
            HmEvent::Treatment(r) => Touched::one(r.character),
            HmEvent::HealerAttends(r) => Touched::one(r.character),
            HmEvent::Fatigue(r) => Touched::one(r.character),
            HmEvent::MoveTest(r) => Touched::one(r.character),
            HmEvent::Melee(x) => Touched::one(x.attacker).and(x.defender),
            HmEvent::NaturalMelee(n) => Touched::one(n.exchange.attacker).and(n.exchange.defender),
            HmEvent::Shot(x) => Touched::one(x.shooter)
                .and_maybe(x.target)
                .and_maybe(x.struck),
            HmEvent::BodyTableDefined(_)
            | HmEvent::OptionSet { .. }
            | HmEvent::TreatmentTableDefined(_)
            | HmEvent::ArmsDefined(_) => Touched::none(),
        }
    }

    fn decide(
        settings: &HmSettings,
        cs: &[&HmCharacter],
        e: &HmEvent,
        world: &World,
        dice: &mut dyn DiceSource,
    ) -> Result<HmOutcome, HmError> {
        e.check_faces()?;
        let ctx = settings.context(world);
        let id = InjuryId(world.event.0);
        Ok(match e {
            HmEvent::BodyTableDefined(t) => {
                t.validate()?;
                HmOutcome::TableDefined(t.clone())
            }
            HmEvent::SheetChanged { sheet, .. } => {
                if settings.table(&sheet.body).is_none() {
                    return Err(HmError::UnknownTable(sheet.body.clone()));
                }
                HmOutcome::SheetChanged(sheet.clone())
            }
            HmEvent::Strike(s) => {
                let ch = get(cs, s.target)?;
                let outcome = injury::resolve_strike(ch, settings.body_of(ch)?, s, id, dice)?;
                HmOutcome::Strike(Box::new(outcome))
            }
            HmEvent::ShockReroll(r) | HmEvent::StunRecovery(r) => {
                let reroll = matches!(e, HmEvent::ShockReroll(_));
                let ch = get(cs, r.character)?;
                let outcome = if reroll {
                    shock::resolve_shock_reroll(ch, r.roll, ctx.at)?
                } else {
                    shock::resolve_stun_recovery(ch, r.roll, ctx.at)?
                };
                HmOutcome::ShockRoll { reroll, outcome }
            }
            HmEvent::GmRoll(r) => HmOutcome::GmRoll {
                roll: r.clone(),
                outcome: shock::resolve_gm_roll(get(cs, r.character)?, r)?,
            },
            HmEvent::SeqRoll(r) => {
                if r.kind == healing::SeqRollKind::Aggravation && !settings.options.aggravation {
                    return Err(HmError::Setting(
                        "the Serious-injury aggravation option is off in this campaign".into(),
                    ));
                }
                let ch = get(cs, r.character)?;
                let outcome = healing::check_seq(ch, r, settings.treatment_table(), ctx)?;
                heal(r.kind.name(), outcome)
            }
            HmEvent::BloodStoppage(b) => heal(
                "blood-stoppage",
                healing::check_stoppage(get(cs, b.character)?, b, ctx.at)?,
            ),
            HmEvent::Treatment(t) => {
                let ch = get(cs, t.character)?;
                let body = settings.body_of(ch)?;
                let outcome =
                    healing::check_treatment(ch, t, settings.treatment_table(), body, ctx.at)?;
                heal("treatment", outcome)
            }
            HmEvent::HealerAttends(a) => heal(
                "healer-attends",
                healing::check_attends(get(cs, a.character)?, a)?,
            ),
            HmEvent::Fatigue(f) => {
                heal("fatigue", healing::check_fatigue(get(cs, f.character)?, f)?)
            }
            HmEvent::MoveTest(m) => {
                if !settings.options.aggravation {
                    return Err(HmError::Setting(
                        "the Serious-injury aggravation option is off in this campaign".into(),
                    ));
                }
                heal(
                    "move-test",
                    healing::check_move_test(get(cs, m.character)?, m)?,
                )
            }
            HmEvent::OptionSet { name, on } => {
                if !OPTION_NAMES.contains(&name.as_str()) {
                    return Err(HmError::Setting(format!(
                        "there is no option '{name}' (options: {})",
                        OPTION_NAMES.join(", ")
                    )));
                }
                HmOutcome::OptionSet {
                    name: name.clone(),
                    on: *on,
                }
            }
            HmEvent::ArmsDefined(a) => {
                a.validate().map_err(HmError::Setting)?;
                HmOutcome::ArmsDefined(a.clone())
            }
            HmEvent::Equipped { gear, .. } => {
                for w in &gear.weapons {
                    if settings.arms.weapon(w).is_none() {
                        return Err(HmError::Setting(format!(
                            "there is no weapon '{w}' in the campaign's arms"
                        )));
                    }
                }
                for a in &gear.armour {
                    if settings.arms.armour(a).is_none() {
                        return Err(HmError::Setting(format!(
                            "there is no armour '{a}' in the campaign's arms"
                        )));
                    }
                }
                HmOutcome::Equipped(gear.clone())
            }
            HmEvent::Melee(_) | HmEvent::NaturalMelee(_) => {
                let natural = match e {
                    HmEvent::NaturalMelee(n) => Some(&n.natural),
                    _ => None,
                };
                let x = e.exchange().expect("an exchange");
                let outcome = settings.check_melee(
                    get(cs, x.attacker)?,
                    get(cs, x.defender)?,
                    (x, natural),
                    id,
                    world.now,
                    dice,
                )?;
                HmOutcome::Melee(Box::new(outcome))
            }
            HmEvent::Shot(x) => {
                let outcome = settings.check_shot(
                    get(cs, x.shooter)?,
                    x.target.map(|t| get(cs, t)).transpose()?,
                    x.struck.map(|t| get(cs, t)).transpose()?,
                    x,
                    id,
                    world.now,
                    dice,
                )?;
                HmOutcome::Shot(Box::new(outcome))
            }
            HmEvent::TreatmentTableDefined(t) => {
                t.validate().map_err(HmError::Setting)?;
                HmOutcome::TreatmentTableDefined(t.clone())
            }
        })
    }

    /// A strike's, an exchange's and a shot's Injury Sequence draw their dice (zone,
    /// location, impact, shock ...); every other event declares its roll among its fields.
    fn dice(e: &HmEvent) -> &[RecordedDie] {
        match e {
            HmEvent::Strike(s) => &s.dice,
            HmEvent::Melee(x) => &x.dice,
            HmEvent::NaturalMelee(n) => &n.exchange.dice,
            HmEvent::Shot(x) => &x.dice,
            _ => &[],
        }
    }

    fn record(e: &mut HmEvent, drawn: Vec<RecordedDie>) {
        match e {
            HmEvent::Strike(s) => s.dice = drawn,
            HmEvent::Melee(x) => x.dice = drawn,
            HmEvent::NaturalMelee(n) => n.exchange.dice = drawn,
            HmEvent::Shot(x) => x.dice = drawn,
            _ => {}
        }
    }

    fn amendable(e: &mut Self::Event) -> Option<&mut dyn leechbook_kernel::amend::Amendable> {
        Some(e)
    }

    fn apply(
        settings: &mut HmSettings,
        cs: &mut [&mut HmCharacter],
        outcome: HmOutcome,
        world: &World,
    ) -> HmApplied {
        let filing = Filing::after(&outcome);
        // Who was in a Shock State before the event (at most three characters are touched).
        let shocked: [bool; 3] =
            std::array::from_fn(|i| cs.get(i).is_some_and(|c| c.shock != ShockState::None));
        let applied = apply_outcome(settings, cs, outcome, world);
        for (i, c) in cs.iter_mut().enumerate() {
            if shocked.get(i) == Some(&true) && c.shock == ShockState::None {
                c.fight_resumes(world.now);
            }
            match filing {
                Filing::Scan => c.file_healed(world.order),
                Filing::Injury(id) => c.file_healed_injury(id, world.order),
                Filing::Nothing => {}
            }
        }
        applied
    }
    fn decree(
        settings: &HmSettings,
        ch: &mut HmCharacter,
        decree: &Decree,
        world: &World,
    ) -> Result<String, HmError> {
        let ctx = settings.context(world);
        let name = ch.name.clone();
        let unknown =
            |id: InjuryId| HmError::Setting(format!("{name} has no injury {}", id.short()));
        let setting = |s: &str| HmError::Setting(s.into());
        let said = match decree {
            Decree::InjuryLevel { injury, level } => {
                if *level > 5 {
                    return Err(setting("an Injury Level is 0-5"));
                }
                let i = reopened(ch, *injury, world.order).ok_or_else(|| unknown(*injury))?;
                let before = i.code();
                i.level = *level;
                i.worst = i.worst.max(*level);
                if *level <= 1 && i.heal.minor_at.is_none() {
                    i.heal.minor_at = Some(ctx.at);
                }
                if *level == 0 {
                    i.heal.healed_at = Some(ctx.at);
                    i.bleeder = false;
                }
                format!("{before} becomes IL{level}")
            }
            Decree::ShockState(s) => {
                let before = ch.shock;
                ch.shock = *s;
                if before != ShockState::None && *s == ShockState::None {
                    ch.fight_resumes(ctx.at);
                }
                ch.blood_loss_shock = false;
                if *s == ShockState::Killed {
                    injury::kill(ch, "the GM's ruling", ctx.at);
                } else {
                    if *s == ShockState::None {
                        ch.extended_shock = None;
                        ch.coma = None;
                    }
                    injury::set_shock_owed(ch, ctx);
                }
                format!("shock state {before} becomes {s}")
            }
            Decree::HealingRate { injury, rate } => {
                if !(1..=6).contains(rate) {
                    return Err(setting("a Healing Rate is 1-6"));
                }
                let i = reopened(ch, *injury, world.order).ok_or_else(|| unknown(*injury))?;
                let before = healing::healing_rate(i, settings.treatment_table());
                i.heal.rate_override = Some(*rate);
                format!("HR{before} becomes HR{rate}")
            }
            Decree::Waive { kind, injury } => shock::waive(ch, *kind, *injury)?,
        };
        ch.file_healed(world.order);
        Ok(said)
    }
}

/// Which injuries an outcome can have left to file (see [`HmCharacter::file_healed`]). After
/// every event no injury the rules can never read again is left unfiled, so only what the
/// event changed needs looking at: a Healing Roll changes one injury's level (and an infection
/// it starts names that injury: it only keeps one), and the rolls below change no injury's
/// level and no Shock State, infection or owed roll that names one. Every other event (a
/// strike, a treatment, a shock roll, a course roll that ends a condition) may file any
/// injury, so the character's are all looked at. The replay's hot path: a Healing Roll is most
/// of a long campaign's events, and a character keeps a hundred healed injuries that bear a
/// permanent mark (BENCHMARKS.md).
#[derive(Clone, Copy)]
enum Filing {
    Scan,
    Injury(InjuryId),
    Nothing,
}

impl Filing {
    fn after(outcome: &HmOutcome) -> Filing {
        let HmOutcome::Heal { outcome, .. } = outcome else {
            return Filing::Scan;
        };
        match (&outcome.effect, outcome.injury) {
            (healing::Effect::Healing { .. }, Some(id)) => Filing::Injury(id),
            (
                healing::Effect::Period(_)
                | healing::Effect::Regeneration { .. }
                | healing::Effect::Aggravation { .. }
                | healing::Effect::Attend { .. },
                _,
            ) => Filing::Nothing,
            _ => Filing::Scan,
        }
    }
}

/// [`HarnMaster::apply`] of one outcome, before healed injuries are filed.
fn apply_outcome(
    settings: &mut HmSettings,
    cs: &mut [&mut HmCharacter],
    outcome: HmOutcome,
    world: &World,
) -> HmApplied {
    let ctx = settings.context(world);
    match outcome {
        HmOutcome::TableDefined(t) => {
            let name = t.name.clone();
            if t.name == "human" {
                settings.human = Some(t);
            } else {
                settings.tables.push(t);
            }
            HmApplied::TableDefined(name)
        }
        HmOutcome::SheetChanged(sheet) => {
            cs[0].sheet = sheet;
            HmApplied::SheetChanged(cs[0].id)
        }
        HmOutcome::Strike(outcome) => {
            injury::apply_strike(cs[0], &outcome, ctx);
            HmApplied::Strike {
                target: cs[0].id,
                outcome,
            }
        }
        HmOutcome::ShockRoll { reroll, outcome } => {
            shock::apply_shock_roll(cs[0], &outcome, ctx);
            HmApplied::ShockRoll {
                character: cs[0].id,
                reroll,
                outcome,
            }
        }
        HmOutcome::GmRoll { roll, outcome } => {
            shock::apply_gm_roll(cs[0], &roll, &outcome);
            HmApplied::GmRoll {
                character: cs[0].id,
                outcome,
            }
        }
        HmOutcome::Heal { kind, outcome } => {
            healing::apply(cs[0], &outcome, ctx, settings.treatment_table());
            HmApplied::Heal {
                character: cs[0].id,
                kind,
                outcome,
            }
        }
        HmOutcome::OptionSet { name, on } => {
            match name.as_str() {
                "random-healing-period" => settings.options.random_healing_period = on,
                _ => settings.options.aggravation = on,
            }
            HmApplied::Setting(format!("option {name} {}", if on { "on" } else { "off" }))
        }
        HmOutcome::ArmsDefined(a) => {
            settings.arms.merge(&a);
            HmApplied::Setting(format!(
                "arms defined: {} weapons, {} armour pieces",
                a.weapons.len(),
                a.armour.len()
            ))
        }
        HmOutcome::Equipped(gear) => {
            cs[0].gear = gear;
            HmApplied::SheetChanged(cs[0].id)
        }
        HmOutcome::Melee(outcome) => {
            // `decide` refused an attack on oneself: the exchange touches two.
            let (attacker, defender) = (cs[0].id, cs[cs.len() - 1].id);
            if let [att, def] = cs {
                exchange::apply(att, def, &outcome, ctx);
            }
            HmApplied::Melee {
                attacker,
                defender,
                outcome,
            }
        }
        HmOutcome::Shot(outcome) => {
            use super::missile::MissileResult;
            use super::state::Owed;
            let owed: Vec<Owed> = match &outcome.result {
                MissileResult::Mishap(kind) | MissileResult::Spoiled(Some(kind)) => {
                    vec![Owed::TestMishap {
                        kind: *kind,
                        automatic: false,
                        at: ctx.at,
                    }]
                }
                MissileResult::AutomaticMishap(kinds) => kinds
                    .iter()
                    .map(|&kind| Owed::TestMishap {
                        kind,
                        automatic: true,
                        at: ctx.at,
                    })
                    .collect(),
                _ => Vec::new(),
            };
            let shooter = cs[0].id;
            if !owed.is_empty() {
                cs[0].drop_lapsed(ctx.at);
            }
            cs[0].owed.extend(owed);
            cs[0].call_aggravation(&outcome.aggravating);
            if let Some((target, strike)) = &outcome.strike {
                if let Some(t) = get_mut(cs, *target) {
                    injury::apply_strike(t, strike, ctx);
                }
            }
            HmApplied::Shot { shooter, outcome }
        }
        HmOutcome::TreatmentTableDefined(t) => {
            settings.treatment = Some(t);
            HmApplied::Setting("treatment tables defined".into())
        }
    }
}

/// The injury `id` for a decree: one the rules read, or an archived one taken back among them
/// (a GM's decree may reopen a healed wound).
fn reopened(ch: &mut HmCharacter, id: InjuryId, at: OrderKey) -> Option<&mut Injury> {
    match ch.injuries.iter().position(|i| i.id == id) {
        Some(k) => Some(&mut ch.injuries[k]),
        None => ch.reopen(id, at),
    }
}

fn heal(kind: &'static str, outcome: HealOutcome) -> HmOutcome {
    HmOutcome::Heal {
        kind,
        outcome: Box::new(outcome),
    }
}
