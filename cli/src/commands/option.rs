//! `leechbook option NAME on|off`: the campaign's optional rules.

use crate::ctx::Ctx;
use crate::error::CommandError;
use clap::{Args, ValueEnum};
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::Event;

/// On or off.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum Switch {
    /// On.
    On,
    /// Off.
    Off,
}

/// The optional rules a campaign can turn on.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum OptionName {
    /// Healing periods of d3+3 days instead of five (Healing step 6).
    RandomHealingPeriod,
    /// The Serious-injury aggravation option (Healing step 8).
    Aggravation,
}

/// Turn an optional rule on or off (from now on in the campaign's history).
#[derive(Args, Debug)]
pub struct OptionArgs {
    /// The option.
    #[arg(value_enum)]
    pub name: OptionName,
    /// On or off.
    #[arg(value_enum)]
    pub switch: Switch,
}

/// Records the option.
pub fn cmd_option(a: OptionArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let name = match a.name {
        OptionName::RandomHealingPeriod => "random-healing-period",
        OptionName::Aggravation => "aggravation",
    };
    let on = matches!(a.switch, Switch::On);
    ctx.record_for(Some(&[]), |_, _| {
        Ok((
            Event::HarnMaster(HmEvent::OptionSet {
                name: name.into(),
                on,
            }),
            None,
        ))
    })?;
    ctx.say(format!("option {name} {}", if on { "on" } else { "off" }));
    Ok(())
}
