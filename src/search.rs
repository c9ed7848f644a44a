//! Search (`use search`): when deduction is stuck, guess an edge, propagate with the same rule book, and take the guess back through the trail on contradiction; go on past the first solution to prove it the only one.
//!
//! The search is a depth-first walk with an explicit stack of decisions. Each decision
//! records the trail length before its guess (its *mark*), so backtracking is
//! [`Board::undo_to`] of the mark: no board is copied per node, only at the (at most two)
//! solutions found. After each guess the engine propagates (rules, loop closure,
//! colouring) and, when probing is on, probing runs too.
//!
//! The edge to guess: an unknown edge at the open end of a chain of lines, at the dot with
//! the fewest unknown edges left and next to the most constrained clue; failing that (no
//! lines yet) an unknown side of the clue cell with the fewest ways left. The first guess
//! continues the chain (a line).

use crate::board::{Board, CROSS, LINE, Reason, UNKNOWN, Why, clue_of};
use crate::budget::{Budget, Halt};
use crate::engine::Engine;
use crate::probing::Prober;
use crate::verify::check_answer;

/// How a search ended.
#[derive(Clone)]
pub struct Found {
    /// The first solution, if any.
    pub first: Option<Board>,
    /// Whether a second solution was found (then the search stopped there).
    pub several: bool,
}

/// What a search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchCounts {
    /// Guesses made (both ways of an edge count).
    pub nodes: u64,
    /// Deepest stack of decisions.
    pub depth: u32,
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

/// Searches the board (at a fixpoint of `engine`) for up to two solutions.
///
/// A [`Halt::Limit`] leaves `found` holding what was found before the budget ran out. The
/// board is left as it was when the search began.
pub fn search<const C: bool>(
    engine: &mut Engine<'_, C>,
    board: &mut Board,
    mut prober: Option<&mut Prober>,
    budget: &mut Budget,
    counts: &mut SearchCounts,
    found: &mut Found,
) -> Result<(), Halt> {
    let root = board.trail().len();
    let mut stack: Vec<Decision> = Vec::new();
    let result = (|| {
        let mut at_node = true;
        loop {
            if at_node {
                if board.unknown() == 0 {
                    if check_answer(board).is_ok() {
                        if found.first.is_some() {
                            found.several = true;
                            return Ok(());
                        }
                        found.first = Some(board.clone());
                    }
                } else {
                    let edge = choose(board);
                    let mark = board.trail().len();
                    stack.push(Decision {
                        mark,
                        edge,
                        second: false,
                    });
                    counts.depth = counts.depth.max(stack.len() as u32);
                    budget.node()?;
                    counts.nodes += 1;
                    if guess(
                        engine,
                        board,
                        prober.as_deref_mut(),
                        budget,
                        edge,
                        LINE,
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
                budget.node()?;
                counts.nodes += 1;
                if guess(
                    engine,
                    board,
                    prober.as_deref_mut(),
                    budget,
                    edge,
                    CROSS,
                    mark,
                )? {
                    at_node = true;
                    break;
                }
            }
            if !at_node {
                return Ok(());
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
        match prober.run(engine, board, budget) {
            Ok(_) => {}
            Err(Halt::Contradiction(_)) => return Ok(false),
            Err(limit) => return Err(limit),
        }
    }
    Ok(true)
}

/// The edge to guess (see the module notes). The board has an unknown edge.
fn choose(board: &Board) -> usize {
    let ways = |cell: usize| -> u32 {
        // How many ways a clue cell has left to place its missing lines among its unknown
        // sides (a blank cell: many).
        match clue_of(board.at(cell)) {
            Some(clue) => {
                let unknown = 4 - board.lines_at(cell) - board.crosses_at(cell);
                let need = clue.saturating_sub(board.lines_at(cell));
                binomial(unknown, need)
            }
            None => 16,
        }
    };
    let mut best: Option<(u32, usize)> = None;
    for e in board.grid_edges() {
        if board.at(e) != UNKNOWN {
            continue;
        }
        let [c, d] = board.edge_cells(e);
        let tight = ways(c).min(ways(d));
        // Chain ends first (fewest ways on), then the tightest clue.
        let open = board
            .edge_dots(e)
            .into_iter()
            .filter(|&dot| board.lines_at(dot) == 1)
            .map(|dot| 3 - u32::from(board.crosses_at(dot)))
            .min();
        let score = match open {
            Some(open) => open * 64 + tight,
            None => 1024 + tight,
        };
        if best.is_none_or(|(s, _)| score < s) {
            best = Some((score, e));
        }
    }
    best.map(|(_, e)| e).expect("the board has an unknown edge")
}

fn binomial(n: u8, k: u8) -> u32 {
    match (n, k) {
        (_, 0) => 1,
        (n, k) if k > n => 0,
        (n, k) => (1..=u32::from(k)).fold(1, |acc, i| acc * (u32::from(n) + 1 - i) / i),
    }
}

/// A contradiction for a search that found no solution at all.
pub fn exhausted(board: &Board) -> crate::board::Contradiction {
    board.contradiction(Why::Exhausted, board.index(0, 0))
}

#[cfg(test)]
mod tests {
    use super::binomial;

    #[test]
    fn binomials() {
        assert_eq!(binomial(4, 2), 6);
        assert_eq!(binomial(3, 3), 1);
        assert_eq!(binomial(2, 3), 0);
        assert_eq!(binomial(4, 0), 1);
    }
}
