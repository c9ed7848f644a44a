//! `slink solve`: read puzzle streams and URLs, solve each puzzle (on several threads with `--jobs`), and write each answer, in input order, as soon as it and every one before it are done.
//!
//! Three parts: the input ([`super::input::Inputs`]) numbers the puzzles; the solvers (one
//! per thread, each with its own [`Solver`]) turn puzzles into [`Done`] results; the
//! [`Writer`] puts results back in input order and writes them in the chosen format, with
//! messages, grades and statistics on standard error.

use super::input::{Inputs, Item, Problem, Source};
use super::interrupt::Output;
use super::io::{Io, say};
use super::write_file::{Existing, write_file};
use super::{ColourArg, EXIT_BAD_INPUT, EXIT_OK, EXIT_UNSOLVED, FormatArg, SolveArgs};
use crate::deduce::Deducer;
use crate::deduce::ambiguity::{Ambiguity, AmbiguityOptions};
use crate::engine::Tally;
use crate::format::ascii::{render_board, write_board};
use crate::format::json::{ErrorRecord, Grade, Record};
use crate::format::view::Marked;
use crate::format::words::count;
use crate::format::{svg, unicode, url};
use crate::puzzle::Puzzle;
use crate::solve::{Attempt, Outcome, Solver};
use crate::stats::Stats;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::VecDeque;
use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Solves every puzzle of the given sources; returns the exit status.
pub fn run(io: &mut Io, args: &SolveArgs) -> i32 {
    let options = args
        .budget
        .solve_options(&args.deduction, args.stats.is_some());
    // A grade and the statistics are of every rule, tried before a probe.
    let probing = options.switches.contains(Deducer::Probing);
    let plain = probing && !(args.rules_first || args.grade || args.stats.is_some());
    let loaded = if plain {
        args.rules
            .load_with_probing(io, args.trust)
            .map(|(book, late)| Solver::with_probing_instead(book, options, late))
    } else {
        args.rules
            .load(io, args.trust)
            .map(|book| Solver::with_options(book, options))
    };
    let mut solver = match loaded {
        Ok(solver) => solver,
        Err(status) => return status,
    };
    solver.set_unasked_ambiguity(true);
    // A grade counts the probes an explanation needs: the shortest chains, as `explain` takes.
    solver.set_shortest_probes(args.grade);
    if args.count.is_some() || args.suggest {
        solver.set_ambiguity(AmbiguityOptions {
            count: args.count.unwrap_or(AmbiguityOptions::default().count),
            suggest: args.suggest,
        });
    }
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let colour = match args.colour {
        ColourArg::Always => true,
        ColourArg::Never => false,
        ColourArg::Auto => {
            io.out_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    };
    // Options the chosen format has no use for are said to be ignored.
    if args.colour != ColourArg::Auto && args.format != FormatArg::Unicode {
        say!(
            io,
            "slink: warning: --color is for --format unicode; --format {} ignores it",
            format_name(args.format)
        );
    }
    if args.crosses && args.format != FormatArg::Svg {
        say!(
            io,
            "slink: warning: --crosses is for --format svg; --format {} ignores it",
            format_name(args.format)
        );
    }
    let out_dir = match out_dir(io, args) {
        Ok(dir) => dir,
        Err(status) => return status,
    };
    let mut writer = Writer {
        out_dir,
        svgs: 0,
        formatter: Formatter {
            format: args.format,
            colour,
            crosses: args.crosses,
            grade: args.grade,
            suggest: args.suggest,
            // Trusted rules may be unsound: a contradiction then is one under those rules.
            relative: args.trust.trust_rules && !args.rules.is_builtin(),
        },
        stats: args
            .stats
            .map(|view| Stats::new(solver.book(), solver.switches(), view.into())),
        unsolved: 0,
        bad_input: false,
        buffer: Vec::new(),
        progress: Progress::new(io.err_terminal && !typed_in(&args.files)),
    };
    // On a terminal, a puzzle that holds the stream for seconds is named (without --timeout).
    if io.err_terminal && args.budget.timeout.is_none() {
        slow::enable();
    }
    let sources = Source::of_args(&args.files);
    writer.progress.total = total_bytes(&sources);
    let Io {
        stdin, out, err, ..
    } = io;
    // Shared with the thread that ends the run on Ctrl-C, after the answer being written.
    let output = Output::new(&mut **out);
    let mut inputs = Inputs::new(sources, &mut **stdin, args.input.max_cells);
    writer.progress.read = inputs.bytes_read();
    let result = output.watched(|| {
        let result = if jobs == 1 {
            sequential(&mut inputs, solver, &mut writer, &output, &mut **err)
        } else {
            super::parallel::run(&mut inputs, solver, jobs, &mut writer, &output, &mut **err)
        };
        result.and_then(|()| output.flush())
    });
    writer.progress.finish();
    if let Err(e) = result
        && e.kind() != io::ErrorKind::BrokenPipe
    {
        match e
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<Refusal>())
        {
            Some(refusal) => {
                let _ = writeln!(err, "slink: {refusal}");
            }
            None => {
                let _ = writeln!(err, "slink: cannot write the answers: {e}");
            }
        }
        return EXIT_BAD_INPUT;
    }
    if let Some(dir) = &writer.out_dir {
        let _ = writeln!(
            err,
            "slink: wrote {} to {}",
            count(writer.svgs, "SVG file"),
            dir.path.display()
        );
    }
    if let Some(stats) = &writer.stats {
        let _ = err.write_all(stats.report().as_bytes());
    }
    writer.status()
}

/// Whether the puzzles come from standard input and that is a terminal: a person typing
/// them in, who is shown no bar.
fn typed_in(files: &[std::path::PathBuf]) -> bool {
    let stdin = Source::of_args(files)
        .iter()
        .any(|s| matches!(s, Source::Stdin));
    stdin && std::io::stdin().is_terminal()
}

/// One input item, done: a solved puzzle, or a message.
// Nearly every item is a solved puzzle, so boxing it would cost an allocation per puzzle
// to shrink the rare messages.
#[allow(clippy::large_enum_variant)]
pub(super) enum Done {
    /// A puzzle and what solving it gave.
    Solved {
        number: usize,
        source: Arc<str>,
        puzzle: Puzzle,
        attempt: Attempt,
        tally: Option<Tally>,
        time: Duration,
    },
    /// A puzzle solved and already written out in the chosen format (by a solver thread).
    Rendered {
        number: usize,
        source: Arc<str>,
        /// The puzzle's cells.
        cells: usize,
        bytes: Vec<u8>,
        notes: Notes,
    },
    /// Input that could not be read.
    Problem(Problem),
    /// A warning.
    Warning(String),
}

/// Solves one puzzle, counting what each rule does when statistics are on.
fn solve(solver: &mut Solver, puzzle: &Puzzle, count: bool) -> (Attempt, Option<Tally>, Duration) {
    let started = Instant::now();
    if count {
        let mut tally = Tally::new(solver.book().variants.len());
        let attempt = solver.attempt_counting(puzzle, &mut tally);
        (attempt, Some(tally), started.elapsed())
    } else {
        let attempt = solver.attempt(puzzle);
        (attempt, None, started.elapsed())
    }
}

/// Solves one puzzle of the stream into its result.
pub(super) fn solved(
    solver: &mut Solver,
    number: usize,
    source: Arc<str>,
    puzzle: Puzzle,
    count: bool,
) -> Done {
    let watch = slow::Watch::start(number, puzzle.rows, puzzle.cols);
    let (attempt, tally, time) = solve(solver, &puzzle, count);
    drop(watch);
    Done::Solved {
        number,
        source,
        puzzle,
        attempt,
        tally,
        time,
    }
}

/// Reads, solves and writes one puzzle at a time on this thread (answers are flushed whenever
/// the input is about to block).
fn sequential(
    inputs: &mut Inputs,
    mut solver: Solver,
    writer: &mut Writer,
    output: &Output,
    err: &mut dyn Write,
) -> io::Result<()> {
    let count = writer.stats.is_some();
    loop {
        // After Ctrl-C, no new puzzle is taken.
        output.stop_if_requested();
        let Some(item) = inputs.next(&mut output.flusher()) else {
            break;
        };
        let done = match item {
            Item::Puzzle {
                number,
                source,
                puzzle,
            } => solved(&mut solver, number, source, puzzle, count),
            Item::Problem(message) => Done::Problem(message),
            Item::Warning(message) => Done::Warning(message),
        };
        if let Some(board) = output.answer(|out| writer.emit(out, err, done))? {
            solver.recycle(board);
        }
    }
    Ok(())
}

/// How results are written: the format and its options. Solver threads use it too.
#[derive(Clone, Copy, Debug)]
pub(super) struct Formatter {
    format: FormatArg,
    colour: bool,
    crosses: bool,
    grade: bool,
    suggest: bool,
    relative: bool,
}

/// What goes to standard error about a written puzzle.
pub(super) struct Notes {
    /// Why it ended otherwise than solved with one answer.
    message: Option<String>,
    /// Its grade line, with `--grade`.
    grade: Option<String>,
    /// Its suggested clues, a line each, with `--suggest`.
    suggestions: Vec<String>,
    /// Its size, rows then columns (written `ROWSxCOLS` only when something is said).
    size: (usize, usize),
}

/// Where `--out-dir` writes each puzzle's SVG file, and whether it replaces files.
pub(super) struct OutDir {
    path: PathBuf,
    existing: Existing,
}

/// The directory of `--out-dir`, made when it is missing; `None` without the option. Refuses
/// the option with a format other than SVG.
fn out_dir(io: &mut Io, args: &SolveArgs) -> Result<Option<OutDir>, i32> {
    let Some(path) = &args.out_dir else {
        if args.force {
            say!(
                io,
                "slink: --force is for --out-dir (replace files that exist already)"
            );
            return Err(EXIT_BAD_INPUT);
        }
        return Ok(None);
    };
    if args.format != FormatArg::Svg {
        say!(
            io,
            "slink: --out-dir writes one SVG file per puzzle: give --format svg too (--format {} writes to standard output)",
            format_name(args.format)
        );
        return Err(EXIT_BAD_INPUT);
    }
    make_dir(path).map_err(|message| {
        say!(io, "slink: {message}");
        EXIT_BAD_INPUT
    })?;
    Ok(Some(OutDir {
        path: path.clone(),
        existing: if args.force {
            Existing::Replace
        } else {
            Existing::Keep
        },
    }))
}

/// Makes the directory `path` (and its parents) unless it is there; refuses anything else there.
pub(super) fn make_dir(path: &std::path::Path) -> Result<(), String> {
    if path.is_dir() {
        return Ok(());
    }
    if path.exists() {
        return Err(format!(
            "{} is not a directory: give --out-dir a directory (it is made when missing)",
            path.display()
        ));
    }
    std::fs::create_dir_all(path).map_err(|e| {
        format!(
            "cannot make the directory {}: {}",
            path.display(),
            super::io_reason(&e)
        )
    })
}

/// The name of a format as `--format` takes it.
fn format_name(format: FormatArg) -> &'static str {
    match format {
        FormatArg::Ascii => "ascii",
        FormatArg::Unicode => "unicode",
        FormatArg::Svg => "svg",
        FormatArg::Json => "json",
        FormatArg::Url => "url",
    }
}

/// Why the run stops before its end: the message is said as it is.
#[derive(Debug)]
struct Refusal(String);

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refusal {}

/// Writes results in the chosen format and keeps the counts that make the exit status.
pub(super) struct Writer {
    /// With `--out-dir`: where the SVG files go.
    out_dir: Option<OutDir>,
    /// SVG documents written so far (standard output holds only one).
    svgs: usize,
    pub(super) formatter: Formatter,
    pub(super) stats: Option<Stats>,
    unsolved: usize,
    bad_input: bool,
    buffer: Vec<u8>,
    progress: Progress,
}

impl Writer {
    /// Where the puzzles read ahead end in the input, for the progress bar.
    pub(super) fn marks(&self) -> Arc<Marks> {
        self.progress.marks()
    }

    fn status(&self) -> i32 {
        if self.bad_input {
            EXIT_BAD_INPUT
        } else if self.unsolved > 0 {
            EXIT_UNSOLVED
        } else {
            EXIT_OK
        }
    }

    /// Writes one result; hands back the board of a solved puzzle for reuse.
    pub(super) fn emit(
        &mut self,
        out: &mut dyn Write,
        err: &mut dyn Write,
        done: Done,
    ) -> io::Result<Option<crate::board::Board>> {
        match done {
            Done::Problem(problem) => {
                self.bad_input = true;
                self.progress.say(err, &problem.message);
                // In JSON, a puzzle that could not be read has its record too.
                if self.formatter.format == FormatArg::Json
                    && let Some((number, source)) = &problem.puzzle
                {
                    let message = problem.message.trim_start_matches("slink: ");
                    out.write_all(ErrorRecord::new(*number, source, message).line().as_bytes())?;
                }
                Ok(None)
            }
            Done::Warning(message) => {
                self.progress.say(err, &message);
                Ok(None)
            }
            Done::Solved {
                number,
                source,
                puzzle,
                attempt,
                tally,
                time,
            } => {
                if let Some(stats) = self.stats.as_mut() {
                    let tally = tally.unwrap_or_default();
                    stats.record(number, &attempt, time, &tally);
                }
                self.buffer.clear();
                let notes = if self.formatter.streams(&attempt) {
                    // Written a block of rows at a time, straight to the output.
                    write_board(out, &mut self.buffer, number, &attempt.board)?;
                    self.formatter.notes(&attempt)
                } else {
                    let notes = self.formatter.render(
                        &mut self.buffer,
                        number,
                        &source,
                        &puzzle,
                        &attempt,
                        time,
                    );
                    let buffer = std::mem::take(&mut self.buffer);
                    let placed = self.place(out, number, &buffer);
                    self.buffer = buffer;
                    placed?;
                    notes
                };
                self.note(err, number, &source, notes);
                Ok(Some(attempt.board))
            }
            Done::Rendered {
                number,
                source,
                bytes,
                notes,
                ..
            } => {
                self.place(out, number, &bytes)?;
                self.note(err, number, &source, notes);
                Ok(None)
            }
        }
    }

    /// Puts a puzzle's output in its place: standard output, or with `--format svg` its own
    /// file under `--out-dir`. Standard output holds one SVG document: a second one ends the
    /// run with a message pointing at `--out-dir`.
    fn place(&mut self, out: &mut dyn Write, number: usize, bytes: &[u8]) -> io::Result<()> {
        if self.formatter.format != FormatArg::Svg || bytes.is_empty() {
            return out.write_all(bytes);
        }
        self.svgs += 1;
        match &self.out_dir {
            Some(dir) => {
                let path = dir.path.join(format!("{number}.svg"));
                write_file(&path, bytes, dir.existing)
                    .map_err(|e| io::Error::other(Refusal(e.to_string())))
            }
            None if self.svgs > 1 => {
                // What is written so far goes out first (a full disk is said as such).
                out.flush()?;
                Err(io::Error::other(Refusal(format!(
                    "puzzle {number}: standard output holds one SVG document, and an earlier \
                 puzzle's is written; give --out-dir DIR to write each puzzle's SVG to a file \
                 of its own (DIR/1.svg, DIR/2.svg, ...)"
                ))))
            }
            None => out.write_all(bytes),
        }
    }

    /// Says on standard error what there is to say about a written puzzle, and counts it.
    fn note(&mut self, err: &mut dyn Write, number: usize, source: &str, notes: Notes) {
        let (rows, cols) = notes.size;
        if let Some(what) = notes.message {
            self.unsolved += 1;
            self.progress.say(
                err,
                &format!("slink: puzzle {number} ({source}, {rows}x{cols}): {what}"),
            );
        }
        for line in notes.suggestions {
            self.progress.say(
                err,
                &format!("slink: puzzle {number} ({source}, {rows}x{cols}): {line}"),
            );
        }
        if let Some(grade) = notes.grade {
            self.progress.say(
                err,
                &format!("slink: puzzle {number} ({source}, {rows}x{cols}): grade: {grade}"),
            );
        }
        self.progress.tick(number);
    }
}

impl Formatter {
    /// Appends a solved puzzle's output to `buffer`; returns what to say about it.
    pub(super) fn render(
        &self,
        buffer: &mut Vec<u8>,
        number: usize,
        source: &str,
        puzzle: &Puzzle,
        attempt: &Attempt,
        time: Duration,
    ) -> Notes {
        let Attempt {
            board,
            outcome,
            report,
            ambiguity,
        } = attempt;
        let notes = self.notes(attempt);
        let marked = Marked {
            board,
            undetermined: ambiguity.as_ref().map_or(&[], |a| &a.undetermined),
        };
        match self.format {
            FormatArg::Ascii if outcome.has_answer() => {
                render_board(buffer, number, board);
            }
            FormatArg::Unicode if outcome.has_answer() => {
                let mut text = String::new();
                unicode::render(&mut text, number, &marked, self.colour);
                buffer.extend_from_slice(text.as_bytes());
            }
            FormatArg::Svg if outcome.has_answer() => {
                let options = svg::SvgOptions {
                    crosses: self.crosses,
                };
                let label = Some((number, source));
                buffer.extend_from_slice(svg::render_labelled(&marked, options, label).as_bytes());
            }
            FormatArg::Json => {
                let record = Record::new(
                    number,
                    source,
                    board,
                    outcome,
                    report,
                    time.as_secs_f64() * 1e3,
                    notes.message.clone(),
                );
                let record = match ambiguity {
                    Some(a) if outcome.has_answer() => {
                        record.with_ambiguity(a, &marked, self.suggest)
                    }
                    _ => record,
                };
                buffer.extend_from_slice(record.line().as_bytes());
            }
            FormatArg::Url => {
                buffer.extend_from_slice(url::encode(puzzle).as_bytes());
                buffer.push(b'\n');
            }
            _ => {}
        }
        notes
    }

    /// Whether an attempt's output is the ASCII picture, which [`write_board`] can write a
    /// block at a time instead of [`Formatter::render`] building it whole.
    fn streams(&self, attempt: &Attempt) -> bool {
        matches!(self.format, FormatArg::Ascii) && attempt.outcome.has_answer()
    }

    /// What [`Formatter::render`] would say about an attempt, without rendering it.
    fn notes(&self, attempt: &Attempt) -> Notes {
        let board = &attempt.board;
        Notes {
            message: self.message(&attempt.outcome, board, attempt.ambiguity.as_ref()),
            grade: self.grade.then(|| Grade::of(&attempt.report).summary()),
            suggestions: match &attempt.ambiguity {
                Some(a) if self.suggest => suggestion_lines(a),
                _ => Vec::new(),
            },
            size: (board.rows(), board.cols()),
        }
    }

    /// What to say on standard error about a puzzle that was not solved with one answer.
    fn message(
        &self,
        outcome: &Outcome,
        board: &crate::board::Board,
        ambiguity: Option<&Ambiguity>,
    ) -> Option<String> {
        Some(match outcome {
            Outcome::Solved => return None,
            Outcome::Several => match ambiguity {
                Some(a) if !a.complete => format!(
                    "several solutions (at least {}): the answer printed is the first one \
                     found; at least {} of {} edges are undetermined (differ between \
                     answers; the rest was not worked out in the time it may take)",
                    a.solutions,
                    a.undetermined.len(),
                    board.edge_count()
                ),
                Some(a) => format!(
                    "several solutions ({} {}): the answer printed is the first one found; \
                     {} of {} edges are undetermined (differ between answers)",
                    if a.exact() { "exactly" } else { "at least" },
                    a.solutions,
                    a.undetermined.len(),
                    board.edge_count()
                ),
                None => "several solutions: the answer printed is the first one found \
                         (the edges they share were not worked out: a budget ran out)"
                    .to_string(),
            },
            Outcome::Stuck { unknown } => format!(
                "stuck: deduction ran out with {unknown} of {} edges unknown",
                board.edge_count()
            ),
            Outcome::Contradiction(c) if self.relative => format!(
                "no solution under these rules, which are trusted without proof \
                 (--trust-rules): {c}; the puzzle itself may have a solution"
            ),
            Outcome::Contradiction(c) => format!("no solution: {c}"),
            Outcome::Limit { limit, found } => format!(
                "limit: {limit}; {}",
                if *found {
                    "the answer printed was found by search but is not proven the only one"
                } else {
                    "no answer found"
                }
            ),
        })
    }
}

/// The lines said about a puzzle's suggested clues (`--suggest`).
fn suggestion_lines(a: &Ambiguity) -> Vec<String> {
    if a.solutions <= 1 {
        return Vec::new();
    }
    let mut lines: Vec<String> = Vec::new();
    if a.suggestions.is_empty() {
        lines.push("suggest: no clue to propose".to_string());
    }
    if a.cut_short {
        lines.push(format!(
            "suggest: the search for clues was cut short after {} s (or at the puzzle's \
             budget); the clues below are the best found by then",
            crate::deduce::ambiguity::SUGGEST_TIME.as_secs()
        ));
    }
    lines.extend(a.suggestions.iter().map(|s| {
        let what = match s.undetermined {
            0 => "makes the answer unique".to_string(),
            u => format!("leaves {u} edges undetermined (no single clue makes it unique)"),
        };
        format!(
            "suggest: clue {} in cell ({}, {}) (row, column from 0) {what}",
            s.clue, s.row, s.col
        )
    }));
    lines
}

/// The total size of the sources when they are all files (for the time left).
fn total_bytes(sources: &[Source]) -> Option<u64> {
    sources
        .iter()
        .map(|s| match s {
            Source::File(path) => std::fs::metadata(path).ok().map(|m| m.len()),
            Source::Url(text) => Some(text.len() as u64),
            Source::Stdin => None,
        })
        .sum()
}

/// A progress bar on standard error, shown only on a terminal, only once the work has taken
/// more than a second, and never while standard input is a terminal (a person typing puzzles
/// in): puzzles written, their rate, and (when the input is files) how much of the input the
/// written puzzles cover, with the time left.
///
/// Every figure is over the real time since the run started, and the share done is that of
/// the puzzles written (not of the bytes read, which run ahead by what is in flight), so the
/// time left is `elapsed * (1 - done) / done`; it shows once there is enough to go on
/// ([`ESTIMATE_AFTER`] and [`ESTIMATE_SHARE`]).
struct Progress {
    terminal: bool,
    started: Instant,
    done: u64,
    /// Total input bytes, when known.
    total: Option<u64>,
    /// Input bytes read so far.
    read: Arc<AtomicU64>,
    /// Where in the input each puzzle in flight ends (filled by the reader of `--jobs`).
    marks: Arc<Marks>,
    /// Input bytes covered by the puzzles written.
    position: u64,
    bar: Option<ProgressBar>,
}

/// How long the run goes before the bar shows.
const BAR_AFTER: Duration = Duration::from_secs(1);
/// How long the run goes before the time left is estimated.
const ESTIMATE_AFTER: Duration = Duration::from_millis(1500);
/// The share of the input done before the time left is estimated.
const ESTIMATE_SHARE: f64 = 0.02;

/// Where in the input each puzzle read ahead ends, in reading order: the reader of `--jobs`
/// notes them, the writer takes them back as it writes the puzzles (so they are few: what
/// is in flight). Unused (and empty) when the bar is never shown.
#[derive(Default)]
pub(super) struct Marks {
    used: bool,
    ends: Mutex<VecDeque<(usize, u64)>>,
}

impl Marks {
    /// Notes that puzzle `number` ends at byte `end` of the input.
    pub(super) fn note(&self, number: usize, end: u64) {
        if self.used {
            self.ends
                .lock()
                .expect("no thread panics holding it")
                .push_back((number, end));
        }
    }

    /// The end of puzzle `number`, forgetting it and those before it; `None` when it was
    /// not noted.
    fn take(&self, number: usize) -> Option<u64> {
        let mut ends = self.ends.lock().expect("no thread panics holding it");
        let mut end = None;
        while let Some(&(n, e)) = ends.front() {
            if n > number {
                break;
            }
            end = Some(e);
            ends.pop_front();
        }
        end
    }
}

impl Progress {
    fn new(terminal: bool) -> Progress {
        Progress {
            terminal,
            started: Instant::now(),
            done: 0,
            total: None,
            read: Arc::default(),
            marks: Arc::new(Marks {
                used: terminal,
                ends: Mutex::default(),
            }),
            position: 0,
            bar: None,
        }
    }

    /// The notes of where puzzles end, for a reader that runs ahead of the writer.
    pub(super) fn marks(&self) -> Arc<Marks> {
        Arc::clone(&self.marks)
    }

    /// Counts puzzle `number` written; shows the bar once a second has passed.
    fn tick(&mut self, number: usize) {
        self.done += 1;
        if !self.terminal {
            return;
        }
        // Read ahead (`--jobs`): where this puzzle ends; read one at a time: what is read.
        self.position = match self.marks.take(number) {
            Some(end) => end,
            None => self.read.load(Ordering::Relaxed),
        };
        let elapsed = self.started.elapsed();
        if self.bar.is_none() && elapsed > BAR_AFTER {
            let bar = ProgressBar::with_draw_target(self.total, ProgressDrawTarget::stderr());
            let template = if self.total.is_some() {
                "[{bar:16}] {msg}"
            } else {
                "{msg}"
            };
            let style = ProgressStyle::with_template(template)
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> ");
            bar.set_style(style);
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            bar.set_message(self.line(elapsed));
            bar.set_position(self.position);
        }
    }

    /// The words of the bar after `elapsed`.
    fn line(&self, elapsed: Duration) -> String {
        let seconds = elapsed.as_secs_f64();
        let rate = self.done as f64 / seconds.max(1e-9);
        let mut line = format!(
            "{} puzzle{} solved, {rate:.0}/s",
            self.done,
            if self.done == 1 { "" } else { "s" }
        );
        if let Some(total) = self.total.filter(|&t| t > 0) {
            let share = (self.position as f64 / total as f64).min(1.0);
            let _ = write!(line, ", {:.0}% done", 100.0 * share);
            let _ = write!(line, ", {} elapsed", duration_words(seconds));
            if elapsed >= ESTIMATE_AFTER && share >= ESTIMATE_SHARE {
                let left = seconds * (1.0 - share) / share;
                let _ = write!(line, ", about {} left", duration_words(left));
            }
        } else {
            let _ = write!(line, ", {} elapsed", duration_words(seconds));
        }
        line
    }

    /// Writes a message line, keeping the bar below it.
    fn say(&self, err: &mut dyn Write, line: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| {
                let _ = writeln!(err, "{line}");
            }),
            None => {
                let _ = writeln!(err, "{line}");
            }
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// `4.2 s`, `17 s`, `3 min 05 s`, `1 h 02 min`.
fn duration_words(seconds: f64) -> String {
    if seconds < 10.0 {
        format!("{seconds:.1} s")
    } else if seconds < 60.0 {
        format!("{:.0} s", seconds.floor())
    } else if seconds < 3600.0 {
        let s = seconds as u64;
        format!("{} min {:02} s", s / 60, s % 60)
    } else {
        let m = (seconds / 60.0) as u64;
        format!("{} h {:02} min", m / 60, m % 60)
    }
}

/// Names, on standard error, a puzzle that has run for [`slow::AFTER`] without an end, with
/// its size and `--timeout` as the way to bound it: switched on only when standard error is
/// a terminal and no --timeout is given. A thread looks at the puzzles being solved four
/// times a second.
mod slow {
    use std::collections::HashMap;
    use std::io::Write;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::{Mutex, OnceLock};
    use std::time::{Duration, Instant};

    /// How long a puzzle runs before it is named, unless `SLINK_SLOW_AFTER` (seconds, above
    /// 0) says otherwise.
    pub(super) const AFTER: Duration = Duration::from_secs(3);

    /// The time after which a puzzle is named: [`AFTER`], or `SLINK_SLOW_AFTER` seconds.
    fn after() -> Duration {
        static AFTER_SET: OnceLock<Duration> = OnceLock::new();
        *AFTER_SET.get_or_init(|| {
            std::env::var("SLINK_SLOW_AFTER")
                .ok()
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|&secs| secs.is_finite() && secs > 0.0 && secs < 1e9)
                .map_or(AFTER, Duration::from_secs_f64)
        })
    }

    static ON: AtomicBool = AtomicBool::new(false);
    static NEXT: AtomicUsize = AtomicUsize::new(0);

    struct Running {
        number: usize,
        rows: usize,
        cols: usize,
        since: Instant,
        said: bool,
    }

    fn running() -> &'static Mutex<HashMap<usize, Running>> {
        static RUNNING: OnceLock<Mutex<HashMap<usize, Running>>> = OnceLock::new();
        RUNNING.get_or_init(Mutex::default)
    }

    /// The line said about a puzzle that has run long.
    fn line(number: usize, rows: usize, cols: usize, after: Duration) -> String {
        format!(
            "slink: puzzle {number} ({rows}x{cols}) has run for {} s and goes on; give --timeout SECONDS to bound the time per puzzle",
            after.as_secs_f64()
        )
    }

    /// Starts the thread that names long-running puzzles (once per process).
    pub(super) fn enable() {
        if ON.swap(true, Ordering::SeqCst) {
            return;
        }
        let _ = std::thread::Builder::new()
            .name("slow-puzzles".into())
            .spawn(|| {
                loop {
                    std::thread::sleep(Duration::from_millis(250));
                    let mut said = Vec::new();
                    if let Ok(mut map) = running().lock() {
                        for r in map.values_mut() {
                            if !r.said && r.since.elapsed() >= after() {
                                r.said = true;
                                said.push(line(r.number, r.rows, r.cols, after()));
                            }
                        }
                    }
                    for text in said {
                        let _ = writeln!(std::io::stderr(), "{text}");
                    }
                }
            });
    }

    /// A puzzle being solved, watched while this lives (nothing when switched off).
    pub(super) struct Watch(Option<usize>);

    impl Watch {
        pub(super) fn start(number: usize, rows: usize, cols: usize) -> Watch {
            if !ON.load(Ordering::Relaxed) {
                return Watch(None);
            }
            let id = NEXT.fetch_add(1, Ordering::Relaxed);
            let Ok(mut map) = running().lock() else {
                return Watch(None);
            };
            map.insert(
                id,
                Running {
                    number,
                    rows,
                    cols,
                    since: Instant::now(),
                    said: false,
                },
            );
            Watch(Some(id))
        }
    }

    impl Drop for Watch {
        fn drop(&mut self) {
            if let Some(id) = self.0
                && let Ok(mut map) = running().lock()
            {
                map.remove(&id);
            }
        }
    }

    #[cfg(test)]
    mod tests {
        #[test]
        fn the_line_names_the_puzzle_its_size_and_the_way_to_bound_it() {
            assert_eq!(
                super::line(7, 1, 100_000, super::AFTER),
                "slink: puzzle 7 (1x100000) has run for 3 s and goes on; give --timeout SECONDS to bound the time per puzzle"
            );
        }
    }
}
