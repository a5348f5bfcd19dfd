//! The CLI's one error type: every library error becomes a [`CommandError`] whose kind sets
//! the exit code and whose message is one line naming what was wrong, with the hints the
//! CLI adds (a command or a flag to try). Libraries' errors name no command and no flag:
//! the hints are written here, from the error's type.

use leechbook_core::fold::FoldError;
use leechbook_core::harnmaster::exchange::ExchangeError;
use leechbook_core::harnmaster::injury::StrikeError;
use leechbook_core::harnmaster::shock::RollError;
use leechbook_core::harnmaster::system::HmError;
use leechbook_core::wrath::{WgApplyError, WgError};
use leechbook_store::StoreError;
use std::fmt;

/// A word as a hint writes it into a command line: quoted when it holds a space or a quote,
/// so that the hinted command runs as printed ("Old Tom").
pub fn shell_word(s: &str) -> String {
    if s.chars()
        .any(|c| c.is_whitespace() || c == '\'' || c == '"')
    {
        format!("'{}'", s.replace('\'', "'\\''"))
    } else {
        s.to_string()
    }
}

/// What kind of failure, which sets the exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// Bad input or a refused request (exit 1).
    User,
    /// Command-line usage (exit 2, as clap).
    Usage,
    /// A bug or an environment failure (exit 3).
    Internal,
}

impl ErrorKind {
    /// Returns the process exit code.
    pub fn exit_code(self) -> i32 {
        match self {
            ErrorKind::User => 1,
            ErrorKind::Usage => 2,
            ErrorKind::Internal => 3,
        }
    }
}

/// What a command error came from: the library's typed error, kept whole.
pub type Source = Box<dyn std::error::Error + Send + Sync + 'static>;

/// A failed command: its kind, a one-line message and what to try (hints), and the library
/// error it came from ([`std::error::Error::source`]), kept for the chain an internal error
/// prints and for programs that drive the CLI in-process.
#[derive(Debug)]
pub struct CommandError {
    /// The kind.
    pub kind: ErrorKind,
    /// The message (one line).
    pub message: String,
    /// What the user might do, each a short phrase naming a command or a flag; printed
    /// after the message, on the same line, in parentheses.
    pub hints: Vec<String>,
    /// The library error this one came from, if one.
    pub source: Option<Source>,
}

impl CommandError {
    /// A user error.
    pub fn user(message: impl Into<String>) -> CommandError {
        CommandError {
            kind: ErrorKind::User,
            message: message.into(),
            hints: Vec::new(),
            source: None,
        }
    }

    /// An internal error.
    pub fn internal(message: impl Into<String>) -> CommandError {
        CommandError {
            kind: ErrorKind::Internal,
            message: message.into(),
            hints: Vec::new(),
            source: None,
        }
    }

    /// The same error with one more hint.
    pub fn hint(mut self, hint: impl Into<String>) -> CommandError {
        self.hints.push(hint.into());
        self
    }

    /// The same error, kept with the library error it came from (unless it keeps one).
    pub fn from_source(mut self, e: impl std::error::Error + Send + Sync + 'static) -> Self {
        if self.source.is_none() {
            self.source = Some(Box::new(e));
        }
        self
    }

    /// The causes below the message, each once and none the message already says: what an
    /// internal error prints after its line.
    pub fn causes(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut next: Option<&(dyn std::error::Error + 'static)> = self
            .source
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static));
        while let Some(e) = next {
            let text = e.to_string();
            if !self.message.contains(&text) && !out.iter().any(|o| o.contains(&text)) {
                out.push(text);
            }
            next = e.source();
        }
        out
    }
}

impl std::error::Error for CommandError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // One line, always.
        f.write_str(&self.message.replace('\n', " "))?;
        if !self.hints.is_empty() {
            write!(f, " ({})", self.hints.join("; ").replace('\n', " "))?;
        }
        Ok(())
    }
}

impl From<StoreError> for CommandError {
    fn from(e: StoreError) -> CommandError {
        if let StoreError::NotFound(_) = e {
            return CommandError::user(e.to_string())
                .hint("create one with `leechbook init`")
                .from_source(e);
        }
        let kind = match e {
            StoreError::NotFound(_)
            | StoreError::NotALedger { .. }
            | StoreError::TooNew { .. }
            | StoreError::AlreadyExists(_)
            | StoreError::ForeignEvent { .. }
            | StoreError::SeqClash { .. }
            | StoreError::CannotOpen { .. }
            | StoreError::ReadOnly(_)
            | StoreError::FileSystem(_) => ErrorKind::User,
            StoreError::Decode { .. } | StoreError::Database(_) | StoreError::Column(_) => {
                ErrorKind::Internal
            }
        };
        CommandError {
            kind,
            message: e.to_string(),
            hints: Vec::new(),
            source: None,
        }
        .from_source(e)
    }
}

impl From<FoldError> for CommandError {
    fn from(e: FoldError) -> CommandError {
        match e {
            FoldError::HarnMaster(h) => h.into(),
            FoldError::WrathGlory(WgApplyError::Rules(WgError::TooSoon { more, .. })) => {
                let more = leechbook_core::time::format_duration(more).replace(' ', "");
                CommandError::user(e.to_string())
                    .hint(format!("move the clock first: `leechbook advance {more}`"))
                    .from_source(e)
            }
            FoldError::WitchIron(leechbook_core::witch::WiError::TableNotLoaded { .. }) => {
                CommandError::user(e.to_string())
                    .hint("leechbook wi table FILE")
                    .from_source(e)
            }
            e => CommandError::user(e.to_string()).from_source(e),
        }
    }
}

/// HârnMaster's refusals, with the flag or command that answers each.
impl From<HmError> for CommandError {
    fn from(e: HmError) -> CommandError {
        let hint = match &e {
            HmError::UnknownTable(_) => Some("define it with `leechbook table load FILE`".into()),
            HmError::Strike(s) => return s.clone().into(),
            HmError::Roll(RollError::NeedsMl { .. }) => Some("--ml".to_string()),
            HmError::Exchange(ExchangeError::StruckUnnamed) => Some("--struck NAME".into()),
            _ => None,
        };
        let error = CommandError::user(e.to_string());
        match hint {
            Some(h) => error.hint(h),
            None => error,
        }
        .from_source(e)
    }
}

/// A strike's refusals, with the flag that answers each.
impl From<StrikeError> for CommandError {
    fn from(e: StrikeError) -> CommandError {
        let hint = match &e {
            StrikeError::BadPick { what, count, .. } => Some(format!("--pick-{what} 1 to {count}")),
            StrikeError::SideNeeded(_) => Some("--side left or --side right".into()),
            _ => None,
        };
        let error = CommandError::user(e.to_string());
        match hint {
            Some(h) => error.hint(h),
            None => error,
        }
        .from_source(e)
    }
}

impl From<leechbook_ledger::LedgerError> for CommandError {
    fn from(e: leechbook_ledger::LedgerError) -> CommandError {
        use leechbook_ledger::LedgerError as L;
        match e {
            L::Store(s) => s.into(),
            L::Fold(f) => f.into(),
            L::NotAMoment(ref m) => CommandError::user(format!(
                "'{m}' is not a moment: give an event id, a campaign time ('day 3 08:00') or a wall time (2026-11-22T10:00:00Z)"
            ))
            .from_source(e),
            L::Internal(ref m) => CommandError::internal(m.clone()).from_source(e),
            L::NotAnEventId(_) => CommandError::user(e.to_string())
                .hint("give the number `log` prints, as #12, or six or more hex digits of the id")
                .from_source(e),
            L::AmbiguousEvent(_) => CommandError::user(e.to_string())
                .hint("`log --json` prints them whole")
                .from_source(e),
            other => CommandError::user(other.to_string()).from_source(other),
        }
    }
}

impl From<leechbook_sync::SyncError> for CommandError {
    fn from(e: leechbook_sync::SyncError) -> CommandError {
        if let leechbook_sync::SyncError::Store(s) = e {
            return s.into();
        }
        let words = e.to_string();
        match e {
            leechbook_sync::SyncError::MissingChanges => CommandError::user(e.to_string())
                .hint("`leechbook sync export FILE` without --to, on the other device"),
            leechbook_sync::SyncError::NoKey => CommandError::user(e.to_string()).hint(
                "`leechbook sync invite` on a GM's device, then `leechbook sync key CODE` here",
            ),
            leechbook_sync::SyncError::NotAJoinCode(prefix) => CommandError::user(e.to_string())
                .hint(format!(
                    "the GM's `leechbook sync invite` prints one; it starts with {prefix}"
                )),
            leechbook_sync::SyncError::CodeTypo => CommandError::user(e.to_string())
                .hint("copy it again from what the GM's `leechbook sync invite` printed"),
            leechbook_sync::SyncError::KeysUnreadable => CommandError::user(e.to_string())
                .hint("take them again with `leechbook sync key CODE` from the GM's `sync invite`"),
            _ => CommandError::user(words),
        }
        .from_source(e)
    }
}

/// A face that does not fit its die, a die given and not needed, a face not given when
/// asked: the user's to correct.
impl From<leechbook_core::dice::DiceError> for CommandError {
    fn from(e: leechbook_core::dice::DiceError) -> CommandError {
        CommandError::user(e.to_string()).from_source(e)
    }
}

impl From<std::io::Error> for CommandError {
    fn from(e: std::io::Error) -> CommandError {
        CommandError::internal(format!("i/o error: {e}")).from_source(e)
    }
}

impl From<serde_json::Error> for CommandError {
    fn from(e: serde_json::Error) -> CommandError {
        CommandError::internal(format!("JSON error: {e}")).from_source(e)
    }
}

/// A name or an id that found nothing, in the words the commands have always used, with
/// the command that answers each.
impl From<leechbook_ledger::lookup::Lookup> for CommandError {
    fn from(e: leechbook_ledger::lookup::Lookup) -> CommandError {
        use leechbook_core::SystemId;
        use leechbook_ledger::lookup::Lookup as L;
        match &e {
            L::NoCharacter { known, .. } if known.is_empty() => {
                CommandError::user(format!("{e} (character add)"))
            }
            L::NotLoaded(name) => {
                CommandError::internal(format!("{name} was not loaded for this command"))
            }
            L::OtherSystem {
                wanted: SystemId::HarnMaster,
                ..
            } => CommandError::user(format!("{e}: this is a HârnMaster command")),
            L::NoInjury { character, .. } => {
                CommandError::user(format!("{e} (see `leechbook show {character}`)"))
            }
            _ => CommandError::user(e.to_string()),
        }
        .from_source(e)
    }
}

/// An owed roll's refusals, with the flag or command that answers each.
impl From<leechbook_ledger::owed::RollError> for CommandError {
    fn from(e: leechbook_ledger::owed::RollError) -> CommandError {
        use leechbook_ledger::owed::RollError as R;
        let words = e.to_string();
        let error = match e {
            R::Lookup(l) => return l.into(),
            R::Dice(d) => return d.into(),
            R::Ledger(l) => return l.into(),
            R::ForcedOutOfSequence => CommandError::user(
                "--force is for the Healing Sequence's rolls; shock and Morale rolls follow the state",
            ),
            R::ShockMlGiven => CommandError::user(
                "a shock roll's EML comes from the sheet: give no --ml or --outcome",
            ),
            R::Automatic { ref character, what } => CommandError::user(format!(
                "{character}'s {what} is an automatic failure: give no dice, only --outcome"
            )),
            R::NotYetDue { .. } | R::SpiritNotYetDue { .. } => {
                CommandError::user(format!("{words}: move the clock first (leechbook advance 1r)"))
            }
            R::NoTraitDie {
                ref character,
                attribute,
            } => CommandError::user(format!(
                "which die is {character}'s {attribute}? give it (--trait d8), or record the sheet's dice once (leechbook sw attributes {} --{} d8)",
                shell_word(character),
                attribute.to_ascii_lowercase()
            )),
            R::NpcIsCharacter(ref name) => CommandError::user(format!(
                "{name} is a character of the campaign: give no --npc"
            )),
            _ => CommandError::user(words),
        };
        error.from_source(e)
    }
}

impl From<leechbook_story::StoryError> for CommandError {
    fn from(e: leechbook_story::StoryError) -> CommandError {
        match e {
            leechbook_story::StoryError::Lookup(l) => l.into(),
            leechbook_story::StoryError::Ledger(l) => l.into(),
            leechbook_story::StoryError::Store(s) => s.into(),
            e @ leechbook_story::StoryError::NoSuchMark { .. } => {
                CommandError::user(e.to_string()).from_source(e)
            }
        }
    }
}

/// A ruling's refusals, in the words the commands have always used (naming the flag that
/// answers each).
impl From<leechbook_ledger::rulings::RulingError> for CommandError {
    fn from(e: leechbook_ledger::rulings::RulingError) -> CommandError {
        use leechbook_ledger::rulings::RulingError as R;
        let error = match &e {
            R::Ledger(_) => {
                let R::Ledger(l) = e else { unreachable!() };
                return l.into();
            }
            R::UnknownDie { name, known, .. } => CommandError::user(format!(
                "--dice: unknown die '{name}' (this command's dice: {})",
                known.join(", ")
            )),
            R::OneFace { kind, name } => CommandError::user(format!(
                "the {kind} records one roll: give one face (--dice {name}=N)"
            )),
            R::NoOutcome(kind) => CommandError::user(format!(
                "the {kind} takes no --outcome: only a roll the GM resolves (Morale, Fumble, Stumble) records one"
            )),
            R::Nothing(kind) => CommandError::user(format!(
                "nothing to amend in the {kind}: name what changes (--dice, --set, --av, ...)"
            ))
            .hint("`amend EVENT --list` names what the event records"),
            R::NothingToUndo => CommandError::user(
                "this device has recorded nothing that stands to undo (the campaign's creation and the roster are not undone: `device revoke` takes a device off)",
            ),
            _ => CommandError::user(e.to_string()),
        };
        error.from_source(e)
    }
}

/// A roster change's refusals, with the command that answers each.
impl From<leechbook_ledger::roster::RosterError> for CommandError {
    fn from(e: leechbook_ledger::roster::RosterError) -> CommandError {
        use leechbook_ledger::roster::RosterError as R;
        let error = match &e {
            R::GmOnly { name, .. } => CommandError::user(format!(
                "{e} (`leechbook character reveal {}` first)",
                crate::commands::shell_word(name)
            )),
            R::LastGm(_) => CommandError::user(format!(
                "{e} (roster another GM first: leechbook device add DEVICE KEY --role gm)"
            )),
            R::PlayersClock(_) => CommandError::user(e.to_string()),
        };
        error.from_source(e)
    }
}

/// The hints for lines a library reported (an import's refusals and gaps, `verify`'s
/// problems): each once, naming the command that answers it.
pub fn hints_for<'a>(lines: impl IntoIterator<Item = &'a String>) -> Vec<&'static str> {
    let mut out = Vec::new();
    for l in lines {
        let hint = if l.contains(leechbook_sync::COPIED_LEDGER) {
            "on the copy, `leechbook device reset --yes`; then a GM's device rosters its new identity (`leechbook device add DEVICE KEY`)"
        } else if l.contains(leechbook_store::codec::NOT_ROSTERED) {
            "a GM's device rosters a device with `leechbook device add DEVICE KEY`"
        } else if l.contains(leechbook_sync::WRONG_KEY) {
            "take the campaign's keys again from the GM's `leechbook sync invite`: `leechbook sync key CODE`"
        } else {
            continue;
        };
        if !out.contains(&hint) {
            out.push(hint);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error;

    /// A library error keeps its type under the CLI's words and hints: a program driving the
    /// CLI in-process can still match on it.
    #[test]
    fn an_error_keeps_its_source() {
        let e = CommandError::from(leechbook_ledger::LedgerError::NotAnEventId("zz".into()));
        assert_eq!(e.kind, ErrorKind::User);
        assert!(e.to_string().contains("'zz' is not an event id ("), "{e}");
        let source = e.source().expect("the ledger's error is kept");
        assert!(matches!(
            source.downcast_ref::<leechbook_ledger::LedgerError>(),
            Some(leechbook_ledger::LedgerError::NotAnEventId(_))
        ));
        // Through a conversion that goes a level down (a story's lookup), the error that
        // says what was wrong is the one kept.
        let e = CommandError::from(leechbook_story::StoryError::Lookup(
            leechbook_ledger::lookup::Lookup::NotLoaded("Osric".into()),
        ));
        assert_eq!(e.kind, ErrorKind::Internal);
        assert!(e
            .source()
            .and_then(|s| s.downcast_ref::<leechbook_ledger::lookup::Lookup>())
            .is_some());
    }

    /// An internal error's causes below its line: each once, none its line already says.
    #[test]
    fn an_internal_error_tells_its_causes_once() {
        let io = std::io::Error::other("disk on fire");
        let e = CommandError::internal("the ledger could not be read").from_source(io);
        assert_eq!(e.causes(), vec!["disk on fire".to_string()]);
        let said = CommandError::from(std::io::Error::other("disk on fire"));
        assert!(said.causes().is_empty(), "its line says it already");
    }
}
