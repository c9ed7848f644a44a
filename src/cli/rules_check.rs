//! `slink rules check`: parse and check every rule file, prove each rule sound, report duplicates and subsumed variants.

use super::{EXIT_OK, load_set};
use std::path::Path;

/// Runs the check; returns the exit status.
pub fn run(dir: Option<&Path>) -> i32 {
    match load_set(dir) {
        Ok(_) => EXIT_OK,
        Err(status) => status,
    }
}
