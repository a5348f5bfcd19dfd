//! Where a character stands in the story: `character side NAME party|foe|npc`, `character
//! aside NAME --why WORDS` (captured, fled: out of the story, so `due`, `advance --roll` and
//! the board stop asking for their rolls and the players' page leaves them out) and
//! `character back NAME`; `character hide NAME` (GM-only from now) and `character reveal
//! NAME`. Each is an event, undone by another or by retracting it.

use super::find_any;
use crate::ctx::Ctx;
use crate::error::CommandError;
use clap::{Args, ValueEnum};
use leechbook_core::standing::{Side, Standing};
use leechbook_core::Event;
use leechbook_views::narrate;

/// A side, as typed.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum SideArg {
    /// One of the party.
    Party,
    /// A foe.
    Foe,
    /// Someone else the GM plays.
    Npc,
}

/// `character side`.
#[derive(Args, Debug)]
pub struct SideArgs {
    /// The character.
    pub name: String,
    /// Their side.
    #[arg(value_enum)]
    pub side: SideArg,
}

/// `character aside`.
#[derive(Args, Debug)]
pub struct AsideArgs {
    /// The character.
    pub name: String,
    /// Why they leave the story (`captured`, `fled`, `released`).
    #[arg(long)]
    pub why: String,
}

/// `character back`.
#[derive(Args, Debug)]
pub struct BackArgs {
    /// The character.
    pub name: String,
}

/// Records where `name` stands from now, as `change` makes it of where they stand.
fn record(
    ctx: &mut Ctx,
    name: &str,
    change: impl FnOnce(Standing) -> Standing,
) -> Result<(), CommandError> {
    let names = [name];
    let (ledger, env, applied) = ctx.record_for(Some(&names), |ledger, _| {
        let c = find_any(ledger, name)?;
        let standing = change(ledger.standing_of(c.id()));
        Ok((
            Event::Standing {
                character: c.id(),
                standing,
            },
            None,
        ))
    })?;
    ctx.say(narrate::event(&ledger, &env, &applied));
    Ok(())
}

/// `character side NAME SIDE`.
pub fn side(a: SideArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let side = match a.side {
        SideArg::Party => Side::Party,
        SideArg::Foe => Side::Foe,
        SideArg::Npc => Side::Npc,
    };
    record(ctx, &a.name, |s| Standing { side, ..s })
}

/// `character aside NAME --why WORDS`.
pub fn aside(a: AsideArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let why = a.why.trim().to_string();
    if why.is_empty() {
        return Err(CommandError::user(
            "say why they leave the story: --why captured (fled, released ...)",
        ));
    }
    record(ctx, &a.name, |s| Standing {
        aside: Some(why),
        ..s
    })
}

/// `character back NAME`.
pub fn back(a: BackArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    record(ctx, &a.name, |s| Standing { aside: None, ..s })
}

/// `character hide NAME` (`secret`) and `character reveal NAME`.
pub fn secret(a: BackArgs, ctx: &mut Ctx, secret: bool) -> Result<(), CommandError> {
    let names = [a.name.as_str()];
    let (ledger, env, applied) = ctx.record_for(Some(&names), |ledger, _| {
        let c = find_any(ledger, &a.name)?;
        Ok((
            Event::Secret {
                character: c.id(),
                secret,
            },
            None,
        ))
    })?;
    ctx.say(narrate::event(&ledger, &env, &applied));
    Ok(())
}
