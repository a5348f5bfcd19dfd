//! A wound's timeline as an SVG picture (`history NAME INJURY --plot FILE`): over campaign
//! days, the injury level, its healing rate, the infection's healing rate, the character's
//! blood loss and the injury's impairment (indefinite and permanent), each a step line in a
//! panel of its own, with every roll marked where it was made. Written by hand: a handful
//! of lines, rectangles and labels needs no plotting library.

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

/// The picture: `title` on top, a panel per series, the days along the bottom.
pub fn svg(title: &str, samples: &[Sample]) -> String {
    const W: f64 = 860.0;
    const LEFT: f64 = 170.0;
    const RIGHT: f64 = 20.0;
    const TOP: f64 = 50.0;
    const PANEL: f64 = 70.0;
    const GAP: f64 = 16.0;
    let height = TOP + SERIES.len() as f64 * (PANEL + GAP) + 40.0;
    let first = samples.first().map_or(0.0, |s| s.day);
    let last = samples.last().map_or(1.0, |s| s.day).max(first + 1.0);
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
            r#"<text class="label" x="8" y="{}">{} (0-{})</text>"#,
            top + PANEL / 2.0,
            s.label,
            s.max
        );
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
    // Every roll, marked where it was made, across all panels.
    let bottom = TOP + SERIES.len() as f64 * (PANEL + GAP) - GAP;
    for sample in samples {
        let _ = writeln!(
            out,
            r##"<line class="roll" x1="{0:.1}" y1="{TOP}" x2="{0:.1}" y2="{bottom}" stroke="#36c" stroke-opacity="0.35"><title>{1}</title></line>"##,
            x(sample.day),
            escape(&sample.event)
        );
    }
    // Days along the bottom.
    let span = (last - first).ceil().max(1.0) as i64;
    let step = (span / 10).max(1);
    let mut d = first.floor() as i64;
    while (d as f64) <= last {
        if (d as f64) >= first {
            let _ = writeln!(
                out,
                r#"<text class="day" x="{:.1}" y="{}" text-anchor="middle">day {}</text>"#,
                x(d as f64),
                bottom + 20.0,
                d + 1
            );
        }
        d += step;
    }
    out.push_str("</svg>\n");
    out
}

/// The font PNG pictures are drawn with (DejaVu Sans, under the Bitstream Vera licence in
/// `cli/assets/DejaVuSans.LICENSE`): carried in the binary, so a picture's labels never
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
