//! `leechbook export [NAME] [--csv]` and `leechbook import FILE`: a campaign or one character
//! as versioned JSON (its schema: `fixtures/schemas/export-v1.schema.json`), a character's
//! history as CSV, and characters taken from such an export into another campaign.

use super::find_any;
use crate::ctx::Ctx;
use crate::error::CommandError;
use clap::Args;
use leechbook_core::Event;
pub use leechbook_views::export::{Export, ImportRefused, EXPORT_VERSION};
use std::path::PathBuf;

/// `export`.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// One character (default: the whole campaign).
    pub name: Option<String>,
    /// The character's history as CSV (one row per event about it) instead of JSON.
    #[arg(long, requires = "name")]
    pub csv: bool,
}

/// `import`.
#[derive(Args, Debug)]
pub struct ImportArgs {
    /// An export (`leechbook export > FILE`).
    pub file: PathBuf,
    /// Only these characters (repeat; default: every character in the file).
    #[arg(long = "character")]
    pub characters: Vec<String>,
    /// Bring only the sheet of a character who carries more (open wounds, a Shock State,
    /// conditions): what stays behind is listed.
    #[arg(long)]
    pub sheet_only: bool,
}

/// An import's refusal in the command's words: the file named, and the flag or command that
/// answers it.
fn import_refused(e: ImportRefused, file: &std::path::Path) -> CommandError {
    let file = file.display();
    let error = match &e {
        ImportRefused::NoSuchCharacter(want) => {
            CommandError::user(format!("{file} holds no character named '{want}'"))
        }
        ImportRefused::UnknownArms { name, missing } => CommandError::user(format!(
            "{name} carries {}, which this campaign's arms do not define: load them first (leechbook arms load --starter, or a file), or pass --sheet-only",
            missing.join(", ")
        )),
        ImportRefused::BeyondTheSheet { name, more } => CommandError::user(format!(
            "{name} carries what an import cannot bring ({}): an import makes a new character from the sheet; pass --sheet-only to bring the sheet alone",
            more.join(", ")
        )),
        _ => CommandError::user(e.to_string()),
    };
    error.from_source(e)
}

/// Writes the export to standard output.
pub fn cmd_export(a: ExportArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    if a.csv {
        let name = a.name.as_deref().unwrap_or_default();
        let rows = leechbook_story::log::views(&ctx.replica()?, Some(name), None)?;
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(["at", "clock", "kind", "event", "summary", "void"])
            .map_err(csv_error)?;
        for r in rows {
            w.write_record([
                r.at.as_str(),
                &r.clock.to_string(),
                r.kind,
                &r.id,
                &r.summary,
                r.void.as_deref().unwrap_or(""),
            ])
            .map_err(csv_error)?;
        }
        let bytes = w.into_inner().map_err(|e| csv_error(e.into_error()))?;
        ctx.out.push_str(&String::from_utf8_lossy(&bytes));
        return Ok(());
    }
    let (_, ledger) = match &a.name {
        Some(n) => ctx.load_for(&[n.as_str()])?,
        None => ctx.load()?,
    };
    if ledger.campaign.is_none() {
        return Err(CommandError::user("the ledger holds no campaign yet"));
    }
    let chosen: Vec<&leechbook_core::CharacterState> = match &a.name {
        Some(n) => vec![find_any(&ledger, n)?],
        None => ledger.characters.iter().collect(),
    };
    let export = Export::of(&ledger, &chosen)
        .ok_or_else(|| CommandError::user("the ledger holds no campaign yet"))?;
    ctx.json(&export)
}

fn csv_error(e: impl std::fmt::Display) -> CommandError {
    CommandError::internal(format!("CSV: {e}"))
}

/// Adds characters from an export to this campaign, with their sheets (not their injuries:
/// a character's history stays in its own campaign). All or nothing.
pub fn cmd_import(a: ImportArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let text = std::fs::read_to_string(&a.file)
        .map_err(|e| CommandError::user(format!("cannot read {}: {e}", a.file.display())))?;
    let export: Export = serde_json::from_str(&text).map_err(|e| {
        CommandError::user(format!(
            "{} is not a Leechbook export: {e}",
            a.file.display()
        ))
    })?;
    if export.ty != "leechbook-export" || export.export_version != EXPORT_VERSION {
        return Err(CommandError::user(format!(
            "{} is not a Leechbook export of version {EXPORT_VERSION}",
            a.file.display()
        )));
    }
    export
        .wanted(&a.characters)
        .map_err(|e| import_refused(e, &a.file))?;
    let (_, ledger) = ctx.load()?;
    let plan = export
        .plan(&ledger, &a.characters, a.sheet_only)
        .map_err(|e| import_refused(e, &a.file))?;
    let (chosen, equip, behind) = (plan.chosen, plan.equip, plan.behind);
    // All or nothing: every character in one transaction, each applied after the ones
    // before it (two names in the file that differ only in case, a name the fold refuses, a
    // sheet whose body table this campaign lacks: nothing is written).
    ctx.record_all(None, |_, _| {
        Ok(chosen
            .iter()
            .map(|c| {
                (
                    Event::CharacterAdded {
                        name: c.name.clone(),
                        sheet: c.sheet.clone(),
                    },
                    None,
                )
            })
            .collect())
    })?;
    // Then what they carry (an event about each new character, whose id its joining made).
    for (name, gear) in &equip {
        ctx.record_for(Some(&[name.as_str()]), |ledger, _| {
            let id = ledger
                .id_named(name)
                .ok_or_else(|| CommandError::internal("an imported character vanished"))?;
            Ok((
                Event::HarnMaster(leechbook_core::harnmaster::HmEvent::Equipped {
                    character: id,
                    gear: gear.clone(),
                }),
                None,
            ))
        })?;
    }
    for c in chosen {
        let with = if equip.iter().any(|(n, _)| *n == c.name) {
            "the sheet and equipment"
        } else {
            "the sheet"
        };
        ctx.say(format!("imported {} ({with})", c.name));
    }
    for b in behind {
        ctx.note(format!("left behind, --sheet-only: {b}"));
    }
    Ok(())
}
