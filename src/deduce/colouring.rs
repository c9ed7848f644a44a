//! Inside/outside colouring, a global deducer (`use colouring`): every cell, and the region outside the grid, lies inside or outside the loop.
//!
//! Two cells that share a line side lie on different sides of the loop, two that share a
//! cross on the same side. The relations live in the board's colour store
//! ([`crate::board::colours`]), which every edge write feeds; this deducer reads what they
//! imply.
//!
//! What the deducer derives:
//! - an unknown edge between two cells of one class: a cross when they have the same colour,
//!   a line when they differ (a cell and the outside included, along the border);
//! - around a clue cell, two neighbours of one class (other than the cell's): with the same
//!   colour, a 3 has both of their sides as lines and a 1 both as crosses; with different
//!   colours, exactly one of them differs from the cell, so a 1 has its other two sides as
//!   crosses and a 3 as lines, and a 2 relates its other two neighbours (equal colours when
//!   the pair is equal, opposite otherwise, and opposite to the pair when it is equal);
//! - around a clue cell, two neighbours of the cell's own class: their colours against the
//!   cell's count towards the clue, and the other two neighbours make up the rest: both the
//!   cell's colour (crosses), both the other (lines), or one each, so they differ from each
//!   other (a relation no edge holds, e.g. a 2 with one line and one cross).

use crate::board::{Board, CROSS, Contradiction, LINE, OFF, Reason, UNKNOWN, Why, clue_of};
use crate::deduce::Deducer;

/// Switches colouring on (the rules and loop closure are stuck): every cell gets its class.
pub fn come_on(board: &mut Board) -> Result<(), Contradiction> {
    if board.colouring().is_none() && board.unknown() > 0 {
        board.start_colouring()?;
    }
    Ok(())
}

/// Runs the colouring deducer until its queue is empty; returns the edges it decided.
///
/// `scratch` is reused between calls to hold the queue being worked through.
pub fn deduce(board: &mut Board, scratch: &mut Vec<u32>) -> Result<u64, Contradiction> {
    let mut decided = 0;
    loop {
        let Some(colouring) = board.colouring_mut() else {
            return Ok(decided);
        };
        if colouring.queue.is_empty() {
            return Ok(decided);
        }
        scratch.clear();
        scratch.append(&mut colouring.queue);
        colouring.epoch = colouring.epoch.wrapping_add(1);
        if colouring.epoch == 0 {
            colouring.seen.fill(0);
            colouring.epoch = 1;
        }
        let stride = colouring.stride;
        // The clue cells to look at, each once this round: a queued clue cell (its own class
        // changed, so it may now share it with two neighbours) and the clue cells next to a
        // queued cell (a neighbour's class changed). They follow the queued cells in
        // `scratch`.
        let queued = scratch.len();
        for q in 0..queued {
            let m = scratch[q] as usize;
            if clue_of(board.at(m)).is_some() {
                mark_clue(board, scratch, m);
            }
            for side in [m - stride, m + 1, m + stride, m - 1] {
                // An off-grid member (of the outside) has one grid side; skip the others.
                if board.at(side) == OFF {
                    continue;
                }
                let across = 2 * side - m;
                if board.at(side) == UNKNOWN {
                    let relation = board.colouring().and_then(|c| c.relation(m, across));
                    if let Some(differ) = relation {
                        let state = if differ { LINE } else { CROSS };
                        decided += u64::from(board.set_edge(
                            side,
                            state,
                            Reason::By(Deducer::Colouring),
                        )?);
                    }
                }
                if clue_of(board.at(across)).is_some() {
                    mark_clue(board, scratch, across);
                }
            }
        }
        for &cell in &scratch[queued..] {
            let cell = cell as usize;
            if let Some(clue) = clue_of(board.at(cell)) {
                decided += clue_pairs(board, cell, clue)?;
            }
        }
    }
}

/// Adds a clue cell to the cells to look at this round (`scratch` past the queued ones),
/// unless it is there already.
fn mark_clue(board: &mut Board, scratch: &mut Vec<u32>, cell: usize) {
    if let Some(colouring) = board.colouring_mut() {
        let key = cell >> 1;
        if colouring.seen[key] != colouring.epoch {
            colouring.seen[key] = colouring.epoch;
            scratch.push(cell as u32);
        }
    }
}

/// What two neighbours of one class tell about a clue cell (see the module notes).
fn clue_pairs(board: &mut Board, cell: usize, clue: u8) -> Result<u64, Contradiction> {
    if !(1..=3).contains(&clue) {
        return Ok(0);
    }
    let Some(colouring) = board.colouring() else {
        return Ok(0);
    };
    let stride = colouring.stride;
    let sides = [cell - stride, cell + 1, cell + stride, cell - 1];
    let across = sides.map(|s| 2 * s - cell);
    let (own, own_parity) = colouring.find((cell >> 1) as u32);
    let classes = across.map(|n| colouring.find((n >> 1) as u32));
    let mut decided = 0;
    let set = |board: &mut Board, edges: [usize; 2], state: u8| {
        let mut n = 0;
        for e in edges {
            n += u64::from(board.set_edge(e, state, Reason::By(Deducer::Colouring))?);
        }
        Ok::<u64, Contradiction>(n)
    };
    for i in 0..4 {
        for j in i + 1..4 {
            let ((ri, pi), (rj, pj)) = (classes[i], classes[j]);
            if ri != rj {
                continue;
            }
            let mut rest = (0..4).filter(|&k| k != i && k != j);
            let (k, l) = (rest.next().unwrap_or(0), rest.next().unwrap_or(0));
            if ri == own {
                // Both neighbours' colours are known against the cell's: the other two must
                // make up the clue. One of two is a relation no edge holds (they differ).
                let differing = u8::from(pi != own_parity) + u8::from(pj != own_parity);
                match clue.checked_sub(differing) {
                    Some(0) => decided += set(board, [sides[k], sides[l]], CROSS)?,
                    Some(1) => {
                        if !board.relate_cells(across[k], across[l], true) {
                            return Err(board.contradiction(Why::ColourClash, cell));
                        }
                    }
                    Some(2) => decided += set(board, [sides[k], sides[l]], LINE)?,
                    _ => return Err(board.contradiction(Why::ColourClash, cell)),
                }
                continue;
            }
            let equal = pi == pj;
            match (clue, equal) {
                (3, true) => decided += set(board, [sides[i], sides[j]], LINE)?,
                (1, true) => decided += set(board, [sides[i], sides[j]], CROSS)?,
                (3, false) => decided += set(board, [sides[k], sides[l]], LINE)?,
                (1, false) => decided += set(board, [sides[k], sides[l]], CROSS)?,
                (2, true) => {
                    if !board.relate_cells(across[k], across[l], false)
                        || !board.relate_cells(across[k], across[i], true)
                    {
                        return Err(board.contradiction(Why::ColourClash, cell));
                    }
                }
                _ => {
                    if !board.relate_cells(across[k], across[l], true) {
                        return Err(board.contradiction(Why::ColourClash, cell));
                    }
                }
            }
        }
    }
    Ok(decided)
}
