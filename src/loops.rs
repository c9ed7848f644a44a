//! Loop reasoning on petgraph's union-find: which dots lie on one chain of lines, where each chain ends, and how many lines it holds.

use petgraph::unionfind::UnionFind;

/// What adding a line did to the chains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineAdded {
    /// The line grew or joined chains; the chain now ends at these two dots.
    Extended(usize, usize),
    /// The line joined the two ends of one chain: a closed loop.
    ClosedLoop,
}

/// Chains of lines over the dots of a grid, kept in step with the board's lines.
#[derive(Clone, Debug)]
pub struct LoopTracker {
    chains: UnionFind<u32>,
    /// The two end dots of each chain, stored at its representative dot.
    ends: Vec<[u32; 2]>,
    /// Lines of each chain, stored at its representative dot.
    lines: Vec<u32>,
}

impl LoopTracker {
    /// No lines yet on a grid of `rows` x `cols` cells.
    pub fn new(rows: usize, cols: usize) -> LoopTracker {
        let n = (rows + 1) * (cols + 1);
        LoopTracker {
            chains: UnionFind::new(n),
            ends: (0..n as u32).map(|d| [d, d]).collect(),
            lines: vec![0; n],
        }
    }

    /// Records a line between dots `a` and `b` (dot numbers); both must be chain ends or lone dots.
    pub fn add_line(&mut self, a: usize, b: usize) -> LineAdded {
        let ra = self.chains.find_mut(a as u32) as usize;
        let rb = self.chains.find_mut(b as u32) as usize;
        if ra == rb {
            self.lines[ra] += 1;
            return LineAdded::ClosedLoop;
        }
        let other = |ends: [u32; 2], d: usize| {
            if ends[0] as usize == d {
                ends[1]
            } else {
                ends[0]
            }
        };
        let x = other(self.ends[ra], a);
        let y = other(self.ends[rb], b);
        let lines = self.lines[ra] + self.lines[rb] + 1;
        // Union the roots found above: no second walk up from `a` and `b`.
        self.chains.union(ra as u32, rb as u32);
        let r = self.chains.find_mut(ra as u32) as usize;
        self.ends[r] = [x, y];
        self.lines[r] = lines;
        LineAdded::Extended(x as usize, y as usize)
    }

    /// Whether two dots lie on one chain.
    pub fn same_chain(&self, a: usize, b: usize) -> bool {
        self.chains.equiv(a as u32, b as u32)
    }

    /// Lines on the chain through dot `a`.
    pub fn lines_in_chain_of(&self, a: usize) -> usize {
        self.lines[self.chains.find(a as u32) as usize] as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_grow_join_and_close() {
        // Dots of a 1x1 grid: 0 1 / 2 3.
        let mut t = LoopTracker::new(1, 1);
        assert_eq!(t.add_line(0, 1), LineAdded::Extended(0, 1));
        assert_eq!(t.add_line(2, 3), LineAdded::Extended(2, 3));
        assert_eq!(t.add_line(1, 3), LineAdded::Extended(0, 2));
        assert_eq!(t.lines_in_chain_of(2), 3);
        assert!(t.same_chain(0, 2));
        assert_eq!(t.add_line(0, 2), LineAdded::ClosedLoop);
        assert_eq!(t.lines_in_chain_of(0), 4);
    }
}
