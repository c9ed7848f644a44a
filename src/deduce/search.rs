//! Search (`use search`): when deduction is stuck, guess an edge, propagate with the same rule book, and take the guess back through the trail on contradiction; go on past the first solution to prove it the only one.
//!
//! A *run* is a depth-first walk with an explicit stack of decisions. Each decision records
//! the trail length before its guess (its *mark*), so backtracking is [`Board::undo_to`] of
//! the mark: no board is copied per node, only at the (at most two) solutions kept. After
//! each guess the engine propagates (rules, loop closure, colouring) and, when probing is on,
//! probing runs near what the guess decided.
//!
//! Depth-first search has heavy tails: on a puzzle with few clues, one order of guesses
//! finds two loops in a few dozen nodes where another wanders through millions of partial
//! chains. So the search restarts: run `k` follows strategy `k mod 4` (which edge to guess,
//! and which way first) with ties broken by a hash salted with `k / 4`, and may spend a node
//! budget that doubles every four runs. A run that goes through its whole tree settles the
//! question (its answers are all there are); answers found by runs cut short are kept, and
//! two different ones settle it too. Every run is complete given enough nodes and the
//! budgets grow without bound, so the search is complete; and it is deterministic.
//!
//! The edge to guess: an unknown edge at the open end of a chain of lines (fewest ways on
//! first), or one beside the clue with the fewest ways left to place its lines.

use crate::board::{Board, CROSS, LINE, Reason, UNKNOWN, Why, clue_of};
use crate::deduce::budget::{Budget, Halt};
use crate::deduce::probing::Prober;
use crate::engine::Engine;
use crate::verify::check_answer;

/// Nodes the first runs may spend; doubled every four runs.
const FIRST_RUN_NODES: u64 = 64;

/// What search found.
#[derive(Clone, Default)]
pub struct Found {
    /// The first answer, if any.
    pub first: Option<Board>,
    /// Whether a second, different answer was found (then the search stopped there).
    pub several: bool,
    /// The lines of the first answer (lattice indices, sorted), to tell answers apart.
    pub(crate) first_edges: Option<Vec<u32>>,
    /// Whether the SAT search has blocked the first answer.
    pub(crate) blocked: bool,
}

impl Found {
    /// Records an answer on `board`; returns whether it is a second, different one.
    fn record(&mut self, board: &Board) -> bool {
        let mut lines: Vec<u32> = board
            .trail()
            .iter()
            .copied()
            .filter(|&e| board.at(e as usize) == LINE)
            .collect();
        lines.sort_unstable();
        match &self.first_edges {
            None => {
                self.first = Some(board.clone());
                self.first_edges = Some(lines);
                false
            }
            Some(first) if lines == *first => false,
            Some(_) => {
                self.several = true;
                true
            }
        }
    }
}

/// What a search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchCounts {
    /// Guesses made (both ways of an edge count), over all runs.
    pub nodes: u64,
    /// Deepest stack of decisions.
    pub depth: u32,
    /// Runs started.
    pub runs: u32,
}

/// How one run chooses its guesses.
#[derive(Clone, Copy, Debug)]
struct Strategy {
    /// The way tried first.
    first: u8,
    /// Clues before chain ends.
    clues_first: bool,
    /// Salt of the tie-breaking hash (0: grid order).
    salt: u64,
}

impl Strategy {
    /// The strategy of run `k`.
    fn of_run(k: u32) -> Strategy {
        Strategy {
            first: if k.is_multiple_of(2) { CROSS } else { LINE },
            clues_first: k % 4 >= 2,
            salt: u64::from(k / 4),
        }
    }
}

/// How one run ended.
enum RunEnd {
    /// It went through its whole tree.
    Exhausted,
    /// Two different answers are known.
    Several,
    /// It spent its node budget.
    OutOfNodes,
}

/// One decision on the stack.
#[derive(Clone, Copy, Debug)]
struct Decision {
    /// Trail length before the guess.
    mark: usize,
    /// The edge guessed.
    edge: usize,
    /// Whether the second way is being tried.
    second: bool,
}

/// Searches the board (at a fixpoint of `engine`) for up to two answers: the residue goes to
/// the SAT solver ([`crate::deduce::sat`]).
///
/// A [`Halt::Limit`] leaves `found` holding what was found before the budget ran out. The
/// board is left as it was when the search began.
pub fn search<const C: bool>(
    _engine: &mut Engine<'_, C>,
    board: &mut Board,
    _prober: Option<&mut Prober>,
    budget: &mut Budget,
    counts: &mut SearchCounts,
    found: &mut Found,
) -> Result<(), Halt> {
    crate::deduce::sat::search(board, budget, counts, found)
}

/// The depth-first search with restarts over the engine (before the SAT search; kept for
/// comparison): searches the board (at a fixpoint of `engine`) for up to two answers.
///
/// A [`Halt::Limit`] leaves `found` holding what was found before the budget ran out. The
/// board is left as it was when the search began.
pub fn search_dfs<const C: bool>(
    engine: &mut Engine<'_, C>,
    board: &mut Board,
    mut prober: Option<&mut Prober>,
    budget: &mut Budget,
    counts: &mut SearchCounts,
    found: &mut Found,
) -> Result<(), Halt> {
    let mut run_nodes = FIRST_RUN_NODES;
    for k in 0.. {
        counts.runs += 1;
        let strategy = Strategy::of_run(k);
        let end = run(
            engine,
            board,
            prober.as_deref_mut(),
            budget,
            counts,
            found,
            strategy,
            run_nodes,
        )?;
        match end {
            RunEnd::Exhausted | RunEnd::Several => return Ok(()),
            RunEnd::OutOfNodes if k % 4 == 3 => run_nodes = run_nodes.saturating_mul(2),
            RunEnd::OutOfNodes => {}
        }
    }
    unreachable!("the runs go on until one settles the question")
}

/// One depth-first run of at most `max_nodes` guesses.
#[allow(clippy::too_many_arguments)]
fn run<const C: bool>(
    engine: &mut Engine<'_, C>,
    board: &mut Board,
    mut prober: Option<&mut Prober>,
    budget: &mut Budget,
    counts: &mut SearchCounts,
    found: &mut Found,
    strategy: Strategy,
    max_nodes: u64,
) -> Result<RunEnd, Halt> {
    let root = board.trail().len();
    let mut stack: Vec<Decision> = Vec::new();
    let mut nodes = 0u64;
    let mut node = |budget: &mut Budget, counts: &mut SearchCounts| -> Result<bool, Halt> {
        budget.node()?;
        counts.nodes += 1;
        nodes += 1;
        Ok(nodes <= max_nodes)
    };
    let result = (|| {
        let mut at_node = true;
        loop {
            if at_node {
                // A closed loop meeting every clue is an answer, whatever is left unknown
                // (it can only be crosses).
                let answer = (board.unknown() == 0 || board.unsatisfied() == 0)
                    && check_answer(board).is_ok();
                if answer {
                    if found.record(board) {
                        return Ok(RunEnd::Several);
                    }
                } else if board.unknown() > 0 {
                    let edge = choose(board, strategy);
                    let mark = board.trail().len();
                    stack.push(Decision {
                        mark,
                        edge,
                        second: false,
                    });
                    counts.depth = counts.depth.max(stack.len() as u32);
                    if !node(budget, counts)? {
                        return Ok(RunEnd::OutOfNodes);
                    }
                    let way = strategy.first;
                    if guess(
                        engine,
                        board,
                        prober.as_deref_mut(),
                        budget,
                        edge,
                        way,
                        mark,
                    )? {
                        continue;
                    }
                }
            }
            // Backtrack to the newest decision with a way left.
            at_node = false;
            while let Some(top) = stack.last_mut() {
                board.undo_to(top.mark);
                if top.second {
                    stack.pop();
                    continue;
                }
                top.second = true;
                let Decision { mark, edge, .. } = *top;
                if !node(budget, counts)? {
                    return Ok(RunEnd::OutOfNodes);
                }
                let way = LINE + CROSS - strategy.first;
                if guess(
                    engine,
                    board,
                    prober.as_deref_mut(),
                    budget,
                    edge,
                    way,
                    mark,
                )? {
                    at_node = true;
                    break;
                }
            }
            if !at_node {
                return Ok(RunEnd::Exhausted);
            }
        }
    })();
    board.undo_to(root);
    result
}

/// Decides `edge` as `state` and deduces what follows; false on a contradiction.
fn guess<const C: bool>(
    engine: &mut Engine<'_, C>,
    board: &mut Board,
    prober: Option<&mut Prober>,
    budget: &Budget,
    edge: usize,
    state: u8,
    mark: usize,
) -> Result<bool, Halt> {
    if board.set_edge(edge, state, Reason::Guess).is_err() || engine.propagate(board, mark).is_err()
    {
        return Ok(false);
    }
    if let Some(prober) = prober {
        match prober.run_near(engine, board, budget, mark) {
            Ok(_) => {}
            Err(Halt::Contradiction(_)) => return Ok(false),
            Err(limit) => return Err(limit),
        }
    }
    Ok(true)
}

/// The edge to guess (see the module notes). The board has an unknown edge.
fn choose(board: &Board, strategy: Strategy) -> usize {
    let ways = |cell: usize| -> u32 {
        // How many ways a clue cell has left to place its missing lines among its unknown
        // sides (a blank cell: many).
        match clue_of(board.at(cell)) {
            Some(clue) => {
                let unknown = 4 - board.cell_lines(cell) - board.cell_crosses(cell);
                let need = clue.saturating_sub(board.cell_lines(cell));
                binomial(unknown, need)
            }
            None => 16,
        }
    };
    let mut best: Option<(u64, usize)> = None;
    for e in board.grid_edges() {
        if board.at(e) != UNKNOWN {
            continue;
        }
        let [c, d] = board.edge_cells(e);
        let tight = u64::from(ways(c).min(ways(d)));
        // Ways on from the open chain end this edge leaves, if it leaves one.
        let open = board
            .edge_dots(e)
            .into_iter()
            .filter(|&dot| board.dot_lines(dot) == 1)
            .map(|dot| 3 - u64::from(board.dot_crosses(dot)))
            .min()
            .unwrap_or(7);
        let score = if strategy.clues_first {
            tight * 8 + open
        } else {
            open * 64 + tight
        };
        let tie = if strategy.salt == 0 {
            0
        } else {
            mix(e as u64 ^ strategy.salt.wrapping_mul(0x9e37_79b9_7f4a_7c15)) >> 40
        };
        let key = (score << 24) | tie;
        if best.is_none_or(|(s, _)| key < s) {
            best = Some((key, e));
        }
    }
    best.map(|(_, e)| e).expect("the board has an unknown edge")
}

/// A 64-bit scramble (the SplitMix64 finaliser), for tie-breaking.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn binomial(n: u8, k: u8) -> u32 {
    match (n, k) {
        (_, 0) => 1,
        (n, k) if k > n => 0,
        (n, k) => (1..=u32::from(k)).fold(1, |acc, i| acc * (u32::from(n) + 1 - i) / i),
    }
}

/// A contradiction for a search that found no answer at all.
pub fn exhausted(board: &Board) -> crate::board::Contradiction {
    board.contradiction(Why::Exhausted, board.index(0, 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert_eq!(binomial(4, 2), 6);
        assert_eq!(binomial(3, 3), 1);
        assert_eq!(binomial(2, 3), 0);
        assert_eq!(binomial(4, 0), 1);
    }

    #[test]
    fn strategies_cycle_and_salts_grow() {
        let s: Vec<Strategy> = (0..8).map(Strategy::of_run).collect();
        assert_eq!(s[0].first, CROSS);
        assert_eq!(s[1].first, LINE);
        assert!(!s[1].clues_first && s[2].clues_first && s[3].clues_first);
        assert_eq!((s[3].salt, s[4].salt), (0, 1));
    }
}
