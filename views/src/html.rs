//! The players' page's printer: the same typed views `show`, `due` and `history` print, as
//! HTML for a phone (served by the GM's hub). Every value is escaped by the templates (a
//! character's name is any player's text); the page carries no script or style of its own:
//! the hub serves one stylesheet and one script beside it.
//!
//! [`PageView`] is what one link shows: its characters in full, the rest of the party as
//! the GM chose, the campaign clock; [`page`] prints the whole document and [`main`] the
//! part a live update replaces.

use crate::{
    character, owed_any, sw_character, wg_character, wi_character, CharacterView, OwedView, SwView,
    WgView, WiView,
};
use leechbook_core::fold::{CharacterState, Ledger};
use maud::{html, Markup, PreEscaped, DOCTYPE};

/// One character's view, of any system.
#[derive(Clone, Debug)]
pub enum Shown {
    /// HârnMaster.
    HarnMaster(Box<CharacterView>),
    /// Savage Worlds.
    SavageWorlds(Box<SwView>),
    /// Wrath & Glory.
    WrathGlory(Box<WgView>),
    /// Witch Iron.
    WitchIron(Box<WiView>),
}

impl Shown {
    /// The view of `c`.
    pub fn of(ledger: &Ledger, c: &CharacterState) -> Shown {
        match c {
            CharacterState::HarnMaster(h) => Shown::HarnMaster(Box::new(character(ledger, h))),
            CharacterState::SavageWorlds(s) => {
                Shown::SavageWorlds(Box::new(sw_character(ledger, s)))
            }
            CharacterState::WrathGlory(w) => Shown::WrathGlory(Box::new(wg_character(ledger, w))),
            CharacterState::WitchIron(w) => Shown::WitchIron(Box::new(wi_character(ledger, w))),
        }
    }
}

/// One of the rest of the party, as much as the link shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartyView {
    /// The name.
    pub name: String,
    /// A condition word (`unhurt`, `wounded`, `bleeding` ...), if the link shows it.
    pub condition: Option<&'static str>,
}

/// What one page shows.
#[derive(Clone, Debug)]
pub struct PageView {
    /// The campaign's name.
    pub campaign: String,
    /// The campaign clock.
    pub clock: String,
    /// The characters shown in full, each with what it owes and which of those the page
    /// may record (the link's own character; every character on the GM's).
    pub characters: Vec<(Shown, Vec<(OwedView, bool)>)>,
    /// The rest of the party.
    pub party: Vec<PartyView>,
    /// The names of the characters shown that are GM-only (only the GM's page shows them),
    /// marked as such.
    pub gm_only: std::collections::BTreeSet<String>,
    /// Where the characters the GM's page shows stand, in words, where they are not of the
    /// party in the story (`a foe, set aside (fled)`).
    pub standing: std::collections::BTreeMap<String, String>,
}

/// A character's condition in one word, for the party's list: `dead`, the worst of its
/// state, `wounded` while an injury is open, else `unhurt`.
pub fn condition_word(ledger: &Ledger, c: &CharacterState) -> &'static str {
    if c.dead() {
        return "dead";
    }
    match c {
        CharacterState::HarnMaster(h) => match h.shock.code() {
            "UNC" => "unconscious",
            "INC" => "incapacitated",
            "STN" => "stunned",
            _ if h.bleeding() => "bleeding",
            _ if h.injuries.iter().any(|i| i.level > 0) => "wounded",
            _ => "unhurt",
        },
        CharacterState::SavageWorlds(s) => {
            let v = sw_character(ledger, s);
            if v.bleeding_out {
                "bleeding out"
            } else if v.incapacitated {
                "incapacitated"
            } else if v.wounds > 0 {
                "wounded"
            } else if v.shaken {
                "shaken"
            } else {
                "unhurt"
            }
        }
        CharacterState::WrathGlory(w) => {
            let v = wg_character(ledger, w);
            if v.dying {
                "dying"
            } else if v.wounds > 0 {
                "wounded"
            } else {
                "unhurt"
            }
        }
        CharacterState::WitchIron(w) => {
            let v = wi_character(ledger, w);
            if !v.injuries.is_empty() {
                "wounded"
            } else if v.conditions.values().any(|c| c.rating > 0) {
                "afflicted"
            } else {
                "unhurt"
            }
        }
    }
}

/// The owed rolls of `c`, each with whether `may_record` lets the page record it: those it
/// may record first.
pub fn owed_with(
    ledger: &Ledger,
    c: &CharacterState,
    may_record: impl Fn(&OwedView) -> bool,
) -> Vec<(OwedView, bool)> {
    let mut owed: Vec<(OwedView, bool)> = owed_any(ledger, c)
        .into_iter()
        .map(|o| {
            let may = may_record(&o);
            (o, may)
        })
        .collect();
    // The rolls the page records first, each group in the views' own order.
    owed.sort_by_key(|(_, may)| !*may);
    owed
}

/// The whole page: `main` inside a document that names the hub's stylesheet and script, and
/// where its live updates and rolls go (`base`: the link's own path).
pub fn page(v: &PageView, base: &str) -> String {
    let title = match v.characters.as_slice() {
        [(one, _)] => format!("{} · Leechbook", name_of(one)),
        _ => format!("{} · Leechbook", v.campaign),
    };
    document(
        &title,
        true,
        html! {
            body data-base=(base) {
                main id="page" { (PreEscaped(main(v))) }
                footer id="foot" {
                    p id="said" role="status" aria-live="polite" {}
                    p id="link" class="quiet" { "live" }
                }
            }
        },
    )
}

/// A document of the page's: its head (for a phone, no referrer, the hub's stylesheet, and
/// its script where `live`) and `body`.
fn document(title: &str, live: bool, body: Markup) -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="referrer" content="no-referrer";
                title { (title) }
                link rel="stylesheet" href="/page.css";
                @if live { script src="/page.js" defer {} }
            }
            (body)
        }
    }
    .into_string()
}

/// The part of the page a live update replaces.
pub fn main(v: &PageView) -> String {
    html! {
        header {
            h1 { (v.campaign) }
            p class="clock" { "Campaign clock: " time { (v.clock) } }
        }
        @for (c, owed) in &v.characters {
            (shown(c, owed, v.gm_only.contains(name_of(c)), v.standing.get(name_of(c))))
        }
        @if !v.party.is_empty() {
            section class="party" {
                h2 { "The party" }
                ul {
                    @for p in &v.party {
                        li {
                            (p.name)
                            @if let Some(w) = p.condition { " — " span class={"word " (w.replace(' ', "-"))} { (w) } }
                        }
                    }
                }
            }
        }
    }
    .into_string()
}

fn name_of(s: &Shown) -> &str {
    match s {
        Shown::HarnMaster(v) => &v.name,
        Shown::SavageWorlds(v) => &v.name,
        Shown::WrathGlory(v) => &v.name,
        Shown::WitchIron(v) => &v.name,
    }
}

fn shown(s: &Shown, owed: &[(OwedView, bool)], gm_only: bool, standing: Option<&String>) -> Markup {
    let (system, dead, death) = match s {
        Shown::HarnMaster(v) => ("HârnMaster", v.dead, v.death.clone()),
        Shown::SavageWorlds(v) => ("Savage Worlds", v.dead, v.death.clone()),
        Shown::WrathGlory(v) => ("Wrath & Glory", v.dead, v.death.clone()),
        Shown::WitchIron(v) => ("Witch Iron", v.dead, v.death.clone()),
    };
    html! {
        section class="character" data-name=(name_of(s)) {
            h2 { (name_of(s)) " " small { (system) } }
            @if gm_only {
                p class="gm-only" { "GM-only: the players' pages and devices never show them" }
            }
            @if let Some(w) = standing {
                p class="quiet" { (w) }
            }
            @if dead {
                p class="dead" { "Dead" @if let Some(d) = death { ": " (d) } }
            }
            @match s {
                Shown::HarnMaster(v) => (harnmaster(v)),
                Shown::SavageWorlds(v) => (savage(v)),
                Shown::WrathGlory(v) => (wrath(v)),
                Shown::WitchIron(v) => (witch(v)),
            }
            (owed_list(owed))
        }
    }
}

/// The face fields of a roll: one per die it takes, each labelled by its name when there are
/// several (a Savage Worlds trait die and wild die are two fields: `face`, `face2`, ...).
fn face_fields(o: &OwedView) -> Markup {
    let dice = o.roll.dice();
    html! {
        @for (i, die) in dice.iter().enumerate() {
            @let name = if i == 0 { "face".to_string() } else { format!("face{}", i + 1) };
            @let nth = dice[..i].iter().filter(|d| *d == die).count();
            @let alike = dice.iter().filter(|d| *d == die).count() > 1;
            label {
                @if dice.len() > 1 {
                    (die_words(die))
                    @if alike { " " (nth + 1) }
                    " "
                } @else { "Face " }
                // A die that aces takes `6+2`: a phone's number pad has no `+`.
                input name=(name) inputmode=(if aces(die) { "text" } else { "numeric" })
                    autocomplete="off" size="5"
                    placeholder=(if aces(die) { "e.g. 6+2" } else { "as rolled" });
            }
        }
    }
}

/// Whether a die of a roll's fields can ace (a Savage Worlds trait or wild die: `6+2`).
fn aces(die: &str) -> bool {
    matches!(die, "trait" | "wild")
}

/// A die of a roll's fields in words.
fn die_words(die: &str) -> &str {
    match die {
        "trait" => "Trait die",
        "wild" => "Wild die (d6)",
        "injury" => "Injury Table d6",
        "sub" => "sub-table die",
        other => other,
    }
}

/// A Shock State's code with its word beside it (`UNC (unconscious)`).
fn shock_words(code: &str) -> String {
    let word = match code {
        "STN" => "stunned",
        "INC" => "incapacitated",
        "UNC" => "unconscious",
        "KIA" => "killed",
        _ => return code.to_string(),
    };
    format!("{code} ({word})")
}

/// The owed rolls, each with its form where the page records it.
fn owed_list(owed: &[(OwedView, bool)]) -> Markup {
    html! {
        section class="owed" {
            h3 { "Owed" }
            @if owed.is_empty() {
                p class="quiet" { "Nothing owed." }
            } @else {
                ul {
                    @for (o, may) in owed {
                        li class={ "roll" @if o.due_now { " now" } } {
                            strong { (o.kind()) }
                            @if let Some(eml) = o.eml {
                                " at " b { "EML " (eml) } " " span class="quiet" { "(roll " (eml) " or under)" }
                                @if !o.eml_parts.is_empty() { " " span class="terms" { "(" (o.eml_parts.join(" ")) ")" } }
                            }
                            @match (&o.due_at, o.due_now) {
                                (Some(_), true) | (None, true) => { " — " em { "due now" } }
                                (Some(d), false) => { " — due " time { (d) } }
                                (None, false) => {}
                            }
                            @if let Some(p) = &o.place { " " span class="quiet" { "for the " (p) } }
                            @if !o.note.is_empty() { br; span class="note" { (o.note) } }
                            @if *may && o.recordable_now {
                                form class="record" method="post" action="roll" data-kind=(o.kind()) data-injury=(o.injury.clone().unwrap_or_default()) {
                                    input type="hidden" name="kind" value=(o.kind());
                                    input type="hidden" name="injury" value=(o.injury.clone().unwrap_or_default());
                                    (face_fields(o))
                                    button type="submit" { "Record" }
                                    " "
                                    button type="submit" name="auto" value="1" { "Roll for me" }
                                }
                            } @else if *may {
                                br; span class="quiet" { "Not due yet: it can be recorded once the GM's clock reaches it." }
                            } @else if o.decision {
                                br; span class="quiet" { "A healer's decision: the GM records it." }
                            } @else {
                                br; span class="quiet" { "The GM records this one." }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn yes(b: bool, word: &str) -> Markup {
    html! { @if b { span class={"flag " (word)} { (word) } " " } }
}

fn harnmaster(v: &CharacterView) -> Markup {
    let impaired = v.impaired_zones();
    let open: Vec<_> = v.injuries.iter().filter(|i| !i.healed).collect();
    html! {
        dl class="state" {
            dt { "Shock" } dd { (shock_words(v.shock_state)) }
            dt { "Blood loss" } dd { (v.blood_loss) @if v.bleeding { " — " span class="flag bleeding" { "bleeding" } } }
            @if let Some(hr) = v.infection_hr { dt { "Infection" } dd { "HR " (hr) } }
            @if let Some(hr) = v.extended_shock_hr { dt { "Extended Shock" } dd { "HR " (hr) } }
            @if let Some(hr) = v.coma_hr { dt { "Coma" } dd { "HR " (hr) } }
            dt { "Fatigue" } dd { (v.fatigue) @if !v.fatigue_terms.is_empty() { " (" (v.fatigue_terms.join(" ")) ")" } }
            @if !impaired.is_empty() { dt { "Impairment" } dd { (impaired.join(", ")) } }
        }
        section class="wounds" {
            h3 { "Wounds" }
            @if open.is_empty() { p class="quiet" { "No open wounds." } }
            @for i in open {
                article class="wound" data-injury=(i.short_id) {
                    h4 {
                        (i.code) " "
                        @if let Some(s) = i.side { (s) " " }
                        (i.location)
                        " " small { (i.severity) " " (i.aspect) ", level " (i.level) }
                    }
                    p {
                        "healing rate (HR) " b { (i.healing_rate) } " "
                        (yes(i.bleeder, "bleeding"))
                        (yes(i.infected, "infected"))
                        (yes(i.grim, "grim"))
                        (yes(i.severed, "severed"))
                        (yes(i.impaled, "impaled"))
                        @if i.permanent_impairment != 0 { span class="flag" { "permanent " (i.permanent_impairment) } " " }
                    }
                    p class="quiet" {
                        "Since " time { (i.inflicted_at) }
                        @if let Some(t) = &i.treatment { "; treated: " (t) }
                        " · " a href={"wound/" (i.short_id)} { "history" }
                    }
                }
            }
        }
    }
}

fn savage(v: &SwView) -> Markup {
    html! {
        dl class="state" {
            dt { "Wounds" } dd { (v.wounds) " (penalty " (v.wound_penalty) ")" }
            dt { "Toughness" } dd { (v.toughness) }
            dt { "State" } dd {
                (yes(v.shaken, "Shaken")) (yes(v.incapacitated, "Incapacitated")) (yes(v.bleeding_out, "Bleeding Out"))
                @if !v.shaken && !v.incapacitated && !v.bleeding_out { "fighting fit" }
            }
        }
        @if !v.injuries.is_empty() {
            section class="wounds" {
                h3 { "Injuries" }
                ul { @for i in &v.injuries { li { (i.what) ": " (i.effect) " (" (i.lasting) ")" @if !i.active { " — healed" } } } }
            }
        }
    }
}

fn wrath(v: &WgView) -> Markup {
    html! {
        dl class="state" {
            dt { "Wounds" } dd { (v.wounds) " / " (v.max_wounds) }
            dt { "Shock" } dd { (v.shock) " / " (v.sheet.max_shock) }
            dt { "State" } dd {
                (yes(v.dying, "Dying")) (yes(v.exhausted, "Exhausted")) (yes(v.prone, "Prone"))
                @if !v.dying && !v.exhausted && !v.prone { "fighting fit" }
            }
        }
        @if !v.traumatic_injuries.is_empty() || !v.memorable_injuries.is_empty() {
            section class="wounds" {
                h3 { "Injuries" }
                ul {
                    @for t in &v.traumatic_injuries { li { @if let Some(s) = &t.side { (s) " " } (t.part) ": " (t.effect) @if t.replaced { " (replaced)" } } }
                    @for m in &v.memorable_injuries { li { (m.name) @if m.escalated { " (escalated)" } } }
                }
            }
        }
    }
}

fn witch(v: &WiView) -> Markup {
    html! {
        dl class="state" {
            @for (k, c) in &v.conditions {
                dt { (k) } dd { (c.rating) @if let Some(l) = &c.location { " (" (l) ")" } }
            }
            @if v.conditions.is_empty() { dt { "Conditions" } dd { "none" } }
        }
        @if !v.injuries.is_empty() {
            section class="wounds" {
                h3 { "Injuries" }
                ul { @for i in &v.injuries { li { (i.location) ": " b { (i.name) } " — " (i.effects) } } }
            }
        }
    }
}

/// A wound's story as a page: its chapters, and its plot (an SVG the hub drew from the
/// same story) above them.
pub fn story(
    title: &str,
    lines: &[(String, String)],
    plot_svg: Option<&str>,
    back: &str,
) -> String {
    document(
        &format!("{title} · Leechbook"),
        false,
        html! {
            body {
                main {
                    p { a href=(back) { "← back" } }
                    h1 { (title) }
                    @if let Some(svg) = plot_svg {
                        figure class="plot" {
                            (PreEscaped(svg))
                            figcaption class="quiet" { "Swipe sideways to see the whole plot." }
                        }
                    }
                    ol class="story" {
                        @for (at, what) in lines { li { time { (at) } " " (what) } }
                    }
                }
            }
        },
    )
}

/// A page that says one thing (a revoked or unknown link).
pub fn notice(title: &str, line: &str) -> String {
    document(
        title,
        false,
        html! { body { main { h1 { (title) } p { (line) } } } },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_escaped_everywhere_it_is_printed() {
        let v = PageView {
            campaign: "<script>alert(1)</script>".into(),
            clock: "720-01-01 08:00".into(),
            characters: vec![],
            party: vec![PartyView {
                name: "\"><img src=x onerror=alert(1)>".into(),
                condition: Some("wounded"),
            }],
            gm_only: Default::default(),
            standing: Default::default(),
        };
        let out = page(&v, "/p/abc/");
        assert!(!out.contains("<script>alert"));
        assert!(!out.contains("<img"));
        assert!(out.contains("&lt;script&gt;"));
        assert!(out.contains("wounded"));
        let s = story("<b>x</b>", &[("d1".into(), "<i>y</i>".into())], None, "../");
        assert!(!s.contains("<b>x") && !s.contains("<i>y"));
    }
}
