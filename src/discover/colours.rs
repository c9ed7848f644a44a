//! Enumerating premises with colour facts (`rules discover --colours K`): relations between cells of a window's block, kept when they force a line, a cross or a relation the premise does not state.
//!
//! A window's *block* is its box and the ring of cells around it; the window's edges are
//! exactly the edges between block cells. In an assignment of the window, two cells are on
//! opposite sides of the loop exactly when a path between them crosses an odd number of
//! lines (any path: every box dot has 0 or 2 lines), so a colour fact is a parity law on the
//! assignment's edges, and an edge is a line exactly when its two cells differ.
//!
//! Premises hold up to `max_facts` lines and crosses and up to `colours` colour facts, each
//! relating two ring cells that share no side (a side's relation is its edge) and lie at most
//! two cells apart. Conclusions are the lines and crosses every matching assignment has,
//! and the relations between block cells every matching assignment has that the premise's
//! facts and the forced edges do not already give. Only candidates with a colour fact in
//! the premise or the conclusion are kept (edge-only ones are what enumeration without
//! `--colours` finds); they are box-minimal, canonical and minimal as there. Placements
//! whose assignments cannot be listed (more than [`super::laws::PLACEMENT_LIMIT`]) are
//! skipped.

use super::enumerate::{BoxJob, Candidate, edge_facts, image, premise_facts};
use super::laws::{Edges, Placement, shared};
use super::window::{BoxSymmetry, Window};
use crate::geometry::Pos;
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};

/// A colour fact of a premise: the pair's number and whether its cells differ.
type Atom = (u16, bool);

/// A premise: lines and crosses, and colour facts (sorted).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Premise {
    edges: Edges,
    colours: Vec<Atom>,
}

/// Enumerates the colour candidates of every placement of every box, in parallel; `tick`
/// is called once per placement.
pub fn enumerate(jobs: &[BoxJob], colours: usize, tick: &(dyn Fn() + Sync)) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = jobs
        .iter()
        .flat_map(|job| {
            let pairs = Pairs::new(&job.laws.window);
            job.placements
                .par_iter()
                .flat_map_iter(|p| {
                    let found = Task::new(job, &pairs, p.clone(), colours).run();
                    tick();
                    found
                })
                .collect::<Vec<_>>()
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The pairs of ring cells a premise may relate, with their parity masks.
struct Pairs {
    /// (block cell, block cell, relation mask).
    list: Vec<(usize, usize, u64)>,
    /// Pair number by its cells.
    index: HashMap<(usize, usize), u16>,
}

impl Pairs {
    fn new(w: &Window) -> Pairs {
        let mut list = Vec::new();
        let mut index = HashMap::new();
        for i in 0..w.block.len() {
            for j in i + 1..w.block.len() {
                let d = w.block[j] - w.block[i];
                let (dy, dx) = (d.y.abs() / 2, d.x.abs() / 2);
                if !w.in_ring(i) || !w.in_ring(j) || dy.max(dx) > 2 || dy + dx == 1 {
                    continue;
                }
                index.insert((i, j), list.len() as u16);
                list.push((i, j, w.relation_mask(i, j)));
            }
        }
        Pairs { list, index }
    }

    /// The image of a colour fact under a symmetry.
    fn map(&self, s: &BoxSymmetry, (p, differ): Atom) -> Atom {
        let (i, j, _) = self.list[p as usize];
        let (a, b) = (s.block[i] as usize, s.block[j] as usize);
        (self.index[&(a.min(b), a.max(b))], differ)
    }
}

/// Whether an assignment obeys a premise.
fn obeys(a: u64, premise: &Premise, pairs: &Pairs) -> bool {
    a & premise.edges.lines == premise.edges.lines
        && a & premise.edges.crosses == 0
        && premise
            .colours
            .iter()
            .all(|&(p, d)| ((a & pairs.list[p as usize].2).count_ones() & 1 == 1) == d)
}

/// What a node forces beyond its premise.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Forced {
    edges: Edges,
    /// New relations (block cell, block cell, differ).
    relations: Vec<(usize, usize, bool)>,
}

/// A mix of an assignment's bits, for the colour signatures.
fn mix(a: u64) -> u64 {
    let mut z = a.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Union-find over block cells with parity.
struct Classes {
    parent: Vec<usize>,
    parity: Vec<bool>,
}

impl Classes {
    fn new(n: usize) -> Classes {
        Classes {
            parent: (0..n).collect(),
            parity: vec![false; n],
        }
    }

    fn find(&mut self, i: usize) -> (usize, bool) {
        let mut p = false;
        let mut k = i;
        while self.parent[k] != k {
            p ^= self.parity[k];
            k = self.parent[k];
        }
        (k, p)
    }

    fn union(&mut self, i: usize, j: usize, differ: bool) {
        let ((ri, pi), (rj, pj)) = (self.find(i), self.find(j));
        if ri != rj {
            self.parent[ri] = rj;
            self.parity[ri] = pi ^ pj ^ differ;
        }
    }
}

/// The premise search of one placement.
struct Task<'a> {
    job: &'a BoxJob,
    pairs: &'a Pairs,
    placement: Placement,
    stabilizer: Vec<&'a BoxSymmetry>,
    colours: usize,
    all: u64,
    root: Vec<u64>,
    /// Assignment lists of the placements with one clue dropped.
    dropped: HashMap<usize, Option<Vec<u64>>>,
    /// The plain laws' assignments (no single-loop law), when listed.
    plain: Option<Option<Vec<u64>>>,
    seen: HashSet<Premise>,
    out: Vec<Candidate>,
}

impl<'a> Task<'a> {
    fn new(job: &'a BoxJob, pairs: &'a Pairs, placement: Placement, colours: usize) -> Task<'a> {
        let stabilizer = job
            .laws
            .window
            .symmetries
            .iter()
            .filter(|s| image(&placement, s) == placement)
            .collect();
        Task {
            root: job.laws.assignments(&placement).unwrap_or_default(),
            all: job.laws.window.all_edges(),
            job,
            pairs,
            placement,
            stabilizer,
            colours,
            dropped: HashMap::new(),
            plain: None,
            seen: HashSet::new(),
            out: Vec::new(),
        }
    }

    fn window(&self) -> &'a Window {
        &self.job.laws.window
    }

    fn run(mut self) -> Vec<Candidate> {
        if self.root.is_empty() {
            return Vec::new();
        }
        let root = std::mem::take(&mut self.root);
        let start = Premise {
            edges: Edges::default(),
            colours: Vec::new(),
        };
        let top = self.window().edge_count() + self.pairs.list.len();
        self.explore(start, &root, top);
        self.out
    }

    /// Visits `premise` and, depth first, every premise adding facts below atom `below`
    /// (edges are atoms `0..E`, colour pairs atoms `E..`).
    fn explore(&mut self, premise: Premise, list: &[u64], below: usize) {
        if list.is_empty() {
            return;
        }
        let forced = self.forced(&premise, list);
        self.consider(&premise, list, &forced);
        let n = self.window().edge_count();
        let edges_used = premise.edges.count() as usize;
        let decided = premise.edges.decided() | forced.edges.decided();
        for atom in (0..below).rev() {
            if atom < n {
                if edges_used == self.job.max_facts || decided >> atom & 1 == 1 {
                    continue;
                }
                for line in [true, false] {
                    let bit = 1u64 << atom;
                    let child = Premise {
                        edges: premise.edges.with(bit, line),
                        colours: premise.colours.clone(),
                    };
                    let sub: Vec<u64> = list
                        .iter()
                        .copied()
                        .filter(|&a| (a & bit != 0) == line)
                        .collect();
                    self.explore(child, &sub, atom);
                }
            } else {
                let p = (atom - n) as u16;
                if premise.colours.len() == self.colours {
                    continue;
                }
                let (i, j, mask) = self.pairs.list[p as usize];
                // A relation the node forces already would not make a minimal premise.
                let first = (list[0] & mask).count_ones() & 1;
                if list.iter().all(|&a| (a & mask).count_ones() & 1 == first) {
                    continue;
                }
                let _ = (i, j);
                for differ in [false, true] {
                    let mut colours = premise.colours.clone();
                    colours.push((p, differ));
                    colours.sort();
                    let child = Premise {
                        edges: premise.edges,
                        colours,
                    };
                    let sub: Vec<u64> = list
                        .iter()
                        .copied()
                        .filter(|&a| ((a & mask).count_ones() & 1 == 1) == differ)
                        .collect();
                    self.explore(child, &sub, atom);
                }
            }
        }
    }

    /// The edges and relations the assignments of `list` (those of `premise`) share beyond it.
    fn forced(&self, premise: &Premise, list: &[u64]) -> Forced {
        let w = self.window();
        let closure = shared(list, self.all).expect("a non-empty list");
        let edges = closure.minus(premise.edges);
        // Colour signatures: cells i and j are forced to relate when their parities agree
        // (or disagree) on every assignment.
        let whole = list.iter().fold(0u64, |h, &a| h ^ mix(a));
        let sig: Vec<u64> = w
            .block_paths
            .iter()
            .map(|&path| {
                list.iter()
                    .filter(|&&a| (a & path).count_ones() & 1 == 1)
                    .fold(0u64, |h, &a| h ^ mix(a))
            })
            .collect();
        // What the premise's facts and the forced edges give without deduction.
        let mut implied = Classes::new(w.block.len());
        for (i, &p) in w.block.iter().enumerate() {
            for (j, &q) in w.block.iter().enumerate().skip(i + 1) {
                let d = q - p;
                if d.y.abs() + d.x.abs() != 2 {
                    continue;
                }
                let e = w
                    .edge_index(Pos::new((p.y + q.y) / 2, (p.x + q.x) / 2))
                    .expect("a window edge");
                if closure.decided() >> e & 1 == 1 {
                    implied.union(i, j, closure.lines >> e & 1 == 1);
                }
            }
        }
        for &(p, d) in &premise.colours {
            let (i, j, _) = self.pairs.list[p as usize];
            implied.union(i, j, d);
        }
        // Forced classes by normalised signature; within each, one cell per implied class.
        let mut groups: Vec<(u64, Vec<usize>)> = Vec::new();
        for (k, &s) in sig.iter().enumerate() {
            let norm = s.min(s ^ whole);
            match groups.iter_mut().find(|(n, _)| *n == norm) {
                Some((_, cells)) => cells.push(k),
                None => groups.push((norm, vec![k])),
            }
        }
        let lettered: HashSet<usize> = premise
            .colours
            .iter()
            .flat_map(|&(p, _)| {
                let (i, j, _) = self.pairs.list[p as usize];
                [i, j]
            })
            .collect();
        let mut relations = Vec::new();
        for (_, cells) in groups {
            // Representatives: a premise-lettered cell of each implied class where there is
            // one, else the class's first cell.
            let mut reps: Vec<(usize, usize)> = Vec::new(); // (implied root, cell)
            for &k in &cells {
                let (r, _) = implied.find(k);
                match reps.iter_mut().find(|(root, _)| *root == r) {
                    Some(rep) => {
                        if lettered.contains(&k) && !lettered.contains(&rep.1) {
                            rep.1 = k;
                        }
                    }
                    None => reps.push((r, k)),
                }
            }
            if reps.len() < 2 {
                continue;
            }
            reps.sort_by_key(|&(_, k)| (!lettered.contains(&k), k));
            let first = reps[0].1;
            for &(_, k) in &reps[1..] {
                relations.push((first, k, sig[first] != sig[k]));
            }
        }
        Forced { edges, relations }
    }

    /// Keeps a node as a candidate when it is one.
    fn consider(&mut self, premise: &Premise, list: &[u64], forced: &Forced) {
        let has_clue = self.placement.iter().any(Option::is_some);
        if premise.colours.is_empty() && forced.relations.is_empty() {
            return;
        }
        if forced.edges.count() == 0 && forced.relations.is_empty() {
            return;
        }
        if premise.edges.count() == 0 && premise.colours.is_empty() && !has_clue {
            return;
        }
        if !self.expressible(premise, forced)
            || !self.box_minimal(premise)
            || !self.canonical(premise)
            || !self.seen.insert(premise.clone())
            || !self.minimal(premise, forced)
        {
            return;
        }
        let _ = list;
        let candidate = self.candidate(premise, forced);
        self.out.push(candidate);
    }

    /// Whether the new relations can be drawn with letters: no two premise letters merged.
    fn expressible(&self, premise: &Premise, forced: &Forced) -> bool {
        let mut classes = Classes::new(self.window().block.len());
        for &(p, d) in &premise.colours {
            let (i, j, _) = self.pairs.list[p as usize];
            classes.union(i, j, d);
        }
        let lettered: HashSet<usize> = premise
            .colours
            .iter()
            .flat_map(|&(p, _)| {
                let (i, j, _) = self.pairs.list[p as usize];
                [i, j]
            })
            .collect();
        forced.relations.iter().all(|&(a, b, _)| {
            !(lettered.contains(&a)
                && lettered.contains(&b)
                && classes.find(a).0 != classes.find(b).0)
        })
    }

    fn box_minimal(&self, premise: &Premise) -> bool {
        let w = self.window();
        w.sub_windows
            .iter()
            .zip(&w.sub_blocks)
            .all(|((edges, cells), block)| {
                let clues_fit = self
                    .placement
                    .iter()
                    .zip(cells)
                    .all(|(clue, &kept)| clue.is_none() || kept);
                let colours_fit = premise.colours.iter().all(|&(p, _)| {
                    let (i, j, _) = self.pairs.list[p as usize];
                    block[i] && block[j]
                });
                !(clues_fit && colours_fit && premise.edges.decided() & !edges == 0)
            })
    }

    fn canonical(&self, premise: &Premise) -> bool {
        self.stabilizer.iter().all(|s| {
            let mut colours: Vec<Atom> = premise
                .colours
                .iter()
                .map(|&a| self.pairs.map(s, a))
                .collect();
            colours.sort();
            (
                s.map_mask(premise.edges.lines),
                s.map_mask(premise.edges.crosses),
                colours,
            ) >= (
                premise.edges.lines,
                premise.edges.crosses,
                premise.colours.clone(),
            )
        })
    }

    /// Whether every assignment of `list` obeying `premise` has every fact of `forced`
    /// (false when none obeys it).
    fn forces(&self, list: &[u64], premise: &Premise, forced: &Forced) -> bool {
        let w = self.window();
        let mut any = false;
        for &a in list.iter().filter(|&&a| obeys(a, premise, self.pairs)) {
            any = true;
            if a & forced.edges.lines != forced.edges.lines || a & forced.edges.crosses != 0 {
                return false;
            }
            for &(i, j, d) in &forced.relations {
                if ((a & w.relation_mask(i, j)).count_ones() & 1 == 1) != d {
                    return false;
                }
            }
        }
        any
    }

    /// Whether dropping any one line, cross, colour fact or clue loses something forced.
    fn minimal(&mut self, premise: &Premise, forced: &Forced) -> bool {
        let mut rest = premise.edges.decided();
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest &= !bit;
            let smaller = Premise {
                edges: Edges {
                    lines: premise.edges.lines & !bit,
                    crosses: premise.edges.crosses & !bit,
                },
                colours: premise.colours.clone(),
            };
            if self.forces(&self.root, &smaller, forced) {
                return false;
            }
        }
        for k in 0..premise.colours.len() {
            let mut smaller = premise.clone();
            smaller.colours.remove(k);
            if self.forces(&self.root, &smaller, forced) {
                return false;
            }
        }
        for i in 0..self.placement.len() {
            if self.placement[i].is_none() {
                continue;
            }
            let mut smaller = self.placement.clone();
            smaller[i] = None;
            let laws = &self.job.laws;
            let list = self
                .dropped
                .entry(i)
                .or_insert_with(|| laws.assignments(&smaller))
                .take();
            // Unlisted: too many assignments to tell; keep the candidate (its proof decides).
            let drops = list
                .as_ref()
                .is_some_and(|l| self.forces(l, premise, forced));
            self.dropped.insert(i, list);
            if drops {
                return false;
            }
        }
        true
    }

    fn candidate(&mut self, premise: &Premise, forced: &Forced) -> Candidate {
        let w = self.window();
        let single_loop = match &self.job.plain {
            None => false,
            Some(plain) => {
                let list = match self.plain.take() {
                    Some(list) => list,
                    None => plain.assignments(&self.placement),
                };
                let needs = match &list {
                    Some(l) => !self.forces(l, premise, forced),
                    None => true,
                };
                self.plain = Some(list);
                needs
            }
        };
        let premise_facts = premise_facts(w, premise.edges, &self.placement);
        let mut premise_colours: Vec<(Pos, Pos, bool)> = premise
            .colours
            .iter()
            .map(|&(p, d)| {
                let (i, j, _) = self.pairs.list[p as usize];
                (w.block[i], w.block[j], d)
            })
            .collect();
        premise_colours.sort();
        Candidate {
            rows: w.rows,
            cols: w.cols,
            premise: premise_facts,
            conclusion: edge_facts(w, forced.edges),
            single_loop,
            premise_colours,
            conclusion_colours: forced
                .relations
                .iter()
                .map(|&(i, j, d)| (w.block[i], w.block[j], d))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discover::enumerate::{Options, Shape, plan};
    use crate::rules::Glyph;

    fn run(rows: usize, cols: usize, alphabet: &[Option<u8>], k: usize) -> Vec<Candidate> {
        let options = Options {
            windows: vec![Shape {
                rows,
                cols,
                max_facts: k,
            }],
            alphabet: alphabet.to_vec(),
            single_loop: false,
            colours: 1,
        };
        enumerate(&plan(&options), 1, &|| {})
    }

    #[test]
    fn block_paths_agree_with_the_sides_between_cells() {
        let w = Window::new(1, 1).unwrap();
        assert_eq!(w.block.len(), 9);
        // The 3's cell (the middle) against the cell above: exactly its top side.
        let (mid, up) = (
            w.block_index(Pos::new(1, 1)).unwrap(),
            w.block_index(Pos::new(-1, 1)).unwrap(),
        );
        assert_eq!(
            w.relation_mask(mid, up),
            1 << w.edge_index(Pos::new(0, 1)).unwrap()
        );
    }

    #[test]
    fn a_three_with_alike_neighbours_at_a_corner_has_lines_there() {
        // The built-in 3-beside-alike: the cells above and to the right of a 3 alike.
        let found = run(1, 1, &[Some(3)], 0);
        let want = found.iter().any(|c| {
            c.premise_colours.len() == 1
                && c.premise.iter().all(|f| !f.at.is_edge())
                && c.conclusion
                    .iter()
                    .filter(|f| f.glyph == Glyph::Line)
                    .count()
                    == 2
                && {
                    let (a, b, d) = c.premise_colours[0];
                    !d && {
                        let d = b - a;
                        d.y.abs() == 2 && d.x.abs() == 2
                    }
                }
        });
        assert!(want, "{found:#?}");
    }

    #[test]
    fn every_colour_candidate_is_sound() {
        use crate::discover::rulefile::bare_rule;
        use crate::rules::prove::{Verdict, prove};
        let found = run(1, 1, &[Some(1), Some(3)], 0);
        assert!(found.len() > 3, "{}", found.len());
        for c in &found {
            let rule = bare_rule(c, "t", 1);
            assert!(
                matches!(prove(&rule), Verdict::Sound { .. }),
                "{c:?}: {:?}",
                prove(&rule)
            );
        }
    }
}
