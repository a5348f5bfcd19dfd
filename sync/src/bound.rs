//! Bounds on what automerge is asked to load: a few kilobytes of foreign bytes must never cost
//! a device gigabytes.
//!
//! automerge keeps its columns compressed twice over (DEFLATE, then run lengths), so a
//! document of 10 KB can hold a string of 8 MB or millions of operations, and loading it builds
//! every one. Leechbook's own documents are nothing like that: every value is a sealed entry
//! (random bytes, at least 109 of them, which compress to nothing), so a genuine document holds
//! at most one operation per few dozen bytes and inflates to about its own size. Before a
//! document or a change is loaded, [`check`] reads its chunk headers, inflates its compressed
//! columns within a budget and counts its operations from the run lengths of its action
//! column (never building them), and refuses what no Leechbook device could have written:
//! - more than [`OPS_PER_BYTE`]'s share of operations ([`FREE_OPS`] free), or more than
//!   [`CHANGES_PER_BYTE`]'s share of changes ([`FREE_CHANGES`] free);
//! - columns that inflate past [`INFLATION`] times the bytes given ([`FREE_BYTES`] free);
//! - a chunk of a kind Leechbook never writes (a bundle, an unknown kind).
//!
//! The check reads each byte once and inflates at most the budget, so its cost is a small
//! multiple of the input's size.

use std::io::Read;

/// One operation per this many bytes given is the most a Leechbook document holds (a put of
/// a sealed entry costs well over 100 bytes; a deletion is paid for by the put it undoes).
pub const OPS_PER_BYTE: u64 = 8;
/// Operations any input may hold whatever its size.
pub const FREE_OPS: u64 = 4096;
/// One change per this many bytes given is the most a Leechbook document holds (each change
/// a device makes puts at least one sealed value of 109 bytes or more).
pub const CHANGES_PER_BYTE: u64 = 16;
/// Changes any input may hold whatever its size.
pub const FREE_CHANGES: u64 = 4096;
/// The most compressed columns may inflate to, as a multiple of the bytes given.
pub const INFLATION: u64 = 16;
/// Inflated bytes any input may hold whatever its size.
pub const FREE_BYTES: u64 = 1 << 20;

const MAGIC: [u8; 4] = [0x85, 0x6f, 0x4a, 0x83];
/// A column's compressed bit in its specification.
const DEFLATE: u32 = 0b1000;
/// The action column of the operations: column 4, of integers.
const ACTION: u32 = (4 << 4) | 2;
/// The actor column of a document's changes: column 0, of actors (one row per change).
const CHANGE_ACTOR: u32 = 1;

/// What an input costs to load, as far as its headers and run lengths tell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    /// The operations it holds.
    pub ops: u64,
    /// The changes it holds.
    pub changes: u64,
    /// The bytes its compressed parts inflate to.
    pub inflated: u64,
}

/// Refuses what would cost far more to load than its size: see the module's documentation.
/// The error names what is wrong, in words.
pub fn check(bytes: &[u8]) -> Result<Cost, String> {
    Meter::default().check(bytes)
}

/// Whether a document may be kept or written out: its whole save (compressed, as a sync
/// file, a join file or a joining device's first sync carries it) metered afresh, with no
/// budget from anything else. A document that grew by changes each small enough to pass on
/// a connection (a hub's operator squatting the index with tens of thousands of junk keys)
/// can fail this whole; then no device keeps it, writes it or publishes from it, so the
/// junk never reaches a device's own documents or the files it writes.
pub fn admit(doc: &automerge::Automerge) -> Result<Cost, String> {
    check(&doc.save())
}

/// A running check over everything one source sends (a sync file, a connection): the budget
/// grows with the bytes it sent, and the operations free of charge are granted once, so a
/// flood of small inputs buys no more than one large one.
#[derive(Debug, Default)]
pub struct Meter {
    bytes: u64,
    cost: Cost,
}

impl Meter {
    /// Checks the next input of this source (automerge chunks, one after another).
    pub fn check(&mut self, bytes: &[u8]) -> Result<Cost, String> {
        self.bytes = self.bytes.saturating_add(bytes.len() as u64);
        let budget = Budget {
            ops: FREE_OPS.saturating_add(self.bytes / OPS_PER_BYTE),
            changes: FREE_CHANGES.saturating_add(self.bytes / CHANGES_PER_BYTE),
            inflated: FREE_BYTES.saturating_add(self.bytes.saturating_mul(INFLATION)),
        };
        let mut at = Cursor { b: bytes, at: 0 };
        while at.at < bytes.len() {
            chunk(&mut at, &budget, &mut self.cost)?;
        }
        Ok(self.cost)
    }

    /// Checks a message of the sync engine's wire protocol before the engine reads it: the
    /// changes or document a sync message carries, and the Bloom filters it asks the engine
    /// to probe. A message of another type is left to the engine; a sync message that does
    /// not parse is refused (the engine would refuse it too).
    pub fn wire(&mut self, message: &[u8]) -> Result<(), String> {
        let (document, data) = match sync_data(message) {
            Wire::Other => return Ok(()),
            Wire::Unreadable => {
                return Err("a sync message that does not parse".to_string());
            }
            Wire::Sync(document, data) => (document, data),
        };
        let m = automerge::sync::Message::decode(&data)
            .map_err(|_| format!("document {document}: a sync message that does not parse"))?;
        for have in &m.have {
            bloom(&have.bloom.to_bytes()).map_err(|why| format!("document {document}: {why}"))?;
        }
        // The message's own bytes pay for what it carries, once.
        self.bytes = self.bytes.saturating_add(message.len() as u64);
        for chunk in m.changes.iter() {
            self.bytes = self.bytes.saturating_sub(chunk.len() as u64);
            self.check(chunk)
                .map_err(|why| format!("document {document}: {why}"))?;
        }
        Ok(())
    }
}

/// The most probes and bits per entry a Bloom filter may ask for (automerge's own filters
/// use 7 and 10).
const BLOOM_MAX: u64 = 64;

/// Refuses a Bloom filter whose shape would cost the engine far more than its size (a
/// billion probes per hash) or crash it (no bits at all).
fn bloom(bytes: &[u8]) -> Result<(), String> {
    if bytes.is_empty() {
        return Ok(());
    }
    let mut c = Cursor { b: bytes, at: 0 };
    let entries = c.uleb()?;
    let bits = c.uleb()?;
    let probes = c.uleb()?;
    if entries > 0 && (bits == 0 || bits > BLOOM_MAX || probes == 0 || probes > BLOOM_MAX) {
        return Err(format!(
            "a Bloom filter of {bits} bits per entry and {probes} probes, which no sync engine sends"
        ));
    }
    Ok(())
}

/// What a wire message is to the meter.
enum Wire {
    /// Not a sync message (a handshake, an ephemeral message, ...).
    Other,
    /// A sync or request message that does not parse.
    Unreadable,
    /// A sync or request message: its document id and its data.
    Sync(String, Vec<u8>),
}

/// Reads a wire message (a CBOR map) as far as the meter needs.
fn sync_data(message: &[u8]) -> Wire {
    let mut d = minicbor::Decoder::new(message);
    let Some(n) = d.map().ok().flatten() else {
        return Wire::Other;
    };
    let (mut kind, mut document, mut data) = (None, String::new(), None);
    for _ in 0..n {
        let Ok(key) = d.str() else {
            return Wire::Other;
        };
        let read = match key {
            "type" => d.str().map(|t| kind = Some(t.to_string())).is_ok(),
            // The engine reads a document id as text or as bytes.
            "documentId" => match d.datatype() {
                Ok(minicbor::data::Type::Bytes) => d
                    .bytes()
                    .map(|b| document = b.iter().map(|x| format!("{x:02x}")).collect())
                    .is_ok(),
                _ => d.str().map(|t| document = t.to_string()).is_ok(),
            },
            "data" => d.bytes().map(|b| data = Some(b.to_vec())).is_ok(),
            _ => d.skip().is_ok(),
        };
        if !read {
            return match kind.as_deref() {
                Some("sync" | "request") => Wire::Unreadable,
                _ => Wire::Other,
            };
        }
    }
    match (kind.as_deref(), data) {
        (Some("sync" | "request"), Some(data)) => Wire::Sync(document, data),
        (Some("sync" | "request"), None) => Wire::Unreadable,
        _ => Wire::Other,
    }
}

struct Budget {
    ops: u64,
    changes: u64,
    inflated: u64,
}

fn over(what: &str) -> String {
    format!(
        "it holds {what} than any Leechbook document of its size (a foreign or crafted document)"
    )
}

struct Cursor<'a> {
    b: &'a [u8],
    at: usize,
}

const CUT: &str = "it is cut short or does not parse as automerge data";

impl<'a> Cursor<'a> {
    fn take(&mut self, n: u64) -> Result<&'a [u8], String> {
        let n = usize::try_from(n).map_err(|_| CUT.to_string())?;
        let end = self.at.checked_add(n).ok_or(CUT)?;
        let s = self.b.get(self.at..end).ok_or(CUT)?;
        self.at = end;
        Ok(s)
    }

    fn uleb(&mut self) -> Result<u64, String> {
        let mut out = 0u64;
        for i in 0..10 {
            let byte = *self.take(1)?.first().ok_or(CUT)?;
            out |= u64::from(byte & 0x7f) << (7 * i);
            if byte & 0x80 == 0 {
                return Ok(out);
            }
        }
        Err(CUT.to_string())
    }

    fn sleb(&mut self) -> Result<i64, String> {
        let mut out = 0i64;
        let mut shift = 0;
        loop {
            let byte = *self.take(1)?.first().ok_or(CUT)?;
            if shift < 64 {
                out |= i64::from(byte & 0x7f) << shift;
            }
            shift += 7;
            if byte & 0x80 == 0 {
                if shift < 64 && byte & 0x40 != 0 {
                    out |= -1i64 << shift;
                }
                return Ok(out);
            }
            if shift > 70 {
                return Err(CUT.to_string());
            }
        }
    }

    /// A length-prefixed list of length-prefixed byte strings (actor ids).
    fn actors(&mut self) -> Result<(), String> {
        for _ in 0..self.uleb()? {
            let n = self.uleb()?;
            self.take(n)?;
        }
        Ok(())
    }

    /// A list of column specifications and lengths.
    fn columns(&mut self) -> Result<Vec<(u32, u64)>, String> {
        let n = self.uleb()?;
        let mut out = Vec::new();
        for _ in 0..n {
            let spec = u32::try_from(self.uleb()?).map_err(|_| CUT.to_string())?;
            out.push((spec, self.uleb()?));
        }
        Ok(out)
    }
}

/// Inflates `data` within what the budget has left.
fn inflate(data: &[u8], budget: &Budget, cost: &mut Cost) -> Result<Vec<u8>, String> {
    let left = budget.inflated.saturating_sub(cost.inflated);
    let mut out = Vec::new();
    flate2::read::DeflateDecoder::new(data)
        .take(left.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(|_| CUT.to_string())?;
    cost.inflated = cost.inflated.saturating_add(out.len() as u64);
    if cost.inflated > budget.inflated {
        return Err(over("more compressed data"));
    }
    Ok(out)
}

/// Counts the entries of a run-length encoded column of integers (the action column: one
/// entry per operation; a document's actor column of changes: one per change) without
/// expanding a run, into `count`, refusing past `limit`.
fn run_lengths(data: &[u8], count: &mut u64, limit: u64, what: &str) -> Result<(), String> {
    let mut c = Cursor { b: data, at: 0 };
    while c.at < data.len() {
        let n = c.sleb()?;
        let rows = if n > 0 {
            c.uleb()?;
            n.unsigned_abs()
        } else if n < 0 {
            for _ in 0..n.unsigned_abs() {
                c.uleb()?;
            }
            n.unsigned_abs()
        } else {
            c.uleb()?
        };
        *count = count.saturating_add(rows);
        if *count > limit {
            return Err(over(what));
        }
    }
    Ok(())
}

/// One more change, within the budget.
fn one_change(budget: &Budget, cost: &mut Cost) -> Result<(), String> {
    cost.changes = cost.changes.saturating_add(1);
    if cost.changes > budget.changes {
        return Err(over("more changes"));
    }
    Ok(())
}

/// Which rows a run of columns counts: operations (the action column) or changes (a
/// document's change actor column).
#[derive(Clone, Copy)]
enum Rows {
    Ops,
    Changes,
}

/// Reads a list of columns (whose data starts at the cursor), inflating the compressed ones
/// within the budget and counting the `rows` of the column that has one per row.
fn columns(
    at: &mut Cursor<'_>,
    columns: &[(u32, u64)],
    rows: Rows,
    budget: &Budget,
    cost: &mut Cost,
) -> Result<(), String> {
    let (counted, limit, what) = match rows {
        Rows::Ops => (ACTION, budget.ops, "more operations"),
        Rows::Changes => (CHANGE_ACTOR, budget.changes, "more changes"),
    };
    for &(spec, len) in columns {
        let data = at.take(len)?;
        let plain;
        let data = if spec & DEFLATE != 0 {
            plain = inflate(data, budget, cost)?;
            &plain[..]
        } else {
            data
        };
        if spec & !DEFLATE == counted {
            let count = match rows {
                Rows::Ops => &mut cost.ops,
                Rows::Changes => &mut cost.changes,
            };
            run_lengths(data, count, limit, what)?;
        }
    }
    Ok(())
}

/// The contents of a change chunk (after its header).
fn change(at: &mut Cursor<'_>, budget: &Budget, cost: &mut Cost) -> Result<(), String> {
    let deps = at.uleb()?;
    at.take(deps.saturating_mul(32))?;
    let actor = at.uleb()?;
    at.take(actor)?;
    at.uleb()?; // seq
    at.uleb()?; // start op
    at.sleb()?; // time
    let message = at.uleb()?;
    at.take(message)?;
    at.actors()?;
    let op_columns = at.columns()?;
    columns(at, &op_columns, Rows::Ops, budget, cost)
}

/// One chunk: a document, a change or a compressed change.
fn chunk(at: &mut Cursor<'_>, budget: &Budget, cost: &mut Cost) -> Result<(), String> {
    if at.take(4)? != MAGIC {
        return Err("it is not automerge data".to_string());
    }
    at.take(4)?; // checksum (automerge checks it when it loads)
    let kind = *at.take(1)?.first().ok_or(CUT)?;
    let len = at.uleb()?;
    let body = at.take(len)?;
    let mut c = Cursor { b: body, at: 0 };
    match kind {
        0 => {
            c.actors()?;
            let heads = c.uleb()?;
            c.take(heads.saturating_mul(32))?;
            let change_columns = c.columns()?;
            let op_columns = c.columns()?;
            columns(&mut c, &change_columns, Rows::Changes, budget, cost)?;
            columns(&mut c, &op_columns, Rows::Ops, budget, cost)
        }
        1 => {
            one_change(budget, cost)?;
            change(&mut c, budget, cost)
        }
        2 => {
            one_change(budget, cost)?;
            let plain = inflate(body, budget, cost)?;
            change(&mut Cursor { b: &plain, at: 0 }, budget, cost)
        }
        other => Err(format!(
            "it holds a kind of automerge chunk ({other}) that Leechbook never writes"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use automerge::{transaction::Transactable, Automerge, ObjType, ReadDoc, ROOT};

    #[test]
    fn the_cost_counted_is_the_documents_own() {
        // A document of 300 puts of 120 random-like bytes, saved whole and as changes.
        let mut doc = Automerge::new();
        for batch in 0..3 {
            let mut tx = doc.transaction();
            for i in 0..100u32 {
                let v: Vec<u8> = (0..120u32)
                    .map(|j| (j.wrapping_mul(2654435761) ^ i ^ batch) as u8)
                    .collect();
                tx.put(ROOT, format!("{batch}-{i}"), v).unwrap();
            }
            tx.commit();
        }
        let whole = doc.save();
        let cost = check(&whole).unwrap();
        assert_eq!(cost.ops, doc.stats().num_ops);
        assert_eq!(cost.ops, 300);
        assert_eq!(cost.changes, 3);
        let changes = doc.save_after(&[]);
        assert_eq!(check(&changes).unwrap().ops, 300);
        assert_eq!(check(&changes).unwrap().changes, 3);
        // A document with a deletion counts it as the operation it is.
        let mut tx = doc.transaction();
        tx.delete(ROOT, "0-0").unwrap();
        tx.commit();
        assert_eq!(check(&doc.save()).unwrap().ops, doc.stats().num_ops);
        assert!(check(&Automerge::new().save()).is_ok());
    }

    #[test]
    fn a_small_document_of_many_empty_changes_is_refused_before_it_loads() {
        let mut doc = Automerge::new();
        for _ in 0..10_000 {
            doc.empty_commit(automerge::transaction::CommitOptions::default());
        }
        let bytes = doc.save();
        assert!(bytes.len() < 60_000, "{} bytes", bytes.len());
        let why = check(&bytes).unwrap_err();
        assert!(why.contains("more changes"), "{why}");
    }

    #[test]
    fn a_small_document_of_many_operations_is_refused_before_it_loads() {
        // 200,000 characters of text: a few kilobytes saved, 200,000 operations loaded.
        let mut doc = Automerge::new();
        let mut tx = doc.transaction();
        let text = tx.put_object(ROOT, "t", ObjType::Text).unwrap();
        tx.splice_text(&text, 0, 0, &"a".repeat(200_000)).unwrap();
        tx.commit();
        let bytes = doc.save();
        assert!(bytes.len() < 20_000, "{} bytes", bytes.len());
        let why = check(&bytes).unwrap_err();
        assert!(why.contains("more operations"), "{why}");
        // As changes, too.
        assert!(check(&doc.save_after(&[])).is_err());
        // And as a long string in one value: its columns inflate past the budget.
        let mut doc = Automerge::new();
        let mut tx = doc.transaction();
        tx.put(ROOT, "s", "b".repeat(8 << 20)).unwrap();
        tx.commit();
        let bytes = doc.save();
        assert!(bytes.len() < 100_000, "{} bytes", bytes.len());
        let why = check(&bytes).unwrap_err();
        assert!(why.contains("more compressed data"), "{why}");
    }

    /// A wire message as the sync engine frames it (a CBOR map), with the document id as
    /// text or as bytes (the engine reads either).
    fn wire_message(kind: &str, id_as_bytes: bool, data: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut e = minicbor::Encoder::new(&mut out);
        e.map(3).unwrap();
        e.str("type").unwrap().str(kind).unwrap();
        e.str("documentId").unwrap();
        if id_as_bytes {
            e.bytes(&[7u8; 16]).unwrap();
        } else {
            e.str("2bPkzQGXDWUQ3jDXW4hpkfnpbHQE").unwrap();
        }
        e.str("data").unwrap().bytes(data).unwrap();
        out
    }

    #[test]
    fn a_sync_message_carrying_a_bomb_is_refused_whatever_its_document_id_is() {
        let mut doc = Automerge::new();
        let mut tx = doc.transaction();
        let text = tx.put_object(ROOT, "t", ObjType::Text).unwrap();
        tx.splice_text(&text, 0, 0, &"a".repeat(100_000)).unwrap();
        tx.commit();
        let message = automerge::sync::Message {
            heads: doc.get_heads(),
            need: Vec::new(),
            have: Vec::new(),
            changes: vec![doc.save_after(&[])].into(),
            flags: None,
            version: automerge::sync::MessageVersion::V1,
        }
        .encode();
        for as_bytes in [false, true] {
            let why = Meter::default()
                .wire(&wire_message("sync", as_bytes, &message))
                .unwrap_err();
            assert!(why.contains("more operations"), "{why}");
        }
        // A sync message that does not parse is refused; another type is the engine's.
        assert!(Meter::default()
            .wire(&wire_message("sync", false, b"junk"))
            .is_err());
        assert!(Meter::default()
            .wire(&wire_message("ephemeral", false, b"junk"))
            .is_ok());
        // An honest message passes.
        let mut small = Automerge::new();
        small
            .transact(|tx| tx.put(ROOT, "k", vec![1u8; 300]).map(|_| ()))
            .unwrap();
        let honest = automerge::sync::Message {
            heads: small.get_heads(),
            need: Vec::new(),
            have: Vec::new(),
            changes: vec![small.save_after(&[])].into(),
            flags: None,
            version: automerge::sync::MessageVersion::V1,
        }
        .encode();
        assert!(Meter::default()
            .wire(&wire_message("sync", false, &honest))
            .is_ok());
    }

    #[test]
    fn a_bloom_filter_of_a_billion_probes_or_no_bits_is_refused() {
        let filter = |entries: u64, bits: u64, probes: u64| {
            let mut b = Vec::new();
            for v in [entries, bits, probes] {
                let mut v = v;
                loop {
                    let byte = (v & 0x7f) as u8;
                    v >>= 7;
                    b.push(if v == 0 { byte } else { byte | 0x80 });
                    if v == 0 {
                        break;
                    }
                }
            }
            b.extend_from_slice(&[0u8; 16]);
            b
        };
        assert!(bloom(&filter(10, 10, 7)).is_ok());
        assert!(bloom(&filter(10, 10, 0xFFFF_FFFF)).is_err());
        assert!(bloom(&filter(1, 0, 7)).is_err());
        assert!(bloom(&[]).is_ok());
    }

    #[test]
    fn truncated_and_foreign_bytes_are_refused_in_words() {
        let mut doc = Automerge::new();
        doc.transact(|tx| tx.put(ROOT, "k", vec![1u8; 200]).map(|_| ()))
            .unwrap();
        let bytes = doc.save();
        for cut in [1, 5, 9, bytes.len() / 2, bytes.len() - 1] {
            assert!(check(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        assert!(check(b"not automerge at all").is_err());
        assert_eq!(doc.length(ROOT), 1);
    }
}
