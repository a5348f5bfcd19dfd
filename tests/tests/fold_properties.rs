//! Property tests across the crates: the fold is deterministic, and replaying the stored log
//! gives exactly the state `show` printed when each event was recorded.

use crate::common;
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
    /// A ruling on an earlier event (picked by index among the events so far).
    Retract { pick: usize },
    /// Undo a retraction.
    Reinstate { pick: usize },
    /// Amend an earlier roll's face.
    Amend { pick: usize, roll: u16 },
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
        1 => any::<usize>().prop_map(|pick| Action::Retract { pick }),
        1 => any::<usize>().prop_map(|pick| Action::Reinstate { pick }),
        1 => (any::<usize>(), 1..=100u16).prop_map(|(pick, roll)| Action::Amend { pick, roll }),
    ]
}

fn args(a: &Action, ids: &[(String, String)]) -> Vec<String> {
    let pick = |n: usize, kinds: &[&str]| {
        let c: Vec<&(String, String)> = ids
            .iter()
            .filter(|(_, k)| kinds.is_empty() || kinds.contains(&k.as_str()))
            .collect();
        if c.is_empty() {
            "000000".to_string()
        } else {
            c[n % c.len()].0.clone()
        }
    };
    let v: Vec<String> = match a {
        Action::Retract { pick: n } => vec![
            "retract".into(),
            pick(*n, &[]),
            "--reason".into(),
            "ruling".into(),
        ],
        Action::Reinstate { pick: n } => vec![
            "reinstate".into(),
            pick(*n, &[]),
            "--reason".into(),
            "ruling".into(),
        ],
        Action::Amend { pick: n, roll } => vec![
            "amend".into(),
            pick(*n, &["hm.shock-reroll", "hm.stun-recovery", "hm.gm-roll"]),
            "--dice".into(),
            format!("roll={roll}"),
            "--reason".into(),
            "misread".into(),
        ],
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

/// Each of WHO's `show --json` view at the end of `ledger` (null when absent: a ruling may
/// strike a character's joining from the record).
fn views_of(ledger: &Ledger) -> Vec<serde_json::Value> {
    WHO.iter()
        .map(|w| match ledger.character_named(w) {
            Some(c) => views::view(ledger, c),
            None => serde_json::Value::Null,
        })
        .collect()
}

/// `show NAME --json [--at MOMENT]`, or null when the character is not on the record.
fn show_or_null(s: &Scratch, name: &str, at: Option<&str>) -> serde_json::Value {
    let mut args = vec!["show", name, "--json"];
    if let Some(m) = at {
        args.extend(["--at", m]);
    }
    let out = s.run(&args);
    if out.code == 0 {
        serde_json::from_str(&out.stdout).unwrap()
    } else {
        assert!(
            out.stderr.contains("no character named") || out.stderr.contains("had not joined"),
            "{}",
            out.stderr
        );
        serde_json::Value::Null
    }
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
        let mut shown: Vec<(u64, String, Vec<serde_json::Value>)> = Vec::new();
        for a in &actions {
            let log: serde_json::Value = serde_json::from_str(&s.ok(&["log", "--json"])).unwrap();
            let ids: Vec<(String, String)> = log.as_array().unwrap().iter().skip(1)
                .map(|e| (e["id"].as_str().unwrap().to_string(), e["kind"].as_str().unwrap().to_string()))
                .collect();
            let argv = args(a, &ids);
            let refs: Vec<&str> = argv.iter().map(String::as_str).collect();
            let before = s.bytes();
            let out = s.run(&refs);
            if out.code != 0 {
                // A refused command leaves the ledger byte-for-byte as it was.
                prop_assert_eq!(out.code, 1, "{:?}: {}", argv, out.stderr);
                prop_assert_eq!(s.bytes(), before);
                continue;
            }
            let store = Store::open(&s.db).unwrap();
            let n = store.count().unwrap();
            let last = store.events().unwrap().last().unwrap().id.to_string();
            let now: Vec<serde_json::Value> = WHO.iter().map(|w| show_or_null(&s, w, None)).collect();
            shown.push((n, last, now));
        }
        let events = Store::open(&s.db).unwrap().events().unwrap();
        for (n, last, want) in &shown {
            // Refolding the stored prefix gives what was shown...
            let ledger = Ledger::fold(&events[..*n as usize]);
            prop_assert_eq!(&views_of(&ledger), want);
            // ...and so does `show --at` that event.
            for (w, want) in WHO.iter().zip(want) {
                prop_assert_eq!(&show_or_null(&s, w, Some(last)), want);
            }
        }
        // Deterministic: folding the same log twice gives the same state.
        let a = Ledger::fold(&events);
        let b = Ledger::fold(&events);
        prop_assert_eq!(&a.characters, &b.characters);
        prop_assert_eq!(a.now, b.now);
        // And injury levels stay within 1..=5.
        for c in &a.characters {
            let h = c.hm().unwrap();
            for i in &h.injuries {
                prop_assert!((1..=5).contains(&i.level), "{:?}", i);
            }
        }
    }
}
