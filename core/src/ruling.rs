//! Rulings: the GM's decisions about the record itself, as the kernel judges them
//! (`leechbook_kernel::ruling`, where the documented rule of which rulings are in force
//! lives), for this campaign's events.

pub use crate::event::{Decree, Ruling};

/// The rulings in force over a log of this campaign's events.
pub type Rulings = leechbook_kernel::ruling::Rulings<crate::event::Event>;
