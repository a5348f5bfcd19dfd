//! Claims: what an owed roll stakes. The rules owe some rolls once (one healing roll an
//! injury a period, one stun recovery try a round, one blood stoppage a bleeder in five
//! minutes), and devices that record offline can each record it at the moment it falls due. Two events that make the
//! same claim compete for one roll: the rules keep one. Which one is **authority's**: the
//! GM's stands over a player's, then the first in the total order (the ledger's service
//! settles it and says so: `leechbook_ledger::claims`). A claim is read from the event and
//! its campaign time alone, so every device finds the same rivals.

use crate::ids::{CharacterId, InjuryId};
use crate::time::CampaignTime;

/// What a roll stakes: its character, the roll's name, the injury it is for (if any) and
/// its slot, the moment (or window of the moment) the rules allow one roll in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Claim {
    /// Whose roll.
    pub character: CharacterId,
    /// The roll, as `due` names it.
    pub roll: &'static str,
    /// The injury it is for.
    pub injury: Option<InjuryId>,
    /// The slot: the event's campaign time divided by the roll's window (1 second: the
    /// moment itself).
    pub slot: i64,
}

impl Claim {
    /// The claim of a roll for `character` at `at`, one allowed in each `window` seconds.
    pub fn at(
        character: CharacterId,
        roll: &'static str,
        injury: Option<InjuryId>,
        at: CampaignTime,
        window: i64,
    ) -> Claim {
        Claim {
            character,
            roll,
            injury,
            slot: at.0.div_euclid(window.max(1)),
        }
    }
}
