//! `leechbook table list|show|load`: body location tables as data.

use crate::ctx::Ctx;
use crate::error::CommandError;
use clap::{Args, Subcommand};
use leechbook_core::harnmaster::body::BodyTable;
use leechbook_core::harnmaster::healing::TreatmentTable;
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::Event;
use leechbook_core::HmLedger;
use std::path::PathBuf;

/// Table commands.
#[derive(Subcommand, Debug)]
pub enum TableCommand {
    /// List the body tables the campaign knows.
    List(ListArgs),
    /// Print a body table as TOML (the format `table load` reads), `treatment` (the
    /// TREATMENT ROLL tables) as tables, or `readings`: Leechbook's readings of the campaign system's text
    /// where it is silent or ambiguous.
    Show(ShowArgs),
    /// Record a table from a TOML file: a body table (a creature's, or the campaign's `human`
    /// override) or the campaign's TREATMENT ROLL tables (a file with `types`).
    Load(LoadArgs),
}

/// `table list`.
#[derive(Args, Debug)]
pub struct ListArgs {
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `table show`.
#[derive(Args, Debug)]
pub struct ShowArgs {
    /// The table's name.
    pub name: String,
    /// Print JSON instead of TOML.
    #[arg(long)]
    pub json: bool,
}

/// `table load`.
#[derive(Args, Debug)]
pub struct LoadArgs {
    /// The TOML file.
    #[arg(required_unless_present = "destrier")]
    pub file: Option<PathBuf>,
    /// Record the stand-in destrier body table that ships with Leechbook
    /// (fixtures/creatures/destrier.toml: the text names the book's table but does not print
    /// it; every value but the volley example's is chosen, and the file says so).
    #[arg(long, conflicts_with = "file")]
    pub destrier: bool,
}

/// The stand-in destrier body table.
pub const DESTRIER: &str = include_str!("../../../fixtures/creatures/destrier.toml");

/// Runs a table command.
pub fn cmd_table(c: TableCommand, ctx: &mut Ctx) -> Result<(), CommandError> {
    match c {
        TableCommand::List(a) => {
            let (_, ledger) = ctx.load_head()?;
            let mut names: Vec<String> = vec!["human".into()];
            for t in &ledger.settings.hm.tables {
                if !names.contains(&t.name) {
                    names.push(t.name.clone());
                }
            }
            let rows: Vec<serde_json::Value> = names
                .iter()
                .map(|n| {
                    serde_json::json!({
                        "type": "body-table",
                        "schema_version": crate::views::JSON_SCHEMA,
                        "name": n,
                        "zones": ledger.table(n).map_or(0, |t| t.zone_count()),
                    })
                })
                .collect();
            if a.json {
                return ctx.json(&rows);
            }
            for r in rows {
                ctx.say(format!(
                    "{} ({} zones)",
                    r["name"].as_str().unwrap_or("?"),
                    r["zones"]
                ));
            }
            Ok(())
        }
        TableCommand::Show(a) if a.name == "treatment" => {
            let (_, ledger) = ctx.load_head()?;
            let t = ledger.treatment_table();
            if a.json {
                return ctx.json(t);
            }
            ctx.out.push_str(&leechbook_views::tables::treatment(t));
            Ok(())
        }
        TableCommand::Show(a) if a.name == "readings" => {
            let (_, ledger) = ctx.load_head()?;
            let system = ledger
                .campaign
                .as_ref()
                .map_or(leechbook_core::SystemId::HarnMaster, |c| c.system);
            let readings = system.readings();
            if a.json {
                let rows: Vec<serde_json::Value> = readings
                    .iter()
                    .map(|(title, text)| serde_json::json!({"title": title, "text": text}))
                    .collect();
                return ctx.json(&rows);
            }
            for (title, text) in readings {
                ctx.say(format!("# {title}\n"));
                ctx.say(text);
            }
            Ok(())
        }
        TableCommand::Show(a) => {
            let (_, ledger) = ctx.load_head()?;
            let t = ledger.table(&a.name).ok_or_else(|| {
                CommandError::user(format!("there is no body table '{}'", a.name))
            })?;
            if a.json {
                return ctx.json(t);
            }
            let text =
                toml::to_string(t).map_err(|e| CommandError::internal(format!("TOML: {e}")))?;
            ctx.out.push_str(&text);
            Ok(())
        }
        TableCommand::Load(a) => {
            let (text, shown) =
                super::file_or_shipped(a.file.as_deref(), DESTRIER, "the stand-in destrier table")?;
            if let Ok(treatment) = toml::from_str::<TreatmentTable>(&text) {
                treatment
                    .validate()
                    .map_err(|e| CommandError::user(format!("{}: {e}", shown)))?;
                ctx.record_for(Some(&[]), |_, _| {
                    Ok((
                        Event::HarnMaster(HmEvent::TreatmentTableDefined(treatment)),
                        None,
                    ))
                })?;
                ctx.say("treatment tables recorded");
                return Ok(());
            }
            let table: BodyTable = toml::from_str(&text).map_err(|e| {
                CommandError::user(format!("{} is not a body table: {}", shown, e.message()))
            })?;
            table
                .validate()
                .map_err(|e| CommandError::user(format!("{}: {e}", shown)))?;
            let name = table.name.clone();
            ctx.record_for(Some(&[]), |_, _| {
                Ok((Event::HarnMaster(HmEvent::BodyTableDefined(table)), None))
            })?;
            ctx.say(format!("body table '{name}' recorded"));
            Ok(())
        }
    }
}
