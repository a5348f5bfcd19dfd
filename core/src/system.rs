//! The kernel's seam between the fold and the rules systems, as this build's list uses it:
//! each system implements [`RulesSystem`] in its own crate (`leechbook-harnmaster`,
//! `leechbook-savage`, `leechbook-wrath`, `leechbook-witch`), naming no list; the list,
//! [`crate::systems::AllSystems`], says where it keeps each system's characters, settings,
//! outcomes and refusals ([`Hosts`]). The fold applies every system's events one way (the
//! kernel's `Cast::apply`): it finds the characters the event touches, asks the system to
//! **decide** (a pure reading of the characters, the system's campaign-wide settings and the
//! event's recorded dice, giving an outcome or a typed refusal), and then to **apply** that
//! outcome, which cannot fail. A refused event changes nothing, because nothing is written
//! before the decision is made.

pub use crate::applied::Settings;
pub use crate::applied::SystemOutcome;
pub use crate::witch::WiSettings;
pub use crate::wrath::WgApplyError;
pub use leechbook_kernel::system::{Copies, Hosts, RulesSystem, Touched, World};
