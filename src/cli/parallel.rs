//! `--jobs N`: one thread reads, N threads solve, the calling thread writes in input order; puzzles travel in batches, and a window bounds what is in flight.

use super::input::{Inputs, Item};
use super::interrupt::Output;
use super::solve::{Done, Formatter, Marks, Writer, solved};
use crate::puzzle::Puzzle;
use crate::solve::Solver;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, Receiver, Sender, SyncSender};
use std::sync::{Arc, Condvar, Mutex};

/// A puzzle on its way to a solver: its place in the output order, its number, its source.
type Job = (usize, usize, Arc<str>, Puzzle);

/// Results on their way to the writer, each with its place in the output order (`None`: the
/// input ended there).
type Results = Vec<(usize, Option<Done>)>;

/// The most puzzles in one batch.
const BATCH_PUZZLES: usize = 32;
/// A batch is sent once its puzzles hold this many cells.
const BATCH_CELLS: usize = 16_384;
/// Cells per solver thread that may be read but not yet written. Beyond that the reader
/// waits for the writer, so memory stays bounded on an endless stream, also when one slow
/// puzzle holds back the answers after it (one puzzle larger than the window still goes).
const WINDOW_CELLS_PER_JOB: usize = 2_000_000;
/// What an item costs in the window besides its cells, so that tiny puzzles count too: its
/// answer, source name and bookkeeping take a few hundred bytes, and a window of 2 threads
/// then holds at most about 4,000 of them (over a hundred batches), which keeps memory flat on
/// a stream of a million tiny puzzles (tested in tests/trust.rs).
const ITEM_COST: usize = 1024;

/// Reads, solves on `jobs` threads and writes in input order.
///
/// Every channel end is owned by one thread (the job queue's receiver is shared by the
/// solvers through an `Arc`), so when the writer stops early (a closed output) its ends
/// drop, the solvers' sends fail, the queue's last receiver drops, and the reader's sends
/// fail in turn: every thread ends.
pub(super) fn run(
    inputs: &mut Inputs,
    solver: Solver,
    jobs: usize,
    writer: &mut Writer,
    output: &Output,
    err: &mut dyn Write,
) -> io::Result<()> {
    let count = writer.stats.is_some();
    let (job_tx, job_rx) = mpsc::sync_channel::<Vec<Job>>(2 * jobs);
    let job_rx = Arc::new(Mutex::new(job_rx));
    let (done_tx, done_rx) = mpsc::channel::<Results>();
    let window = Window::new(WINDOW_CELLS_PER_JOB * jobs);
    // Without statistics (which the writer keeps in input order), each solver writes its
    // answers out itself, while the board is in its cache, and keeps the board for its next
    // puzzle.
    let formatter = (!count).then_some(writer.formatter);
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let mut solver = solver.sibling();
            let (job_rx, done_tx) = (Arc::clone(&job_rx), done_tx.clone());
            scope.spawn(move || {
                loop {
                    let batch = job_rx.lock().expect("no solver panics").recv();
                    let Ok(batch) = batch else {
                        break;
                    };
                    let results = solve_batch(&mut solver, formatter, batch, count);
                    if done_tx.send(results).is_err() {
                        break;
                    }
                }
            });
        }
        drop(job_rx);
        let window = &window;
        let marks = writer.marks();
        scope.spawn(move || read(inputs, job_tx, done_tx, window, &marks));
        let written = write_in_order(done_rx, window, writer, output, err);
        // The reader may wait for room the writer will no longer make.
        window.close();
        written
    })
}

/// Solves a batch; without statistics (`formatter` given) each answer is written out here.
fn solve_batch(
    solver: &mut Solver,
    formatter: Option<Formatter>,
    batch: Vec<Job>,
    count: bool,
) -> Results {
    batch
        .into_iter()
        .map(|(seq, number, source, puzzle)| {
            let done = solved(solver, number, source, puzzle, count);
            let Some(formatter) = formatter else {
                return (seq, Some(done));
            };
            let Done::Solved {
                number,
                source,
                puzzle,
                attempt,
                time,
                ..
            } = done
            else {
                return (seq, Some(done));
            };
            let mut bytes = Vec::new();
            let notes = formatter.render(&mut bytes, number, &source, &puzzle, &attempt, time);
            solver.recycle(attempt.board);
            let rendered = Done::Rendered {
                number,
                source,
                cells: puzzle.rows * puzzle.cols,
                bytes,
                notes,
            };
            (seq, Some(rendered))
        })
        .collect()
}

/// The reader: puzzles go to the solvers in batches, messages straight to the writer. A
/// batch is sent when it is full, before the reader waits for the window, and before any
/// read from the input that may block (so a slow interactive stream is not held back).
/// Where each puzzle ends in the input goes to `marks` (for the progress bar).
fn read(
    inputs: &mut Inputs,
    job_tx: SyncSender<Vec<Job>>,
    done_tx: Sender<Results>,
    window: &Window,
    marks: &Marks,
) {
    let bytes_read = inputs.bytes_read();
    let mut batch = Batch {
        jobs: Vec::new(),
        cells: 0,
        job_tx,
        closed: false,
    };
    let mut seq = 0;
    while let Some(item) = inputs.next(&mut batch) {
        let cost = match &item {
            Item::Puzzle { puzzle, .. } => puzzle.rows * puzzle.cols + ITEM_COST,
            _ => ITEM_COST,
        };
        if !window.try_take(cost) {
            batch.send();
            if !window.take(cost) {
                return;
            }
        }
        let sent = match item {
            Item::Puzzle {
                number,
                source,
                puzzle,
            } => {
                marks.note(number, bytes_read.load(Ordering::Relaxed));
                batch.cells += puzzle.rows * puzzle.cols;
                batch.jobs.push((seq, number, source, puzzle));
                if batch.jobs.len() >= BATCH_PUZZLES || batch.cells >= BATCH_CELLS {
                    batch.send();
                }
                !batch.closed
            }
            Item::Problem(m) => done_tx.send(vec![(seq, Some(Done::Problem(m)))]).is_ok(),
            Item::Warning(m) => done_tx.send(vec![(seq, Some(Done::Warning(m)))]).is_ok(),
        };
        if !sent {
            return;
        }
        seq += 1;
    }
    batch.send();
    let _ = done_tx.send(vec![(seq, None)]);
}

/// The puzzles read but not yet sent to a solver. Flushing it (as the input reader does
/// before a read that may block) sends them.
struct Batch {
    jobs: Vec<Job>,
    cells: usize,
    job_tx: SyncSender<Vec<Job>>,
    /// Whether the solvers are gone.
    closed: bool,
}

impl Batch {
    fn send(&mut self) {
        if !self.jobs.is_empty() {
            let jobs = std::mem::take(&mut self.jobs);
            self.cells = 0;
            self.closed |= self.job_tx.send(jobs).is_err();
        }
    }
}

impl Write for Batch {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.send();
        Ok(())
    }
}

/// The writer: results back in input order; each item's cost goes back to the window once
/// it is written. Returns when the reader's end mark is reached or output fails.
fn write_in_order(
    done_rx: Receiver<Results>,
    window: &Window,
    writer: &mut Writer,
    output: &Output,
    err: &mut dyn Write,
) -> io::Result<()> {
    let mut waiting: BTreeMap<usize, Option<Done>> = BTreeMap::new();
    let mut next = 0;
    loop {
        let received = match done_rx.try_recv() {
            Ok(r) => Some(r),
            Err(mpsc::TryRecvError::Empty) => {
                // Nothing ready: show what is written so far before waiting.
                output.flush()?;
                done_rx.recv().ok()
            }
            Err(mpsc::TryRecvError::Disconnected) => None,
        };
        let Some(results) = received else {
            return Ok(());
        };
        waiting.extend(results);
        while let Some(done) = waiting.remove(&next) {
            let Some(done) = done else {
                return Ok(());
            };
            let cost = match &done {
                Done::Solved { puzzle, .. } => puzzle.rows * puzzle.cols + ITEM_COST,
                Done::Rendered { cells, .. } => cells + ITEM_COST,
                _ => ITEM_COST,
            };
            // Each answer whole: Ctrl-C ends the run between two of them.
            output.answer(|out| writer.emit(out, err, done))?;
            window.give(cost);
            next += 1;
        }
    }
}

/// A counting semaphore over item costs: what the reader may have in flight.
struct Window {
    /// The cost in flight, and whether the writer has stopped.
    state: Mutex<(usize, bool)>,
    freed: Condvar,
    limit: usize,
}

impl Window {
    fn new(limit: usize) -> Window {
        Window {
            state: Mutex::new((0, false)),
            freed: Condvar::new(),
            limit,
        }
    }

    /// Takes `cost` if it fits now (anything fits an empty window).
    fn try_take(&self, cost: usize) -> bool {
        let mut state = self.state.lock().expect("no thread panics holding it");
        let fits = state.0 == 0 || state.0 + cost <= self.limit;
        if fits {
            state.0 += cost;
        }
        fits
    }

    /// Takes `cost`, waiting until it fits; false when the window was closed instead.
    fn take(&self, cost: usize) -> bool {
        let mut state = self.state.lock().expect("no thread panics holding it");
        while !state.1 && state.0 != 0 && state.0 + cost > self.limit {
            state = self.freed.wait(state).expect("no thread panics holding it");
        }
        state.0 += cost;
        !state.1
    }

    /// Gives `cost` back.
    fn give(&self, cost: usize) {
        let mut state = self.state.lock().expect("no thread panics holding it");
        state.0 -= cost;
        self.freed.notify_one();
    }

    /// Ends every wait: the writer takes nothing more.
    fn close(&self) {
        self.state.lock().expect("no thread panics holding it").1 = true;
        self.freed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_lets_one_oversized_item_through_and_waits_for_room() {
        let window = Window::new(10);
        assert!(window.try_take(25), "an empty window takes anything");
        assert!(!window.try_take(1));
        window.give(25);
        assert!(window.try_take(6));
        assert!(!window.try_take(6));
        assert!(window.try_take(4));
        std::thread::scope(|s| {
            s.spawn(|| assert!(window.take(5)));
            window.give(6);
        });
        assert!(!window.try_take(2), "4 + 5 of 10 used");
        // Closing ends a wait that no give would end.
        std::thread::scope(|s| {
            s.spawn(|| assert!(!window.take(5)));
            window.close();
        });
    }
}
