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
        Ruling::Override { .. } => "the GM's override".to_string(),
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

/// An event's kind in words, for an event told by what it recorded (one that applies nowhere:
/// void where it stands): `hm.treatment` is a "Treatment Roll". A kind not listed is its own
/// name.
pub fn kind_words(kind: &str) -> &str {
    match kind {
        "hm.strike" => "strike",
        "hm.shock-reroll" => "Shock Reroll",
        "hm.stun-recovery" => "stun recovery test",
        "hm.gm-roll" => "roll the GM calls",
        "hm.seq-roll" => "Healing Sequence roll",
        "hm.blood-stoppage" => "blood stoppage",
        "hm.treatment" => "Treatment Roll",
        "hm.healer-attends" => "healer's attendance",
        "hm.fatigue" => "fatigue",
        "hm.move-test" => "move test",
        "hm.melee" => "melee exchange",
        "hm.shot" => "missile shot",
        "sw.damage" => "damage",
        "sw.bleeding-out" => "Bleeding Out roll",
        "sw.incapacitation" => "Incapacitation roll",
        "sw.spirit-recovery" => "Spirit roll to recover",
        "sw.stabilise" => "Healing roll to stabilise",
        "sw.wounds-healed" => "natural healing",
        "wg.damage" => "damage",
        "wg.regroup" => "Regroup",
        "wg.medicae" => "Medicae at a Regroup",
        "wg.respite" => "Respite",
        "wg.wrath" => "Wrath",
        "wi.quarrel" => "Quarrel",
        "wi.injure" => "injury",
        "wi.end-of-round" => "end of round",
        "wi.condition" => "condition",
        "wi.care" => "care",
        other => other,
    }
}
