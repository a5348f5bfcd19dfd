//! [`rules_systems!`](crate::rules_systems): the list of rules systems a ledger knows, written
//! once. From one entry per system it makes every type the fold and the store speak in, and
//! the list's dispatch to each system:
//!
//! - `SystemId` (which system a campaign plays, with its name and `ALL`), `SheetKind`,
//!   `Event` (the kernel's kinds and every system's events), `CharacterState`, `Settings`
//!   (a field per system), `SystemOutcome`, `Applied` and `FoldError`;
//! - the list itself, a [`Systems`](leechbook_kernel::system::Systems) with a
//!   [`Hosts`](leechbook_kernel::system::Hosts) impl per system.
//!
//! An entry is `Variant(path::to::System), settings_field;`: the system's
//! [`RulesSystem`](leechbook_kernel::system::RulesSystem) impl gives everything else (its
//! name, kinds, sheet, character, settings, outcome, refusal, decree). Leechbook's list is
//! in `systems.rs`; a test lists a fifth, toy system by adding one entry
//! (`tests/tests/fifth_system.rs`).
//!
//! **Frozen format.** The store encodes `SystemId`, `SheetKind`, `Event`, `CharacterState`
//! and `Settings` by position. Entries are appended, never reordered. `Event` was shipped
//! with its kernel kinds and the first four systems interleaved (the campaign, a character,
//! the clock, the first system, a ruling, the next three systems, a roster change); the
//! macro keeps that order for the first four entries, then a character's standing (issue
//! 41), and appends every later system after it. A system without settings keeps `()`, which encodes as nothing, so a
//! field per system leaves the stored `Settings` as it was.
//!
//! The invoking crate depends on `serde` (the enums derive its traits).

/// Writes the list of rules systems once: see [the module](crate::list). Takes the list's
/// name, its decree type (what a ruling's override carries) with the words for it, and one
/// entry per system, at least four (the shipped order of `Event`).
#[macro_export]
macro_rules! rules_systems {
    (
        $(#[$lm:meta])* list $list:ident;
        decree $decree:ty, $decrees:literal;
        $(#[$m1:meta])* $v1:ident($s1:ty), $f1:ident;
        $(#[$m2:meta])* $v2:ident($s2:ty), $f2:ident;
        $(#[$m3:meta])* $v3:ident($s3:ty), $f3:ident;
        $(#[$m4:meta])* $v4:ident($s4:ty), $f4:ident;
        $( $(#[$mr:meta])* $vr:ident($sr:ty), $fr:ident; )*
    ) => {
        /// One thing that happened at the table: the kernel's kinds and every system's
        /// events. **Frozen format:** encoded by variant position (see `rules_systems!`).
        #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        pub enum Event {
            /// The campaign began. The first event of every ledger; cannot be undone.
            CampaignCreated {
                /// The campaign's name.
                name: String,
                /// Its rules system.
                system: SystemId,
                /// The length of a combat round in seconds of campaign time.
                round_seconds: i64,
            },
            /// A character joined; their id is this event's id. Undone by retracting it.
            CharacterAdded {
                /// The character's name, unique in the campaign (case-insensitively).
                name: String,
                /// The sheet.
                sheet: SheetKind,
            },
            /// The campaign clock moved forward to `to`. Undone by retracting it.
            ClockAdvanced {
                /// The new campaign time.
                to: $crate::__kernel::time::CampaignTime,
            },
            $(#[$m1])*
            $v1(<$s1 as $crate::__kernel::system::RulesSystem>::Event),
            /// A GM's ruling about the record (retract, reinstate, amend, override). Undone
            /// by another ruling.
            Ruling(Ruling),
            $(#[$m2])*
            $v2(<$s2 as $crate::__kernel::system::RulesSystem>::Event),
            $(#[$m3])*
            $v3(<$s3 as $crate::__kernel::system::RulesSystem>::Event),
            $(#[$m4])*
            $v4(<$s4 as $crate::__kernel::system::RulesSystem>::Event),
            /// A roster change, the GM's: a device joins or is revoked.
            Roster($crate::__kernel::roster::RosterChange),
            /// Where a character stands in the story, from now (their side; set aside or
            /// back). Undone by another, or by retracting it. (Added after the four systems
            /// and the roster: later systems are appended after it.)
            Standing {
                /// Who.
                character: $crate::__kernel::ids::CharacterId,
                /// Where they stand.
                standing: $crate::__kernel::standing::Standing,
            },
            /// A character is GM-only from now (`secret`), read on the GM's devices alone, or
            /// revealed to the table. The GM's; undone by another, or by retracting it.
            /// (Added after `Standing`: later systems are appended after it.)
            Secret {
                /// Who.
                character: $crate::__kernel::ids::CharacterId,
                /// GM-only (true) or revealed (false).
                secret: bool,
            },
            $( $(#[$mr])* $vr(<$sr as $crate::__kernel::system::RulesSystem>::Event), )*
        }

        $crate::rules_systems!(@list
            $(#[$lm])* list $list;
            decree $decree, $decrees;
            $(#[$m1])* $v1($s1), $f1;
            $(#[$m2])* $v2($s2), $f2;
            $(#[$m3])* $v3($s3), $f3;
            $(#[$m4])* $v4($s4), $f4;
            $( $(#[$mr])* $vr($sr), $fr; )*
        );
    };

    (@list
        $(#[$lm:meta])* list $list:ident;
        decree $decree:ty, $decrees:literal;
        $( $(#[$m:meta])* $v:ident($s:ty), $f:ident; )+
    ) => {
        /// A rules system a campaign plays.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        pub enum SystemId {
            $( $(#[$m])* $v, )+
        }

        impl SystemId {
            /// The systems this list knows, in its order: the one list the CLI's `--system`
            /// takes.
            pub const ALL: [SystemId; [$(stringify!($v)),+].len()] = [$(SystemId::$v),+];

            /// The system's name as the CLI takes it.
            pub fn name(self) -> &'static str {
                match self {
                    $( SystemId::$v => <$s as $crate::__kernel::system::RulesSystem>::NAME, )+
                }
            }

            /// The system named `name` (as [`SystemId::name`] gives it), if the list has it.
            pub fn from_name(name: &str) -> Option<SystemId> {
                SystemId::ALL.into_iter().find(|s| s.name() == name)
            }

            /// Leechbook's readings of the system's text, where it is silent or ambiguous:
            /// each a title and its Markdown (the same text as its module's documentation).
            pub fn readings(self) -> Vec<(&'static str, &'static str)> {
                match self {
                    $( SystemId::$v => <$s as $crate::__kernel::system::RulesSystem>::readings(), )+
                }
            }

            /// The kinds of event that reach a character besides the one they are about
            /// (every system's): a view of some characters reads every event of these kinds
            /// to see whom it reaches.
            pub fn reaching_kinds() -> impl Iterator<Item = &'static str> {
                [$( <$s as $crate::__kernel::system::RulesSystem>::REACHING ),+]
                    .into_iter()
                    .flatten()
                    .copied()
            }
        }

        /// A character sheet, per system.
        #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        pub enum SheetKind {
            $(
                #[doc = concat!("A ", stringify!($v), " sheet.")]
                $v(<$s as $crate::__kernel::system::RulesSystem>::Sheet),
            )+
        }

        impl SheetKind {
            /// The system the sheet belongs to.
            pub fn system(&self) -> SystemId {
                match self {
                    $( SheetKind::$v(_) => SystemId::$v, )+
                }
            }
        }

        /// A GM's ruling about the record: the kernel's ruling whose amendment holds an
        /// [`Event`] and whose override decrees the list's decree.
        pub type Ruling = $crate::__kernel::ruling::Ruling<Event, $decree>;

        impl Event {
            /// The rules system an event belongs to, if it belongs to one.
            pub fn system(&self) -> Option<SystemId> {
                match self {
                    $( Event::$v(_) => Some(SystemId::$v), )+
                    Event::CharacterAdded { sheet, .. } => Some(sheet.system()),
                    _ => None,
                }
            }

            /// Returns the kind, as stored in the log's `kind` column and shown by `log`.
            pub fn kind(&self) -> &'static str {
                use $crate::__kernel::roster::RosterChange;
                use $crate::__kernel::ruling::Ruling as R;
                match self {
                    Event::CampaignCreated { .. } => "campaign-created",
                    Event::CharacterAdded { .. } => "character-added",
                    Event::ClockAdvanced { .. } => "clock-advanced",
                    Event::Roster(RosterChange::Device { .. }) => "roster.device",
                    Event::Roster(RosterChange::Revoke { .. } | RosterChange::RevokeAfter { .. }) => {
                        "roster.revoke"
                    }
                    Event::Roster(RosterChange::Places { .. }) => "roster.places",
                    Event::Standing { .. } => "character-standing",
                    Event::Secret { .. } => "character-secret",
                    Event::Ruling(r) => match r {
                        R::Retract { .. } => "ruling.retract",
                        R::Reinstate { .. } => "ruling.reinstate",
                        R::Amend { .. } => "ruling.amend",
                        R::Override { .. } => "ruling.override",
                    },
                    $( Event::$v(e) => <$s as $crate::__kernel::system::RulesSystem>::kind(e), )+
                }
            }

            /// The characters a system's event touches, the one it is about first.
            pub fn touched(&self) -> $crate::__kernel::system::Touched {
                match self {
                    $( Event::$v(e) => <$s as $crate::__kernel::system::RulesSystem>::touches(e), )+
                    Event::Ruling($crate::__kernel::ruling::Ruling::Override { character, .. }) => {
                        $crate::__kernel::system::Touched::one(*character)
                    }
                    Event::Standing { character, .. } | Event::Secret { character, .. } => {
                        $crate::__kernel::system::Touched::one(*character)
                    }
                    _ => $crate::__kernel::system::Touched::none(),
                }
            }

            /// Returns the character the event is about, if one.
            pub fn character(&self) -> Option<$crate::__kernel::ids::CharacterId> {
                self.touched().as_slice().first().copied()
            }

            /// Every character the event touches: the one it is about, and the others an
            /// exchange, a shot or a Quarrel reaches (what a ledger must hold to apply it).
            pub fn characters(&self) -> Vec<$crate::__kernel::ids::CharacterId> {
                let mut out = self.touched().as_slice().to_vec();
                out.sort();
                out.dedup();
                out
            }

            /// Whether the event touches the character `id` ([`Event::characters`] without
            /// a list: a replay asks it of every event).
            pub fn touches(&self, id: $crate::__kernel::ids::CharacterId) -> bool {
                self.touched().as_slice().contains(&id)
            }

            /// What a GM's amendment may correct in the event: its dice and inputs by name
            /// (none for an event outside every system, which takes no amendment).
            pub fn amendable(&mut self) -> Option<&mut dyn $crate::__kernel::amend::Amendable> {
                match self {
                    $( Event::$v(e) => <$s as $crate::__kernel::system::RulesSystem>::amendable(e), )+
                    _ => None,
                }
            }

            /// Checks the faces the event records (an amendment: its replacement's).
            pub fn check_faces(&self) -> Result<(), $crate::__kernel::dice::DiceError> {
                match self {
                    $( Event::$v(e) => <$s as $crate::__kernel::system::RulesSystem>::check_faces(e), )+
                    Event::Ruling($crate::__kernel::ruling::Ruling::Amend { replacement, .. }) => {
                        replacement.check_faces()
                    }
                    _ => Ok(()),
                }
            }
        }

        impl $crate::__kernel::envelope::LedgerEvent for Event {
            type Decree = $decree;

            fn kind(&self) -> &'static str {
                Event::kind(self)
            }

            fn creates_campaign(&self) -> bool {
                matches!(self, Event::CampaignCreated { .. })
            }

            fn roster_change(&self) -> Option<&$crate::__kernel::roster::RosterChange> {
                match self {
                    Event::Roster(change) => Some(change),
                    _ => None,
                }
            }

            fn ruling(&self) -> Option<&Ruling> {
                match self {
                    Event::Ruling(r) => Some(r),
                    _ => None,
                }
            }

            fn gm_only(&self) -> bool {
                matches!(self, Event::Ruling(_) | Event::Standing { .. } | Event::Secret { .. })
            }

            fn touched(&self) -> $crate::__kernel::system::Touched {
                Event::touched(self)
            }

            fn character(&self) -> Option<$crate::__kernel::ids::CharacterId> {
                Event::character(self)
            }
        }

        /// A character, per system.
        // A campaign holds one system's characters only, so the variants' sizes never mix
        // in one Vec; boxing the larger would only add an indirection to the fold's hot path.
        #[allow(clippy::large_enum_variant)]
        #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        pub enum CharacterState {
            $(
                #[doc = concat!("A ", stringify!($v), " character.")]
                $v(<$s as $crate::__kernel::system::RulesSystem>::Character),
            )+
        }

        impl CharacterState {
            /// Returns the character's id.
            pub fn id(&self) -> $crate::__kernel::ids::CharacterId {
                match self {
                    $( CharacterState::$v(c) => $crate::__kernel::system::Character::id(c), )+
                }
            }

            /// Returns the character's name.
            pub fn name(&self) -> &str {
                match self {
                    $( CharacterState::$v(c) => $crate::__kernel::system::Character::name(c), )+
                }
            }

            /// The sheet the character was added with (as changed since).
            pub fn sheet(&self) -> SheetKind {
                match self {
                    $( CharacterState::$v(c) => {
                        SheetKind::$v(<$s as $crate::__kernel::system::RulesSystem>::sheet(c))
                    } )+
                }
            }

            /// Returns true if the character is dead.
            pub fn dead(&self) -> bool {
                match self {
                    $( CharacterState::$v(c) => <$s as $crate::__kernel::system::RulesSystem>::dead(c), )+
                }
            }
        }

        impl $crate::__kernel::system::Character for CharacterState {
            fn id(&self) -> $crate::__kernel::ids::CharacterId {
                CharacterState::id(self)
            }

            fn name(&self) -> &str {
                CharacterState::name(self)
            }
        }

        /// Every system's campaign-wide settings (tables, options, arms), a field per system
        /// (`()` for one that keeps none). A campaign plays one system, so only its own ever
        /// changes.
        #[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        pub struct Settings {
            $(
                #[doc = concat!(stringify!($v), "'s settings.")]
                pub $f: <$s as $crate::__kernel::system::RulesSystem>::Settings,
            )+
        }

        /// What an event of one system did: the system's own typed outcome (the CLI words
        /// it).
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum SystemOutcome {
            $(
                #[doc = concat!("What a ", stringify!($v), " event did.")]
                $v(<$s as $crate::__kernel::system::RulesSystem>::Applied),
            )+
        }

        impl SystemOutcome {
            /// The d100 tests the event made.
            pub fn tests(&self) -> Vec<$crate::__kernel::test_roll::TestResult> {
                match self {
                    $( SystemOutcome::$v(a) => <$s as $crate::__kernel::system::RulesSystem>::tests(a), )+
                }
            }
        }

        /// What applying an event did, for narration.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum Applied {
            /// The campaign began.
            CampaignCreated,
            /// A character joined.
            CharacterAdded($crate::__kernel::ids::CharacterId),
            /// The clock moved.
            ClockAdvanced {
                /// From.
                from: $crate::__kernel::time::CampaignTime,
                /// To.
                to: $crate::__kernel::time::CampaignTime,
            },
            /// A roster change, in a few words.
            Setting(String),
            /// A ruling was recorded (retractions and amendments act through the rulings
            /// in force: `Ledger::derive`).
            Ruling(String),
            /// An event of one rules system.
            System {
                /// Whom it is about (the nil id for a change of the system's settings).
                character: $crate::__kernel::ids::CharacterId,
                /// What the system's rules found.
                outcome: SystemOutcome,
            },
        }

        impl Applied {
            /// The d100 tests the event made (none for an event no system's rules
            /// resolved).
            pub fn tests(&self) -> Vec<$crate::__kernel::test_roll::TestResult> {
                match self {
                    Applied::System { outcome, .. } => outcome.tests(),
                    _ => Vec::new(),
                }
            }
        }

        impl From<$crate::__kernel::system::Settled> for Applied {
            fn from(s: $crate::__kernel::system::Settled) -> Applied {
                use $crate::__kernel::system::Settled;
                match s {
                    Settled::CampaignCreated => Applied::CampaignCreated,
                    Settled::CharacterAdded(id) => Applied::CharacterAdded(id),
                    Settled::ClockAdvanced { from, to } => Applied::ClockAdvanced { from, to },
                    Settled::Setting(what) => Applied::Setting(what),
                    Settled::Ruling(what) => Applied::Ruling(what),
                }
            }
        }

        /// Why an event is void.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum FoldError {
            /// An event before the campaign began.
            NoCampaign,
            /// A second `CampaignCreated`.
            CampaignExists,
            /// An event of another campaign.
            ForeignCampaign($crate::__kernel::ids::CampaignId),
            /// A character id the ledger does not know.
            UnknownCharacter($crate::__kernel::ids::CharacterId),
            /// A character name already taken.
            NameTaken(String),
            /// An empty or unusable name.
            BadName(String),
            /// A sheet or event of another system.
            WrongSystem {
                /// The campaign's system.
                campaign: &'static str,
                /// The event's.
                event: &'static str,
            },
            /// The roster does not allow the event.
            Setting(String),
            /// A rules system refused the event (its own words).
            System {
                /// The system.
                system: &'static str,
                /// Why.
                message: String,
            },
            /// The clock would go backwards.
            ClockBackwards {
                /// The clock now.
                now: $crate::__kernel::time::CampaignTime,
                /// The time asked for.
                to: $crate::__kernel::time::CampaignTime,
            },
            /// A player's event dated beyond the campaign clock (only the GM moves it).
            BeyondClock {
                /// The clock where the event stands.
                now: $crate::__kernel::time::CampaignTime,
                /// The time it claims.
                at: $crate::__kernel::time::CampaignTime,
            },
            /// An envelope whose clock, number or times no device writes.
            OutOfBounds($crate::__kernel::envelope::OutOfBounds),
            /// Dice given for an event that draws none.
            Dice($crate::__kernel::dice::DiceError),
            $(
                #[doc = concat!(stringify!($v), " refused the event.")]
                $v(<$s as $crate::__kernel::system::RulesSystem>::Error),
            )+
        }

        impl std::fmt::Display for FoldError {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match self {
                    FoldError::NoCampaign => write!(f, "the campaign has not been created yet"),
                    FoldError::CampaignExists => write!(f, "the campaign already exists"),
                    FoldError::ForeignCampaign(c) => {
                        write!(f, "the event belongs to campaign {c}, not this one")
                    }
                    FoldError::UnknownCharacter(c) => write!(
                        f,
                        "its character ({}) is not on the record: their joining was struck, or never recorded",
                        c.short()
                    ),
                    FoldError::NameTaken(n) => write!(f, "there is already a character named '{n}'"),
                    FoldError::BadName(n) => write!(f, "'{n}' is not a usable character name"),
                    FoldError::WrongSystem { campaign, event } => {
                        write!(f, "the campaign plays {campaign}, not {event}")
                    }
                    FoldError::Setting(why) => write!(f, "{why}"),
                    FoldError::System { message, .. } => write!(f, "{message}"),
                    FoldError::ClockBackwards { now, to } => write!(
                        f,
                        "the campaign clock is at {now}; it cannot go back to {to}"
                    ),
                    FoldError::BeyondClock { now, at } => write!(
                        f,
                        "a player's device dated it {at}, beyond the campaign clock ({now}): only the GM moves the clock"
                    ),
                    FoldError::OutOfBounds(b) => write!(f, "{b}"),
                    FoldError::Dice(e) => write!(f, "{e}"),
                    $( FoldError::$v(e) => write!(f, "{e}"), )+
                }
            }
        }

        impl std::error::Error for FoldError {}

        /// The kernel's refusals, in the words the fold has always given them.
        impl From<$crate::__kernel::system::Refusal> for FoldError {
            fn from(r: $crate::__kernel::system::Refusal) -> FoldError {
                use $crate::__kernel::system::Refusal;
                match r {
                    Refusal::NoCampaign => FoldError::NoCampaign,
                    Refusal::CampaignExists => FoldError::CampaignExists,
                    Refusal::ForeignCampaign(c) => FoldError::ForeignCampaign(c),
                    Refusal::UnknownCharacter(c) => FoldError::UnknownCharacter(c),
                    Refusal::NameTaken(n) => FoldError::NameTaken(n),
                    Refusal::BadName(n) => FoldError::BadName(n),
                    Refusal::WrongSystem { campaign, event } => {
                        FoldError::WrongSystem { campaign, event }
                    }
                    Refusal::Roster(why) => FoldError::Setting(why),
                    Refusal::ClockBackwards { now, to } => FoldError::ClockBackwards { now, to },
                    Refusal::System { system, message } => FoldError::System { system, message },
                    Refusal::BeyondClock { now, at } => FoldError::BeyondClock { now, at },
                    Refusal::OutOfBounds(b) => FoldError::OutOfBounds(b),
                    Refusal::Dice(e) => FoldError::Dice(e),
                    Refusal::Unchanged(why) => FoldError::Setting(why),
                    Refusal::JoinsSecret(hidden, seen) => FoldError::Setting(format!(
                        "{hidden} is GM-only and {seen} is seen by the table: an event joining them would show {hidden}'s state to the players' devices (record each side's blow on its own, or reveal {hidden})"
                    )),
                }
            }
        }

        $(#[$lm])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $list;

        impl $crate::__kernel::system::Systems for $list {
            type Id = SystemId;
            type Event = Event;
            type Sheet = SheetKind;
            type Character = CharacterState;
            type Settings = Settings;
            type Decree = $decree;
            type Applied = Applied;
            type Error = FoldError;

            const DECREES: &'static str = $decrees;

            fn name(id: SystemId) -> &'static str {
                id.name()
            }

            fn entry(e: &Event) -> $crate::__kernel::system::Entry<'_, $list> {
                use $crate::__kernel::system::Entry;
                match e {
                    Event::CampaignCreated {
                        name,
                        system,
                        round_seconds,
                    } => Entry::CampaignCreated {
                        name,
                        system: *system,
                        round_seconds: *round_seconds,
                    },
                    Event::CharacterAdded { name, sheet } => Entry::CharacterAdded {
                        name,
                        sheet,
                        system: sheet.system(),
                    },
                    Event::ClockAdvanced { to } => Entry::ClockAdvanced { to: *to },
                    Event::Ruling(r) => Entry::Ruling(r),
                    Event::Roster(change) => Entry::Roster(change),
                    Event::Standing { character, standing } => Entry::Standing {
                        character: *character,
                        standing,
                    },
                    Event::Secret { character, secret } => Entry::Secret {
                        character: *character,
                        secret: *secret,
                    },
                    $( Event::$v(e) => Entry::System(e), )+
                }
            }

            fn system_mut(e: &mut Event) -> Option<&mut dyn $crate::__kernel::system::SystemEvent<$list>> {
                match e {
                    $( Event::$v(e) => Some(e), )+
                    Event::CampaignCreated { .. }
                    | Event::CharacterAdded { .. }
                    | Event::ClockAdvanced { .. }
                    | Event::Ruling(_)
                    | Event::Roster(_)
                    | Event::Standing { .. }
                    | Event::Secret { .. } => None,
                }
            }

            fn character(
                all: &Settings,
                id: $crate::__kernel::ids::CharacterId,
                name: &str,
                sheet: &SheetKind,
            ) -> Result<CharacterState, FoldError> {
                match sheet {
                    $( SheetKind::$v(s) => $crate::__kernel::system::new_character::<Self, $s>(all, id, name, s), )+
                }
            }

            fn decree(
                all: &Settings,
                character: &mut CharacterState,
                decree: &$decree,
                world: &$crate::__kernel::system::World,
            ) -> Result<String, FoldError> {
                match character {
                    $( CharacterState::$v(_) => {
                        $crate::__kernel::system::decree_on::<Self, $s>(all, character, decree, world)
                    } )+
                }
            }
        }

        $(
            impl $crate::__kernel::system::Hosts<$s> for $list {
                const ID: SystemId = SystemId::$v;

                fn wrap(c: <$s as $crate::__kernel::system::RulesSystem>::Character) -> CharacterState {
                    CharacterState::$v(c)
                }

                #[allow(unreachable_patterns)]
                fn held(state: &CharacterState) -> Option<&<$s as $crate::__kernel::system::RulesSystem>::Character> {
                    match state {
                        CharacterState::$v(c) => Some(c),
                        _ => None,
                    }
                }

                #[allow(unreachable_patterns)]
                fn held_mut(
                    state: &mut CharacterState,
                ) -> Option<&mut <$s as $crate::__kernel::system::RulesSystem>::Character> {
                    match state {
                        CharacterState::$v(c) => Some(c),
                        _ => None,
                    }
                }

                fn settings(all: &Settings) -> &<$s as $crate::__kernel::system::RulesSystem>::Settings {
                    &all.$f
                }

                fn settings_mut(
                    all: &mut Settings,
                ) -> &mut <$s as $crate::__kernel::system::RulesSystem>::Settings {
                    &mut all.$f
                }

                fn applied(a: <$s as $crate::__kernel::system::RulesSystem>::Applied) -> Applied {
                    Applied::System {
                        character: <$s as $crate::__kernel::system::RulesSystem>::about(&a)
                            .unwrap_or($crate::__kernel::ids::CharacterId($crate::__uuid::Uuid::nil())),
                        outcome: SystemOutcome::$v(a),
                    }
                }

                fn refused(e: <$s as $crate::__kernel::system::RulesSystem>::Error) -> FoldError {
                    FoldError::$v(e)
                }

                fn decree_of(
                    d: &$decree,
                ) -> Option<&<$s as $crate::__kernel::system::RulesSystem>::Decree> {
                    <<$s as $crate::__kernel::system::RulesSystem>::Decree as $crate::__kernel::system::DecreeOf<$decree>>::of(d)
                }
            }
        )+
    };
}
