//! `slink gen`: random Slink puzzles that the built-in rules (or those of `--rules DIR`) finish,
//! and with `--blanks` ordinary Slitherlink puzzles that deduction finishes without guessing.
//!
//! The puzzles go to standard output in the input format, followed by the `0 0` end line, so the
//! output can be piped straight into `slink`. Puzzles are made on `--jobs` threads (puzzle `i`
//! depends only on the options and `i`, so the output does not depend on the threads), and
//! written in order; on a terminal a bar shows the puzzles kept and the candidates tried.

use super::io::{Io, say};
use super::{EXIT_BAD_INPUT, EXIT_OK, RulesArg, TrustArg, parse_jobs};
use crate::discover::progress::Progress;
use crate::format::words::count;
use crate::generate::{
    GenError, GenOptions, GenStats, Generated, Generator, GradeStep, LoopShape, Symmetry,
};
use crate::rules::compile::RuleBook;
use clap::{Args, ValueEnum};
use std::collections::BTreeMap;
use std::io::{BufWriter, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Duration;

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
    #[arg(long, requires = "blanks", conflicts_with = "grade")]
    pub no_probing: bool,
    /// With --blanks: the symmetry of the clue layout (a cell is blank exactly when its
    /// images are): `none`, `180` (half turn), `90` (quarter turn, square grids), `mirror`
    /// (left-right).
    #[arg(long, value_enum, default_value_t = SymmetryArg::None, requires = "blanks")]
    pub symmetry: SymmetryArg,
    /// With --blanks: every clue is needed (removing any one, or any symmetric orbit of
    /// clues, leaves several solutions), as the complete search proves; the puzzle may then
    /// need search.
    #[arg(long, requires = "blanks")]
    pub minimal: bool,
    /// With --blanks: no two side-by-side cells both hold the clue 0.
    #[arg(long, requires = "blanks")]
    pub no_adjacent_zeros: bool,
    /// With --blanks: the puzzle needs exactly this step of the grade scale (what
    /// `slink --grade` prints): rules, loop-closure, colouring, connectivity, parity, probing or
    /// search.
    #[arg(long, value_name = "STEP", value_parser = parse_grade, requires = "blanks")]
    pub grade: Option<GradeStep>,
    /// The shape of the loops: `mixed` (the default), `blob` (round and compact) or `maze`
    /// (long thin corridors over the whole grid).
    #[arg(long, value_enum, default_value_t = ShapeArg::Mixed)]
    pub shape: ShapeArg,
    /// Generate on N threads (default: every core); the output is the same.
    #[arg(long, short = 'j', value_name = "N", value_parser = parse_jobs)]
    pub jobs: Option<usize>,
}

/// The values of `--symmetry`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SymmetryArg {
    /// No symmetry.
    None,
    /// Half turn.
    #[value(name = "180")]
    Half,
    /// Quarter turn (square grids only).
    #[value(name = "90")]
    Quarter,
    /// Left-right mirror.
    Mirror,
}

impl From<SymmetryArg> for Symmetry {
    fn from(arg: SymmetryArg) -> Symmetry {
        match arg {
            SymmetryArg::None => Symmetry::None,
            SymmetryArg::Half => Symmetry::Half,
            SymmetryArg::Quarter => Symmetry::Quarter,
            SymmetryArg::Mirror => Symmetry::Mirror,
        }
    }
}

/// The values of `--shape`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ShapeArg {
    /// Any loop.
    Mixed,
    /// Round and compact.
    Blob,
    /// Long and winding.
    Maze,
}

impl From<ShapeArg> for LoopShape {
    fn from(arg: ShapeArg) -> LoopShape {
        match arg {
            ShapeArg::Mixed => LoopShape::Mixed,
            ShapeArg::Blob => LoopShape::Blob,
            ShapeArg::Maze => LoopShape::Maze,
        }
    }
}

/// Parses a step of the grade scale.
fn parse_grade(text: &str) -> Result<GradeStep, String> {
    GradeStep::from_name(text).ok_or_else(|| {
        let names: Vec<&str> = GradeStep::ALL.iter().map(|s| s.name()).collect();
        format!("`{text}`: give one of {}", names.join(", "))
    })
}

/// Generates the puzzles; returns the exit status.
pub fn run(io: &mut Io, args: &GenArgs) -> i32 {
    let mut options = GenOptions::new(args.rows, args.cols).with_shape(args.shape.into());
    if args.blanks {
        options = options.with_blanks(!args.no_probing);
    }
    options.seed = args.seed;
    options.max_level = args.level;
    options.symmetry = args.symmetry.into();
    options.minimal = args.minimal;
    options.no_adjacent_zeros = args.no_adjacent_zeros;
    options.grade = args.grade;
    if let Err(e) = options.validate() {
        say!(io, "slink gen: {e}");
        return EXIT_BAD_INPUT;
    }
    let book = match args.rules.load(io, args.trust) {
        Ok(book) => book,
        Err(status) => return status,
    };
    if let Err(e) = Generator::new(options.clone(), book.clone()) {
        say!(io, "slink gen: {e}");
        return EXIT_BAD_INPUT;
    }
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, args.count.max(1));
    let progress = if io.err_terminal {
        Progress::shown()
    } else {
        Progress::hidden()
    };
    let bar = progress.stage("gen", args.count);
    let counter = Arc::new(AtomicU64::new(0));
    let stop = AtomicBool::new(false);
    let next = AtomicU64::new(0);
    let (tx, rx) = mpsc::channel::<(u64, Result<Generated, GenError>)>();
    let mut out = BufWriter::with_capacity(1 << 16, &mut *io.out);
    let mut errors = Vec::new();
    let mut status = EXIT_OK;
    let mut written_ok = Ok(());
    let stats = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs)
            .map(|_| {
                let (tx, options, book) = (tx.clone(), options.clone(), book.clone());
                let (counter, stop, next) = (Arc::clone(&counter), &stop, &next);
                scope.spawn(move || work(options, book, args.count, counter, stop, next, tx))
            })
            .collect();
        drop(tx);
        let mut pending = BTreeMap::new();
        let mut wanted = 0u64;
        let mut buffer = Vec::new();
        while wanted < args.count as u64 {
            match rx.recv_timeout(Duration::from_millis(200)) {
                Ok((i, result)) => {
                    pending.insert(i, result);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            while let Some(result) = pending.remove(&wanted) {
                wanted += 1;
                match result {
                    Ok(generated) => {
                        buffer.clear();
                        generated.puzzle.write_to(&mut buffer);
                        bar.tick();
                        if let Err(e) = out.write_all(&buffer) {
                            written_ok = Err(e);
                        }
                    }
                    Err(e) => {
                        errors.push(format!("slink gen: {e}"));
                        status = EXIT_BAD_INPUT;
                    }
                }
                if written_ok.is_err() || status != EXIT_OK {
                    stop.store(true, Ordering::Relaxed);
                    wanted = u64::MAX;
                    break;
                }
            }
            let tried = counter.load(Ordering::Relaxed);
            bar.note(format!("puzzles kept, {tried} candidates tried"));
        }
        stop.store(true, Ordering::Relaxed);
        workers
            .into_iter()
            .map(|w| w.join().expect("no generator panics"))
            .fold(GenStats::default(), add_stats)
    });
    bar.done();
    // Even after a failure, so that the puzzles written so far form a complete stream.
    let end = written_ok
        .and_then(|()| out.write_all(b"0 0\n"))
        .and_then(|()| out.flush());
    drop(out);
    for e in errors {
        say!(io, "{e}");
    }
    if let Err(e) = end {
        return write_failed(io, &e);
    }
    if args.stats {
        let s = stats;
        let rejected = s.candidates - s.puzzles;
        say!(
            io,
            "slink gen: {} from {}: {rejected} rejected ({} stuck, {}, {}, {} unfit after blanking), {:.2} rejected per puzzle",
            count(s.puzzles, "puzzle"),
            count(s.candidates, "candidate"),
            s.stuck,
            count(s.contradictions, "contradiction"),
            count(s.mismatches, "other loop"),
            s.unfit,
            rejected as f64 / s.puzzles.max(1) as f64
        );
    }
    status
}

/// One generating thread: takes the next puzzle index until `count` or `stop`, sends each
/// puzzle (or why there is none); returns its counts.
fn work(
    options: GenOptions,
    book: RuleBook,
    count: usize,
    counter: Arc<AtomicU64>,
    stop: &AtomicBool,
    next: &AtomicU64,
    tx: mpsc::Sender<(u64, Result<Generated, GenError>)>,
) -> GenStats {
    let Ok(mut generator) = Generator::new(options, book) else {
        return GenStats::default();
    };
    generator.count_candidates(counter);
    while !stop.load(Ordering::Relaxed) {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= count as u64 {
            break;
        }
        let result = generator.puzzle_at(i);
        let failed = result.is_err();
        if tx.send((i, result)).is_err() || failed {
            break;
        }
    }
    generator.stats()
}

/// The sum of two runs' counts.
fn add_stats(a: GenStats, b: GenStats) -> GenStats {
    GenStats {
        puzzles: a.puzzles + b.puzzles,
        candidates: a.candidates + b.candidates,
        stuck: a.stuck + b.stuck,
        contradictions: a.contradictions + b.contradictions,
        mismatches: a.mismatches + b.mismatches,
        unfit: a.unfit + b.unfit,
    }
}

/// Reports a failed write (quietly for a closed pipe) and returns the exit status.
fn write_failed(io: &mut Io, e: &std::io::Error) -> i32 {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return EXIT_OK;
    }
    say!(io, "slink gen: cannot write the puzzles: {e}");
    EXIT_BAD_INPUT
}
