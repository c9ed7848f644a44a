//! Where a command reads and writes: the process's standard streams, or buffers when the command line runs in-process (`slink::cli::run`, as the tests do).

use super::{EXIT_BAD_INPUT, io_reason};
use std::fmt;
use std::io::{Read, Write};

/// A command's streams, and whether the process's ones are terminals.
pub struct Io<'a> {
    /// Standard input.
    pub stdin: &'a mut (dyn Read + Send),
    /// Standard output.
    pub out: &'a mut (dyn Write + Send),
    /// Standard error.
    pub err: &'a mut (dyn Write + Send),
    /// Whether standard output is a terminal (colour).
    pub out_terminal: bool,
    /// Whether standard error is a terminal (progress lines and bars).
    pub err_terminal: bool,
    /// Where rules proven sound are remembered (see [`super::proof_cache`]); `None`: nowhere.
    pub proof_cache: Option<std::path::PathBuf>,
}

impl Io<'_> {
    /// Writes a line to standard error; a failure to write there is ignored, as there is
    /// nowhere else to say it.
    pub fn say(&mut self, args: fmt::Arguments) {
        let _ = writeln!(self.err, "{args}");
    }

    /// Writes text to standard error as it is (progress lines, reports ending in a line end).
    pub fn say_raw(&mut self, text: &str) {
        let _ = self.err.write_all(text.as_bytes());
        let _ = self.err.flush();
    }

    /// Writes text to standard output; a closed pipe (`slink ... | head`) ends the output
    /// quietly. Returns the exit status for any other failure.
    pub fn print(&mut self, text: &str) -> Result<(), i32> {
        match self
            .out
            .write_all(text.as_bytes())
            .and_then(|()| self.out.flush())
        {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            Err(e) => {
                self.say(format_args!(
                    "slink: cannot write to standard output: {}",
                    io_reason(&e)
                ));
                Err(EXIT_BAD_INPUT)
            }
        }
    }
}

/// A line on standard error: `say!(io, "slink: {x}")`.
macro_rules! say {
    ($io:expr, $($arg:tt)*) => {
        $io.say(format_args!($($arg)*))
    };
}
pub(crate) use say;

#[cfg(test)]
/// Runs `f` with an empty standard input and standard output and error collected; returns
/// what `f` returned and what it wrote to each.
pub fn captured<R>(f: impl FnOnce(&mut Io) -> R) -> (R, Vec<u8>, Vec<u8>) {
    let (mut stdin, mut out, mut err) = (std::io::empty(), Vec::new(), Vec::new());
    let mut io = Io {
        stdin: &mut stdin,
        out: &mut out,
        err: &mut err,
        out_terminal: false,
        err_terminal: false,
        proof_cache: None,
    };
    let value = f(&mut io);
    (value, out, err)
}
