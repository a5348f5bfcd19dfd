//! Property tests across the crates: the fold is deterministic, and replaying the stored log
//! gives exactly the state `show` printed when each event was recorded.

mod common;
use common::Scratch;
use leechbook::views;
use leechbook_core::fold::Ledger;
use leechbook_store::Store;
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Action {
    /// A strike at a chosen location with its effective impact and every die it may need.
    Chosen {
        who: usize,
        aspect: usize,
        location: usize,
        side: bool,
        effective: i32,
        rigid: bool,
        compound: u16,
        amputation: u16,
        shock: u16,
    },
    /// A rolled strike whose dice Leechbook rolls with a seed.
    Rolled {
        who: usize,
        aspect: usize,
        seed: u64,
    },
    /// A Shock Reroll or stun recovery.
    Shock { who: usize, stun: bool, roll: u16 },
    /// A Morale roll.
    Morale { who: usize, roll: u16 },
    /// The clock moves on.
    Advance { minutes: u32 },
}

const WHO: [&str; 3] = ["Osric", "Brannoc", "Ysolde"];
const ASPECTS: [&str; 5] = ["blunt", "edge", "point", "fire", "frost"];
const LOCATIONS: [(&str, bool); 8] = [
    ("skull", false),
    ("neck", false),
    ("shoulder", true),
    ("hand", true),
    ("thorax", false),
    ("abdomen", false),
    ("thigh", true),
    ("foot", true),
];

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        4 => (0..3usize, 0..5usize, 0..8usize, any::<bool>(), -2..30i32, any::<bool>(), 1..=10u16, 1..=100u16, 1..=100u16)
            .prop_map(|(who, aspect, location, side, effective, rigid, compound, amputation, shock)| Action::Chosen {
                who, aspect, location, side, effective, rigid, compound, amputation, shock
            }),
        2 => (0..3usize, 0..5usize, any::<u64>()).prop_map(|(who, aspect, seed)| Action::Rolled { who, aspect, seed }),
        2 => (0..3usize, any::<bool>(), 1..=100u16).prop_map(|(who, stun, roll)| Action::Shock { who, stun, roll }),
        1 => (0..3usize, 1..=100u16).prop_map(|(who, roll)| Action::Morale { who, roll }),
        1 => (1..30u32).prop_map(|minutes| Action::Advance { minutes }),
    ]
}

fn args(a: &Action) -> Vec<String> {
    let v: Vec<String> = match a {
        Action::Chosen {
            who,
            aspect,
            location,
            side,
            effective,
            rigid,
            compound,
            amputation,
            shock,
        } => {
            let (loc, sided) = LOCATIONS[*location];
            let mut v = vec![
                "strike".into(),
                WHO[*who].into(),
                "--aspect".into(),
                ASPECTS[*aspect].into(),
                "--location".into(),
                loc.into(),
                "--effective".into(),
                effective.to_string(),
                "--dice".into(),
                format!("compound={compound},amputation={amputation},shock={shock}"),
            ];
            if sided {
                v.extend(["--side".into(), if *side { "left" } else { "right" }.into()]);
            }
            if *rigid {
                v.push("--rigid".into());
            }
            v
        }
        Action::Rolled { who, aspect, seed } => vec![
            "--seed".into(),
            seed.to_string(),
            "strike".into(),
            WHO[*who].into(),
            "--aspect".into(),
            ASPECTS[*aspect].into(),
            "--zone-die".into(),
            "d8".into(),
            "--impact".into(),
            "2d6+4".into(),
            "--precision".into(),
            "1".into(),
            "--face-option".into(),
        ],
        Action::Shock { who, stun, roll } => vec![
            "roll".into(),
            WHO[*who].into(),
            if *stun {
                "stun-recovery"
            } else {
                "shock-reroll"
            }
            .into(),
            "--dice".into(),
            format!("roll={roll}"),
        ],
        Action::Morale { who, roll } => vec![
            "roll".into(),
            WHO[*who].into(),
            "morale".into(),
            "--ml".into(),
            "60".into(),
            "--dice".into(),
            format!("roll={roll}"),
        ],
        Action::Advance { minutes } => vec!["advance".into(), format!("{minutes}m")],
    };
    v
}

/// Every character's `show --json` view at the end of `ledger`.
fn views_of(ledger: &Ledger) -> Vec<serde_json::Value> {
    ledger
        .characters
        .iter()
        .map(|c| serde_json::to_value(views::character(ledger, c)).unwrap())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    #[test]
    fn replay_gives_the_state_shown_when_each_event_was_recorded(actions in prop::collection::vec(action(), 1..25)) {
        let s = Scratch::new();
        s.ok(&["init", "--name", "prop"]);
        for w in WHO {
            s.ok(&["character", "add", w, "--str", "12", "--end", "11", "--shock", "60", "--hb", "12"]);
        }
        // What `show --json` printed right after each recorded event, keyed by log length.
        let mut shown: Vec<(u64, Vec<serde_json::Value>)> = Vec::new();
        for a in &actions {
            let argv = args(a);
            let refs: Vec<&str> = argv.iter().map(String::as_str).collect();
            let before = s.bytes();
            let out = s.run(&refs);
            if out.code != 0 {
                // A refused command leaves the ledger byte-for-byte as it was.
                prop_assert_eq!(out.code, 1, "{:?}: {}", argv, out.stderr);
                prop_assert_eq!(s.bytes(), before);
                continue;
            }
            let n = Store::open(&s.db).unwrap().count().unwrap();
            let now: Vec<serde_json::Value> = WHO.iter().map(|w| s.show(w)).collect();
            shown.push((n, now));
        }
        let events = Store::open(&s.db).unwrap().events().unwrap();
        for (n, want) in &shown {
            let ledger = Ledger::fold(&events[..*n as usize]);
            prop_assert!(ledger.void.is_empty(), "{:?}", ledger.void);
            prop_assert_eq!(&views_of(&ledger), want);
        }
        // Deterministic: folding the same log twice gives the same state.
        let a = Ledger::fold(&events);
        let b = Ledger::fold(&events);
        prop_assert_eq!(&a.characters, &b.characters);
        prop_assert_eq!(a.now, b.now);
        // And injury levels stay within 1..=5.
        for c in &a.characters {
            let leechbook_core::fold::CharacterState::HarnMaster(h) = c;
            for i in &h.injuries {
                prop_assert!((1..=5).contains(&i.level), "{:?}", i);
            }
        }
    }
}
