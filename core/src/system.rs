//! What the rules systems share in implementing the kernel's seam
//! ([`leechbook_kernel::system::RulesSystem`], re-exported here). The fold applies every
//! system's events one way (the kernel's `Cast::apply`): it finds the characters the event
//! touches, asks the system to **decide** (a pure reading of the characters, the system's
//! campaign-wide [`Settings`] and the event's recorded dice, giving an outcome or a typed
//! refusal), and then to **apply** that outcome, which cannot fail. A refused event changes
//! nothing, because nothing is written before the decision is made.
//!
//! Each system implements the seam in its own module tree (`harnmaster::system`,
//! `savage::system`, `wrath::system`, `witch::system`), for any list of systems whose types
//! are this build's ([`Host`]); the four are listed together in one place,
//! [`crate::systems::AllSystems`]. HârnMaster decides by resolving its sequences and writes
//! only what they found. Savage Worlds, Wrath & Glory and Witch Iron decide by running their
//! rules on copies of the characters they touch ([`Copies`], here: the outcome is the
//! characters after), so their rules code stays one function per event.

use crate::applied::Applied;
pub use crate::applied::SystemOutcome;
pub use crate::applied::{Host, Settings};
use crate::ids::CharacterId;
pub use crate::witch::WiSettings;
pub use crate::wrath::WgApplyError;
pub use leechbook_kernel::system::{RulesSystem, Touched, World};

/// The outcome of a system that decides on copies: the touched characters after the event,
/// in the order [`RulesSystem::touches`] gave, and what the rules found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Copies<C, O> {
    /// The characters after.
    pub characters: Vec<C>,
    /// What the rules found.
    pub outcome: O,
}

impl<C, O> Copies<C, O> {
    /// Writes the copies back over the characters they were made from.
    pub(crate) fn write_back(self, characters: &mut [&mut C]) -> O {
        for (slot, c) in characters.iter_mut().zip(self.characters) {
            **slot = c;
        }
        self.outcome
    }
}

pub(crate) fn copies<C: Clone>(characters: &[&C]) -> Vec<C> {
    characters.iter().map(|c| (*c).clone()).collect()
}

pub(crate) fn system_applied(characters: &[&mut impl HasId], outcome: SystemOutcome) -> Applied {
    Applied::System {
        character: characters
            .first()
            .map_or(CharacterId(uuid::Uuid::nil()), |c| c.id()),
        outcome,
    }
}

/// A character with an id (for narration).
pub(crate) trait HasId {
    fn id(&self) -> CharacterId;
}

impl HasId for crate::savage::SwCharacter {
    fn id(&self) -> CharacterId {
        self.id
    }
}

impl HasId for crate::wrath::WgCharacter {
    fn id(&self) -> CharacterId {
        self.id
    }
}

impl HasId for crate::witch::WiCharacter {
    fn id(&self) -> CharacterId {
        self.id
    }
}
