//! The typed views the commands print (`leechbook-views`: a character of any system, what it
//! owes, and their text printers), at the path the commands have always named them by.

pub use leechbook_views::*;
