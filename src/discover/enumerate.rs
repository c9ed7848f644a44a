//! Enumerating premises in a window and keeping the minimal ones that force something: the raw candidates of discovery.
//!
//! For every box up to the window's size (0x0, a lone dot, included) and every placement of
//! clues from the alphabet in its cells, the premises are the sets of at most `max_facts`
//! lines and crosses on the box's window edges. They are searched depth first, one fact at a
//! time, each node keeping the assignments that still match (or, for large boxes, searching
//! them afresh). A fact the node already forces is never added (the premise would not be
//! minimal), and a premise no assignment matches ends its branch.
//!
//! A node becomes a candidate when it forces something beyond itself and is
//! - *box-minimal*: its facts do not all fit the window of the box with a side's row or
//!   column of cells cut off (such a premise is found in the smaller box);
//! - *canonical*: among its images under the box's symmetries it is the least (placements are
//!   pruned by symmetry first, premises then under the placement's own symmetries);
//! - *minimal*: dropping any one fact, clue or edge, loses some of what it forces.

use super::laws::{Edges, Laws, Placement, closure_of, shared};
use super::window::{BoxSymmetry, Window};
use crate::geometry::Pos;
use crate::rules::{Fact, Glyph};
use rayon::prelude::*;
use std::collections::HashMap;

/// A window premises are drawn in, with its bound on premise facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The window's cells down.
    pub rows: usize,
    /// The window's cells across.
    pub cols: usize,
    /// The most lines and crosses in a premise.
    pub max_facts: usize,
}

impl Shape {
    /// Whether a box of `r` x `c` cells (either way round) fits the window.
    pub fn holds(&self, r: usize, c: usize) -> bool {
        let (small, large) = (self.rows.min(self.cols), self.rows.max(self.cols));
        r.min(c) <= small && r.max(c) <= large
    }
}

/// What to enumerate.
#[derive(Clone, Debug)]
pub struct Options {
    /// The windows; their candidates are pooled (a box several windows hold is searched
    /// once, with the largest bound on facts among them).
    pub windows: Vec<Shape>,
    /// What a cell of a premise may hold: a clue, or `None` for anything.
    pub alphabet: Vec<Option<u8>>,
    /// Derive with the single-loop law too (rules that need it are marked).
    pub single_loop: bool,
    /// The most colour facts in a premise; above 0, only candidates with colour facts (in
    /// the premise or the conclusion) are enumerated (see [`super::colours`]).
    pub colours: usize,
}

/// A sound local deduction: premise and conclusion on a box's window.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Candidate {
    /// The box's cells down.
    pub rows: usize,
    /// The box's cells across.
    pub cols: usize,
    /// Clues, lines and crosses that must hold (sorted); positions on the box's lattice,
    /// its top-left dot at the origin.
    pub premise: Vec<Fact>,
    /// The lines and crosses that follow (sorted).
    pub conclusion: Vec<Fact>,
    /// Whether the conclusion needs the single-loop law.
    pub single_loop: bool,
    /// Colour relations that must hold: (cell, cell, on opposite sides), sorted.
    pub premise_colours: Vec<(Pos, Pos, bool)>,
    /// Colour relations that follow, each between cells of the box or the ring around it.
    pub conclusion_colours: Vec<(Pos, Pos, bool)>,
}

impl Candidate {
    /// The box's dots.
    pub fn box_dots(&self) -> Vec<Pos> {
        let (h, w) = (2 * self.rows as i32, 2 * self.cols as i32);
        (0..=h)
            .step_by(2)
            .flat_map(|y| (0..=w).step_by(2).map(move |x| Pos::new(y, x)))
            .collect()
    }

    /// The dots a picture of the rule draws: the box's, and the far dot of every exit that
    /// carries a fact (a picture cannot draw an edge left of or above its dots).
    pub fn dots(&self) -> Vec<Pos> {
        let (h, w) = (2 * self.rows as i32, 2 * self.cols as i32);
        let inside = |d: Pos| (0..=h).contains(&d.y) && (0..=w).contains(&d.x);
        let mut dots = self.box_dots();
        for f in self.premise.iter().chain(&self.conclusion) {
            if f.at.is_edge() {
                dots.extend(f.at.edge_dots().into_iter().filter(|&d| !inside(d)));
            }
        }
        // A lettered cell has its four corners drawn.
        for &(a, b, _) in self.premise_colours.iter().chain(&self.conclusion_colours) {
            dots.extend(a.corners());
            dots.extend(b.corners());
        }
        dots.sort();
        dots.dedup();
        dots
    }

    /// The clues of the premise.
    pub fn clues(&self) -> impl Iterator<Item = (Pos, u8)> + '_ {
        self.premise.iter().filter_map(|f| match f.glyph {
            Glyph::Clue(n) => Some((f.at, n)),
            _ => None,
        })
    }
}

/// The boxes a `rows` x `cols` window holds, up to a quarter turn: (r, c) with r <= c.
pub fn boxes(rows: usize, cols: usize) -> Vec<(usize, usize)> {
    let (small, large) = (rows.min(cols), rows.max(cols));
    let mut out = Vec::new();
    for r in 0..=small {
        for c in r..=large {
            out.push((r, c));
        }
    }
    out
}

/// The edge facts of two masks, in lattice order.
pub fn edge_facts(window: &Window, edges: Edges) -> Vec<Fact> {
    let mut facts = Vec::new();
    for (i, &at) in window.edges.iter().enumerate() {
        if edges.lines >> i & 1 == 1 {
            facts.push(Fact {
                at,
                glyph: Glyph::Line,
            });
        } else if edges.crosses >> i & 1 == 1 {
            facts.push(Fact {
                at,
                glyph: Glyph::Cross,
            });
        }
    }
    facts
}

/// A candidate's premise as facts: its lines and crosses (as [`edge_facts`]) and the clues of
/// its placement, sorted.
pub fn premise_facts(window: &Window, edges: Edges, placement: &[Option<u8>]) -> Vec<Fact> {
    let mut facts = edge_facts(window, edges);
    for (&at, clue) in window.cells.iter().zip(placement) {
        if let Some(n) = clue {
            facts.push(Fact {
                at,
                glyph: Glyph::Clue(*n),
            });
        }
    }
    facts.sort();
    facts
}

/// One box's laws and the clue placements to enumerate in it.
pub struct BoxJob {
    /// The laws premises are derived under.
    pub laws: Laws,
    /// The laws without the single-loop law, to tell which candidates need it.
    pub plain: Option<Laws>,
    /// The canonical placements of clues.
    pub placements: Vec<Placement>,
    /// The most lines and crosses in a premise of this box.
    pub max_facts: usize,
}

/// Lays out the boxes of the windows with their canonical placements (the costly tables are
/// built here, once per box). A box gets the largest bound on facts of the windows holding
/// it, so a box's bound is never below a larger box's: a premise that fits a smaller box is
/// always found there (the larger box leaves it out as not box-minimal).
pub fn plan(options: &Options) -> Vec<BoxJob> {
    let mut shapes: Vec<(usize, usize)> = options
        .windows
        .iter()
        .flat_map(|w| boxes(w.rows, w.cols))
        .collect();
    shapes.sort();
    shapes.dedup();
    shapes
        .into_iter()
        .filter_map(|(r, c)| {
            let max_facts = options
                .windows
                .iter()
                .filter(|w| w.holds(r, c))
                .map(|w| w.max_facts)
                .max()?;
            Some((Window::new(r, c)?, max_facts))
        })
        .map(|(window, max_facts)| {
            let placements = placements(&window, &options.alphabet);
            let plain = options
                .single_loop
                .then(|| Laws::new(window.clone(), false));
            BoxJob {
                laws: Laws::new(window, options.single_loop),
                plain,
                placements,
                max_facts,
            }
        })
        .collect()
}

/// Every canonical placement of the alphabet in a window's cells.
fn placements(window: &Window, alphabet: &[Option<u8>]) -> Vec<Placement> {
    let n = window.cells.len();
    let mut out = Vec::new();
    let mut digits = vec![0usize; n];
    loop {
        let p: Placement = digits.iter().map(|&d| alphabet[d]).collect();
        if window.symmetries.iter().all(|s| image(&p, s) >= p) {
            out.push(p);
        }
        let mut i = 0;
        loop {
            if i == n {
                return out;
            }
            digits[i] += 1;
            if digits[i] < alphabet.len() {
                break;
            }
            digits[i] = 0;
            i += 1;
        }
    }
}

/// The placement a symmetry makes of `p`.
pub fn image(p: &Placement, s: &BoxSymmetry) -> Placement {
    let mut out = vec![None; p.len()];
    for (i, &clue) in p.iter().enumerate() {
        out[s.cells[i] as usize] = clue;
    }
    out
}

/// Enumerates every placement of every box, in parallel; `tick` is called once per placement.
pub fn enumerate(jobs: &[BoxJob], tick: &(dyn Fn() + Sync)) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = jobs
        .iter()
        .flat_map(|job| {
            job.placements
                .par_iter()
                .flat_map_iter(|p| {
                    let found = Task::new(job, p.clone(), job.max_facts).run();
                    tick();
                    found
                })
                .collect::<Vec<_>>()
        })
        .collect();
    out.sort();
    out
}

/// The premise search of one placement.
struct Task<'a> {
    job: &'a BoxJob,
    placement: Placement,
    stabilizer: Vec<&'a BoxSymmetry>,
    max_facts: usize,
    all: u64,
    /// The assignments of the placement, when listed.
    root: Option<Vec<u64>>,
    /// What each premise visited forces.
    nodes: HashMap<Edges, Edges>,
    /// Assignment lists of the placements with one clue dropped.
    dropped: HashMap<usize, Option<Vec<u64>>>,
}

impl<'a> Task<'a> {
    fn new(job: &'a BoxJob, placement: Placement, max_facts: usize) -> Task<'a> {
        let stabilizer = job
            .laws
            .window
            .symmetries
            .iter()
            .filter(|s| image(&placement, s) == placement)
            .collect();
        Task {
            root: job.laws.assignments(&placement),
            all: job.laws.window.all_edges(),
            job,
            placement,
            stabilizer,
            max_facts,
            nodes: HashMap::new(),
            dropped: HashMap::new(),
        }
    }

    fn window(&self) -> &'a Window {
        &self.job.laws.window
    }

    fn run(mut self) -> Vec<Candidate> {
        if self.root.as_ref().is_some_and(|r| r.is_empty()) {
            return Vec::new();
        }
        let root = self.root.take();
        self.explore(Edges::default(), root.as_deref(), 64, 0);
        self.root = root;
        let mut nodes: Vec<(Edges, Edges)> = self.nodes.iter().map(|(&p, &c)| (p, c)).collect();
        nodes.sort();
        let has_clue = self.placement.iter().any(Option::is_some);
        let mut out = Vec::new();
        for (premise, closure) in nodes {
            let new = closure.minus(premise);
            if new.count() == 0 || (premise.count() == 0 && !has_clue) {
                continue;
            }
            if !self.box_minimal(premise) || !self.canonical(premise) {
                continue;
            }
            if !self.edges_minimal(premise, new) || !self.clues_minimal(premise, new) {
                continue;
            }
            out.push(self.candidate(premise, new));
        }
        out
    }

    /// Visits `premise` and, depth first, every premise adding facts on edges below `below`.
    fn explore(&mut self, premise: Edges, list: Option<&[u64]>, below: u32, depth: usize) {
        let closure = match list {
            Some(list) => shared(list, self.all),
            None => self.job.laws.backbone(&self.placement, premise),
        };
        let Some(closure) = closure else {
            return;
        };
        self.nodes.insert(premise, closure);
        if depth == self.max_facts {
            return;
        }
        let below_mask = if below >= 64 {
            u64::MAX
        } else {
            (1u64 << below) - 1
        };
        let mut free = self.all & !closure.decided() & below_mask;
        while free != 0 {
            let e = 63 - free.leading_zeros();
            let bit = 1u64 << e;
            free &= !bit;
            for line in [true, false] {
                let child = premise.with(bit, line);
                let sub: Option<Vec<u64>> = list.map(|l| {
                    l.iter()
                        .copied()
                        .filter(|&a| (a & bit != 0) == line)
                        .collect()
                });
                self.explore(child, sub.as_deref(), e, depth + 1);
            }
        }
    }

    /// What a premise forces under this placement.
    fn closure(&self, premise: Edges) -> Option<Edges> {
        if let Some(&c) = self.nodes.get(&premise) {
            return Some(c);
        }
        match &self.root {
            Some(root) => closure_of(root, premise, self.all),
            None => self.job.laws.backbone(&self.placement, premise),
        }
    }

    fn box_minimal(&self, premise: Edges) -> bool {
        self.window().sub_windows.iter().all(|(edges, cells)| {
            let clues_fit = self
                .placement
                .iter()
                .zip(cells)
                .all(|(clue, &kept)| clue.is_none() || kept);
            !(clues_fit && premise.decided() & !edges == 0)
        })
    }

    fn canonical(&self, premise: Edges) -> bool {
        self.stabilizer.iter().all(|s| {
            (s.map_mask(premise.lines), s.map_mask(premise.crosses))
                >= (premise.lines, premise.crosses)
        })
    }

    /// Whether dropping any one line or cross loses something `new` holds.
    fn edges_minimal(&self, premise: Edges, new: Edges) -> bool {
        let mut rest = premise.decided();
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest &= !bit;
            let smaller = Edges {
                lines: premise.lines & !bit,
                crosses: premise.crosses & !bit,
            };
            if self.closure(smaller).is_some_and(|c| new.within(c)) {
                return false;
            }
        }
        true
    }

    /// Whether dropping any one clue loses something `new` holds.
    fn clues_minimal(&mut self, premise: Edges, new: Edges) -> bool {
        for i in 0..self.placement.len() {
            if self.placement[i].is_none() {
                continue;
            }
            let mut smaller = self.placement.clone();
            smaller[i] = None;
            let laws = &self.job.laws;
            let closure = match self
                .dropped
                .entry(i)
                .or_insert_with(|| laws.assignments(&smaller))
            {
                Some(list) => closure_of(list, premise, self.all),
                None => laws.backbone(&smaller, premise),
            };
            if closure.is_some_and(|c| new.within(c)) {
                return false;
            }
        }
        true
    }

    fn candidate(&self, premise: Edges, new: Edges) -> Candidate {
        let window = self.window();
        let single_loop = self.job.plain.as_ref().is_some_and(|plain| {
            plain
                .closure(&self.placement, premise)
                .is_none_or(|c| !new.within(c))
        });
        let premise_facts = premise_facts(window, premise, &self.placement);
        Candidate {
            rows: window.rows,
            cols: window.cols,
            premise: premise_facts,
            conclusion: edge_facts(window, new),
            single_loop,
            premise_colours: Vec::new(),
            conclusion_colours: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(rows: usize, cols: usize, alphabet: &[Option<u8>], k: usize) -> Vec<Candidate> {
        let options = Options {
            windows: vec![Shape {
                rows,
                cols,
                max_facts: k,
            }],
            alphabet: alphabet.to_vec(),
            single_loop: false,
            colours: 0,
        };
        enumerate(&plan(&options), &|| {})
    }

    #[test]
    fn pooled_windows_give_each_box_the_largest_bound_that_holds_it() {
        let shape = |rows, cols, max_facts| Shape {
            rows,
            cols,
            max_facts,
        };
        let options = Options {
            windows: vec![shape(2, 2, 4), shape(3, 2, 2)],
            alphabet: vec![Some(3)],
            single_loop: false,
            colours: 0,
        };
        let bounds: Vec<(usize, usize, usize)> = plan(&options)
            .iter()
            .map(|j| (j.laws.window.rows, j.laws.window.cols, j.max_facts))
            .collect();
        assert!(bounds.contains(&(2, 2, 4)));
        assert!(bounds.contains(&(1, 2, 4)));
        assert!(bounds.contains(&(2, 3, 2)));
        assert!(bounds.contains(&(1, 3, 2)));
        assert_eq!(bounds.len(), 9, "each box once: {bounds:?}");

        // The pool holds every candidate of the first window, and the larger boxes' premises
        // keep to their own bound.
        let small = run(1, 1, &[Some(3), None], 2);
        let pooled = enumerate(
            &plan(&Options {
                windows: vec![shape(1, 1, 2), shape(1, 2, 1)],
                alphabet: vec![Some(3), None],
                single_loop: false,
                colours: 0,
            }),
            &|| {},
        );
        assert!(small.iter().all(|c| pooled.contains(c)));
        let wide: Vec<&Candidate> = pooled.iter().filter(|c| c.cols == 2).collect();
        assert!(!wide.is_empty());
        for c in wide {
            let edges = c.premise.iter().filter(|f| f.at.is_edge()).count();
            assert!(edges <= 1, "{c:?}");
        }
    }

    #[test]
    fn boxes_up_to_a_quarter_turn() {
        assert_eq!(boxes(1, 2), vec![(0, 0), (0, 1), (0, 2), (1, 1), (1, 2)]);
        assert_eq!(boxes(2, 1), boxes(1, 2));
    }

    #[test]
    fn the_lone_dot_gives_the_dot_rules() {
        // One dot, up to three facts: the table's dot cases, each once up to symmetry.
        let found = run(0, 0, &[None], 3);
        let shapes: Vec<(usize, usize)> = found
            .iter()
            .map(|c| {
                let lines = c.premise.iter().filter(|f| f.glyph == Glyph::Line).count();
                (lines, c.premise.len() - lines)
            })
            .collect();
        // Two lines (crosses the rest); one line and two crosses, bent or straight (a line
        // follows); three crosses (a cross follows). One line and one cross forces nothing.
        let mut sorted = shapes.clone();
        sorted.sort();
        assert_eq!(
            sorted,
            vec![(0, 3), (1, 2), (1, 2), (2, 0), (2, 0)],
            "{found:?}"
        );
    }

    #[test]
    fn a_zero_alone_is_the_zero_rule() {
        let found = run(1, 1, &[Some(0)], 0);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].conclusion.len(), 4);
        assert!(found[0].conclusion.iter().all(|f| f.glyph == Glyph::Cross));
    }

    #[test]
    fn every_candidate_is_box_minimal_canonical_and_sound() {
        use crate::rules::Rule;
        use crate::rules::prove::{Verdict, prove};
        let found = run(1, 2, &[None, Some(1), Some(3)], 2);
        assert!(found.len() > 10, "{}", found.len());
        for c in &found {
            let rule = Rule {
                name: "t".into(),
                description: None,
                assumes_single_loop: c.single_loop,
                level: 1,
                file: "t".into(),
                line: 1,
                dots: c.dots(),
                premise: c.premise.clone(),
                conclusion: c.conclusion.clone(),
                premise_colours: Vec::new(),
                conclusion_colours: Vec::new(),
                examples: Vec::new(),
            };
            assert!(
                matches!(prove(&rule), Verdict::Sound { .. }),
                "{c:?}: {:?}",
                prove(&rule)
            );
        }
    }
}
