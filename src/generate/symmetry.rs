//! Symmetric clue layouts: the cells fall into orbits under the chosen symmetry, and a clue is blanked only together with its whole orbit.

/// The symmetry of a generated puzzle's clue layout (which cells hold a clue).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Symmetry {
    /// No symmetry: each cell on its own.
    #[default]
    None,
    /// Half-turn: cell (r, c) goes with (R-1-r, C-1-c).
    Half,
    /// Quarter-turn (square grids only): (r, c) goes with (c, R-1-r) and its further turns.
    Quarter,
    /// Left-right mirror: (r, c) goes with (r, C-1-c).
    Mirror,
}

impl Symmetry {
    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Half => "180",
            Symmetry::Quarter => "90",
            Symmetry::Mirror => "mirror",
        }
    }

    /// The images of cell (r, c), itself first (with repeats when the cell is fixed).
    pub fn images(self, rows: usize, cols: usize, r: usize, c: usize) -> Vec<(usize, usize)> {
        let half = (rows - 1 - r, cols - 1 - c);
        match self {
            Symmetry::None => vec![(r, c)],
            Symmetry::Half => vec![(r, c), half],
            Symmetry::Mirror => vec![(r, c), (r, cols - 1 - c)],
            Symmetry::Quarter => vec![(r, c), (c, rows - 1 - r), half, (cols - 1 - c, r)],
        }
    }

    /// The orbits of a `rows` x `cols` grid (row-major cell indices), each sorted, ordered by
    /// their first cell. [`Symmetry::Quarter`] needs a square grid.
    pub fn orbits(self, rows: usize, cols: usize) -> Vec<Vec<usize>> {
        assert!(
            self != Symmetry::Quarter || rows == cols,
            "90: square grids only"
        );
        let mut seen = vec![false; rows * cols];
        let mut orbits = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                if seen[r * cols + c] {
                    continue;
                }
                let mut orbit: Vec<usize> = self
                    .images(rows, cols, r, c)
                    .into_iter()
                    .map(|(y, x)| y * cols + x)
                    .collect();
                orbit.sort_unstable();
                orbit.dedup();
                for &i in &orbit {
                    seen[i] = true;
                }
                orbits.push(orbit);
            }
        }
        orbits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbits_partition_the_grid() {
        for (s, rows, cols) in [
            (Symmetry::None, 3, 4),
            (Symmetry::Half, 3, 4),
            (Symmetry::Half, 5, 5),
            (Symmetry::Mirror, 4, 5),
            (Symmetry::Quarter, 5, 5),
            (Symmetry::Quarter, 4, 4),
        ] {
            let orbits = s.orbits(rows, cols);
            let mut all: Vec<usize> = orbits.iter().flatten().copied().collect();
            all.sort_unstable();
            assert_eq!(all, (0..rows * cols).collect::<Vec<_>>(), "{s:?}");
            for orbit in &orbits {
                let (r, c) = (orbit[0] / cols, orbit[0] % cols);
                for (y, x) in s.images(rows, cols, r, c) {
                    assert!(orbit.contains(&(y * cols + x)));
                }
            }
        }
        assert_eq!(Symmetry::Quarter.orbits(3, 3).len(), 3);
        assert_eq!(Symmetry::Half.orbits(3, 3).len(), 5);
        assert_eq!(Symmetry::Mirror.orbits(2, 3).len(), 4);
    }
}
