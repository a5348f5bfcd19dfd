//! Narration: what happened, one line as a GM would read it aloud. Pure functions from the
//! fold's outcome values to text.

use leechbook_core::fold::{Applied, Ledger};
use leechbook_core::harnmaster::exchange::ExchangeOutcome;
use leechbook_core::harnmaster::injury::{ImpactStep, LocationStep, StrikeOutcome};
use leechbook_core::harnmaster::melee::Victor;
use leechbook_core::harnmaster::missile::MissileResult;
use leechbook_core::harnmaster::shock::GmRollKind;
use leechbook_core::harnmaster::shot::ShotOutcome;
use leechbook_core::harnmaster::state::ShockState;
use leechbook_core::harnmaster::system::HmApplied;
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::ids::CharacterId;
use leechbook_core::system::SystemOutcome;
use leechbook_core::time::format_duration;
use leechbook_core::witch::system::WiApplied;
use leechbook_core::{Envelope, Event};

mod consequence;
mod healing;
mod ruling;
mod savage;
mod tone;
pub(crate) mod witch;
pub(crate) mod wrath;

pub use consequence::{consequences, tells_shock, Condition, Conditions, Watch};
pub use ruling::{kind_words, ruling, ruling_short, Told};
pub use tone::tone;

/// Narrates what an event of Savage Worlds, Wrath & Glory or Witch Iron found.
fn system_outcome(o: &SystemOutcome) -> String {
    match o {
        SystemOutcome::SavageWorlds((_, o)) => savage::outcome(o),
        SystemOutcome::WrathGlory((_, steps)) => wrath::outcome(steps),
        SystemOutcome::WitchIron(WiApplied::Steps(_, steps)) => witch::outcome(steps),
        SystemOutcome::WitchIron(WiApplied::Setting(_)) | SystemOutcome::HarnMaster(_) => {
            String::new()
        }
    }
}

fn signed(n: i32) -> String {
    if n < 0 {
        format!("{n}")
    } else {
        format!("+{n}")
    }
}

/// A test's d100 face, or `no roll` for an automatic CF that rolled none (recorded as 0).
fn face(roll: u16) -> String {
    if roll == 0 {
        "no roll".into()
    } else {
        roll.to_string()
    }
}

fn faces(f: &[u16]) -> String {
    f.iter().map(u16::to_string).collect::<Vec<_>>().join("/")
}

fn impact(i: &ImpactStep, letter: char) -> String {
    let Some(strike) = i.strike else {
        return format!("effective impact {}{letter} (entered)", i.effective);
    };
    let mut terms: Vec<String> = i.faces.iter().map(u16::to_string).collect();
    let modifier = i.roll.map_or(0, |r| r.modifier);
    for m in [modifier, i.strength_mod, i.impact_ta] {
        if m != 0 {
            terms.push(signed(m));
        }
    }
    let sum = terms.join("").trim_start_matches('+').to_string();
    format!(
        "impact {sum} = {strike}{letter} - AV{} = {}",
        i.av, i.effective
    )
}

/// When a strike's new wound lies beside an open one at the same place, its short id, so
/// that the two strikes' lines do not read alike (else nothing).
pub fn beside(
    ledger: &Ledger,
    target: leechbook_core::ids::CharacterId,
    outcome: &StrikeOutcome,
) -> String {
    let (Some(inj), Some(h)) = (
        &outcome.injury,
        ledger.character(target).and_then(|c| c.hm()),
    ) else {
        return String::new();
    };
    let label = inj.place.label();
    if h.injuries
        .iter()
        .any(|o| o.id != inj.id && !o.healed() && o.place.label() == label)
    {
        format!(
            "; the new wound is the {} (another is open at the {label})",
            h.injury_name(inj.id)
        )
    } else {
        String::new()
    }
}

/// Narrates one strike.
pub fn strike(o: &StrikeOutcome, aspect_letter: char) -> String {
    let mut parts = match location(o) {
        Ok(parts) => parts,
        Err(miss) => return miss,
    };
    let letter = o
        .injury
        .as_ref()
        .map_or(aspect_letter, |i| i.aspect.letter());
    if let Some(i) = &o.impact {
        let result = if o.glancing {
            "glancing blow, no injury".to_string()
        } else if let Some(inj) = &o.injury {
            // Fire and frost share the letter F: the word tells them apart.
            let which = match inj.aspect {
                leechbook_core::harnmaster::state::Aspect::Fire
                | leechbook_core::harnmaster::state::Aspect::Frost => {
                    format!(" ({})", inj.aspect.word())
                }
                _ => String::new(),
            };
            format!(
                "{}{}{}{which}",
                leechbook_core::harnmaster::state::Severity::of_level(o.table_level).letter(),
                o.table_level,
                inj.aspect.letter()
            )
        } else {
            "no injury".to_string()
        };
        parts.push(format!("{} -> {result}", impact(i, letter)));
    }
    if let Some(c) = &o.compound {
        if c.raised.is_some() {
            let what = if c.g5 {
                "G5 stays G5, Injury Shock 6".to_string()
            } else {
                format!("IL{} becomes IL{}", c.from, c.to)
            };
            let whose = if c.raised == o.injury.as_ref().map(|i| i.id) {
                "the new injury"
            } else {
                "an older injury"
            };
            parts.push(format!(
                "compound d10 {} vs TN{}: {whose} {what}",
                c.roll, c.tn
            ));
        } else {
            parts.push(format!("compound d10 {} vs TN{}: no change", c.roll, c.tn));
        }
    }
    if let Some(inj) = &o.injury {
        if inj.level != o.table_level {
            parts.push(format!("now {}", inj.code()));
        }
        if inj.bleeder {
            parts.push("bleeder".into());
        }
    }
    if let Some((_, level, bleeder)) = o.raised {
        parts.push(format!(
            "the older injury is now IL{level}{}",
            if bleeder { ", bleeder" } else { "" }
        ));
    }
    if let Some(a) = &o.amputation {
        parts.push(format!(
            "amputation: Strength {} vs EML{} {}: {}",
            a.test.roll,
            a.test.eml,
            a.test.level,
            if a.severed {
                if a.bleeder {
                    "severed, bleeder"
                } else {
                    "severed"
                }
            } else if a.test.level.is_success() && a.test.level.code() == "S" {
                "not severed, -20 to the shock roll"
            } else {
                "not severed"
            }
        ));
    }
    if let Some(t) = &o.evasion {
        parts.push(format!(
            "evades: Dodge {} vs EML{}: {} -> {}falls prone",
            t.roll,
            t.eml,
            t.level,
            match o.shock.as_ref().map_or(0, |s| s.evaded) {
                0 => String::new(),
                n => format!("Shock State Index -{n}, "),
            }
        ));
    }
    if let Some(s) = &o.shock {
        let state = if s.after != s.table_state && s.table_state != ShockState::None {
            format!("{}, while {}: {}", s.table_state, s.before, s.after)
        } else if s.table_state == ShockState::None {
            "no shock state".to_string()
        } else {
            s.after.to_string()
        };
        parts.push(format!(
            "shock {}+{}{}{} = {} -> {state} (roll {} vs EML{}: {}) [Location Shock {}, Injury Shock {}, test {} {}]",
            s.location_shock,
            s.injury_shock,
            signed(s.modifier),
            match s.evaded {
                0 => String::new(),
                n => format!("-{n} evaded"),
            },
            s.index,
            s.test.roll,
            s.test.eml,
            s.test.level,
            s.location_shock,
            s.injury_shock,
            s.test.level,
            signed(s.modifier),
        ));
    }
    let mut line = parts.join("; ");
    if let Some(inj) = &o.injury {
        if inj.impaled {
            line.push_str("; the projectile is impaled (Extraction needed)");
        }
    }
    for (kind, automatic) in &o.mishaps {
        line.push_str(&format!(
            "; {} {}",
            if *automatic { "automatic" } else { "owes a" },
            if *automatic {
                format!("{} (failed)", kind.word())
            } else {
                format!("{} roll", kind.word())
            }
        ));
    }
    if o.morale {
        line.push_str("; owes a Morale roll");
    }
    if let Some(d) = &o.death {
        line.push_str(&format!("; DEAD: {d}"));
    }
    line
}

/// Step 1 of a strike in words: where it landed (each a part of the line), or the line of
/// a strike that missed the table.
fn location(o: &StrikeOutcome) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let place = o.place.as_ref();
    match &o.location {
        LocationStep::InZone { location_face } => {
            let (zone, label) =
                place.map_or(("?", String::new()), |p| (p.zone.as_str(), p.label()));
            out.push(format!("the {zone}: LD {location_face} -> {label}"));
        }
        LocationStep::Rolled {
            zone_die: _,
            aim,
            zone_faces,
            zone_pick,
            zn,
            location_faces,
            location_pick,
            side_face,
            face_roll,
        } => {
            let zone = place.map(|p| p.zone.as_str()).unwrap_or("?");
            let zd = if zone_faces.len() > 1 {
                format!(
                    "ZD {} aimed at ZN{aim}, took {}",
                    faces(zone_faces),
                    zone_faces[*zone_pick]
                )
            } else {
                format!("ZD {} aimed at ZN{aim}", zone_faces[0])
            };
            out.push(format!("{zd} -> ZN{zn} {zone}"));
            let mut ld = if location_faces.len() > 1 {
                format!(
                    "LD {}, took {}",
                    faces(location_faces),
                    location_faces[*location_pick]
                )
            } else {
                format!("LD {}", location_faces[0])
            };
            if let Some(s) = side_face {
                ld.push_str(&format!(", side d10 {s}"));
            }
            if let Some(f) = face_roll {
                ld.push_str(&format!(" -> face, d20 {f}"));
            }
            out.push(format!(
                "{ld} -> {}",
                place.map(|p| p.label()).unwrap_or_default()
            ));
        }
        LocationStep::Miss { aim, face, zn, .. } => {
            return Err(format!(
                "ZD {face} aimed at ZN{aim} -> ZN{zn}: off the table, the strike misses"
            ));
        }
        LocationStep::Chosen => out.push(format!(
            "location chosen: {}",
            place.map(|p| p.label()).unwrap_or_default()
        )),
        LocationStep::Area => out.push("area attack: the whole body".into()),
    }
    Ok(out)
}

/// Who recorded `env`, when a player's device did (the device made for a players' page
/// link is one): "by Osric's player". The GM's devices record unnamed.
pub fn by_player(ledger: &Ledger, env: &leechbook_core::Envelope) -> Option<String> {
    use leechbook_core::roster::Role;
    let entry = ledger.roster.entries.get(&env.device)?;
    if entry.role != Role::Player {
        return None;
    }
    let names: Vec<&str> = entry
        .characters
        .iter()
        .filter_map(|c| ledger.name_of(*c))
        .collect();
    Some(if names.is_empty() {
        format!("by a player (device {})", env.device.short())
    } else {
        format!("by {}'s player", names.join(" and "))
    })
}

/// Narrates any applied event in one line (for `log`), naming the character where one.
pub fn event(ledger: &Ledger, env: &Envelope, applied: &Applied) -> String {
    let who = |id| {
        ledger
            .character(id)
            .map(|c| c.name().to_string())
            .unwrap_or_else(|| "?".into())
    };
    match applied {
        Applied::CampaignCreated => match &env.event {
            Event::CampaignCreated { name, system, .. } => {
                format!("campaign '{name}' begins ({})", system.name())
            }
            _ => String::new(),
        },
        // The name the event carries: a struck joining is told too, with no character.
        Applied::CharacterAdded(id) => match &env.event {
            Event::CharacterAdded { name, .. } => format!("{name} joins"),
            _ => format!("{} joins", who(*id)),
        },
        Applied::ClockAdvanced { from, to } => format!(
            "the clock advances {} to {to}",
            format_duration(to.0 - from.0)
        ),
        Applied::Setting(what)
        | Applied::System {
            outcome: SystemOutcome::WitchIron(WiApplied::Setting(what)),
            ..
        } => what.clone(),
        Applied::System {
            outcome: SystemOutcome::HarnMaster(a),
            ..
        } => harnmaster(ledger, &who, env, a),
        Applied::System { character, outcome } => {
            format!("{} {}", who(*character), system_outcome(outcome))
        }
        Applied::Ruling(text) => match &env.event {
            Event::Ruling(r) => ruling(r, text, None),
            _ => text.clone(),
        },
    }
}

/// Narrates what a HârnMaster event did, naming its characters with `who`.
fn harnmaster(
    ledger: &Ledger,
    who: &dyn Fn(CharacterId) -> String,
    env: &Envelope,
    applied: &HmApplied,
) -> String {
    match applied {
        HmApplied::TableDefined(name) => format!("body table '{name}' defined"),
        HmApplied::SheetChanged(id) => format!("{}'s sheet changed", who(*id)),
        HmApplied::Setting(what) => what.clone(),
        HmApplied::Strike { target, outcome } => {
            let letter = match &env.event {
                Event::HarnMaster(HmEvent::Strike(s)) => s.aspect.letter(),
                _ => '?',
            };
            format!(
                "{} struck: {}{}",
                who(*target),
                strike(outcome, letter),
                beside(ledger, *target, outcome)
            )
        }
        HmApplied::ShockRoll {
            character,
            reroll,
            outcome,
        } => {
            let what = if *reroll {
                "Shock Reroll"
            } else {
                "stun recovery"
            };
            let mut s = format!(
                "{} {what} {} vs EML{}: {} -> {}",
                who(*character),
                outcome.test.roll,
                outcome.test.eml,
                outcome.test.level,
                outcome.after
            );
            if let Some(hr) = outcome.extended_shock {
                s.push_str(&format!(", Extended Shock HR{hr}"));
            }
            if let Some(hr) = outcome.coma {
                s.push_str(&format!(", coma HR{hr}"));
            }
            s
        }
        HmApplied::Shot { shooter, outcome } => {
            let (struck, letter) = match &outcome.strike {
                Some((t, s)) => (
                    who(*t),
                    s.injury.as_ref().map_or('?', |i| i.aspect.letter()),
                ),
                None => (String::new(), '?'),
            };
            narrate_shot(outcome, &who(*shooter), &struck, letter)
        }
        HmApplied::Melee {
            attacker,
            defender,
            outcome,
        } => {
            let (defence, aspect, target) = match match &env.event {
                Event::HarnMaster(h) => h.exchange(),
                _ => None,
            } {
                Some(x) => {
                    let target = outcome
                        .strike
                        .as_ref()
                        .map(|(t, _)| who(*t))
                        .unwrap_or_default();
                    let aspect = outcome
                        .strike
                        .as_ref()
                        .and_then(|(_, s)| s.injury.as_ref().map(|i| i.aspect.letter()))
                        .unwrap_or('?');
                    let d = match &x.defence {
                        leechbook_core::harnmaster::exchange::DefenceDecl::Block { .. } => "block",
                        leechbook_core::harnmaster::exchange::DefenceDecl::Dodge { .. } => "dodge",
                        leechbook_core::harnmaster::exchange::DefenceDecl::Counterstrike(_) => {
                            "counterstrike"
                        }
                        leechbook_core::harnmaster::exchange::DefenceDecl::Ignore => "ignore",
                    };
                    (d, aspect, target)
                }
                _ => ("?", '?', String::new()),
            };
            narrate_exchange(
                outcome,
                &who(*attacker),
                &who(*defender),
                defence,
                &target,
                aspect,
            )
        }
        HmApplied::Heal {
            character,
            kind,
            outcome,
        } => heal(ledger, &who(*character), *character, kind, outcome, env),
        HmApplied::GmRoll { character, outcome } => {
            let (kind, text) = match &env.event {
                Event::HarnMaster(HmEvent::GmRoll(r)) => (r.kind, r.outcome.clone()),
                _ => (GmRollKind::Morale, None),
            };
            let mut s = match &outcome.test {
                Some(t) => format!(
                    "{} {} {} vs EML{}: {}",
                    who(*character),
                    kind.word(),
                    t.roll,
                    t.eml,
                    t.level
                ),
                None => format!("{} {}: automatic failure", who(*character), kind.word()),
            };
            if let Some(t) = text {
                s.push_str(&format!(" ({t})"));
            }
            s
        }
    }
}

/// Narrates a roll or decision of the Healing Sequence.
fn heal(
    ledger: &Ledger,
    name: &str,
    character: CharacterId,
    kind: &str,
    outcome: &leechbook_core::harnmaster::healing::HealOutcome,
    env: &Envelope,
) -> String {
    let mut s = format!("{name} {}", kind.replace('-', " "));
    if let Some(id) = outcome.injury {
        // Where the wound is; and its short id when another open wound of the character is
        // at the same place (two abdomen wounds must not read alike).
        let place = ledger
            .character(character)
            .and_then(|c| c.hm())
            .and_then(|h| {
                h.any_injury(id)?;
                Some(format!(" ({})", h.injury_name(id)))
            })
            .unwrap_or_default();
        s.push_str(&place);
    }
    if let Some(t) = &outcome.test {
        s.push_str(&format!(" {} vs EML{}: {}", t.roll, t.eml, t.level));
    }
    s.push_str(&format!(" -> {}", healing::effect(&outcome.effect)));
    // A healer's roll says how its EML was made (the Physician skill, the treatment's
    // modifier, a bonus): the terms a player checks.
    if matches!(kind, "treatment" | "blood-stoppage") && !outcome.eml_parts.is_empty() {
        let terms: Vec<String> = outcome.eml_parts.iter().map(crate::render_part).collect();
        s.push_str(&format!(" [EML: {}]", terms.join(" ")));
    }
    if forced(env) {
        s.push_str(" [forced by the GM]");
    }
    s
}

/// Returns true when the event is a roll the GM forced outside its schedule.
pub fn forced(env: &Envelope) -> bool {
    match &env.event {
        Event::HarnMaster(HmEvent::SeqRoll(r)) => r.forced,
        Event::HarnMaster(HmEvent::BloodStoppage(r)) => r.forced,
        Event::HarnMaster(HmEvent::Treatment(r)) => r.forced,
        _ => false,
    }
}

/// Narrates an exchange.
pub fn narrate_exchange(
    o: &ExchangeOutcome,
    attacker: &str,
    defender: &str,
    defence: &str,
    target: &str,
    aspect: char,
) -> String {
    let mut s = format!(
        "{attacker} attacks {defender}: {} vs EML{} ({}): {}",
        face(o.attack.roll),
        o.attack.eml,
        parts(&o.attack_parts),
        o.attack.level
    );
    match &o.defence {
        Some(d) => s.push_str(&format!(
            "; {defence} {} vs EML{} ({}): {}",
            face(d.roll),
            d.eml,
            parts(&o.defence_parts),
            d.level
        )),
        None => s.push_str(&format!("; {defence} (no roll)")),
    }
    for n in &o.notes {
        s.push_str(&format!("; {n}"));
    }
    let stars = "*".repeat(o.outcome.stars as usize);
    s.push_str(&match o.outcome.victor {
        Victor::Attacker => format!("; {attacker} wins {stars}"),
        Victor::Defender => format!("; {defender} wins {stars}"),
        Victor::Nobody => "; both fail: no strike".into(),
    });
    if o.outcome.tie {
        s.push_str(" (tie)");
    }
    if !o.tas.is_empty() {
        s.push_str(&format!(
            "; TA {}{}",
            o.tas
                .iter()
                .map(|t| t.word())
                .collect::<Vec<_>>()
                .join(", "),
            if o.default_tas { " (the default)" } else { "" }
        ));
    }
    if o.outcome.weapon_damage {
        s.push_str("; check for Weapon Damage (page 191)");
    }
    for m in &o.outcome.mishaps {
        let who = if m.attacker { attacker } else { defender };
        s.push_str(&if m.automatic {
            format!("; {who}: automatic {} (failed)", m.kind.word())
        } else {
            format!("; {who} owes a {} roll", m.kind.word())
        });
    }
    if let Some(who) = o.outcome.free_press {
        s.push_str(&format!(
            "; {} may call a free Press Roll",
            if who { attacker } else { defender }
        ));
    }
    if let Some((_, strike)) = &o.strike {
        s.push_str(&format!(
            "\n  {target} struck: {}",
            self::strike(strike, aspect)
        ));
    }
    s
}

/// Narrates a missile attack.
pub fn narrate_shot(o: &ShotOutcome, shooter: &str, struck: &str, letter: char) -> String {
    let parts: Vec<String> = o.parts.iter().map(crate::render_part).collect();
    let mut s = format!(
        "{shooter} shoots ({}): {} vs EML{} ({}): {}",
        o.band.word(),
        face(o.test.roll),
        o.test.eml,
        parts.join(" "),
        o.test.level
    );
    s.push_str(&match &o.result {
        MissileResult::Spoiled(m) => format!(
            " -> spoiled (EML -40 or worse): the attack fails{}",
            m.map(|k| format!("; CF against EML05: {shooter} owes a {} roll", k.word()))
                .unwrap_or_default()
        ),
        MissileResult::Mishap(k) => format!(" -> mishap: {shooter} owes a {} roll", k.word()),
        MissileResult::AutomaticMishap(ks) => format!(
            " -> mishap: {shooter}: automatic {} (failed)",
            ks.iter().map(|k| k.word()).collect::<Vec<_>>().join(" & ")
        ),
        MissileResult::Miss => " -> miss".into(),
        MissileResult::Deviation => " -> deviation".into(),
        MissileResult::Strike(n) => format!(" -> strike {}", "*".repeat(*n as usize)),
        MissileResult::PotentialStrike { precision } => format!(
            " -> potential strike{}",
            if *precision {
                " with Volley Precision"
            } else {
                ""
            }
        ),
    });
    for n in &o.notes {
        s.push_str(&format!("; {n}"));
    }
    if let Some(d) = o.deviation {
        s.push_str(&format!("; d8 {d}: the adjacent area"));
    }
    if let Some((roll, hit)) = o.count {
        s.push_str(&format!(
            "; count {roll} {} target count{}",
            if hit { "within" } else { "beyond the" },
            if hit { "" } else { ": no hit" }
        ));
    }
    if let Some(t) = o.ta_d10 {
        s.push_str(&format!(
            "; d10 {t}: {}",
            if t % 5 == 0 {
                "the projectile's Impact TA"
            } else {
                "no Impact TA"
            }
        ));
    }
    if !o.tas.is_empty() {
        s.push_str(&format!(
            "; TA {}",
            o.tas
                .iter()
                .map(|t| t.word())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if let Some((_, strike)) = &o.strike {
        // The terms the impact and the AV below fold in, named.
        let mut folded: Vec<String> = o
            .impact_terms
            .iter()
            .map(|(t, n)| format!("{} impact for {t}", signed(*n)))
            .collect();
        if o.armour_reduction != 0 {
            folded.push(format!(
                "AV less {} for the projectile's armour reduction",
                o.armour_reduction
            ));
        }
        let folded = if folded.is_empty() {
            String::new()
        } else {
            format!(" ({})", folded.join("; "))
        };
        s.push_str(&format!(
            "\n  {struck} struck{folded}: {}",
            self::strike(strike, letter)
        ));
    }
    s
}

fn parts(p: &[leechbook_core::harnmaster::healing::EmlPart]) -> String {
    p.iter()
        .enumerate()
        .filter(|(i, x)| *i == 0 || x.value != 0)
        .map(|(_, x)| crate::render_part(x))
        .collect::<Vec<_>>()
        .join(" ")
}
