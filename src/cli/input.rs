//! Puzzle input for the commands that read puzzles: puzzle streams (files, or `-` for standard input), puzz.link URLs given as arguments, and files of URLs (one per line), read one item at a time and numbered in order.
//!
//! A stream whose first non-blank line looks like a URL is read as a file of URLs; anything
//! else goes to the streaming puzzle reader.

use crate::format::url;
use crate::puzzle::{Puzzle, PuzzleReader};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Cursor, Read, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Where puzzles come from, as given on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Standard input (no argument, or `-`).
    Stdin,
    /// A file.
    File(PathBuf),
    /// A puzzle URL given as an argument.
    Url(String),
}

impl Source {
    /// The sources of command-line arguments: none means standard input.
    pub fn of_args(args: &[PathBuf]) -> Vec<Source> {
        if args.is_empty() {
            return vec![Source::Stdin];
        }
        args.iter()
            .map(|a| match a.to_str() {
                Some("-") => Source::Stdin,
                // A bare `slither/5/5/...` is a file only when one is there by that name.
                Some(text) if url::looks_like_url(text) && !(url::is_bare(text) && a.exists()) => {
                    Source::Url(text.to_string())
                }
                _ => Source::File(a.clone()),
            })
            .collect()
    }
}

/// One item of input, in order.
#[derive(Debug)]
pub enum Item {
    /// A puzzle, with its number in the run (1, 2, ...) and where it came from.
    Puzzle {
        /// Its number.
        number: usize,
        /// The name of its source.
        source: Arc<str>,
        /// The puzzle.
        puzzle: Puzzle,
    },
    /// Input that could not be read (reported on standard error; the exit status becomes 2).
    Problem(Problem),
    /// Something worth a warning (a stream without its end marker).
    Warning(String),
}

/// Input that could not be read: the message, and the puzzle it was when it was one.
#[derive(Debug)]
pub struct Problem {
    /// The message, `slink: ...`.
    pub message: String,
    /// The puzzle's number and source, when the problem is a puzzle that could not be read.
    pub puzzle: Option<(usize, Arc<str>)>,
}

impl Problem {
    /// A problem that is no puzzle (a file that cannot be read, a line too long).
    fn input(message: String) -> Item {
        Item::Problem(Problem {
            message,
            puzzle: None,
        })
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// What is being read now.
enum Current<'a> {
    Stream {
        name: Arc<str>,
        reader: Box<PuzzleReader<Box<dyn Read + Send + 'a>>>,
    },
    Urls {
        name: Arc<str>,
        lines: Box<dyn BufRead + Send + 'a>,
        line: usize,
        /// A URL given as an argument (named by itself, so without a line number).
        single: bool,
    },
}

/// The puzzles of a list of sources, one item at a time.
pub struct Inputs<'a> {
    sources: VecDeque<Source>,
    stdin: Option<&'a mut (dyn Read + Send)>,
    current: Option<Current<'a>>,
    number: usize,
    max_cells: usize,
    /// Bytes read from the sources so far (for progress).
    read: Arc<AtomicU64>,
    /// A puzzle to hand out after the warning about it.
    pending: Option<Item>,
}

/// A reader that counts the bytes it hands out.
struct Counting<R> {
    inner: R,
    read: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl<'a> Inputs<'a> {
    /// Reads `sources` in order; standard input is `stdin` (read once, at its first use).
    pub fn new(sources: Vec<Source>, stdin: &'a mut (dyn Read + Send), max_cells: usize) -> Self {
        Inputs {
            sources: sources.into(),
            stdin: Some(stdin),
            current: None,
            number: 0,
            max_cells,
            read: Arc::default(),
            pending: None,
        }
    }

    /// The puzzle numbers handed out so far (bad puzzles keep theirs).
    pub fn numbered(&self) -> usize {
        self.number
    }

    /// The count of bytes read from the sources so far, shared.
    pub fn bytes_read(&self) -> Arc<AtomicU64> {
        self.read.clone()
    }

    /// The next item; `before_read` is flushed before any read that may block.
    pub fn next(&mut self, before_read: &mut dyn Write) -> Option<Item> {
        if let Some(item) = self.pending.take() {
            return Some(item);
        }
        loop {
            if self.current.is_none() {
                let source = self.sources.pop_front()?;
                match self.open(source, before_read) {
                    Ok(Some(current)) => self.current = Some(current),
                    Ok(None) => continue,
                    Err(problem) => return Some(problem),
                }
            }
            match self.current.as_mut().expect("opened above") {
                Current::Stream { name, reader } => match reader.next_puzzle(before_read) {
                    Some(Ok(puzzle)) => {
                        self.number += 1;
                        return Some(Item::Puzzle {
                            number: self.number,
                            source: name.clone(),
                            puzzle,
                        });
                    }
                    Some(Err(e)) => {
                        let mut puzzle = None;
                        if e.is_puzzle {
                            self.number += 1;
                            puzzle = Some((self.number, name.clone()));
                        }
                        if !e.recoverable {
                            self.current = None;
                        }
                        return Some(Item::Problem(Problem {
                            message: format!("slink: {e}"),
                            puzzle,
                        }));
                    }
                    None => {
                        let missing = reader.missing_end_marker();
                        let name = name.clone();
                        self.current = None;
                        if missing {
                            return Some(Item::Warning(format!(
                                "slink: warning: {name} ends without the `0 0` end marker"
                            )));
                        }
                    }
                },
                Current::Urls {
                    name,
                    lines,
                    line,
                    single,
                } => {
                    let _ = before_read.flush();
                    let mut text = String::new();
                    // A URL has at most a character per cell, and some words around them.
                    let longest = self.max_cells.saturating_add(4096);
                    let limit = u64::try_from(longest).unwrap_or(u64::MAX);
                    match lines.by_ref().take(limit).read_line(&mut text) {
                        Ok(0) => self.current = None,
                        Ok(n) if n >= longest && !text.ends_with('\n') => {
                            let problem = format!(
                                "slink: {name}:{}: a line longer than {longest} bytes, too long for a URL of at most {} cells (--max-cells); the rest of {name} is skipped",
                                *line + 1,
                                self.max_cells
                            );
                            self.current = None;
                            return Some(Problem::input(problem));
                        }
                        Ok(_) => {
                            *line += 1;
                            let t = text.trim();
                            if t.is_empty() || t.starts_with('#') {
                                continue;
                            }
                            self.number += 1;
                            let at = if *single {
                                name.to_string()
                            } else {
                                format!("{name}:{line}")
                            };
                            match url::decode_counting(t, self.max_cells) {
                                Ok((puzzle, unknown)) => {
                                    let item = Item::Puzzle {
                                        number: self.number,
                                        source: name.clone(),
                                        puzzle,
                                    };
                                    if unknown == 0 {
                                        return Some(item);
                                    }
                                    // pzprjs's `.` is a clue "?": say that it is read as blank.
                                    self.pending = Some(item);
                                    let cells = if unknown == 1 { "cell" } else { "cells" };
                                    return Some(Item::Warning(format!(
                                        "slink: warning: {at}: puzzle {}: {unknown} {cells} written `.` (a clue \"?\" of unknown number) read as blank",
                                        self.number
                                    )));
                                }
                                Err(e) => {
                                    return Some(Item::Problem(Problem {
                                        message: format!("slink: {at}: {e}"),
                                        puzzle: Some((self.number, name.clone())),
                                    }));
                                }
                            }
                        }
                        Err(e) => {
                            let name = name.clone();
                            self.current = None;
                            return Some(Problem::input(format!(
                                "slink: cannot read {name}: {}",
                                super::io_reason(&e)
                            )));
                        }
                    }
                }
            }
        }
    }

    /// Opens a source: a URL argument reads as a file of one URL; a stream is sniffed for URLs.
    fn open(
        &mut self,
        source: Source,
        before_read: &mut dyn Write,
    ) -> Result<Option<Current<'a>>, Item> {
        let (name, input): (Arc<str>, Box<dyn Read + Send + 'a>) = match source {
            Source::Url(text) => {
                // A URL argument: one puzzle, as a stream of URLs holding just it, named by
                // the URL itself (shortened).
                let name: Arc<str> = Arc::from(url::short(&text));
                let lines: Box<dyn BufRead + Send + 'a> = Box::new(Cursor::new(text.into_bytes()));
                return Ok(Some(Current::Urls {
                    name,
                    lines,
                    line: 0,
                    single: true,
                }));
            }
            Source::Stdin => match self.stdin.take() {
                Some(stdin) => (Arc::from("<stdin>"), Box::new(stdin)),
                None => return Ok(None),
            },
            Source::File(path) => {
                let name: Arc<str> = Arc::from(path.display().to_string());
                match open_file(&path) {
                    Ok(file) => (name, Box::new(file)),
                    Err(reason) => {
                        return Err(Problem::input(format!(
                            "slink: cannot read {name}: {reason}"
                        )));
                    }
                }
            }
        };
        // Sniff the first line that is neither blank nor a comment: a URL makes this a file of URLs.
        let _ = before_read.flush();
        let input = Counting {
            inner: input,
            read: self.read.clone(),
        };
        let mut buffered = BufReader::new(input);
        // Leading blank lines are counted, not kept; leading comments are kept up to
        // SNIFF_COMMENTS bytes; of the first other line, at most SNIFF_LINE bytes are looked
        // at. All of it is replayed, in order, to the reader chosen, so line numbers hold.
        let mut head = Replay::default();
        let mut comments = 0;
        let first = loop {
            let mut line = Vec::new();
            let read = (&mut buffered)
                .take(SNIFF_LINE as u64)
                .read_until(b'\n', &mut line);
            if let Err(e) = read {
                return Err(Problem::input(format!(
                    "slink: cannot read {name}: {}",
                    super::io_reason(&e)
                )));
            }
            let Some(body) = line.strip_suffix(b"\n") else {
                break line; // the end of the input, or a line longer than SNIFF_LINE
            };
            if body.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
                head.newline();
                continue;
            }
            // Blank lines and `#` comments (allowed in files of URLs) are skipped.
            let text = body.trim_ascii();
            if (text.is_empty() || text.starts_with(b"#"))
                && comments + line.len() <= SNIFF_COMMENTS
            {
                comments += line.len();
                head.text(line);
                continue;
            }
            break line;
        };
        let urls = url::looks_like_url(&String::from_utf8_lossy(&first));
        head.text(first);
        if urls {
            let lines: Box<dyn BufRead + Send + 'a> =
                Box::new(BufReader::new(head.chain(buffered)));
            Ok(Some(Current::Urls {
                name,
                lines,
                line: 0,
                single: false,
            }))
        } else {
            let input: Box<dyn Read + Send + 'a> = Box::new(head.chain(buffered));
            let reader =
                Box::new(PuzzleReader::new(name.to_string(), input).with_max_cells(self.max_cells));
            Ok(Some(Current::Stream { name, reader }))
        }
    }
}

/// Most bytes of a stream's first line (after blank lines and comments) looked at to tell a
/// file of URLs from a puzzle stream: a URL names `slither/` near its start.
const SNIFF_LINE: usize = 64 * 1024;
/// Most bytes of leading comment lines kept while looking for the first line; past them the
/// stream is read as puzzles (whose reader reports the first comment as a bad size line).
const SNIFF_COMMENTS: usize = 1 << 20;

/// The lines read while telling URLs from puzzles, handed back in order: runs of blank lines
/// as a count, other lines as their bytes.
#[derive(Default)]
struct Replay {
    parts: VecDeque<Part>,
}

enum Part {
    Newlines(u64),
    Text(Vec<u8>, usize),
}

impl Replay {
    fn newline(&mut self) {
        match self.parts.back_mut() {
            Some(Part::Newlines(n)) => *n += 1,
            _ => self.parts.push_back(Part::Newlines(1)),
        }
    }

    fn text(&mut self, bytes: Vec<u8>) {
        match self.parts.back_mut() {
            Some(Part::Text(text, _)) => text.extend_from_slice(&bytes),
            _ => self.parts.push_back(Part::Text(bytes, 0)),
        }
    }
}

impl Read for Replay {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        while let Some(part) = self.parts.front_mut() {
            match part {
                Part::Newlines(n) if *n > 0 => {
                    let k = usize::try_from(*n).map_or(buf.len(), |n| n.min(buf.len()));
                    buf[..k].fill(b'\n');
                    *n -= k as u64;
                    return Ok(k);
                }
                Part::Text(text, at) if *at < text.len() => {
                    let k = (text.len() - *at).min(buf.len());
                    buf[..k].copy_from_slice(&text[*at..*at + k]);
                    *at += k;
                    return Ok(k);
                }
                _ => {
                    self.parts.pop_front();
                }
            }
        }
        Ok(0)
    }
}

/// Opens a puzzle file; a directory is refused here rather than failing at its first read.
fn open_file(path: &std::path::Path) -> Result<std::fs::File, String> {
    let file = std::fs::File::open(path).map_err(|e| super::io_reason(&e))?;
    match file.metadata() {
        Ok(meta) if meta.is_dir() => {
            Err("it is a directory (give puzzle files, or - for standard input)".to_string())
        }
        _ => Ok(file),
    }
}
