//! What a GM's amendment may correct in a HârnMaster event ([`Amendable`]): a strike's dice
//! and inputs (armour, aim, impact), every roll's face and the ML or Physician skill it was
//! rolled against, a GM-resolved roll's outcome, an exchange's or a shot's attack and
//! defence rolls and the dice of the strike they led to.

use crate::dice::{DiceExpr, Die};
use crate::injury::{ImpactInput, Strike, Targeting, STRIKE_DICE};
use crate::HmEvent;
use leechbook_kernel::amend::{
    faces, known, one_face, recorded, set_die, value, AmendError, Amendable, Correction, Field,
};

const NUMBER: &str = "a whole number";
const FLAG: &str = "true or false";

/// The impact as `impact`, `str-mod` and `impact-ta` amend it (an entered effective impact
/// becomes a rolled one from `0`).
fn rolled_impact(i: &ImpactInput) -> (DiceExpr, i32, i32) {
    match i {
        ImpactInput::Rolled {
            roll,
            strength_mod,
            impact_ta,
        } => (*roll, *strength_mod, *impact_ta),
        ImpactInput::Effective(_) => (
            DiceExpr {
                count: 0,
                die: Die::D6,
                modifier: 0,
            },
            0,
            0,
        ),
    }
}

fn strike_fields(s: &Strike) -> Vec<Field> {
    let mut f: Vec<Field> = STRIKE_DICE
        .iter()
        .map(|n| Field::die(n, recorded(&s.dice, n)))
        .collect();
    f.push(Field::input("av", s.av));
    f.push(Field::input("rigid", s.rigid));
    if let Targeting::Rolled { aim, .. } = s.targeting {
        f.push(Field::input("aim", aim));
    }
    match &s.impact {
        ImpactInput::Rolled {
            roll,
            strength_mod,
            impact_ta,
        } => {
            f.push(Field::input("impact", roll));
            f.push(Field::input("str-mod", strength_mod));
            f.push(Field::input("impact-ta", impact_ta));
            f.push(Field::input("effective", "none"));
        }
        ImpactInput::Effective(e) => {
            f.push(Field::input("impact", "none"));
            f.push(Field::input("str-mod", 0));
            f.push(Field::input("impact-ta", 0));
            f.push(Field::input("effective", e));
        }
    }
    f
}

fn correct_strike(s: &mut Strike, name: &str, c: &Correction) -> Result<(), AmendError> {
    let fields = strike_fields(s);
    let field = match known(&fields, name, c) {
        Ok(f) => f.name,
        // `aim` is a strike's input even where the location was not rolled.
        Err(_) if name == "aim" && !matches!(c, Correction::Faces(_)) => {
            return Err(AmendError::NotHere("aim"))
        }
        Err(e) => return Err(e),
    };
    if let Correction::Faces(_) = c {
        set_die(&mut s.dice, field, faces(field, c)?);
        return Ok(());
    }
    match field {
        "av" => s.av = value(field, c, NUMBER)?,
        "rigid" => s.rigid = value(field, c, FLAG)?,
        "aim" => {
            if let Targeting::Rolled { aim, .. } = &mut s.targeting {
                *aim = value(field, c, "a zone number (ZN)")?;
            }
        }
        "effective" => s.impact = ImpactInput::Effective(value(field, c, NUMBER)?),
        // An entered effective impact has no Strength modifier or Impact TA to correct: its
        // roll is given first (`impact`), or the effective impact itself.
        "str-mod" | "impact-ta" if matches!(s.impact, ImpactInput::Effective(_)) => {
            return Err(AmendError::NotHere(field))
        }
        _ => {
            let (mut roll, mut sm, mut ta) = rolled_impact(&s.impact);
            match field {
                "impact" => roll = value(field, c, "a roll such as d10+3")?,
                "str-mod" => sm = value(field, c, NUMBER)?,
                _ => ta = value(field, c, NUMBER)?,
            }
            s.impact = ImpactInput::Rolled {
                roll,
                strength_mod: sm,
                impact_ta: ta,
            };
        }
    }
    Ok(())
}

impl Amendable for HmEvent {
    fn fields(&self) -> Vec<Field> {
        let d100 = |n, f: u16| Field::die(n, &[f]);
        match self {
            HmEvent::Strike(s) => strike_fields(s),
            HmEvent::ShockReroll(r) | HmEvent::StunRecovery(r) => vec![d100("roll", r.roll)],
            HmEvent::SeqRoll(r) => {
                let mut f = vec![d100("roll", r.roll)];
                if let Some(p) = r.period {
                    f.push(d100("period", p));
                }
                f
            }
            HmEvent::BloodStoppage(b) => vec![
                d100("roll", b.roll),
                Field::input("physician", b.physician_ml),
            ],
            HmEvent::Treatment(t) => vec![
                d100("treatment", t.roll),
                Field::input("physician", t.physician_ml),
            ],
            HmEvent::GmRoll(g) => vec![
                Field::die("roll", g.roll.as_slice()),
                Field::input("ml", g.ml.map_or("none".into(), |m| m.to_string())),
                Field::input("outcome", g.outcome.as_deref().unwrap_or("none")),
            ],
            HmEvent::MoveTest(m) => vec![d100("roll", m.roll), Field::input("ml", m.ml)],
            HmEvent::Melee(_) | HmEvent::NaturalMelee(_) => {
                let x = self.exchange().expect("an exchange");
                let mut f = vec![Field::die("attack", &[x.attack_roll])];
                if let Some(d) = x.defence_roll {
                    f.push(Field::die("defence", &[d]));
                }
                f.extend(
                    STRIKE_DICE
                        .iter()
                        .map(|n| Field::die(n, recorded(&x.dice, n))),
                );
                f
            }
            HmEvent::Shot(x) => {
                let mut f = vec![Field::die("attack", &[x.roll])];
                f.extend(
                    STRIKE_DICE
                        .iter()
                        .map(|n| Field::die(n, recorded(&x.dice, n))),
                );
                f
            }
            _ => vec![],
        }
    }

    fn correct(&mut self, name: &str, c: &Correction) -> Result<(), AmendError> {
        // A treatment's die has always answered to `roll` as well.
        let name = match (&*self, name) {
            (HmEvent::Treatment(_), "roll") => "treatment",
            _ => name,
        };
        if let HmEvent::Strike(s) = self {
            return correct_strike(s, name, c);
        }
        let fields = self.fields();
        let field = known(&fields, name, c)?.name;
        match (self, field) {
            (HmEvent::ShockReroll(r) | HmEvent::StunRecovery(r), _) => r.roll = one_face(field, c)?,
            (HmEvent::SeqRoll(r), "period") => r.period = Some(one_face(field, c)?),
            (HmEvent::SeqRoll(r), _) => r.roll = one_face(field, c)?,
            (HmEvent::BloodStoppage(b), "roll") => b.roll = one_face(field, c)?,
            (HmEvent::BloodStoppage(b), _) => b.physician_ml = value(field, c, NUMBER)?,
            (HmEvent::Treatment(t), "treatment") => t.roll = one_face(field, c)?,
            (HmEvent::Treatment(t), _) => t.physician_ml = value(field, c, NUMBER)?,
            (HmEvent::GmRoll(g), "roll") => g.roll = Some(one_face(field, c)?),
            (HmEvent::GmRoll(g), "ml") => g.ml = Some(value(field, c, NUMBER)?),
            (HmEvent::GmRoll(g), _) => {
                g.outcome = Some(value::<String>(field, c, "an outcome in words")?)
            }
            (HmEvent::MoveTest(m), "roll") => m.roll = one_face(field, c)?,
            (HmEvent::MoveTest(m), _) => m.ml = value(field, c, NUMBER)?,
            (e @ (HmEvent::Melee(_) | HmEvent::NaturalMelee(_)), _) => {
                let x = e.exchange_mut().expect("an exchange");
                match field {
                    "attack" => x.attack_roll = one_face(field, c)?,
                    "defence" => x.defence_roll = Some(one_face(field, c)?),
                    _ => set_die(&mut x.dice, field, faces(field, c)?),
                }
            }
            (HmEvent::Shot(x), "attack") => x.roll = one_face(field, c)?,
            (HmEvent::Shot(x), _) => set_die(&mut x.dice, field, faces(field, c)?),
            _ => unreachable!("every field listed has a correction"),
        }
        Ok(())
    }
}
