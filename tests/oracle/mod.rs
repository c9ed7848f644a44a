//! An independent oracle for Slink / Slitherlink puzzles, for the differential tests: a SAT
//! encoding on the `varisat` crate that shares no code with slink's deduction.
//!
//! One variable per edge. Each clue cell forbids every assignment of its four sides whose
//! count of lines differs from the clue; each dot forbids every assignment of its edges with
//! 1, 3 or 4 lines; at least one edge is a line. Those clauses admit any set of disjoint
//! cycles; "exactly one loop" is added lazily: solve, split the model into its cycles, and
//! while there is more than one, add a cut for each cycle found, then solve again. The cut of
//! a cycle with dot set S says that a loop with a line inside S and a line wholly outside S
//! has a line leaving S (one fresh variable and a clause per edge); it forbids, at least,
//! every edge of that cycle together with any other line of the model. Counting blocks each
//! single-loop answer found with a clause over every edge variable and solves again, up to a
//! bound.
//!
//! Edges are numbered: horizontal edge (dot row `r`, between dot columns `c` and `c+1`) is
//! `r * cols + c`; vertical edge (cell row `r`, dot column `c`) is `(rows + 1) * cols + r *
//! (cols + 1) + c`.

#![allow(dead_code)]

// Every path into slink's public API used by the oracle's tests: change them here when the
// crate's modules move.
pub use slink::rules::RuleSet;
pub use slink::{Board, Outcome, Puzzle, RuleBook, SolveOptions, Solver, parse_all};

pub mod rules;

use varisat::{ExtendFormula, Lit, Var};

/// A puzzle as the oracle sees it: the grid's size and its clues, row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub rows: usize,
    pub cols: usize,
    pub clues: Vec<Option<u8>>,
}

impl Grid {
    pub fn new(rows: usize, cols: usize, clues: Vec<Option<u8>>) -> Grid {
        assert_eq!(clues.len(), rows * cols);
        Grid { rows, cols, clues }
    }

    pub fn blank(rows: usize, cols: usize) -> Grid {
        Grid::new(rows, cols, vec![None; rows * cols])
    }

    pub fn clue(&self, r: usize, c: usize) -> Option<u8> {
        self.clues[r * self.cols + c]
    }

    /// Number of edges.
    pub fn edges(&self) -> usize {
        (self.rows + 1) * self.cols + self.rows * (self.cols + 1)
    }

    /// Horizontal edge: dot row `r` (0..=rows), between dot columns `c` and `c + 1`.
    pub fn h(&self, r: usize, c: usize) -> usize {
        debug_assert!(r <= self.rows && c < self.cols);
        r * self.cols + c
    }

    /// Vertical edge: cell row `r`, dot column `c` (0..=cols).
    pub fn v(&self, r: usize, c: usize) -> usize {
        debug_assert!(r < self.rows && c <= self.cols);
        (self.rows + 1) * self.cols + r * (self.cols + 1) + c
    }

    /// The four sides of a cell: top, bottom, left, right.
    pub fn sides(&self, r: usize, c: usize) -> [usize; 4] {
        [
            self.h(r, c),
            self.h(r + 1, c),
            self.v(r, c),
            self.v(r, c + 1),
        ]
    }

    /// The edges at dot (r, c), 0..=rows x 0..=cols.
    pub fn dot_edges(&self, r: usize, c: usize) -> Vec<usize> {
        let mut out = Vec::with_capacity(4);
        if c > 0 {
            out.push(self.h(r, c - 1));
        }
        if c < self.cols {
            out.push(self.h(r, c));
        }
        if r > 0 {
            out.push(self.v(r - 1, c));
        }
        if r < self.rows {
            out.push(self.v(r, c));
        }
        out
    }

    /// The two dots of an edge, as dot indices `r * (cols + 1) + c`.
    pub fn ends(&self, e: usize) -> (usize, usize) {
        let w = self.cols + 1;
        let hs = (self.rows + 1) * self.cols;
        if e < hs {
            let (r, c) = (e / self.cols, e % self.cols);
            (r * w + c, r * w + c + 1)
        } else {
            let k = e - hs;
            let (r, c) = (k / w, k % w);
            (r * w + c, (r + 1) * w + c)
        }
    }

    /// The puzzle in slink's input format, with its `0 0` end marker.
    pub fn to_text(&self) -> String {
        let mut s = format!("{} {}\n", self.rows, self.cols);
        for r in 0..self.rows {
            let row: Vec<String> = (0..self.cols)
                .map(|c| match self.clue(r, c) {
                    Some(k) => k.to_string(),
                    None => ".".to_string(),
                })
                .collect();
            s.push_str(&row.join(" "));
            s.push('\n');
        }
        s.push_str("0 0\n");
        s
    }
}

/// The lines of a set of edges, split into connected components (each a list of edges).
pub fn components(grid: &Grid, lines: &[bool]) -> Vec<Vec<usize>> {
    let dots = (grid.rows + 1) * (grid.cols + 1);
    let mut parent: Vec<usize> = (0..dots).collect();
    fn find(p: &mut [usize], mut x: usize) -> usize {
        while p[x] != x {
            p[x] = p[p[x]];
            x = p[x];
        }
        x
    }
    for (e, &on) in lines.iter().enumerate() {
        if on {
            let (a, b) = grid.ends(e);
            let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
            parent[ra] = rb;
        }
    }
    let mut by_root: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for (e, &on) in lines.iter().enumerate() {
        if on {
            let root = find(&mut parent, grid.ends(e).0);
            by_root.entry(root).or_default().push(e);
        }
    }
    by_root.into_values().collect()
}

/// Whether every clue cell has exactly its clue's number of lines among its sides.
pub fn clues_met(grid: &Grid, lines: &[bool]) -> bool {
    (0..grid.rows).all(|r| {
        (0..grid.cols).all(|c| match grid.clue(r, c) {
            None => true,
            Some(k) => grid.sides(r, c).iter().filter(|&&e| lines[e]).count() == k as usize,
        })
    })
}

/// The oracle's own answer checker: every dot has 0 or 2 lines, the lines form exactly one
/// connected loop (at least one edge), and every clue is met.
pub fn is_solution(grid: &Grid, lines: &[bool]) -> bool {
    if lines.len() != grid.edges() {
        return false;
    }
    for r in 0..=grid.rows {
        for c in 0..=grid.cols {
            let d = grid.dot_edges(r, c).iter().filter(|&&e| lines[e]).count();
            if d != 0 && d != 2 {
                return false;
            }
        }
    }
    components(grid, lines).len() == 1 && clues_met(grid, lines)
}

/// One variable per edge, on an incremental varisat solver.
pub struct LoopSat {
    pub grid: Grid,
    solver: varisat::Solver<'static>,
    /// SAT calls made (each lazy cut costs one more).
    pub calls: usize,
    /// Auxiliary variables made by cuts (numbered after the edges).
    extra: usize,
}

fn lit(e: usize, line: bool) -> Lit {
    Lit::from_var(Var::from_index(e), line)
}

/// Adds clauses forbidding every assignment of `edges` whose count of lines is not allowed.
fn forbid_counts(
    solver: &mut varisat::Solver<'static>,
    edges: &[usize],
    allowed: impl Fn(usize) -> bool,
) {
    let n = edges.len();
    for mask in 0u32..(1 << n) {
        if !allowed(mask.count_ones() as usize) {
            // Forbid this assignment: some edge differs from it.
            let clause: Vec<Lit> = (0..n)
                .map(|i| lit(edges[i], mask & (1 << i) == 0))
                .collect();
            solver.add_clause(&clause);
        }
    }
}

impl LoopSat {
    /// The clue, dot and non-empty clauses of a grid.
    pub fn new(grid: &Grid) -> LoopSat {
        let mut solver = varisat::Solver::new();
        for r in 0..grid.rows {
            for c in 0..grid.cols {
                if let Some(k) = grid.clue(r, c) {
                    forbid_counts(&mut solver, &grid.sides(r, c), |n| n == k as usize);
                }
            }
        }
        for r in 0..=grid.rows {
            for c in 0..=grid.cols {
                forbid_counts(&mut solver, &grid.dot_edges(r, c), |n| n == 0 || n == 2);
            }
        }
        let all: Vec<Lit> = (0..grid.edges()).map(|e| lit(e, true)).collect();
        solver.add_clause(&all);
        LoopSat {
            grid: grid.clone(),
            solver,
            calls: 0,
            extra: 0,
        }
    }

    /// Adds a clause: at least one of these (edge, is-a-line) facts holds.
    pub fn add_clause(&mut self, facts: &[(usize, bool)]) {
        let clause: Vec<Lit> = facts.iter().map(|&(e, on)| lit(e, on)).collect();
        self.solver.add_clause(&clause);
    }

    /// The next single-loop answer not yet blocked, or `None` when there is none.
    pub fn next_loop(&mut self) -> Option<Vec<bool>> {
        loop {
            self.calls += 1;
            if !self.solver.solve().expect("varisat failed") {
                return None;
            }
            let model = self.solver.model().expect("a model");
            let mut lines = vec![false; self.grid.edges()];
            for l in model {
                if l.index() < lines.len() {
                    lines[l.index()] = l.is_positive();
                }
            }
            let cycles = components(&self.grid, &lines);
            if cycles.len() == 1 {
                return Some(lines);
            }
            for cycle in &cycles {
                self.cut(cycle);
            }
        }
    }

    /// The connectivity cut of a cycle's dot set S: a single loop with a line between two
    /// dots of S and a line between two dots outside S has a line leaving S. With a fresh
    /// variable x (some line inside S): each inside edge implies x, and x with any outside
    /// edge implies some edge of the cut. This forbids the model's cycle together with any
    /// line away from it, and every other model split the same way.
    fn cut(&mut self, cycle: &[usize]) {
        let grid = &self.grid;
        let mut in_s = vec![false; (grid.rows + 1) * (grid.cols + 1)];
        for &e in cycle {
            let (a, b) = grid.ends(e);
            in_s[a] = true;
            in_s[b] = true;
        }
        let x = Lit::from_var(Var::from_index(grid.edges() + self.extra), true);
        self.extra += 1;
        let mut crossing = Vec::new();
        let mut outside = Vec::new();
        for e in 0..grid.edges() {
            let (a, b) = grid.ends(e);
            match (in_s[a], in_s[b]) {
                (true, true) => self.solver.add_clause(&[lit(e, false), x]),
                (false, false) => outside.push(e),
                _ => crossing.push(lit(e, true)),
            }
        }
        for f in outside {
            let mut clause = vec![!x, lit(f, false)];
            clause.extend(&crossing);
            self.solver.add_clause(&clause);
        }
    }

    /// Forbids exactly this assignment of every edge.
    pub fn block(&mut self, lines: &[bool]) {
        let clause: Vec<(usize, bool)> =
            lines.iter().enumerate().map(|(e, &on)| (e, !on)).collect();
        self.add_clause(&clause);
    }
}

/// What an edge is across every answer found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Common {
    Line,
    Cross,
    Differs,
}

/// The answers of a grid, up to a bound.
#[derive(Clone, Debug)]
pub struct Count {
    /// The answers found, at most the bound.
    pub answers: Vec<Vec<bool>>,
    /// Whether the enumeration stopped at the bound (there may be more answers).
    pub capped: bool,
}

impl Count {
    pub fn len(&self) -> usize {
        self.answers.len()
    }

    /// Each edge: a line in every answer, a cross in every answer, or differing (empty
    /// when there is no answer).
    pub fn common(&self) -> Vec<Common> {
        let Some(first) = self.answers.first() else {
            return Vec::new();
        };
        (0..first.len())
            .map(|e| {
                if self.answers.iter().all(|a| a[e]) {
                    Common::Line
                } else if self.answers.iter().all(|a| !a[e]) {
                    Common::Cross
                } else {
                    Common::Differs
                }
            })
            .collect()
    }
}

/// Counts the answers of a grid up to `bound` (at least 1).
pub fn count(grid: &Grid, bound: usize) -> Count {
    let mut sat = LoopSat::new(grid);
    let mut answers = Vec::new();
    while answers.len() < bound {
        match sat.next_loop() {
            Some(lines) => {
                debug_assert!(is_solution(grid, &lines));
                sat.block(&lines);
                answers.push(lines);
            }
            None => {
                return Count {
                    answers,
                    capped: false,
                };
            }
        }
    }
    Count {
        answers,
        capped: true,
    }
}

/// slink's board read as the oracle's line vector.
pub fn board_lines(grid: &Grid, board: &Board) -> Vec<bool> {
    let mut lines = vec![false; grid.edges()];
    for r in 0..=grid.rows {
        for c in 0..grid.cols {
            lines[grid.h(r, c)] = board.h_line(r, c);
        }
    }
    for r in 0..grid.rows {
        for c in 0..=grid.cols {
            lines[grid.v(r, c)] = board.v_line(r, c);
        }
    }
    lines
}

/// A slink solver with the built-in rules and every deducer (search included), no budget.
pub fn slink_solver() -> Solver {
    Solver::new(RuleBook::new(RuleSet::builtin()))
}

/// The same with a time budget per puzzle (search can take long on some large random
/// puzzles; those end as `Limit` and are reported, not judged).
pub fn slink_solver_with_timeout(timeout: std::time::Duration) -> Solver {
    let options = SolveOptions {
        timeout: Some(timeout),
        ..SolveOptions::default()
    };
    Solver::with_options(RuleBook::new(RuleSet::builtin()), options)
}

/// The grid as slink's puzzle, read through slink's own parser.
pub fn to_puzzle(grid: &Grid) -> Puzzle {
    let mut all = parse_all("oracle", grid.to_text().as_bytes()).expect("a puzzle slink reads");
    assert_eq!(all.len(), 1);
    all.pop().unwrap()
}

/// How slink and the oracle compare on one grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judgement {
    Agree(Kind),
    /// slink hit a budget (none is set, so this should not happen).
    Limit,
    Disagree(String),
}

/// The kind of puzzle both agree it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Unique,
    Several,
    None,
}

/// Solves the grid with slink and with the oracle and compares.
pub fn judge(solver: &mut Solver, grid: &Grid) -> Judgement {
    let puzzle = to_puzzle(grid);
    let (board, outcome) = solver.solve(&puzzle);
    let oracle = count(grid, 2);
    let n = oracle.len();
    let verdict = match &outcome {
        Outcome::Solved => {
            let got = board_lines(grid, &board);
            if n != 1 {
                Judgement::Disagree(format!("slink: Solved; oracle: {n} answer(s)"))
            } else if got != oracle.answers[0] {
                Judgement::Disagree(
                    "slink: Solved with another board than the oracle's only answer".into(),
                )
            } else {
                Judgement::Agree(Kind::Unique)
            }
        }
        Outcome::Several => {
            let got = board_lines(grid, &board);
            if n < 2 {
                Judgement::Disagree(format!("slink: Several; oracle: {n} answer(s)"))
            } else if !is_solution(grid, &got) {
                Judgement::Disagree("slink: Several, but its board is no answer".into())
            } else {
                Judgement::Agree(Kind::Several)
            }
        }
        Outcome::Contradiction(_) => {
            if n != 0 {
                Judgement::Disagree(format!("slink: no solution; oracle: {n} answer(s)"))
            } else {
                Judgement::Agree(Kind::None)
            }
        }
        Outcome::Limit { .. } => Judgement::Limit,
        other => Judgement::Disagree(format!("slink: unexpected outcome {other:?}")),
    };
    solver.recycle(board);
    verdict
}
