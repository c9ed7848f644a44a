//! Reading a corpus (`rules ablate`, `rules discover --corpus`): every puzzle of one file, held in memory together because each is solved many times, so the whole is bounded.

use super::io_reason;
use crate::puzzle::{MAX_CELLS, Puzzle, PuzzleReader};
use std::io;

/// The most cells a corpus holds in all (the same as the largest single puzzle the solver
/// takes): a corpus stays in memory while it is solved again and again.
pub const MAX_CORPUS_CELLS: usize = MAX_CELLS;

/// Reads every puzzle of the corpus file `name`, at most `max_cells` cells in all; any
/// unreadable puzzle makes the corpus unusable (the message names its place).
pub fn read_corpus(name: &str, max_cells: usize) -> Result<Vec<Puzzle>, String> {
    let file =
        std::fs::File::open(name).map_err(|e| format!("cannot read {name}: {}", io_reason(&e)))?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(format!("cannot read {name}: it is a directory"));
    }
    let mut reader = PuzzleReader::new(name, file).with_max_cells(max_cells);
    let mut sink = io::sink();
    let mut puzzles = Vec::new();
    let mut cells = 0usize;
    while let Some(item) = reader.next_puzzle(&mut sink) {
        let puzzle = item.map_err(|e| e.to_string())?;
        cells = cells.saturating_add(puzzle.rows * puzzle.cols);
        if cells > max_cells {
            return Err(format!(
                "{name}: the corpus holds more than {max_cells} cells by puzzle {} (a corpus is kept in memory whole); split it",
                puzzles.len() + 1
            ));
        }
        puzzles.push(puzzle);
    }
    Ok(puzzles)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corpus_file(name: &str, text: &str) -> String {
        let dir = std::env::temp_dir().join(format!("slink-corpus-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    }

    #[test]
    fn a_corpus_is_read_up_to_its_bound_in_cells() {
        let name = corpus_file(
            "three.in",
            "2 2\n. .\n. .\n1 3\n. . .\n2 2\n. .\n. .\n0 0\n",
        );
        assert_eq!(read_corpus(&name, 11).unwrap().len(), 3);
        let e = read_corpus(&name, 10).unwrap_err();
        assert!(e.contains("more than 10 cells by puzzle 3"), "{e}");
        let e = read_corpus(&name, 3).unwrap_err();
        assert!(e.contains("puzzle 1") || e.contains("cells"), "{e}");
    }

    #[test]
    fn a_bad_or_missing_corpus_is_named() {
        let name = corpus_file("bad.in", "1 1\n7\n0 0\n");
        let e = read_corpus(&name, MAX_CORPUS_CELLS).unwrap_err();
        assert!(e.contains("bad.in:2:1"), "{e}");
        let e = read_corpus("/nonexistent/corpus.in", MAX_CORPUS_CELLS).unwrap_err();
        assert!(e.starts_with("cannot read /nonexistent/corpus.in"), "{e}");
        let dir = std::env::temp_dir().display().to_string();
        assert!(
            read_corpus(&dir, MAX_CORPUS_CELLS)
                .unwrap_err()
                .contains("directory")
        );
    }
}
