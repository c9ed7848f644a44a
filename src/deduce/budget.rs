//! Per-puzzle budgets of search nodes and time, and how a budgeted step stops.

use crate::board::Contradiction;
use std::time::{Duration, Instant};

/// Which budget ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// The search made this many guesses.
    Nodes(u64),
    /// The puzzle took this long.
    Time(Duration),
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Limit::Nodes(n) => write!(f, "the search-node limit ({n}) was reached"),
            Limit::Time(d) => write!(
                f,
                "the time limit ({}) was reached",
                crate::format::words::limit(*d)
            ),
        }
    }
}

/// Why a budgeted step stopped before its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Halt {
    /// The board has no solution.
    Contradiction(Contradiction),
    /// A budget ran out.
    Limit(Limit),
}

impl From<Contradiction> for Halt {
    fn from(c: Contradiction) -> Halt {
        Halt::Contradiction(c)
    }
}

/// What one puzzle may spend.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    max_nodes: Option<u64>,
    timeout: Option<Duration>,
    deadline: Option<Instant>,
    nodes: u64,
}

impl Budget {
    /// A budget of at most `max_nodes` search nodes and `timeout` of time, counted from now.
    pub fn new(max_nodes: Option<u64>, timeout: Option<Duration>) -> Budget {
        Budget {
            max_nodes,
            timeout,
            deadline: timeout.map(|t| Instant::now() + t),
            nodes: 0,
        }
    }

    /// Search nodes spent so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Spends one search node; fails when the node or time budget is spent.
    #[inline]
    pub fn node(&mut self) -> Result<(), Halt> {
        self.nodes += 1;
        if let Some(max) = self.max_nodes
            && self.nodes > max
        {
            return Err(Halt::Limit(Limit::Nodes(max)));
        }
        self.tick()
    }

    /// Spends `n` more search nodes at once (the SAT solver's conflicts); fails when the node
    /// or time budget is spent.
    pub fn spend(&mut self, n: u64) -> Result<(), Halt> {
        self.nodes += n;
        if let Some(max) = self.max_nodes
            && self.nodes > max
        {
            return Err(Halt::Limit(Limit::Nodes(max)));
        }
        self.tick()
    }

    /// Nodes left before the node budget is spent (`None`: no node budget).
    pub fn nodes_left(&self) -> Option<u64> {
        self.max_nodes.map(|max| max.saturating_sub(self.nodes))
    }

    /// When the time budget runs out (`None`: no time budget).
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Fails when the time budget is spent.
    #[inline]
    pub fn tick(&self) -> Result<(), Halt> {
        match (self.deadline, self.timeout) {
            (Some(deadline), Some(timeout)) if Instant::now() >= deadline => {
                Err(Halt::Limit(Limit::Time(timeout)))
            }
            _ => Ok(()),
        }
    }
}
