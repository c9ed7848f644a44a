//! libFuzzer entry of the `rule_files` target (`cargo fuzz run rule_files --sanitizer none`); the target
//! itself is `slink_fuzz::rule_files`, which `tests/fuzz.rs` also drives on stable.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| slink_fuzz::rule_files(data));
