//! How a recorded roll went for the one who rolled it: the colour of its line.

use leechbook_core::fold::Applied;

/// How a recorded roll went for the one who rolled it, as a page or board colours its line:
/// `bad` when its test failed (F, CF) or what it did is bad news (a death, an infection,
/// Extended Shock, a coma, Bleeding Out, perishing), `good` when its test succeeded, else
/// `neutral`. A CF is never good news, whatever was recorded.
pub fn tone(applied: &Applied, line: &str, consequences: &[String]) -> &'static str {
    const BAD: [&str; 9] = [
        "DIES",
        "infect",
        "Extended Shock",
        "coma",
        "Bleeding Out",
        "perishes",
        "Failure",
        "fails",
        "aggravated",
    ];
    let bad_news = |t: &str| BAD.iter().any(|b| t.contains(b));
    if consequences.iter().any(|c| bad_news(c)) {
        return "bad";
    }
    match applied.tests().last() {
        Some(t) if t.level.is_success() => "good",
        Some(_) => "bad",
        None if bad_news(line) => "bad",
        None if ["Success", "Raise", "survives", "stabilis", "recovers"]
            .iter()
            .any(|g| line.contains(g)) =>
        {
            "good"
        }
        None => "neutral",
    }
}
