//! A ruling in words, naming its target as `log` names it: by its number and what it
//! said ([`Told`]).

/// An event as the GM reads it in `log`: its number there (`#12`) and its narration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Told {
    /// Its number: the clock `log` prints before it.
    pub number: u64,
    /// What it says (as it would apply at its place, for a struck one).
    pub summary: String,
}

impl Told {
    /// `#12: Osric struck: ...`
    pub fn line(&self) -> String {
        format!("#{}: {}", self.number, self.summary)
    }
}

/// A ruling in a few words, as another ruling names it (`the ruling striking #3`).
pub fn ruling_short(r: &leechbook_core::ruling::Ruling, target: Option<&Told>) -> String {
    use leechbook_core::ruling::Ruling;
    let name = match (r.target(), target) {
        (_, Some(t)) => format!("#{}", t.number),
        (Some(id), None) => format!("event {}", id.short()),
        (None, None) => String::new(),
    };
    match r {
        Ruling::Retract { .. } => format!("the ruling striking {name}"),
        Ruling::Reinstate { .. } => format!("the ruling reinstating {name}"),
        Ruling::Amend { .. } => format!("the ruling amending {name}"),
        Ruling::Override { character, .. } => format!("the override of {}", character.short()),
    }
}

/// Narrates a ruling, naming its target as `log` does (`#12` and what it said) when `target`
/// is known, else by its short id.
pub fn ruling(r: &leechbook_core::ruling::Ruling, applied: &str, target: Option<&Told>) -> String {
    use leechbook_core::ruling::Ruling;
    let (name, what) = match (r.target(), target) {
        (_, Some(t)) => (format!("#{}", t.number), format!(": {}", t.summary)),
        (Some(id), None) => (format!("event {}", id.short()), String::new()),
        (None, None) => (String::new(), String::new()),
    };
    match r {
        Ruling::Retract { reason, .. } => {
            format!("RULING: struck {name} from the record{}{what}", why(reason))
        }
        Ruling::Reinstate { reason, .. } => {
            format!("RULING: {name} stands again{}{what}", why(reason))
        }
        Ruling::Amend {
            replacement,
            reason,
            ..
        } => match target {
            Some(t) => format!(
                "RULING: amended #{}{}; it now reads: {}",
                t.number,
                why(reason),
                t.summary
            ),
            None => format!(
                "RULING: amended {name}{}; its {} is re-derived",
                why(reason),
                replacement.kind()
            ),
        },
        Ruling::Override { .. } => format!("RULING: {applied}"),
    }
}

/// ` (reason)`, or nothing for a ruling only tried (`what-if` takes none).
fn why(reason: &str) -> String {
    if reason.is_empty() {
        String::new()
    } else {
        format!(" ({reason})")
    }
}
