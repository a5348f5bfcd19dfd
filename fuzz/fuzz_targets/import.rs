//! Fuzzes the sync import path: any bytes at all give `Ok` or an error, never a panic, and a
//! refused import leaves the ledger exactly as it was.

#![no_main]

use leechbook_store::Store;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut store = Store::create(&dir.path().join("f.db")).expect("store");
    // The campaign's keys, as a device that joined holds them: without them every import
    // stops at the missing key, before the parser the fuzzer is here for.
    let ring = leechbook_sync::Keyring::generate(store.campaign());
    leechbook_sync::crypt::keep_keyring(&mut store, &ring).expect("keys");
    let before = store.events().expect("events");
    if leechbook_sync::import_bytes(&mut store, data).is_err() {
        assert_eq!(store.events().expect("events"), before);
    }
});
