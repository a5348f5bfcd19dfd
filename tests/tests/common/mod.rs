//! Helpers shared by the end-to-end tests: a scratch ledger and the CLI run in-process.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// A scratch directory holding one ledger path.
pub struct Scratch {
    _dir: tempfile::TempDir,
    /// The ledger's path (not created until `init`).
    pub db: PathBuf,
}

impl Scratch {
    /// A fresh directory with no ledger yet.
    pub fn new() -> Scratch {
        let dir = tempfile::tempdir().expect("tempdir");
        let db = dir.path().join("ledger.db");
        Scratch { _dir: dir, db }
    }

    /// A ledger with Osric, the text's example target (Shock ML65, STR 12, HB13).
    pub fn with_osric() -> Scratch {
        let s = Scratch::new();
        s.ok(&["init", "--name", "test"]);
        s.ok(&OSRIC);
        s
    }

    /// Runs `leechbook --db DB ARGS...`.
    pub fn run(&self, args: &[&str]) -> leechbook::Output {
        run_db(&self.db, args)
    }

    /// Runs and asserts success, returning standard output.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert_eq!(
            out.code, 0,
            "leechbook {args:?} failed:\n{}{}",
            out.stdout, out.stderr
        );
        out.stdout
    }

    /// Runs `show NAME --json` and parses it.
    pub fn show(&self, name: &str) -> serde_json::Value {
        serde_json::from_str(&self.ok(&["show", name, "--json"])).expect("show --json parses")
    }

    /// The ledger file's bytes.
    pub fn bytes(&self) -> Vec<u8> {
        std::fs::read(&self.db).expect("ledger file")
    }
}

/// `character add` of Osric, the text's example target (Shock ML65, STR 12, HB13).
#[rustfmt::skip]
pub const OSRIC: [&str; 11] = [
    "character", "add", "Osric", "--str", "12", "--end", "12", "--shock", "65", "--hb", "13",
];

/// `character add` of Brenna (STR 11, END 13, Shock ML60, HB12).
#[rustfmt::skip]
pub const BRENNA: [&str; 11] = [
    "character", "add", "Brenna", "--str", "11", "--end", "13", "--shock", "60", "--hb", "12",
];

/// Osric struck as the README strikes him: ZD 2 aimed at ZN4 is ZN5, LD 7 the abdomen,
/// impact 8+4 = 12 - AV4 = 8 edge: S2E; Shock Roll 75 vs EML65 fails: INC.
#[rustfmt::skip]
pub const OSRIC_STRUCK: [&str; 14] = [
    "strike", "Osric", "--aspect", "edge", "--zone-die", "d6", "--aim", "4", "--impact", "d10+4",
    "--av", "4", "--dice", "zone=2,location=7,impact=8,shock=75",
];

/// Brenna struck in the right shoulder, effective impact 16 edge: G4E, a bleeder; Shock Roll
/// 12 vs EML60 succeeds, STN.
#[rustfmt::skip]
pub const BRENNA_STRUCK: [&str; 12] = [
    "strike", "Brenna", "--aspect", "edge", "--location", "shoulder", "--side", "right",
    "--effective", "16", "--dice", "shock=12",
];

/// Forgets the campaign keys the ledger at `db` holds (a device that lost them).
pub fn forget_keys(db: &Path) {
    let mut store = leechbook_store::Store::open(db).unwrap();
    store.put_sync_state("campaign-keys", &[]).unwrap();
}

/// Runs `leechbook --db DB ARGS...` in-process.
/// The first event of `kind` the ledger at `db` holds.
pub fn first_of_kind(db: &Path, kind: &str) -> leechbook_core::Envelope {
    leechbook_store::Store::open(db)
        .unwrap()
        .events()
        .unwrap()
        .into_iter()
        .find(|e| e.event.kind() == kind)
        .unwrap_or_else(|| panic!("no {kind} event in {}", db.display()))
}

pub fn run_db(db: &Path, args: &[&str]) -> leechbook::Output {
    let mut all = vec![
        "leechbook".to_string(),
        "--db".into(),
        db.display().to_string(),
    ];
    all.extend(args.iter().map(|s| s.to_string()));
    leechbook::run(all)
}

/// A device's id and public key, as `device show` prints them.
pub fn identity(db: &std::path::Path) -> (String, String) {
    let out = run_db(db, &["device", "show"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let field = |name: &str| {
        out.stdout
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .map(|v| v.trim().to_string())
            .unwrap_or_else(|| panic!("no {name} in {}", out.stdout))
    };
    (field("device"), field("key"))
}

/// Carries one ledger's log to another by a sync file in `dir`: exports (which must succeed)
/// and returns what the import said.
pub fn carry(from: &Path, to: &Path, dir: &Path) -> leechbook::Output {
    let file = dir.join("carry.sync");
    let out = run_db(
        from,
        &["sync", "export", file.to_str().expect("utf-8 path")],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    run_db(to, &["sync", "import", file.to_str().expect("utf-8 path")])
}

/// [`thorax_strike`] with `--seed 5`: the dice not given (a compound roll, when an earlier
/// injury calls for one) are rolled by Leechbook, the same on every run. A die given but not
/// needed is refused, so sequences of random strikes give only the shock dice.
pub const fn thorax_strike_seeded<'a>(
    who: &'a str,
    effective: &'a str,
    dice: &'a str,
) -> [&'a str; 12] {
    [
        "strike",
        who,
        "--aspect",
        "edge",
        "--location",
        "thorax",
        "--effective",
        effective,
        "--dice",
        dice,
        "--seed",
        "5",
    ]
}

/// The arguments of an edged strike to `who`'s thorax with the effective impact entered
/// (steps 1-2 skipped) and the given dice.
pub const fn thorax_strike<'a>(who: &'a str, effective: &'a str, dice: &'a str) -> [&'a str; 10] {
    edge_strike(who, "thorax", effective, dice)
}

/// The arguments of an edged strike to `who`'s `location` with the effective impact entered
/// (steps 1-2 skipped) and the given dice.
pub const fn edge_strike<'a>(
    who: &'a str,
    location: &'a str,
    effective: &'a str,
    dice: &'a str,
) -> [&'a str; 10] {
    [
        "strike",
        who,
        "--aspect",
        "edge",
        "--location",
        location,
        "--effective",
        effective,
        "--dice",
        dice,
    ]
}

/// The arguments of a G4E strike to `who`'s right shoulder (effective impact 16, shock roll
/// 12): a bleeder, as in the Healing Sequence's examples 1 and 2.
pub const fn shoulder_strike(who: &str) -> [&str; 12] {
    [
        "strike",
        who,
        "--aspect",
        "edge",
        "--location",
        "shoulder",
        "--side",
        "right",
        "--effective",
        "16",
        "--dice",
        "shock=12",
    ]
}

/// `strike WHO` giving the S2E abdomen of the treatment example (effective impact 8E, the
/// Shock Roll 12: no Shock State).
pub const fn abdomen_strike(who: &str) -> [&str; 10] {
    [
        "strike",
        who,
        "--aspect",
        "edge",
        "--location",
        "abdomen",
        "--effective",
        "8",
        "--dice",
        "shock=12",
    ]
}

/// A hub on loopback for network sync, stopped when dropped: a relay in this process (a
/// samod repo that keeps no ledger), or the real npm automerge-repo sync server.
pub enum Hub {
    /// `leechbook_sync::net::relay` on a thread.
    Relay {
        /// Where devices dial.
        url: String,
        /// Stops it.
        stop: Option<futures::channel::oneshot::Sender<()>>,
        /// Its thread.
        thread: Option<std::thread::JoinHandle<()>>,
    },
    /// `node .../automerge-repo-sync-server/src/index.js`.
    Node {
        /// Where devices dial.
        url: String,
        /// The server process.
        child: std::process::Child,
    },
}

impl Hub {
    /// A relay on a free loopback port.
    pub fn relay() -> Hub {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
        let (stop, stopped) = futures::channel::oneshot::channel::<()>();
        let (tx, rx) = std::sync::mpsc::channel();
        let thread = std::thread::spawn(move || {
            leechbook_sync::net::relay(
                listener,
                Vec::new(),
                async {
                    let _ = stopped.await;
                },
                |url| {
                    tx.send(url.to_string())
                        .expect("the test waits for the url")
                },
            )
            .expect("the relay runs");
        });
        let url = rx
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("the relay listens");
        Hub::Relay {
            url,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// The npm `@automerge/automerge-repo-sync-server` (installed by `.ci/run` under
    /// `.ci/sync-server`, or at `$LEECHBOOK_SYNC_SERVER`), started on a free loopback port
    /// with its data in `dir`. `None` when it is not installed and this is not CI (where its
    /// absence fails the test).
    pub fn node(dir: &Path) -> Option<Hub> {
        let script = std::env::var_os("LEECHBOOK_SYNC_SERVER")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                Path::new(env!("CARGO_MANIFEST_DIR")).join(
                    "../.ci/sync-server/node_modules/@automerge/automerge-repo-sync-server/src/index.js",
                )
            });
        if !script.exists() {
            assert!(
                std::env::var_os("CI").is_none(),
                "the automerge-repo sync server is not installed at {} (.ci/run installs it: npm install --prefix .ci/sync-server --no-save)",
                script.display()
            );
            eprintln!(
                "skipped: the automerge-repo sync server is not installed (npm install --prefix .ci/sync-server --no-save)"
            );
            return None;
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let mut child = std::process::Command::new("node")
            .arg(&script)
            .env("PORT", port.to_string())
            .env("DATA_DIR", dir.join("sync-server-data"))
            .current_dir(dir)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("node runs (the machine's Node.js)");
        let stdout = child.stdout.take().expect("piped");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
            {
                if line.contains("Listening on port") {
                    let _ = tx.send(());
                }
            }
        });
        rx.recv_timeout(std::time::Duration::from_secs(30))
            .expect("the sync server says it listens");
        Some(Hub::Node {
            url: format!("ws://127.0.0.1:{port}"),
            child,
        })
    }

    /// Where devices dial.
    pub fn url(&self) -> &str {
        match self {
            Hub::Relay { url, .. } | Hub::Node { url, .. } => url,
        }
    }
}

impl Drop for Hub {
    fn drop(&mut self) {
        match self {
            Hub::Relay { stop, thread, .. } => {
                if let Some(stop) = stop.take() {
                    let _ = stop.send(());
                }
                if let Some(t) = thread.take() {
                    let _ = t.join();
                }
            }
            Hub::Node { child, .. } => {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
    }
}

/// `leechbook --db DB sync connect URL`, which must succeed; returns its output.
pub fn connect(db: &Path, url: &str) -> leechbook::Output {
    let out = run_db(db, &["sync", "connect", url, "--timeout", "20"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    out
}

/// The campaign id `device show` prints.
/// The join code of the GM ledger at `db` (`sync invite`), for `init --join URL --campaign`.
pub fn join_code(db: &Path) -> String {
    let out = run_db(db, &["sync", "invite"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout.trim().to_string()
}

/// The campaign keys the ledger at `db` holds (to forge or read sync data as a device that
/// holds them would).
pub fn ring_of(db: &Path) -> leechbook_sync::Keyring {
    let store = leechbook_store::Store::open(db).unwrap();
    leechbook_sync::crypt::keyring_of(&store)
        .unwrap()
        .expect("the ledger holds the campaign's keys")
}

pub fn campaign_of(db: &Path) -> String {
    let out = run_db(db, &["device", "show"]);
    out.stdout
        .lines()
        .find_map(|l| l.strip_prefix("campaign "))
        .map(|v| v.trim().to_string())
        .unwrap_or_else(|| panic!("no campaign in {}", out.stdout))
}

/// The command a hint names, "(leechbook WORDS)" in `out`, split as a shell would (single
/// quotes group words), with each placeholder in `fill` replaced by its value.
pub fn hinted_command(out: &str, fill: &[(&str, &str)]) -> Vec<String> {
    let hint = out
        .split("(leechbook ")
        .nth(1)
        .and_then(|h| h.split(')').next())
        .unwrap_or_else(|| panic!("no hint naming a command in {out}"));
    let (mut words, mut cur, mut quoted) = (Vec::new(), String::new(), false);
    for c in hint.chars() {
        match c {
            '\'' => quoted = !quoted,
            ' ' if !quoted => {
                if !cur.is_empty() {
                    words.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
        .into_iter()
        .map(|w| {
            fill.iter()
                .find(|(k, _)| *k == w)
                .map_or(w, |(_, v)| v.to_string())
        })
        .collect()
}

/// A table on the network: the GM starts a campaign with `characters` (each STR 12, END 12,
/// shock 90, HB 13) and puts it on the hub at `url`; two players join from the hub and are
/// rostered as players for `players[i]`'s character; then all three sync. Returns the three
/// ledgers in `dir` (GM first).
pub fn table(dir: &Path, url: &str, characters: &[&str], players: [&str; 2]) -> [PathBuf; 3] {
    let [gm, p1, p2] = ["gm", "p1", "p2"].map(|n| dir.join(format!("{n}.db")));
    let ok = |db: &Path, args: &[&str]| {
        let out = run_db(db, args);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        out.stdout
    };
    ok(&gm, &["init", "--name", "Kaldor"]);
    for name in characters {
        add_character(&gm, name);
    }
    connect(&gm, url);
    let campaign = join_code(&gm);
    for (p, who) in [(&p1, players[0]), (&p2, players[1])] {
        let joined = ok(p, &["init", "--join", url, "--campaign", &campaign]);
        assert!(joined.starts_with("joined the campaign"), "{joined}");
        let (device, key) = identity(p);
        ok(
            &gm,
            &[
                "device",
                "add",
                &device,
                &key,
                "--role",
                "player",
                "--character",
                who,
            ],
        );
    }
    for db in [&gm, &p1, &p2] {
        connect(db, url);
    }
    [gm, p1, p2]
}

/// `name` joins the campaign at `db`: STR 12, END 12, Shock ML90, HB13.
pub fn add_character(db: &Path, name: &str) {
    let out = run_db(
        db,
        &[
            "character",
            "add",
            name,
            "--str",
            "12",
            "--end",
            "12",
            "--shock",
            "90",
            "--hb",
            "13",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
}

/// The starter arms shipped in `fixtures/arms/`.
pub const ARMS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/arms/starter.toml");

/// Starts a campaign at `db` with the starter arms and `names` as ML60 swordsmen (a
/// broadsword, Melee and Dodge 60, +1 Strength impact): the cast of an exchange.
pub fn swordsmen(db: &Path, names: &[&str]) {
    let ok = |args: &[&str]| {
        let out = run_db(db, args);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
    };
    ok(&["init"]);
    ok(&["arms", "load", ARMS]);
    for n in names {
        ok(&[
            "character",
            "add",
            n,
            "--str",
            "12",
            "--end",
            "12",
            "--shock",
            "65",
            "--hb",
            "13",
        ]);
        ok(&[
            "character",
            "equip",
            n,
            "--weapon",
            "broadsword",
            "--melee",
            "60",
            "--dodge",
            "60",
            "--str-impact",
            "1",
        ]);
    }
}

/// The ledger at `gm` served as the hub on a thread (`sync serve`): where devices dial, what
/// stops it, and the thread, which returns what the hub reported.
pub fn serving(
    gm: &Path,
) -> (
    String,
    futures::channel::oneshot::Sender<()>,
    std::thread::JoinHandle<Vec<leechbook_sync::net::HubReport>>,
) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("ws://{}", listener.local_addr().unwrap());
    let (stop, stopped) = futures::channel::oneshot::channel::<()>();
    let serving = gm.to_path_buf();
    let hub = std::thread::spawn(move || {
        let mut store = leechbook_store::Store::open(&serving).unwrap();
        let mut reports = Vec::new();
        leechbook_sync::net::serve(
            &mut store,
            listener,
            async {
                let _ = stopped.await;
            },
            &mut |r| reports.push(r),
        )
        .unwrap();
        reports
    });
    (url, stop, hub)
}

/// The ledger at `gm` served as the hub with its players' page (`sync serve`), on a thread:
/// the page's address (`http://127.0.0.1:PORT`), what stops it, and the thread.
pub fn serving_page(
    gm: &Path,
) -> (
    String,
    futures::channel::oneshot::Sender<()>,
    std::thread::JoinHandle<()>,
) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (stop, stopped) = futures::channel::oneshot::channel::<()>();
    let serving = gm.to_path_buf();
    let page = leechbook_page::routes(gm).expect("the page's routes");
    let hub = std::thread::spawn(move || {
        let mut store = leechbook_store::Store::open(&serving).unwrap();
        leechbook_sync::net::serve_with(
            &mut store,
            listener,
            async {
                let _ = stopped.await;
            },
            &mut |_| {},
            page,
        )
        .unwrap();
    });
    (base, stop, hub)
}

/// One HTTP/1.1 request to `base` (`http://HOST:PORT`): its status and body. A form body
/// is sent URL-encoded.
pub fn http(base: &str, method: &str, path: &str, form: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let host = base.trim_start_matches("http://");
    let mut s = std::net::TcpStream::connect(host).expect("the hub answers");
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{form}",
        form.len()
    )
    .unwrap();
    let mut raw = String::new();
    s.read_to_string(&mut raw).unwrap();
    let status = raw
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = raw
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

/// The link `device link` printed for `name` on the ledger at `db` (its path, `/p/SECRET/`).
pub fn page_link(db: &Path, name: &str, more: &[&str]) -> String {
    let mut args = vec![
        "device",
        "link",
        name,
        "--no-qr",
        "--hub",
        "http://127.0.0.1:1",
    ];
    args.extend(more);
    let out = run_db(db, &args);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let at = out.stdout.find("/p/").expect("a link");
    out.stdout[at..]
        .split_whitespace()
        .next()
        .unwrap()
        .to_string()
}
