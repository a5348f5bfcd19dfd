//! `leechbook character add|list|show|set`.

use super::find;
use crate::ctx::Ctx;
use crate::error::CommandError;
use crate::views;
use clap::{Args, Subcommand};
use leechbook_core::harnmaster::state::Sheet;
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::{Event, SheetKind, SystemId};
use leechbook_ledger::Draft;
use serde::Serialize;

/// Character commands.
#[derive(Subcommand, Debug)]
pub enum CharacterCommand {
    /// Add a character.
    Add(AddArgs),
    /// List the characters.
    List(ListArgs),
    /// Show a character (as `leechbook show`).
    Show(super::show::ShowArgs),
    /// Change a character's sheet (only the values given change).
    Set(SetArgs),
    /// Give a character weapons, armour and combat skills (replacing what they had).
    Equip(EquipArgs),
    /// Say which side a character is on: party, foe or npc (the players' page lists the
    /// party's).
    Side(super::standing::SideArgs),
    /// Set a character aside, out of the story (captured, fled): their rolls are no longer
    /// asked for.
    Aside(super::standing::AsideArgs),
    /// Bring a character set aside back into the story.
    Back(super::standing::BackArgs),
    /// Make a character GM-only from now: what happens to them is read on the GM's devices
    /// alone (what the players' devices already hold stays).
    Hide(super::standing::BackArgs),
    /// Reveal a GM-only character to the table, with their whole record.
    Reveal(super::standing::BackArgs),
}

/// `character equip`.
#[derive(Args, Debug)]
pub struct EquipArgs {
    /// The character.
    pub name: String,
    /// A readied weapon (repeat for several).
    #[arg(long = "weapon")]
    pub weapons: Vec<String>,
    /// A piece of armour worn (repeat for several).
    #[arg(long = "armour")]
    pub armour: Vec<String>,
    /// Melee ML.
    #[arg(long, default_value_t = 0)]
    pub melee: i32,
    /// Dodge ML.
    #[arg(long, default_value_t = 0)]
    pub dodge: i32,
    /// Archery ML.
    #[arg(long, default_value_t = 0)]
    pub archery: i32,
    /// Throwing ML.
    #[arg(long, default_value_t = 0)]
    pub throwing: i32,
    /// Slings ML.
    #[arg(long, default_value_t = 0)]
    pub slings: i32,
    /// Initiative ML.
    #[arg(long, default_value_t = 0)]
    pub initiative: i32,
    /// Riding ML.
    #[arg(long, default_value_t = 0)]
    pub riding: i32,
    /// Strength Impact Modifier.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub str_impact: i32,
}

/// A HârnMaster sheet's values.
#[derive(Args, Debug)]
pub struct AddArgs {
    /// The character's name (unique in the campaign).
    pub name: String,
    /// GM-only: the character and everything only about them are read on the GM's devices
    /// alone (players' devices, join files and pages never see them).
    #[arg(long)]
    pub gm_only: bool,
    /// Strength.
    #[arg(long = "str", help_heading = "HârnMaster sheet")]
    pub strength: Option<i32>,
    /// Endurance.
    #[arg(long = "end", help_heading = "HârnMaster sheet")]
    pub endurance: Option<i32>,
    /// Shock ML.
    #[arg(long = "shock", help_heading = "HârnMaster sheet")]
    pub shock_ml: Option<i32>,
    /// Healing Base.
    #[arg(long = "hb", help_heading = "HârnMaster sheet")]
    pub healing_base: Option<i32>,
    /// Toughness (armour included).
    #[arg(long, help_heading = "Savage Worlds sheet")]
    pub toughness: Option<i32>,
    /// An Extra (not a Wild Card).
    #[arg(long, help_heading = "Savage Worlds sheet")]
    pub extra: bool,
    /// Pace (default 6).
    #[arg(long, help_heading = "Savage Worlds sheet")]
    pub pace: Option<i32>,
    /// Tier.
    #[arg(long, help_heading = "Wrath & Glory sheet")]
    pub tier: Option<i32>,
    /// Resilience.
    #[arg(long, help_heading = "Wrath & Glory sheet")]
    pub resilience: Option<i32>,
    /// Toughness (Determination dice; with Tier, Max Wounds).
    #[arg(long = "wg-toughness", help_heading = "Wrath & Glory sheet")]
    pub wg_toughness: Option<i32>,
    /// Max Shock.
    #[arg(long, help_heading = "Wrath & Glory sheet")]
    pub max_shock: Option<i32>,
    /// Rank (default 1).
    #[arg(long, help_heading = "Wrath & Glory sheet")]
    pub rank: Option<i32>,
    /// Resilience Bonus (default 0).
    #[arg(long, allow_negative_numbers = true, help_heading = "Witch Iron sheet")]
    pub rb: Option<i32>,
    /// Strength test ML (default: STR x 5).
    #[arg(long = "str-ml", help_heading = "HârnMaster sheet")]
    pub strength_ml: Option<i32>,
    /// Body location table (default: human).
    #[arg(long, help_heading = "HârnMaster sheet")]
    pub body: Option<String>,
    /// A beast (not Folk): fixed MLs for amputation and blood loss.
    #[arg(long, help_heading = "HârnMaster sheet")]
    pub beast: bool,
    /// Fatigue penalty (default 0).
    #[arg(long, help_heading = "HârnMaster sheet")]
    pub fatigue: Option<i32>,
}

/// Refuses sheet options of a system other than the campaign's: a campaign plays one system,
/// and an option it would ignore is a mistake, never dropped silently.
fn check_system(a: &AddArgs, system: SystemId) -> Result<(), CommandError> {
    use SystemId::{HarnMaster, SavageWorlds, WitchIron, WrathGlory};
    let given = [
        ("--str", HarnMaster, a.strength.is_some()),
        ("--end", HarnMaster, a.endurance.is_some()),
        ("--shock", HarnMaster, a.shock_ml.is_some()),
        ("--hb", HarnMaster, a.healing_base.is_some()),
        ("--str-ml", HarnMaster, a.strength_ml.is_some()),
        ("--body", HarnMaster, a.body.is_some()),
        ("--beast", HarnMaster, a.beast),
        ("--fatigue", HarnMaster, a.fatigue.is_some()),
        ("--toughness", SavageWorlds, a.toughness.is_some()),
        ("--extra", SavageWorlds, a.extra),
        ("--pace", SavageWorlds, a.pace.is_some()),
        ("--tier", WrathGlory, a.tier.is_some()),
        ("--resilience", WrathGlory, a.resilience.is_some()),
        ("--wg-toughness", WrathGlory, a.wg_toughness.is_some()),
        ("--max-shock", WrathGlory, a.max_shock.is_some()),
        ("--rank", WrathGlory, a.rank.is_some()),
        ("--rb", WitchIron, a.rb.is_some()),
    ];
    let foreign: Vec<String> = given
        .iter()
        .filter(|(_, s, on)| *on && *s != system)
        .map(|(f, s, _)| format!("{f} ({})", s.name()))
        .collect();
    if foreign.is_empty() {
        return Ok(());
    }
    Err(CommandError::user(format!(
        "the campaign plays {}; these sheet options are another system's: {}",
        system.name(),
        foreign.join(", ")
    )))
}

/// `character list`.
#[derive(Args, Debug)]
pub struct ListArgs {
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `character set`.
#[derive(Args, Debug)]
pub struct SetArgs {
    /// The character.
    pub name: String,
    /// Strength.
    #[arg(long = "str")]
    pub strength: Option<i32>,
    /// Endurance.
    #[arg(long = "end")]
    pub endurance: Option<i32>,
    /// Shock ML.
    #[arg(long = "shock")]
    pub shock_ml: Option<i32>,
    /// Healing Base.
    #[arg(long = "hb")]
    pub healing_base: Option<i32>,
    /// Strength test ML.
    #[arg(long = "str-ml")]
    pub strength_ml: Option<i32>,
    /// Body location table.
    #[arg(long)]
    pub body: Option<String>,
    /// Fatigue penalty.
    #[arg(long)]
    pub fatigue: Option<i32>,
}

fn check_sheet(s: &Sheet) -> Result<(), CommandError> {
    for (what, v, lo, hi) in [
        ("--str", s.strength, 1, 30),
        ("--end", s.endurance, 1, 30),
        ("--shock", s.shock_ml, 0, 200),
        ("--hb", s.healing_base, 0, 30),
        ("--str-ml", s.strength_ml, 0, 200),
        ("--fatigue", s.fatigue, 0, 200),
    ] {
        if !(lo..=hi).contains(&v) {
            return Err(CommandError::user(format!(
                "{what} {v} is out of range ({lo}-{hi})"
            )));
        }
    }
    Ok(())
}

#[derive(Serialize)]
struct ListItem {
    #[serde(rename = "type")]
    ty: &'static str,
    schema_version: u32,
    id: String,
    name: String,
    shock_state: &'static str,
    dead: bool,
    injuries: usize,
    /// `party`, `foe` or `npc`.
    side: &'static str,
    /// Why the GM set them aside, if out of the story.
    #[serde(skip_serializing_if = "Option::is_none")]
    aside: Option<String>,
    /// GM-only: read on the GM's devices alone.
    gm_only: bool,
}

/// Runs a character command.
pub fn cmd_character(c: CharacterCommand, ctx: &mut Ctx) -> Result<(), CommandError> {
    match c {
        CharacterCommand::Add(a) => add(a, ctx),
        CharacterCommand::List(a) => list(a, ctx),
        CharacterCommand::Show(a) => super::show::cmd_show(a, ctx),
        CharacterCommand::Equip(a) => equip(a, ctx),
        CharacterCommand::Set(a) => set(a, ctx),
        CharacterCommand::Side(a) => super::standing::side(a, ctx),
        CharacterCommand::Aside(a) => super::standing::aside(a, ctx),
        CharacterCommand::Back(a) => super::standing::back(a, ctx),
        CharacterCommand::Hide(a) => super::standing::secret(a, ctx, true),
        CharacterCommand::Reveal(a) => super::standing::secret(a, ctx, false),
    }
}

/// `character add`: a new character of the campaign's system, from its sheet's options.
fn add(a: AddArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let name = a.name.clone();
    ctx.record_all(None, |ledger, _| {
        let system = ledger
            .campaign
            .as_ref()
            .map_or(SystemId::HarnMaster, |c| c.system);
        check_system(&a, system)?;
        // Names are told apart by neither case, in any script, nor the encoding of an
        // accent: `ærwyn` beside `Ærwyn` would answer to both.
        if let Some(like) = ledger.name_like(&name) {
            return Err(CommandError::user(format!(
                "there is already a character named '{like}': '{}' would answer to the same name (neither case nor the encoding of accents tells names apart)",
                name.trim()
            )));
        }
        let sheet = sheet_of(&a, system)?;
        let mut drafts = vec![Draft::of(Event::CharacterAdded { name, sheet }, None)];
        if a.gm_only {
            let secret = Event::Secret {
                character: leechbook_ledger::NEW_CHARACTER,
                secret: true,
            };
            drafts.push(Draft::of(secret, None));
        }
        Ok(drafts)
    })?;
    ctx.say(format!(
        "added {}{}",
        a.name.trim(),
        if a.gm_only { " (GM-only)" } else { "" }
    ));
    Ok(())
}

/// The sheet `character add`'s options give for a character of `system`.
fn sheet_of(a: &AddArgs, system: SystemId) -> Result<SheetKind, CommandError> {
    Ok(match system {
        SystemId::WitchIron => SheetKind::WitchIron(leechbook_core::witch::WiSheet {
            rb: a.rb.unwrap_or(0),
        }),
        SystemId::WrathGlory => {
            let need = |v: Option<i32>, flag: &str| {
                v.ok_or_else(|| CommandError::user(format!(
                    "a Wrath & Glory character needs {flag} (and --tier, --wg-toughness, --resilience, --max-shock)"
                )))
            };
            SheetKind::WrathGlory(leechbook_core::wrath::WgSheet {
                tier: need(a.tier, "--tier")?,
                toughness: need(a.wg_toughness, "--wg-toughness")?,
                resilience: need(a.resilience, "--resilience")?,
                max_shock: need(a.max_shock, "--max-shock")?,
                rank: a.rank.unwrap_or(1),
            })
        }
        SystemId::SavageWorlds => {
            let toughness = a
                .toughness
                .ok_or_else(|| CommandError::user("a Savage Worlds character needs --toughness"))?;
            SheetKind::SavageWorlds(leechbook_core::savage::SwSheet {
                toughness,
                wild_card: !a.extra,
                pace: a.pace.unwrap_or(6),
            })
        }
        SystemId::HarnMaster => {
            let need = |v: Option<i32>, flag: &str| {
                v.ok_or_else(|| {
                    CommandError::user(format!(
                        "a HârnMaster character needs {flag} (and --str, --end, --shock, --hb)"
                    ))
                })
            };
            let strength = need(a.strength, "--str")?;
            let sheet = Sheet {
                strength,
                endurance: need(a.endurance, "--end")?,
                shock_ml: need(a.shock_ml, "--shock")?,
                healing_base: need(a.healing_base, "--hb")?,
                strength_ml: a.strength_ml.unwrap_or(strength * 5),
                body: a.body.clone().unwrap_or_else(|| "human".into()),
                beast: a.beast,
                fatigue: a.fatigue.unwrap_or(0),
            };
            check_sheet(&sheet)?;
            SheetKind::HarnMaster(sheet)
        }
    })
}

/// One line of `character list`: a character of any system, summed up.
fn summary(c: &leechbook_core::fold::CharacterState) -> ListItem {
    use leechbook_core::fold::CharacterState as C;
    let (shock_state, injuries) = match c {
        C::HarnMaster(h) => (
            h.shock.code(),
            h.injuries.iter().filter(|i| !i.healed()).count(),
        ),
        C::WitchIron(w) => ("none", w.injuries.len()),
        C::WrathGlory(w) => (
            if w.dying { "dying" } else { "none" },
            w.wounds.max(0) as usize,
        ),
        C::SavageWorlds(s) => (
            if s.shaken { "shaken" } else { "none" },
            usize::from(s.wounds),
        ),
    };
    ListItem {
        ty: "character-summary",
        schema_version: views::JSON_SCHEMA,
        id: c.id().to_string(),
        name: c.name().to_string(),
        shock_state,
        dead: c.dead(),
        injuries,
        side: "party",
        aside: None,
        gm_only: false,
    }
}

/// `character list`.
fn list(a: ListArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let (_, ledger) = ctx.load_open()?;
    let items: Vec<ListItem> = ledger
        .characters
        .iter()
        .map(|c| {
            let standing = ledger.standing_of(c.id());
            ListItem {
                side: match standing.side {
                    leechbook_core::standing::Side::Party => "party",
                    leechbook_core::standing::Side::Foe => "foe",
                    leechbook_core::standing::Side::Npc => "npc",
                },
                aside: standing.aside,
                gm_only: ledger.is_secret(c.id()),
                ..summary(c)
            }
        })
        .collect();
    if a.json {
        return ctx.json(&items);
    }
    if items.is_empty() {
        ctx.say("no characters");
    }
    for i in items {
        let mut marks = Vec::new();
        if i.side != "party" {
            marks.push(i.side.to_string());
        }
        if let Some(why) = &i.aside {
            marks.push(format!("set aside ({why})"));
        }
        if i.gm_only {
            marks.push("GM-only".to_string());
        }
        ctx.say(format!(
            "{:<20} {:<5} {} injur{}{}{}",
            i.name,
            i.shock_state,
            i.injuries,
            if i.injuries == 1 { "y" } else { "ies" },
            if i.dead { "  DEAD" } else { "" },
            if marks.is_empty() {
                String::new()
            } else {
                format!("  [{}]", marks.join(", "))
            }
        ));
    }
    Ok(())
}

/// `character equip`: a HârnMaster character's weapons, armour and skills.
fn equip(a: EquipArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let name = a.name.clone();
    ctx.record(|ledger, _| {
        let ch = find(ledger, &a.name)?;
        Ok((
            Event::HarnMaster(HmEvent::Equipped {
                character: ch.id,
                gear: leechbook_core::harnmaster::arms::Gear {
                    weapons: a.weapons.clone(),
                    armour: a.armour.clone(),
                    skills: leechbook_core::harnmaster::arms::Skills {
                        melee: a.melee,
                        dodge: a.dodge,
                        archery: a.archery,
                        throwing: a.throwing,
                        slings: a.slings,
                        initiative: a.initiative,
                        riding: a.riding,
                        str_impact: a.str_impact,
                    },
                },
            }),
            None,
        ))
    })?;
    ctx.say(format!("equipped {name}"));
    Ok(())
}

/// `character set`: a HârnMaster character's sheet changed.
fn set(a: SetArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let name = a.name.clone();
    ctx.record(|ledger, _| {
        let ch = find(ledger, &a.name)?;
        let mut s = ch.sheet.clone();
        let old_str = s.strength;
        s.strength = a.strength.unwrap_or(s.strength);
        s.endurance = a.endurance.unwrap_or(s.endurance);
        s.shock_ml = a.shock_ml.unwrap_or(s.shock_ml);
        s.healing_base = a.healing_base.unwrap_or(s.healing_base);
        s.strength_ml = a.strength_ml.unwrap_or(if s.strength_ml == old_str * 5 {
            s.strength * 5
        } else {
            s.strength_ml
        });
        s.body = a.body.clone().unwrap_or(s.body);
        s.fatigue = a.fatigue.unwrap_or(s.fatigue);
        check_sheet(&s)?;
        Ok((
            Event::HarnMaster(HmEvent::SheetChanged {
                character: ch.id,
                sheet: s,
            }),
            None,
        ))
    })?;
    ctx.say(format!("changed {name}'s sheet"));
    Ok(())
}
