//! libFuzzer entry of the `command_line` target (`cargo fuzz run command_line --sanitizer none`); the target
//! itself is `slink_fuzz::command_line`, which `tests/fuzz.rs` also drives on stable.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| slink_fuzz::command_line(data));
