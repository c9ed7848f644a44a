//! `slink rules test`: run the examples of every rule and name each outcome.

use super::io::Io;
use super::{EXIT_OK, EXIT_UNSOLVED, load_dirs};
use crate::rules::examples::run_all;

/// Runs the examples; returns the exit status (1 when an example failed, 2 when the rules cannot be read).
pub fn run(io: &mut Io, dirs: &[std::path::PathBuf]) -> i32 {
    let set = match load_dirs(io, dirs) {
        Ok(set) => set,
        Err(status) => return status,
    };
    let run = run_all(&set);
    let mut text = String::new();
    for result in &run.results {
        text.push_str(&result.headline());
        text.push('\n');
        text.push_str(&result.details());
    }
    for warning in run.warnings() {
        text.push_str(&warning);
        text.push('\n');
    }
    text.push_str(&run.summary());
    text.push('\n');
    if let Err(status) = io.print(&text) {
        return status;
    }
    if run.failed() > 0 {
        EXIT_UNSOLVED
    } else {
        EXIT_OK
    }
}
