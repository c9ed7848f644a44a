//! Search by a CDCL SAT solver (the `batsat` crate) on what deduction left: one variable per
//! unknown edge, clauses for the clue cells and the dots, and lazy cuts for extra loops.
//!
//! The residue is encoded once: each clue cell needs exactly its missing lines among its
//! unknown sides, each dot ends with 0 or 2 lines (exactly one more at an open chain end, none
//! at a dot already passed through). The single-loop condition is not encoded up front: a
//! model is read back as a set of closed loops (every dot has 0 or 2 lines), and each loop
//! `C` that cannot be the whole answer gets a *cut*: "some unknown edge of `C` is off, or
//! some unknown edge leaving `C`'s dots is on". Any answer that had `C` all on with nothing
//! leaving it would have `C` as a whole component, so would be `C`; the cut is only added
//! when `C` alone is not an answer, so it excludes no answer, and it excludes the model it
//! was made from, so the loop ends.
//!
//! A loop `C` of a model with several loops is an answer alone exactly when every other loop
//! is *free*: it holds no line decided before the search and runs beside no clue (taking it
//! away then breaks no clue and loses no line). After the first answer, a blocking clause
//! (some unknown edge differs from the answer) is added and the solver goes on
//! incrementally; phase saving starts it at the first answer, so a second answer near it is
//! found first. UNSAT then proves the first answer the only one.
//!
//! Split of the residue: the unknown edges fall into parts that share no dot (and so no
//! clue cell: a clue cell's sides meet at its corners). A part none of whose dots is an open
//! chain end can only hold closed loops of its own; when lines were already drawn, such a
//! loop would be a second loop, so in every answer the part is all crosses: it is fixed so
//! (unit clauses) and costs the solver nothing. The parts that hold chain ends are coupled
//! through the drawn lines (which ends join which decides whether the whole is one loop),
//! so they are solved together: their answer counts do not multiply in general. See
//! docs/search.md.
//!
//! The loop theory (`LoopTheory`) also cuts by regions of cell colours: inside cells
//! walled off from each other by outside cells, or outside cells walled off from the border
//! by inside cells, can be no answer; the lemma names the wall, not a whole loop. On any
//! grid, a local check walks (a bounded number of cells) from the cells whose colour split
//! a region; on grids of up to `REGION_CELLS` cells a pass over every cell runs now and then
//! too. Chains of lines are kept incrementally (each end knows the other), so a line costs
//! no walk along its chain unless a loop closes or an edge would close one.
//!
//! The planted guess: the solver's first phase for each colour variable (phase saving keeps
//! what it learns after that). When the residue holds most of the grid's edges (a winding
//! loop that deduction barely touched), it is a comb, itself one loop: rows 0, 2, 4, ...
//! and column 0 inside, the rows between outside (joined to the border at the right), so
//! the first assignment is already one inside region and one outside region and the solver
//! mends it locally. Otherwise (pockets left between decided parts) every cell starts
//! outside: comb teeth in a pocket are islands whose spine is beyond the pocket. The phase is
//! set by flipping the meaning of the variable (`Layout::flip`), as batsat starts every
//! variable false.
//!
//! Parity: each clue fixes, mod 2, the sum of its four neighbours' colours, and each decided
//! edge the sum of its two cells'. CDCL derives sums of many such equations only in
//! exponentially many steps, and on maze grids (a sea of 2s) that was most of the search's
//! conflicts; `encode_parity` solves the equations by elimination in small windows and adds
//! the short ones it finds as clauses (implied, so they exclude no answer). Only on wide
//! residues, as the comb: on pockets (blob grids) they cost more than they saved (blob
//! 200x200 at 70% blanked 7.3-7.5 s CPU with them, 3.1-4.4 s without; docs/search.md).
//!
//! Restarts: on wide residues the solver alternates between phases with restarts and
//! phases without ([`STABLE_PHASES`]): there most conflicts are local clue conflicts, and
//! restarts every few hundred conflicts threw away what the search had built. On pockets,
//! where most conflicts are loop cuts, it restarts throughout.
//!
//! `SLINK_SAT_DUMP=FILE` (an environment variable, a debugging aid) writes the verdict
//! search's instance to FILE in DIMACS, with comments that place its variables, to try other
//! solvers on it (docs/search.md, fifth round). `SLINK_SAT_TRACE=1` prints the CPU time and
//! the solver's counters as the search starts, once its instance is built and after each
//! solver call, to split a verdict's time into its phases (docs/search.md, seventh round).
//! `SLINK_SAT_CHRONO=T` sets the chronological backtracking threshold (see [`CHRONO`]; a
//! negative T turns it off), so that tests can make every backjump chronological, and
//! `SLINK_SAT_STABLE=N` the length of the first stable phase (see [`STABLE_PHASES`]).
//!
//! Budgets: each solver call is one search node and each conflict one more; the solver's
//! stop callback checks the node budget and the deadline at every conflict and restart.

use crate::board::{Board, CROSS, LINE, Reason, UNKNOWN, clue_of};
use crate::deduce::budget::{Budget, Halt, Limit};
use crate::deduce::search::{Found, SearchCounts};
use crate::verify::check_answer;
use batsat::{
    Callbacks, ClauseKind, Lit, Solver, SolverInterface, SolverOpts, Theory, TheoryArg, Var, lbool,
};
use std::time::Instant;

/// Grids of fewer cells start all outside, never from the comb: every published puzzle of
/// the corpus (at most 1,350 cells) is below it, where the comb cost the `--no-probing`
/// corpus about 7%; the maze grids it was made for are 6,400 cells (the 80x80 test) and up.
const COMB_CELLS: usize = 1600;

/// The solver's callbacks: count conflicts, and stop at the budgets (also the generator's
/// uniqueness check, `generate::unique`, which sets only the conflict budget).
pub(crate) struct Stop {
    pub(crate) deadline: Option<Instant>,
    pub(crate) max_conflicts: Option<u64>,
    pub(crate) conflicts: u64,
}

impl Callbacks for Stop {
    fn on_new_clause(&mut self, _c: &[Lit], kind: ClauseKind) {
        if matches!(kind, ClauseKind::Learnt) {
            self.conflicts += 1;
        }
    }

    fn stop(&self) -> bool {
        self.max_conflicts.is_some_and(|m| self.conflicts >= m)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The residue of a board as a SAT instance.
struct Residue {
    layout: Layout,
    solver: Solver<Stop>,
    /// Clause buffer.
    clause: Vec<Lit>,
    /// Every clause added, as DIMACS literals, when the instance is to be dumped
    /// (`SLINK_SAT_DUMP`, see `dump`).
    dumped: Option<Vec<Vec<i32>>>,
}

/// The variables of a residue: edges and cell colours.
struct Layout {
    /// Per lattice index: the variable of an unknown grid edge (`u32::MAX`: none).
    var_of: Vec<u32>,
    /// Per variable: its edge.
    edges: Vec<usize>,
    vars: Vec<Var>,
    /// Per lattice index: the colour variable of a grid cell (`u32::MAX`: none).
    colour_of: Vec<u32>,
    /// Per colour variable: "its cell is inside".
    colours: Vec<Var>,
    /// Per colour variable: its cell.
    cells: Vec<usize>,
    /// Per colour variable: whether the variable true means *outside* (the planted guess has
    /// the cell inside, and the solver's first phase is the variable false).
    flip: Vec<bool>,
    /// Per lattice index: a grid cell's colour variable (its solver index) shifted left by
    /// one, with its `flip` as the low bit (`u32::MAX`: not a grid cell).
    packed: Vec<u32>,
}

impl Layout {
    /// The literal "the cell of colour variable `k` is inside".
    fn inside_lit(&self, k: usize) -> Lit {
        Lit::new(self.colours[k], !self.flip[k])
    }
}

impl Residue {
    fn lit(&self, e: usize, on: bool) -> Option<Lit> {
        let v = self.layout.var_of[e];
        (v != u32::MAX).then(|| Lit::new(self.layout.vars[v as usize], on))
    }

    fn add(&mut self, lits: &[Lit]) {
        if let Some(d) = &mut self.dumped {
            d.push(lits.iter().map(|&l| dimacs(l)).collect());
        }
        self.clause.clear();
        self.clause.extend_from_slice(lits);
        self.solver.add_clause_reuse(&mut self.clause);
    }

    /// Exactly `k` of `lits` on.
    fn exactly(&mut self, lits: &[Lit], k: usize) {
        let n = lits.len();
        if k > n {
            self.add(&[]);
            return;
        }
        for mask in 0u32..(1 << n) {
            let size = mask.count_ones() as usize;
            let picked: Vec<Lit> = (0..n)
                .filter(|&i| mask & (1 << i) != 0)
                .map(|i| lits[i])
                .collect();
            // At most k: no k+1 on together. At least k: no n-k+1 off together.
            if size == k + 1 {
                let c: Vec<Lit> = picked.iter().map(|&l| !l).collect();
                self.add(&c);
            }
            if k > 0 && size == n - k + 1 {
                self.add(&picked);
            }
        }
    }

    /// Whether edge `e` is a line in the current model (known or modelled).
    fn on(&self, board: &Board, e: usize) -> bool {
        match self.layout.var_of[e] {
            u32::MAX => board.at(e) == LINE,
            v => self.solver.get_model()[v as usize] == lbool::TRUE,
        }
    }
}

/// The four edges around a cell or a dot (lattice indices).
fn around(board: &Board, i: usize) -> [usize; 4] {
    let s = board.stride();
    [i - s, i + 1, i + s, i - 1]
}

/// What the loop theory keeps from one solver call to the next: the explanations of what it
/// propagated (literals propagated at level 0 stay so between calls).
#[derive(Default)]
struct Kept {
    /// Per edge variable: the chain whose ends it joins, when it was set off for that.
    why: Vec<Vec<Lit>>,
    /// Explanations of colour propagations, one shared by every cell of a region.
    arena: Vec<Lit>,
    /// Per colour variable: its explanation in `arena` (start, end), when it was propagated.
    span: Vec<(u32, u32)>,
}

impl Kept {
    fn new(layout: &Layout) -> Kept {
        Kept {
            why: vec![Vec::new(); layout.edges.len()],
            arena: Vec::new(),
            span: vec![(0, 0); layout.colours.len()],
        }
    }
}

/// The other colour.
fn other(colour: lbool) -> lbool {
    if colour == lbool::TRUE {
        lbool::FALSE
    } else {
        lbool::TRUE
    }
}

/// One region of cells found by [`LoopTheory::regions`]: cells joined through cells not of
/// the other colour.
struct Region {
    /// Its cells, in `LoopTheory::members`.
    members: (usize, usize),
    /// The cells of the other colour around it, in `LoopTheory::wall`.
    wall: (usize, usize),
    /// A cell of it already of the colour looked for.
    any: Option<usize>,
    /// Whether it reaches the grid's border.
    border: bool,
}

/// Where a decision level of the loop theory starts.
struct Level {
    done: usize,
    arena: usize,
    cdone: usize,
    insides: usize,
    plog: usize,
    mlog: usize,
}

/// Per lattice index: at each end of a chain of lines drawn on `board`, the other end
/// (`u32::MAX` elsewhere).
fn chain_ends(board: &Board) -> Vec<u32> {
    let mut mate = vec![u32::MAX; board.len()];
    for &e in board.trail() {
        let e = e as usize;
        if board.at(e) != LINE {
            continue;
        }
        for start in board.edge_dots(e) {
            if board.dot_lines(start) != 1 || mate[start] != u32::MAX {
                continue;
            }
            let (mut edge, mut dot) = (e, start);
            // Walk to the other end.
            loop {
                let [c, d] = board.edge_dots(edge);
                dot = if c == dot { d } else { c };
                let Some(f) = around(board, dot)
                    .into_iter()
                    .find(|&f| f != edge && board.at(f) == LINE)
                else {
                    break;
                };
                edge = f;
            }
            mate[start] = dot as u32;
            mate[dot] = start as u32;
        }
    }
    mate
}

/// The single-loop condition as a theory of the solver, on the edges and on the colours.
///
/// Edges: whenever the edges on close a loop that cannot be the whole answer, the solver
/// gets the conflict "not all of this loop" (sound: an answer holding every edge of a loop is
/// that loop), and an edge that would close such a loop is set off.
///
/// Colours: one loop is exactly one region of inside cells with one region of outside cells
/// around it (reaching the border). So when the inside cells fall into two regions walled
/// off by outside cells, that is a conflict: "not `a` and `b` both inside, or some cell of
/// the wall around `a`'s region inside" (a region cut); the cells walled off from every
/// inside cell are outside; an outside cell walled off from the border by inside cells is a
/// conflict, and a cell so walled off is inside. These cuts are short (the wall of a
/// region, not the edges of a loop) and strong: they refute a sparse puzzle with no
/// answer in a few thousand conflicts where the loop cuts alone took millions.
struct LoopTheory<'a> {
    board: &'a Board,
    layout: &'a Layout,
    /// Lines drawn before the search.
    known_lines: usize,
    /// Clue cells with a positive clue.
    positive_clues: usize,
    /// Per decision level: what to go back to (the trail checked, kept explanations, chains,
    /// colours scanned).
    levels: Vec<Level>,
    /// Trail length checked.
    done: usize,
    /// Per edge variable: whether the check has taken the edge in as a line (so chains are
    /// kept up to date incrementally, not walked at every line).
    placed: Vec<bool>,
    /// Per edge variable: the decision level at which the check took it in as a line.
    level: Vec<u32>,
    /// Sort keys of a loop lemma's literals (see `check_edges`).
    keys: Vec<u64>,
    /// Per lattice index: at a dot with one line taken in (a chain end), the chain's other
    /// end.
    mate: Vec<u32>,
    /// The edge variables taken in, in order (undone on backtracking).
    plog: Vec<u32>,
    /// Changes to `mate`, as (dot, old value) (undone on backtracking).
    mlog: Vec<(u32, u32)>,
    walk: Vec<usize>,
    lemma: Vec<Lit>,
    cells: Vec<(usize, u8)>,
    kept: Kept,
    /// Per lattice index: the region of a cell in the last pass (`u32::MAX`: none).
    label: Vec<u32>,
    /// Per lattice index: the region whose wall holds the cell.
    walled: Vec<u32>,
    stack: Vec<usize>,
    members: Vec<usize>,
    wall: Vec<usize>,
    regions: Vec<Region>,
    /// Partial checks since the last colour check.
    skipped: usize,
    /// Trail length scanned for colours by the local region check.
    cdone: usize,
    /// The inside cells scanned, in trail order (truncated on backtracking).
    insides: Vec<usize>,
    /// Cells to walk from in the local region check, with the colour looked for (`true`:
    /// inside, regions of cells not outside; `false`: outside, cells not inside).
    pending: Vec<(usize, bool)>,
    /// Per lattice index: the walk that last reached the cell.
    seen: Vec<u32>,
    /// Walks so far.
    walks: u32,
    /// Per lattice index: the local check (and colour) whose walk covered the cell.
    covered: Vec<u32>,
    /// Local checks so far.
    epoch: u32,
    /// The sides of a cell that its ring does not join.
    split: Vec<usize>,
    /// Loops cut.
    cuts: u64,
    /// Edges set off because they would close a loop early.
    closures: u64,
    /// Region cuts raised (conflicts).
    region_cuts: u64,
}

impl<'a> LoopTheory<'a> {
    fn new(
        board: &'a Board,
        layout: &'a Layout,
        (known_lines, positive_clues): (usize, usize),
        kept: Kept,
    ) -> LoopTheory<'a> {
        LoopTheory {
            board,
            layout,
            known_lines,
            positive_clues,
            levels: Vec::new(),
            done: 0,
            placed: vec![false; layout.edges.len()],
            level: vec![0; layout.edges.len()],
            keys: Vec::new(),
            mate: chain_ends(board),
            plog: Vec::new(),
            mlog: Vec::new(),
            walk: Vec::new(),
            lemma: Vec::new(),
            cells: Vec::new(),
            kept,
            label: vec![u32::MAX; board.len()],
            walled: vec![u32::MAX; board.len()],
            stack: Vec::new(),
            members: Vec::new(),
            wall: Vec::new(),
            regions: Vec::new(),
            skipped: 0,
            cdone: 0,
            insides: Vec::new(),
            pending: Vec::new(),
            seen: vec![0; board.len()],
            walks: 0,
            covered: vec![0; board.len()],
            epoch: 0,
            split: Vec::new(),
            cuts: 0,
            closures: 0,
            region_cuts: 0,
        }
    }

    /// Whether edge `e` is a line taken in by the check: drawn before the search, or an edge
    /// on whose place in its chain the check has recorded.
    fn placed(&self, e: usize) -> bool {
        match self.layout.var_of[e] {
            u32::MAX => self.board.at(e) == LINE,
            v => self.placed[v as usize],
        }
    }

    /// The lines taken in at dot `d` (see [`LoopTheory::placed`]).
    fn degree(&self, d: usize) -> usize {
        around(self.board, d)
            .into_iter()
            .filter(|&e| self.placed(e))
            .count()
    }

    /// The literal "cell `c` is inside" (`None` off the grid: outside).
    fn inside(&self, c: usize) -> Option<Lit> {
        let k = self.layout.colour_of[c];
        (k != u32::MAX).then(|| self.layout.inside_lit(k as usize))
    }

    /// The colour of cell `c`: `TRUE` inside, `FALSE` outside (off the grid too), `UNDEF`.
    /// (The region walks' innermost step: one table look-up, `Layout::packed`, then the
    /// solver's value.)
    fn colour(&self, acts: &TheoryArg, c: usize) -> lbool {
        match self.layout.packed[c] {
            u32::MAX => lbool::FALSE,
            p => acts.value(Var::unsafe_from_idx(p >> 1)) ^ (p & 1 == 1),
        }
    }

    /// Whether the loop in `walk` alone is an answer: it holds every line drawn before the
    /// search and meets every clue.
    fn alone_an_answer(&mut self) -> bool {
        let known = self
            .walk
            .iter()
            .filter(|&&e| self.layout.var_of[e] == u32::MAX)
            .count();
        if known != self.known_lines {
            return false;
        }
        self.cells.clear();
        for &e in &self.walk {
            for c in self.board.edge_cells(e) {
                if let Some(clue) = clue_of(self.board.at(c)) {
                    self.cells.push((c, clue));
                }
            }
        }
        self.cells.sort_unstable();
        let mut distinct = 0;
        let mut k = 0;
        while k < self.cells.len() {
            let (c, clue) = self.cells[k];
            let n = self.cells[k..].iter().take_while(|x| x.0 == c).count();
            if n != usize::from(clue) {
                return false;
            }
            distinct += 1;
            k += n;
        }
        distinct == self.positive_clues
    }

    /// Walks from `dot` away from `edge` along edges that are on, pushing them on `walk`;
    /// returns the dot where the chain ends (`Err(true)`: it came back to `stop`, a closed
    /// loop; `Err(false)`: a dot has more than two lines).
    fn walk_from(&mut self, mut edge: usize, mut dot: usize, stop: usize) -> Result<usize, bool> {
        loop {
            let mut next = None;
            for f in around(self.board, dot) {
                if f != edge && self.placed(f) {
                    if next.is_some() {
                        return Err(false);
                    }
                    next = Some(f);
                }
            }
            let Some(f) = next else { return Ok(dot) };
            if f == stop {
                return Err(true);
            }
            let [c, d] = self.board.edge_dots(f);
            dot = if c == dot { d } else { c };
            edge = f;
            self.walk.push(f);
        }
    }

    /// The edge part of the check (module notes); `false` when it raised a conflict or
    /// propagated something (then the colour part waits for the next round).
    fn check_edges(&mut self, acts: &mut TheoryArg) -> bool {
        let mut quiet = true;
        while self.done < acts.model().len() {
            let lit = acts.model()[self.done];
            self.done += 1;
            let v = lit.var().idx() as usize;
            if !lit.sign() || v >= self.layout.edges.len() {
                continue;
            }
            let e = self.layout.edges[v];
            let [a, b] = self.board.edge_dots(e);
            let (da, db) = (self.degree(a), self.degree(b));
            self.placed[v] = true;
            self.level[v] = self.levels.len() as u32;
            self.plog.push(v as u32);
            if da >= 2 || db >= 2 {
                // A dot with three lines: the dot clauses refute it.
                continue;
            }
            let x = if da == 0 { a } else { self.mate[a] as usize };
            let y = if db == 0 { b } else { self.mate[b] as usize };
            if x == b {
                // A closed loop.
                self.walk.clear();
                self.walk.push(e);
                if self.walk_from(e, b, e) != Err(true) {
                    continue;
                }
                if self.alone_an_answer() {
                    continue;
                }
                self.lemma.clear();
                for &f in &self.walk {
                    let v = self.layout.var_of[f];
                    if v != u32::MAX {
                        self.lemma
                            .push(Lit::new(self.layout.vars[v as usize], false));
                    }
                }
                // In the order the solver sorts a lemma into (higher level first, then by
                // literal), so that its sort finds it sorted in one pass: on maze 200x200
                // grids, sorting long loop lemmas took a quarter of the time. (Every edge is
                // taken in at the level it is set: the check runs after each round of unit
                // propagation, before the next decision.)
                self.keys.clear();
                for &l in &self.lemma {
                    let level = self.level[l.var().idx() as usize];
                    self.keys
                        .push((u64::from(u32::MAX - level) << 32) | u64::from(l.idx()));
                }
                self.keys.sort_unstable();
                self.lemma.clear();
                for &k in &self.keys {
                    let v = (k as u32 >> 1) as usize;
                    self.lemma.push(Lit::new(self.layout.vars[v], false));
                }
                self.cuts += 1;
                // Not kept as a clause: the clause learnt from it is (keeping long loop lemmas
                // made the solver ten times slower).
                acts.raise_conflict(&self.lemma, false);
                return false;
            }
            for (p, q) in [(x, y), (y, x)] {
                self.mlog.push((p as u32, self.mate[p]));
                self.mate[p] = q as u32;
            }
            // The edge joining the chain's two ends, if they are neighbours.
            let Some(f) = around(self.board, x)
                .into_iter()
                .find(|&f| self.board.edge_dots(f).contains(&y))
            else {
                continue;
            };
            let v = self.layout.var_of[f];
            if v == u32::MAX || acts.value(self.layout.vars[v as usize]) != lbool::UNDEF {
                continue;
            }
            // The chain, walked only now that it is needed.
            self.walk.clear();
            self.walk.push(e);
            if self.walk_from(e, b, e).is_err() || self.walk_from(e, a, e).is_err() {
                continue;
            }
            self.walk.push(f);
            let answer = self.alone_an_answer();
            self.walk.pop();
            if answer {
                continue;
            }
            let why = &mut self.kept.why[v as usize];
            why.clear();
            for &g in &self.walk {
                let w = self.layout.var_of[g];
                if w != u32::MAX {
                    why.push(Lit::new(self.layout.vars[w as usize], true));
                }
            }
            self.closures += 1;
            quiet = false;
            if !acts.propagate(Lit::new(self.layout.vars[v as usize], false)) {
                return false;
            }
        }
        quiet
    }

    /// Splits the grid cells not of colour `!want` into regions (joined side to side), each
    /// with its wall (the grid cells of colour `!want` beside it).
    fn regions(&mut self, acts: &TheoryArg, want: lbool) {
        let s2 = 2 * self.board.stride();
        self.members.clear();
        self.wall.clear();
        self.regions.clear();
        for &c in &self.layout.cells {
            self.label[c] = u32::MAX;
            self.walled[c] = u32::MAX;
        }
        for k in 0..self.layout.cells.len() {
            let c = self.layout.cells[k];
            if self.label[c] != u32::MAX || self.colour(acts, c) == other(want) {
                continue;
            }
            let id = self.regions.len() as u32;
            let (m0, w0) = (self.members.len(), self.wall.len());
            let mut any = None;
            let mut border = false;
            self.label[c] = id;
            self.stack.push(c);
            while let Some(d) = self.stack.pop() {
                self.members.push(d);
                if any.is_none() && self.colour(acts, d) == want {
                    any = Some(d);
                }
                for n in [d - s2, d + 2, d + s2, d - 2] {
                    if self.layout.colour_of[n] == u32::MAX {
                        border = true;
                    } else if self.colour(acts, n) == other(want) {
                        if self.walled[n] != id {
                            self.walled[n] = id;
                            self.wall.push(n);
                        }
                    } else if self.label[n] == u32::MAX {
                        self.label[n] = id;
                        self.stack.push(n);
                    }
                }
            }
            self.regions.push(Region {
                members: (m0, self.members.len()),
                wall: (w0, self.wall.len()),
                any,
                border,
            });
        }
    }

    /// The colour part of the check (the region cuts of the type notes); `false` when it
    /// raised a conflict or propagated something.
    fn check_colours(&mut self, acts: &mut TheoryArg) -> bool {
        // Inside: one region of inside cells at most.
        self.regions(acts, lbool::TRUE);
        let holding: Vec<usize> = (0..self.regions.len())
            .filter(|&k| self.regions[k].any.is_some())
            .collect();
        if holding.len() >= 2 {
            // Cut the region with the shortest wall off from another inside cell.
            let &k = holding
                .iter()
                .min_by_key(|&&k| self.regions[k].wall.1 - self.regions[k].wall.0)
                .expect("two");
            let &other = holding.iter().find(|&&j| j != k).expect("two");
            let r = &self.regions[k];
            self.lemma.clear();
            for c in [r.any, self.regions[other].any].into_iter().flatten() {
                self.lemma.push(!self.inside(c).expect("a grid cell"));
            }
            for &w in &self.wall[r.wall.0..r.wall.1] {
                self.lemma.push(self.inside(w).expect("a grid cell"));
            }
            self.cuts += 1;
            let lemma = std::mem::take(&mut self.lemma);
            self.region_cuts += 1;
            acts.raise_conflict(&lemma, true);
            self.lemma = lemma;
            return false;
        }
        if let [h] = holding[..] {
            let a = self.regions[h].any.expect("holding");
            let a = self.inside(a).expect("a grid cell");
            let mut quiet = true;
            for k in 0..self.regions.len() {
                if k == h {
                    continue;
                }
                // Every cell of region k is outside: walled off from `a`.
                let start = self.kept.arena.len() as u32;
                self.kept.arena.push(a);
                let (w0, w1) = self.regions[k].wall;
                for j in w0..w1 {
                    let w = self.inside(self.wall[j]).expect("a grid cell");
                    self.kept.arena.push(!w);
                }
                let span = (start, self.kept.arena.len() as u32);
                let (m0, m1) = self.regions[k].members;
                for j in m0..m1 {
                    let u = self.layout.colour_of[self.members[j]] as usize;
                    self.kept.span[u] = span;
                    quiet = false;
                    if !acts.propagate(!self.layout.inside_lit(u)) {
                        return false;
                    }
                }
            }
            if !quiet {
                return false;
            }
        }
        // Outside: every region of outside cells reaches the border.
        self.regions(acts, lbool::FALSE);
        let shut = (0..self.regions.len())
            .filter(|&k| !self.regions[k].border && self.regions[k].any.is_some())
            .min_by_key(|&k| self.regions[k].wall.1 - self.regions[k].wall.0);
        if let Some(k) = shut {
            let r = &self.regions[k];
            self.lemma.clear();
            self.lemma
                .push(self.inside(r.any.expect("holding")).expect("a grid cell"));
            for &w in &self.wall[r.wall.0..r.wall.1] {
                self.lemma.push(!self.inside(w).expect("a grid cell"));
            }
            self.cuts += 1;
            let lemma = std::mem::take(&mut self.lemma);
            self.region_cuts += 1;
            acts.raise_conflict(&lemma, true);
            self.lemma = lemma;
            return false;
        }
        let mut quiet = true;
        for k in 0..self.regions.len() {
            if self.regions[k].border {
                continue;
            }
            // Every cell of region k is inside: walled off from the border.
            let start = self.kept.arena.len() as u32;
            let (w0, w1) = self.regions[k].wall;
            for j in w0..w1 {
                let w = self.inside(self.wall[j]).expect("a grid cell");
                self.kept.arena.push(w);
            }
            let span = (start, self.kept.arena.len() as u32);
            let (m0, m1) = self.regions[k].members;
            for j in m0..m1 {
                let u = self.layout.colour_of[self.members[j]] as usize;
                self.kept.span[u] = span;
                quiet = false;
                if !acts.propagate(self.layout.inside_lit(u)) {
                    return false;
                }
            }
        }
        quiet
    }

    /// A walk for the local region check from `seed` over the grid cells not of colour
    /// `!want`, of at most `LOCAL_CELLS` cells, into `members` and `wall` (as
    /// [`LoopTheory::regions`]). `None` when the region is bigger, meets a region found too
    /// big or open in this check (`tag`), or (outside cells) reaches the border; else the
    /// first cell of it of colour `want`, if any.
    fn local_region(
        &mut self,
        acts: &TheoryArg,
        seed: usize,
        want: lbool,
        tag: u32,
    ) -> Option<Option<usize>> {
        let s2 = 2 * self.board.stride();
        self.members.clear();
        self.wall.clear();
        self.stack.clear();
        self.walks = self.walks.wrapping_add(1);
        let id = self.walks;
        self.seen[seed] = id;
        self.stack.push(seed);
        let mut any = None;
        let mut open = false;
        let against = other(want);
        'walk: while let Some(d) = self.stack.pop() {
            self.members.push(d);
            if self.covered[d] == tag || self.members.len() > LOCAL_CELLS {
                open = true;
                break;
            }
            if any.is_none() && self.colour(acts, d) == want {
                any = Some(d);
            }
            for n in [d - s2, d + 2, d + s2, d - 2] {
                // A cell seen in this walk is in the wall or the region already (a cell off
                // the grid is never marked seen).
                if self.seen[n] == id {
                    continue;
                }
                if self.layout.packed[n] == u32::MAX {
                    if want == lbool::FALSE {
                        open = true;
                        break 'walk;
                    }
                } else if self.colour(acts, n) == against {
                    self.seen[n] = id;
                    self.wall.push(n);
                } else {
                    self.seen[n] = id;
                    self.stack.push(n);
                }
            }
        }
        for &m in self.members.iter().chain(&self.stack) {
            self.covered[m] = tag;
        }
        (!open).then_some(any)
    }

    /// The region cuts near the cells coloured since the last check: from each of them (and
    /// the cells beside them), a walk of at most `LOCAL_CELLS` cells finds the regions small
    /// enough to be closed off (the only ones that can have split or been walled off since),
    /// so the cuts need no pass over the whole grid. `false` when it raised a conflict.
    fn check_local(&mut self, acts: &mut TheoryArg) -> bool {
        let Some(first) = self.layout.colours.first().map(|v| v.idx() as usize) else {
            return true;
        };
        let s2 = 2 * self.board.stride();
        while self.cdone < acts.model().len() {
            let lit = acts.model()[self.cdone];
            self.cdone += 1;
            let v = lit.var().idx() as usize;
            if v < first || v - first >= self.layout.cells.len() {
                continue;
            }
            let c = self.layout.cells[v - first];
            let inside = lit.sign() != self.layout.flip[v - first];
            if inside {
                self.insides.push(c);
            }
            // The regions of cells not of `c`'s colour can have split only at `c`: walk from
            // each side of `c` that the ring of its eight neighbours does not join to the
            // others.
            let colour = if inside { lbool::TRUE } else { lbool::FALSE };
            let ring = [
                c - s2,
                c - s2 + 2,
                c + 2,
                c + s2 + 2,
                c + s2,
                c + s2 - 2,
                c - 2,
                c - s2 - 2,
            ];
            // Whether ring cell k belongs to the regions: not of `c`'s colour (off the grid:
            // outside, and joined to the border).
            let member = |k: usize| match self.layout.packed[ring[k]] {
                u32::MAX => !inside,
                _ => self.colour(acts, ring[k]) != colour,
            };
            let m: [bool; 8] = std::array::from_fn(member);
            let Some(gap) = (0..8).find(|&k| !m[k]) else {
                continue;
            };
            let mut sides = 0;
            let mut run_side = None;
            for j in 1..=8 {
                let k = (gap + j) % 8;
                if m[k] {
                    if k % 2 == 0 && run_side.is_none() {
                        run_side = Some(ring[k]);
                    }
                } else if let Some(n) = run_side.take() {
                    sides += 1;
                    self.split.push(n);
                }
            }
            if sides >= 2 {
                for &n in &self.split {
                    if self.layout.colour_of[n] != u32::MAX {
                        self.pending.push((n, !inside));
                    }
                }
            }
            self.split.clear();
        }
        self.epoch = self.epoch.wrapping_add(1);
        while let Some((seed, inside)) = self.pending.pop() {
            let tag = 2 * self.epoch + u32::from(inside);
            let want = if inside { lbool::TRUE } else { lbool::FALSE };
            if self.covered[seed] == tag
                || self.colour(acts, seed) == other(want)
                || (inside && self.insides.is_empty())
            {
                continue;
            }
            let Some(any) = self.local_region(acts, seed, want, tag) else {
                continue;
            };
            let id = self.walks;
            if inside {
                // An inside cell not in this region.
                let Some(&b) = self.insides.iter().find(|&&b| self.seen[b] != id) else {
                    continue;
                };
                let b = self.inside(b).expect("a grid cell");
                if let Some(a) = any {
                    self.lemma.clear();
                    self.lemma.push(!self.inside(a).expect("a grid cell"));
                    self.lemma.push(!b);
                    for &w in &self.wall {
                        self.lemma.push(self.inside(w).expect("a grid cell"));
                    }
                    let lemma = std::mem::take(&mut self.lemma);
                    self.region_cuts += 1;
                    acts.raise_conflict(&lemma, true);
                    self.lemma = lemma;
                    return false;
                }
                // Every cell of the region is outside: walled off from `b`.
                let start = self.kept.arena.len() as u32;
                self.kept.arena.push(b);
                for &w in &self.wall {
                    let w = self.inside(w).expect("a grid cell");
                    self.kept.arena.push(!w);
                }
                let span = (start, self.kept.arena.len() as u32);
                for j in 0..self.members.len() {
                    let u = self.layout.colour_of[self.members[j]] as usize;
                    self.kept.span[u] = span;
                    if !acts.propagate(!self.layout.inside_lit(u)) {
                        return false;
                    }
                }
            } else {
                if let Some(a) = any {
                    self.lemma.clear();
                    self.lemma.push(self.inside(a).expect("a grid cell"));
                    for &w in &self.wall {
                        self.lemma.push(!self.inside(w).expect("a grid cell"));
                    }
                    let lemma = std::mem::take(&mut self.lemma);
                    self.region_cuts += 1;
                    acts.raise_conflict(&lemma, true);
                    self.lemma = lemma;
                    return false;
                }
                // Every cell of the region is inside: walled off from the border.
                let start = self.kept.arena.len() as u32;
                for &w in &self.wall {
                    let w = self.inside(w).expect("a grid cell");
                    self.kept.arena.push(w);
                }
                let span = (start, self.kept.arena.len() as u32);
                for j in 0..self.members.len() {
                    let u = self.layout.colour_of[self.members[j]] as usize;
                    self.kept.span[u] = span;
                    if !acts.propagate(self.layout.inside_lit(u)) {
                        return false;
                    }
                }
            }
        }
        true
    }

    fn check(&mut self, acts: &mut TheoryArg, partial: bool) {
        if !self.check_edges(acts) {
            return;
        }
        if !self.check_local(acts) {
            return;
        }
        let cells = self.layout.cells.len();
        if cells > REGION_CELLS {
            return;
        }
        if partial {
            self.skipped += 1;
            if self.skipped < cells {
                return;
            }
        }
        self.skipped = 0;
        self.check_colours(acts);
    }
}

/// Full passes of the region cuts during the search (partial checks) on grids of at most
/// this many cells; larger grids get only the local check (`LoopTheory::check_local`; full
/// passes on whole assignments only changed nothing there, and a blank 80x80 took minutes,
/// a cut per island of cells). The full pass runs at one
/// partial check in as many as the grid has cells (a pass over every cell costs that much),
/// so its cost per check is constant. Measured (docs/search.md): during the search they
/// settle a sparse 50x50 that had no verdict in 20 s in 0.1 s, but on 100x100 and 200x200
/// grids they made the search several times slower; checking more often (every third
/// partial check on a 12x12) made the corpus without probing 40% slower.
const REGION_CELLS: usize = 2500;

/// The most cells a walk of the local region check visits (`LoopTheory::check_local`).
/// Measured (docs/search.md): 16 missed the big islands of blob 200x200 grids, 1,024 made
/// each check too slow; 64 took blob 200x200 at 70% blanked from 8-17 s to 5-6 s.
const LOCAL_CELLS: usize = 64;

impl Theory for LoopTheory<'_> {
    fn final_check(&mut self, acts: &mut TheoryArg) {
        self.check(acts, false);
    }

    fn partial_check(&mut self, acts: &mut TheoryArg) {
        self.check(acts, true);
    }

    fn create_level(&mut self) {
        self.levels.push(Level {
            done: self.done,
            arena: self.kept.arena.len(),
            cdone: self.cdone,
            insides: self.insides.len(),
            plog: self.plog.len(),
            mlog: self.mlog.len(),
        });
    }

    fn pop_levels(&mut self, n: usize) {
        let keep = self.levels.len() - n;
        let l = &self.levels[keep];
        self.done = l.done;
        self.kept.arena.truncate(l.arena);
        self.cdone = l.cdone;
        self.insides.truncate(l.insides);
        for v in self.plog.drain(l.plog..) {
            self.placed[v as usize] = false;
        }
        for (d, old) in self.mlog.drain(l.mlog..).rev() {
            self.mate[d as usize] = old;
        }
        self.levels.truncate(keep);
    }

    fn n_levels(&self) -> usize {
        self.levels.len()
    }

    fn explain_propagation(&mut self, p: Lit) -> &[Lit] {
        let v = p.var().idx() as usize;
        if v < self.layout.edges.len() {
            &self.kept.why[v]
        } else {
            let first = self.layout.colours[0].idx() as usize;
            let (a, b) = self.kept.span[v - first];
            &self.kept.arena[a as usize..b as usize]
        }
    }
}

/// One closed loop of a model.
struct Loop {
    edges: Vec<usize>,
    /// Holds no line decided before the search and runs beside no clue.
    free: bool,
}

/// Searches what deduction left with the SAT solver, for up to two answers (see the module
/// notes). The board is left as it was; answers found are in `found`.
pub fn search(
    board: &mut Board,
    budget: &mut Budget,
    counts: &mut SearchCounts,
    found: &mut Found,
) -> Result<(), Halt> {
    trace(
        &format!("search starts ({} unknown edges)", board.unknown()),
        None,
    );
    let mut r = residue(board, budget, false);
    trace("instance built", Some(&r.solver));
    if let Some(path) = std::env::var_os(DUMP_VAR) {
        dump(board, &r, std::path::Path::new(&path));
    }
    let known_lines = board.line_count();
    let positive_clues = board
        .grid_cells()
        .filter(|&c| clue_of(board.at(c)).is_some_and(|k| k > 0))
        .count();
    let mut lits: Vec<Lit> = Vec::new();
    let mut kept = Kept::new(&r.layout);
    loop {
        budget.node()?;
        counts.runs += 1;
        counts.nodes += 1;
        let before = r.solver.num_conflicts();
        r.solver.cb_mut().max_conflicts = budget.nodes_left();
        r.solver.cb_mut().conflicts = 0;
        let mut theory = LoopTheory::new(
            board,
            &r.layout,
            (known_lines, positive_clues),
            std::mem::take(&mut kept),
        );
        let result = r.solver.solve_limited_th(&mut theory, &[]);
        kept = theory.kept;
        let spent = r.solver.num_conflicts() - before;
        let ended = if result == lbool::TRUE {
            "a model"
        } else if result == lbool::FALSE {
            "no model"
        } else {
            "stopped"
        };
        trace(
            &format!(
                "solver call {} ended: {ended} ({} loop cuts, {} region cuts, {} closures in it)",
                counts.runs, theory.cuts, theory.region_cuts, theory.closures
            ),
            Some(&r.solver),
        );
        counts.nodes += spent;
        budget.spend(spent)?;
        if result == lbool::FALSE {
            return Ok(());
        }
        if result != lbool::TRUE {
            budget.tick()?;
            return Err(Halt::Limit(Limit::Nodes(
                budget.nodes() + budget.nodes_left().unwrap_or(0),
            )));
        }
        let loops = loops_of(board, &r);
        let nonfree = loops.iter().filter(|l| !l.free).count();
        // The loops that are answers alone.
        let answers: Vec<usize> = match nonfree {
            0 => (0..loops.len()).collect(),
            1 => vec![loops.iter().position(|l| !l.free).expect("one")],
            _ => Vec::new(),
        };
        let mut cut = vec![true; loops.len()];
        for &a in &answers {
            match record(board, &r, &loops[a].edges, found) {
                Recorded::Second => return Ok(()),
                Recorded::Invalid => {}
                Recorded::First | Recorded::Same => cut[a] = false,
            }
        }
        block_and_cut(board, &mut r, &loops, &cut, found, &mut lits);
    }
}

/// The environment variable that has the verdict search write a line to standard error at
/// each of its phases (a debugging aid, not a CLI option): the process's CPU seconds so far
/// (Linux; `-` elsewhere) and the solver's counters, so that the time before the search
/// (deduction, probing), building the instance, the first answer and the second can be
/// told apart (docs/search.md, seventh round).
const TRACE_VAR: &str = "SLINK_SAT_TRACE";

/// Chronological backtracking (our change to batsat, vendor/batsat/SLINK-CHANGES.md): a
/// conflict whose learnt clause would backjump more than this many levels backtracks one
/// level only, and the asserting literal is assigned out of order. On sparse maze grids a
/// loop cut is followed by a backjump of hundreds of levels whose decisions phase saving
/// made again; measured (docs/search.md, tenth round), it halved the decisions on maze
/// 200x200 grids and gave a verdict on one that had none. 0 (every backjump chronological)
/// was as good on 100x100 grids and lost a 200x200 verdict.
const CHRONO: i32 = 100;

/// Stable phases (our change to batsat, vendor/batsat/SLINK-CHANGES.md): the solver's
/// first this many conflicts restart as before (Luby from 100), the next as many restart
/// never, and so on, both lengths doubling after each phase without restarts. A search of
/// fewer conflicts (every published puzzle's) is as before. Measured (docs/search.md,
/// eleventh round) on 20 maze 100x100 grids with 30% of the clues blanked: 32.8 s CPU in
/// all, 16 of them under 2 s, became 25.1 s, 19 under 2 s; 10 sparser ones (50% and 70%)
/// and 12 blob grids were as before. Without restarts at all the dense grids took 20.9 s,
/// but a 200x200 one had no verdict in 60 s; restarts every 1,000 conflicts or more
/// doubled the time of the sparse ones; phases of 3,000 and 4,000 were between. Only on
/// wide residues (see `wide`), as the comb and the parity clauses: on the pockets of blob
/// grids most conflicts are loop cuts, which restarts settle sooner (blob 200x200 at 70%
/// seed 1: 16,057 conflicts and 2.6 s CPU with restarts throughout, 60,005 and 4.2 s with
/// stable phases).
const STABLE_PHASES: i32 = 2000;

/// The environment variable that overrides [`STABLE_PHASES`] (a debugging aid for the
/// tests: 1 switches between phases at nearly every conflict; 0 restarts throughout).
const STABLE_VAR: &str = "SLINK_SAT_STABLE";

/// The environment variable that overrides [`CHRONO`] (a debugging aid for the tests).
const CHRONO_VAR: &str = "SLINK_SAT_CHRONO";

/// The value of the environment variable `var` (a debugging aid), or `default` when it is
/// unset or not a number.
fn from_env(var: &str, default: i32) -> i32 {
    std::env::var(var)
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(default)
}

/// The CPU seconds (user and system) of this process so far, on Linux.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name (which may hold spaces) start at field 3.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// One line of the trace (see [`TRACE_VAR`]) when it is asked for.
fn trace(what: &str, solver: Option<&Solver<Stop>>) {
    if std::env::var_os(TRACE_VAR).is_none() {
        return;
    }
    let cpu = cpu_seconds().map_or_else(|| "-".to_string(), |t| format!("{t:.2}"));
    let Some(solver) = solver else {
        eprintln!("slink sat: cpu {cpu} s: {what}");
        return;
    };
    eprintln!(
        "slink sat: cpu {cpu} s: {what}: {} conflicts, {} decisions, {} propagations, {} restarts, {} clauses",
        solver.num_conflicts(),
        solver.num_decisions(),
        solver.num_propagations(),
        solver.num_restarts(),
        solver.num_clauses()
    );
}

/// The residue of `board` as a SAT problem: one variable per unknown edge, the clue and dot
/// clauses, and the cell colours the solver decides.
fn residue(board: &Board, budget: &Budget, random_phase: bool) -> Residue {
    let mut var_of = vec![u32::MAX; board.len()];
    let mut edges = Vec::new();
    for e in board.grid_edges() {
        if board.at(e) == UNKNOWN {
            var_of[e] = edges.len() as u32;
            edges.push(e);
        }
    }
    let stop = Stop {
        deadline: budget.deadline(),
        max_conflicts: None,
        conflicts: 0,
    };
    // Basic conflict minimisation: the loop lemmas and chain explanations are long, and deep
    // minimisation of the clauses learnt from them costs more than it saves.
    let opts = SolverOpts {
        ccmin_mode: 1,
        // Faster activity decay than MiniSat's 0.95: on 100x100 random-blanked grids the
        // slowest verdict went from 2.7-2.9 s to 1.3-1.6 s (0.85 was in between).
        rnd_pol: random_phase,
        var_decay: 0.8,
        // Stable phases on wide residues only (see [`STABLE_PHASES`]).
        stable_phases: from_env(
            STABLE_VAR,
            if wide(board, edges.len()) {
                STABLE_PHASES
            } else {
                0
            },
        ),
        chrono: from_env(CHRONO_VAR, CHRONO),
        ..SolverOpts::default()
    };
    let mut solver = Solver::new(opts, stop);
    let vars: Vec<Var> = (0..edges.len())
        // Not decision variables: the solver decides cell colours, which fix every edge
        // (deciding colours rather than edges found answers on 100x100 grids where deciding
        // edges ran out of time).
        .map(|_| solver.new_var(lbool::UNDEF, false))
        .collect();
    let mut r = Residue {
        layout: Layout {
            var_of,
            edges,
            vars,
            colour_of: Vec::new(),
            colours: Vec::new(),
            cells: Vec::new(),
            flip: Vec::new(),
            packed: Vec::new(),
        },
        solver,
        clause: Vec::new(),
        dumped: std::env::var_os(DUMP_VAR).map(|_| Vec::new()),
    };
    encode(board, &mut r);
    encode_colours(board, &mut r);
    if wide(board, r.layout.edges.len()) {
        encode_parity(board, &mut r);
    }
    r
}

/// The environment variable that names a file to write the verdict search's instance to (a
/// debugging aid for trying other solvers on it, not a CLI option).
const DUMP_VAR: &str = "SLINK_SAT_DUMP";

/// A literal in DIMACS: variable index from 1, negative when negated.
fn dimacs(l: Lit) -> i32 {
    let v = l.var().idx() as i32 + 1;
    if l.sign() { v } else { -v }
}

/// Writes the instance of `r` (the clauses so far, no loop theory) in DIMACS to `path`,
/// with comment lines that place its variables: `c edge VAR ROW COL` (lattice coordinates
/// of an unknown edge) and `c cell VAR ROW COL FLIP` (a cell's colour variable; true means
/// inside unless FLIP is 1). A failed write is said on standard error and the search goes
/// on.
fn dump(board: &Board, r: &Residue, path: &std::path::Path) {
    use std::fmt::Write as _;
    let clauses = r.dumped.as_deref().unwrap_or_default();
    let mut out = String::new();
    let s = board.stride();
    for (v, &e) in r.layout.edges.iter().enumerate() {
        let var = r.layout.vars[v].idx() + 1;
        let _ = writeln!(out, "c edge {var} {} {}", e / s, e % s);
    }
    for (k, &c) in r.layout.cells.iter().enumerate() {
        let var = r.layout.colours[k].idx() + 1;
        let flip = u8::from(r.layout.flip[k]);
        let _ = writeln!(out, "c cell {var} {} {} {flip}", c / s, c % s);
    }
    let _ = writeln!(out, "p cnf {} {}", r.solver.num_vars(), clauses.len());
    for c in clauses {
        for l in c {
            let _ = write!(out, "{l} ");
        }
        out.push_str("0\n");
    }
    if let Err(e) = std::fs::write(path, out) {
        eprintln!("slink: cannot write {}: {e}", path.display());
    }
}

/// Adds the blocking clause of the first answer (once), and a cut for every loop of the
/// model that is not an answer alone (`cut`).
fn block_and_cut(
    board: &Board,
    r: &mut Residue,
    loops: &[Loop],
    cut: &[bool],
    found: &mut Found,
    lits: &mut Vec<Lit>,
) {
    // Block the first answer, and cut every loop that is not an answer alone.
    if let Some(first) = &found.first_edges
        && !found.blocked
    {
        lits.clear();
        for (v, &e) in r.layout.edges.iter().enumerate() {
            let on = first.binary_search(&(e as u32)).is_ok();
            lits.push(Lit::new(r.layout.vars[v], !on));
        }
        let c = lits.clone();
        r.add(&c);
        found.blocked = true;
    }
    for (k, l) in loops.iter().enumerate() {
        if cut[k] {
            cut_loop(board, r, l, lits);
        }
    }
}

/// Adds the cut of a loop of the model that is not an answer alone: some unknown edge of it
/// off, or some unknown edge leaving its dots on.
fn cut_loop(board: &Board, r: &mut Residue, l: &Loop, lits: &mut Vec<Lit>) {
    lits.clear();
    let mut dots: Vec<usize> = Vec::with_capacity(l.edges.len());
    for &e in &l.edges {
        if let Some(lit) = r.lit(e, false) {
            lits.push(lit);
        }
        dots.extend(board.edge_dots(e));
    }
    dots.sort_unstable();
    dots.dedup();
    for &d in &dots {
        for f in around(board, d) {
            if r.on(board, f) {
                continue;
            }
            if let Some(lit) = r.lit(f, true) {
                lits.push(lit);
            }
        }
    }
    let c = lits.clone();
    r.add(&c);
}

/// Clauses for the clue cells, the dots, the parts with no chain end, and at least one line.
fn encode(board: &Board, r: &mut Residue) {
    let mut lits: Vec<Lit> = Vec::with_capacity(4);
    // Clue cells.
    for cell in board.grid_cells() {
        let Some(clue) = clue_of(board.at(cell)) else {
            continue;
        };
        lits.clear();
        lits.extend(
            around(board, cell)
                .into_iter()
                .filter_map(|e| r.lit(e, true)),
        );
        if lits.is_empty() {
            continue;
        }
        let need = usize::from(clue).saturating_sub(usize::from(board.cell_lines(cell)));
        let l = lits.clone();
        r.exactly(&l, need);
    }
    // Dots.
    let rows = board.rows() as isize;
    let cols = board.cols() as isize;
    for y in 0..=rows {
        for x in 0..=cols {
            let d = board.index(2 * y, 2 * x);
            lits.clear();
            lits.extend(around(board, d).into_iter().filter_map(|e| r.lit(e, true)));
            if lits.is_empty() {
                continue;
            }
            let l = lits.clone();
            match board.dot_lines(d) {
                0 => {
                    // 0 or 2: no line alone, no three.
                    for (i, &a) in l.iter().enumerate() {
                        let mut c = vec![!a];
                        c.extend(
                            l.iter()
                                .enumerate()
                                .filter(|&(j, _)| j != i)
                                .map(|(_, &b)| b),
                        );
                        r.add(&c);
                    }
                    let n = l.len();
                    for mask in 0u32..(1 << n) {
                        if mask.count_ones() == 3 {
                            let c: Vec<Lit> = (0..n)
                                .filter(|&i| mask & (1 << i) != 0)
                                .map(|i| !l[i])
                                .collect();
                            r.add(&c);
                        }
                    }
                }
                1 => r.exactly(&l, 1),
                _ => r.exactly(&l, 0),
            }
        }
    }
    // Parts with no open chain end are all crosses when lines were drawn (module notes).
    if board.line_count() > 0 {
        let n = r.layout.edges.len();
        let mut part: Vec<u32> = (0..n as u32).collect();
        fn find(part: &mut [u32], mut v: u32) -> u32 {
            while part[v as usize] != v {
                part[v as usize] = part[part[v as usize] as usize];
                v = part[v as usize];
            }
            v
        }
        for y in 0..=rows {
            for x in 0..=cols {
                let d = board.index(2 * y, 2 * x);
                let mut first = None;
                for e in around(board, d) {
                    let v = r.layout.var_of[e];
                    if v == u32::MAX {
                        continue;
                    }
                    match first {
                        None => first = Some(v),
                        Some(f) => {
                            let (a, b) = (find(&mut part, f), find(&mut part, v));
                            part[a as usize] = b;
                        }
                    }
                }
            }
        }
        let mut has_end = vec![false; n];
        for (v, &e) in r.layout.edges.iter().enumerate() {
            if board.edge_dots(e).iter().any(|&d| board.dot_lines(d) == 1) {
                let root = find(&mut part, v as u32);
                has_end[root as usize] = true;
            }
        }
        for v in 0..n {
            let root = find(&mut part, v as u32);
            if !has_end[root as usize] {
                let lit = Lit::new(r.layout.vars[v], false);
                r.add(&[lit]);
            }
        }
    } else {
        // Some line somewhere.
        let all: Vec<Lit> = r.layout.vars.iter().map(|&v| Lit::new(v, true)).collect();
        r.add(&all);
    }
}

/// Inside/outside colours: one variable per cell (cells off the grid are outside), and every
/// edge is a line exactly when the cells on its two sides differ. This adds no constraint on
/// the lines (every set of lines with an even number at each dot bounds some colouring) but
/// lets the solver reason about parity along long paths in a few steps.
fn encode_colours(board: &Board, r: &mut Residue) {
    let mut colour = vec![u32::MAX; board.len()];
    let mut cells: Vec<Var> = Vec::new();
    // The planted guess (module notes): a comb when the residue covers most of a big grid.
    let comb = board.rows() * board.cols() >= COMB_CELLS && wide(board, r.layout.edges.len());
    let mut flip = Vec::new();
    for c in board.grid_cells() {
        colour[c] = cells.len() as u32;
        let (y, x) = board.point(c);
        let (row, col) = (y / 2, x / 2);
        let planted = comb && (row % 2 == 0 || col == 0);
        flip.push(planted);
        cells.push(r.solver.new_var(lbool::UNDEF, true));
        r.layout.cells.push(c);
    }
    // The literal "cell c is inside", or None for a cell off the grid (outside).
    let inside = |c: usize| -> Option<Lit> {
        (colour[c] != u32::MAX)
            .then(|| Lit::new(cells[colour[c] as usize], !flip[colour[c] as usize]))
    };
    for e in board.grid_edges() {
        let [c, d] = board.edge_cells(e);
        let (p, q) = match (inside(c), inside(d)) {
            (Some(p), Some(q)) => (p, Some(q)),
            (Some(p), None) | (None, Some(p)) => (p, None),
            (None, None) => continue,
        };
        match (r.lit(e, true), q) {
            (Some(x), Some(q)) => {
                r.add(&[!x, p, q]);
                r.add(&[!x, !p, !q]);
                r.add(&[x, !p, q]);
                r.add(&[x, p, !q]);
            }
            (Some(x), None) => {
                r.add(&[!x, p]);
                r.add(&[x, !p]);
            }
            (None, Some(q)) if board.at(e) == LINE => {
                r.add(&[p, q]);
                r.add(&[!p, !q]);
            }
            (None, Some(q)) => {
                r.add(&[!p, q]);
                r.add(&[p, !q]);
            }
            (None, None) if board.at(e) == LINE => r.add(&[p]),
            (None, None) => r.add(&[!p]),
        }
    }
    let mut packed = vec![u32::MAX; colour.len()];
    for (p, &k) in packed.iter_mut().zip(&colour) {
        if k != u32::MAX {
            *p = (cells[k as usize].idx() << 1) | u32::from(flip[k as usize]);
        }
    }
    r.layout.colour_of = colour;
    r.layout.colours = cells;
    r.layout.flip = flip;
    r.layout.packed = packed;
}

/// Whether a residue of `unknown_edges` holds more than half of the grid's edges: a winding loop that
/// deduction barely touched (maze grids), not pockets left between decided parts (blob
/// grids). The comb, the parity clauses and the stable phases are for such residues only
/// (module notes).
fn wide(board: &Board, unknown_edges: usize) -> bool {
    2 * unknown_edges > board.edge_count()
}

/// The side of the square windows of cells in which `encode_parity` solves the parity
/// equations (at most 128 cells, one bit each).
const PARITY_WINDOW: usize = 11;

/// The longest parity equation `encode_parity` adds as clauses (an equation over `w` cells
/// is `2^(w-1)` clauses).
const PARITY_WIDTH: usize = 6;

/// A parity equation: the colours (inside: 1) of these cells, given as grid (row, column),
/// add up to the flag mod 2.
type Equation = (Vec<(usize, usize)>, bool);

/// Short parity equations between cell colours, as clauses. A clue `k` is the number of its
/// cell's sides whose two cells differ, so, mod 2, the colours of its four neighbours (off
/// the grid: outside) add up to `k`; a decided edge says its two cells add up to 1 (line)
/// or 0 (cross). CDCL solvers handle such parity poorly (deriving a sum of many equations
/// takes them exponentially many steps), and a sea of 2s, as on maze grids, is mostly
/// parity. So the equations are solved by Gauss-Jordan elimination over GF(2) in every
/// window of `PARITY_WINDOW` x `PARITY_WINDOW` cells (windows overlapping by half), and
/// the rows of the reduced systems over at most `PARITY_WIDTH` cells are added, each as the
/// clauses that forbid its assignments of the wrong parity. They are implied by the clauses
/// already there, so they exclude no answer; a contradiction (0 = 1) is the empty clause.
fn encode_parity(board: &Board, r: &mut Residue) {
    let (rows, cols) = (board.rows(), board.cols());
    let (window, width) = (PARITY_WINDOW, PARITY_WIDTH);
    let colour_of = std::mem::take(&mut r.layout.colour_of);
    // The colour variable of the cell at grid row `y`, column `x`, if on the grid.
    let var = |y: isize, x: isize| -> Option<u32> {
        (y >= 0 && x >= 0 && (y as usize) < rows && (x as usize) < cols)
            .then(|| colour_of[board.index(2 * y + 1, 2 * x + 1)])
    };
    // The equations (cells as grid (row, column), the sum), by their first cell's row.
    let mut by_row: Vec<Vec<Equation>> = vec![Vec::new(); rows];
    let mut push = |cells: Vec<(usize, usize)>, sum: bool| {
        if let Some(&(y, _)) = cells.iter().min() {
            by_row[y].push((cells, sum));
        }
    };
    for y in 0..rows as isize {
        for x in 0..cols as isize {
            let c = board.index(2 * y + 1, 2 * x + 1);
            let Some(k) = clue_of(board.at(c)) else {
                continue;
            };
            let cells = [(y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)]
                .into_iter()
                .filter(|&(v, u)| var(v, u).is_some())
                .map(|(v, u)| (v as usize, u as usize))
                .collect();
            push(cells, k % 2 == 1);
        }
    }
    for e in board.grid_edges() {
        let state = board.at(e);
        if state == UNKNOWN {
            continue;
        }
        let cells: Vec<(usize, usize)> = board
            .edge_cells(e)
            .into_iter()
            .filter(|&c| colour_of[c] != u32::MAX)
            .map(|c| {
                let (y, x) = board.point(c);
                (y as usize / 2, x as usize / 2)
            })
            .collect();
        push(cells, state == LINE);
    }
    let mut added: std::collections::HashSet<(Vec<u32>, bool)> = Default::default();
    let step = (window / 2).max(1);
    let mut lits: Vec<Lit> = Vec::new();
    for y0 in (0..rows).step_by(step) {
        for x0 in (0..cols).step_by(step) {
            let inside = |&(y, x): &(usize, usize)| {
                (y0..y0 + window).contains(&y) && (x0..x0 + window).contains(&x)
            };
            // Reduced rows by pivot bit (the row's lowest), bit = (y - y0) * window + x - x0.
            let mut pivot: [Option<(u128, bool)>; 128] = [None; 128];
            let mut contradiction = false;
            for eqs in &by_row[y0..(y0 + window).min(rows)] {
                for (cells, sum) in eqs {
                    if !cells.iter().all(inside) {
                        continue;
                    }
                    let (mut m, mut b) = (0u128, *sum);
                    for &(y, x) in cells {
                        m ^= 1 << ((y - y0) * window + x - x0);
                    }
                    loop {
                        if m == 0 {
                            contradiction |= b;
                            break;
                        }
                        let p = m.trailing_zeros() as usize;
                        match pivot[p] {
                            Some((pm, pb)) => {
                                m ^= pm;
                                b ^= pb;
                            }
                            None => {
                                pivot[p] = Some((m, b));
                                break;
                            }
                        }
                    }
                }
            }
            if contradiction {
                r.add(&[]);
                r.layout.colour_of = colour_of;
                return;
            }
            // Gauss-Jordan: each pivot bit only in its own row.
            for p in 0..128 {
                let Some((pm, pb)) = pivot[p] else { continue };
                for (q, row) in pivot.iter_mut().enumerate() {
                    if q != p
                        && let Some((qm, qb)) = *row
                        && qm & (1 << p) != 0
                    {
                        *row = Some((qm ^ pm, qb ^ pb));
                    }
                }
            }
            for (m, b) in pivot.into_iter().flatten() {
                if m.count_ones() as usize > width {
                    continue;
                }
                let ks: Vec<u32> = (0..128)
                    .filter(|&i| m & (1 << i) != 0)
                    .map(|i| {
                        let (y, x) = (y0 + i / window, x0 + i % window);
                        var(y as isize, x as isize).expect("a cell of the grid")
                    })
                    .collect();
                let mut key = ks.clone();
                key.sort_unstable();
                if !added.insert((key, b)) {
                    continue;
                }
                // Forbid every assignment of the wrong parity.
                for a in 0u32..(1 << ks.len()) {
                    if (a.count_ones() % 2 == 1) == b {
                        continue;
                    }
                    lits.clear();
                    for (i, &k) in ks.iter().enumerate() {
                        let inside = r.layout.inside_lit(k as usize);
                        lits.push(if a & (1 << i) != 0 { !inside } else { inside });
                    }
                    let c = lits.clone();
                    r.add(&c);
                }
            }
        }
    }
    r.layout.colour_of = colour_of;
}

/// The closed loops of the current model (every dot has 0 or 2 lines in it).
fn loops_of(board: &Board, r: &Residue) -> Vec<Loop> {
    let mut seen = vec![false; board.len()];
    let mut loops = Vec::new();
    let mut starts: Vec<usize> = board
        .trail()
        .iter()
        .map(|&e| e as usize)
        .filter(|&e| board.at(e) == LINE)
        .collect();
    starts.extend(r.layout.edges.iter().copied().filter(|&e| r.on(board, e)));
    for start in starts {
        if seen[start] {
            continue;
        }
        let mut edges = Vec::new();
        let mut free = true;
        let (mut e, mut d) = (start, board.edge_dots(start)[1]);
        loop {
            seen[e] = true;
            edges.push(e);
            if r.layout.var_of[e] == u32::MAX
                || board
                    .edge_cells(e)
                    .iter()
                    .any(|&c| clue_of(board.at(c)).is_some())
            {
                free = false;
            }
            let next = around(board, d)
                .into_iter()
                .find(|&f| f != e && r.on(board, f));
            let Some(f) = next else { break };
            if f == start {
                break;
            }
            let [a, b] = board.edge_dots(f);
            d = if a == d { b } else { a };
            e = f;
        }
        loops.push(Loop { edges, free });
    }
    loops
}

/// What became of an answer found.
enum Recorded {
    /// It is the first.
    First,
    /// It is the first again.
    Same,
    /// It is a second, different one.
    Second,
    /// The answer check refused it (then it is cut like any loop).
    Invalid,
}

/// Records the answer made of the loop `lines`, checked on the board by the answer check.
fn record(board: &mut Board, r: &Residue, lines: &[usize], found: &mut Found) -> Recorded {
    let mut sorted: Vec<u32> = lines.iter().map(|&e| e as u32).collect();
    sorted.sort_unstable();
    if found.first_edges.as_ref() == Some(&sorted) {
        return Recorded::Same;
    }
    let mark = board.trail().len();
    for &e in &r.layout.edges {
        let state = if sorted.binary_search(&(e as u32)).is_ok() {
            LINE
        } else {
            CROSS
        };
        // A write always completes; the check below judges the whole.
        let _ = board.set_edge(e, state, Reason::Guess);
    }
    let recorded = if check_answer(board).is_err() {
        Recorded::Invalid
    } else if found.first_edges.is_none() {
        found.first = Some(board.clone());
        found.first_edges = Some(sorted);
        Recorded::First
    } else {
        found.several = true;
        found.second = Some(board.clone());
        Recorded::Second
    };
    board.undo_to(mark);
    recorded
}

/// The residue's SAT instance kept for questions past the verdict (`deduce::ambiguity`):
/// answers under assumptions, with clauses and guard variables added on the way. Every
/// answer it gives is one loop, checked by the answer check.
pub(crate) struct Instance {
    r: Residue,
    known_lines: usize,
    positive_clues: usize,
    kept: Kept,
    lits: Vec<Lit>,
}

impl Instance {
    /// The instance of what deduction left on `board`.
    pub(crate) fn new(board: &Board, budget: &Budget) -> Instance {
        let r = residue(board, budget, false);
        let kept = Kept::new(&r.layout);
        Instance {
            r,
            known_lines: board.line_count(),
            positive_clues: board
                .grid_cells()
                .filter(|&c| clue_of(board.at(c)).is_some_and(|k| k > 0))
                .count(),
            kept,
            lits: Vec::new(),
        }
    }

    /// The unknown edges (lattice indices), one per variable.
    pub(crate) fn edges(&self) -> &[usize] {
        &self.r.layout.edges
    }

    /// The variable of an unknown edge, if it is one.
    pub(crate) fn var_of(&self, e: usize) -> Option<usize> {
        let v = self.r.layout.var_of[e];
        (v != u32::MAX).then_some(v as usize)
    }

    /// The literal "variable `v` is `on`".
    pub(crate) fn lit(&self, v: usize, on: bool) -> Lit {
        Lit::new(self.r.layout.vars[v], on)
    }

    /// A fresh guard: clauses made with it hold only while it is assumed.
    pub(crate) fn guard(&mut self) -> Lit {
        Lit::new(self.r.solver.new_var(lbool::UNDEF, false), true)
    }

    /// Adds a clause.
    pub(crate) fn add(&mut self, lits: &[Lit]) {
        self.r.add(lits);
    }

    /// Exactly `k` of `lits` on while `guard` is assumed.
    pub(crate) fn exactly_if(&mut self, guard: Lit, lits: &[Lit], k: usize) {
        let n = lits.len();
        if k > n {
            self.r.add(&[!guard]);
            return;
        }
        for mask in 0u32..(1 << n) {
            let size = mask.count_ones() as usize;
            let pick = |neg: bool| {
                let mut c: Vec<Lit> = (0..n)
                    .filter(|&i| mask & (1 << i) != 0)
                    .map(|i| if neg { !lits[i] } else { lits[i] })
                    .collect();
                c.push(!guard);
                c
            };
            if size == k + 1 {
                self.r.add(&pick(true));
            }
            if size == n - k + 1 {
                self.r.add(&pick(false));
            }
        }
    }

    /// An answer under `assumptions` (the value of every variable, one loop that passed the
    /// answer check), or `None` when there is none. Models that are not one loop get cuts
    /// that exclude no answer, and the solver goes on.
    pub(crate) fn answer(
        &mut self,
        board: &mut Board,
        assumptions: &[Lit],
        budget: &mut Budget,
        counts: &mut SearchCounts,
    ) -> Result<Option<Vec<bool>>, Halt> {
        loop {
            budget.node()?;
            counts.runs += 1;
            counts.nodes += 1;
            let before = self.r.solver.num_conflicts();
            self.r.solver.cb_mut().max_conflicts = budget.nodes_left();
            self.r.solver.cb_mut().conflicts = 0;
            let mut theory = LoopTheory::new(
                board,
                &self.r.layout,
                (self.known_lines, self.positive_clues),
                std::mem::take(&mut self.kept),
            );
            let result = self.r.solver.solve_limited_th(&mut theory, assumptions);
            self.kept = theory.kept;
            let spent = self.r.solver.num_conflicts() - before;
            counts.nodes += spent;
            budget.spend(spent)?;
            if result == lbool::FALSE {
                return Ok(None);
            }
            if result != lbool::TRUE {
                budget.tick()?;
                return Err(Halt::Limit(Limit::Nodes(
                    budget.nodes() + budget.nodes_left().unwrap_or(0),
                )));
            }
            let loops = loops_of(board, &self.r);
            if loops.len() == 1 {
                if self.checks(board, &loops[0].edges) {
                    let model = self.r.solver.get_model();
                    let values = self
                        .r
                        .layout
                        .vars
                        .iter()
                        .map(|v| model[v.idx() as usize] == lbool::TRUE)
                        .collect();
                    return Ok(Some(values));
                }
                cut_loop(board, &mut self.r, &loops[0], &mut self.lits);
                continue;
            }
            // Two loops or more: no answer holds them all (an answer holding every edge of a
            // loop is that loop), and each loop that is not an answer alone is cut.
            let mut all: Vec<Lit> = Vec::new();
            for l in &loops {
                all.extend(l.edges.iter().filter_map(|&e| self.r.lit(e, false)));
            }
            self.r.add(&all);
            let nonfree = loops.iter().filter(|l| !l.free).count();
            for l in &loops {
                if nonfree > 1 || (nonfree == 1 && l.free) {
                    cut_loop(board, &mut self.r, l, &mut self.lits);
                }
            }
        }
    }

    /// Whether the loop `lines` (every other unknown edge off) passes the answer check.
    fn checks(&self, board: &mut Board, lines: &[usize]) -> bool {
        let mut sorted: Vec<u32> = lines.iter().map(|&e| e as u32).collect();
        sorted.sort_unstable();
        let mark = board.trail().len();
        for &e in &self.r.layout.edges {
            let state = if sorted.binary_search(&(e as u32)).is_ok() {
                LINE
            } else {
                CROSS
            };
            // A write always completes; the check below judges the whole.
            let _ = board.set_edge(e, state, Reason::Guess);
        }
        let ok = check_answer(board).is_ok();
        board.undo_to(mark);
        ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Tracking;
    use crate::puzzle::Puzzle;

    /// The planted comb of a blank 40x40 grid, as the cells planted inside (row, column).
    fn planted(margin: usize) -> Vec<(usize, usize)> {
        let puzzle = Puzzle {
            rows: 40,
            cols: 40,
            clues: vec![None; 1600],
        };
        let board = Board::new(&puzzle, margin, Tracking::default());
        let r = residue(&board, &Budget::new(None, None), false);
        let layout = &r.layout;
        (0..layout.cells.len())
            .filter(|&k| layout.flip[k])
            .map(|k| {
                let (y, x) = board.point(layout.cells[k]);
                (y as usize / 2, x as usize / 2)
            })
            .collect()
    }

    #[test]
    fn the_planted_guess_is_a_comb_whatever_the_margin() {
        let comb = planted(4);
        let expected: Vec<(usize, usize)> = (0..40)
            .flat_map(|row| (0..40).map(move |col| (row, col)))
            .filter(|&(row, col)| row % 2 == 0 || col == 0)
            .collect();
        assert_eq!(comb, expected);
        for margin in [6, 14, 16] {
            assert_eq!(planted(margin), comb, "margin {margin}");
        }
    }
}
