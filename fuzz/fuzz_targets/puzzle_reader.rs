//! libFuzzer entry of the `puzzle_reader` target (`cargo fuzz run puzzle_reader --sanitizer none`); the target
//! itself is `slink_fuzz::puzzle_reader`, which `tests/fuzz.rs` also drives on stable.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| slink_fuzz::puzzle_reader(data));
