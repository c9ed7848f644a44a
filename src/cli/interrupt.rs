//! Ctrl-C (SIGINT) while `slink solve` writes answers: the run ends on a whole answer.
//!
//! The binary ([`super::main`]) installs a handler. While a solve run writes its answers
//! through an [`Output`], an interrupt lets the answer being written finish, flushes what was
//! written, says `slink: interrupted after N answers` on standard error and exits with status
//! 130; this happens at once when the run is waiting (for input, or for a puzzle to be
//! solved), since then no answer is half written. A second Ctrl-C ends the process at once and
//! says that the output may be cut. Outside a solve run (loading and proving rules, the other
//! commands) SIGINT ends the process as it would without a handler. In-process runs
//! ([`super::run`], the tests) install nothing, and nothing here changes what they do.

use std::io::{self, BufWriter, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock};

/// Exit status after an interrupt: 128 + SIGINT, as a shell reports a process ended by it.
pub const EXIT_INTERRUPTED: i32 = 130;

/// Interrupts seen, and solve runs now writing answers.
struct State {
    interrupts: u32,
    runs: usize,
}

static STATE: Mutex<State> = Mutex::new(State {
    interrupts: 0,
    runs: 0,
});
/// Woken on an interrupt and when a run ends.
static CHANGED: Condvar = Condvar::new();
/// Set on the first interrupt (read on every answer, so kept outside the lock).
static REQUESTED: AtomicBool = AtomicBool::new(false);
/// Whether the handler is installed.
static INSTALLED: OnceLock<bool> = OnceLock::new();

fn state() -> MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Installs the SIGINT handler of the binary (once; a failure leaves SIGINT as it was).
pub fn install() {
    INSTALLED.get_or_init(imp::install);
}

fn installed() -> bool {
    INSTALLED.get().copied().unwrap_or(false)
}

/// Whether an interrupt asked the run to stop.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}

/// What the handler does on each SIGINT (on the handler's own thread).
fn on_interrupt() {
    let mut state = state();
    state.interrupts += 1;
    if state.runs == 0 {
        drop(state);
        imp::default_action();
    }
    if state.interrupts > 1 {
        eprintln!(
            "slink: interrupted again: ended at once, so the output may be cut inside an answer"
        );
        std::process::exit(EXIT_INTERRUPTED);
    }
    REQUESTED.store(true, Ordering::SeqCst);
    CHANGED.notify_all();
}

#[cfg(unix)]
mod imp {
    use signal_hook::consts::SIGINT;

    /// Routes SIGINT to a thread that calls [`super::on_interrupt`].
    pub fn install() -> bool {
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT]) else {
            return false;
        };
        std::thread::Builder::new()
            .name("slink-sigint".into())
            .spawn(move || {
                for _ in signals.forever() {
                    super::on_interrupt();
                }
            })
            .is_ok()
    }

    /// Ends the process as SIGINT would without the handler.
    pub fn default_action() -> ! {
        let _ = signal_hook::low_level::emulate_default_handler(SIGINT);
        std::process::exit(super::EXIT_INTERRUPTED)
    }
}

#[cfg(not(unix))]
mod imp {
    pub fn install() -> bool {
        false
    }

    pub fn default_action() -> ! {
        std::process::exit(super::EXIT_INTERRUPTED)
    }
}

/// Standard output of a solve run, buffered, shared by the thread that writes the answers and
/// the one that ends the run on an interrupt: each answer is written under its lock, so the
/// lock is free only between whole answers.
pub struct Output<'a> {
    inner: Mutex<Inner<'a>>,
}

struct Inner<'a> {
    out: BufWriter<&'a mut (dyn Write + Send)>,
    /// Answers written (puzzles whose output is not empty).
    answers: u64,
}

impl<'a> Output<'a> {
    /// Buffers `out` (64 KiB).
    pub fn new(out: &'a mut (dyn Write + Send)) -> Self {
        Output {
            inner: Mutex::new(Inner {
                out: BufWriter::with_capacity(1 << 16, out),
                answers: 0,
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner<'a>> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Writes one puzzle's output whole with `write`; after an interrupt, ends the run
    /// instead, before or after it.
    pub fn answer<R>(&self, write: impl FnOnce(&mut dyn Write) -> io::Result<R>) -> io::Result<R> {
        self.stop_if_requested();
        let mut inner = self.lock();
        let mut tracked = Tracked {
            inner: &mut inner.out,
            wrote: false,
        };
        let result = write(&mut tracked);
        if tracked.wrote {
            inner.answers += 1;
        }
        drop(inner);
        self.stop_if_requested();
        result
    }

    /// Flushes what is written.
    pub fn flush(&self) -> io::Result<()> {
        self.lock().out.flush()
    }

    /// A writer whose flush flushes this output (for the input reader, which flushes before
    /// it waits); its writes go straight to the output.
    pub fn flusher(&self) -> Flusher<'_, 'a> {
        Flusher(self)
    }

    /// Ends the run if an interrupt asked for it.
    pub fn stop_if_requested(&self) {
        if requested() {
            self.stop();
        }
    }

    /// Ends the process after the last whole answer: the lock is held to the end, so nothing
    /// more is written.
    fn stop(&self) -> ! {
        let mut inner = self.lock();
        let _ = inner.out.flush();
        let n = inner.answers;
        eprintln!(
            "slink: interrupted after {n} answer{}",
            if n == 1 { "" } else { "s" }
        );
        std::process::exit(EXIT_INTERRUPTED)
    }

    /// Runs `body`, the run's reading, solving and writing; when the handler is installed, a
    /// watcher thread ends the run on an interrupt as soon as no answer is half written, also
    /// while `body` waits for input or solves a hard puzzle.
    pub fn watched<R>(&self, body: impl FnOnce() -> R) -> R {
        if !installed() {
            return body();
        }
        let done = AtomicBool::new(false);
        std::thread::scope(|scope| {
            state().runs += 1;
            let ending = Ending(&done);
            scope.spawn(|| {
                let mut state = state();
                loop {
                    if state.interrupts > 0 {
                        drop(state);
                        self.stop();
                    }
                    if done.load(Ordering::SeqCst) {
                        return;
                    }
                    state = CHANGED.wait(state).unwrap_or_else(|e| e.into_inner());
                }
            });
            let result = body();
            self.stop_if_requested();
            drop(ending);
            result
        })
    }
}

/// Marks a watched run ended (also when it panics), so that its watcher returns.
struct Ending<'d>(&'d AtomicBool);

impl Drop for Ending<'_> {
    fn drop(&mut self) {
        let mut state = state();
        state.runs -= 1;
        self.0.store(true, Ordering::SeqCst);
        CHANGED.notify_all();
    }
}

/// See [`Output::flusher`].
pub struct Flusher<'o, 'a>(&'o Output<'a>);

impl Write for Flusher<'_, '_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().out.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// A writer that notes whether anything was written through it.
struct Tracked<'w, W: Write> {
    inner: &'w mut W,
    wrote: bool,
}

impl<W: Write> Write for Tracked<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.wrote |= !buf.is_empty();
        self.inner.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.wrote |= !buf.is_empty();
        self.inner.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_counted_and_written_through() {
        let mut sink = Vec::new();
        {
            let output = Output::new(&mut sink);
            output.answer(|w| w.write_all(b"one\n")).unwrap();
            output.answer(|_| Ok(())).unwrap();
            output.answer(|w| w.write_all(b"two\n")).unwrap();
            output.flusher().flush().unwrap();
            assert_eq!(output.lock().answers, 2, "an empty output is no answer");
            // Without the handler, `watched` only runs its body.
            assert_eq!(output.watched(|| 7), 7);
        }
        assert_eq!(sink, b"one\ntwo\n");
    }
}
