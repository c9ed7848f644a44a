//! The local laws of a window and the facts they force: which edges every assignment obeying the laws and matching a premise shares.
//!
//! The laws are those `rules check` proves rules under (see [`crate::rules::prove`]): a clue cell
//! has exactly its clue's number of lines, every box dot has 0 or 2, and, with the single-loop
//! law, the window's lines close no cycle. (The outer end of an exit touches one window edge
//! only, so its "at most 2" law never bites.)
//!
//! Two ways to find the forced facts, with the same answers:
//! - a *table*: every assignment of a window without clues is listed once as a `u64` mask;
//!   the assignments of a clue placement are filtered from it, and a premise's are filtered
//!   again (what the premise search does incrementally). Used while the table stays small
//!   (up to 2x3 boxes);
//! - a *search*: backtracking that finds one assignment, then tries each edge the other way
//!   (an assignment found that way clears every edge on which it differs): the backbone of
//!   the premise. Used for larger boxes. With colour facts, and for learning from probes
//!   ([`Laws::backbone_with`], [`Laws::forces_with`]), the search propagates: a law with one
//!   way left decides its open edges, a cycle fails as soon as it closes, and paths are
//!   followed first, which answers the large premises of 4x4 windows far sooner.

use super::window::{Window, root};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

/// Clues of a box's cells, row by row: `Some(n)`, or `None` for "anything".
pub type Placement = Vec<Option<u8>>;

/// A premise's edge facts, or the facts that follow: masks of lines and crosses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Edges {
    /// Edges that are lines.
    pub lines: u64,
    /// Edges that are crosses.
    pub crosses: u64,
}

impl Edges {
    /// Both masks together.
    pub fn decided(self) -> u64 {
        self.lines | self.crosses
    }

    /// Whether every fact of `self` is a fact of `other`.
    pub fn within(self, other: Edges) -> bool {
        self.lines & !other.lines == 0 && self.crosses & !other.crosses == 0
    }

    /// `self` with edge `bit` added as a line (`line`) or a cross.
    pub fn with(self, bit: u64, line: bool) -> Edges {
        if line {
            Edges {
                lines: self.lines | bit,
                ..self
            }
        } else {
            Edges {
                crosses: self.crosses | bit,
                ..self
            }
        }
    }

    /// The facts of `self` that `other` does not have.
    pub fn minus(self, other: Edges) -> Edges {
        Edges {
            lines: self.lines & !other.lines,
            crosses: self.crosses & !other.crosses,
        }
    }

    /// Number of facts.
    pub fn count(self) -> u32 {
        self.lines.count_ones() + self.crosses.count_ones()
    }
}

/// The most assignments a blank-window table may hold before the search is used instead.
pub const TABLE_LIMIT: usize = 1 << 21;

/// The most assignments of one clue placement the search lists (beyond, premises are
/// searched one by one).
pub const PLACEMENT_LIMIT: usize = 1 << 16;

/// The local laws of one window.
#[derive(Clone, Debug)]
pub struct Laws {
    /// The window.
    pub window: Window,
    /// Whether the single-loop law applies.
    pub single_loop: bool,
    /// Every assignment of the window without clues, when there are at most [`TABLE_LIMIT`].
    table: Option<Vec<u64>>,
}

impl Laws {
    /// The laws of a window; lists its blank assignments when they are few enough.
    pub fn new(window: Window, single_loop: bool) -> Laws {
        let mut laws = Laws {
            window,
            single_loop,
            table: None,
        };
        let blank = vec![None; laws.window.cells.len()];
        let mut all = Vec::new();
        let complete = Search::new(&laws, &blank).each(Edges::default(), &mut |a| {
            all.push(a);
            all.len() <= TABLE_LIMIT
        });
        if complete {
            laws.table = Some(all);
        }
        laws
    }

    /// The laws of a window without a table: every closure is searched for (what premises of
    /// many facts in large windows want; see [`Laws::backbone`]).
    pub fn searching(window: Window, single_loop: bool) -> Laws {
        Laws {
            window,
            single_loop,
            table: None,
        }
    }

    #[cfg(test)]
    /// Whether a table is in use.
    pub fn has_table(&self) -> bool {
        self.table.is_some()
    }

    /// The assignments of a clue placement: filtered from the table, or listed by the search
    /// when there are at most [`PLACEMENT_LIMIT`]; `None` when there are more.
    pub fn assignments(&self, placement: &Placement) -> Option<Vec<u64>> {
        let Some(table) = self.table.as_ref() else {
            let mut list = Vec::new();
            let complete = Search::new(self, placement).each(Edges::default(), &mut |a| {
                list.push(a);
                list.len() <= PLACEMENT_LIMIT
            });
            return complete.then_some(list);
        };
        let clues: Vec<(u64, u32)> = self
            .window
            .cell_masks
            .iter()
            .zip(placement)
            .filter_map(|(&m, c)| c.map(|n| (m, u32::from(n))))
            .collect();
        Some(
            table
                .iter()
                .copied()
                .filter(|a| clues.iter().all(|&(m, n)| (a & m).count_ones() == n))
                .collect(),
        )
    }

    /// Every fact forced by a premise, searched for without listing assignments.
    pub fn backbone(&self, placement: &Placement, premise: Edges) -> Option<Edges> {
        Search::new(self, placement).backbone(premise)
    }

    /// [`Laws::backbone`] with colour facts too: each `(mask, odd)` says that an odd number
    /// of the edges of `mask` are lines exactly when `odd` (two block cells on opposite sides,
    /// with the mask of [`Window::relation_mask`]). Searched with [`Propagating`] (what
    /// learning from probes wants: premises of many facts in windows up to 4x4 cells).
    pub fn backbone_with(
        &self,
        placement: &Placement,
        premise: Edges,
        parities: &[(u64, bool)],
    ) -> Option<Edges> {
        let search = Propagating::new(self, placement, parities);
        let first = search.find(premise).ok()??;
        let mut open = self.window.all_edges() & !premise.decided();
        let mut forced = premise;
        while open != 0 {
            let bit = 1u64 << open.trailing_zeros();
            let first_line = first & bit != 0;
            match search.find(premise.with(bit, !first_line)) {
                Ok(Some(a)) => open &= !(a ^ first),
                Ok(None) => forced = forced.with(bit, first_line),
                // Not known to be forced: left out.
                Err(OutOfBudget) => {}
            }
            open &= !bit;
        }
        Some(forced)
    }

    /// [`Laws::backbone_with`] by the plain search (what the tests hold the propagating one to).
    #[cfg(test)]
    fn plain_backbone_with(
        &self,
        placement: &Placement,
        premise: Edges,
        parities: &[(u64, bool)],
    ) -> Option<Edges> {
        let mut search = Search::new(self, placement);
        // Each fact is checked as soon as the search has decided the last edge of its mask.
        for &(m, odd) in parities {
            if m == 0 {
                if odd {
                    return None;
                }
                continue;
            }
            search.parities[63 - m.leading_zeros() as usize].push((m, odd));
        }
        search.backbone(premise)
    }

    /// Whether the premise (edges, and colour facts as in [`Laws::backbone_with`]) forces
    /// edge `bit` to be a line (`line`) or a cross: some assignment matches the premise and
    /// none matches it with that edge the other way. Two searches of [`Propagating`], where
    /// [`Laws::backbone_with`] takes one for every open edge. False too when a search runs
    /// out of its [`SEARCH_BUDGET`] (counted by [`searches_given_up`]).
    pub fn forces_with(
        &self,
        placement: &Placement,
        premise: Edges,
        parities: &[(u64, bool)],
        bit: u64,
        line: bool,
    ) -> bool {
        let search = Propagating::new(self, placement, parities);
        if premise.decided() & bit != 0 {
            return (premise.lines & bit != 0) == line && search.find(premise) != Ok(None);
        }
        search.find(premise.with(bit, !line)) == Ok(None)
            && matches!(search.find(premise), Ok(Some(_)))
    }

    /// Every fact forced by a clue placement and edge premise (the premise included), or `None`
    /// when no assignment obeys the laws and matches.
    pub fn closure(&self, placement: &Placement, premise: Edges) -> Option<Edges> {
        match &self.table {
            Some(_) => {
                let list = self.assignments(placement)?;
                closure_of(&list, premise, self.window.all_edges())
            }
            None => self.backbone(placement, premise),
        }
    }
}

/// Every fact shared by the assignments of `list` that match `premise`, within `all`.
pub fn closure_of(list: &[u64], premise: Edges, all: u64) -> Option<Edges> {
    let (mut lines, mut crosses, mut any) = (all, all, false);
    for &a in list {
        if a & premise.lines == premise.lines && a & premise.crosses == 0 {
            lines &= a;
            crosses &= !a;
            any = true;
        }
    }
    any.then_some(Edges { lines, crosses })
}

/// Every fact shared by all of `list` (each already matching the premise), within `all`.
pub fn shared(list: &[u64], all: u64) -> Option<Edges> {
    let (mut lines, mut crosses) = (all, all);
    for &a in list {
        lines &= a;
        crosses &= !a;
    }
    (!list.is_empty()).then_some(Edges { lines, crosses })
}

/// A law over some edges.
#[derive(Clone, Copy, Debug)]
enum Law {
    /// Exactly this many lines (a clue).
    Exactly(u8),
    /// 0 or 2 lines (a box dot).
    ZeroOrTwo,
}

/// Backtracking over the assignments of a window with a clue placement.
struct Search<'a> {
    laws: &'a Laws,
    /// Each law and its edges.
    rules: Vec<(Law, u64)>,
    /// For each edge, the laws it takes part in.
    by_edge: Vec<Vec<usize>>,
    /// Colour facts by the last edge of their mask (checked once the search has decided
    /// it): an odd number of lines on the mask exactly when the flag is set.
    parities: Vec<Vec<(u64, bool)>>,
}

impl<'a> Search<'a> {
    fn new(laws: &'a Laws, placement: &Placement) -> Search<'a> {
        let w = &laws.window;
        let mut rules: Vec<(Law, u64)> = w.dot_masks.iter().map(|&m| (Law::ZeroOrTwo, m)).collect();
        for (&m, clue) in w.cell_masks.iter().zip(placement) {
            if let Some(n) = clue {
                rules.push((Law::Exactly(*n), m));
            }
        }
        let mut by_edge = vec![Vec::new(); w.edge_count()];
        for (l, &(_, m)) in rules.iter().enumerate() {
            for (e, list) in by_edge.iter_mut().enumerate() {
                if m >> e & 1 == 1 {
                    list.push(l);
                }
            }
        }
        Search {
            laws,
            rules,
            by_edge,
            parities: vec![Vec::new(); w.edge_count()],
        }
    }

    /// Calls `visit` with every assignment matching `premise`, until it returns false; returns
    /// whether every assignment was visited.
    fn each(&self, premise: Edges, visit: &mut dyn FnMut(u64) -> bool) -> bool {
        let mut state = State {
            lines: self.rules.iter().map(|_| 0).collect(),
            open: self
                .rules
                .iter()
                .map(|&(_, m)| m.count_ones() as u8)
                .collect(),
        };
        let n = self.laws.window.edge_count();
        // Fixed edges first, so the laws see them before the search branches.
        for e in 0..n {
            let bit = 1u64 << e;
            if premise.decided() & bit != 0 && !self.set(&mut state, e, premise.lines & bit != 0) {
                return true;
            }
        }
        self.run(0, premise, premise.lines, &mut state, visit)
    }

    fn run(
        &self,
        e: usize,
        premise: Edges,
        value: u64,
        state: &mut State,
        visit: &mut dyn FnMut(u64) -> bool,
    ) -> bool {
        let n = self.laws.window.edge_count();
        // Every edge below `e` is decided: the colour facts ending there can be checked.
        if e > 0
            && self.parities[e - 1]
                .iter()
                .any(|&(m, odd)| ((value & m).count_ones() & 1 == 1) != odd)
        {
            return true;
        }
        if e == n {
            if self.laws.single_loop && self.laws.window.has_cycle(value) {
                return true;
            }
            return visit(value);
        }
        if premise.decided() >> e & 1 == 1 {
            return self.run(e + 1, premise, value, state, visit);
        }
        for line in [false, true] {
            let ok = self.set(state, e, line);
            let go_on = !ok || {
                let v = if line { value | 1 << e } else { value };
                self.run(e + 1, premise, v, state, visit)
            };
            self.unset(state, e, line);
            if !go_on {
                return false;
            }
        }
        true
    }

    /// Decides edge `e`; returns whether its laws can still hold.
    fn set(&self, state: &mut State, e: usize, line: bool) -> bool {
        let mut ok = true;
        for &l in &self.by_edge[e] {
            state.open[l] -= 1;
            state.lines[l] += line as u8;
            let (lines, open) = (state.lines[l], state.open[l]);
            ok &= match self.rules[l].0 {
                Law::Exactly(n) => lines <= n && lines + open >= n,
                Law::ZeroOrTwo => lines <= 2 && (lines != 1 || open > 0),
            };
        }
        ok
    }

    fn unset(&self, state: &mut State, e: usize, line: bool) {
        for &l in &self.by_edge[e] {
            state.open[l] += 1;
            state.lines[l] -= line as u8;
        }
    }

    /// One assignment matching `premise`.
    fn find(&self, premise: Edges) -> Option<u64> {
        let mut found = None;
        self.each(premise, &mut |a| {
            found = Some(a);
            false
        });
        found
    }

    /// Every fact forced by `premise`: find one assignment, then try each other edge the
    /// other way.
    fn backbone(&self, premise: Edges) -> Option<Edges> {
        let first = self.find(premise)?;
        let all = self.laws.window.all_edges();
        let mut open = all & !premise.decided();
        let mut forced = premise;
        while open != 0 {
            let e = open.trailing_zeros();
            let bit = 1u64 << e;
            // The other way from the assignment found: when none has it, the first way is forced.
            let first_line = first & bit != 0;
            match self.find(premise.with(bit, !first_line)) {
                Some(a) => open &= !(a ^ first),
                None => forced = forced.with(bit, first_line),
            }
            open &= !bit;
        }
        Some(forced)
    }
}

/// A search that propagates: a law (clue, dot, colour fact) with one way left for its open
/// edges decides them at once and, with the single-loop law, lines closing a cycle fail at
/// once and an open edge joining the two ends of a path is a cross. It branches on the open
/// edge of a dot with one line first (following a path), else on the first open edge; its
/// state is two masks, copied at each branch. It decides what [`Search`] does, and answers
/// the premises of many facts in windows of 3x4 cells and more far sooner.
struct Propagating<'a> {
    laws: &'a Laws,
    /// Each law and its edges: clues and box dots.
    rules: Vec<(Law, u64)>,
    /// Colour facts: an odd number of lines on the mask exactly when the flag is set.
    parities: Vec<(u64, bool)>,
    /// For each edge, the laws (then the colour facts, numbered after them) it takes part in,
    /// as a set of numbers (a window of 64 edges has at most 41 laws and 35 colour facts).
    by_edge: Vec<u128>,
    /// The box dots' masks.
    dots: Vec<u64>,
    /// Branches taken by the current search.
    nodes: Cell<u64>,
}

/// The most branches one search of [`Propagating`] takes before it gives up; a fact it
/// cannot decide is taken as not forced.
pub const SEARCH_BUDGET: u64 = 200_000;

/// The searches that gave up so far (in this process).
static GIVEN_UP: AtomicU64 = AtomicU64::new(0);

/// How many searches of [`Laws::forces_with`] and [`Laws::backbone_with`] gave up so far in
/// this process, their budget spent.
pub fn searches_given_up() -> u64 {
    GIVEN_UP.load(Ordering::Relaxed)
}

/// A search ran out of its budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct OutOfBudget;

impl<'a> Propagating<'a> {
    fn new(laws: &'a Laws, placement: &Placement, parities: &[(u64, bool)]) -> Propagating<'a> {
        let w = &laws.window;
        let mut rules: Vec<(Law, u64)> = w.dot_masks.iter().map(|&m| (Law::ZeroOrTwo, m)).collect();
        for (&m, clue) in w.cell_masks.iter().zip(placement) {
            if let Some(n) = clue {
                rules.push((Law::Exactly(*n), m));
            }
        }
        assert!(rules.len() + parities.len() <= 128, "laws fit in a u128");
        let mut by_edge = vec![0u128; w.edge_count()];
        let masks = rules
            .iter()
            .map(|r| r.1)
            .chain(parities.iter().map(|p| p.0));
        for (l, m) in masks.enumerate() {
            for (e, set) in by_edge.iter_mut().enumerate() {
                if m >> e & 1 == 1 {
                    *set |= 1 << l;
                }
            }
        }
        Propagating {
            laws,
            rules,
            parities: parities.to_vec(),
            by_edge,
            dots: w.dot_masks.clone(),
            nodes: Cell::new(0),
        }
    }

    /// One assignment obeying the laws and matching `premise`, or `Err` when the search
    /// takes more than [`SEARCH_BUDGET`] branches.
    fn find(&self, premise: Edges) -> Result<Option<u64>, OutOfBudget> {
        if premise.lines & premise.crosses != 0 {
            return Ok(None);
        }
        self.nodes.set(0);
        // Every law once (a colour fact on no edge, a clue 0, a premise that breaks one).
        let mut state = premise;
        let n = self.rules.len() + self.parities.len();
        let all = if n == 128 {
            u128::MAX
        } else {
            (1u128 << n) - 1
        };
        if !self.propagate(&mut state, all) {
            return Ok(None);
        }
        let found = self.branch(state);
        if found.is_err() {
            GIVEN_UP.fetch_add(1, Ordering::Relaxed);
        }
        found
    }

    fn branch(&self, state: Edges) -> Result<Option<u64>, OutOfBudget> {
        let all = self.laws.window.all_edges();
        let open = all & !state.decided();
        if open == 0 {
            return Ok(Some(state.lines));
        }
        self.nodes.set(self.nodes.get() + 1);
        if self.nodes.get() > SEARCH_BUDGET {
            return Err(OutOfBudget);
        }
        // The open edge of a dot with one line, else the first open edge.
        let e = self
            .dots
            .iter()
            .find(|&&m| (state.lines & m).count_ones() == 1 && m & open != 0)
            .map_or(open.trailing_zeros(), |&m| (m & open).trailing_zeros())
            as usize;
        for line in [true, false] {
            let mut next = state.with(1 << e, line);
            if self.propagate(&mut next, self.by_edge[e])
                && let Some(a) = self.branch(next)?
            {
                return Ok(Some(a));
            }
        }
        Ok(None)
    }

    /// Applies the laws `todo` (and those of every edge they decide), and with the single-loop
    /// law the cycle check, to a fixpoint; false on a contradiction.
    fn propagate(&self, state: &mut Edges, mut todo: u128) -> bool {
        loop {
            if !self.apply(state, todo) {
                return false;
            }
            if !self.laws.single_loop {
                return true;
            }
            // With the single-loop law: no cycle, and an open edge joining two ends of one
            // path is a cross.
            match self.closing(state.lines, !state.decided() & self.laws.window.all_edges()) {
                None => return false,
                Some(0) => return true,
                Some(closing) => {
                    state.crosses |= closing;
                    todo = self.laws_of(closing);
                }
            }
        }
    }

    /// The open edges of `open` whose two dots the lines of `lines` join already, or `None`
    /// when those lines close a cycle.
    fn closing(&self, lines: u64, open: u64) -> Option<u64> {
        let w = &self.laws.window;
        let mut parent = w.line_parts(lines)?;
        let mut out = 0;
        let mut rest = open;
        while rest != 0 {
            let e = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let [a, b] = w.ends[e];
            if root(&mut parent, a) == root(&mut parent, b) {
                out |= 1 << e;
            }
        }
        Some(out)
    }

    /// The laws (and colour facts) the edges of `edges` take part in.
    fn laws_of(&self, edges: u64) -> u128 {
        let mut laws = 0;
        let mut rest = edges;
        while rest != 0 {
            laws |= self.by_edge[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        laws
    }

    /// Applies the laws `todo` (and those of every edge they decide) to a fixpoint; false on
    /// a contradiction.
    fn apply(&self, state: &mut Edges, mut todo: u128) -> bool {
        while todo != 0 {
            let l = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let (mask, law) = match self.rules.get(l) {
                Some(&(law, m)) => (m, Some(law)),
                None => (self.parities[l - self.rules.len()].0, None),
            };
            let open = mask & !state.decided();
            let (n_lines, n_open) = ((state.lines & mask).count_ones(), open.count_ones());
            // The open edges all lines, all crosses, or left open.
            let fill: Option<bool> = match law {
                Some(Law::Exactly(n)) => {
                    let n = u32::from(n);
                    if n_lines > n || n_lines + n_open < n {
                        return false;
                    }
                    if n_open == 0 {
                        None
                    } else if n_lines == n {
                        Some(false)
                    } else if n_lines + n_open == n {
                        Some(true)
                    } else {
                        None
                    }
                }
                Some(Law::ZeroOrTwo) => match (n_lines, n_open) {
                    (l, _) if l > 2 => return false,
                    (1, 0) => return false,
                    (_, 0) => None,
                    (2, _) => Some(false),
                    (1, 1) => Some(true),
                    (0, 1) => Some(false),
                    _ => None,
                },
                None => {
                    let odd = self.parities[l - self.rules.len()].1;
                    match n_open {
                        0 if (n_lines & 1 == 1) != odd => return false,
                        1 => Some((n_lines & 1 == 1) != odd),
                        _ => None,
                    }
                }
            };
            if let Some(line) = fill {
                if line {
                    state.lines |= open;
                } else {
                    state.crosses |= open;
                }
                todo |= self.laws_of(open);
            }
        }
        true
    }
}

/// Running counts of the search: per law, decided lines and undecided edges.
struct State {
    lines: Vec<u8>,
    open: Vec<u8>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Pos;

    fn bit(w: &Window, y: i32, x: i32) -> u64 {
        1 << w.edge_index(Pos::new(y, x)).unwrap()
    }

    #[test]
    fn colour_facts_force_the_edges_between_their_cells() {
        // A 1x1 box with a 3: the cell and the ring cell above it on opposite sides make the
        // top a line, on the same side a cross (and then the other three sides lines).
        let laws = Laws::searching(Window::new(1, 1).unwrap(), true);
        let w = &laws.window;
        let cell = w.block_index(Pos::new(1, 1)).unwrap();
        let above = w.block_index(Pos::new(-1, 1)).unwrap();
        let mask = w.relation_mask(cell, above);
        assert_eq!(mask, bit(w, 0, 1), "the path between them crosses the top");
        let three = vec![Some(3)];
        let apart = laws
            .backbone_with(&three, Edges::default(), &[(mask, true)])
            .unwrap();
        assert_ne!(apart.lines & bit(w, 0, 1), 0);
        let alike = laws
            .backbone_with(&three, Edges::default(), &[(mask, false)])
            .unwrap();
        assert_ne!(alike.crosses & bit(w, 0, 1), 0);
        for (y, x) in [(1, 0), (1, 2), (2, 1)] {
            assert_ne!(alike.lines & bit(w, y, x), 0);
        }
        // Without the fact, nothing about the top; with both ways at once, no assignment.
        let none = laws.backbone_with(&three, Edges::default(), &[]).unwrap();
        assert_eq!(none.decided() & bit(w, 0, 1), 0);
        assert!(
            laws.backbone_with(&three, Edges::default(), &[(mask, true), (mask, false)])
                .is_none()
        );
    }

    #[test]
    fn blank_tables_count_the_dot_law_assignments() {
        // Counted independently: subsets of the window's edges with 0 or 2 at every box dot.
        assert_eq!(
            Laws::new(Window::new(0, 0).unwrap(), false)
                .table
                .unwrap()
                .len(),
            7
        );
        assert_eq!(
            Laws::new(Window::new(1, 1).unwrap(), false)
                .table
                .unwrap()
                .len(),
            161
        );
        assert_eq!(
            Laws::new(Window::new(1, 2).unwrap(), false)
                .table
                .unwrap()
                .len(),
            1033
        );
        assert_eq!(
            Laws::new(Window::new(2, 2).unwrap(), false)
                .table
                .unwrap()
                .len(),
            11929
        );
    }

    #[test]
    fn a_three_with_two_crosses_forces_its_other_sides() {
        let laws = Laws::new(Window::new(1, 1).unwrap(), false);
        let w = &laws.window;
        let premise = Edges {
            lines: 0,
            crosses: bit(w, 0, 1),
        };
        let got = laws.closure(&vec![Some(3)], premise).unwrap();
        for (y, x) in [(1, 0), (1, 2), (2, 1)] {
            assert_ne!(got.lines & bit(w, y, x), 0);
        }
        // The bottom corners have their two lines: their exits are crosses. The top corners
        // have one line each and two ways on: nothing more.
        for (y, x) in [(3, 0), (2, -1), (3, 2), (2, 3)] {
            assert_ne!(got.crosses & bit(w, y, x), 0, "({y}, {x})");
        }
        assert_eq!(got.count(), 8);
        // A 3 with two crosses can never be.
        let two = Edges {
            lines: 0,
            crosses: bit(w, 0, 1) | bit(w, 2, 1),
        };
        assert_eq!(laws.closure(&vec![Some(3)], two), None);
    }

    #[test]
    fn table_and_search_agree() {
        let table = Laws::new(Window::new(1, 2).unwrap(), true);
        assert!(table.has_table());
        let mut search = table.clone();
        search.table = None;
        let w = &table.window;
        let placements = [
            vec![Some(3), None],
            vec![Some(2), Some(1)],
            vec![None, None],
            vec![Some(1), Some(1)],
        ];
        let premises = [
            Edges::default(),
            Edges {
                lines: bit(w, 0, 1),
                crosses: bit(w, 1, 4),
            },
            Edges {
                lines: bit(w, 1, 0) | bit(w, 0, 1),
                crosses: bit(w, 2, 3),
            },
            Edges {
                lines: 0,
                crosses: bit(w, -1, 0) | bit(w, 0, -1),
            },
        ];
        for p in &placements {
            for &premise in &premises {
                assert_eq!(
                    table.closure(p, premise),
                    search.closure(p, premise),
                    "{p:?} {premise:?}"
                );
            }
        }
    }

    #[test]
    fn forcing_one_edge_agrees_with_the_backbone() {
        let laws = Laws::searching(Window::new(2, 2).unwrap(), true);
        let w = &laws.window;
        let placements = [
            vec![Some(3), None, None, Some(1)],
            vec![Some(2), Some(2), None, None],
            vec![None, Some(0), Some(3), None],
        ];
        let premises = [
            Edges::default(),
            Edges {
                lines: bit(w, 0, 1),
                crosses: bit(w, 1, 4),
            },
            Edges {
                lines: bit(w, 1, 0) | bit(w, 0, 1),
                crosses: bit(w, 2, 3) | bit(w, 4, 1),
            },
            // No assignment: a dot with three lines.
            Edges {
                lines: bit(w, 1, 2) | bit(w, 2, 1) | bit(w, 2, 3),
                crosses: 0,
            },
        ];
        let parities = [vec![], vec![(bit(w, 0, 1) | bit(w, 1, 0), true)]];
        let mut forced = 0;
        for p in &placements {
            for &premise in &premises {
                for colours in &parities {
                    let backbone = laws.plain_backbone_with(p, premise, colours);
                    assert_eq!(laws.backbone_with(p, premise, colours), backbone);
                    for e in 0..w.edge_count() {
                        let b = 1u64 << e;
                        if premise.decided() & b != 0 {
                            continue;
                        }
                        for line in [false, true] {
                            let by_backbone = backbone.is_some_and(|k| {
                                if line {
                                    k.lines & b != 0
                                } else {
                                    k.crosses & b != 0
                                }
                            });
                            let one = laws.forces_with(p, premise, colours, b, line);
                            assert_eq!(one, by_backbone, "{p:?} {premise:?} {colours:?} edge {e}");
                            forced += usize::from(one);
                        }
                    }
                }
            }
        }
        assert!(forced > 0, "some premise forces some edge");
    }

    #[test]
    fn the_propagating_search_agrees_with_the_plain_one_on_random_premises() {
        // A small linear congruential generator: the same cases every run.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: u64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % n
        };
        let (mut some, mut none) = (0, 0);
        for (rows, cols) in [(1, 2), (2, 2), (2, 3)] {
            for single_loop in [false, true] {
                let laws = Laws::searching(Window::new(rows, cols).unwrap(), single_loop);
                let w = &laws.window;
                for _ in 0..150 {
                    let placement: Placement = (0..w.cells.len())
                        .map(|_| match next(6) {
                            n @ 0..=3 => Some(n as u8),
                            _ => None,
                        })
                        .collect();
                    let mut premise = Edges::default();
                    for _ in 0..next(7) {
                        let b = 1u64 << next(w.edge_count() as u64);
                        if premise.decided() & b == 0 {
                            premise = premise.with(b, next(2) == 1);
                        }
                    }
                    let colours: Vec<(u64, bool)> = (0..next(2))
                        .map(|_| {
                            let (i, j) = (next(w.block.len() as u64), next(w.block.len() as u64));
                            (w.relation_mask(i as usize, j as usize), next(2) == 1)
                        })
                        .collect();
                    let plain = laws.plain_backbone_with(&placement, premise, &colours);
                    assert_eq!(
                        laws.backbone_with(&placement, premise, &colours),
                        plain,
                        "{rows}x{cols} {placement:?} {premise:?} {colours:?}"
                    );
                    if plain.is_some() {
                        some += 1
                    } else {
                        none += 1
                    }
                }
            }
        }
        assert!(
            some > 100 && none > 100,
            "{some} with assignments, {none} without"
        );
    }

    #[test]
    fn the_single_loop_law_forbids_closing_a_cell() {
        let w = Window::new(1, 1).unwrap();
        let u = bit(&w, 0, 1) | bit(&w, 1, 0) | bit(&w, 1, 2);
        let premise = Edges {
            lines: u,
            crosses: 0,
        };
        let plain = Laws::new(w.clone(), false);
        let looped = Laws::new(w.clone(), true);
        let blank = vec![None];
        assert_eq!(
            plain.closure(&blank, premise).unwrap().crosses & bit(&w, 2, 1),
            0
        );
        assert_ne!(
            looped.closure(&blank, premise).unwrap().crosses & bit(&w, 2, 1),
            0
        );
    }
}
