//! Loop closure, a global deducer (`use loop-closure`): an unknown edge joining the two ends of one chain of lines is a cross, unless closing the loop there finishes the whole answer (then it is a line).
//!
//! The board keeps every chain's ends in step with its lines (see `board::chains`) and
//! queues each edge that joins the two ends of a chain when it appears; this deducer works
//! through that queue. Chain ends are part of the board's state, so search and probing take
//! them back with everything else.

use crate::board::{Board, CROSS, Contradiction, LINE, Reason};

/// Decides every queued edge that still joins the two ends of one chain; returns the edges decided.
///
/// `scratch` is reused between calls to hold the queue being worked through.
pub fn deduce(board: &mut Board, scratch: &mut Vec<u32>) -> Result<u64, Contradiction> {
    board.take_closures(scratch);
    let mut decided = 0;
    for &edge in scratch.iter() {
        let edge = edge as usize;
        if board.joins_chain_ends(edge) {
            let state = if board.closing_finishes(edge) {
                LINE
            } else {
                CROSS
            };
            decided += u64::from(board.set_edge(edge, state, Reason::LoopClosure)?);
        }
    }
    Ok(decided)
}
