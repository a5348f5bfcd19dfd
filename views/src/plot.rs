//! A wound's timeline as an SVG picture (`history NAME INJURY --plot FILE`): over campaign
//! days, the injury level, its healing rate, the infection's healing rate, the character's
//! blood loss and the injury's impairment (indefinite and permanent), each a step line in a
//! panel of its own with its values on its axis; Extended Shock and coma shaded across the
//! panels; every roll marked under them where it was made, coloured and lettered by its
//! outcome (S, F, CS, CF); a death drawn as a line. Written by hand: a handful of lines,
//! rectangles and labels needs no plotting library.

use std::fmt::Write;

/// The state of the wound after one event of its story.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Campaign time in days since day 1 00:00 (fractional).
    pub day: f64,
    /// Injury Level (0 healed).
    pub level: f64,
    /// Healing Rate.
    pub healing_rate: f64,
    /// The infection's Healing Rate (0: no infection).
    pub infection: f64,
    /// The character's blood loss points.
    pub blood_loss: f64,
    /// Indefinite impairment.
    pub impairment: f64,
    /// Permanent impairment.
    pub permanent: f64,
    /// The roll or event here, in words (a marker's title).
    pub event: String,
    /// The roll's outcome (`S`, `F`, `CS`, `CF`), if the event was a test.
    pub outcome: Option<&'static str>,
    /// The character is in Extended Shock after it.
    pub extended_shock: bool,
    /// The character is in a coma after it.
    pub coma: bool,
    /// The character is dead after it.
    pub dead: bool,
}

/// One series of the picture: its id, label, the largest value its panel shows, and how
/// a sample gives it.
struct Series {
    id: &'static str,
    label: &'static str,
    max: f64,
    value: fn(&Sample) -> f64,
}

const SERIES: [Series; 6] = [
    Series {
        id: "level",
        label: "Injury Level",
        max: 5.0,
        value: |s| s.level,
    },
    Series {
        id: "healing-rate",
        label: "Healing Rate",
        max: 6.0,
        value: |s| s.healing_rate,
    },
    Series {
        id: "infection",
        label: "Infection HR",
        max: 6.0,
        value: |s| s.infection,
    },
    Series {
        id: "blood-loss",
        label: "Blood loss (BP)",
        max: 4.0,
        value: |s| s.blood_loss,
    },
    Series {
        id: "impairment",
        label: "Impairment",
        max: 25.0,
        value: |s| s.impairment,
    },
    Series {
        id: "permanent",
        label: "Permanent impairment",
        max: 25.0,
        value: |s| s.permanent,
    },
];

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The colour of a roll's marker by its outcome: successes green, failures red, a critical
/// darker; an event that is no test grey.
fn colour(outcome: Option<&str>) -> &'static str {
    match outcome {
        Some("CS") => "#063",
        Some("S") => "#2a7",
        Some("F") => "#d44",
        Some("CF") => "#800",
        _ => "#888",
    }
}

/// The stretches of the story (first and last day) where `on` holds: from the sample that
/// began one to the next sample where it no longer holds (or the story's end).
fn stretches(samples: &[Sample], on: fn(&Sample) -> bool, end: f64) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    let mut from: Option<f64> = None;
    for s in samples {
        match (from, on(s)) {
            (None, true) => from = Some(s.day),
            (Some(f), false) => {
                out.push((f, s.day));
                from = None;
            }
            _ => {}
        }
    }
    if let Some(f) = from {
        out.push((f, end));
    }
    out
}

/// The ticks along the bottom of a plot from `first` to `last` (in days): days, or for a
/// `short` story the first "nice" step (1, 5, 10, 30 minutes, 1, 2, 6 hours) that gives at
/// most ten.
fn ticks(first: f64, last: f64, short: bool) -> Vec<(f64, String)> {
    const MINUTE: f64 = 1.0 / 1440.0;
    let mut ticks: Vec<(f64, String)> = Vec::new();
    if short {
        let step = [1.0, 5.0, 10.0, 30.0, 60.0, 120.0, 360.0]
            .into_iter()
            .map(|m| m * MINUTE)
            .find(|s| (last - first) / s <= 10.0)
            .unwrap_or(360.0 * MINUTE);
        let mut t = (first / step).ceil() * step;
        while t <= last + 1e-9 {
            let minutes = (t * 1440.0).round() as i64;
            ticks.push((
                t,
                format!(
                    "day {} {:02}:{:02}",
                    minutes / 1440 + 1,
                    minutes % 1440 / 60,
                    minutes % 60
                ),
            ));
            t += step;
        }
    } else {
        let span = (last - first).ceil().max(1.0) as i64;
        let step = (span / 10).max(1);
        let mut d = first.floor() as i64;
        while (d as f64) <= last {
            if (d as f64) >= first {
                ticks.push((d as f64, format!("day {}", d + 1)));
            }
            d += step;
        }
    }
    ticks
}

// The SVG plot's layout, in pixels: its width, the margins left (the panels' labels) and
// right, the title above, each panel's height and the gap between panels, and the band of
// roll marks below them.
const W: f64 = 900.0;
const LEFT: f64 = 200.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 50.0;
const PANEL: f64 = 70.0;
const GAP: f64 = 16.0;
const MARKS: f64 = 34.0;

/// A death on the plot: a black line through every panel and the marks, named.
fn death(out: &mut String, samples: &[Sample], x: &dyn Fn(f64) -> f64, bottom: f64) {
    if let Some(d) = samples.iter().find(|s| s.dead) {
        let _ = writeln!(
            out,
            r##"<line class="death" x1="{0:.1}" y1="{TOP}" x2="{0:.1}" y2="{1}" stroke="#000" stroke-width="2"><title>{2}</title></line>"##,
            x(d.day),
            bottom + MARKS,
            escape(&d.event)
        );
        // Its label on the side with room.
        let (lx, anchor) = if x(d.day) - LEFT > 40.0 {
            (x(d.day) - 4.0, "end")
        } else {
            (x(d.day) + 4.0, "start")
        };
        let _ = writeln!(
            out,
            r#"<text class="death-label" x="{lx:.1}" y="{}" text-anchor="{anchor}">dies</text>"#,
            TOP + 12.0
        );
    }
}

/// The picture: `title` on top, a panel per series with its values, the states shaded, the
/// rolls marked under the panels, the days along the bottom.
pub fn svg(title: &str, samples: &[Sample]) -> String {
    let panels = SERIES.len() as f64 * (PANEL + GAP) - GAP;
    let bottom = TOP + panels;
    let height = bottom + MARKS + 40.0;
    let first = samples.first().map_or(0.0, |s| s.day);
    let end = samples.last().map_or(first, |s| s.day);
    // A story of less than a day is drawn over its own hours (at least ten minutes), with
    // times along the bottom; a longer one over its days.
    const MINUTE: f64 = 1.0 / 1440.0;
    let short = end - first < 1.0;
    let last = if short {
        end.max(first + 10.0 * MINUTE) + (end - first) * 0.05
    } else {
        end
    };
    let x = |day: f64| LEFT + (day - first) / (last - first) * (W - LEFT - RIGHT);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{height}" viewBox="0 0 {W} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        out,
        r#"<text id="title" x="{LEFT}" y="24" font-size="16">{}</text>"#,
        escape(title)
    );
    // Extended Shock and coma, shaded across every panel, named in a legend on top.
    let mut legend = W - RIGHT;
    for (class, word, fill, on) in [
        (
            "extended-shock",
            "Extended Shock",
            "#f5a623",
            (|s: &Sample| s.extended_shock) as fn(&Sample) -> bool,
        ),
        ("coma", "coma", "#6a5acd", |s: &Sample| s.coma),
    ] {
        let spans = stretches(samples, on, last);
        for (a, b) in &spans {
            let _ = writeln!(
                out,
                r#"<rect class="{class}" x="{:.1}" y="{TOP}" width="{:.1}" height="{panels}" fill="{fill}" fill-opacity="0.18"><title>{word}</title></rect>"#,
                x(*a),
                (x(*b) - x(*a)).max(2.0)
            );
        }
        if !spans.is_empty() {
            let _ = writeln!(
                out,
                r#"<text class="legend" x="{legend}" y="40" text-anchor="end" fill="{fill}">{word}</text>"#
            );
            legend -= 12.0 + 7.0 * word.len() as f64;
        }
    }
    // The ticks along the bottom, a light line at each.
    let ticks = ticks(first, last, short);
    for (t, _) in &ticks {
        let _ = writeln!(
            out,
            r##"<line class="grid" x1="{0:.1}" y1="{TOP}" x2="{0:.1}" y2="{1}" stroke="#eee"/>"##,
            x(*t),
            bottom + MARKS
        );
    }
    for (i, s) in SERIES.iter().enumerate() {
        let top = TOP + i as f64 * (PANEL + GAP);
        let y = |v: f64| top + PANEL - (v / s.max).clamp(0.0, 1.0) * PANEL;
        let _ = writeln!(
            out,
            r##"<rect x="{LEFT}" y="{top}" width="{}" height="{PANEL}" fill="none" stroke="#ccc"/>"##,
            W - LEFT - RIGHT
        );
        let _ = writeln!(
            out,
            r#"<text class="label" x="8" y="{}">{}</text>"#,
            top + PANEL / 2.0 + 4.0,
            s.label
        );
        // The panel's values: its bottom, middle and top.
        for v in [0.0, s.max / 2.0, s.max] {
            let _ = writeln!(
                out,
                r##"<text class="tick" x="{}" y="{:.1}" text-anchor="end" fill="#666" font-size="10">{}</text>"##,
                LEFT - 6.0,
                y(v) + 4.0,
                v
            );
        }
        // A step line: each value holds until the next sample.
        let mut points = Vec::new();
        for (k, sample) in samples.iter().enumerate() {
            let v = (s.value)(sample);
            if k > 0 {
                points.push(format!(
                    "{:.1},{:.1}",
                    x(sample.day),
                    y((s.value)(&samples[k - 1]))
                ));
            }
            points.push(format!("{:.1},{:.1}", x(sample.day), y(v)));
        }
        let _ = writeln!(
            out,
            r##"<polyline id="{}" class="series" points="{}" fill="none" stroke="#b22" stroke-width="2"/>"##,
            s.id,
            points.join(" ")
        );
    }
    // Every roll, marked under the panels where it was made, coloured and lettered by its
    // outcome; its words as the marker's title.
    let _ = writeln!(
        out,
        r#"<text class="label" x="8" y="{}">Rolls</text>"#,
        bottom + 22.0
    );
    for sample in samples {
        let cx = x(sample.day);
        let _ = writeln!(
            out,
            r#"<circle class="roll" cx="{cx:.1}" cy="{}" r="4" fill="{}"><title>{}</title></circle>"#,
            bottom + 12.0,
            colour(sample.outcome),
            escape(&sample.event)
        );
        if let Some(o) = sample.outcome {
            let _ = writeln!(
                out,
                r#"<text class="outcome" x="{cx:.1}" y="{}" text-anchor="middle" font-size="9" fill="{}">{o}</text>"#,
                bottom + 28.0,
                colour(Some(o))
            );
        }
    }
    death(&mut out, samples, &x, bottom);
    // Days (or times) along the bottom.
    for (t, label) in ticks {
        let _ = writeln!(
            out,
            r#"<text class="day" x="{:.1}" y="{}" text-anchor="middle">{label}</text>"#,
            x(t),
            bottom + MARKS + 20.0
        );
    }
    out.push_str("</svg>\n");
    out
}

/// The font PNG pictures are drawn with (DejaVu Sans, under the Bitstream Vera licence in
/// `views/assets/DejaVuSans.LICENSE`): carried in the binary, so a picture's labels never
/// depend on the fonts a machine happens to have.
const FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");

/// The same picture as [`svg`], rasterised to PNG (for a virtual tabletop or a chat that
/// shows no SVG). The SVG is the one source; this only draws it.
pub fn png(title: &str, samples: &[Sample]) -> Result<Vec<u8>, String> {
    use resvg::{tiny_skia, usvg};
    let mut opt = usvg::Options {
        font_family: "DejaVu Sans".to_string(),
        ..usvg::Options::default()
    };
    opt.fontdb_mut().load_font_data(FONT.to_vec());
    let svg = svg(title, samples).replace(
        r#"font-family="sans-serif""#,
        r#"font-family="DejaVu Sans""#,
    );
    let tree = usvg::Tree::from_str(&svg, &opt).map_err(|e| e.to_string())?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| "the picture has no size".to_string())?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| e.to_string())
}
