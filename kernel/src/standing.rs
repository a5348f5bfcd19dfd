//! Where a character stands in the story: with the party, a foe or an NPC, and whether the
//! GM has set them aside (captured, fled, released: out of the story), so that what is owed
//! of them is no longer asked for and the players' page lists only the party.

use serde::{Deserialize, Serialize};

/// A character's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    /// One of the party (the default).
    #[default]
    Party,
    /// A foe.
    Foe,
    /// Someone else the GM plays.
    Npc,
}

impl Side {
    /// Its word.
    pub fn word(self) -> &'static str {
        match self {
            Side::Party => "one of the party",
            Side::Foe => "a foe",
            Side::Npc => "an NPC",
        }
    }
}

/// Where a character stands.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// Their side.
    pub side: Side,
    /// Set aside, and why (`captured`, `fled`), or in the story (None).
    pub aside: Option<String>,
}

impl Standing {
    /// Whether the character is in the story: not set aside.
    pub fn in_story(&self) -> bool {
        self.aside.is_none()
    }
}
