//! What the fold's steps speak in: a character of any rules system ([`CharacterState`]),
//! what applying an event did ([`Applied`], with each system's typed outcome:
//! [`SystemOutcome`]) and why an event is void ([`FoldError`], with each system's typed
//! refusal), and every system's [`Settings`]: written by the list of systems
//! (`crate::systems`, through [`crate::rules_systems!`]), with what HârnMaster's commands
//! read of them.

use crate::harnmaster::state::HmCharacter;
use crate::harnmaster::system::HmApplied;
pub use crate::systems::{Applied, CharacterState, FoldError, Settings, SystemOutcome};
pub use leechbook_kernel::system::World;

impl Applied {
    /// What a HârnMaster event did, if this is one.
    pub fn hm(&self) -> Option<&HmApplied> {
        match self {
            Applied::System {
                outcome: SystemOutcome::HarnMaster(a),
                ..
            } => Some(a),
            _ => None,
        }
    }

    /// The same, taken.
    pub fn into_hm(self) -> Option<HmApplied> {
        match self {
            Applied::System {
                outcome: SystemOutcome::HarnMaster(a),
                ..
            } => Some(a),
            _ => None,
        }
    }
}

impl CharacterState {
    /// Returns the HârnMaster character, if this is one.
    pub fn hm(&self) -> Option<&HmCharacter> {
        match self {
            CharacterState::HarnMaster(c) => Some(c),
            _ => None,
        }
    }
}
