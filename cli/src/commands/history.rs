//! `leechbook history NAME [INJURY]`: one wound's whole story in campaign time, from the
//! strike that inflicted it through bleeding, shock, treatment, healing rolls and infection
//! to the day it healed; or every event about the character.

use crate::ctx::Ctx;
use crate::error::CommandError;
use crate::views;
use clap::Args;
use leechbook_story::history;

/// Tell a wound's story.
#[derive(Args, Debug)]
pub struct HistoryArgs {
    /// The character.
    pub name: String,
    /// The injury (its id or short id); without it, every event about the character.
    pub injury: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Draw the wound's timeline (level, healing rate, infection, blood loss, impairment,
    /// every roll marked) into this file (needs INJURY): a PNG picture when the file ends in
    /// .png, else SVG.
    #[arg(long, value_name = "FILE", requires = "injury")]
    pub plot: Option<std::path::PathBuf>,
}

/// Prints the story.
pub fn cmd_history(a: HistoryArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let (story, samples) = history::story(&ctx.replica()?, &a.name, a.injury.as_deref())
        .map_err(|e| match e {
            // Only a wound's own story is HârnMaster's: said so, not "a HârnMaster command".
            leechbook_story::StoryError::Lookup(
                l @ leechbook_ledger::lookup::Lookup::OtherSystem { .. },
            ) => CommandError::user(format!(
                "{l}: only a HârnMaster injury has a story of its own (leave out INJURY for the whole story)"
            ))
            .from_source(l),
            e => e.into(),
        })?;
    if let (Some(file), Some(v)) = (&a.plot, &story.injury) {
        draw(file, &story.character, v, &samples, ctx)?;
    }
    if a.json {
        return ctx.json(&story);
    }
    if let Some(v) = &story.injury {
        let place = match v.side {
            Some(s) => format!("{s} {}", v.location),
            None => v.location.clone(),
        };
        ctx.say(format!(
            "{}'s {} {} ({}):",
            story.character, v.code, place, v.short_id
        ));
    } else {
        ctx.say(format!("{}:", story.character));
    }
    for e in &story.entries {
        ctx.say(format!("  {:<15} {}", e.at, e.summary));
    }
    if let Some(end) = &story.ending {
        ctx.say(format!("  => {end}"));
    }
    Ok(())
}

/// Draws the injury's plot into `file` (PNG by its extension, else SVG).
fn draw(
    file: &std::path::Path,
    character: &str,
    v: &views::InjuryView,
    samples: &[leechbook_views::plot::Sample],
    ctx: &mut Ctx,
) -> Result<(), CommandError> {
    let place = match v.side {
        Some(s) => format!("{s} {}", v.location),
        None => v.location.clone(),
    };
    let first = samples.first().map_or(1, |s| s.day as i64 + 1);
    let last = samples.last().map_or(1, |s| s.day as i64 + 1);
    let days = if first == last {
        format!("day {first}")
    } else {
        format!("days {first}-{last}")
    };
    let title = format!("{character}: {} {} ({}), {days}", v.code, place, v.short_id);
    let png = file
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    let bytes = if png {
        leechbook_views::plot::png(&title, samples)
            .map_err(|e| CommandError::user(format!("cannot draw {}: {e}", file.display())))?
    } else {
        leechbook_views::plot::svg(&title, samples).into_bytes()
    };
    std::fs::write(file, bytes)
        .map_err(|e| CommandError::user(format!("cannot write {}: {e}", file.display())))?;
    ctx.note(format!(
        "drew {} ({} rolls marked)",
        file.display(),
        samples.len()
    ));
    Ok(())
}
