//! `leechbook init`: a new ledger file for a new campaign.

use crate::ctx::Ctx;
use crate::error::CommandError;
use clap::Args;
use leechbook_core::time::CampaignTime;
use leechbook_core::{Event, SystemId};
use leechbook_store::Store;

/// Create a new ledger.
#[derive(Args, Debug)]
pub struct InitArgs {
    /// The campaign's name.
    #[arg(long, default_value = "campaign")]
    pub name: String,
    /// The rules system.
    #[arg(long, default_value = "harnmaster", value_parser = super::system_arg())]
    pub system: SystemId,
    /// Join a campaign instead of starting one: from a join file (the GM's `sync invite
    /// FILE`), or from a hub (ws://HOST:PORT, with --campaign and the GM's join code).
    #[arg(long, value_name = "FILE|URL", conflicts_with_all = ["name", "system"])]
    pub join: Option<std::path::PathBuf>,
    /// The join code of the campaign to join from a hub (the GM's `sync invite` prints it:
    /// the campaign and its keys).
    #[arg(long, value_name = "CODE", requires = "join")]
    pub campaign: Option<String>,
    /// Seconds of campaign time per combat round (the text does not say; 10 by default).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(i64).range(1..=600))]
    pub round_seconds: i64,
}

/// Creates the ledger and records the campaign's first event.
pub fn cmd_init(a: InitArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let path = ctx.db_path()?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| CommandError::user(format!("cannot create {}: {e}", dir.display())))?;
    }
    if let Some(url) = a
        .join
        .as_ref()
        .and_then(|j| j.to_str())
        .filter(|j| j.starts_with("ws://") || j.starts_with("wss://"))
    {
        return join_from_hub(url, a.campaign.as_deref(), &path, ctx);
    }
    if a.campaign.is_some() {
        return Err(CommandError::user(
            "--campaign goes with --join ws://HOST:PORT (a sync file names its campaign)",
        ));
    }
    if let Some(file) = &a.join {
        // Read the campaign from the file first, so nothing is created for a bad file.
        let bytes = std::fs::read(file)
            .map_err(|e| CommandError::user(format!("cannot read {}: {e}", file.display())))?;
        let campaign = leechbook_sync::crypt::invitation_campaign(&bytes).ok_or_else(|| {
            CommandError::user(format!(
                "{} is not a join file (a sync file carries no keys: the GM writes a join file with `leechbook sync invite FILE`)",
                file.display()
            ))
        })?;
        let mut store = Store::create_joining(&path, campaign)?;
        // The same import as `sync import`: keys taken from the file, signatures checked,
        // the document kept.
        match leechbook_sync::import_bytes(&mut store, &bytes) {
            Ok(_) if store.count()? > 0 => {}
            outcome => {
                drop(store);
                let _ = std::fs::remove_file(&path);
                return Err(CommandError::user(match outcome {
                    Err(e) => e.to_string(),
                    Ok(_) => format!("{} holds no campaign to join", file.display()),
                }));
            }
        }
        ctx.say(format!(
            "joined the campaign with {} events at {}",
            store.count()?,
            path.display()
        ));
        return Ok(());
    }
    let mut store = Store::create(&path)?;
    // The campaign's key: what its events are sealed under on their way to other devices.
    let ring = leechbook_sync::Keyring::generate(store.campaign());
    if let Err(e) = leechbook_sync::crypt::keep_keyring(&mut store, &ring) {
        drop(store);
        let _ = std::fs::remove_file(&path);
        return Err(CommandError::user(e.to_string()));
    }
    let key = store.public_key().to_vec();
    let device = store.device();
    let result = (|| -> Result<(), leechbook_store::StoreError> {
        let mut w = store.write()?;
        let created = w.prepare(
            Event::CampaignCreated {
                name: a.name.clone(),
                system: a.system,
                round_seconds: a.round_seconds,
            },
            CampaignTime::START,
            chrono::Utc::now(),
        )?;
        w.append(&created)?;
        // The creating device is the campaign's first GM.
        let roster = w.prepare(
            Event::Roster(leechbook_core::roster::RosterChange::Device {
                device,
                key,
                role: leechbook_core::roster::Role::Gm,
                characters: Vec::new(),
            }),
            CampaignTime::START,
            chrono::Utc::now(),
        )?;
        w.append(&roster)?;
        w.commit()
    })();
    if let Err(e) = result {
        drop(store);
        let _ = std::fs::remove_file(&path);
        return Err(e.into());
    }
    ctx.say(format!(
        "initialised campaign '{}' ({}) at {}",
        a.name,
        a.system.name(),
        path.display()
    ));
    Ok(())
}

/// `init --join URL --campaign ID`: a new ledger for the campaign, filled from the hub. Nothing
/// is left behind if the hub does not hold the campaign.
fn join_from_hub(
    url: &str,
    campaign: Option<&str>,
    path: &std::path::Path,
    ctx: &mut Ctx,
) -> Result<(), CommandError> {
    let code = campaign.ok_or_else(|| {
        CommandError::user(
            "joining from a hub needs --campaign CODE (the join code the GM's `leechbook sync invite` prints)",
        )
    })?;
    let ring = leechbook_sync::Keyring::from_code(code)?;
    let campaign = ring.campaign();
    let mut store = Store::create_joining(path, campaign)?;
    leechbook_sync::crypt::keep_keyring(&mut store, &ring)?;
    let synced =
        leechbook_sync::net::sync_with(&mut store, url, std::time::Duration::from_secs(30));
    let got = match synced {
        Ok(s) if s.events > 0 => s.imported,
        outcome => {
            drop(store);
            let _ = std::fs::remove_file(path);
            return Err(CommandError::user(match outcome {
                Err(e) => e.to_string(),
                // Nothing opened: the join code's keys are not the campaign's.
                Ok(s) if !s.imported.refused.is_empty() => s.imported.refused[0].clone(),
                Ok(_) => format!("the hub at {url} holds no events of campaign {campaign}"),
            }));
        }
    };
    for r in got.refused {
        ctx.note(format!("refused: {r}"));
    }
    for g in got.gaps {
        ctx.note(format!("gap: {g}"));
    }
    let events = store.count()?;
    ctx.say(format!(
        "joined the campaign with {events} events at {}",
        path.display()
    ));
    Ok(())
}
