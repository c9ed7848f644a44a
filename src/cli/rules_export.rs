//! `slink rules export DIR`: the built-in rule files written into a directory, to be edited or added to (safe writes: no file replaced without `--force`, none written through a link).

use super::io::{Io, say};
use super::write_file::{Existing, write_file};
use super::{EXIT_BAD_INPUT, EXIT_OK};
use crate::format::words::count;
use crate::rules::BUILTIN_RULES;
use clap::Args;
use std::path::{Path, PathBuf};

/// Options of `slink rules export`.
#[derive(Args, Debug, Clone)]
pub struct ExportArgs {
    /// The directory to write the rule files into (made when missing).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// Replace rule files that exist already in DIR (never through a symbolic link).
    #[arg(long)]
    force: bool,
}

/// Writes the built-in rule files into the directory; returns the exit status.
pub fn run(io: &mut Io, args: &ExportArgs) -> i32 {
    if let Err(message) = super::solve::make_dir(&args.dir) {
        say!(io, "slink rules export: {message}");
        return EXIT_BAD_INPUT;
    }
    let existing = if args.force {
        Existing::Replace
    } else {
        Existing::Keep
    };
    for (name, text) in BUILTIN_RULES {
        // `rules/threes.rules` -> DIR/threes.rules
        let file = Path::new(name).file_name().unwrap_or(name.as_ref());
        if let Err(e) = write_file(&args.dir.join(file), text.as_bytes(), existing) {
            say!(io, "slink rules export: {e}");
            return EXIT_BAD_INPUT;
        }
    }
    let dir = args.dir.display();
    say!(
        io,
        "slink: wrote the built-in set's {} to {dir}; `slink --rules {dir}` uses them as they \
         are edited (each rule is proven sound first), and `slink --rules builtin --rules \
         MINE` adds the rules of MINE to the built-in set",
        count(BUILTIN_RULES.len(), "rule file")
    );
    EXIT_OK
}
