//! `leechbook device link NAME|--gm [--revoke]`: the players' page links. A link is a URL
//! with a 128-bit secret; a player's link has a device of its own, rostered as a player's
//! device of that one character, whose key never leaves this ledger: what the page records
//! is signed by it, and revoking the link revokes it on the roster too.

use super::find_any;
use crate::ctx::Ctx;
use crate::error::CommandError;
use clap::{Args, ValueEnum};
use leechbook_core::roster::{Role, RosterChange};
use leechbook_core::Event;
use leechbook_store::{Link, Store};
use leechbook_views::narrate;

/// What a player's page shows of the rest of the party.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum PartyArg {
    /// Nothing.
    None,
    /// Their names.
    Names,
    /// Their names and a condition word each (unhurt, wounded, bleeding, stunned,
    /// incapacitated, unconscious, shaken, bleeding out, dying, afflicted, dead).
    Conditions,
    /// Their whole pages.
    Everything,
}

/// `device link`.
#[derive(Args, Debug)]
pub struct LinkArgs {
    /// The character whose player gets the link.
    #[arg(required_unless_present = "gm")]
    pub name: Option<String>,
    /// The GM's own link instead: every character, like the board; it records nothing.
    #[arg(long, conflicts_with = "name")]
    pub gm: bool,
    /// End the link: its page shows nothing and records nothing from now on (its device is
    /// revoked on the roster).
    #[arg(long)]
    pub revoke: bool,
    /// What the page shows of the rest of the party (default: conditions; given for a live
    /// link, it changes what that link shows).
    #[arg(long, value_enum)]
    pub party: Option<PartyArg>,
    /// The hub's address as the phones reach it (default: where `sync serve` last served,
    /// else this machine's address on the table's network, port 3030).
    #[arg(long, value_name = "URL")]
    pub hub: Option<String>,
    /// Print the link without its QR code.
    #[arg(long)]
    pub no_qr: bool,
}

/// The port `sync serve` listens on by default.
const DEFAULT_PORT: u16 = 3030;

/// The word a link keeps for what it shows of the party.
fn party_word(p: PartyArg) -> &'static str {
    match p {
        PartyArg::None => "none",
        PartyArg::Names => "names",
        PartyArg::Conditions => "conditions",
        PartyArg::Everything => "everything",
    }
}

/// This machine's address on the network a phone reaches it by: the local end of a route
/// to a public address (nothing is sent), else loopback.
pub fn table_address() -> std::net::IpAddr {
    std::net::UdpSocket::bind("0.0.0.0:0")
        .and_then(|s| s.connect("192.0.2.1:9").map(|_| s))
        .and_then(|s| s.local_addr())
        .map(|a| a.ip())
        .unwrap_or(std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST))
}

/// The start of a link's URL: `--hub`, where `sync serve` last served, or this machine's
/// address on the default port.
fn hub_address(given: Option<&str>, store: &Store) -> Result<String, CommandError> {
    let hub = match given {
        Some(h) => {
            let h = h.trim().trim_end_matches('/');
            let parsed = url_ok(h);
            if !parsed {
                return Err(CommandError::user(format!(
                    "'{h}' is not a hub address: give http://HOST:PORT (where `sync serve` listens)"
                )));
            }
            h.to_string()
        }
        None => match store.page_address()? {
            Some(a) => a,
            None => format!("http://{}:{DEFAULT_PORT}", table_address()),
        },
    };
    Ok(hub)
}

/// Whether `h` is an address a link may start with: http or https, a host (and port),
/// nothing after it.
fn url_ok(h: &str) -> bool {
    url::Url::parse(h).is_ok_and(|u| {
        matches!(u.scheme(), "http" | "https")
            && u.host_str().is_some_and(|host| !host.is_empty())
            && u.username().is_empty()
            && u.password().is_none()
            && u.path() == "/"
            && u.query().is_none()
            && u.fragment().is_none()
    })
}

/// The link's URL.
pub fn url_of(hub: &str, link: &Link) -> String {
    format!("{hub}/p/{}/", link.token)
}

/// The QR code of `text`, in half-block characters, light on dark (a terminal's usual
/// colours read as a dark code on light).
fn qr(text: &str) -> Option<String> {
    use qrcode::render::unicode::Dense1x2;
    let code = qrcode::QrCode::new(text.as_bytes()).ok()?;
    Some(
        code.render::<Dense1x2>()
            .dark_color(Dense1x2::Light)
            .light_color(Dense1x2::Dark)
            .quiet_zone(true)
            .build(),
    )
}

/// Runs `device link`.
pub fn cmd_link(a: LinkArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let mut store = ctx.open()?;
    if !leechbook_sync::crypt::is_gm_device(&store)? {
        return Err(CommandError::user(
            "only a GM's device makes or revokes page links (this one is not a GM device on the roster)",
        ));
    }
    let (character, name) = match &a.name {
        Some(n) => {
            let (_, ledger) = ctx.load_for(&[n.as_str()])?;
            let c = find_any(&ledger, n)?;
            if ledger.is_secret(c.id()) && !a.revoke {
                return Err(CommandError::user(format!(
                    "{} is GM-only: a player's link would show them (`leechbook character reveal {}` first, or use the GM's link: `leechbook device link --gm`)",
                    c.name(),
                    c.name()
                )));
            }
            (Some(c.id()), c.name().to_string())
        }
        None => (None, "the GM".to_string()),
    };
    let whose = |name: &str| {
        if character.is_some() {
            format!("{name}'s")
        } else {
            "the GM's".to_string()
        }
    };
    let live: Vec<Link> = store
        .links()?
        .into_iter()
        .filter(|l| l.live() && l.character == character)
        .collect();
    if a.revoke {
        if live.is_empty() {
            return Err(CommandError::user(format!(
                "{} page has no live link to revoke",
                whose(&name)
            )));
        }
        for l in &live {
            store.revoke_link(&l.token)?;
            if let Some((device, _)) = l.device {
                // What the link's device recorded so far stands; anything later is void. Its
                // key never left this ledger: no campaign key to rotate.
                let last = store.last_number(device)?;
                let (ledger, env, applied) = ctx.record(|_, _| {
                    Ok((
                        Event::Roster(RosterChange::RevokeAfter { device, last }),
                        None,
                    ))
                })?;
                ctx.say(narrate::event(&ledger, &env, &applied));
            }
        }
        ctx.say(format!(
            "revoked {} page link: it shows nothing and records nothing from now on",
            whose(&name)
        ));
        return Ok(());
    }
    let hub = hub_address(a.hub.as_deref(), &store)?;
    let link = match live.into_iter().next() {
        Some(mut l) => {
            ctx.note(format!(
                "{} page already has a link (made {}): the same link again; `--revoke` ends it",
                whose(&name),
                l.made
            ));
            if let Some(p) = a.party.map(party_word).filter(|p| *p != l.party) {
                store.set_link_party(&l.token, p)?;
                ctx.note(format!(
                    "it shows the party as '{p}' from now on (was '{}')",
                    l.party
                ));
                l.party = p.to_string();
            }
            l
        }
        None => {
            let device = match character {
                Some(c) => {
                    let (device, secret) = Store::link_identity();
                    let key = Store::public_key_of(&secret).to_vec();
                    let (ledger, env, applied) = ctx.record(|_, _| {
                        Ok((
                            Event::Roster(RosterChange::Device {
                                device,
                                key,
                                role: Role::Player,
                                characters: vec![c],
                            }),
                            None,
                        ))
                    })?;
                    ctx.say(narrate::event(&ledger, &env, &applied));
                    Some((device, secret))
                }
                None => None,
            };
            store.add_link(
                character,
                device,
                party_word(a.party.unwrap_or(PartyArg::Conditions)),
            )?
        }
    };
    let url = url_of(&hub, &link);
    ctx.say(format!("{} page: {url}", whose(&name)));
    // The hints name the port the link's hub is on.
    let port = hub
        .rsplit(':')
        .next()
        .and_then(|p| p.trim_end_matches('/').parse::<u16>().ok())
        .unwrap_or(3030);
    if hub.contains("://127.") || hub.contains("://localhost") || hub.contains("://[::1]") {
        ctx.note(format!("this link opens only on this machine: serve with --listen 0.0.0.0:{port}, or give --hub http://THIS-MACHINE:{port}"));
    }
    if !a.no_qr {
        if let Some(code) = qr(&url) {
            ctx.say(code);
        }
    }
    ctx.say(format!(
        "the page is served while `leechbook sync serve` runs on this ledger (--listen 0.0.0.0:{port} for the table's network)"
    ));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hub_address_is_an_http_url_of_a_host() {
        assert!(url_ok("http://192.168.1.5:3030"));
        assert!(url_ok("http://gm-laptop.local:3030"));
        assert!(!url_ok("192.168.1.5:3030"));
        assert!(!url_ok("http://"));
        assert!(!url_ok("http://a b"));
        assert!(!url_ok("javascript:alert(1)"));
        assert!(!url_ok("http://gm:3030/elsewhere"));
        assert!(!url_ok("http://someone@gm:3030"));
    }

    #[test]
    fn a_qr_code_is_drawn_for_a_link() {
        let code = qr("http://192.168.1.5:3030/p/0123456789abcdef0123456789abcdef").unwrap();
        // Half blocks, several rows, every row as wide as the first.
        let rows: Vec<&str> = code.lines().collect();
        assert!(rows.len() > 10);
        let w = rows[0].chars().count();
        assert!(rows.iter().all(|r| r.chars().count() == w));
    }
}
