//! `slink gen`: random Slink puzzles that the built-in rules (or those of `--rules DIR`) finish,
//! and with `--blanks` ordinary Slitherlink puzzles that deduction finishes without guessing.
//!
//! The puzzles go to standard output in the input format, followed by the `0 0` end line, so the
//! output can be piped straight into `slink`.

use super::io::{Io, say};
use super::{EXIT_BAD_INPUT, EXIT_OK, RulesArg, TrustArg};
use crate::format::words::count;
use crate::generate::{GenOptions, Generator};
use clap::Args;
use std::cell::Cell;
use std::io::{BufWriter, Write};
use std::rc::Rc;
use std::time::{Duration, Instant};

/// Options of `slink gen`.
#[derive(Args, Debug, Clone)]
pub struct GenArgs {
    /// Cell rows.
    #[arg(long)]
    pub rows: usize,
    /// Cell columns.
    #[arg(long)]
    pub cols: usize,
    /// How many puzzles.
    #[arg(long, default_value_t = 1)]
    pub count: usize,
    /// Seed of the random generator: the same seed gives the same output.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub rules: RulesArg,
    #[command(flatten)]
    pub trust: TrustArg,
    /// Print counts of candidates drawn and rejected on standard error at the end.
    #[arg(long)]
    pub stats: bool,
    /// Ordinary Slitherlink: blank clues, in random order, while the puzzle stays uniquely
    /// solvable by deduction (rules, loop closure, colouring and probing; never search).
    #[arg(long)]
    pub blanks: bool,
    /// Judge with the rules of at most this level only (e.g. 1: no corner rules).
    #[arg(long, value_name = "N")]
    pub level: Option<u32>,
    /// With --blanks: judge without probing (rules plus loop closure and colouring).
    #[arg(long, requires = "blanks")]
    pub no_probing: bool,
}

/// Generates the puzzles; returns the exit status.
pub fn run(io: &mut Io, args: &GenArgs) -> i32 {
    let mut options = GenOptions::new(args.rows, args.cols);
    if args.blanks {
        options = options.with_blanks(!args.no_probing);
    }
    options.seed = args.seed;
    options.max_level = args.level;
    if let Err(e) = options.validate() {
        say!(io, "slink gen: {e}");
        return EXIT_BAD_INPUT;
    }
    let book = match args.rules.load(io, args.trust) {
        Ok(book) => book,
        Err(status) => return status,
    };
    let mut generator = match Generator::new(options, book) {
        Ok(generator) => generator,
        Err(e) => {
            say!(io, "slink gen: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    let shown = if io.err_terminal && args.blanks {
        blanking_line(&mut generator, args.count)
    } else {
        Rc::default()
    };
    let mut out = BufWriter::with_capacity(1 << 16, &mut *io.out);
    let mut buffer = Vec::new();
    let mut errors = Vec::new();
    let mut status = EXIT_OK;
    for _ in 0..args.count {
        let generated = match generator.next_puzzle() {
            Ok(generated) => generated,
            Err(e) => {
                errors.push(format!("slink gen: {e}"));
                status = EXIT_BAD_INPUT;
                break;
            }
        };
        buffer.clear();
        generated.puzzle.write_to(&mut buffer);
        if let Err(e) = out.write_all(&buffer) {
            drop(out);
            return write_failed(io, &e);
        }
    }
    // Even after a failure, so that the puzzles written so far form a complete stream.
    let end = out.write_all(b"0 0\n").and_then(|()| out.flush());
    drop(out);
    if shown.get() {
        io.say_raw("\r\x1b[K");
    }
    for e in errors {
        say!(io, "{e}");
    }
    if let Err(e) = end {
        return write_failed(io, &e);
    }
    if args.stats {
        let s = generator.stats();
        let rejected = s.candidates - s.puzzles;
        say!(
            io,
            "slink gen: {} from {}: {rejected} rejected ({} stuck, {}, {}), {:.2} rejected per puzzle",
            count(s.puzzles, "puzzle"),
            count(s.candidates, "candidate"),
            s.stuck,
            count(s.contradictions, "contradiction"),
            count(s.mismatches, "other loop"),
            rejected as f64 / s.puzzles.max(1) as f64
        );
    }
    status
}

/// How long `gen --blanks` runs before its progress line shows.
const LINE_AFTER: Duration = Duration::from_secs(2);

/// On a terminal: a progress line on standard error (redrawn in place, at most ten times a
/// second) once blanking clues has taken [`LINE_AFTER`]; the flag says whether it showed.
fn blanking_line(generator: &mut Generator, count: usize) -> Rc<Cell<bool>> {
    let shown = Rc::new(Cell::new(false));
    let flag = Rc::clone(&shown);
    let started = Instant::now();
    let mut drawn = started;
    generator.on_blanking(move |at| {
        let now = Instant::now();
        if now - started < LINE_AFTER || now - drawn < Duration::from_millis(100) {
            return;
        }
        drawn = now;
        flag.set(true);
        let mut err = std::io::stderr();
        let _ = write!(
            err,
            "\r\x1b[Kslink gen: puzzle {} of {count}: blanking clues, {} of {} tried, {:.0} s elapsed",
            at.index + 1,
            at.tried,
            at.cells,
            (now - started).as_secs_f64()
        );
        let _ = err.flush();
    });
    shown
}

/// Reports a failed write (quietly for a closed pipe) and returns the exit status.
fn write_failed(io: &mut Io, e: &std::io::Error) -> i32 {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return EXIT_OK;
    }
    say!(io, "slink gen: cannot write the puzzles: {e}");
    EXIT_BAD_INPUT
}
