//! What a character owes, typed per rules system: the entries of the agenda (`due`, the
//! board, the players' page) as the compiler can match them, and what the typed path from
//! an owed entry to an event (`leechbook_ledger::owed`) takes.
//!
//! Each entry's [`Owed::kind`] is the name printed for it (and, for HârnMaster and Savage
//! Worlds, the KIND their roll commands take): the one place that name is spelled.

pub use leechbook_harnmaster::agenda::HmRoll;

/// A Savage Worlds roll a character owes (004 l.4-l.20, the Injury Table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwRoll {
    /// Spirit, to recover from Shaken at the start of the turn.
    SpiritRecovery,
    /// Vigor, on Incapacitation (then the Injury Table).
    Incapacitation,
    /// Vigor, at the start of each turn while Bleeding Out.
    BleedingOut,
}

/// A Witch Iron roll or Quarrel a character owes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WiRoll {
    /// The end-of-round d6 against Aflame + Bleed + Poison.
    EndOfRound,
    /// Three stacks of Corruption call a Quarrel (or Mutation).
    Corruption,
    /// Three stacks of Stress call a Quarrel (or Madness).
    Stress,
}

/// A Wrath & Glory condition that calls for the GM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WgRoll {
    /// Dying: any Wound is a Traumatic Injury until a Wound is recovered.
    Dying,
}

/// One roll or decision a character owes, typed by its system.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owed {
    /// HârnMaster.
    HarnMaster(HmRoll),
    /// Savage Worlds.
    SavageWorlds(SwRoll),
    /// Witch Iron.
    WitchIron(WiRoll),
    /// Wrath & Glory.
    WrathGlory(WgRoll),
}

impl Owed {
    /// The dice the table rolls for it, one name per die in the order they are given (a
    /// Savage Worlds trait roll: the trait die, then the wild die; Incapacitation adds the
    /// Injury Table's two d6 and its sub-table's d6); none for what the GM or a healer
    /// records: a treatment, a blood stoppage, a Morale roll at the GM's ML, a Quarrel, the
    /// aggravation roll (owed when a CF test or a move calls for it, which the GM rules) and
    /// Witch Iron's end-of-round d6 (whose Hardship Quarrel's Hits only the GM gives: rolled
    /// alone, a d6 that calls for one is refused and could be rolled again until it spares).
    pub fn dice(self) -> &'static [&'static str] {
        use leechbook_harnmaster::healing::SeqRollKind;
        match self {
            Owed::HarnMaster(HmRoll::Seq(SeqRollKind::Aggravation)) => &[],
            Owed::HarnMaster(HmRoll::ShockReroll | HmRoll::StunRecovery | HmRoll::Seq(_)) => {
                &["roll"]
            }
            Owed::SavageWorlds(SwRoll::Incapacitation) => {
                &["trait", "wild", "injury", "injury", "sub"]
            }
            Owed::SavageWorlds(_) => &["trait", "wild"],
            _ => &[],
        }
    }

    /// Whether the table records it alone, a roll with its dice (not the GM or a healer).
    pub fn rollable(self) -> bool {
        !self.dice().is_empty()
    }

    /// The name printed for it (`shock-reroll`, `healing`, `bleeding-out`, `end-of-round`,
    /// `dying` ...).
    pub fn kind(self) -> &'static str {
        match self {
            Owed::HarnMaster(r) => r.name(),
            Owed::SavageWorlds(SwRoll::SpiritRecovery) => "spirit-recovery",
            Owed::SavageWorlds(SwRoll::Incapacitation) => "incapacitation",
            Owed::SavageWorlds(SwRoll::BleedingOut) => "bleeding-out",
            Owed::WitchIron(WiRoll::EndOfRound) => "end-of-round",
            Owed::WitchIron(WiRoll::Corruption) => "corruption",
            Owed::WitchIron(WiRoll::Stress) => "stress",
            Owed::WrathGlory(WgRoll::Dying) => "dying",
        }
    }
}
