//! Puzzles and the streaming reader of the puzzle input format (`R C`, R rows of clues, `0 0`).
//!
//! The reader works on bytes in its own large buffer: no per-token allocation and no UTF-8
//! validation of the input. Errors name the line and column (1-based, counted in characters)
//! and say what was expected and what was found.

use std::fmt;
use std::io::{self, Read, Write};

/// Largest number of rows or columns accepted in a puzzle.
pub const MAX_SIDE: usize = 100_000;
/// Largest number of cells (rows x columns) accepted in a puzzle.
pub const MAX_CELLS: usize = 50_000_000;
/// Size of the reader's buffer, and so of each read from the input.
pub const DEFAULT_BUFFER_SIZE: usize = 64 * 1024;
/// Longest input line the reader accepts; a longer line is reported, skipped to its end
/// without being kept, and the stream goes on after it.
pub const MAX_LINE_LENGTH: usize = 64 * 1024 * 1024;

/// Appends the decimal digits of `n` to `out` (the puzzle writer's and the answer frame's
/// numbers: faster than `write!` on the hot path of a stream).
pub(crate) fn push_decimal(out: &mut Vec<u8>, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

/// A puzzle: rows x cols cells, row-major clues; None = blank cell ('.' or '-').
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Number of cell rows.
    pub rows: usize,
    /// Number of cell columns.
    pub cols: usize,
    /// The clues, row by row (`rows * cols` of them); `None` is a blank cell.
    pub clues: Vec<Option<u8>>,
}

impl Puzzle {
    /// The clue of the cell in row `r`, column `c` (both 0-based); `None` for a blank cell.
    ///
    /// The cell must be inside the grid (checked in debug builds; in release builds only an
    /// index past the end of `clues` panics).
    #[inline]
    pub fn clue(&self, r: usize, c: usize) -> Option<u8> {
        debug_assert!(r < self.rows && c < self.cols);
        self.clues[r * self.cols + c]
    }

    /// Writes the puzzle back in the input format (header, rows, no "0 0").
    ///
    /// Blank cells are written as `.`.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        push_decimal(out, self.rows);
        out.push(b' ');
        push_decimal(out, self.cols);
        out.push(b'\n');
        out.reserve(self.rows * (2 * self.cols).max(1));
        for r in 0..self.rows {
            let row = &self.clues[r * self.cols..(r + 1) * self.cols];
            for (j, clue) in row.iter().enumerate() {
                if j > 0 {
                    out.push(b' ');
                }
                out.push(match clue {
                    Some(d) if *d <= 9 => b'0' + d,
                    Some(_) => b'?',
                    None => b'.',
                });
            }
            out.push(b'\n');
        }
    }
}

/// Where something is in an input: 1-based line and column.
///
/// Columns count characters (a tab counts as one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column number, in characters.
    pub column: usize,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// A problem with the input stream, with its position and a short clear sentence.
#[derive(Debug, thiserror::Error)]
#[error("{source_name}:{}:{}: {message}", .position.line, .position.column)]
pub struct InputError {
    /// Name of the input (a file name, or `-` / `<stdin>`), as given to [`PuzzleReader::new`].
    pub source_name: String,
    /// Where the problem is.
    pub position: Position,
    /// What was expected and what was found.
    pub message: String,
    /// Whether the reader can go on with the next puzzle after this error.
    pub recoverable: bool,
    /// Whether the lines in error stand for a puzzle, so that it takes a number (false for
    /// lines that are not a puzzle, such as an extra row of the previous one, and for the
    /// second error of one puzzle).
    pub is_puzzle: bool,
}

/// Decoding of one clue byte: 0..=3 a clue, `BLANK` for `.`/`-`, `BAD` otherwise.
const BLANK: u8 = 4;
const BAD: u8 = 0xff;
static CLUE_CODE: [u8; 256] = {
    let mut table = [BAD; 256];
    table[b'0' as usize] = 0;
    table[b'1' as usize] = 1;
    table[b'2' as usize] = 2;
    table[b'3' as usize] = 3;
    table[b'.' as usize] = BLANK;
    table[b'-' as usize] = BLANK;
    table
};

#[inline]
fn clue_of_code(code: u8) -> Option<u8> {
    if code < BLANK { Some(code) } else { None }
}

/// The clue a character of a row that passed [`bad_pairs`] stands for.
#[inline(always)]
fn clue_of_char(b: u8) -> Option<u8> {
    clue_of_code(CLUE_CODE[b as usize])
}

/// Whether pairs of (clue character, space) hold anything else.
#[inline(always)]
fn bad_pairs(pairs: &[u8]) -> bool {
    let mut bad = false;
    for pair in pairs.chunks_exact(2) {
        bad |= (CLUE_CODE[pair[0] as usize] == BAD) | (pair[1] != b' ');
    }
    bad
}

#[inline]
fn is_space(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// 1-based column of the byte just after `before` (the start of a line up to some point).
fn column_after(before: &[u8]) -> usize {
    // Count bytes that are not UTF-8 continuation bytes (0x80..=0xBF).
    before.iter().filter(|&&b| (b as i8) >= -0x40).count() + 1
}

/// A token of the input, quoted for a message: at most 20 characters, escaped.
fn quoted(token: &[u8]) -> String {
    const MAX_CHARS: usize = 20;
    let text = String::from_utf8_lossy(&token[..token.len().min(4 * MAX_CHARS)]);
    let mut shown = String::with_capacity(MAX_CHARS + 5);
    shown.push('\'');
    for (n, ch) in text.chars().enumerate() {
        if n == MAX_CHARS {
            shown.push_str("...");
            break;
        }
        shown.extend(ch.escape_debug());
    }
    if text.chars().count() <= MAX_CHARS && token.len() > 4 * MAX_CHARS {
        shown.push_str("...");
    }
    shown.push('\'');
    shown
}

/// `n` and the noun, singular or plural: "1 value", "3 values".
fn count_of(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// Index of the first `\n` in `bytes`.
#[inline]
fn find_newline(bytes: &[u8]) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    const NL: u64 = LO * b'\n' as u64;
    let mut chunks = bytes.chunks_exact(8);
    let mut base = 0;
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().unwrap()) ^ NL;
        // Exact zero-byte test: the high bit of a byte is set iff that byte was zero.
        let found = !(((word & !HI) + !HI) | word | !HI);
        if found != 0 {
            return Some(base + (found.trailing_zeros() / 8) as usize);
        }
        base += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| b == b'\n')
        .map(|i| base + i)
}

/// A line in the reader's buffer: `start..end` without the line end and trailing whitespace.
#[derive(Clone, Copy)]
struct Line {
    start: usize,
    end: usize,
}

/// Reads puzzles one at a time from a byte stream, in large chunks.
///
/// Reading stops at the `0 0` end marker: nothing after it is read.
pub struct PuzzleReader<R: Read> {
    source_name: String,
    input: R,
    buf: Vec<u8>,
    /// Start of the unconsumed bytes in `buf`.
    start: usize,
    /// `start..scanned` is known to hold no newline.
    scanned: usize,
    /// End of the bytes read into `buf`.
    end: usize,
    /// The input has reported its end.
    eof: bool,
    /// Number of the last line handed out (0 before the first).
    line: usize,
    /// Column just after the last line, when the input ended without a final newline.
    unterminated_end: Option<usize>,
    started: usize,
    previous_rows: usize,
    finished: bool,
    missing_end: bool,
    /// The last line of the last bad puzzle read as `0 0`: when the input ends right after
    /// it, that line was the end marker, taken as a row because the puzzle was short a row.
    marker_in_bad_puzzle: bool,
    /// An unrecoverable error met while skipping the rest of a bad puzzle, reported next.
    pending: Option<InputError>,
    /// A line handed back (with its number) to be read again: the size line of the next
    /// puzzle, found while reading or skipping the rows of a bad one.
    unread: Option<(Line, usize)>,
    /// Largest number of cells accepted in a puzzle.
    max_cells: usize,
    /// Longest line accepted (the buffer grows at most to this).
    max_line: usize,
    /// The buffer's first size, which it goes back to after an over-long line.
    capacity: usize,
    /// An over-long line is being skipped: bytes are dropped up to its newline.
    discarding: bool,
}

impl<R: Read> PuzzleReader<R> {
    /// A reader of the puzzles of `input`, whose errors name `source_name`.
    pub fn new(source_name: impl Into<String>, input: R) -> Self {
        Self::with_capacity(source_name, input, DEFAULT_BUFFER_SIZE)
    }

    /// Like [`PuzzleReader::new`] with an initial buffer of `capacity` bytes (at least 1).
    ///
    /// Each read asks the input for at most the free space of the buffer; the buffer grows
    /// (up to [`MAX_LINE_LENGTH`]) when a single line does not fit.
    pub fn with_capacity(source_name: impl Into<String>, input: R, capacity: usize) -> Self {
        PuzzleReader {
            source_name: source_name.into(),
            input,
            buf: vec![0; capacity.max(1)],
            start: 0,
            scanned: 0,
            end: 0,
            eof: false,
            line: 0,
            unterminated_end: None,
            started: 0,
            previous_rows: 0,
            finished: false,
            missing_end: false,
            marker_in_bad_puzzle: false,
            pending: None,
            unread: None,
            max_cells: MAX_CELLS,
            max_line: MAX_LINE_LENGTH,
            capacity: capacity.max(1),
            discarding: false,
        }
    }

    /// Sets the longest line accepted (default [`MAX_LINE_LENGTH`], at least 1 byte); a
    /// longer line is reported with its position and skipped, and the stream goes on.
    pub fn with_max_line_length(mut self, max_line: usize) -> Self {
        self.max_line = max_line.max(1);
        self
    }

    /// Sets the largest number of cells accepted in a puzzle (default [`MAX_CELLS`]); a
    /// larger puzzle is reported and skipped, and the stream goes on after it.
    pub fn with_max_cells(mut self, max_cells: usize) -> Self {
        self.max_cells = max_cells;
        self
    }

    /// Next puzzle of the stream. None after the "0 0" end marker (or at end of input).
    ///
    /// `before_read` is flushed before every read from the input, so answers already written
    /// reach the reader of our output before we block waiting for more input. (A failed flush
    /// is ignored here: the writer reports it again on its next write or flush.)
    ///
    /// After an error with `recoverable == true`, the next call goes on with the next puzzle:
    /// after a bad row, the rest of the puzzle's rows have been consumed (up to a line that
    /// reads as the next size line where the puzzle ran short); after a bad size line, the
    /// lines up to the next line that reads as a size line have been skipped (the message
    /// says which). After an unrecoverable error (the input ended inside a puzzle, or could
    /// not be read), every further call returns None.
    pub fn next_puzzle(
        &mut self,
        before_read: &mut dyn Write,
    ) -> Option<Result<Puzzle, InputError>> {
        if let Some(error) = self.pending.take() {
            if !error.recoverable {
                self.finished = true;
            }
            return Some(Err(error));
        }
        if self.finished {
            return None;
        }
        match self.read_puzzle(before_read) {
            Ok(Some(puzzle)) => Some(Ok(puzzle)),
            Ok(None) => {
                self.finished = true;
                None
            }
            Err(error) => {
                if !error.recoverable {
                    self.finished = true;
                }
                Some(Err(error))
            }
        }
    }

    /// Number of puzzles started so far (a puzzle with a bad value or a bad size line still
    /// counts, so numbering stays aligned with the input; lines that look like an extra row of
    /// the previous puzzle do not).
    pub fn puzzles_started(&self) -> usize {
        self.started
    }

    /// Whether the input ended where a header was expected, without the `0 0` end marker.
    pub fn missing_end_marker(&self) -> bool {
        self.missing_end
    }

    fn error(&self, line: usize, column: usize, message: String, recoverable: bool) -> InputError {
        InputError {
            source_name: self.source_name.clone(),
            position: Position { line, column },
            message,
            recoverable,
            is_puzzle: true,
        }
    }

    /// An error about the byte at `at` in the last line handed out.
    fn error_at(&self, line: Line, at: usize, message: String, recoverable: bool) -> InputError {
        let column = column_after(&self.buf[line.start..at]);
        self.error(self.line, column, message, recoverable)
    }

    /// Position just after the last byte of the input.
    fn end_position(&self) -> (usize, usize) {
        match self.unterminated_end {
            Some(column) => (self.line, column),
            None => (self.line + 1, 1),
        }
    }

    fn read_puzzle(&mut self, before_read: &mut dyn Write) -> Result<Option<Puzzle>, InputError> {
        let header = loop {
            let next = self.next_line(before_read).inspect_err(|error| {
                // An over-long line where a size line was expected: a bad puzzle of its own.
                if error.recoverable && error.is_puzzle {
                    self.started += 1;
                    self.previous_rows = 0;
                }
            });
            match next? {
                None => {
                    // A `0 0` taken as the last row of a puzzle short a row was the end marker.
                    self.missing_end = !self.marker_in_bad_puzzle;
                    return Ok(None);
                }
                Some(line) if line.start == line.end => continue,
                Some(line) => break line,
            }
        };
        self.marker_in_bad_puzzle = false;
        let (rows, cols) = match self.parse_header(header) {
            Ok(None) => return Ok(None),
            Ok(Some(size)) => size,
            Err(mut error) => {
                if error.is_puzzle {
                    self.started += 1;
                    self.previous_rows = 0;
                }
                self.skip_to_next_header(before_read, &mut error)?;
                return Err(error);
            }
        };
        self.started += 1;
        self.previous_rows = rows;
        let number = self.started;
        // Reserve for what the header promises only up to a point: the rows may never come.
        let mut clues = Vec::with_capacity((rows * cols).min(1 << 22));
        let mut scratch = Vec::new();
        let mut first_error: Option<InputError> = None;
        let mut row = 0;
        let mut last = None;
        while row < rows {
            let line = match self.next_line(before_read) {
                Ok(Some(line)) => line,
                result => {
                    let error = match result {
                        Err(error) => error,
                        _ => {
                            let (line, column) = self.end_position();
                            let message = format!(
                                "input ended inside puzzle {number}: expected {}, found {row}",
                                count_of(rows, "row"),
                            );
                            self.error(line, column, message, false)
                        }
                    };
                    return Err(match first_error {
                        Some(first) => {
                            self.pending = Some(InputError {
                                is_puzzle: false,
                                ..error
                            });
                            first
                        }
                        None => error,
                    });
                }
            };
            if line.start == line.end {
                continue; // a blank line is never a row (a row holds at least one value)
            }
            row += 1;
            let target = if first_error.is_none() {
                &mut clues
            } else {
                scratch.clear();
                &mut scratch
            };
            last = Some(line);
            let Err(error) = self.parse_row(line, number, row, cols, target) else {
                continue;
            };
            if self.reads_as_next_size(line, cols) {
                // The puzzle ran short: this line is the size line of the next puzzle.
                self.unread = Some((line, self.line));
                return Err(first_error.unwrap_or_else(|| {
                    let message = format!(
                        "puzzle {number} ends after {} of its {}: this line reads as the \
                         size of the next puzzle",
                        row - 1,
                        count_of(rows, "row"),
                    );
                    self.error_at(line, line.start, message, true)
                }));
            }
            first_error.get_or_insert(error);
        }
        match first_error {
            Some(error) => {
                self.marker_in_bad_puzzle = last.is_some_and(|line| self.is_end_marker(line));
                Err(error)
            }
            None => Ok(Some(Puzzle { rows, cols, clues })),
        }
    }

    /// Whether a line holds exactly two whole numbers, as a size line or the end marker does.
    fn reads_as_size(&self, line: Line) -> bool {
        let s = &self.buf[line.start..line.end];
        let mut tokens = Tokens { s, i: 0 };
        let mut digits = || {
            tokens
                .next()
                .is_some_and(|(a, b)| s[a..b].iter().all(u8::is_ascii_digit))
        };
        digits() && digits() && tokens.next().is_none()
    }

    /// Whether a bad row of a puzzle with `cols` columns is rather the size line of the next
    /// puzzle (or the end marker): two whole numbers, where a row has another number of
    /// values, and not a short row of clues (`1 1` is taken for a row missing a value, `0 0`
    /// and `3 4` for a size line).
    fn reads_as_next_size(&self, line: Line, cols: usize) -> bool {
        if cols == 2 || !self.reads_as_size(line) {
            return false;
        }
        let s = &self.buf[line.start..line.end];
        let clue_row =
            Tokens { s, i: 0 }.all(|(a, b)| b - a == 1 && CLUE_CODE[s[a] as usize] != BAD);
        !clue_row || self.is_end_marker(line)
    }

    /// Whether a line reads `0 0`.
    fn is_end_marker(&self, line: Line) -> bool {
        let s = &self.buf[line.start..line.end];
        let tokens: Vec<&[u8]> = Tokens { s, i: 0 }.map(|(a, b)| &s[a..b]).collect();
        tokens.len() == 2
            && tokens
                .iter()
                .all(|t| !t.is_empty() && t.iter().all(|&d| d == b'0'))
    }

    /// After a bad size line: skips lines up to the next one that reads as a size line (two
    /// whole numbers, which is left to be read next) or the end of the input, and says in
    /// `error` which lines were skipped.
    fn skip_to_next_header(
        &mut self,
        before_read: &mut dyn Write,
        error: &mut InputError,
    ) -> Result<(), InputError> {
        let mut skipped: Option<(usize, usize)> = None;
        let end = loop {
            let next = match self.next_line(before_read) {
                Ok(next) => next,
                Err(e) => {
                    self.pending = Some(InputError {
                        is_puzzle: false,
                        ..e
                    });
                    break None;
                }
            };
            match next {
                None => break None,
                Some(line) if line.start == line.end => continue,
                Some(line) if self.reads_as_size(line) => {
                    self.unread = Some((line, self.line));
                    break Some(self.line);
                }
                Some(_) => {
                    let first = skipped.map_or(self.line, |(first, _)| first);
                    skipped = Some((first, self.line));
                }
            }
        };
        let lines = |(first, last): (usize, usize)| {
            if first == last {
                format!("line {first}")
            } else {
                format!("lines {first}-{last}")
            }
        };
        match (skipped, end) {
            (None, _) => {}
            (Some(range), Some(next)) => error.message.push_str(&format!(
                "; skipped {} up to the next size line (line {next})",
                lines(range)
            )),
            (Some(range), None) => error.message.push_str(&format!(
                "; skipped {} to the end of the input (no size line follows)",
                lines(range)
            )),
        }
        Ok(())
    }

    /// Parses a header line: `Some((rows, cols))`, or None for the `0 0` end marker.
    ///
    /// Every error is recoverable: the caller skips to the next line that reads as a size.
    fn parse_header(&self, line: Line) -> Result<Option<(usize, usize)>, InputError> {
        let number = self.started + 1;
        let s = &self.buf[line.start..line.end];
        let mut tokens = Tokens { s, i: 0 };
        let expected = format!("expected the size 'rows columns' of puzzle {number}");
        // A line that looks like a row of clues is an extra row of the previous puzzle, not a
        // puzzle of its own.
        let fail = |at: usize, mut message: String| {
            let is_puzzle = !self.add_extra_row_hint(s, &mut message);
            InputError {
                is_puzzle,
                ..self.error_at(line, at, message, true)
            }
        };
        let mut values = [0usize; 2];
        let mut spans = [(0, 0); 2];
        for (k, value) in values.iter_mut().enumerate() {
            let Some((a, b)) = tokens.next() else {
                let message = format!("{expected} (two whole numbers), found only one number");
                return Err(fail(line.end, message));
            };
            let token = &s[a..b];
            if !token.iter().all(u8::is_ascii_digit) {
                let mut message =
                    format!("{expected} (two whole numbers), found {}", quoted(token));
                if token.len() > 1 && token[0] == b'-' && token[1..].iter().all(u8::is_ascii_digit)
                {
                    message.push_str(" (a size is never negative)");
                }
                return Err(fail(line.start + a, message));
            }
            *value = token.iter().fold(0usize, |v, &d| {
                v.saturating_mul(10).saturating_add((d - b'0') as usize)
            });
            spans[k] = (a, b);
        }
        if let Some((a, b)) = tokens.next() {
            let message = format!("{expected}, found more after it: {}", quoted(&s[a..b]));
            return Err(fail(line.start + a, message));
        }
        let [rows, cols] = values;
        let size = || {
            let r = String::from_utf8_lossy(&s[spans[0].0..spans[0].1]);
            let c = String::from_utf8_lossy(&s[spans[1].0..spans[1].1]);
            format!("{r}x{c}")
        };
        if rows == 0 && cols == 0 {
            return Ok(None);
        }
        let at = line.start + spans[0].0;
        if rows == 0 || cols == 0 {
            let message = format!(
                "puzzle {number}: size {} has no cells (rows and columns must be at least 1; \
                 '0 0' ends the input)",
                size()
            );
            return Err(self.error_at(line, at, message, true));
        }
        let max_cells = self.max_cells;
        if rows > MAX_SIDE || cols > MAX_SIDE || rows.saturating_mul(cols) > max_cells {
            let message = format!(
                "puzzle {number}: size {} is too large (at most {MAX_SIDE} rows, {MAX_SIDE} \
                 columns and {max_cells} cells; --max-cells sets the cell limit)",
                size()
            );
            return Err(self.error_at(line, at, message, true));
        }
        Ok(Some((rows, cols)))
    }

    /// When a bad header line looks like a row of clues, suggests that the previous puzzle
    /// has more rows than its header says; returns whether it did.
    fn add_extra_row_hint(&self, s: &[u8], message: &mut String) -> bool {
        if self.started == 0 || self.previous_rows == 0 {
            return false;
        }
        let looks_like_row =
            Tokens { s, i: 0 }.all(|(a, b)| b - a == 1 && CLUE_CODE[s[a] as usize] != BAD);
        if looks_like_row {
            message.push_str(&format!(
                " (this looks like a row: does puzzle {} have more than the {} its \
                 header says?)",
                self.started,
                count_of(self.previous_rows, "row")
            ));
        }
        looks_like_row
    }

    /// Parses row `row` (1-based) of puzzle `number`, appending its `cols` clues to `clues`.
    fn parse_row(
        &self,
        line: Line,
        number: usize,
        row: usize,
        cols: usize,
        clues: &mut Vec<Option<u8>>,
    ) -> Result<(), InputError> {
        let s = &self.buf[line.start..line.end];
        // Fast path: values separated by single spaces, no leading whitespace.
        if s.len() == 2 * cols - 1 {
            let before = clues.len();
            let (pairs, last) = s.split_at(s.len() - 1);
            let mut bad = CLUE_CODE[last[0] as usize] == BAD;
            // Four clues at a time: all digits 0-3, each followed by a space, is one test of
            // eight bytes (a Slink row is nothing else); other runs are looked up one by one.
            let quads = pairs.chunks_exact(8);
            let rest = quads.remainder();
            for quad in quads {
                let w = u64::from_le_bytes(quad.try_into().expect("eight bytes"));
                if (w ^ 0x2030_2030_2030_2030) & 0xFFFC_FFFC_FFFC_FFFC == 0 {
                    clues.extend(quad.iter().step_by(2).map(|&b| Some(b & 3)));
                } else {
                    bad |= bad_pairs(quad);
                    clues.extend(quad.iter().step_by(2).map(|&b| clue_of_char(b)));
                }
            }
            bad |= bad_pairs(rest);
            clues.extend(rest.iter().chain(last).step_by(2).map(|&b| clue_of_char(b)));
            if !bad {
                return Ok(());
            }
            clues.truncate(before);
        }
        // General path.
        let mut count = 0;
        let mut tokens = Tokens { s, i: 0 };
        while let Some((a, b)) = tokens.next() {
            count += 1;
            if count > cols {
                let found = count + tokens.count();
                let message = format!(
                    "puzzle {number}, row {row}: expected {}, found {found}",
                    count_of(cols, "value")
                );
                return Err(self.error_at(line, line.start + a, message, true));
            }
            let code = if b - a == 1 {
                CLUE_CODE[s[a] as usize]
            } else {
                BAD
            };
            if code == BAD {
                let message = format!(
                    "puzzle {number}, row {row}: expected a clue 0-3 or '.', found {}",
                    quoted(&s[a..b])
                );
                return Err(self.error_at(line, line.start + a, message, true));
            }
            clues.push(clue_of_code(code));
        }
        if count < cols {
            let message = format!(
                "puzzle {number}, row {row}: expected {}, found {count}",
                count_of(cols, "value")
            );
            return Err(self.error_at(line, line.end, message, true));
        }
        Ok(())
    }

    /// The next line of the input, or None at its end.
    fn next_line(&mut self, before_read: &mut dyn Write) -> Result<Option<Line>, InputError> {
        if let Some((line, number)) = self.unread.take() {
            self.line = number;
            return Ok(Some(line));
        }
        loop {
            if self.discarding {
                // The rest of an over-long line: dropped up to its newline, never kept.
                match find_newline(&self.buf[self.scanned..self.end]) {
                    Some(offset) => {
                        self.start = self.scanned + offset + 1;
                        self.scanned = self.start;
                        self.discarding = false;
                    }
                    None => {
                        (self.start, self.scanned, self.end) = (0, 0, 0);
                        if self.eof {
                            self.discarding = false;
                            return Ok(None);
                        }
                        self.fill(before_read)?;
                        continue;
                    }
                }
            }
            if let Some(offset) = find_newline(&self.buf[self.scanned..self.end]) {
                let newline = self.scanned + offset;
                let line = self.take_line(self.start, newline);
                self.start = newline + 1;
                self.scanned = self.start;
                return Ok(Some(line));
            }
            self.scanned = self.end;
            if self.eof {
                if self.start == self.end {
                    return Ok(None);
                }
                let line = self.take_line(self.start, self.end);
                self.unterminated_end = Some(column_after(&self.buf[line.start..self.end]));
                self.start = self.end;
                self.scanned = self.end;
                return Ok(Some(line));
            }
            self.fill(before_read)?;
        }
    }

    /// Hands out the line `start..end` (without its `\n`).
    fn take_line(&mut self, mut start: usize, mut end: usize) -> Line {
        self.line += 1;
        if self.line == 1 && self.buf[start..end].starts_with(b"\xEF\xBB\xBF") {
            start += 3; // UTF-8 byte order mark
        }
        while end > start && matches!(self.buf[end - 1], b' ' | b'\t' | b'\r') {
            end -= 1;
        }
        Line { start, end }
    }

    /// Reads more input after the unconsumed bytes, making room first.
    fn fill(&mut self, before_read: &mut dyn Write) -> Result<(), InputError> {
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.scanned -= self.start;
            self.start = 0;
        }
        if self.end == self.buf.len() {
            if self.buf.len() >= self.max_line {
                // The line is dropped (and the buffer goes back to its first size); the rest
                // of it is skipped by `next_line`, and the stream goes on after it.
                self.line += 1;
                let message = format!(
                    "line {} is longer than {}: skipped to its end (is this a puzzle file?)",
                    self.line,
                    size_text(self.max_line)
                );
                (self.start, self.scanned, self.end) = (0, 0, 0);
                self.discarding = true;
                self.buf = vec![0; self.capacity];
                return Err(self.error(self.line, 1, message, true));
            }
            let new_len = (2 * self.buf.len()).min(self.max_line);
            self.buf.resize(new_len, 0);
        }
        let _ = before_read.flush();
        loop {
            match self.input.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(());
                }
                Ok(n) => {
                    self.end += n;
                    return Ok(());
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    let (line, column) = (self.line + 1, 1);
                    let message = format!("could not read the input: {e}");
                    return Err(self.error(line, column, message, false));
                }
            }
        }
    }
}

/// `64 MiB`, `100 bytes`: a limit in words.
fn size_text(bytes: usize) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// Whitespace-separated tokens of a line, as byte ranges.
struct Tokens<'a> {
    s: &'a [u8],
    i: usize,
}

impl Iterator for Tokens<'_> {
    type Item = (usize, usize);

    #[inline]
    fn next(&mut self) -> Option<(usize, usize)> {
        let s = self.s;
        let mut i = self.i;
        while i < s.len() && is_space(s[i]) {
            i += 1;
        }
        if i == s.len() {
            self.i = i;
            return None;
        }
        let start = i;
        while i < s.len() && !is_space(s[i]) {
            i += 1;
        }
        self.i = i;
        Some((start, i))
    }
}

/// Convenience: parse a whole in-memory stream (used by tests and benchmarks).
///
/// # Errors
///
/// Returns the first error met, recoverable or not (the puzzles would not line up with the
/// input otherwise).
pub fn parse_all(source_name: &str, text: &[u8]) -> Result<Vec<Puzzle>, InputError> {
    let mut reader = PuzzleReader::new(source_name, text);
    let mut sink = io::sink();
    let mut puzzles = Vec::new();
    while let Some(puzzle) = reader.next_puzzle(&mut sink) {
        puzzles.push(puzzle?);
    }
    Ok(puzzles)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE_IN: &str = include_str!("../tests/data/sample.in");

    /// All results of a reader over `text` with a buffer of `capacity` bytes.
    fn read_all(text: &str, capacity: usize) -> (Vec<Result<Puzzle, InputError>>, bool) {
        let mut reader = PuzzleReader::with_capacity("t.in", text.as_bytes(), capacity);
        let mut results = Vec::new();
        while let Some(result) = reader.next_puzzle(&mut io::sink()) {
            results.push(result);
            assert!(results.len() < 100, "reader does not stop");
        }
        assert!(reader.next_puzzle(&mut io::sink()).is_none());
        (results, reader.missing_end_marker())
    }

    fn p(rows: usize, cols: usize, clues: &[Option<u8>]) -> Puzzle {
        Puzzle {
            rows,
            cols,
            clues: clues.to_vec(),
        }
    }

    fn only_error(text: &str) -> InputError {
        let (results, _) = read_all(text, 7);
        let errors: Vec<_> = results.into_iter().filter_map(Result::err).collect();
        assert_eq!(errors.len(), 1, "{errors:?}");
        errors.into_iter().next().unwrap()
    }

    fn assert_error(e: &InputError, line: usize, column: usize, message: &str, rec: bool) {
        assert_eq!(e.position, Position { line, column }, "{e}");
        assert_eq!(e.message, message);
        assert_eq!(e.recoverable, rec, "{e}");
    }

    #[test]
    fn sample_stream() {
        for capacity in [1, 3, 16, DEFAULT_BUFFER_SIZE] {
            let (results, missing) = read_all(SAMPLE_IN, capacity);
            assert!(!missing);
            let puzzles: Vec<Puzzle> = results.into_iter().map(Result::unwrap).collect();
            let sizes: Vec<_> = puzzles.iter().map(|p| (p.rows, p.cols)).collect();
            assert_eq!(sizes, [(8, 8), (6, 6), (2, 2), (3, 5)]);
            assert_eq!(puzzles[2], p(2, 2, &[Some(2); 4]));
            assert_eq!(puzzles[0].clue(0, 7), Some(3));
            assert_eq!(puzzles[3].clue(1, 3), Some(3));
            assert_eq!(puzzles[3].clue(2, 0), Some(3));
        }
    }

    #[test]
    fn blanks_crlf_blank_lines_and_spacing() {
        let text = "\u{feff}\r\n  \n2 3  \r\n. - 3\r\n\t0  1\t2 \r\n\r\n\n 1\t1\n-\n0 0\r\n";
        let (results, missing) = read_all(text, 5);
        assert!(!missing);
        let puzzles: Vec<Puzzle> = results.into_iter().map(Result::unwrap).collect();
        assert_eq!(
            puzzles,
            [
                p(2, 3, &[None, None, Some(3), Some(0), Some(1), Some(2)]),
                p(1, 1, &[None]),
            ]
        );
    }

    #[test]
    fn end_marker_stops_reading() {
        // Nothing after "0 0" is looked at, not even garbage.
        let (results, missing) = read_all("1 1\n2\n0 0\nnot a puzzle\n", 64);
        assert_eq!(results.len(), 1);
        assert!(!missing);
        let (results, missing) = read_all("0 0", 64);
        assert!(results.is_empty() && !missing);
    }

    #[test]
    fn missing_end_marker() {
        let (results, missing) = read_all("1 1\n2\n\n", 64);
        assert_eq!(results.len(), 1);
        assert!(missing);
        let (results, missing) = read_all("", 64);
        assert!(results.is_empty() && missing);
        let (results, missing) = read_all("1 2\n3 3", 64);
        assert_eq!(results.len(), 1);
        assert!(results[0].is_ok() && missing);
    }

    #[test]
    fn bad_values_are_recoverable() {
        let text = "1 1\n1\n2 3\n1 4 2\n1 x 3\n2 2\n0 0\n0 0\n1 1\n0\n0 0\n";
        let mut reader = PuzzleReader::with_capacity("t.in", text.as_bytes(), 4);
        let sink = &mut io::sink();
        assert_eq!(
            reader.next_puzzle(sink).unwrap().unwrap(),
            p(1, 1, &[Some(1)])
        );
        let e = reader.next_puzzle(sink).unwrap().unwrap_err();
        assert_error(
            &e,
            4,
            3,
            "puzzle 2, row 1: expected a clue 0-3 or '.', found '4'",
            true,
        );
        assert_eq!(
            e.to_string(),
            "t.in:4:3: puzzle 2, row 1: expected a clue 0-3 or '.', found '4'"
        );
        assert_eq!(reader.puzzles_started(), 2);
        assert_eq!(
            reader.next_puzzle(sink).unwrap().unwrap(),
            p(2, 2, &[Some(0); 4])
        );
        assert_eq!(
            reader.next_puzzle(sink).unwrap().unwrap(),
            p(1, 1, &[Some(0)])
        );
        assert!(reader.next_puzzle(sink).is_none());
        assert_eq!(reader.puzzles_started(), 4);
        assert!(!reader.missing_end_marker());
    }

    #[test]
    fn bad_value_messages() {
        let e = only_error("2 2\n1 1\n1 12\n0 0\n");
        assert_error(
            &e,
            3,
            3,
            "puzzle 1, row 2: expected a clue 0-3 or '.', found '12'",
            true,
        );
        let e = only_error("1 3\n1\t. \u{e9}\n0 0\n");
        assert_error(
            &e,
            2,
            5,
            "puzzle 1, row 1: expected a clue 0-3 or '.', found 'é'",
            true,
        );
        let e = only_error("1 2\n1\u{e9} 1\n0 0\n");
        assert_error(
            &e,
            2,
            1,
            "puzzle 1, row 1: expected a clue 0-3 or '.', found '1é'",
            true,
        );
        let e = only_error("1 2\n1 \u{e9}x\n0 0\n");
        assert_error(
            &e,
            2,
            3,
            "puzzle 1, row 1: expected a clue 0-3 or '.', found 'éx'",
            true,
        );
        let e = only_error("1 2\n1 1\r1\n0 0\n");
        assert_error(
            &e,
            2,
            3,
            "puzzle 1, row 1: expected a clue 0-3 or '.', found '1\\r1'",
            true,
        );
        let long = format!("1 1\n{}\n0 0\n", "x".repeat(100));
        let e = only_error(&long);
        let message = format!(
            "puzzle 1, row 1: expected a clue 0-3 or '.', found '{}...'",
            "x".repeat(20)
        );
        assert_error(&e, 2, 1, &message, true);
    }

    #[test]
    fn rows_read_four_clues_at_a_time_agree_with_one_at_a_time() {
        // Nine columns: two runs of four clues and a last one; blanks, dashes and digits in
        // every place of a run, so that runs of digits only and runs with blanks both occur.
        let rows = [
            "0 1 2 3 0 1 2 3 0",
            ". 1 2 3 - 1 2 3 .",
            "3 3 3 . 3 3 3 3 -",
            "- - - - . . . . 2",
        ];
        let text = format!("4 9\n{}\n0 0\n", rows.join("\n"));
        let puzzle = parse_all("t", text.as_bytes()).unwrap().remove(0);
        let expected: Vec<Option<u8>> = rows
            .iter()
            .flat_map(|row| row.split(' '))
            .map(|t| t.parse().ok())
            .collect();
        assert_eq!(puzzle.clues, expected);
        // A bad character in a run of digits, or a tab for a space, is reported where it is.
        let e = only_error("1 9\n0 1 2 3 0 1 4 3 0\n0 0\n");
        assert_error(
            &e,
            2,
            13,
            "puzzle 1, row 1: expected a clue 0-3 or '.', found '4'",
            true,
        );
        let e = only_error("1 9\n0 1 2 3\t0 1 2 3 0 x\n0 0\n");
        assert_error(
            &e,
            2,
            19,
            "puzzle 1, row 1: expected 9 values, found 10",
            true,
        );
    }

    #[test]
    fn wrong_number_of_values() {
        let e = only_error("1 1\n1\n2 3\n1 1\n1 1 1\n0 0\n");
        assert_error(
            &e,
            4,
            4,
            "puzzle 2, row 1: expected 3 values, found 2",
            true,
        );
        let e = only_error("2 3\n1 1 1\n 1 1 1 2 x 3 \n0 0\n");
        assert_error(
            &e,
            3,
            8,
            "puzzle 1, row 2: expected 3 values, found 6",
            true,
        );
        // A blank line is never a row; here a row is missing, and `0 0` is the end marker.
        let (results, missing) = read_all("2 3\n\n1 1 1\n0 0\n", 7);
        assert!(!missing);
        assert_eq!(results.len(), 1);
        assert_error(
            results[0].as_ref().unwrap_err(),
            4,
            1,
            "puzzle 1 ends after 1 of its 2 rows: this line reads as the size of the next puzzle",
            true,
        );
        // Only the first problem of a puzzle is reported; all its rows are consumed.
        let (results, _) = read_all("3 2\n1 x\n1\n1 1 1\n1 1\n1\n0 0\n", 8);
        assert_eq!(results.len(), 2);
        assert_error(
            results[0].as_ref().unwrap_err(),
            2,
            3,
            "puzzle 1, row 1: expected a clue 0-3 or '.', found 'x'",
            true,
        );
        assert_eq!(results[1].as_ref().unwrap(), &p(1, 1, &[Some(1)]));
    }

    #[test]
    fn bad_headers_are_reported_and_skipped() {
        let cases: &[(&str, usize, usize, &str)] = &[
            (
                "3\n",
                1,
                2,
                "expected the size 'rows columns' of puzzle 1 (two whole numbers), found only one number",
            ),
            (
                "  3 x\n",
                1,
                5,
                "expected the size 'rows columns' of puzzle 1 (two whole numbers), found 'x'",
            ),
            (
                "-1 2\n",
                1,
                1,
                "expected the size 'rows columns' of puzzle 1 (two whole numbers), found '-1' (a size is never negative)",
            ),
            (
                "2 2 2\n",
                1,
                5,
                "expected the size 'rows columns' of puzzle 1, found more after it: '2'",
            ),
            (
                "0 3\n",
                1,
                1,
                "puzzle 1: size 0x3 has no cells (rows and columns must be at least 1; '0 0' ends the input)",
            ),
            (
                "1 1\n1\n\n 4 00\n",
                4,
                2,
                "puzzle 2: size 4x00 has no cells (rows and columns must be at least 1; '0 0' ends the input)",
            ),
            (
                "100001 1\n",
                1,
                1,
                "puzzle 1: size 100001x1 is too large (at most 100000 rows, 100000 columns and 50000000 cells; --max-cells sets the cell limit)",
            ),
            (
                "10000 5001\n",
                1,
                1,
                "puzzle 1: size 10000x5001 is too large (at most 100000 rows, 100000 columns and 50000000 cells; --max-cells sets the cell limit)",
            ),
            (
                "99999999999999999999999 1\n",
                1,
                1,
                "puzzle 1: size 99999999999999999999999x1 is too large (at most 100000 rows, 100000 columns and 50000000 cells; --max-cells sets the cell limit)",
            ),
            (
                "1 2\n1 1\n1\r 1\n",
                3,
                1,
                "expected the size 'rows columns' of puzzle 2 (two whole numbers), found '1\\r'",
            ),
        ];
        for &(text, line, column, message) in cases {
            let (results, missing) = read_all(text, 3);
            assert!(missing, "{text:?}: no end marker follows");
            let e = results.last().unwrap().as_ref().unwrap_err();
            assert_error(e, line, column, message, true);
        }
        // A row too many: the hint points at the previous puzzle.
        let e = only_error("1 3\n1 1 1\n1 1 1\n0 0\n");
        assert_error(
            &e,
            3,
            5,
            "expected the size 'rows columns' of puzzle 2, found more after it: '1' \
             (this looks like a row: does puzzle 1 have more than the 1 row its header says?)",
            true,
        );
        assert!(!e.is_puzzle, "an extra row is not a puzzle");
        let e = only_error("2 1\n1\n.\n3\n0 0\n");
        assert_error(
            &e,
            4,
            2,
            "expected the size 'rows columns' of puzzle 2 (two whole numbers), found only one \
             number (this looks like a row: does puzzle 1 have more than the 2 rows its header \
             says?)",
            true,
        );
        // 50_000_000 cells exactly is fine (only the header is checked here).
        let (results, _) = read_all("10000 5000\n", 64);
        assert!(
            !results[0]
                .as_ref()
                .unwrap_err()
                .message
                .contains("too large")
        );
    }

    /// Every puzzle read after a bad size line, with the bad lines' errors in between.
    fn outcomes(text: &str, max_cells: usize) -> Vec<Result<Puzzle, String>> {
        let mut reader =
            PuzzleReader::with_capacity("t.in", text.as_bytes(), 5).with_max_cells(max_cells);
        let mut results = Vec::new();
        while let Some(result) = reader.next_puzzle(&mut io::sink()) {
            results.push(result.map_err(|e| e.to_string()));
            assert!(results.len() < 100, "reader does not stop");
        }
        results
    }

    #[test]
    fn the_stream_goes_on_after_a_bad_size_line() {
        // Too large: its rows are skipped up to the next size line.
        let text = "1 1\n1\n30 30\n1 2 3\n3 2 1\n1 1\n2\n0 0\n";
        let results = outcomes(text, 100);
        assert_eq!(results.len(), 3, "{results:?}");
        assert_eq!(results[0], Ok(p(1, 1, &[Some(1)])));
        assert_eq!(
            results[1],
            Err(
                "t.in:3:1: puzzle 2: size 30x30 is too large (at most 100000 rows, 100000 \
                 columns and 100 cells; --max-cells sets the cell limit); skipped lines 4-5 up \
                 to the next size line (line 6)"
                    .to_string()
            )
        );
        assert_eq!(results[2], Ok(p(1, 1, &[Some(2)])));
        // Negative: the same.
        let results = outcomes("2 -3\n1 1 1\n\n1 1 1\n1 2\n3 .\n0 0\n", 100);
        assert_eq!(results.len(), 2, "{results:?}");
        assert_eq!(
            results[0],
            Err(
                "t.in:1:3: expected the size 'rows columns' of puzzle 1 (two whole numbers), \
                 found '-3' (a size is never negative); skipped lines 2-4 up to the next size \
                 line (line 5)"
                    .to_string()
            )
        );
        assert_eq!(results[1], Ok(p(1, 2, &[Some(3), None])));
        // Nothing after the bad size line reads as a size: the rest is skipped.
        let results = outcomes("1 x\n1\n2\n", 100);
        assert_eq!(
            results,
            [Err(
                "t.in:1:3: expected the size 'rows columns' of puzzle 1 (two whole numbers), \
                  found 'x'; skipped lines 2-3 to the end of the input (no size line follows)"
                    .to_string()
            )]
        );
    }

    #[test]
    fn a_short_puzzle_gives_back_the_size_line_it_ran_into() {
        // `2 2` / `2 2 2` / `0 0`: the end marker is read as the missing row, but it was the
        // end marker: no warning about a missing one.
        let (results, missing) = read_all("2 2\n2 2 2\n0 0\n", 4);
        assert_eq!(results.len(), 1);
        assert_error(
            results[0].as_ref().unwrap_err(),
            2,
            5,
            "puzzle 1, row 1: expected 2 values, found 3",
            true,
        );
        assert!(!missing, "the end marker was read as the missing row");
        // Wider puzzles tell the end marker and the next size line from a row.
        let results = outcomes("3 3\n1 1 1\n2 2 2\n2 4\n. . . .\n3 3 3 3\n0 0\n", 100);
        assert_eq!(results.len(), 2, "{results:?}");
        assert_eq!(
            results[0],
            Err(
                "t.in:4:1: puzzle 1 ends after 2 of its 3 rows: this line reads as the size \
                 of the next puzzle"
                    .to_string()
            )
        );
        let mut clues = vec![None; 4];
        clues.extend([Some(3); 4]);
        assert_eq!(results[1], Ok(p(2, 4, &clues)));
        let (results, missing) = read_all("3 3\n1 1 1\n0 0\n", 4);
        assert_eq!(results.len(), 1);
        assert!(!missing);
        // A blank line inside a puzzle is skipped: it is never a row.
        let (results, missing) = read_all("2 2\n1 1\n\n \n1 1\n0 0\n", 4);
        assert_eq!(results.len(), 1);
        assert_eq!(results[0].as_ref().unwrap(), &p(2, 2, &[Some(1); 4]));
        assert!(!missing);
    }

    #[test]
    fn input_ends_inside_a_puzzle() {
        let e = only_error("1 1\n1\n3 2\n1 1\n1 1\n");
        assert_error(
            &e,
            6,
            1,
            "input ended inside puzzle 2: expected 3 rows, found 2",
            false,
        );
        let e = only_error("3 2\n1 1\n1 1");
        assert_error(
            &e,
            3,
            4,
            "input ended inside puzzle 1: expected 3 rows, found 2",
            false,
        );
        let e = only_error("3 2\n");
        assert_error(
            &e,
            2,
            1,
            "input ended inside puzzle 1: expected 3 rows, found 0",
            false,
        );
        // A bad value first, then the end: both are reported, in that order.
        let (results, missing) = read_all("3 2\n1 7\n1 1\n", 4);
        assert!(!missing);
        assert_eq!(results.len(), 2);
        assert_error(
            results[0].as_ref().unwrap_err(),
            2,
            3,
            "puzzle 1, row 1: expected a clue 0-3 or '.', found '7'",
            true,
        );
        assert_error(
            results[1].as_ref().unwrap_err(),
            4,
            1,
            "input ended inside puzzle 1: expected 3 rows, found 2",
            false,
        );
    }

    #[test]
    fn long_rows_with_a_tiny_buffer() {
        let cols = 1000;
        let row: Vec<String> = (0..cols).map(|j| ((j * 7 % 5) as u8).to_string()).collect();
        let row = row.join(" ").replace('4', ".");
        let text = format!("2 {cols}\n{row}\n\t{row}\n3 1\n1\n2\n3\n0 0\n");
        let (results, _) = read_all(&text, 16);
        let puzzles: Vec<Puzzle> = results.into_iter().map(Result::unwrap).collect();
        assert_eq!(puzzles.len(), 2);
        assert_eq!(puzzles[0].clues.len(), 2 * cols);
        assert_eq!(puzzles[0].clue(1, 2), None);
        assert_eq!(puzzles[0].clue(0, 4), Some(3));
        assert_eq!(puzzles[0].clue(1, 999), Some((999 * 7 % 5) as u8));
        assert_eq!(puzzles[1], p(3, 1, &[Some(1), Some(2), Some(3)]));
    }

    #[test]
    fn before_read_is_flushed_before_each_read() {
        /// Hands out its input a few bytes at a time and records the flushes seen so far.
        struct Trickle<'a> {
            input: &'a [u8],
            flushes: std::rc::Rc<std::cell::Cell<usize>>,
            log: Vec<usize>,
        }
        impl Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                self.log.push(self.flushes.get());
                let n = buf.len().min(self.input.len()).min(3);
                buf[..n].copy_from_slice(&self.input[..n]);
                self.input = &self.input[n..];
                Ok(n)
            }
        }
        struct Counter(std::rc::Rc<std::cell::Cell<usize>>);
        impl Write for Counter {
            fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
                Ok(buf.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                self.0.set(self.0.get() + 1);
                Ok(())
            }
        }
        let flushes = std::rc::Rc::new(std::cell::Cell::new(0));
        let input = Trickle {
            input: b"1 1\n2\n0 0\n",
            flushes: flushes.clone(),
            log: Vec::new(),
        };
        let mut reader = PuzzleReader::new("t", input);
        let mut out = Counter(flushes.clone());
        assert!(reader.next_puzzle(&mut out).unwrap().is_ok());
        assert!(reader.next_puzzle(&mut out).is_none());
        let log = &reader.input.log;
        assert_eq!(log.len(), 4);
        assert_eq!(*log, (1..=log.len()).collect::<Vec<_>>());
    }

    #[test]
    fn read_errors_are_reported() {
        struct Failing(usize);
        impl Read for Failing {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                self.0 += 1;
                match self.0 {
                    1 => Err(io::Error::new(io::ErrorKind::Interrupted, "again")),
                    2 => {
                        buf[..4].copy_from_slice(b"1 1\n");
                        Ok(4)
                    }
                    _ => Err(io::Error::other("disk on fire")),
                }
            }
        }
        let mut reader = PuzzleReader::new("f", Failing(0));
        let e = reader.next_puzzle(&mut io::sink()).unwrap().unwrap_err();
        assert_error(&e, 2, 1, "could not read the input: disk on fire", false);
        assert!(reader.next_puzzle(&mut io::sink()).is_none());
    }

    #[test]
    fn round_trip_through_write_to() {
        let mut puzzles = parse_all("s", SAMPLE_IN.as_bytes()).unwrap();
        puzzles.push(p(2, 3, &[None, Some(0), Some(1), Some(2), Some(3), None]));
        puzzles.push(p(1, 1, &[None]));
        let mut text = Vec::new();
        for puzzle in &puzzles {
            puzzle.write_to(&mut text);
        }
        assert!(text.starts_with(&SAMPLE_IN.as_bytes()[..SAMPLE_IN.len() - 4]));
        assert!(text.ends_with(b"2 3\n. 0 1\n2 3 .\n1 1\n.\n"));
        text.extend_from_slice(b"0 0\n");
        assert_eq!(parse_all("s", &text).unwrap(), puzzles);
    }

    #[test]
    fn parse_all_returns_the_first_error() {
        let e = parse_all("s", b"1 1\n1\n1 1\n9\n1 1\n1\n0 0\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "s:4:1: puzzle 2, row 1: expected a clue 0-3 or '.', found '9'"
        );
        assert!(parse_all("s", b"").unwrap().is_empty());
    }

    #[test]
    fn newline_search() {
        for len in 0..40 {
            for at in 0..len {
                let mut bytes = vec![b'\n' ^ 0x80; len];
                bytes[at] = b'\n';
                if at + 1 < len {
                    bytes[at + 1] = b'\n';
                }
                assert_eq!(find_newline(&bytes), Some(at));
            }
            assert_eq!(find_newline(&vec![b'\x0b'; len]), None);
        }
    }

    /// Reads `text` with lines of at most `max_line` bytes: puzzles as `RxC`, errors as
    /// `line:column message`, and whether the input ended without its end marker.
    fn with_long_lines(text: &[u8], max_line: usize) -> (Vec<String>, bool) {
        let mut reader = PuzzleReader::with_capacity("s", text, 4).with_max_line_length(max_line);
        let mut seen = Vec::new();
        while let Some(item) = reader.next_puzzle(&mut io::sink()) {
            seen.push(match item {
                Ok(p) => format!("{}x{}", p.rows, p.cols),
                Err(e) => {
                    assert!(e.recoverable, "{e}");
                    format!("{}:{} {}", e.position.line, e.position.column, e.message)
                }
            });
        }
        (seen, reader.missing_end_marker())
    }

    #[test]
    fn the_stream_goes_on_after_an_over_long_line() {
        let long = "7".repeat(100);
        let skipped = "line 3 is longer than 16 bytes: skipped to its end (is this a puzzle file?)";
        // Where a size line is expected.
        let text = format!("1 1\n3\n{long}\n1 2\n2 2\n0 0\n");
        let (seen, missing) = with_long_lines(text.as_bytes(), 16);
        assert_eq!(seen, ["1x1", &format!("3:1 {skipped}"), "1x2"]);
        assert!(!missing);
        // Inside a puzzle: the puzzle is reported, and the stream goes on.
        let text = format!("2 1\n3\n{long}\n1 1\n2\n0 0\n");
        let (seen, _) = with_long_lines(text.as_bytes(), 16);
        assert_eq!(seen, [&format!("3:1 {skipped}"), "1x1"]);
        // At the end of the input, without a newline.
        let text = format!("1 1\n3\n{long}");
        let (seen, missing) = with_long_lines(text.as_bytes(), 16);
        assert_eq!(seen, ["1x1", &format!("3:1 {skipped}")]);
        assert!(missing);
        // Two in a row, the second at the very start of a later read, and line numbers go on.
        let text = format!("{long}\n{long}{long}\n1 1\n.\n0 0\n");
        let (seen, _) = with_long_lines(text.as_bytes(), 16);
        assert_eq!(seen.len(), 3, "{seen:?}");
        assert!(seen[0].starts_with("1:1 line 1 is longer"), "{seen:?}");
        assert!(seen[1].starts_with("2:1 line 2 is longer"), "{seen:?}");
        assert_eq!(seen[2], "1x1");
        // A line of exactly the limit (with its newline in the buffer) is fine.
        let (seen, _) = with_long_lines(b"1 1\n3      \n0 0\n", 16);
        assert_eq!(seen, ["1x1"]);
    }
}
