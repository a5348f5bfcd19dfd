//! The campaign's tables as a person reads them: the weapons and armour (`arms show`) and the
//! TREATMENT ROLL tables (`table show treatment`), in aligned columns (their TOML is what a
//! GM loads; `--json` what a script reads).

use leechbook_core::harnmaster::arms::Arms;
use leechbook_core::harnmaster::healing::TreatmentTable;
use leechbook_core::harnmaster::state::CellResult;
use std::fmt::Write;

/// The weapons (each mode's aspect and impact) and the armour (AV by aspect, where it covers).
pub fn arms(a: &Arms) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Weapons");
    let _ = writeln!(
        out,
        "  {:<18} {:>3} {:>5} {:>4}  modes (aspect impact)",
        "name", "ZD", "reach", "heft"
    );
    for w in &a.weapons {
        let modes: Vec<String> = w
            .modes
            .iter()
            .map(|m| {
                format!(
                    "{} ({:?} {}{})",
                    m.name,
                    m.aspect,
                    m.impact,
                    if m.thrust { ", thrust" } else { "" }
                )
            })
            .collect();
        let mut extra = Vec::new();
        if w.shield {
            extra.push("shield".to_string());
        }
        if let Some(m) = w.missile {
            extra.push(format!("{m:?}").to_lowercase());
        }
        if let Some(br) = w.base_range {
            extra.push(format!("base range {br}"));
        }
        if w.armour_reduction != 0 {
            extra.push(format!("AR {}", w.armour_reduction));
        }
        let _ = writeln!(
            out,
            "  {:<18} d{:<2} {:>5} {:>4}  {}{}",
            w.name,
            w.zone_die,
            w.reach,
            w.heft,
            modes.join(", "),
            if extra.is_empty() {
                String::new()
            } else {
                format!(" [{}]", extra.join(", "))
            }
        );
    }
    let _ = writeln!(out, "Armour");
    let _ = writeln!(
        out,
        "  {:<18} {:>5} {:>4} {:>5} {:>4}  covers",
        "name", "blunt", "edge", "point", "fire"
    );
    for p in &a.armour {
        let _ = writeln!(
            out,
            "  {:<18} {:>5} {:>4} {:>5} {:>4}  {}{}",
            p.name,
            p.av[0],
            p.av[1],
            p.av[2],
            p.av[3],
            p.covers.join(", "),
            if p.rigid { " (rigid)" } else { "" }
        );
    }
    out
}

/// One cell's result in the table's words: `HR4`, `HEAL`, `AMP 3`, with its marks (`i`
/// infection, `p` permanent impairment, `b` bleeder).
fn cell(c: &leechbook_core::harnmaster::healing::Cell) -> String {
    let mut s = match c.result {
        CellResult::Hr(h) => format!("HR{h}"),
        CellResult::Heal => "HEAL".into(),
        CellResult::Amputated(l) => format!("AMP{l}"),
    };
    for (on, mark) in [(c.infection, 'i'), (c.permanent, 'p'), (c.bleeder, 'b')] {
        if on {
            s.push(mark);
        }
    }
    s
}

/// The six TREATMENT ROLL tables: for each injury type and severity, the treatment, its
/// modifier, and what CF, F, S and CS give.
pub fn treatment(t: &TreatmentTable) -> String {
    let mut out = String::new();
    out.push_str(&rows(t));
    out
}

fn rows(t: &TreatmentTable) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<11} {:<9} {:<12} {:>4}  {:<7} {:<7} {:<7} {:<7}",
        "type", "severity", "treatment", "mod", "CF", "F", "S", "CS"
    );
    for ty in &t.types {
        for (sev, col) in ["Minor", "Serious", "Grievous"].iter().zip(&ty.severities) {
            let _ = writeln!(
                out,
                "{:<11} {:<9} {:<12} {:>+4}  {:<7} {:<7} {:<7} {:<7}",
                ty.name,
                sev,
                col.treatment.code(),
                col.modifier,
                cell(&col.cells[0]),
                cell(&col.cells[1]),
                cell(&col.cells[2]),
                cell(&col.cells[3]),
            );
        }
    }
    let _ = writeln!(
        out,
        "marks: i infection chance, p permanent impairment chance, b bleeder"
    );
    for c in &t.chosen {
        let _ = writeln!(out, "chosen: {c}");
    }
    out.lines().map(|l| format!("{}\n", l.trim_end())).collect()
}
