//! `slink convert`: puzzles from streams or puzz.link URLs, written as a puzzle stream or as URLs, without solving.

use super::input::{Inputs, Item, Source};
use super::io::Io;
use super::{EXIT_BAD_INPUT, EXIT_OK, InputArgs};
use crate::format::url;
use clap::{Args, ValueEnum};
use std::io::Write;
use std::path::PathBuf;

/// What `slink convert` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Target {
    /// The puzzle stream format (ending with the `0 0` line).
    Stream,
    /// One puzz.link URL per line.
    Url,
}

/// Options of `slink convert`.
#[derive(Args, Debug, Clone)]
pub struct ConvertArgs {
    /// Puzzle stream files, files of URLs, or URLs; standard input when none is given.
    #[arg(value_name = "FILE|URL")]
    files: Vec<PathBuf>,
    /// What to write.
    #[arg(long, value_enum)]
    to: Target,
    #[command(flatten)]
    input: InputArgs,
}

/// Converts every puzzle of the sources; returns the exit status.
pub fn run(io: &mut Io, args: &ConvertArgs) -> i32 {
    let sources = Source::of_args(&args.files);
    let Io {
        stdin, out, err, ..
    } = io;
    let mut inputs = Inputs::new(sources, &mut **stdin, args.input.max_cells);
    let mut bad = false;
    let mut buffer = Vec::new();
    let mut written = Ok(());
    while let Some(item) = inputs.next(&mut **out) {
        match item {
            Item::Puzzle { puzzle, .. } => {
                buffer.clear();
                match args.to {
                    Target::Stream => puzzle.write_to(&mut buffer),
                    Target::Url => {
                        buffer.extend_from_slice(url::encode(&puzzle).as_bytes());
                        buffer.push(b'\n');
                    }
                }
                written = out.write_all(&buffer);
            }
            Item::Problem(message) => {
                bad = true;
                let _ = writeln!(err, "{message}");
            }
            Item::Warning(message) => {
                let _ = writeln!(err, "{message}");
            }
        }
        if written.is_err() {
            break;
        }
    }
    if written.is_ok() && args.to == Target::Stream {
        written = out.write_all(b"0 0\n");
    }
    let written = written.and_then(|()| out.flush());
    match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            let _ = writeln!(err, "slink: cannot write: {e}");
            EXIT_BAD_INPUT
        }
        _ if bad => EXIT_BAD_INPUT,
        _ => EXIT_OK,
    }
}
