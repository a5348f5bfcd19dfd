//! The campaign roster, as the kernel works it out (`leechbook_kernel::roster`): re-exported
//! at the path the ledger has always used.

pub use leechbook_kernel::roster::*;
