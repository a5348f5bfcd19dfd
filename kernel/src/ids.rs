//! Identifiers as newtypes, so that an event id is never passed where a character id belongs.
//!
//! Every id is a UUID made outside the core (the store mints UUIDv7s); the core only compares
//! and prints them.

use serde::{Deserialize, Serialize};
use std::fmt;
use uuid::Uuid;

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        pub struct $name(pub Uuid);

        impl $name {
            /// Returns the id's sixteen bytes.
            pub fn as_bytes(&self) -> &[u8; 16] {
                self.0.as_bytes()
            }

            /// Whether `digits` (lower-case hex, no dashes, six or more) name this id: its
            /// end (the short id's way), or its start (as a UUID prefix is copied from `log
            /// --json`).
            pub fn named_by(&self, digits: &str) -> bool {
                let s = self.0.simple().to_string();
                s.ends_with(digits) || s.starts_with(digits)
            }

            /// Returns the last eight hex digits, the random tail of a UUIDv7: short enough to
            /// type, and (unlike the time-ordered head) different between ids made together.
            pub fn short(&self) -> String {
                let s = self.0.simple().to_string();
                s[24..].to_string()
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

id_type!(
    /// Identifies one event in the ledger (a UUIDv7 minted when it was recorded).
    EventId
);
id_type!(
    /// Identifies one campaign; every event of a ledger carries it.
    CampaignId
);
id_type!(
    /// Identifies one device (one database) that records events.
    DeviceId
);
id_type!(
    /// Identifies one character; it is the id of the event that added the character.
    CharacterId
);
id_type!(
    /// Identifies one injury; it is the id of the strike event that inflicted it.
    InjuryId
);
