//! The fuzz targets of `fuzz/` on the stable toolchain, without any extra tool: every input
//! kept under `fuzz/regressions/<target>/` (inputs that once broke slink) and every seed under
//! `fuzz/seeds/<target>/` must pass, then random inputs do (proptest: random bytes, and seeds
//! with random bytes overwritten, inserted and deleted).
//!
//! The coverage-guided runs use libFuzzer through `cargo fuzz` (see `fuzz/README.md`);
//! `SLINK_FUZZ_CASES` sets the number of random inputs per target here (default 1024).

#[path = "../fuzz/src/lib.rs"]
mod targets;

use proptest::prelude::*;
use std::path::PathBuf;

/// The files of `fuzz/<kind>/<target>/`, with their names. A target that never broke has
/// no regressions directory (git keeps no empty directory).
fn inputs(kind: &str, target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join(kind)
        .join(target);
    if kind == "regressions" && !dir.exists() {
        return Vec::new();
    }
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_file())
        .map(|path| {
            let bytes = std::fs::read(&path).unwrap();
            (path.display().to_string(), bytes)
        })
        .collect();
    files.sort();
    files
}

/// Runs a target on every kept input; a panic names the file.
fn replay(target: &str, run: fn(&[u8])) {
    for kind in ["regressions", "seeds"] {
        for (name, bytes) in inputs(kind, target) {
            if std::panic::catch_unwind(|| run(&bytes)).is_err() {
                panic!("{name} breaks the `{target}` target again");
            }
        }
    }
}

#[test]
fn kept_inputs_pass() {
    replay("puzzle_reader", targets::puzzle_reader);
    replay("rule_files", targets::rule_files);
    replay("solver", targets::solver);
    replay("urls", targets::urls);
    replay("command_line", targets::command_line);
    assert!(!inputs("seeds", "rule_files").is_empty());
}

fn cases() -> u32 {
    std::env::var("SLINK_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1024)
}

/// Random bytes, or a seed of `target` with random edits.
fn input(target: &'static str) -> impl Strategy<Value = Vec<u8>> {
    let seeds: Vec<Vec<u8>> = inputs("seeds", target)
        .into_iter()
        .map(|(_, b)| b)
        .collect();
    let edits = prop::collection::vec((any::<prop::sample::Index>(), 0u8..3, any::<u8>()), 0..12);
    let mutated = (prop::sample::select(seeds), edits).prop_map(|(mut bytes, edits)| {
        for (at, kind, byte) in edits {
            let i = at.index(bytes.len() + 1);
            match kind {
                0 if i < bytes.len() => bytes[i] = byte,
                1 => bytes.insert(i, byte),
                _ if i < bytes.len() => {
                    bytes.remove(i);
                }
                _ => {}
            }
        }
        bytes
    });
    prop_oneof![prop::collection::vec(any::<u8>(), 0..600), mutated]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_puzzle_streams(data in input("puzzle_reader")) {
        targets::puzzle_reader(&data);
    }

    #[test]
    fn random_rule_files(data in input("rule_files")) {
        targets::rule_files(&data);
    }

    #[test]
    fn random_urls(data in input("urls")) {
        targets::urls(&data);
    }

    #[test]
    fn random_command_line_inputs(data in input("command_line")) {
        targets::command_line(&data);
    }

    #[test]
    fn random_small_puzzles(data in prop::collection::vec(any::<u8>(), 0..64)) {
        targets::solver(&data);
    }
}
