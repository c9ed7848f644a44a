//! Progress of a discovery run: one bar per stage on a terminal, nothing at all when standard error is not one.

use indicatif::{ProgressBar, ProgressStyle};

/// Shows the stages of a run.
#[derive(Clone, Debug)]
pub struct Progress {
    shown: bool,
}

impl Progress {
    /// Bars on standard error (call it only when that is a terminal).
    pub fn shown() -> Progress {
        Progress { shown: true }
    }

    /// No bars at all (tests, pipes).
    pub fn hidden() -> Progress {
        Progress { shown: false }
    }

    /// A bar for a stage of `total` steps.
    pub fn stage(&self, name: &str, total: usize) -> Stage {
        let bar = if self.shown {
            let bar = ProgressBar::new(total as u64);
            bar.set_style(
                ProgressStyle::with_template(
                    "{prefix:>12} [{bar:30}] {pos}/{len} {msg} ({elapsed}, eta {eta})",
                )
                .expect("a valid template")
                .progress_chars("=> "),
            );
            bar.set_prefix(name.to_string());
            bar
        } else {
            ProgressBar::hidden()
        };
        Stage { bar }
    }
}

/// One stage's bar.
#[derive(Clone, Debug)]
pub struct Stage {
    bar: ProgressBar,
}

impl Stage {
    /// One more step done.
    pub fn tick(&self) {
        self.bar.inc(1);
    }

    /// Sets the steps done.
    pub fn set(&self, done: usize) {
        self.bar.set_position(done as u64);
    }

    /// A short note after the counts.
    pub fn note(&self, text: String) {
        self.bar.set_message(text);
    }

    /// Clears the bar.
    pub fn done(&self) {
        self.bar.finish_and_clear();
    }
}
