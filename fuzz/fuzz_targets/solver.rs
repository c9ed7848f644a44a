//! libFuzzer entry of the `solver` target (`cargo fuzz run solver --sanitizer none`); the target
//! itself is `slink_fuzz::solver`, which `tests/fuzz.rs` also drives on stable.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| slink_fuzz::solver(data));
