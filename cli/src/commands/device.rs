//! `leechbook device show|list|add|revoke|reset`: this device's identity, and the GM's roster.

use super::find_any;
use super::link::LinkArgs;
use crate::ctx::Ctx;
use crate::error::CommandError;
use clap::{Args, Subcommand, ValueEnum};
use leechbook_core::ids::DeviceId;
use leechbook_core::roster::{Role, RosterChange};
use leechbook_core::Event;
use leechbook_ledger::roster;
use leechbook_views::narrate;

/// Device commands.
#[derive(Subcommand, Debug)]
pub enum DeviceCommand {
    /// Show this device's id and public key (give them to the GM to be rostered).
    Show,
    /// The campaign's roster: every device, its role, a player's characters, revocations.
    List,
    /// GM: add a device to the roster (or change its role and characters).
    Add(AddArgs),
    /// GM: revoke a device: its events from now on are refused.
    Revoke(RevokeArgs),
    /// Give this ledger a new device identity (a ledger copied from another device's file
    /// shares that device's): a new id and key, for the GM to roster.
    Reset(ResetArgs),
    /// GM: the players' page link of a character (a URL with a secret, and its QR code), for
    /// a phone to open while `sync serve` runs; `--revoke` ends it.
    Link(LinkArgs),
}

/// `device reset`.
#[derive(Args, Debug)]
pub struct ResetArgs {
    /// Confirm: the old key is discarded, and this ledger records nothing until the GM
    /// rosters the new identity.
    #[arg(long)]
    pub yes: bool,
}

/// Roles.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum RoleArg {
    /// A GM device.
    Gm,
    /// A player's device.
    Player,
}

/// `device add`.
#[derive(Args, Debug)]
pub struct AddArgs {
    /// The device id (from `device show` on that device).
    pub device: String,
    /// Its public key, in hex.
    pub key: String,
    /// Its role.
    #[arg(long, value_enum, default_value = "player")]
    pub role: RoleArg,
    /// A character the player records for (repeat).
    #[arg(long = "character")]
    pub characters: Vec<String>,
}

/// `device revoke`.
#[derive(Args, Debug)]
pub struct RevokeArgs {
    /// The device id.
    pub device: String,
}

pub(crate) fn device_id(s: &str) -> Result<DeviceId, CommandError> {
    s.trim()
        .parse::<uuid::Uuid>()
        .map(DeviceId)
        .map_err(|_| CommandError::user(format!("'{s}' is not a device id")))
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Result<Vec<u8>, CommandError> {
    let s = s.trim();
    if s.len() != 64 || !s.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(CommandError::user("a public key is 64 hex digits"));
    }
    (0..32)
        .map(|i| {
            u8::from_str_radix(&s[2 * i..2 * i + 2], 16).map_err(|_| CommandError::user("bad hex"))
        })
        .collect()
}

/// Runs a device command.
pub fn cmd_device(c: DeviceCommand, ctx: &mut Ctx) -> Result<(), CommandError> {
    let mut rotated = None;
    let change = match c {
        DeviceCommand::Link(a) => return super::link::cmd_link(a, ctx),
        DeviceCommand::Show => return show(ctx),
        DeviceCommand::Reset(a) => return reset(a, ctx),
        DeviceCommand::List => return list(ctx),
        DeviceCommand::Add(a) => {
            let device = device_id(&a.device)?;
            let key = unhex(&a.key)?;
            let names: Vec<&str> = a.characters.iter().map(String::as_str).collect();
            let (_, ledger) = ctx.load_for(&names)?;
            let characters = a
                .characters
                .iter()
                .map(|n| find_any(&ledger, n).map(|c| c.id()))
                .collect::<Result<Vec<_>, _>>()?;
            let role = match a.role {
                RoleArg::Gm => Role::Gm,
                RoleArg::Player => Role::Player,
            };
            let rostered = roster::roster_device(&ledger, device, key, role, characters)?;
            // A GM device given a player's role takes no key of the GM's ring from now.
            if rostered.demoted {
                let mut store = ctx.open()?;
                leechbook_sync::crypt::rotate_gm(&mut store, device)?;
            }
            rostered.change
        }
        DeviceCommand::Revoke(a) => {
            let device = device_id(&a.device)?;
            let (_, ledger) = ctx.load_head()?;
            let mut store = ctx.open()?;
            // The revocation names the last of the device's numbers this ledger holds: what
            // the device recorded later is void whatever clock it claims.
            let change = roster::revoke_device(&ledger, device, store.last_number(device)?)?;
            // A new campaign key for the devices still on the roster, made (and kept) before
            // the revocation is recorded, so that a failure leaves the roster as it was: what
            // is recorded from now on travels sealed under it, unreadable to this device.
            rotated = Some(leechbook_sync::rotate_key(&mut store, Some(device))?);
            change
        }
    };
    let revoked = match change {
        RosterChange::RevokeAfter { device, .. } => Some(device),
        _ => None,
    };
    let (ledger, env, applied) = ctx.record(|_, _| Ok((Event::Roster(change), None)))?;
    ctx.say(narrate::event(&ledger, &env, &applied));
    // A players' page link of the device revoked ends with it.
    if let Some(device) = revoked {
        if ctx.open()?.revoke_links_of(device)? > 0 {
            ctx.say(
                "its players' page link is revoked too: the page shows and records nothing more",
            );
        }
    }
    if let Some(epoch) = rotated {
        ctx.say(format!(
            "rotated the campaign key (epoch {epoch}): the devices still on the roster take it in at their next sync"
        ));
    }
    Ok(())
}

/// `device show`: this device's id, key, campaign and role.
fn show(ctx: &mut Ctx) -> Result<(), CommandError> {
    let (replica, ledger) = ctx.load_head()?;
    let store = replica.store();
    let role = ledger
        .roster
        .entries
        .get(&store.device())
        .map(|e| match e.role {
            Role::Gm => "GM",
            Role::Player => "player",
        });
    ctx.say(format!("device {}", store.device()));
    ctx.say(format!("key    {}", hex(&store.public_key())));
    ctx.say(format!("campaign {}", store.campaign()));
    ctx.say(format!(
        "role   {}",
        role.unwrap_or("not on the roster yet")
    ));
    Ok(())
}

/// `device reset --yes`: a new identity for this ledger.
fn reset(a: ResetArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    if !a.yes {
        return Err(CommandError::user(
            "device reset gives this ledger a new identity for good (the old key is discarded and the GM must roster the new one): pass --yes",
        ));
    }
    let mut store = ctx.open()?;
    let old = store.device();
    let (device, key) = store.new_identity()?;
    ctx.say(format!(
        "this ledger was device {old}; its events so far keep that identity"
    ));
    ctx.say(format!("device {device}"));
    ctx.say(format!("key    {}", hex(&key)));
    ctx.say(format!(
        "the GM rosters it: leechbook device add {device} {} --role player (or --role gm)",
        hex(&key)
    ));
    Ok(())
}

/// `device list`: the roster, each device with its role, characters and marks.
fn list(ctx: &mut Ctx) -> Result<(), CommandError> {
    let (replica, ledger) = ctx.load_head()?;
    let store = replica.store();
    if ledger.roster.entries.is_empty() {
        ctx.say("no roster: this ledger predates device signatures");
    }
    let links: Vec<leechbook_core::ids::DeviceId> = store
        .links()?
        .iter()
        .filter_map(|l| l.device.map(|(d, _)| d))
        .collect();
    let lines: Vec<String> = ledger
        .roster
        .entries
        .iter()
        .map(|(device, e)| {
            let mut line = format!(
                "{device}  {}",
                match e.role {
                    Role::Gm => "GM",
                    Role::Player => "player",
                }
            );
            if e.role == Role::Player {
                let names: Vec<&str> = e
                    .characters
                    .iter()
                    // The roll names every character, held or not.
                    .map(|c| ledger.name_of(*c).unwrap_or("?"))
                    .collect();
                line.push_str(&format!(" for {}", names.join(", ")));
            }
            if links.contains(device) {
                line.push_str("  (a players' page link)");
            }
            if e.revoked.is_some() {
                line.push_str("  (revoked)");
            }
            if *device == store.device() {
                line.push_str("  (this device)");
            }
            line
        })
        .collect();
    for l in lines {
        ctx.say(l);
    }
    Ok(())
}
