//! libFuzzer entry of the `urls` target (`cargo fuzz run urls --sanitizer none`); the target
//! itself is `slink_fuzz::urls`, which `tests/fuzz.rs` also drives on stable.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| slink_fuzz::urls(data));
