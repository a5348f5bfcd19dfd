//! The typed path a roll takes from the players' page or the board to the ledger: an owed
//! entry ([`OwedView`], its roll typed) and the faces the table gives become the event the
//! replica records ([`leechbook_ledger::owed::owed_event`], the rules and refusals of the
//! terminal's roll commands), and the answer is the event's line as the table hears it, with
//! what it did to the character. No command line is built or read back.

use leechbook_core::dice::{DiceError, Die, Roll};
use leechbook_ledger::owed::{owed_event, Faces, RollError};
use leechbook_ledger::Replica;
use leechbook_store::Log;
use leechbook_views::narrate;
use leechbook_views::OwedView;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// What recording an owed roll said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The event's line, then what it did that the table must hear (`; -> Osric is now
    /// STN`), as the terminal's command prints them.
    pub line: String,
    /// The dice Leechbook rolled for it (`roll=42`), none when every face was given.
    pub rolled: Vec<String>,
    /// How it went for the roller: `good`, `bad` or `neutral` ([`narrate::tone`]).
    pub tone: &'static str,
}

impl Answer {
    /// The line to show: the event's, and (`typed`: the table gave faces) the dice Leechbook
    /// rolled beside them, so a die the player did not type is never rolled unseen.
    pub fn said(&self, typed: bool) -> String {
        if typed && !self.rolled.is_empty() {
            format!(
                "{} (rolled by Leechbook: {})",
                self.line,
                self.rolled.join(", ")
            )
        } else {
            self.line.clone()
        }
    }
}

/// Records the roll `o` owes with `faces` (none: every die drawn from `roll`) in `replica`,
/// signed by the replica's device (a link's, on the page).
pub fn record_owed<L: Log>(
    replica: &mut Replica<L>,
    o: &OwedView,
    faces: &Faces,
    roll: &mut dyn Roll,
) -> Result<Answer, RollError> {
    let mut before = narrate::Conditions::default();
    let mut rolled = Vec::new();
    let names = [o.character.as_str()];
    let r = replica.record_for(Some(&names), |ledger| {
        let made = owed_event(ledger, o.character_id, o.roll, o.injury_id, faces, roll)?;
        before = narrate::Conditions::of(ledger, made.event.characters());
        rolled = made.rolled;
        Ok::<_, RollError>((made.event, None))
    })?;
    let mut line = narrate::event(&r.ledger, &r.envelope, &r.applied);
    let told = before.told(&r.ledger, r.envelope.event.kind());
    let tone = narrate::tone(&r.applied, &line, &told);
    for c in told {
        line.push_str(&format!("; -> {c}"));
    }
    Ok(Answer { line, rolled, tone })
}

/// The faces nobody gave, rolled from the system's randomness (the page's "Roll for me").
pub struct Dice(StdRng);

impl Dice {
    /// Dice seeded from the system's randomness.
    pub fn new() -> Dice {
        Dice(StdRng::from_os_rng())
    }
}

impl Default for Dice {
    fn default() -> Dice {
        Dice::new()
    }
}

impl Roll for Dice {
    fn face(&mut self, _: &'static str, die: Die) -> Result<u16, DiceError> {
        Ok(self.0.random_range(1..=die.sides()))
    }

    fn rolls(&self) -> bool {
        true
    }
}
