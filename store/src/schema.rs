//! The SQLite schema as an append-only list of migrations.
//!
//! **Never modify a shipped migration; only add new ones.** `PRAGMA user_version` holds how
//! many have been applied; a database with more than this build knows was written by a newer
//! Leechbook and is refused. `PRAGMA application_id` marks a file as a Leechbook ledger.

/// Marks a SQLite file as a Leechbook ledger ("LBK1").
pub const APPLICATION_ID: i32 = 0x4C42_4B31;

/// The migrations, in order. Index `i` takes `user_version` from `i` to `i + 1`.
pub const MIGRATIONS: &[&str] = &[
    // 1: the event log and the device's metadata.
    r#"
    CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value BLOB NOT NULL
    ) STRICT;

    CREATE TABLE events (
        rowid     INTEGER PRIMARY KEY,
        id        BLOB NOT NULL UNIQUE,
        campaign  BLOB NOT NULL,
        device    BLOB NOT NULL,
        seq       INTEGER NOT NULL,
        clock     INTEGER NOT NULL,
        wall_ms   INTEGER NOT NULL,
        at        INTEGER NOT NULL,
        kind      TEXT NOT NULL,
        character BLOB,
        schema    INTEGER NOT NULL,
        payload   BLOB NOT NULL,
        signature BLOB,
        UNIQUE (device, seq)
    ) STRICT;

    CREATE INDEX events_order ON events (clock, device, seq);
    CREATE INDEX events_character ON events (character, clock);

    CREATE TRIGGER events_no_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'the event log is append-only: events cannot be updated'); END;

    CREATE TRIGGER events_no_delete BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, 'the event log is append-only: events cannot be deleted'); END;
    "#,
    // 2: snapshots of the folded state (a disposable cache), and rulings found by kind.
    r#"
    CREATE TABLE snapshots (
        position     INTEGER PRIMARY KEY,
        last_clock   INTEGER NOT NULL,
        last_device  BLOB NOT NULL,
        last_seq     INTEGER NOT NULL,
        fold_version INTEGER NOT NULL,
        payload      BLOB NOT NULL
    ) STRICT;

    CREATE INDEX events_kind ON events (kind);
    "#,
    // 3: sync state (a cache beside the log): the automerge document and what peers hold.
    r#"
    CREATE TABLE sync_state (
        key   TEXT PRIMARY KEY,
        value BLOB NOT NULL
    ) STRICT;
    "#,
    // 4: events found by the last three bytes of their id (the six hex digits a user types).
    r#"
    CREATE INDEX events_id_tail ON events (substr(id, 14, 3));
    "#,
    // 5: ... dropped again: its keys are random, and keeping it cost bulk append half its speed
    // at a million events (BENCHMARKS.md). A full id is found by the id's own index; a short
    // one by a scan.
    r#"
    DROP INDEX IF EXISTS events_id_tail;
    "#,
    // 6: the projection, a cache beside the log: the campaign's current state kept apart as
    // its head (key x'') and one entry per character, written in each append's transaction,
    // so that a command reads and writes the characters it touches. Current while its mark
    // is the log's last row and the fold version that made it.
    r#"
    CREATE TABLE projection (
        key     BLOB PRIMARY KEY,
        payload BLOB NOT NULL
    ) STRICT;
    CREATE TABLE projection_mark (
        one          INTEGER PRIMARY KEY CHECK (one = 1),
        last_row     INTEGER NOT NULL,
        fold_version INTEGER NOT NULL
    ) STRICT;
    "#,
    // 7: checkpoints kept as the projection is: the snapshot's payload the head, and one
    // entry per character here, so that a view of one character at a moment reads that
    // character's entry, not the whole campaign's. An entry goes with its snapshot.
    r#"
    CREATE TABLE checkpoint_entries (
        position INTEGER NOT NULL,
        key      BLOB NOT NULL,
        payload  BLOB NOT NULL,
        PRIMARY KEY (position, key)
    ) STRICT, WITHOUT ROWID;
    CREATE TRIGGER snapshots_drop_entries AFTER DELETE ON snapshots
    BEGIN
        DELETE FROM checkpoint_entries WHERE position = old.position;
    END;
    "#,
    // 8: the archive of healed injuries, a cache beside the log like the projection: one
    // record per injury a character filed (the fold's `HmCharacter::file_healed`), keyed by
    // the character and the order key of the event after which it was filed, so that a
    // character's entry (projection and checkpoints) holds only what the rules read and the
    // records are read only by the views that list them. A record a GM's decree reopened
    // keeps the order key of that decree: it was filed from `since` until then.
    r#"
    CREATE TABLE archive (
        character    BLOB NOT NULL,
        since_clock  INTEGER NOT NULL,
        since_device BLOB NOT NULL,
        since_seq    INTEGER NOT NULL,
        injury       BLOB NOT NULL,
        payload      BLOB NOT NULL,
        reopened_clock  INTEGER,
        reopened_device BLOB,
        reopened_seq    INTEGER,
        PRIMARY KEY (character, since_clock, since_device, since_seq, injury)
    ) STRICT, WITHOUT ROWID;
    "#,
    // 9: what became of events (void, retracted, amended) kept apart from the head of the
    // projection (scope -1) and of each checkpoint (scope its position): they grow with the
    // campaign's rulings, change only when a ruling re-derives the record, and a command
    // that records reads none of them. A checkpoint's go with it.
    r#"
    CREATE TABLE fates (
        scope   INTEGER PRIMARY KEY,
        payload BLOB NOT NULL
    ) STRICT;
    CREATE TRIGGER snapshots_drop_fates AFTER DELETE ON snapshots
    BEGIN
        DELETE FROM fates WHERE scope = old.position;
    END;
    "#,
    // 10: the index of every event's kind served only two reads (the roster's events and the
    // rulings, a few in a thousand) and cost an insert per event and 22 bytes an event. A
    // partial index in the total order holds only those events (the campaign's creation
    // and the kinds `roster.*` and `ruling.*`, the only kinds between 'r' and 's'). Its
    // condition is a cheap comparison (a list of kinds, tried on every insert, cost more
    // than the index it replaced) and the very text the reads begin with (`ROSTER_KINDS`,
    // `RULING_KINDS`), which SQLite needs to use it.
    r#"
    DROP INDEX IF EXISTS events_kind;
    CREATE INDEX events_rare ON events (clock, device, seq)
        WHERE kind = 'campaign-created' OR (kind > 'r' AND kind < 's');
    "#,
    // 11: the index of events by character (migration 1) serves no read: a view of one
    // character at a moment reads the rows after a checkpoint by row, and the archive has its
    // own key. It cost one of five b-tree inserts per event (BENCHMARKS.md) and 30 bytes an
    // event.
    r#"
    DROP INDEX IF EXISTS events_character;
    "#,
    // 12: beside each checkpoint, the earliest campaign time of any event after it in the
    // total order (i64::MAX while none is; a row written without it reads as "an event
    // after it may lie anywhere in the story", the safe side), so that a moment of the story ("day 40") is
    // folded from a checkpoint and the stretch of the log after it that can hold the
    // moment's events, not from the whole log. Kept by every append and import; filled for
    // the checkpoints already kept by one pass over the log (`fill_checkpoint_bounds`).
    r#"
    ALTER TABLE snapshots ADD COLUMN earliest_after INTEGER NOT NULL
        DEFAULT -9223372036854775808;
    "#,
    // 13: the partial index of the roster's events and the rulings (migration 10) carries
    // each row's kind, so that reading the roster's few events tells them from the rulings
    // in the index and fetches only their rows, not every ruling's (5 ms to 0.2-0.7 ms at a
    // million events, where a moment of the story reads the roster). Its condition, and the
    // reads', are unchanged.
    r#"
    DROP INDEX IF EXISTS events_rare;
    CREATE INDEX events_rare ON events (clock, device, seq, kind)
        WHERE kind = 'campaign-created' OR (kind > 'r' AND kind < 's');
    "#,
    // 14: as migration 12 for the recording devices' clocks: beside each checkpoint the
    // latest wall time of any event at or before it and the earliest of any event after it,
    // so that a moment of the record by the clock ("2026-03-01T20:00:00Z") is folded from a
    // checkpoint and a stretch as a moment of the story is; and the log's latest wall time,
    // which a checkpoint kept at the log's end takes without reading the log.
    r#"
    ALTER TABLE snapshots ADD COLUMN latest_wall_upto INTEGER NOT NULL
        DEFAULT 9223372036854775807;
    ALTER TABLE snapshots ADD COLUMN earliest_wall_after INTEGER NOT NULL
        DEFAULT -9223372036854775808;
    CREATE TABLE log_bounds (
        one         INTEGER PRIMARY KEY CHECK (one = 1),
        latest_wall INTEGER NOT NULL
    ) STRICT;
    INSERT INTO log_bounds SELECT 1, COALESCE(MAX(wall_ms), -9223372036854775808) FROM events;
    "#,
    // 15: what each event is about, so that an audit of one character (its history, `why`,
    // its log and CSV) reads that character's events, not the whole log: the character
    // column indexed again (migration 11 dropped it when nothing read it; an event about no
    // character, the campaign's own, sits under NULL), and beside it the characters an
    // exchange, a shot or a Quarrel reaches besides the one it is about (`reach`: one row per
    // such character, naming the event's row). Kept by every append and import in their
    // transaction; filled for the events already held by one pass over the reaching kinds
    // (`fill_reach`).
    r#"
    CREATE INDEX events_about ON events (character);
    CREATE TABLE reach (
        character BLOB NOT NULL,
        event     INTEGER NOT NULL,
        PRIMARY KEY (character, event)
    ) STRICT, WITHOUT ROWID;
    "#,
    // 16: an event's class (1 for the campaign's creation, a roster change and a ruling:
    // the events about the record; 0 for the story), written on every insert from the
    // event itself (`log::class_of`), so that the partial index of the record's events no
    // longer depends on where kinds sort (migration 10 held the kinds between 'r' and 's',
    // which every new kind had to keep clear of). Its condition stays one comparison per
    // insert. The rows of the record's events, found through the old index by their kind
    // column, get their class here: the only rows a migration ever changes, one column, with
    // the append-only trigger lifted for that statement alone and restored. A kind column
    // edited by hand before would carry its lie into the class; `verify --full` compares
    // both with the payload and names it.
    r#"
    ALTER TABLE events ADD COLUMN class INTEGER NOT NULL DEFAULT 0;
    DROP TRIGGER IF EXISTS events_no_update;
    UPDATE events SET class = 1
        WHERE kind = 'campaign-created' OR (kind > 'r' AND kind < 's');
    CREATE TRIGGER events_no_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'the event log is append-only: events cannot be updated'); END;
    DROP INDEX IF EXISTS events_rare;
    CREATE INDEX events_rare ON events (clock, device, seq, kind) WHERE class = 1;
    "#,
    // 17: the players' page's links, kept beside the log and never synced: a link's secret
    // (the URL's last part, kept so the GM can print the same link again) and its SHA-256
    // (what a request is looked up by), the character it shows (NULL: the GM's link, which
    // shows everything and records nothing), the device made for it (on the roster as a
    // player's device of that character; its signing key lives only here), what it shows of
    // the rest of the party, and when it was made and revoked.
    r#"
    CREATE TABLE links (
        hash      BLOB PRIMARY KEY,
        token     TEXT NOT NULL,
        character BLOB,
        device    BLOB,
        secret    BLOB,
        party     TEXT NOT NULL,
        made      TEXT NOT NULL,
        revoked   TEXT
    ) STRICT;
    "#,
    // 18: the entries sealed for the GM's devices that this device holds and cannot open (a
    // GM-only character's events, on a player's device): each under its device's number,
    // with what its device's chain is checked against (its clock, its link and the link it
    // follows, as its entry states them) and the entry as it travels (the sealed part
    // inside), so that this device counts the number as held, checks the chain across it and
    // offers it on; its row is what a sync's count has reached. Append-only like the log: a
    // device that later opens one keeps both.
    r#"
    CREATE TABLE sealed (
        row     INTEGER PRIMARY KEY,
        device  BLOB NOT NULL,
        seq     INTEGER NOT NULL,
        id      BLOB NOT NULL UNIQUE,
        clock   INTEGER NOT NULL,
        link    BLOB NOT NULL,
        follows BLOB,
        entry   BLOB NOT NULL,
        UNIQUE (device, seq)
    ) STRICT;
    CREATE TRIGGER sealed_no_update BEFORE UPDATE ON sealed
    BEGIN SELECT RAISE(ABORT, 'sealed entries are append-only'); END;
    CREATE TRIGGER sealed_no_delete BEFORE DELETE ON sealed
    BEGIN SELECT RAISE(ABORT, 'sealed entries are append-only'); END;
    "#,
    // 19: the campaign's own events (about no character: its creation, its characters
    // joining, the clock, the roster, the rulings) kept together in the total order, whole,
    // in a partial covering index, so that an audit of one character, which reads every one
    // of them, reads them in order from a few pages instead of one page per event and
    // sorting them (at a million events, 45,000 rows: 28 ms against 157 ms). It costs about
    // 9 bytes an event on average (the campaign's events are about one in twenty), and an
    // index insert only for those events. The reads name it (`INDEXED BY`).
    r#"
    CREATE INDEX events_campaign ON events
        (clock, device, seq, id, campaign, wall_ms, at, schema, payload, signature, character)
        WHERE character IS NULL;
    "#,
    // 20: the index of what events are about (migration 15) ordered by clock within each
    // character, so that an audit of a wound, which starts from the checkpoint before the
    // wound's first event, reads only that character's events after it (a range of the
    // index) instead of every event of the character. It costs the clock's bytes in each
    // index entry (about 4 an event).
    r#"
    DROP INDEX IF EXISTS events_about;
    CREATE INDEX events_about ON events (character, clock);
    "#,
    // 21: a checkpoint's entries (migration 7) in a table with row ids, found by their
    // position and character through an index. An entry is a character's state, about 2 KB:
    // past what a cell of a table without row ids holds on a page (about 1 KB), so each
    // spilled to an overflow page of its own, half empty (at 200,000 events, 4.9 MB of
    // their 9.5 MB unused). A table with row ids holds up to 4 KB in a cell: two entries
    // share a page.
    r#"
    DROP TRIGGER snapshots_drop_entries;
    CREATE TABLE checkpoint_entries_rows (
        position INTEGER NOT NULL,
        key      BLOB NOT NULL,
        payload  BLOB NOT NULL,
        UNIQUE (position, key)
    ) STRICT;
    INSERT INTO checkpoint_entries_rows (position, key, payload)
        SELECT position, key, payload FROM checkpoint_entries ORDER BY position, key;
    DROP TABLE checkpoint_entries;
    ALTER TABLE checkpoint_entries_rows RENAME TO checkpoint_entries;
    CREATE TRIGGER snapshots_drop_entries AFTER DELETE ON snapshots
    BEGIN
        DELETE FROM checkpoint_entries WHERE position = old.position;
    END;
    "#,
];

/// A ledger migrated from before this many migrations has its `reach` rows (migration 15)
/// filled from the reaching events it holds (`fill_reach`).
pub const REACH: usize = 15;

/// A ledger migrated from before this many migrations has its checkpoints' bounds (the
/// campaign and wall times around each, migrations 12 and 14) filled by one pass over the
/// log (`fill_checkpoint_bounds`).
pub const CHECKPOINT_BOUNDS: usize = 14;
