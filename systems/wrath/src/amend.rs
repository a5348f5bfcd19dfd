//! What a GM's amendment may correct in a Wrath & Glory event ([`Amendable`]): an attack's
//! damage and whether it was Mortal, the d6s it rolled (`determination`, `memorable`,
//! `traumatic`, `side`), the Wounds a Regroup restored and the Wrath gained or spent.

use crate::dice::RecordedDie;
use crate::WgEvent;
use leechbook_kernel::amend::{
    faces, known, recorded, set_die, value, AmendError, Amendable, Correction, Field,
};

/// The d6s an attack or a complication may roll, by name.
const DICE: [&str; 4] = ["determination", "memorable", "traumatic", "side"];
const NUMBER: &str = "a whole number";

fn dice_fields(dice: &[RecordedDie]) -> impl Iterator<Item = Field> + '_ {
    DICE.iter().map(move |n| Field::die(n, recorded(dice, n)))
}

impl Amendable for WgEvent {
    fn fields(&self) -> Vec<Field> {
        match self {
            WgEvent::Damage {
                damage,
                mortal,
                dice,
                ..
            } => {
                let mut f: Vec<Field> = dice_fields(dice).collect();
                f.push(Field::input("damage", damage));
                f.push(Field::input("mortal", mortal));
                f
            }
            WgEvent::DyingComplication { dice, .. } => dice_fields(dice).collect(),
            WgEvent::Regroup { regained, .. } | WgEvent::RestedRegroup { regained, .. } => {
                vec![Field::input("regained", regained)]
            }
            WgEvent::Wrath { points, .. } => vec![Field::input("points", points)],
            WgEvent::MedicaeRegroup { pool, .. } => vec![Field::input("pool", pool)],
            _ => vec![],
        }
    }

    fn correct(&mut self, name: &str, c: &Correction) -> Result<(), AmendError> {
        let fields = self.fields();
        let field = known(&fields, name, c)?.name;
        match self {
            WgEvent::Damage {
                damage,
                mortal,
                dice,
                ..
            } => match field {
                "damage" => *damage = value(field, c, NUMBER)?,
                "mortal" => *mortal = value(field, c, "true or false")?,
                _ => set_die(dice, field, faces(field, c)?),
            },
            WgEvent::DyingComplication { dice, .. } => set_die(dice, field, faces(field, c)?),
            WgEvent::Regroup { regained, .. } | WgEvent::RestedRegroup { regained, .. } => {
                *regained = value(field, c, NUMBER)?
            }
            WgEvent::Wrath { points, .. } => *points = value(field, c, NUMBER)?,
            WgEvent::MedicaeRegroup { pool, .. } => *pool = value(field, c, NUMBER)?,
            _ => unreachable!("an event that lists no field takes no correction"),
        }
        Ok(())
    }
}
