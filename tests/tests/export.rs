//! `export` and `import`: exports of every system validate against the schema in the
//! repository, a character's history comes out as CSV, and characters go into another
//! campaign with their sheets (all or nothing).

use crate::common;
use common::{run_db, Scratch};
use serde_json::Value;

fn schema() -> jsonschema::Validator {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../fixtures/schemas/export-v1.schema.json"
    ))
    .unwrap();
    jsonschema::validator_for(&serde_json::from_str::<Value>(&text).unwrap()).unwrap()
}

fn demo(system: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("demo.db");
    let out = leechbook::run([
        "leechbook",
        "demo",
        "--system",
        system,
        "--out",
        db.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    (dir, db)
}

fn json(db: &std::path::Path, args: &[&str]) -> Value {
    let out = run_db(db, args);
    assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
    serde_json::from_str(&out.stdout).unwrap()
}

#[test]
fn exports_of_every_system_validate_against_the_schema() {
    let schema = schema();
    for system in ["harnmaster", "savage-worlds", "wrath-glory", "witch-iron"] {
        let (_dir, db) = demo(system);
        let all = json(&db, &["export"]);
        let errors: Vec<String> = schema.iter_errors(&all).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{system}: {errors:?}");
        assert_eq!(all["campaign"]["system"], system);
        let first = all["characters"][0]["name"].as_str().unwrap().to_string();
        // Each character's state is its `show --json`.
        assert_eq!(
            all["characters"][0]["state"],
            json(&db, &["show", &first, "--json"])
        );
        let one = json(&db, &["export", &first]);
        assert!(schema.is_valid(&one), "{system}: one character");
        assert_eq!(one["characters"].as_array().unwrap().len(), 1);
    }
    // The schema is not a rubber stamp: a wrong version and a sheet of no system fail it.
    let (_dir, db) = demo("harnmaster");
    let mut bad = json(&db, &["export"]);
    bad["export_version"] = Value::from(2);
    assert!(!schema.is_valid(&bad));
    let mut bad = json(&db, &["export"]);
    bad["characters"][0]["sheet"] = serde_json::json!({ "Nonesuch": {} });
    assert!(!schema.is_valid(&bad));
}

#[test]
fn a_characters_history_comes_out_as_csv() {
    let (_dir, db) = demo("harnmaster");
    let out = run_db(&db, &["export", "Osric", "--csv"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let mut reader = csv::Reader::from_reader(out.stdout.as_bytes());
    assert_eq!(
        reader.headers().unwrap().iter().collect::<Vec<_>>(),
        ["at", "clock", "kind", "event", "summary", "void"]
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let log = json(&db, &["log", "--character", "Osric", "--json"]);
    let log = log.as_array().unwrap();
    assert_eq!(rows.len(), log.len());
    for (row, e) in rows.iter().zip(log) {
        assert_eq!(row.len(), 6);
        assert_eq!(&row[2], e["kind"].as_str().unwrap());
        assert_eq!(&row[3], e["id"].as_str().unwrap());
        assert_eq!(&row[4], e["summary"].as_str().unwrap());
    }
    assert_eq!(&rows[1][2], "hm.strike");
    assert!(rows[1][4].starts_with("Osric struck:"));
    let out = run_db(&db, &["export", "--csv"]);
    assert_eq!(out.code, 2, "--csv needs a character: {}", out.stderr);
}

#[test]
fn characters_go_into_another_campaign_with_their_sheets() {
    let (dir, db) = demo("harnmaster");
    let file = dir.path().join("kaldor.json");
    let out = run_db(&db, &["export"]);
    std::fs::write(&file, &out.stdout).unwrap();
    let sheets: Value = serde_json::from_str(&out.stdout).unwrap();
    let other = Scratch::new();
    other.ok(&["init", "--name", "elsewhere"]);
    other.ok(&["arms", "load", "--starter"]);
    let said = other.ok(&["import", file.to_str().unwrap(), "--character", "Brannoc"]);
    assert!(
        said.starts_with("imported Brannoc (the sheet and equipment)"),
        "{said}"
    );
    let list = json(&other.db, &["character", "list", "--json"]);
    assert_eq!(list.as_array().unwrap().len(), 1);
    let fresh = json(&other.db, &["export", "Brannoc"]);
    let brannoc = sheets["characters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "Brannoc")
        .unwrap();
    assert_eq!(fresh["characters"][0]["sheet"], brannoc["sheet"]);
    assert!(
        fresh["characters"][0]["state"]["injuries"]
            .as_array()
            .unwrap()
            .is_empty(),
        "the history stays in its own campaign"
    );
    // All or nothing: Brannoc is taken now, so importing everyone adds no one.
    let before = other.bytes();
    let out = other.run(&["import", file.to_str().unwrap()]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("already has a character named 'Brannoc'"),
        "{}",
        out.stderr
    );
    assert_eq!(other.bytes(), before);
    // Another system's characters are refused.
    let wi = Scratch::new();
    wi.ok(&["init", "--system", "witch-iron"]);
    let before = wi.bytes();
    let out = wi.run(&["import", file.to_str().unwrap()]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("is a harnmaster character"),
        "{}",
        out.stderr
    );
    assert_eq!(wi.bytes(), before);
    // A file whose second character the fold refuses (a name that differs from the
    // first's only in case) adds neither: the import is one transaction.
    let mut twice = sheets.clone();
    let mut second = brannoc.clone();
    second["name"] = Value::from("BRANNOC");
    twice["characters"] = Value::Array(vec![brannoc.clone(), second]);
    let twice_file = dir.path().join("twice.json");
    std::fs::write(&twice_file, twice.to_string()).unwrap();
    let fresh = Scratch::new();
    fresh.ok(&["init", "--name", "third"]);
    let before = fresh.bytes();
    let out = fresh.run(&["import", twice_file.to_str().unwrap()]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(
        out.stderr.to_lowercase().contains("brannoc"),
        "{}",
        out.stderr
    );
    assert_eq!(fresh.bytes(), before, "no character was added");
    // Not an export at all.
    let junk = dir.path().join("junk.json");
    std::fs::write(&junk, "{\"type\": \"something else\"}").unwrap();
    let out = other.run(&["import", junk.to_str().unwrap()]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("is not a Leechbook export"),
        "{}",
        out.stderr
    );
}

/// Issue 15: a wound's timeline as SVG: it parses, it has every series and the title names
/// the character, the location and the days, and every roll of the story is marked.
#[test]
fn a_wounds_timeline_is_drawn_as_svg() {
    let (dir, db) = demo("harnmaster");
    let osric = json(&db, &["show", "Osric", "--json"]);
    let id = osric["injuries"][0]["id"].as_str().unwrap().to_string();
    let file = dir.path().join("osric.svg");
    let out = run_db(
        &db,
        &["history", "Osric", &id, "--plot", file.to_str().unwrap()],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let story = json(&db, &["history", "Osric", &id, "--json"]);
    let text = std::fs::read_to_string(&file).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("the SVG parses");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let title = doc
        .descendants()
        .find(|n| n.attribute("id") == Some("title"))
        .and_then(|n| n.text())
        .unwrap();
    assert!(
        title.starts_with("Osric: ") && title.contains("abdomen") && title.contains("days 1-11"),
        "{title}"
    );
    for series in [
        "level",
        "healing-rate",
        "infection",
        "blood-loss",
        "impairment",
        "permanent",
    ] {
        let line = doc
            .descendants()
            .find(|n| n.tag_name().name() == "polyline" && n.attribute("id") == Some(series))
            .unwrap_or_else(|| panic!("no {series} series"));
        assert!(!line.attribute("points").unwrap().is_empty());
    }
    let rolls = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("roll"))
        .count();
    assert_eq!(rolls, story["entries"].as_array().unwrap().len());
    let labels: Vec<&str> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("label"))
        .filter_map(|n| n.text())
        .collect();
    assert!(
        labels.iter().any(|l| l.starts_with("Injury Level")),
        "{labels:?}"
    );
    assert!(doc
        .descendants()
        .any(|n| n.attribute("class") == Some("day") && n.text() == Some("day 11")));
    // Without an injury there is no wound to draw: a usage error, nothing written.
    // The same picture as PNG (by the file's extension): the SVG's size, its title drawn
    // (dark pixels where the title's text is: the embedded font, whatever the machine has),
    // and each series' line where the SVG puts its first point.
    let png = dir.path().join("osric.png");
    let out = run_db(
        &db,
        &["history", "Osric", &id, "--plot", png.to_str().unwrap()],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let bytes = std::fs::read(&png).unwrap();
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG file");
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(&bytes).expect("the PNG decodes");
    let svg = doc.root_element();
    let size = |a: &str| svg.attribute(a).unwrap().parse::<f64>().unwrap() as u32;
    assert_eq!(
        (pixmap.width(), pixmap.height()),
        (size("width"), size("height"))
    );
    let dark = |x: u32, y: u32| {
        let p = pixmap.pixel(x, y).unwrap();
        u32::from(p.red()) + u32::from(p.green()) + u32::from(p.blue()) < 600
    };
    let title_at = doc
        .descendants()
        .find(|n| n.attribute("id") == Some("title"))
        .unwrap();
    let (tx, ty) = (
        title_at.attribute("x").unwrap().parse::<f64>().unwrap() as u32,
        title_at.attribute("y").unwrap().parse::<f64>().unwrap() as u32,
    );
    let inked = (tx..tx + 200)
        .flat_map(|x| (ty.saturating_sub(14)..ty + 2).map(move |y| (x, y)))
        .filter(|&(x, y)| dark(x, y))
        .count();
    assert!(inked > 100, "the title is drawn ({inked} dark pixels)");
    for series in ["level", "healing-rate", "blood-loss"] {
        let points = doc
            .descendants()
            .find(|n| n.tag_name().name() == "polyline" && n.attribute("id") == Some(series))
            .and_then(|n| n.attribute("points"))
            .unwrap();
        let (x, y) = points
            .split_whitespace()
            .next()
            .unwrap()
            .split_once(',')
            .unwrap();
        let (x, y) = (x.parse::<f64>().unwrap(), y.parse::<f64>().unwrap());
        let near = (x as u32 - 1..=x as u32 + 1)
            .flat_map(|px| (y as u32 - 1..=y as u32 + 1).map(move |py| (px, py)))
            .any(|(px, py)| {
                let p = pixmap.pixel(px, py).unwrap();
                (p.red(), p.green(), p.blue()) != (255, 255, 255)
            });
        assert!(near, "the {series} line is drawn at {x},{y}");
    }
    let other = dir.path().join("none.svg");
    let out = run_db(
        &db,
        &["history", "Osric", "--plot", other.to_str().unwrap()],
    );
    assert_eq!(out.code, 2);
    assert!(!other.exists());
}

/// Issue 26, item 9: an import carries the sheet; a character who carries more (open
/// wounds, a Shock State) is refused in one line naming what cannot come, with nothing
/// written, unless --sheet-only, which says what stays behind.
#[test]
fn an_import_never_drops_a_wound_in_silence() {
    let gm = Scratch::with_osric();
    gm.ok(&common::thorax_strike("Osric", "8", "shock=12"));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("kaldor.json");
    let out = run_db(&gm.db, &["export"]);
    std::fs::write(&file, &out.stdout).unwrap();
    let other = Scratch::new();
    other.ok(&["init", "--name", "elsewhere"]);
    let before = other.bytes();
    let out = other.run(&["import", file.to_str().unwrap(), "--character", "Osric"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert_eq!(out.stderr.trim().lines().count(), 1, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("Osric carries what an import cannot bring (")
            && out.stderr.contains("open wound"),
        "{}",
        out.stderr
    );
    assert_eq!(other.bytes(), before);
    let out = other.run(&[
        "import",
        file.to_str().unwrap(),
        "--character",
        "Osric",
        "--sheet-only",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains("left behind, --sheet-only: Osric: "),
        "{}",
        out.stderr
    );
}

/// Issue 26, item 9: an import carries what a character carries (weapons, armour, skills)
/// when the campaign's arms define it, and refuses in one line naming what they do not.
#[test]
fn an_import_carries_equipment_or_names_the_arms_it_lacks() {
    let gm = Scratch::with_osric();
    gm.ok(&["arms", "load", "--starter"]);
    gm.ok(&[
        "character",
        "equip",
        "Osric",
        "--weapon",
        "broadsword",
        "--armour",
        "quilt coat",
        "--melee",
        "60",
    ]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("kaldor.json");
    std::fs::write(&file, run_db(&gm.db, &["export"]).stdout).unwrap();
    let other = Scratch::new();
    other.ok(&["init", "--name", "elsewhere"]);
    let before = other.bytes();
    let out = other.run(&["import", file.to_str().unwrap()]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert_eq!(
        out.stderr.trim(),
        "error: Osric carries broadsword, quilt coat, which this campaign's arms do not define: load them first (leechbook arms load --starter, or a file), or pass --sheet-only"
    );
    assert_eq!(other.bytes(), before);
    other.ok(&["arms", "load", "--starter"]);
    let out = other.ok(&["import", file.to_str().unwrap()]);
    assert!(
        out.contains("imported Osric (the sheet and equipment)"),
        "{out}"
    );
    // Equipped as at home: the export of the new campaign carries the same gear.
    let again: serde_json::Value =
        serde_json::from_str(&run_db(&other.db, &["export"]).stdout).unwrap();
    assert_eq!(again["characters"][0]["gear"]["weapons"][0], "broadsword");
    assert_eq!(again["characters"][0]["gear"]["armour"][0], "quilt coat");
    assert_eq!(again["characters"][0]["gear"]["skills"]["melee"], 60);
}
