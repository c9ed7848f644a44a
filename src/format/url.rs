//! puzz.link / pzprjs URLs for Slitherlink (`https://puzz.link/p?slither/COLS/ROWS/BODY`): reading puzzles from them and writing them.
//!
//! The body is pzprjs's "4-cell" code, cell by cell, row by row: a clue `n` (0-4) is `n`
//! when the next cell holds a clue, `5+n` when one blank follows, `a+n` (hex) when two
//! blanks follow; a run of 1-20 blanks is one letter `g`-`z`; `.` is a clue cell without a
//! number (pzprjs's "?", read as a blank, and counted so the reader can say so). Clue 4 is
//! refused. The type may be `slither`, `slither_edit` or `slither_play`, after `?` or bare
//! (`slither/5/5/...`); the size limits are the stream's (`--max-cells`).

use crate::puzzle::{MAX_SIDE, Puzzle};
use std::fmt;

/// Why a URL could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UrlError(String);

impl fmt::Display for UrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UrlError {}

/// The puzzle types slink reads: Slitherlink, as pzprjs names it in its player and editor links.
const TYPES: &[&str] = &["slither", "slither_edit", "slither_play"];

/// Whether a line of input looks like a puzzle URL (rather than a puzzle stream line): a
/// link (`://`), a pzprjs query (`p?...`), or a bare `slither/COLS/ROWS/...`. Links to other
/// puzzle types count too, so that they are refused by name rather than read as files.
pub fn looks_like_url(text: &str) -> bool {
    let t = text.trim();
    t.contains("://") || t.starts_with("p?") || is_bare(t)
}

/// Whether `text` is a bare Slitherlink URL body: `slither/5/5/...` (or `slither_edit/`,
/// `slither_play/`), a type and a number.
pub fn is_bare(text: &str) -> bool {
    let mut parts = text.trim().split('/');
    let kind = parts.next().unwrap_or("");
    TYPES.contains(&kind) && parts.next().is_some_and(|n| n.parse::<usize>().is_ok())
}

/// A URL as it is named in messages and pages: itself, or its start and end around `...`
/// when it is long.
pub fn short(url: &str) -> String {
    const HEAD: usize = 48;
    const TAIL: usize = 12;
    let url = url.trim();
    let chars: Vec<char> = url.chars().collect();
    if chars.len() <= HEAD + TAIL + 3 {
        return url.to_string();
    }
    let head: String = chars[..HEAD].iter().collect();
    let tail: String = chars[chars.len() - TAIL..].iter().collect();
    format!("{head}...{tail}")
}

/// Reads the puzzle of a Slitherlink URL.
pub fn decode(url: &str) -> Result<Puzzle, UrlError> {
    decode_limited(url, usize::MAX)
}

/// Reads the puzzle of a Slitherlink URL, refusing one of more than `max_cells` cells before
/// anything is allocated for it.
pub fn decode_limited(url: &str, max_cells: usize) -> Result<Puzzle, UrlError> {
    decode_counting(url, max_cells).map(|(puzzle, _)| puzzle)
}

/// Reads the puzzle of a Slitherlink URL as [`decode_limited`] does, with the number of its
/// cells written `.` (pzprjs's clue "?", a clue of unknown number), which are read as blanks.
/// The messages do not repeat the URL: the caller names it.
pub fn decode_counting(url: &str, max_cells: usize) -> Result<(Puzzle, usize), UrlError> {
    let url = url.trim();
    // The query after `?` (`https://puzz.link/p?slither/...`), or the whole of a bare one.
    let query = match url.find('?') {
        Some(i) => &url[i + 1..],
        None => url,
    };
    let (kind, rest) = query.split_once('/').unwrap_or((query, ""));
    if !TYPES.contains(&kind) {
        let what = if kind.is_empty() || kind.contains(['.', ':']) {
            "no puzzle type after `?`".to_string()
        } else {
            format!("its puzzle type is `{kind}`")
        };
        return Err(UrlError(format!(
            "not a Slitherlink URL: {what}; slink reads `slither`, `slither_edit` and `slither_play` links"
        )));
    }
    let mut parts = rest.split('/');
    // Skip flags pzprjs may put before the size (anything that is not a number).
    let mut numbers = Vec::new();
    for part in parts.by_ref() {
        if let Ok(n) = part.parse::<usize>() {
            numbers.push(n);
            if numbers.len() == 2 {
                break;
            }
        } else if !numbers.is_empty() {
            return Err(UrlError(format!("bad size: `{part}` is not a number")));
        }
    }
    let [cols, rows] = numbers[..] else {
        return Err(UrlError(
            "no size (columns/rows) after the puzzle type".to_string(),
        ));
    };
    if cols == 0 || rows == 0 {
        return Err(UrlError(format!(
            "size {cols}x{rows} (columns x rows) has no cells: columns and rows must be at least 1"
        )));
    }
    if rows > MAX_SIDE || cols > MAX_SIDE || rows.saturating_mul(cols) > max_cells {
        return Err(UrlError(format!(
            "size {rows}x{cols} is too large (at most {MAX_SIDE} rows, {MAX_SIDE} columns and \
             {max_cells} cells; --max-cells sets the cell limit)"
        )));
    }
    let body = parts.next().unwrap_or("");
    let body = body.split(['?', '#', '&']).next().unwrap_or("");
    let cells = rows * cols;
    let mut clues = vec![None; cells];
    let mut unknown = 0;
    let mut c = 0;
    for (i, ch) in body.chars().enumerate() {
        if c >= cells {
            break;
        }
        let digit = ch.to_digit(36).map(|d| d as usize);
        let (clue, skip) = match (ch, digit) {
            ('.', _) => {
                unknown += 1;
                (None, 0)
            }
            (_, Some(d @ 0..=4)) => (Some(d), 0),
            (_, Some(d @ 5..=9)) => (Some(d - 5), 1),
            (_, Some(d @ 10..=14)) => (Some(d - 10), 2),
            (_, Some(d @ 16..=35)) => (None, d - 16),
            _ => {
                return Err(UrlError(format!(
                    "bad character `{ch}` at position {} of the puzzle's code",
                    i + 1
                )));
            }
        };
        if let Some(n) = clue {
            if n == 4 {
                let why = if cells == 1 {
                    "a 1x1 puzzle with a 4 has the loop around its cell as its answer, but the stream format and the solver hold clues 0 to 3 only"
                } else {
                    "a 4 asks for a loop around that cell alone, which only a 1x1 puzzle can have, so this puzzle has no solution"
                };
                return Err(UrlError(format!(
                    "clue 4 at cell {} (row {}, column {}): slink reads clues 0 to 3 ({why})",
                    c + 1,
                    c / cols + 1,
                    c % cols + 1
                )));
            }
            clues[c] = Some(n as u8);
        }
        c += 1 + skip;
    }
    Ok((Puzzle { rows, cols, clues }, unknown))
}

/// The puzz.link URL of a puzzle.
pub fn encode(puzzle: &Puzzle) -> String {
    let mut body = String::new();
    let clues = &puzzle.clues;
    let mut blanks = 0;
    let mut c = 0;
    while c < clues.len() {
        let mut code = String::new();
        match clues[c] {
            Some(n) => {
                let n = usize::from(n);
                let clue_at = |k: usize| clues.get(k).is_some_and(|x| x.is_some());
                let digit = if clue_at(c + 1) {
                    n
                } else if clue_at(c + 2) {
                    c += 1;
                    5 + n
                } else {
                    c += 2;
                    10 + n
                };
                code.push(char::from_digit(digit as u32, 16).expect("below 16"));
            }
            None => blanks += 1,
        }
        if blanks > 0 && (!code.is_empty() || blanks == 20) {
            body.push(char::from_digit(blanks + 15, 36).expect("below 36"));
            blanks = 0;
        }
        body.push_str(&code);
        c += 1;
    }
    if blanks > 0 {
        body.push(char::from_digit(blanks + 15, 36).expect("below 36"));
    }
    format!(
        "https://puzz.link/p?slither/{}/{}/{body}",
        puzzle.cols, puzzle.rows
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_urls_read_as_their_puzzles() {
        // 3x3: "0 . 1" / ". . ." / "3 . .", worked out by hand from the rules above:
        // 0 with one blank after it (5), 1 with two (b), one blank (g), 3 with two (d).
        let p = decode("https://puzz.link/p?slither/3/3/5bgd").unwrap();
        assert_eq!((p.rows, p.cols), (3, 3));
        assert_eq!(
            p.clues,
            vec![
                Some(0),
                None,
                Some(1),
                None,
                None,
                None,
                Some(3),
                None,
                None
            ]
        );
        assert_eq!(encode(&p), "https://puzz.link/p?slither/3/3/5bgd");
        // Other hosts and a cell without a number; a body cut short leaves blanks.
        let p = decode("http://pzv.jp/p.html?slither/2/2/.2").unwrap();
        assert_eq!(p.clues, vec![None, Some(2), None, None]);
        // A run of 25 blanks is two letters (20 and 5): z, k.
        let p = decode("https://puzz.link/p?slither/5/5/zk").unwrap();
        assert!(p.clues.iter().all(Option::is_none));
        assert_eq!(encode(&p), "https://puzz.link/p?slither/5/5/zk");
    }

    #[test]
    fn editor_player_and_bare_forms_read_alike() {
        let want = decode("https://puzz.link/p?slither/3/3/5bgd").unwrap();
        for url in [
            "https://puzz.link/p?slither_edit/3/3/5bgd",
            "https://puzz.link/p?slither_play/3/3/5bgd",
            "slither/3/3/5bgd",
            "p?slither/3/3/5bgd",
        ] {
            assert!(looks_like_url(url), "{url}");
            assert_eq!(decode(url).unwrap(), want, "{url}");
        }
        assert!(is_bare("slither/3/3/5bgd") && !is_bare("slither.in") && !is_bare("a/b"));
        assert!(looks_like_url("https://puzz.link/p?nurikabe/3/3/x"));
        assert!(!looks_like_url("5 5") && !looks_like_url("tests/data/sample.in"));
        let (_, unknown) = decode_counting("p?slither/2/2/.2.", usize::MAX).unwrap();
        assert_eq!(unknown, 2);
    }

    #[test]
    fn long_urls_are_shortened_in_messages() {
        assert_eq!(short("slither/3/3/5bgd"), "slither/3/3/5bgd");
        let long = format!("https://puzz.link/p?slither/40/40/{}", "g".repeat(100));
        let s = short(&long);
        assert!(
            s.len() < 70
                && s.starts_with("https://puzz.link/p?slither/40/40/")
                && s.contains("..."),
            "{s}"
        );
    }

    #[test]
    fn puzzles_round_trip() {
        let mut rng = crate::generate::Rng::new(5);
        for _ in 0..500 {
            let rows = 1 + rng.index(9);
            let cols = 1 + rng.index(9);
            let share = rng.unit();
            let clues = (0..rows * cols)
                .map(|_| (rng.unit() < share).then(|| rng.index(4) as u8))
                .collect();
            let p = Puzzle { rows, cols, clues };
            assert_eq!(decode(&encode(&p)).unwrap(), p);
        }
    }

    #[test]
    fn a_url_larger_than_the_cell_limit_is_refused() {
        let e = decode_limited("https://puzz.link/p?slither/10000/10000/", 1000).unwrap_err();
        assert!(e.to_string().contains("--max-cells"), "{e}");
        assert!(decode_limited("https://puzz.link/p?slither/10/100/", 1000).is_ok());
    }

    #[test]
    fn bad_urls_say_why() {
        assert!(
            decode("https://puzz.link/p?nurikabe/3/3/x")
                .unwrap_err()
                .to_string()
                .contains("not a Slitherlink")
        );
        assert!(
            decode("https://puzz.link/p?slither/3/x/")
                .unwrap_err()
                .to_string()
                .contains("not a number")
        );
        assert!(
            decode("https://puzz.link/p?slither/0/3/")
                .unwrap_err()
                .to_string()
                .contains("no cells")
        );
        assert!(
            decode("https://puzz.link/p?slither/1/1/4")
                .unwrap_err()
                .to_string()
                .contains("clue 4")
        );
        assert!(
            decode("https://puzz.link/p?slither/2/2/+")
                .unwrap_err()
                .to_string()
                .contains("bad character")
        );
    }
}
