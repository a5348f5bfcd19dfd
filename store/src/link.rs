//! An event's **link** in its device's chain, hashed as the envelope is encoded, never
//! encoding it into memory first (see [`crate::codec::link_of`] for what a link is).
//!
//! A link is SHA-256 of [`crate::codec::encode_envelope`]'s bytes: the codec byte, then
//! bincode of the envelope's fields in order. Bincode of a struct is its fields' encodings
//! one after another, so the hasher is fed the same bytes field by field: the header (ids,
//! numbers, the wall time as chrono writes it, the campaign time, the schema), the event,
//! the signature. `verify` streams a million events and computes a link for each: the
//! envelope encoded into a growing buffer, the wall time formatted by chrono's general
//! writer, cost more than the hash.
//!
//! [`link_of_stored`] takes the event's bytes as the log stores them (its payload) instead
//! of encoding the decoded event again: the same bytes whenever the payload is the
//! encoding this build writes, which every payload a Leechbook wrote is. A payload written
//! otherwise (bytes edited by hand that decode to the same event, an older codec) links
//! differently; `verify` then takes [`crate::codec::link_of`] too, so that it judges no
//! chain otherwise than it did.

use chrono::{DateTime, Datelike, Timelike, Utc};
use leechbook_core::ids::{CampaignId, DeviceId, EventId};
use leechbook_core::time::CampaignTime;
use serde::{Serialize, Serializer};
use sha2::{Digest, Sha256};

/// The envelope's fields before its event, as it encodes them.
#[derive(Serialize)]
struct Head<'a> {
    id: &'a EventId,
    campaign: &'a CampaignId,
    device: &'a DeviceId,
    seq: u64,
    clock: u64,
    wall: Wall<'a>,
    at: CampaignTime,
    schema: u16,
}

/// A wall time encoded as chrono encodes it (RFC 3339, `Z`, the fewest of 0, 3, 6 or 9
/// fraction digits that hold it), written here for the times a device records (a year of
/// four digits, whole milliseconds) and by chrono otherwise.
struct Wall<'a>(&'a DateTime<Utc>);

impl Serialize for Wall<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match rfc3339_millis(self.0) {
            Some((buf, len)) => {
                // Only ASCII digits and separators are written.
                let text = std::str::from_utf8(&buf[..len]).unwrap_or_default();
                s.serialize_str(text)
            }
            None => self.0.serialize(s),
        }
    }
}

/// `2026-03-01T20:00:00Z` or `2026-03-01T20:00:00.120Z`, as chrono's `AutoSi` writes a
/// time of whole milliseconds in a four-digit year; `None` for any other time.
fn rfc3339_millis(t: &DateTime<Utc>) -> Option<([u8; 24], usize)> {
    let nanos = t.nanosecond();
    let year = t.year();
    if !(0..=9999).contains(&year) || nanos % 1_000_000 != 0 || nanos >= 1_000_000_000 {
        return None;
    }
    let mut buf = *b"0000-00-00T00:00:00.000Z";
    let mut put = |at: usize, value: u32, width: usize| {
        let mut v = value;
        for i in (0..width).rev() {
            buf[at + i] = b'0' + (v % 10) as u8;
            v /= 10;
        }
    };
    put(0, year as u32, 4);
    put(5, t.month(), 2);
    put(8, t.day(), 2);
    put(11, t.hour(), 2);
    put(14, t.minute(), 2);
    put(17, t.second(), 2);
    if nanos == 0 {
        buf[19] = b'Z';
        return Some((buf, 20));
    }
    put(20, nanos / 1_000_000, 3);
    Some((buf, 24))
}

fn feed(h: &mut Sha256, value: &impl Serialize) {
    // Hashing cannot fail: the hasher takes every byte.
    if let Err(e) = bincode::serde::encode_into_std_write(value, h, bincode::config::standard()) {
        unreachable!("hashing an envelope failed: {e}");
    }
}

fn head(h: &mut Sha256, env: &leechbook_core::Envelope) {
    h.update([crate::codec::CODEC_BINCODE2]);
    feed(
        h,
        &Head {
            id: &env.id,
            campaign: &env.campaign,
            device: &env.device,
            seq: env.seq,
            clock: env.clock,
            wall: Wall(&env.wall),
            at: env.at,
            schema: env.schema,
        },
    );
}

/// The link of `env`: SHA-256 of its encoding, fed field by field.
pub(crate) fn link(env: &leechbook_core::Envelope) -> [u8; 32] {
    let mut h = Sha256::new();
    head(&mut h, env);
    feed(&mut h, &env.event);
    feed(&mut h, &env.signature);
    h.finalize().into()
}

/// The link of `env` whose event the log stores as `payload` (its codec byte, then the
/// event's bytes), hashing those bytes as they are; `None` for a payload of another codec.
pub fn link_of_stored(env: &leechbook_core::Envelope, payload: &[u8]) -> Option<[u8; 32]> {
    let (&codec, event) = payload.split_first()?;
    if codec != crate::codec::CODEC_BINCODE2 {
        return None;
    }
    let mut h = Sha256::new();
    head(&mut h, env);
    h.update(event);
    feed(&mut h, &env.signature);
    Some(h.finalize().into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn by_encoding(env: &leechbook_core::Envelope) -> [u8; 32] {
        Sha256::digest(crate::codec::encode_envelope(env)).into()
    }

    /// Fed field by field, from the event or from its stored payload, the hash is the hash
    /// of the envelope's encoding, for every event of a synthetic campaign and wall times
    /// at the ends chrono writes otherwise (a fraction finer than a millisecond, years of
    /// five digits and before the common era, a leap second).
    #[test]
    fn a_link_hashes_the_envelopes_encoding() {
        let events = leechbook_core::synthetic::campaign(3_000);
        let walls = [
            Utc.timestamp_millis_opt(0).unwrap(),
            Utc.timestamp_millis_opt(1_767_225_600_120).unwrap(),
            Utc.timestamp_millis_opt(1_767_225_600_001).unwrap(),
            Utc.timestamp_millis_opt(253_402_300_799_999).unwrap(),
            Utc.timestamp_millis_opt(253_402_300_800_000).unwrap(),
            Utc.timestamp_millis_opt(-62_167_219_200_001).unwrap(),
            Utc.timestamp_opt(1_767_225_600, 123_456).unwrap(),
            Utc.timestamp_opt(1_767_225_599, 1_500_000_000).unwrap(),
            Utc.timestamp_nanos(i64::MAX),
        ];
        // Written here where chrono would write the same, else left to chrono.
        let mut written = 0;
        for w in &walls {
            if let Some((buf, len)) = rfc3339_millis(w) {
                let chrono = w.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true);
                assert_eq!(std::str::from_utf8(&buf[..len]).unwrap(), chrono);
                written += 1;
            }
        }
        assert_eq!(written, 4, "the four-digit years of whole milliseconds");
        let mut tried = 0;
        for (i, env) in events.iter().enumerate() {
            let mut env = env.clone();
            if let Some(w) = walls.get(i % 20) {
                env.wall = *w;
            }
            if i % 3 == 0 {
                env.signature = Some(vec![2; 97]);
            }
            let payload = crate::codec::encode_event(&env.event);
            assert_eq!(link(&env), by_encoding(&env), "{env:?}");
            assert_eq!(link_of_stored(&env, &payload), Some(by_encoding(&env)));
            tried += 1;
        }
        assert_eq!(tried, events.len());
        // Another codec's payload is not hashed as stored.
        let env = &events[1];
        let mut payload = crate::codec::encode_event(&env.event);
        payload[0] = 9;
        assert_eq!(link_of_stored(env, &payload), None);
    }
}
