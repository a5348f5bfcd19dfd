//! Campaign time: the in-game clock every event carries.
//!
//! Representation (an architecture decision): a signed count of **seconds since the start of
//! campaign day 1** (day 1, 00:00:00). Seconds resolve combat: a round is a campaign setting
//! (`round_seconds`, 10 by default, overridable at `init`), and several events may share one
//! instant; their order is the fold's total order, not the clock's. Healing periods (five
//! minutes, four hours, five and ten days) are whole multiples of seconds, so due times are
//! exact. Text forms: `day 3 08:15` (and `day 3 08:15:30`) for instants; `30s`, `10m`, `4h`,
//! `5d`, `2r` (rounds) and sums such as `1d4h` for durations.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Seconds in a minute.
pub const MINUTE: i64 = 60;
/// Seconds in an hour.
pub const HOUR: i64 = 60 * MINUTE;
/// Seconds in a day.
pub const DAY: i64 = 24 * HOUR;

/// An instant of campaign time, in seconds since day 1 00:00:00.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct CampaignTime(pub i64);

/// What is wrong with a campaign time or duration.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TimeError {
    /// The text is not a campaign instant.
    #[error("'{0}' is not a campaign time (like 'day 3 08:15' or 'day 3'; days 1 to 3652500)")]
    BadInstant(String),
    /// The text is not a duration.
    #[error("'{0}' is not a duration (like 30s, 10m, 4h, 5d, 1w, 2r or 1d4h; at most ten thousand years)")]
    BadDuration(String),
}

impl CampaignTime {
    /// The start of the campaign: day 1, 00:00.
    pub const START: CampaignTime = CampaignTime(0);

    /// The last day the campaign clock reaches: ten thousand years of 365.25 days. Every
    /// campaign time an event carries, an `advance` asks for or a text names is within
    /// `-LIMIT..=LIMIT`, so no sum of two times or of a time and a duration overflows.
    pub const LAST_DAY: i64 = 3_652_500;

    /// The latest instant: the end of [`CampaignTime::LAST_DAY`].
    pub const LIMIT: CampaignTime = CampaignTime(CampaignTime::LAST_DAY * DAY);

    /// Whether this instant is within the span the campaign clock holds.
    pub fn in_span(self) -> bool {
        (-Self::LIMIT.0..=Self::LIMIT.0).contains(&self.0)
    }

    /// Returns this instant moved by `seconds`.
    pub fn plus(self, seconds: i64) -> CampaignTime {
        CampaignTime(self.0.saturating_add(seconds))
    }

    /// Returns the campaign day (1-based) this instant falls on.
    pub fn day(self) -> i64 {
        self.0.div_euclid(DAY) + 1
    }

    /// Parses `day N [HH:MM[:SS]]`.
    pub fn parse(s: &str) -> Result<CampaignTime, TimeError> {
        let bad = || TimeError::BadInstant(s.to_string());
        let t = s.trim().to_ascii_lowercase();
        let rest = t.strip_prefix("day").ok_or_else(bad)?.trim();
        let mut parts = rest.split_whitespace();
        let day: i64 = parts.next().ok_or_else(bad)?.parse().map_err(|_| bad())?;
        if !(1..=CampaignTime::LAST_DAY).contains(&day) {
            return Err(bad());
        }
        let mut secs = (day - 1) * DAY;
        if let Some(clock) = parts.next() {
            let f: Vec<&str> = clock.split(':').collect();
            if f.len() < 2 || f.len() > 3 {
                return Err(bad());
            }
            let h: i64 = f[0].parse().map_err(|_| bad())?;
            let m: i64 = f[1].parse().map_err(|_| bad())?;
            let sec: i64 = match f.get(2) {
                Some(x) => x.parse().map_err(|_| bad())?,
                None => 0,
            };
            if !(0..24).contains(&h) || !(0..60).contains(&m) || !(0..60).contains(&sec) {
                return Err(bad());
            }
            secs += h * HOUR + m * MINUTE + sec;
        }
        if parts.next().is_some() {
            return Err(bad());
        }
        Ok(CampaignTime(secs))
    }
}

impl fmt::Display for CampaignTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let in_day = self.0.rem_euclid(DAY);
        let (h, m, s) = (in_day / HOUR, (in_day % HOUR) / MINUTE, in_day % MINUTE);
        write!(f, "day {} {:02}:{:02}", self.day(), h, m)?;
        if s != 0 {
            write!(f, ":{s:02}")?;
        }
        Ok(())
    }
}

/// Parses a duration such as `10m`, `5d`, `2r` or `1d4h` into seconds; `round_seconds` gives
/// the length of a round.
pub fn parse_duration(s: &str, round_seconds: i64) -> Result<i64, TimeError> {
    let bad = || TimeError::BadDuration(s.to_string());
    let t = s.trim().to_ascii_lowercase();
    if t.is_empty() {
        return Err(bad());
    }
    let mut total: i64 = 0;
    let mut num = String::new();
    for c in t.chars() {
        if c.is_ascii_digit() {
            num.push(c);
            continue;
        }
        let n: i64 = num.parse().map_err(|_| bad())?;
        num.clear();
        let unit = match c {
            's' => 1,
            'm' => MINUTE,
            'h' => HOUR,
            'd' => DAY,
            'w' => 7 * DAY,
            'r' => round_seconds,
            _ => return Err(bad()),
        };
        total = n
            .checked_mul(unit)
            .and_then(|x| total.checked_add(x))
            .ok_or_else(bad)?;
    }
    if !num.is_empty() || total > CampaignTime::LIMIT.0 {
        return Err(bad());
    }
    Ok(total)
}

/// Formats a number of seconds as a duration (`1d 4h`, `10m`, `0s`).
pub fn format_duration(secs: i64) -> String {
    if secs == 0 {
        return "0s".into();
    }
    let mut out = Vec::new();
    let mut left = secs.saturating_abs();
    for (unit, name) in [(DAY, "d"), (HOUR, "h"), (MINUTE, "m"), (1, "s")] {
        if left >= unit {
            out.push(format!("{}{}", left / unit, name));
            left %= unit;
        }
    }
    let body = out.join(" ");
    if secs < 0 {
        format!("-{body}")
    } else {
        body
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instants_round_trip() {
        let t = CampaignTime::parse("day 30 08:00").unwrap();
        assert_eq!(t.0, 29 * DAY + 8 * HOUR);
        assert_eq!(t.to_string(), "day 30 08:00");
        assert_eq!(CampaignTime::parse("day 1").unwrap(), CampaignTime::START);
        assert_eq!(CampaignTime(70).to_string(), "day 1 00:01:10");
        assert!(CampaignTime::parse("day 0").is_err());
        assert!(CampaignTime::parse("day 2 25:00").is_err());
    }

    #[test]
    fn durations_parse() {
        assert_eq!(parse_duration("10m", 10).unwrap(), 600);
        assert_eq!(parse_duration("5d", 10).unwrap(), 5 * DAY);
        assert_eq!(parse_duration("1d4h", 10).unwrap(), DAY + 4 * HOUR);
        assert_eq!(parse_duration("3r", 10).unwrap(), 30);
        assert!(parse_duration("5", 10).is_err());
        assert!(parse_duration("5x", 10).is_err());
        assert_eq!(format_duration(DAY + 4 * HOUR), "1d 4h");
    }
}
