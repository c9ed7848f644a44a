//! The verdict search on CaDiCaL (the `cadical-sys` crate): the same instance as batsat's
//! (`encode`, `encode_colours`, `encode_parity`), with the loop theory (`LoopTheory`) run
//! as CaDiCaL's external propagator (IPASIR-UP).
//!
//! The propagator keeps its own trail of the solver's assignments (every variable is
//! observed), cut at each backtrack, and runs the theory's check on it whenever the solver
//! asks for a propagation with none left queued, and on each model. What the theory
//! propagates is queued (and shown to the theory as set, as batsat's propagation is) with
//! its reason clause made at once; its conflicts, and propagations of literals already
//! false, become external clauses. Cuts of whole loops and the blocking clause of the first
//! answer are added between calls, as with batsat.

use super::{
    Acts, Board, Budget, Found, Halt, Kept, Layout, Limit, LoopTheory, Residue, SearchCounts,
    dimacs, take_model, trace,
};
use batsat::{Lit, SolverInterface, Theory, Var, lbool};
use cadical_sys::{CaDiCal, ExternalPropagator, Learner, Status, Terminator};
use std::cell::{Cell, RefCell};
use std::collections::BinaryHeap;
use std::collections::VecDeque;
use std::rc::Rc;
use std::time::Instant;

/// The environment variable that picks the back end: `cadical` or `batsat`.
const SOLVER_VAR: &str = "SLINK_SAT_SOLVER";

/// Whether the verdict search runs on CaDiCaL.
pub(super) fn chosen() -> bool {
    std::env::var_os(SOLVER_VAR).is_some_and(|v| v == "cadical")
}

/// The batsat literal of a DIMACS literal.
fn lit_of(x: i32) -> Lit {
    Lit::new(Var::unsafe_from_idx(x.unsigned_abs() - 1), x > 0)
}

/// The value of literal `p` when its variable has value `v`.
fn lit_value(v: lbool, p: Lit) -> lbool {
    v ^ !p.sign()
}

/// The solver's side of the theory's check under CaDiCaL.
struct UpArg {
    /// The observed assignments, in order.
    trail: Vec<Lit>,
    /// Per decision level: the trail length where it starts.
    levels: Vec<usize>,
    /// Per variable: its value on `trail`.
    val: Vec<lbool>,
    /// Per variable: its value when queued and not yet handed to the solver.
    pend: Vec<lbool>,
    /// Propagations not yet handed to the solver.
    queue: VecDeque<Lit>,
    /// Per variable: the reason clause of its last propagation (the literal first).
    reasons: Vec<Vec<i32>>,
    /// Clauses for the solver, with whether they may be forgotten.
    clauses: Vec<(Vec<i32>, bool)>,
}

impl Acts for UpArg {
    fn model(&self) -> &[Lit] {
        &self.trail
    }

    fn value(&self, v: Var) -> lbool {
        let k = v.idx() as usize;
        if self.val[k] != lbool::UNDEF {
            self.val[k]
        } else {
            self.pend[k]
        }
    }

    fn propagate(&mut self, p: Lit, why: &[Lit]) -> bool {
        let now = lit_value(self.value(p.var()), p);
        if now == lbool::TRUE {
            return true;
        }
        let k = p.var().idx() as usize;
        let reason = &mut self.reasons[k];
        reason.clear();
        reason.push(dimacs(p));
        reason.extend(why.iter().map(|&l| -dimacs(l)));
        if now == lbool::UNDEF {
            self.pend[k] = if p.sign() { lbool::TRUE } else { lbool::FALSE };
            self.queue.push_back(p);
            true
        } else {
            self.clauses.push((reason.clone(), true));
            false
        }
    }

    fn raise_conflict(&mut self, lemma: &[Lit], keep: bool) {
        self.clauses.push((
            lemma.iter().map(|&l| dimacs(l)).collect(),
            !keep || std::env::var_os("SLINK_X_FORGET2").is_some(),
        ));
    }
}

/// The theory's counters, read by the trace between calls.
#[derive(Default)]
struct Counters {
    cuts: Cell<u64>,
    region_cuts: Cell<u64>,
    closures: Cell<u64>,
}

/// Activities of the colour variables (EXPERIMENT: VSIDS over colours, for `cb_decide`).
struct Act {
    activity: Vec<f64>,
    inc: f64,
    /// (activity bits, colour): stale entries are skipped.
    heap: BinaryHeap<(u64, u32)>,
    /// Per edge variable: its two cells' colours (`u32::MAX`: off the grid).
    edge_cells: Vec<[u32; 2]>,
    first: usize,
    colours: usize,
}

impl Act {
    fn bump(&mut self, k: usize) {
        self.activity[k] += self.inc;
        if self.activity[k] > 1e100 {
            for a in &mut self.activity {
                *a *= 1e-100;
            }
            self.inc *= 1e-100;
            self.heap = (0..self.activity.len())
                .map(|j| (self.activity[j].to_bits(), j as u32))
                .collect();
        }
        self.heap.push((self.activity[k].to_bits(), k as u32));
    }
}

/// Feeds the learnt clauses' variables to `Act`.
struct Bumper(Rc<RefCell<Act>>);

impl Learner for Bumper {
    fn learning(&mut self, _size: i32) -> bool {
        true
    }

    fn learn(&mut self, lit: i32) {
        let mut a = self.0.borrow_mut();
        if lit == 0 {
            a.inc /= 0.95;
            return;
        }
        let v = lit.unsigned_abs() as usize - 1;
        if v >= a.first && v - a.first < a.colours {
            let k = v - a.first;
            a.bump(k);
        } else if v < a.edge_cells.len() {
            for c in a.edge_cells[v] {
                if c != u32::MAX {
                    a.bump(c as usize);
                }
            }
        }
    }
}

/// The loop theory as CaDiCaL's external propagator.
struct Up {
    theory: LoopTheory<Rc<Board>, Rc<Layout>>,
    arg: UpArg,
    /// Position in the reason clause being handed over.
    reason_at: usize,
    /// Position in the external clause being handed over.
    clause_at: usize,
    counters: Rc<Counters>,
    /// Decide colours only, in order (EXPERIMENT).
    sweep: bool,
    /// The first colour variable, and how many there are.
    first: usize,
    colours: usize,
    /// The first colour (in order) that may be unassigned.
    next: usize,
    /// Per colour: its last value (its phase).
    saved: Vec<bool>,
    act: Option<Rc<RefCell<Act>>>,
}

impl Up {
    fn check(&mut self, partial: bool) {
        self.theory.check(&mut self.arg, partial);
        self.counters.cuts.set(self.theory.cuts);
        self.counters.region_cuts.set(self.theory.region_cuts);
        self.counters.closures.set(self.theory.closures);
    }

    fn assign(&mut self, x: i32) {
        let p = lit_of(x);
        let k = p.var().idx() as usize;
        if k < self.arg.val.len() && self.arg.val[k] == lbool::UNDEF {
            self.arg.val[k] = if p.sign() { lbool::TRUE } else { lbool::FALSE };
            self.arg.trail.push(p);
        }
    }
}

impl ExternalPropagator for Up {
    fn are_reasons_forgettable(&mut self) -> bool {
        std::env::var_os("SLINK_X_FORGET").is_some()
    }

    fn notify_assignment(&mut self, lits: &[i32]) {
        for &x in lits {
            self.assign(x);
        }
    }

    fn notify_new_decision_level(&mut self) {
        self.arg.levels.push(self.arg.trail.len());
        self.theory.create_level();
    }

    fn notify_backtrack(&mut self, new_level: usize) {
        let n = self.arg.levels.len() - new_level;
        if n == 0 {
            return;
        }
        self.theory.pop_levels(n);
        let start = self.arg.levels[new_level];
        for p in self.arg.trail.drain(start..) {
            let k = p.var().idx() as usize;
            self.arg.val[k] = lbool::UNDEF;
            if k >= self.first && k - self.first < self.colours {
                self.saved[k - self.first] = p.sign();
                self.next = self.next.min(k - self.first);
                if let Some(act) = &self.act {
                    let mut a = act.borrow_mut();
                    let bits = a.activity[k - self.first].to_bits();
                    a.heap.push((bits, (k - self.first) as u32));
                }
            }
        }
        self.arg.levels.truncate(new_level);
        for p in self.arg.queue.drain(..) {
            self.arg.pend[p.var().idx() as usize] = lbool::UNDEF;
        }
    }

    fn cb_check_found_model(&mut self, model: &[i32]) -> bool {
        for &x in model {
            self.assign(x);
        }
        self.check(false);
        // Every variable is set: what is queued is true already or a conflict.
        while let Some(p) = self.arg.queue.pop_front() {
            let k = p.var().idx() as usize;
            self.arg.pend[k] = lbool::UNDEF;
            if lit_value(self.arg.val[k], p) != lbool::TRUE {
                let c = std::mem::take(&mut self.arg.reasons[k]);
                self.arg.clauses.push((c, true));
            }
        }
        self.arg.clauses.is_empty()
    }

    fn cb_decide(&mut self) -> i32 {
        if let Some(act) = &self.act {
            let mut a = act.borrow_mut();
            while let Some((bits, j)) = a.heap.pop() {
                let j = j as usize;
                let k = self.first + j;
                if bits != a.activity[j].to_bits()
                    || self.arg.val[k] != lbool::UNDEF
                    || self.arg.pend[k] != lbool::UNDEF
                {
                    continue;
                }
                // Unassigned: it goes back in the heap when it is unassigned again.
                let x = k as i32 + 1;
                return if self.saved[j] { x } else { -x };
            }
            return 0;
        }
        if !self.sweep {
            return 0;
        }
        while self.next < self.colours {
            let k = self.first + self.next;
            if self.arg.val[k] == lbool::UNDEF && self.arg.pend[k] == lbool::UNDEF {
                let x = k as i32 + 1;
                return if self.saved[self.next] { x } else { -x };
            }
            self.next += 1;
        }
        0
    }

    fn cb_propagate(&mut self) -> i32 {
        loop {
            while let Some(p) = self.arg.queue.pop_front() {
                let k = p.var().idx() as usize;
                self.arg.pend[k] = lbool::UNDEF;
                if lit_value(self.arg.val[k], p) != lbool::TRUE {
                    return dimacs(p);
                }
            }
            if !self.arg.clauses.is_empty() {
                return 0;
            }
            self.check(true);
            if self.arg.queue.is_empty() {
                return 0;
            }
        }
    }

    fn cb_add_reason_clause_lit(&mut self, propagated_lit: i32) -> i32 {
        let r = &self.arg.reasons[propagated_lit.unsigned_abs() as usize - 1];
        if let Some(&x) = r.get(self.reason_at) {
            self.reason_at += 1;
            x
        } else {
            self.reason_at = 0;
            0
        }
    }

    fn cb_has_external_clause(&mut self, is_forgettable: &mut bool) -> bool {
        match self.arg.clauses.last() {
            Some((_, f)) => {
                *is_forgettable = *f;
                self.clause_at = 0;
                true
            }
            None => false,
        }
    }

    fn cb_add_external_clause_lit(&mut self) -> i32 {
        let Some((c, _)) = self.arg.clauses.last() else {
            return 0;
        };
        if let Some(&x) = c.get(self.clause_at) {
            self.clause_at += 1;
            x
        } else {
            self.clause_at = 0;
            self.arg.clauses.pop();
            0
        }
    }
}

/// Stops a call at the deadline.
struct Deadline(Option<Instant>);

impl Terminator for Deadline {
    fn terminated(&mut self) -> bool {
        self.0.is_some_and(|d| Instant::now() >= d)
    }
}

/// One line of the trace with CaDiCaL's counters.
fn trace_cad(what: &str, solver: &CaDiCal) {
    trace(
        &format!(
            "{what}: {} conflicts, {} decisions, {} propagations, {} restarts, {} clauses",
            solver.get_statistic_value("conflicts"),
            solver.get_statistic_value("decisions"),
            solver.get_statistic_value("propagations"),
            0,
            solver.get_statistic_value("clauses"),
        ),
        None,
    );
}

/// The verdict search of `super::search` on CaDiCaL, from the residue `r` built for it.
pub(super) fn search(
    board: &mut Board,
    budget: &mut Budget,
    counts: &mut SearchCounts,
    found: &mut Found,
    mut r: Residue,
    known: (usize, usize),
) -> Result<(), Halt> {
    let vars = r.solver.num_vars() as usize;
    let layout = Rc::new(r.layout.clone());
    let counters = Rc::new(Counters::default());
    let theory = LoopTheory::new(
        Rc::new(board.clone()),
        Rc::clone(&layout),
        known,
        Kept::new(&layout),
    );
    let up = Up {
        theory,
        arg: UpArg {
            trail: Vec::new(),
            levels: Vec::new(),
            val: vec![lbool::UNDEF; vars],
            pend: vec![lbool::UNDEF; vars],
            queue: VecDeque::new(),
            reasons: vec![Vec::new(); vars],
            clauses: Vec::new(),
        },
        reason_at: 0,
        clause_at: 0,
        counters: Rc::clone(&counters),
        sweep: std::env::var_os("SLINK_X_SWEEP").is_some(),
        first: layout.colours.first().map_or(0, |v| v.idx() as usize),
        colours: layout.colours.len(),
        next: 0,
        saved: vec![false; layout.colours.len()],
        act: None,
    };
    let mut up = up;
    let mut bumper = None;
    if std::env::var_os("SLINK_X_VSIDS").is_some() {
        let first = up.first;
        let colours = up.colours;
        let edge_cells = layout
            .edges
            .iter()
            .map(|&e| board.edge_cells(e).map(|c| layout.colour_of[c]))
            .collect();
        let act = Rc::new(RefCell::new(Act {
            activity: vec![0.0; colours],
            inc: 1.0,
            heap: (0..colours as u32).map(|j| (0f64.to_bits(), j)).collect(),
            edge_cells,
            first,
            colours,
        }));
        bumper = Some(Bumper(Rc::clone(&act)));
        up.act = Some(act);
    }
    {
        let cad = r.cad.as_mut().expect("a CaDiCaL residue");
        if (cad.declared as usize) < vars {
            cad.solver.resize(vars as i32);
            cad.declared = vars as i32;
        }
        cad.solver.connect_external_propagator(up);
        if let Some(b) = bumper {
            cad.solver.connect_learner(b);
        }
        for v in 1..=vars as i32 {
            cad.solver.add_observed_var(v);
        }
        cad.solver.connect_terminator(Deadline(budget.deadline()));
    }
    let mut lits: Vec<Lit> = Vec::new();
    loop {
        budget.node()?;
        counts.runs += 1;
        counts.nodes += 1;
        let cad = r.cad.as_mut().expect("a CaDiCaL residue");
        let before = cad.solver.get_statistic_value("conflicts");
        if let Some(n) = budget.nodes_left() {
            cad.solver.limit("conflicts", n.min(i32::MAX as u64) as i32);
        }
        let result = cad.solver.solve();
        let spent = (cad.solver.get_statistic_value("conflicts") - before).max(0) as u64;
        let ended = match result {
            Status::SATISFIABLE => "a model",
            Status::UNSATISFIABLE => "no model",
            Status::UNKNOWN => "stopped",
        };
        trace_cad(
            &format!(
                "solver call {} ended: {ended} ({} loop cuts, {} region cuts, {} closures in it)",
                counts.runs,
                counters.cuts.get(),
                counters.region_cuts.get(),
                counters.closures.get()
            ),
            &cad.solver,
        );
        counts.nodes += spent;
        budget.spend(spent)?;
        match result {
            Status::UNSATISFIABLE => return Ok(()),
            Status::UNKNOWN => {
                budget.tick()?;
                return Err(Halt::Limit(Limit::Nodes(
                    budget.nodes() + budget.nodes_left().unwrap_or(0),
                )));
            }
            Status::SATISFIABLE => {}
        }
        cad.model.clear();
        for v in 1..=vars as i32 {
            let x = cad.solver.val(v);
            cad.model
                .push(if x > 0 { lbool::TRUE } else { lbool::FALSE });
        }
        if take_model(board, &mut r, found, &mut lits) {
            return Ok(());
        }
    }
}
