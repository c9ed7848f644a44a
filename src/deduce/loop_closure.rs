//! Loop closure, a global deducer (`use loop-closure`): an unknown edge joining the two ends of one chain of lines is a cross, unless closing the loop there would finish the whole answer; and once the loop is closed, every edge left unknown is a cross.
//!
//! An edge whose line would finish the answer is left alone: it may well be a cross in
//! another answer (on a puzzle with blanks, a loop can meet every clue early), and deciding
//! it a line would hide that answer from the proof of uniqueness.
//!
//! The board keeps every chain's ends in step with its lines (see `board::chains`) and
//! queues each edge that joins the two ends of a chain when it appears, and each line that
//! closes the loop as the whole answer; this deducer works through that queue. Chain ends
//! are part of the board's state, so search and probing take them back with everything else.

use crate::board::{Board, CROSS, Contradiction, DEFERRED, LINE, Reason, UNKNOWN};
use crate::deduce::Deducer;

/// Decides every queued edge that still joins the two ends of one chain; returns the edges decided.
///
/// `scratch` is reused between calls to hold the queue being worked through.
pub fn deduce(board: &mut Board, scratch: &mut Vec<u32>) -> Result<u64, Contradiction> {
    if !board.has_closures() {
        return Ok(0);
    }
    board.take_closures(scratch);
    let mut decided = 0;
    for &entry in scratch.iter() {
        let edge = (entry & !DEFERRED) as usize;
        if entry & DEFERRED != 0 && board.at(edge) != UNKNOWN {
            // Decided since it was deferred; a line there now may join anything.
            continue;
        }
        if board.at(edge) == LINE {
            // This line closed the loop, every line on it and every clue met: nothing else
            // can be a line.
            if board.unknown() == 0 {
                continue;
            }
            for e in board.grid_edges().collect::<Vec<_>>() {
                if board.at(e) == UNKNOWN {
                    decided +=
                        u64::from(board.set_edge(e, CROSS, Reason::By(Deducer::LoopClosure))?);
                }
            }
        } else if board.joins_chain_ends(edge) {
            if board.closing_finishes(edge) {
                board.defer_closure(edge);
            } else {
                decided +=
                    u64::from(board.set_edge(edge, CROSS, Reason::By(Deducer::LoopClosure))?);
            }
        }
    }
    Ok(decided)
}
