//! `leechbook explain [CODE]`: what the abbreviations Leechbook prints mean, in the rules'
//! words: an injury code (`S2E`), a Shock State (`INC`), a treatment (`CLN`), a test result
//! (`CS`), and the terms of the EMLs and strikes (`EML`, `HR`, `ZN`, ...). Without a CODE,
//! the whole legend.

use crate::ctx::Ctx;
use crate::error::CommandError;
use clap::Args;

/// Explain an abbreviation Leechbook prints (S2E, INC, CLN, CS, EML, HR ...), or list them all.
#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// The code, as Leechbook printed it (S2E, G4P, STN, SUR, CF, EML ...).
    pub code: Option<String>,
}

/// The legend: each abbreviation and its meaning (HârnMaster's, whose codes these are).
const LEGEND: &[(&str, &str)] = &[
    ("M", "an injury's severity: Minor (Injury Level 1)"),
    ("S", "an injury's severity: Serious (Injury Level 2 or 3), or a test's Success"),
    ("G", "an injury's severity: Grievous (Injury Level 4 or 5)"),
    ("B", "an injury's aspect: Blunt"),
    ("E", "an injury's aspect: Edge"),
    ("P", "an injury's aspect: Point"),
    ("F", "an injury's aspect: Fire or Frost (the JSON's `aspect` tells which), or a test's Failure"),
    ("CS", "Critical Success: at or under the EML, and the roll's ones digit is 0 or 5"),
    ("CF", "Critical Failure: over the EML, and the roll's ones digit is 0 or 5"),
    ("STN", "Shock State: Stunned"),
    ("INC", "Shock State: Incapacitated"),
    ("UNC", "Shock State: Unconscious"),
    ("KIA", "Shock State: killed"),
    ("CMP", "treatment: Compress (a cool, wet cloth or bandage; +10 if frozen), 15 min"),
    ("CLN", "treatment: Clean & Dress (water and bandages; Serious E and P also needle and thread), 5 min per IL"),
    ("SET", "treatment: Set & Splint (a simple fracture), 15 min"),
    ("SUR", "treatment: Surgery (includes Clean & Dress; an F or CF makes a new bleeder), 30 min"),
    ("EXT", "treatment: Extraction of an impaled arrow or bolt (S3, G4, G5)"),
    ("WRM", "treatment: Warming (blankets, another body, a low fire), 2 h"),
    ("AMP", "treatment: Amputation (Grievous frost limbs and features; it inflicts a new Edge injury)"),
    ("STA", "Blood Stoppage: Staunch (pressure with a bandage; a tourniquet on a limb +20)"),
    ("CAU", "Blood Stoppage: Cauterise (+30; infection on healing failures ending 3, 5, 8, 0)"),
    ("EML", "Effective Mastery Level: the number a d100 roll must not exceed (bounded 5..95)"),
    ("ML", "Mastery Level: a skill's or attribute's rating before modifiers"),
    ("HR", "Healing Rate: the multiplier of the Healing Base in a healing or course roll"),
    ("HB", "Healing Base: the character's own (END-based) healing attribute"),
    ("IL", "Injury Level: 1 (Minor) to 5 (Grievous)"),
    ("BP", "Blood Loss Points: 1 STN, 2 INC, 3 UNC, 4 dead"),
    ("ZD", "Zone Die: the die that picks the body zone struck"),
    ("ZN", "Zone Number: a body zone (ZN1 the head, and down)"),
    ("LD", "Location Die: the d10 that picks the location within a zone"),
    ("TA", "Tactical Advantage: an extra action or effect won in melee or by a missile"),
    ("AV", "Armour Value: subtracted from the impact at the location struck, by aspect"),
    ("SHK", "Shock: Location Shock + Injury Level (+1 on a failed Shock test)"),
];

/// Runs `explain`.
pub fn cmd_explain(a: ExplainArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let Some(code) = a.code else {
        for (c, what) in LEGEND {
            ctx.say(format!("{c:<4} {what}"));
        }
        return Ok(());
    };
    // A phrase as Leechbook prints it (`CLN (F)`, `S2E -> M1E`): each code in it explained.
    let words: Vec<String> = code
        .split(|ch: char| ch.is_whitespace() || "()[],;:".contains(ch) || ch == '>')
        .map(|w| w.trim_matches('-').trim().to_ascii_uppercase())
        .filter(|w| !w.is_empty())
        .collect();
    let mut told = Vec::new();
    for c in &words {
        if let Some((_, what)) = LEGEND.iter().find(|(k, _)| k == c) {
            told.push(format!("{c}: {what}"));
        } else if let Some(what) = injury_code(c) {
            told.push(format!("{c}: {what}"));
        } else {
            return Err(CommandError::user(format!(
                "'{c}' is not a code Leechbook prints (`leechbook explain` lists them all)"
            )));
        }
    }
    if told.is_empty() {
        return Err(CommandError::user(format!(
            "'{code}' holds no code (`leechbook explain` lists them all)"
        )));
    }
    for t in told {
        ctx.say(t);
    }
    Ok(())
}

/// An injury code in words: severity letter, Injury Level, aspect letter (`S2E`).
fn injury_code(c: &str) -> Option<String> {
    let mut chars = c.chars();
    let severity = match chars.next()? {
        'M' => "Minor",
        'S' => "Serious",
        'G' => "Grievous",
        _ => return None,
    };
    let level = chars.next()?.to_digit(10).filter(|l| (1..=5).contains(l))?;
    let fits = matches!(
        (severity, level),
        ("Minor", 1) | ("Serious", 2 | 3) | ("Grievous", 4 | 5)
    );
    let aspect = match chars.next()? {
        'B' => "blunt",
        'E' => "edge",
        'P' => "point",
        'F' => "fire or frost",
        _ => return None,
    };
    if chars.next().is_some() || !fits {
        return None;
    }
    Some(format!(
        "a {severity} injury (Injury Level {level}), {aspect} aspect"
    ))
}
