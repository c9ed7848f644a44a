//! Region parity, a global deducer (`use parity`): the loop crosses the boundary of any set of cells an even number of times, so the clues of a set of clue cells fix the parity of the lines on its boundary.
//!
//! The form used is a linear system over GF(2) on the cells' colours (inside = 1; the region
//! outside the grid is 0). An edge is a line exactly when the colours of its two cells differ,
//! so:
//! - a decided edge between cells `i` and `j` says `bit_i xor bit_j = line`; these equations
//!   are kept as classes of a union-find with parity (built afresh from the edge states);
//! - a clue `k` on a cell says that the colours of its four neighbours xor to `k mod 2` (the
//!   cell's own colour counts four times and drops out). Summed over a set `S` of clue cells,
//!   these say that the lines on the boundary of `S` number the sum of the clues, mod 2: the
//!   Jordan-curve argument.
//!
//! Gaussian elimination (rows of `u64` words, kept in reduced echelon form) over the classes
//! then tells every unknown edge whose `bit_i xor bit_j` the equations imply: it is decided
//! (a line when the xor is 1, else a cross). An equation `0 = 1` is a contradiction. For an
//! explanation, [`region_of`] tracks which clue cells' equations an edge's value came from.
//!
//! The deducer looks at the whole board, so it runs at the main line's fixpoints only
//! ([`super::Phase::Settle`]), like connectivity.

use crate::board::{Board, CROSS, Contradiction, LINE, Reason, UNKNOWN, Why, clue_of};
use crate::deduce::Deducer;

/// No column, no pivot row.
const NONE: u32 = u32::MAX;

/// The largest system (equations times columns) that is solved: 2,048 by 2,048. The
/// elimination keeps dense rows, so its cost grows as the cube of the system's side; the
/// Slitherlink corpus's largest is 285 by 215, while a 200x200 board with half its clues
/// blanked gave 18,406 by 29,294 (over a second an elimination). Past it, parity decides
/// only what the classes relate, and the search's parity clauses (`sat.rs`) do the rest.
const MAX_SYSTEM: usize = 1 << 22;

/// The colour system of a board in one state.
struct System {
    /// Cells down and across.
    rows: usize,
    cols: usize,
    /// Union-find over the cells (row-major) and the outside (last): parent, and parity to it.
    parent: Vec<u32>,
    parity: Vec<u8>,
    /// Per node: its column in the system (for a class root in some equation).
    column: Vec<u32>,
    /// Words per row.
    words: usize,
    /// The rows in reduced echelon form, `words` each, and their constants.
    matrix: Vec<u64>,
    constant: Vec<bool>,
    /// Per column: the row whose pivot it is.
    pivot_of: Vec<u32>,
    /// With provenance: words per row of `origin`, and per row the equations it sums.
    origin_words: usize,
    origin: Vec<u64>,
    /// The clue cell (lattice index) of each equation.
    equations: Vec<usize>,
    /// The clue cell of an equation that reduced to `0 = 1`.
    clash: Option<usize>,
}

/// One clue cell's equation: the columns of its neighbours' classes (xor-ed: a class met
/// twice drops out) and its constant.
struct Equation {
    cell: usize,
    terms: Vec<u32>,
    constant: bool,
}

impl System {
    /// The system of the board, with the equations' provenance kept when `track`.
    fn build(board: &Board, track: bool) -> Result<System, usize> {
        System::build_within(board, track, MAX_SYSTEM)
    }

    /// [`System::build`], solving the system only if it is no larger than `max`.
    fn build_within(board: &Board, track: bool, max: usize) -> Result<System, usize> {
        let state = |e: usize| board.at(e);
        let (rows, cols) = (board.rows(), board.cols());
        let nodes = rows * cols + 1;
        let mut s = System {
            rows,
            cols,
            parent: (0..nodes as u32).collect(),
            parity: vec![0; nodes],
            column: vec![NONE; nodes],
            words: 0,
            matrix: Vec::new(),
            constant: Vec::new(),
            pivot_of: Vec::new(),
            origin_words: 0,
            origin: Vec::new(),
            equations: Vec::new(),
            clash: None,
        };
        for e in board.grid_edges() {
            let st = state(e);
            if st == LINE || st == CROSS {
                let [a, b] = board.edge_cells(e);
                let (a, b) = (s.node(board, a), s.node(board, b));
                if !s.union(a, b, u8::from(st == LINE)) {
                    return Err(e);
                }
            }
        }
        // The colour store's relations (colouring relates cells no edge joins, too).
        if let Some(colouring) = board.colouring() {
            // Per colour root: the first node met in its class, and its parity.
            let mut first: Vec<(u32, u8)> = vec![(NONE, 0); board.len() / 2 + 1];
            let cells = board.grid_cells().chain([board.index(-1, 1)]);
            for cell in cells {
                let n = s.node(board, cell);
                let (root, p) = colouring.find((cell >> 1) as u32);
                match first[root as usize] {
                    (NONE, _) => first[root as usize] = (n as u32, p),
                    (m, q) => {
                        if !s.union(n, m as usize, p ^ q) {
                            return Err(cell);
                        }
                    }
                }
            }
        }
        let mut equations = Vec::new();
        let mut columns = 0u32;
        let stride = board.stride();
        for cell in board.grid_cells() {
            let Some(clue) = clue_of(board.at(cell)) else {
                continue;
            };
            let sides = [cell - stride, cell + 1, cell + stride, cell - 1];
            if sides.iter().all(|&e| state(e) != UNKNOWN) {
                continue;
            }
            let mut terms: Vec<u32> = Vec::with_capacity(4);
            let mut constant = clue & 1 == 1;
            for side in sides {
                let n = s.node(board, 2 * side - cell);
                let (root, bit) = s.value(n);
                constant ^= bit;
                if let Some(root) = root {
                    if s.column[root] == NONE {
                        s.column[root] = columns;
                        columns += 1;
                    }
                    let c = s.column[root];
                    if let Some(k) = terms.iter().position(|&t| t == c) {
                        terms.swap_remove(k);
                    } else {
                        terms.push(c);
                    }
                }
            }
            equations.push(Equation {
                cell,
                terms,
                constant,
            });
        }
        s.words = (columns as usize).div_ceil(64);
        s.pivot_of = vec![NONE; columns as usize];
        if track {
            s.origin_words = equations.len().div_ceil(64);
        }
        // The elimination costs about (equations x columns) words per equation: past `max`
        // it is not done, and only the relations of the classes hold.
        if equations.len() * columns as usize <= max {
            for (k, eq) in equations.iter().enumerate() {
                s.insert(k, eq);
                if s.clash.is_some() {
                    break;
                }
            }
        }
        s.equations = equations.into_iter().map(|eq| eq.cell).collect();
        Ok(s)
    }

    /// The node of a cell's lattice index (a cell outside the grid is the outside).
    fn node(&self, board: &Board, cell: usize) -> usize {
        let (y, x) = board.point(cell);
        let (r, c) = ((y - 1) / 2, (x - 1) / 2);
        if y < 1 || x < 1 || r >= self.rows as isize || c >= self.cols as isize {
            self.rows * self.cols
        } else {
            r as usize * self.cols + c as usize
        }
    }

    /// The root of a node's class and the node's parity against it.
    fn find(&mut self, x: usize) -> (usize, u8) {
        let (mut root, mut p) = (x, 0);
        while self.parent[root] as usize != root {
            p ^= self.parity[root];
            root = self.parent[root] as usize;
        }
        let (mut y, mut py) = (x, p);
        while self.parent[y] as usize != y {
            let next = self.parent[y] as usize;
            let pn = py ^ self.parity[y];
            self.parent[y] = root as u32;
            self.parity[y] = py;
            y = next;
            py = pn;
        }
        (root, p)
    }

    /// Relates two nodes (`differ` 1: different colours); false when they are related the
    /// other way already.
    fn union(&mut self, a: usize, b: usize, differ: u8) -> bool {
        let ((ra, pa), (rb, pb)) = (self.find(a), self.find(b));
        if ra == rb {
            return pa ^ pb == differ;
        }
        self.parent[ra] = rb as u32;
        self.parity[ra] = pa ^ pb ^ differ;
        true
    }

    /// A node's colour as the root of its class (none when that is the outside's class, whose
    /// colour is 0) xor a constant.
    fn value(&mut self, n: usize) -> (Option<usize>, bool) {
        let (root, p) = self.find(n);
        let (outside, po) = self.find(self.rows * self.cols);
        if root == outside {
            (None, p ^ po == 1)
        } else {
            (Some(root), p == 1)
        }
    }

    fn row(&self, r: usize) -> &[u64] {
        &self.matrix[r * self.words..(r + 1) * self.words]
    }

    /// Adds equation `k`, keeping the rows in reduced echelon form.
    fn insert(&mut self, k: usize, eq: &Equation) {
        let w = self.words;
        let ow = self.origin_words;
        let mut row = vec![0u64; w];
        let mut origin = vec![0u64; ow];
        if ow > 0 {
            origin[k / 64] |= 1 << (k % 64);
        }
        let mut constant = eq.constant;
        for &t in &eq.terms {
            row[t as usize / 64] ^= 1 << (t % 64);
        }
        for &t in &eq.terms {
            let p = self.pivot_of[t as usize];
            if p != NONE {
                let p = p as usize;
                for (a, b) in row.iter_mut().zip(self.row(p)) {
                    *a ^= b;
                }
                constant ^= self.constant[p];
                for (a, b) in origin.iter_mut().zip(&self.origin[p * ow..(p + 1) * ow]) {
                    *a ^= b;
                }
            }
        }
        let Some(word) = row.iter().position(|&x| x != 0) else {
            if constant {
                self.clash = Some(eq.cell);
            }
            return;
        };
        let pivot = word * 64 + row[word].trailing_zeros() as usize;
        let bit = 1u64 << (pivot % 64);
        let new = self.constant.len();
        for r in 0..new {
            if self.matrix[r * w + word] & bit != 0 {
                for (a, b) in self.matrix[r * w..(r + 1) * w].iter_mut().zip(&row) {
                    *a ^= b;
                }
                self.constant[r] ^= constant;
                for (a, b) in self.origin[r * ow..(r + 1) * ow].iter_mut().zip(&origin) {
                    *a ^= b;
                }
            }
        }
        self.matrix.extend_from_slice(&row);
        self.constant.push(constant);
        self.origin.extend_from_slice(&origin);
        self.pivot_of[pivot] = new as u32;
    }

    /// Whether the equations imply the colours of two cells (lattice indices) differ or
    /// agree: `Some(differ)`, with the rows summed (their equations' origin when tracked).
    fn relation(&mut self, board: &Board, a: usize, b: usize) -> Option<(bool, Vec<u64>)> {
        let (na, nb) = (self.node(board, a), self.node(board, b));
        let ((ra, ca), (rb, cb)) = (self.value(na), self.value(nb));
        let mut differ = ca ^ cb;
        let mut origin = vec![0u64; self.origin_words];
        if ra == rb {
            return Some((differ, origin));
        }
        let mut row = vec![0u64; self.words];
        for root in [ra, rb].into_iter().flatten() {
            let c = self.column[root];
            if c == NONE {
                return None;
            }
            row[c as usize / 64] ^= 1 << (c % 64);
            let p = self.pivot_of[c as usize];
            if p == NONE {
                return None;
            }
            let p = p as usize;
            for (x, y) in row.iter_mut().zip(self.row(p)) {
                *x ^= y;
            }
            differ ^= self.constant[p];
            let ow = self.origin_words;
            for (x, y) in origin.iter_mut().zip(&self.origin[p * ow..(p + 1) * ow]) {
                *x ^= y;
            }
        }
        row.iter().all(|&x| x == 0).then_some((differ, origin))
    }
}

/// Decides every unknown edge whose colours the parity equations relate; returns the edges
/// decided.
pub fn deduce(board: &mut Board) -> Result<u64, Contradiction> {
    deduce_within(board, MAX_SYSTEM)
}

/// [`deduce`] with the system solved only if it is no larger than `max` (equations times
/// columns).
fn deduce_within(board: &mut Board, max: usize) -> Result<u64, Contradiction> {
    if board.unknown() == 0 {
        return Ok(0);
    }
    let mut system = match System::build_within(board, false, max) {
        Ok(system) => system,
        Err(e) => return Err(board.contradiction(Why::ColourClash, e)),
    };
    if let Some(cell) = system.clash {
        return Err(board.contradiction(Why::OddCrossings, cell));
    }
    let mut decisions = Vec::new();
    for e in board.grid_edges() {
        if board.at(e) != UNKNOWN {
            continue;
        }
        let [a, b] = board.edge_cells(e);
        if let Some((differ, _)) = system.relation(board, a, b) {
            decisions.push((e, if differ { LINE } else { CROSS }));
        }
    }
    let mut decided = 0;
    for (e, state) in decisions {
        decided += u64::from(board.set_edge(e, state, Reason::By(Deducer::Parity))?);
    }
    Ok(decided)
}

/// Why region parity decides an edge, for a person: the set of clue cells whose boundary
/// the loop crosses an odd or even number of times, and what is known of that boundary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// The clue cells, (row, column), row by row.
    pub cells: Vec<(usize, usize)>,
    /// The sum of their clues.
    pub clue_sum: u32,
    /// Edges on the set's boundary in all, lines among them, and unknown ones (the decided
    /// edge included), in the state before the step.
    pub boundary: usize,
    /// Lines on the boundary.
    pub lines: usize,
    /// Unknown edges on the boundary.
    pub unknown: usize,
}

/// The region of clue cells whose parity decides the unknown edge `e` on the board as it
/// stands, or `None` when the equations do not imply it.
pub fn region_of(board: &Board, e: usize) -> Option<Region> {
    let state = |e: usize| board.at(e);
    let mut system = System::build(board, true).ok()?;
    let [a, b] = board.edge_cells(e);
    let (_, origin) = system.relation(board, a, b)?;
    let cells: Vec<usize> = (0..system.equations.len())
        .filter(|&k| origin[k / 64] >> (k % 64) & 1 == 1)
        .map(|k| system.equations[k])
        .collect();
    let stride = board.stride();
    let mut clue_sum = 0;
    let (mut boundary, mut lines, mut unknown) = (0, 0, 0);
    for &cell in &cells {
        clue_sum += u32::from(clue_of(board.at(cell)).unwrap_or(0));
        for side in [cell - stride, cell + 1, cell + stride, cell - 1] {
            if cells.contains(&(2 * side - cell)) {
                continue;
            }
            boundary += 1;
            match state(side) {
                LINE => lines += 1,
                UNKNOWN => unknown += 1,
                _ => {}
            }
        }
    }
    let cells = cells
        .into_iter()
        .map(|cell| {
            let (y, x) = board.point(cell);
            ((y as usize - 1) / 2, (x as usize - 1) / 2)
        })
        .collect();
    Some(Region {
        cells,
        clue_sum,
        boundary,
        lines,
        unknown,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Tracking;
    use crate::deduce::brute_force::{Case, loops, random_from};
    use crate::puzzle::parse_all;

    #[test]
    fn every_deduction_holds_in_every_answer_brute_force() {
        let mut random = random_from(0x2545_f491_4f6c_dd1d);
        let mut decided_somewhere = 0;
        for shape in [(3, 3), (3, 4), (4, 3)] {
            let loops = loops(shape.0, shape.1);
            for _ in 0..150 {
                let mut case = Case::random(&loops, shape, (6, 3), &mut random);
                decided_somewhere += usize::from(case.check(deduce));
            }
        }
        assert!(decided_somewhere > 50, "{decided_somewhere}");
    }

    #[test]
    fn clues_whose_parities_disagree_are_a_contradiction() {
        // A 1 alone on a 1x1 grid: its neighbours are all the outside, whose colours xor to
        // 0, not 1 (the loop would cross the cell's boundary once).
        let puzzle = parse_all("t", b"1 1\n1\n0 0\n").unwrap().remove(0);
        let mut board = Board::new(&puzzle, 4, Tracking::default());
        let c = deduce(&mut board).unwrap_err();
        assert_eq!(c.why, Why::OddCrossings);
        assert!(c.to_string().contains("cell (0, 0) among them"), "{c}");
    }

    /// "1 ." on a 1x2 grid with the 1's top crossed: the 1 says its right neighbour is
    /// inside, the cross that the 1 itself is outside, so the edge between them is a line.
    fn one_beside_a_blank() -> Board {
        let puzzle = parse_all("t", b"1 2\n1 .\n0 0\n").unwrap().remove(0);
        let mut board = Board::new(&puzzle, 4, Tracking::default());
        board
            .set_edge(board.index(0, 1), CROSS, Reason::Given)
            .unwrap();
        board
    }

    #[test]
    fn a_system_past_the_bound_is_not_solved() {
        // The 1's equation decides the middle edge, but not when the system (one
        // equation, one column) is over the bound; the cross still puts the 1 outside, so
        // its other two sides on the grid's edge are crosses.
        let mut board = one_beside_a_blank();
        let mut small = board.clone();
        assert_eq!(deduce_within(&mut small, 0).unwrap(), 2);
        assert_eq!(small.at(board.index(1, 2)), UNKNOWN);
        assert_eq!(deduce_within(&mut board, 1).unwrap(), 6);
    }

    #[test]
    fn a_region_names_its_clue_cells_and_boundary() {
        let mut board = one_beside_a_blank();
        let e = board.index(1, 2);
        let region = region_of(&board, e).expect("the 1's parity decides the middle edge");
        assert_eq!(region.cells, [(0, 0)]);
        assert_eq!(
            (
                region.clue_sum,
                region.boundary,
                region.lines,
                region.unknown
            ),
            (1, 4, 0, 3)
        );
        assert_eq!(deduce(&mut board).unwrap(), 6, "the loop around the blank");
        assert_eq!(board.at(e), LINE);
        assert_eq!(board.at(board.index(1, 0)), CROSS);
    }
}
