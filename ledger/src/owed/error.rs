//! Why an owed roll was not recorded ([`RollError`]): typed, naming no command.

use crate::lookup::Lookup;
use crate::LedgerError;
use leechbook_core::dice::DiceError;
use leechbook_core::owed::Owed;
use leechbook_core::time::CampaignTime;

/// Why an owed roll was not made into an event. No variant names a command or a flag: a
/// front end adds its own hint.
#[derive(Debug, thiserror::Error)]
pub enum RollError {
    /// A name or an id found nothing.
    #[error(transparent)]
    Lookup(#[from] Lookup),
    /// A face its die cannot show, or dice given that the roll did not take.
    #[error(transparent)]
    Dice(#[from] DiceError),
    /// The ledger refused the event (it does not apply to the state), or could not be read.
    #[error(transparent)]
    Ledger(#[from] LedgerError),
    /// Only the Healing Sequence's rolls are ever recorded before they are due.
    #[error(
        "only the Healing Sequence's rolls can be forced; shock and Morale rolls follow the state"
    )]
    ForcedOutOfSequence,
    /// A shock roll's EML is the sheet's: no ML or outcome is given for it.
    #[error("a shock roll's EML comes from the sheet")]
    ShockMlGiven,
    /// An automatic failure takes no dice, only the outcome the GM rules.
    #[error("{character}'s {what} is an automatic failure: it takes no dice, only its outcome")]
    Automatic {
        /// Who owes it.
        character: String,
        /// The roll ("Fumble roll" ...).
        what: &'static str,
    },
    /// No injury of the character owes a roll of the kind.
    #[error("{character} owes no {roll} roll")]
    OwesNone {
        /// Who.
        character: String,
        /// The roll's name.
        roll: &'static str,
    },
    /// A GM-only character heals one the table sees (its name and state would reach the
    /// players' devices).
    #[error("{0} is GM-only: the roll would show them to the players' devices (name an NPC healer the table may read, or reveal {0})")]
    HealerGmOnly(String),
    /// Several injuries owe one and none was named.
    #[error("several of {character}'s injuries owe a {roll} roll: name one ({})", .candidates.join(", "))]
    SeveralOwe {
        /// Who.
        character: String,
        /// The roll's name.
        roll: &'static str,
        /// The injuries that owe it, as a person names them.
        candidates: Vec<String>,
    },
    /// What is owed is a decision of the GM or a healer (a treatment, a blood stoppage, a
    /// Morale roll at the GM's ML, a Quarrel), not a roll the table makes alone.
    #[error("{character}'s {} is the GM's or a healer's to record", .owed.kind())]
    Decision {
        /// Who owes it.
        character: String,
        /// What is owed.
        owed: Owed,
    },
    /// Bleeding Out is rolled at the start of each turn, not before (004 l.20).
    #[error("{character}'s Bleeding Out roll is due at {due}, the start of the next turn (a round after the last); it is {now}")]
    NotYetDue {
        /// Who.
        character: String,
        /// When it falls due.
        due: CampaignTime,
        /// The campaign clock.
        now: CampaignTime,
    },
    /// A Spirit roll to recover from Shaken is made once, at the start of a turn.
    #[error("{character}'s Spirit roll to recover from Shaken is made once a turn: the next is due at {due}, a round after the last; it is {now}")]
    SpiritNotYetDue {
        /// Who.
        character: String,
        /// When it falls due.
        due: CampaignTime,
        /// The campaign clock.
        now: CampaignTime,
    },
    /// The trait's die was neither given nor recorded on the sheet.
    #[error("which die is {character}'s {attribute}? the sheet records none")]
    NoTraitDie {
        /// Who.
        character: String,
        /// The attribute ("Spirit", "Vigor").
        attribute: &'static str,
    },
    /// Not one of Savage Worlds' dice.
    #[error("'{0}' is not a Savage Worlds die (d4-d12)")]
    NotASavageDie(String),
    /// A Savage Worlds die given with the wrong number of dice.
    #[error("die '{name}' needs {wanted} dice, got {got}")]
    ChainCount {
        /// The die's name.
        name: String,
        /// How many the roll takes.
        wanted: usize,
        /// How many were given.
        got: usize,
    },
    /// A healer named as not in the campaign who is one of its characters.
    #[error("{0} is a character of the campaign, not one it does not hold")]
    NpcIsCharacter(String),
    /// A bleeder named as their own healer.
    #[error("{0} cannot stabilise themselves: it takes another's Healing roll (004 l.50)")]
    HealerIsBleeder(String),
    /// A healer who may take no action now.
    #[error("{healer} {why}, and a Healing roll to stabilise is an action (004 l.50)")]
    HealerCannotAct {
        /// The healer.
        healer: String,
        /// Why they may not act.
        why: &'static str,
    },
    /// Dice given that the rules did not read, and why.
    #[error("{0}")]
    Unread(String),
    /// A face chained as an ace on a die that does not ace (the Injury Table's d6s).
    #[error("die '{0}' does not ace: give one face for each of its dice")]
    NoAce(String),
    /// A die given with no face.
    #[error("die '{0}' was given no face")]
    NoFace(String),
    /// The faces given do not match the dice the owed roll takes.
    #[error("{character}'s {roll} takes {} face(s) ({}), got {got}: give them all, or none to have them rolled", .dice.len(), .dice.join(", "))]
    Faces {
        /// Who.
        character: String,
        /// The roll's name.
        roll: &'static str,
        /// The dice it takes, in order.
        dice: Vec<&'static str>,
        /// How many faces were given.
        got: usize,
    },
}
