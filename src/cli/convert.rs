//! `slink convert`: puzzles from streams or puzz.link URLs, and boards with marks (framed pictures, `pzprv3` files), written as a puzzle stream, URLs, `pzprv3` files or framed boards, without solving.

use super::hint::read_boards;
use super::input::{Inputs, Item, Source};
use super::io::Io;
use super::{EXIT_BAD_INPUT, EXIT_OK, InputArgs};
use crate::format::{board, url};
use clap::{Args, ValueEnum};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// What `slink convert` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Target {
    /// The puzzle stream format (ending with the `0 0` line).
    Stream,
    /// One puzz.link URL per line.
    Url,
    /// A pzprjs/puzz.link `pzprv3` board file (clues, lines and crosses), one after another.
    Pzprv3,
    /// The framed board picture with lines (`---`, `|`) and crosses (`x`), numbered.
    Board,
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
    if matches!(args.to, Target::Pzprv3 | Target::Board)
        || args.files.iter().any(|f| is_board_file(f))
    {
        return run_boards(io, args);
    }
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
                    // Boards are written by `run_boards`.
                    Target::Pzprv3 | Target::Board => {}
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

/// Whether a file's first lines make it a board file (framed or `pzprv3`), read from its
/// first 4 KB.
fn is_board_file(path: &Path) -> bool {
    let mut head = Vec::new();
    match std::fs::File::open(path) {
        Ok(file) if path.is_file() => {
            let _ = file.take(4096).read_to_end(&mut head);
        }
        _ => return false,
    }
    board::sniff(&String::from_utf8_lossy(&head)).is_some()
}

/// Converts boards (with their marks) and puzzles read whole, as [`super::hint`] reads them.
fn run_boards(io: &mut Io, args: &ConvertArgs) -> i32 {
    let (boards, bad) = read_boards(io, &args.files, args.input.max_cells);
    let mut text = String::new();
    for (k, named) in boards.iter().enumerate() {
        let board = &named.board;
        match args.to {
            Target::Stream => {
                let mut bytes = Vec::new();
                board.puzzle().write_to(&mut bytes);
                text.push_str(&String::from_utf8_lossy(&bytes));
            }
            Target::Url => {
                text.push_str(&url::encode(&board.puzzle()));
                text.push('\n');
            }
            Target::Pzprv3 => board::write_pzprv3(&mut text, board),
            Target::Board => board::write_framed(&mut text, k + 1, board),
        }
    }
    if args.to == Target::Stream {
        text.push_str("0 0\n");
    }
    if let Err(status) = io.print(&text) {
        return status;
    }
    if bad { EXIT_BAD_INPUT } else { EXIT_OK }
}
