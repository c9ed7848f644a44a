//! Boards with a person's marks, read and written: the spec's framed answer picture with some lines and `x` crosses, and the `pzprv3` text file that pzprjs/puzz.link saves for Slitherlink.
//!
//! Framed: the frame of the spec's answer format (an optional number line, a row of `#`,
//! a `#   #` row, the grid lines between `# ` and ` #`, a `#   #` row, a row of `#`). In the
//! grid, a dot row has a dot glyph (`+`, `-`, `|` or a space; not read) every four
//! columns and between dots `---` (line), ` x ` (cross) or three spaces (unknown); a cell
//! row has `|` (line), `x` (cross) or a space (unknown) every four columns, and between
//! them ` d ` (clue d, 0-3) or three spaces (or ` . `) for a blank cell.
//!
//! `pzprv3`: `pzprv3` or `pzprv3.1`, `slither`, the rows, the columns, one line per cell
//! row of clues (`0`-`3`, `.` blank, `-` an unknown clue, read as blank), for `pzprv3.1` one
//! line per cell row of cell colours (read and ignored), one line per cell row of its
//! vertical edges (cols + 1 of them), one line per dot row of its horizontal edges (cols of
//! them), each edge `1` (or more) for a line, `-1` for a cross, `0` for nothing; items are
//! separated by spaces; anything after the edges (history, metadata) is ignored.

use crate::format::view::{Edge, Picture, View};
use crate::puzzle::Puzzle;
use std::fmt::Write as _;

/// The kinds of board files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The framed answer picture with marks.
    Framed,
    /// A pzprjs `pzprv3` file.
    Pzprv3,
}

/// The kind of board a text holds, if it is a board file: its first non-blank line starts
/// with `pzprv3`, or with `#` (after an optional number line).
pub fn sniff(text: &str) -> Option<Kind> {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next()?;
    if first.starts_with("pzprv3") {
        return Some(Kind::Pzprv3);
    }
    if first.starts_with('#') {
        return Some(Kind::Framed);
    }
    if first.bytes().all(|b| b.is_ascii_digit()) && lines.next()?.starts_with('#') {
        return Some(Kind::Framed);
    }
    None
}

/// Reads the boards of a text of either kind (see [`sniff`]); errors name `name:line:column`.
pub fn read(name: &str, text: &str, kind: Kind, max_cells: usize) -> Result<Vec<Picture>, String> {
    match kind {
        Kind::Framed => read_framed(name, text, max_cells),
        Kind::Pzprv3 => read_pzprv3(name, text, max_cells).map(|p| vec![p]),
    }
}

/// An error at a 1-based line and column.
fn at(name: &str, line: usize, column: usize, message: impl std::fmt::Display) -> String {
    format!("{name}:{line}:{column}: {message}")
}

/// Reads every framed board of a text.
pub fn read_framed(name: &str, text: &str, max_cells: usize) -> Result<Vec<Picture>, String> {
    let lines: Vec<Vec<char>> = text
        .lines()
        .map(|l| l.trim_end().chars().collect())
        .collect();
    let mut boards = Vec::new();
    let mut k = 0;
    loop {
        while k < lines.len() && lines[k].is_empty() {
            k += 1;
        }
        if k == lines.len() {
            break;
        }
        if lines[k].iter().all(char::is_ascii_digit) {
            k += 1;
        }
        let (board, next) = read_one_framed(name, &lines, k, max_cells)?;
        boards.push(board);
        k = next;
    }
    if boards.is_empty() {
        return Err(format!("{name}: no board in it"));
    }
    Ok(boards)
}

/// Whether a line is a frame row of `#` at least 9 wide.
fn is_hashes(line: &[char]) -> bool {
    line.len() >= 9 && line.iter().all(|&c| c == '#')
}

/// Whether a line is `#`, spaces, `#` of this width.
fn is_empty_row(line: &[char], width: usize) -> bool {
    line.len() == width
        && line[0] == '#'
        && line[width - 1] == '#'
        && line[1..width - 1].iter().all(|&c| c == ' ')
}

/// Reads one framed board whose top frame row is line `k` (0-based); returns it and the
/// index of the line after it.
fn read_one_framed(
    name: &str,
    lines: &[Vec<char>],
    k: usize,
    max_cells: usize,
) -> Result<(Picture, usize), String> {
    let top = lines.get(k).map(Vec::as_slice).unwrap_or_default();
    if !is_hashes(top) || !(top.len() - 5).is_multiple_of(4) {
        return Err(at(
            name,
            k + 1,
            1,
            "expected the top of a board's frame: a row of `#`, 4 x columns + 5 wide",
        ));
    }
    let width = top.len();
    let cols = (width - 5) / 4;
    // The grid lines run up to the bottom row of `#`; the row before it is the frame's `#   #`.
    let bottom = (k + 1..lines.len())
        .find(|&i| is_hashes(&lines[i]))
        .ok_or_else(|| {
            at(
                name,
                k + 1,
                1,
                "this board's frame has no bottom row of `#`",
            )
        })?;
    if lines[bottom].len() != width {
        return Err(at(
            name,
            bottom + 1,
            1,
            format!(
                "the bottom row of `#` is {} wide, the top {width}",
                lines[bottom].len()
            ),
        ));
    }
    if bottom < k + 5 {
        return Err(at(
            name,
            bottom + 1,
            1,
            "this board's frame ends before it holds a grid (at least 3 grid lines)",
        ));
    }
    for i in [k + 1, bottom - 1] {
        if i <= k || i >= bottom || !is_empty_row(&lines[i], width) {
            return Err(at(
                name,
                i.min(bottom) + 1,
                1,
                format!("expected `#`, {} spaces, `#` inside the frame", width - 2),
            ));
        }
    }
    let grid = &lines[k + 2..bottom - 1];
    if grid.len() < 3 || grid.len().is_multiple_of(2) {
        return Err(at(
            name,
            k + 3,
            1,
            format!(
                "a board has an odd number of grid lines (2 x rows + 1), at least 3; this one has {}",
                grid.len()
            ),
        ));
    }
    let rows = grid.len() / 2;
    if rows.saturating_mul(cols) > max_cells {
        return Err(at(
            name,
            k + 1,
            1,
            format!("the board has {rows}x{cols} cells, more than --max-cells {max_cells}"),
        ));
    }
    let picture = read_grid(name, grid, k + 3, rows, cols)?;
    Ok((picture, bottom + 1))
}

/// Reads the grid lines of a framed board (the first on 1-based line `first`).
fn read_grid(
    name: &str,
    grid: &[Vec<char>],
    first: usize,
    rows: usize,
    cols: usize,
) -> Result<Picture, String> {
    let width = 4 * cols + 5;
    let mut picture = Picture::blank(&Puzzle {
        rows,
        cols,
        clues: vec![None; rows * cols],
    });
    for (y, line) in grid.iter().enumerate() {
        let number = first + y;
        if line.len() != width || line[0] != '#' || line[width - 1] != '#' {
            return Err(at(
                name,
                number,
                line.len().min(width) + 1,
                format!("expected a grid line `# ... #`, {width} wide"),
            ));
        }
        if line[1] != ' ' || line[width - 2] != ' ' {
            let column = if line[1] != ' ' { 2 } else { width - 1 };
            return Err(at(
                name,
                number,
                column,
                "expected a space inside the frame",
            ));
        }
        let content = &line[2..width - 2];
        // 1-based column of content index i.
        let column = |i: usize| i + 3;
        for c in 0..=cols {
            let glyph = content[4 * c];
            if y % 2 == 0 {
                if !matches!(glyph, '+' | '-' | '|' | ' ') {
                    return Err(at(
                        name,
                        number,
                        column(4 * c),
                        format!("`{glyph}` where a dot is (`+`, `-`, `|` or a space)"),
                    ));
                }
            } else {
                let edge = match glyph {
                    '|' => Edge::Line,
                    'x' => Edge::Cross,
                    ' ' => Edge::Unknown,
                    other => {
                        return Err(at(
                            name,
                            number,
                            column(4 * c),
                            format!(
                                "`{other}` on a vertical edge: `|` is a line, `x` a cross, a space unknown"
                            ),
                        ));
                    }
                };
                picture.set(y, 2 * c, edge);
            }
            if c == cols {
                break;
            }
            let between: String = content[4 * c + 1..4 * c + 4].iter().collect();
            if y % 2 == 0 {
                let edge = match between.as_str() {
                    "---" => Edge::Line,
                    "   " => Edge::Unknown,
                    s if s.trim() == "x" => Edge::Cross,
                    other => {
                        return Err(at(
                            name,
                            number,
                            column(4 * c + 1),
                            format!(
                                "`{other}` on a horizontal edge: `---` is a line, ` x ` a cross, spaces unknown"
                            ),
                        ));
                    }
                };
                picture.set(y, 2 * c + 1, edge);
            } else {
                let clue = match between.as_str() {
                    "   " | " . " => None,
                    s if s.starts_with(' ')
                        && s.ends_with(' ')
                        && matches!(s.as_bytes()[1], b'0'..=b'3') =>
                    {
                        Some(s.as_bytes()[1] - b'0')
                    }
                    other => {
                        return Err(at(
                            name,
                            number,
                            column(4 * c + 1),
                            format!(
                                "`{other}` in a cell: a clue is ` 0 ` to ` 3 `, a blank three spaces"
                            ),
                        ));
                    }
                };
                picture.clues[(y / 2) * cols + c] = clue;
            }
        }
    }
    Ok(picture)
}

/// Reads one block of a `pzprv3` file from 0-based line `*next` on: `count` lines of `per`
/// space-separated items each, each item handed to `item` with its line and place in it.
fn read_block(
    name: &str,
    lines: &[&str],
    next: &mut usize,
    (count, per, what): (usize, usize, &str),
    item: &mut dyn FnMut(usize, usize, &str) -> Result<(), String>,
) -> Result<(), String> {
    for r in 0..count {
        let number = *next + 1;
        let Some(text) = lines.get(*next) else {
            return Err(at(
                name,
                number,
                1,
                format!("the file ends before all its lines of {what} ({count})"),
            ));
        };
        let mut items = 0;
        let mut column = 1;
        for token in text.split(' ') {
            if !token.is_empty() {
                if items == per {
                    return Err(at(
                        name,
                        number,
                        column,
                        format!("more than {per} items on a line of {what}"),
                    ));
                }
                item(r, items, token).map_err(|m| at(name, number, column, m))?;
                items += 1;
            }
            column += token.chars().count() + 1;
        }
        if items < per {
            return Err(at(
                name,
                number,
                column,
                format!("{items} items on a line of {what}, {per} expected"),
            ));
        }
        *next += 1;
    }
    Ok(())
}

/// Reads a `pzprv3` Slitherlink file.
pub fn read_pzprv3(name: &str, text: &str, max_cells: usize) -> Result<Picture, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut k = 0;
    while k < lines.len() && lines[k].trim().is_empty() {
        k += 1;
    }
    let header = lines.get(k).map_or("", |l| l.trim());
    let version = match header {
        "pzprv3" => 0,
        "pzprv3.1" => 1,
        other => {
            return Err(at(
                name,
                k + 1,
                1,
                format!("`{other}`: only `pzprv3` and `pzprv3.1` files are read"),
            ));
        }
    };
    let line = |i: usize| lines.get(i).copied().unwrap_or("");
    let kind = line(k + 1).trim();
    if kind != "slither" {
        return Err(at(
            name,
            k + 2,
            1,
            format!("a `{kind}` file: only Slitherlink (`slither`) boards are read"),
        ));
    }
    let size = |i: usize, what: &str| -> Result<usize, String> {
        match line(i).trim().parse::<usize>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(at(
                name,
                i + 1,
                1,
                format!("`{}`: expected the number of {what}", line(i).trim()),
            )),
        }
    };
    let rows = size(k + 2, "rows")?;
    let cols = size(k + 3, "columns")?;
    if rows.saturating_mul(cols) > max_cells {
        return Err(at(
            name,
            k + 3,
            1,
            format!("the board has {rows}x{cols} cells, more than --max-cells {max_cells}"),
        ));
    }
    // A large board's lines are all there before its memory is taken (a small one is read
    // line by line, and a short file named where it ends).
    let needed = k + 4 + rows * (3 + version) + 1;
    if rows * cols > 100_000 && lines.len() < needed {
        return Err(at(
            name,
            lines.len() + 1,
            1,
            format!(
                "the file ends early: a {rows}x{cols} board takes {} lines after its size",
                needed - k - 4
            ),
        ));
    }
    let mut picture = Picture::blank(&Puzzle {
        rows,
        cols,
        clues: vec![None; rows * cols],
    });
    let mut next = k + 4;
    let mut block =
        |shape: (usize, usize, &str),
         item: &mut dyn FnMut(usize, usize, &str) -> Result<(), String>| {
            read_block(name, &lines, &mut next, shape, item)
        };
    block((rows, cols, "clues"), &mut |r, c, token| {
        picture.clues[r * cols + c] = match token {
            "." | "-" => None,
            "0" | "1" | "2" | "3" => Some(token.as_bytes()[0] - b'0'),
            "4" => {
                return Err("clue 4: only a 1x1 loop meets it, and slink does not take it".into());
            }
            other => return Err(format!("`{other}` is not a clue (0-3, `.` or `-`)")),
        };
        Ok(())
    })?;
    if version == 1 {
        block((rows, cols, "cell colours"), &mut |_, _, token| {
            token
                .parse::<i64>()
                .map(|_| ())
                .map_err(|_| format!("`{token}` is not a cell colour (a number)"))
        })?;
    }
    let edge = |token: &str| -> Result<Edge, String> {
        match token.parse::<i64>() {
            Ok(0) => Ok(Edge::Unknown),
            Ok(-1) => Ok(Edge::Cross),
            Ok(n) if n > 0 => Ok(Edge::Line),
            _ => Err(format!(
                "`{token}` is not an edge mark (`1` line, `-1` cross, `0` nothing)"
            )),
        }
    };
    let mut marks = Vec::new();
    block((rows, cols + 1, "vertical edges"), &mut |r, c, token| {
        marks.push((2 * r + 1, 2 * c, edge(token)?));
        Ok(())
    })?;
    block((rows + 1, cols, "horizontal edges"), &mut |r, c, token| {
        marks.push((2 * r, 2 * c + 1, edge(token)?));
        Ok(())
    })?;
    for (y, x, e) in marks {
        picture.set(y, x, e);
    }
    Ok(picture)
}

/// Writes a board as a `pzprv3.1` file, item for item as pzprjs writes one (each item
/// followed by a space; cell colours all `0`).
pub fn write_pzprv3(out: &mut String, board: &Picture) {
    let (rows, cols) = (board.rows, board.cols);
    let _ = write!(out, "pzprv3.1\nslither\n{rows}\n{cols}\n");
    for r in 0..rows {
        for c in 0..cols {
            match board.clue(r, c) {
                Some(n) => {
                    let _ = write!(out, "{n} ");
                }
                None => out.push_str(". "),
            }
        }
        out.push('\n');
    }
    for _ in 0..rows {
        out.push_str(&"0 ".repeat(cols));
        out.push('\n');
    }
    let item = |e: Edge| match e {
        Edge::Line => "1 ",
        Edge::Cross => "-1 ",
        Edge::Unknown => "0 ",
    };
    for r in 0..rows {
        for c in 0..=cols {
            out.push_str(item(board.v(r, c)));
        }
        out.push('\n');
    }
    for r in 0..=rows {
        for c in 0..cols {
            out.push_str(item(board.h(r, c)));
        }
        out.push('\n');
    }
}

/// Writes a board in the framed format with its marks: the number line, the spec's frame,
/// `+` at every dot, `---`/`|` lines, ` x `/`x` crosses, spaces for unknown edges.
pub fn write_framed(out: &mut String, number: usize, board: &Picture) {
    let (rows, cols) = (board.rows, board.cols);
    let width = 4 * cols + 5;
    let _ = writeln!(out, "{number}");
    let hashes = "#".repeat(width);
    let empty = format!("#{}#", " ".repeat(width - 2));
    let _ = writeln!(out, "{hashes}\n{empty}");
    for y in 0..=2 * rows {
        let mut line = String::from("# ");
        let r = y / 2;
        for c in 0..=cols {
            if y % 2 == 0 {
                line.push('+');
                if c < cols {
                    line.push_str(match board.h(r, c) {
                        Edge::Line => "---",
                        Edge::Cross => " x ",
                        Edge::Unknown => "   ",
                    });
                }
            } else {
                line.push(match board.v(r, c) {
                    Edge::Line => '|',
                    Edge::Cross => 'x',
                    Edge::Unknown => ' ',
                });
                if c < cols {
                    match board.clue(r, c) {
                        Some(n) => {
                            let _ = write!(line, " {n} ");
                        }
                        None => line.push_str("   "),
                    }
                }
            }
        }
        line.push_str(" #");
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(out, "{empty}\n{hashes}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_framed_board_and_its_pzprv3_file_hold_the_same_marks() {
        let text = "1\n#############\n#           #\n# +---+ x + #\n# | 3 x   x #\n# +   +   + #\n#   .   2   #\n# +   +   + #\n#           #\n#############\n";
        assert_eq!(sniff(text), Some(Kind::Framed));
        let boards = read_framed("t", text, 100).unwrap();
        assert_eq!(boards.len(), 1);
        let b = &boards[0];
        assert_eq!((b.rows, b.cols), (2, 2));
        assert_eq!(b.clue(0, 0), Some(3));
        assert_eq!(b.clue(1, 0), None);
        assert_eq!(b.h(0, 0), Edge::Line);
        assert_eq!(b.h(0, 1), Edge::Cross);
        assert_eq!(b.v(0, 1), Edge::Cross);
        assert_eq!(b.v(0, 2), Edge::Cross);
        let mut framed = String::new();
        write_framed(&mut framed, 1, b);
        assert_eq!(framed, text.replace(" . ", "   "));
        let mut file = String::new();
        write_pzprv3(&mut file, b);
        assert_eq!(sniff(&file), Some(Kind::Pzprv3));
        assert_eq!(&read_pzprv3("t", &file, 100).unwrap(), b);
    }

    #[test]
    fn bad_glyphs_are_named_with_their_place() {
        let text = "#############\n#           #\n# +-o-+   + #\n#   3       #\n# +   +   + #\n#   .   2   #\n# +   +   + #\n#           #\n#############\n";
        let e = read_framed("t", text, 100).unwrap_err();
        assert!(e.starts_with("t:3:4: `-o-`"), "{e}");
        let e = read_pzprv3("t", "pzprv3\nslither\n1\n2\n1 x \n", 100).unwrap_err();
        assert!(e.starts_with("t:5:3: `x` is not a clue"), "{e}");
    }
}
