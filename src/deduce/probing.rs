//! Probing, a global deducer (`use probing`) that comes on when the rules, loop closure and colouring are stuck: try an unknown edge both ways with full propagation.
//!
//! A way that leads to a contradiction fixes the edge the other way; edges that both ways
//! decide alike are fixed too. Each way is propagated on the board itself and taken back
//! through the trail ([`Board::undo_to`]): no board is copied. The facts of the first way are
//! stamped per lattice index with the probe's number, so comparing the second way with it
//! is one pass over the second way's trail.
//!
//! Probes go round the unknown edges, most promising first: edges at the open end of a chain
//! of lines, then edges of clue cells, then the rest; rounds repeat while some probe decides
//! something, and an edge is probed again only when the board changed since its last probe
//! (on big residues, only when it changed near what that probe decided: [`LOCAL_FROM`]).

use crate::board::{Board, CROSS, Contradiction, LINE, ProbeNote, Reason, UNKNOWN, clue_of};
use crate::deduce::Deducer;
use crate::deduce::budget::{Budget, Halt};
use crate::engine::Engine;

/// Probing state kept across the probing rounds of one puzzle (and reused across puzzles).
#[derive(Clone, Debug, Default)]
pub struct Prober {
    /// Per lattice index: `probe number * 4 + state` of the first way's facts.
    stamp: Vec<u32>,
    /// Probe number.
    epoch: u32,
    /// Facts both ways agree on.
    common: Vec<(u32, u8)>,
    /// Edges to probe this round.
    order: Vec<u32>,
    /// Per lattice index: the trail length when the edge was last probed without result.
    probed_at: Vec<u32>,
    /// On a big residue (see [`LOCAL_FROM`]): per lattice index, the box (first and last
    /// lattice row and column) of what the edge's last probe without result decided, both
    /// ways, the edge itself included.
    reach: Vec<[u32; 4]>,
    /// Whether this run keeps to the neighbourhood of what changed (see [`LOCAL_FROM`]).
    local: bool,
    /// The box of the last probe without result, while [`Prober::local`].
    last_reach: [u32; 4],
    /// While [`Prober::local`]: per lattice index, the trail position of the edge's decision
    /// on the main line (`u32::MAX`: none), for the trail up to `synced`.
    decided_at: Vec<u32>,
    /// See `decided_at`.
    synced: usize,
    /// Probes made.
    pub probes: u64,
    /// Probes that decided something.
    pub useful: u64,
    /// Edges decided by probing.
    pub decided: u64,
    /// The longest chain of a probe that met a contradiction and decided its edge: the edges
    /// the failed way decided before it broke (how deep the trial a person needs goes).
    pub deepest: u64,
    /// For explanations: when a probe fails, look on among the next candidates for one whose
    /// failure comes sooner, and take the shortest (see [`LOOK_AHEAD`]).
    pub shortest: bool,
}

/// With [`Prober::shortest`]: how many further candidates are looked at for a shorter failure.
pub const LOOK_AHEAD: usize = 64;

/// On a residue of at least this many unknown edges (far more than any puzzle of the corpora
/// has when probing starts: at most 668), an edge whose last probe found nothing is probed
/// again only when the main line decided an edge near what that probe decided (within
/// [`REACH_MARGIN`] of its box) since; and what the edges' last probes found stays known from
/// one probing run of a puzzle to the next. A probe reaches further than its box only through
/// loop closure (a chain's far end) and colouring (a class's far cells), so this may miss a
/// probe that would decide something; on big residues it saves most of the probes.
pub const LOCAL_FROM: usize = 2000;

/// See [`LOCAL_FROM`]: lattice steps (two per cell) round a probe's box.
pub const REACH_MARGIN: u32 = 4;

impl Prober {
    /// A prober with nothing probed yet.
    pub fn new() -> Prober {
        Prober::default()
    }

    /// Starts a puzzle: counts from zero, and nothing probed yet.
    pub fn begin(&mut self) {
        self.probes = 0;
        self.useful = 0;
        self.decided = 0;
        self.deepest = 0;
        self.probed_at.clear();
        self.decided_at.clear();
        self.synced = 0;
    }

    /// Probes until a round decides nothing, the board is finished, or the budget is spent.
    /// Returns the edges decided. The board must be at a fixpoint of `engine`, and (on big
    /// residues, [`LOCAL_FROM`]) the same puzzle's main line as in the runs since
    /// [`Prober::begin`].
    pub fn run<const C: bool>(
        &mut self,
        engine: &mut Engine<'_, C>,
        board: &mut Board,
        budget: &Budget,
    ) -> Result<u64, Halt> {
        if self.stamp.len() < board.len() {
            self.stamp.resize(board.len(), 0);
        }
        self.local = board.unknown() >= LOCAL_FROM;
        if !self.local || self.probed_at.len() != board.len() {
            self.probed_at.clear();
            self.probed_at.resize(board.len(), u32::MAX);
        }
        if self.local && self.reach.len() < board.len() {
            self.reach.resize(board.len(), [0; 4]);
        }
        if self.local && (self.decided_at.len() != board.len() || self.synced > board.trail().len())
        {
            self.decided_at.clear();
            self.decided_at.resize(board.len(), u32::MAX);
            self.synced = 0;
        }
        let before = self.decided;
        loop {
            self.order_candidates(board);
            let mut progress = false;
            for k in 0..self.order.len() {
                let e = self.order[k] as usize;
                if board.at(e) != UNKNOWN {
                    continue;
                }
                let at = self.probed_at[e];
                if self.local {
                    if at != u32::MAX && !self.changed_near(board, self.reach[e], at as usize) {
                        continue;
                    }
                } else if at == board.trail().len() as u32 {
                    continue;
                }
                budget.tick()?;
                let e = if self.shortest {
                    self.shortest_from(engine, board, k, budget)?
                } else {
                    e
                };
                if self.probe(engine, board, e)? {
                    progress = true;
                    if board.unknown() == 0 {
                        return Ok(self.decided - before);
                    }
                } else {
                    self.probed_at[e] = board.trail().len() as u32;
                    if self.local {
                        self.reach[e] = self.last_reach;
                    }
                }
            }
            if !progress {
                return Ok(self.decided - before);
            }
        }
    }

    /// With [`Prober::shortest`]: of the candidate at `k` in this round's order and the next
    /// [`LOOK_AHEAD`] unknown ones, the one whose failing way breaks after the fewest steps
    /// (fewest edges decided; the first of them when none fails), swapped into place `k`.
    fn shortest_from<const C: bool>(
        &mut self,
        engine: &mut Engine<'_, C>,
        board: &mut Board,
        k: usize,
        budget: &Budget,
    ) -> Result<usize, Halt> {
        let first = self.order[k] as usize;
        let Some(mut best) = failure_chain(engine, board, first) else {
            return Ok(first);
        };
        let mut best_at = k;
        let mut looked = 0;
        for j in k + 1..self.order.len() {
            if best == 0 || looked == LOOK_AHEAD {
                break;
            }
            let e = self.order[j] as usize;
            if board.at(e) != UNKNOWN {
                continue;
            }
            looked += 1;
            budget.tick()?;
            if let Some(steps) = failure_chain(engine, board, e)
                && steps < best
            {
                (best, best_at) = (steps, j);
            }
        }
        self.order.swap(k, best_at);
        Ok(self.order[k] as usize)
    }

    /// The unknown edges, most promising first: at the open end of a chain, then on a clue
    /// cell, then the rest (grid order within each group).
    fn order_candidates(&mut self, board: &Board) {
        self.order.clear();
        let mut clue_edges = Vec::new();
        let mut rest = Vec::new();
        for e in board.grid_edges() {
            if board.at(e) != UNKNOWN {
                continue;
            }
            let [a, b] = board.edge_dots(e);
            let [c, d] = board.edge_cells(e);
            if board.dot_lines(a) == 1 || board.dot_lines(b) == 1 {
                self.order.push(e as u32);
            } else if clue_of(board.at(c)).is_some() || clue_of(board.at(d)).is_some() {
                clue_edges.push(e as u32);
            } else {
                rest.push(e as u32);
            }
        }
        self.order.append(&mut clue_edges);
        self.order.append(&mut rest);
    }

    /// Probes one unknown edge both ways; returns whether it decided anything.
    pub fn probe<const C: bool>(
        &mut self,
        engine: &mut Engine<'_, C>,
        board: &mut Board,
        e: usize,
    ) -> Result<bool, Halt> {
        self.probes += 1;
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch >= u32::MAX / 4 {
            self.epoch = 1;
            self.stamp.fill(0);
        }
        let tag = |state: u8| self.epoch * 4 + u32::from(state == LINE);
        let mark = board.trail().len();
        if let Err(c) = try_way(engine, board, e, LINE, mark) {
            self.deepest = self.deepest.max((board.trail().len() - mark - 1) as u64);
            let chain = board.trail_with_reasons(mark + 1);
            board.undo_to(mark);
            note_failure(board, e, LINE, chain, c);
            return self.force(engine, board, e, CROSS, mark);
        }
        for &t in &board.trail()[mark + 1..] {
            self.stamp[t as usize] = tag(board.at(t as usize));
        }
        if self.local {
            // The first way's box (the trail from `mark` holds `e` itself).
            self.last_reach = grow(
                [u32::MAX, u32::MAX, 0, 0],
                board.stride(),
                &board.trail()[mark..],
            );
        }
        board.undo_to(mark);
        if let Err(c) = try_way(engine, board, e, CROSS, mark) {
            self.deepest = self.deepest.max((board.trail().len() - mark - 1) as u64);
            let chain = board.trail_with_reasons(mark + 1);
            board.undo_to(mark);
            note_failure(board, e, CROSS, chain, c);
            return self.force(engine, board, e, LINE, mark);
        }
        self.common.clear();
        for &t in &board.trail()[mark + 1..] {
            let state = board.at(t as usize);
            if self.stamp[t as usize] == tag(state) {
                self.common.push((t, state));
            }
        }
        if self.common.is_empty() && self.local {
            self.last_reach = grow(self.last_reach, board.stride(), &board.trail()[mark + 1..]);
        }
        board.undo_to(mark);
        if self.common.is_empty() {
            return Ok(false);
        }
        self.useful += 1;
        board.note_probe(ProbeNote {
            at: mark as u32,
            edge: e as u32,
            tried: 0,
            chain: Vec::new(),
            contradiction: None,
        });
        for &(t, state) in &self.common {
            self.decided +=
                u64::from(board.set_edge(t as usize, state, Reason::By(Deducer::Probing))?);
        }
        engine.propagate(board, mark)?;
        Ok(true)
    }

    /// Decides `e` for good (the other way failed) and propagates.
    fn force<const C: bool>(
        &mut self,
        engine: &mut Engine<'_, C>,
        board: &mut Board,
        e: usize,
        state: u8,
        mark: usize,
    ) -> Result<bool, Halt> {
        self.decided += 1;
        self.useful += 1;
        board.set_edge(e, state, Reason::By(Deducer::Probing))?;
        engine.propagate(board, mark)?;
        Ok(true)
    }

    /// Whether an edge decided on the main line's trail from position `from` on lies within
    /// [`REACH_MARGIN`] of the box `reach`: a look at the trail from `from` or at the box's
    /// lattice points, whichever is shorter.
    fn changed_near(&mut self, board: &Board, reach: [u32; 4], from: usize) -> bool {
        let trail = board.trail();
        for (p, &t) in trail.iter().enumerate().skip(self.synced) {
            self.decided_at[t as usize] = p as u32;
        }
        self.synced = trail.len();
        let stride = board.stride() as u32;
        let height = board.len() as u32 / stride;
        let m = REACH_MARGIN;
        let [y0, x0, y1, x1] = [
            reach[0].saturating_sub(m),
            reach[1].saturating_sub(m),
            (reach[2] + m).min(height - 1),
            (reach[3] + m).min(stride - 1),
        ];
        let area = ((y1 - y0 + 1) * (x1 - x0 + 1)) as usize;
        if trail.len() - from <= area {
            trail[from..].iter().any(|&t| {
                let (y, x) = (t / stride, t % stride);
                (y0..=y1).contains(&y) && (x0..=x1).contains(&x)
            })
        } else {
            (y0..=y1).any(|y| {
                let row = (y * stride) as usize;
                self.decided_at[row + x0 as usize..=row + x1 as usize]
                    .iter()
                    .any(|&p| p != u32::MAX && p as usize >= from)
            })
        }
    }
}

/// `reach` grown to hold the lattice points of `edges`.
fn grow(mut reach: [u32; 4], stride: usize, edges: &[u32]) -> [u32; 4] {
    let stride = stride as u32;
    for &t in edges {
        let (y, x) = (t / stride, t % stride);
        reach = [
            reach[0].min(y),
            reach[1].min(x),
            reach[2].max(y),
            reach[3].max(x),
        ];
    }
    reach
}

/// Keeps, for explanations, that trying `e` as `tried` led to `contradiction` through `chain`.
fn note_failure(
    board: &mut Board,
    e: usize,
    tried: u8,
    chain: Vec<(u32, Reason)>,
    contradiction: Contradiction,
) {
    board.note_probe(ProbeNote {
        at: board.trail().len() as u32,
        edge: e as u32,
        tried,
        chain,
        contradiction: Some(contradiction),
    });
}

/// How long the chain of the first way of `e` that fails is (the edges it decided before it
/// broke), or `None` when neither way fails; the board is left as it was.
fn failure_chain<const C: bool>(
    engine: &mut Engine<'_, C>,
    board: &mut Board,
    e: usize,
) -> Option<usize> {
    let mark = board.trail().len();
    for state in [LINE, CROSS] {
        let failed = try_way(engine, board, e, state, mark).is_err();
        let steps = failed.then(|| board.trail().len() - mark - 1);
        board.undo_to(mark);
        if steps.is_some() {
            return steps;
        }
    }
    None
}

/// Decides `e` as `state` and propagates; the caller takes it back.
fn try_way<const C: bool>(
    engine: &mut Engine<'_, C>,
    board: &mut Board,
    e: usize,
    state: u8,
    mark: usize,
) -> Result<(), Contradiction> {
    board.set_edge(e, state, Reason::By(Deducer::Probing))?;
    engine.propagate(board, mark)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Tracking;
    use crate::puzzle::parse_all;

    /// A blank 50x50 grid (5,100 unknown edges: a big residue).
    fn blank() -> Board {
        let mut text = String::from("50 50\n");
        for _ in 0..50 {
            text.push_str(&". ".repeat(50));
            text.push('\n');
        }
        let puzzle = parse_all("t", text.as_bytes()).unwrap().remove(0);
        Board::new(&puzzle, 4, Tracking::default())
    }

    /// Crosses the horizontal edge above cell (r, c) on the main line.
    fn cross(board: &mut Board, r: isize, c: isize) {
        let e = board.index(2 * r, 2 * c + 1);
        board.set_edge(e, CROSS, Reason::Given).unwrap();
    }

    /// `changed_near` answers alike whether it reads the trail since the probe (few edges
    /// decided since) or the box's points (many): only an edge within the margin counts.
    #[test]
    fn only_an_edge_decided_near_a_probes_box_since_it_calls_for_another_probe() {
        let mut board = blank();
        assert!(board.unknown() >= LOCAL_FROM);
        let mut prober = Prober::new();
        prober.begin();
        prober.decided_at.resize(board.len(), u32::MAX);
        // A probe of the edge above cell (20, 20) that decided the one above (20, 21).
        let edges = [board.index(40, 41) as u32, board.index(40, 43) as u32];
        let reach = grow([u32::MAX, u32::MAX, 0, 0], board.stride(), &edges);
        let at = board.trail().len();
        assert!(!prober.changed_near(&board, reach, at));
        // Far away: 10 cells off.
        cross(&mut board, 30, 20);
        assert!(!prober.changed_near(&board, reach, at));
        // Many far edges since: the box's points are looked at, not the trail.
        for r in [44, 46, 48] {
            for c in 0..50 {
                cross(&mut board, r, c);
            }
        }
        assert!(board.trail().len() - at > 9 * 11);
        assert!(!prober.changed_near(&board, reach, at));
        // Two cells below the box (4 lattice steps): near.
        cross(&mut board, 22, 21);
        assert!(prober.changed_near(&board, reach, at));
        // Three cells to the right of the box (6 lattice steps): not near, by the trail.
        let mut board = blank();
        let at = board.trail().len();
        prober.begin();
        prober.decided_at.resize(board.len(), u32::MAX);
        cross(&mut board, 20, 24);
        assert!(!prober.changed_near(&board, reach, at));
        cross(&mut board, 20, 23);
        assert!(prober.changed_near(&board, reach, at));
    }
}
