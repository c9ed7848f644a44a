//! Inside/outside colouring, a global deducer (`use colouring`): every cell, and the region outside the grid, lies inside or outside the loop.
//!
//! Two cells that share a line side lie on different sides of the loop, two that share a
//! cross on the same side. The relations live in the board's colour store
//! ([`crate::board::colours`]), which every edge write feeds; the store's union-find is the
//! transitive closure of what is known. This deducer only switches the store on; what the
//! relations imply locally (an edge between two cells of one class, what two related
//! neighbours tell a clue) is stated by rules with colour letters (`rules/colours.rules`),
//! which the engine wakes when the store relates cells they read.

use crate::board::{Board, Contradiction};

/// Switches colouring on (the rules and loop closure are stuck): every cell gets its class.
pub fn come_on(board: &mut Board) -> Result<(), Contradiction> {
    if board.colouring().is_none() && board.unknown() > 0 {
        board.start_colouring()?;
    }
    Ok(())
}
