//! Explanations: a solved (or stuck) board's trail of reasons read back as numbered steps, each naming its rule (file and line), the symmetry it was used in, where it matched, and the edges it decided.
//!
//! Consecutive trail entries decided by one match (one rule variant at one place, or one
//! run of a global deducer) make one step; every guess of search is a step of its own.
//! Replaying the steps in order on the bare puzzle rebuilds exactly the final board
//! ([`replay`]).

pub mod hint;
pub mod html;
pub mod index;

use crate::board::{
    Board, CROSS, LINE, ProbeNote, Reason, SideNote, contradiction::describe_point,
};
use crate::deduce::Deducer;
use crate::deduce::connectivity::{self, Blocked};
use crate::deduce::parity::{Region, region_of};
use crate::format::view::{Edge, Picture};
use crate::rules::compile::RuleBook;
use crate::rules::draw::draw_coloured;
use std::fmt::Write as _;

/// One edge a step decided: doubled-grid coordinates and its new state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decided {
    /// Row on the doubled grid.
    pub y: usize,
    /// Column on the doubled grid.
    pub x: usize,
    /// [`Edge::Line`] or [`Edge::Cross`].
    pub edge: Edge,
}

impl Decided {
    /// `h(r,c)` for the edge right of dot (r, c), `v(r,c)` for the one below it.
    pub fn name(&self) -> String {
        edge_name(self.y, self.x)
    }
}

/// The name of the edge at (`y`, `x`) of the doubled grid: `h(r,c)` for the edge right of
/// dot (r, c), `v(r,c)` for the one below it.
pub fn edge_name(y: usize, x: usize) -> String {
    if y.is_multiple_of(2) {
        format!("h({},{})", y / 2, x / 2)
    } else {
        format!("v({},{})", y / 2, x / 2)
    }
}

/// One step of an explanation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// What decided it, as the trail records it.
    pub reason: Reason,
    /// For a rule step: the doubled-grid point (row, column) of the rule's origin.
    pub anchor: Option<(isize, isize)>,
    /// For a probing step: what the probe tried, the steps it led to and where it broke.
    pub probe: Option<Probe>,
    /// For a region parity step (one edge each): the clue cells whose parity decided it.
    pub region: Option<Region>,
    /// For a regions step: the cells it placed on a side of the loop, and why.
    pub sides: Vec<Side>,
    /// For a connectivity step on linked edges: the group and why one of its ways cannot be.
    pub linked: Option<LinkedStep>,
    /// The edges it decided, in order.
    pub decided: Vec<Decided>,
}

/// A connectivity step on linked edges, in board-independent terms: the unknown edges
/// between cells of the same two colour classes go together, and one way of drawing them
/// cannot be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkedStep {
    /// The edges (doubled-grid points) that would be lines in the way that cannot be.
    pub lines: Vec<(usize, usize)>,
    /// The edges that would be crosses in it.
    pub crosses: Vec<(usize, usize)>,
    /// Why it cannot be.
    pub why: LinkedWhy,
}

/// Why a way of drawing linked edges cannot be (dots and cells as row and column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkedWhy {
    /// The dot would have three lines.
    ThreeLines(Cell),
    /// A loop would close at the dot with lines left off it.
    LinesLeftOff(Cell),
    /// Two loops would close, at these dots.
    TwoLoops(Cell, Cell),
    /// The loop would close at the dot with the cell's clue unmet.
    ClueUnmet(Cell, Cell),
    /// The inside (`true`) or the outside would be split: the two cells (the first `None`
    /// for the outside of the grid) would be cut apart by cells of the other side.
    SplitSide(bool, Option<Cell>, Cell),
    /// The two classes, joined, would split a side whichever side their cells took: with the
    /// first cell of the group's first edge inside, and with it outside (each as in
    /// [`LinkedWhy::SplitSide`]).
    SplitEither([(bool, Option<Cell>, Cell); 2]),
}

/// A cell a regions step placed on one side of the loop, and why, in board-independent terms
/// (cells as row and column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Side {
    /// The cell.
    pub cell: Cell,
    /// Inside the loop (else outside).
    pub inside: bool,
    /// Two cells of its side that only paths through it join (`None`: the outside of the
    /// grid); `None` when no path joins it to the cells of the other side.
    pub joins: Option<(Cell, Option<Cell>)>,
}

/// A cell's row and column.
pub type Cell = (usize, usize);

impl Side {
    /// The step's words for this cell.
    fn words(&self) -> String {
        let (side, other) = if self.inside {
            ("inside", "outside")
        } else {
            ("outside", "inside")
        };
        let (r, c) = self.cell;
        match self.joins {
            Some(((ar, ac), Some((br, bc)))) => format!(
                "cell ({r}, {c}) is {side}: every path of cells not {other} between the {side} cells ({ar}, {ac}) and ({br}, {bc}) passes it"
            ),
            Some(((ar, ac), None)) => format!(
                "cell ({r}, {c}) is {side}: every path of cells not {other} from the {side} cell ({ar}, {ac}) to the outside of the grid passes it"
            ),
            None if self.inside => format!(
                "cell ({r}, {c}) is inside: no path of cells not inside joins it to the outside of the grid"
            ),
            None => format!(
                "cell ({r}, {c}) is outside: no path of cells not outside joins it to the inside cells"
            ),
        }
    }
}

/// What a probing step tried, in board-independent terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The edge tried.
    pub edge: Decided,
    /// Whether the way tried (the one that failed) was a line; `None` when both ways were
    /// possible and agreed on the step's edges.
    pub tried_line: Option<bool>,
    /// The steps the failed way took (rule steps with their places, deducer runs), in order.
    pub chain: Vec<Step>,
    /// Where the failed way broke, in words ("cell (3, 4) would have more than 2 lines").
    pub contradiction: Option<String>,
}

/// The steps of a board's trail (the board must keep reasons).
pub fn steps(board: &Board) -> Vec<Step> {
    let trail: Vec<(u32, Reason)> = board.trail().iter().copied().zip(board.reasons()).collect();
    let mut notes = board.probe_notes().iter().peekable();
    let mut steps = group(board, &trail, |k| {
        // A probe's note marks where its edges start on the trail.
        while notes.peek().is_some_and(|n| (n.at as usize) < k) {
            notes.next();
        }
        notes
            .next_if(|n| n.at as usize == k)
            .map(|n| probe_of(board, n))
    });
    add_regions(board, &mut steps);
    add_linked(board, &mut steps);
    add_sides(board, &mut steps);
    steps.shrink_to_fit();
    steps
}

/// Names the region of every region parity step: on a copy of the board taken back to the
/// trail position before the deducer's run that made the step (latest first), the clue cells
/// whose equations decided it.
fn add_regions(board: &Board, steps: &mut [Step]) {
    if !steps
        .iter()
        .any(|s| s.reason == Reason::By(Deducer::Parity))
    {
        return;
    }
    // Where the run of parity steps a step belongs to starts on the trail: one run decided
    // them all from the equations as they stood then.
    let mut at: Vec<usize> = Vec::with_capacity(steps.len());
    let mut position = 0;
    for (k, step) in steps.iter().enumerate() {
        let parity = Reason::By(Deducer::Parity);
        match at.last() {
            Some(&start) if step.reason == parity && steps[k - 1].reason == parity => {
                at.push(start)
            }
            _ => at.push(position),
        }
        position += step.decided.len();
    }
    let mut before = board.clone();
    for (k, step) in steps.iter_mut().enumerate().rev() {
        if step.reason != Reason::By(Deducer::Parity) {
            continue;
        }
        before.undo_to(at[k]);
        let d = step.decided[0];
        let e = before.index(d.y as isize, d.x as isize);
        step.region = region_of(&before, e);
    }
}

/// Splits every connectivity step into the linked groups it decided, each with why one of
/// its ways cannot be: on a copy of the board taken back to the step's start (latest
/// first), the groups with a way that cannot be. An edge no such group holds (a bridge, a
/// part without lines) stays in a plain connectivity step.
fn add_linked(board: &Board, steps: &mut Vec<Step>) {
    let connectivity = Reason::By(Deducer::Connectivity);
    if !steps.iter().any(|s| s.reason == connectivity) {
        return;
    }
    let mut starts = Vec::with_capacity(steps.len());
    let mut position = 0;
    for step in steps.iter() {
        starts.push(position);
        position += step.decided.len();
    }
    let point = |i: usize| {
        let (y, x) = board.point(i);
        (y as usize, x as usize)
    };
    let cell = |i: usize| {
        let (y, x) = board.point(i);
        (y as usize / 2, x as usize / 2)
    };
    let mut before = board.clone();
    let mut out: Vec<Step> = Vec::with_capacity(steps.len());
    for (k, step) in steps.drain(..).enumerate().rev() {
        if step.reason != connectivity {
            out.push(step);
            continue;
        }
        // The groups the run found, on the board just before the step (one pass over the
        // board per step, not per edge).
        before.undo_to(starts[k]);
        let groups: Vec<LinkedStep> = connectivity::why_linked(&before)
            .into_iter()
            .map(|l| LinkedStep {
                lines: l.lines.iter().map(|&e| point(e)).collect(),
                crosses: l.crosses.iter().map(|&e| point(e)).collect(),
                why: match l.why {
                    Blocked::ThreeLines(d) => LinkedWhy::ThreeLines(cell(d)),
                    Blocked::LinesLeftOff(d) => LinkedWhy::LinesLeftOff(cell(d)),
                    Blocked::TwoLoops(a, b) => LinkedWhy::TwoLoops(cell(a), cell(b)),
                    Blocked::ClueUnmet(d, c) => LinkedWhy::ClueUnmet(cell(d), cell(c)),
                    Blocked::SplitSide(inside, a, b) => {
                        LinkedWhy::SplitSide(inside, a.map(cell), cell(b))
                    }
                    Blocked::SplitEither(both) => LinkedWhy::SplitEither(
                        both.map(|(inside, a, b)| (inside, a.map(cell), cell(b))),
                    ),
                },
            })
            .collect();
        let why: Vec<Option<LinkedStep>> = step
            .decided
            .iter()
            .map(|d| {
                let at = (d.y, d.x);
                groups
                    .iter()
                    .find(|g| g.lines.contains(&at) || g.crosses.contains(&at))
                    .cloned()
            })
            .collect();
        // Consecutive edges of one group make one step.
        let mut parts: Vec<Step> = Vec::new();
        for (d, why) in step.decided.into_iter().zip(why) {
            let joins = parts.last().is_some_and(|last: &Step| match &last.linked {
                Some(l) => l.lines.contains(&(d.y, d.x)) || l.crosses.contains(&(d.y, d.x)),
                None => why.is_none(),
            });
            match parts.last_mut() {
                Some(last) if joins => last.decided.push(d),
                _ => parts.push(Step {
                    reason: connectivity,
                    anchor: None,
                    probe: None,
                    region: None,
                    sides: Vec::new(),
                    linked: why,
                    decided: vec![d],
                }),
            }
        }
        out.extend(parts.into_iter().rev());
    }
    out.reverse();
    *steps = out;
}

/// Names the cells of every regions step: the deducer's notes from the step's first trail
/// position to its last (or right after it: a cell placed after the run's last edge). A cell
/// placed with no edge beside a cell of known colour decided no edge; its notes make a regions
/// step of their own, with no edges, just before the step its trail position starts.
fn add_sides(board: &Board, steps: &mut Vec<Step>) {
    let notes = board.side_notes();
    if notes.is_empty() {
        return;
    }
    let cell = |i: u32| {
        let (y, x) = board.point(i as usize);
        (y as usize / 2, x as usize / 2)
    };
    let side = |n: &SideNote| Side {
        cell: cell(n.cell),
        inside: n.inside,
        joins: n.joins.map(|(a, b)| (cell(a), b.map(cell))),
    };
    let regions = Reason::By(Deducer::Regions);
    let edgeless = |sides: Vec<Side>| Step {
        reason: regions,
        anchor: None,
        probe: None,
        region: None,
        sides,
        linked: None,
        decided: Vec::new(),
    };
    let mut notes = notes.iter().peekable();
    let mut out: Vec<Step> = Vec::with_capacity(steps.len());
    let mut position = 0;
    for mut step in steps.drain(..) {
        if let Some(last) = out.last_mut().filter(|last| last.reason == regions) {
            while let Some(n) = notes.next_if(|n| n.at as usize == position) {
                last.sides.push(side(n));
            }
        }
        let end = position + step.decided.len();
        let mut taken = Vec::new();
        while let Some(n) = notes.next_if(|n| (n.at as usize) < end) {
            taken.push(side(n));
        }
        if step.reason == regions {
            step.sides = taken;
        } else if !taken.is_empty() {
            out.push(edgeless(taken));
        }
        out.push(step);
        position = end;
    }
    let rest: Vec<Side> = notes.map(side).collect();
    if !rest.is_empty() {
        match out.last_mut().filter(|last| last.reason == regions) {
            Some(last) => last.sides.extend(rest),
            None => out.push(edgeless(rest)),
        }
    }
    *steps = out;
}

/// What a probe note says, in board-independent terms.
fn probe_of(board: &Board, note: &ProbeNote) -> Probe {
    let (y, x) = board.point(note.edge as usize);
    Probe {
        edge: Decided {
            y: y as usize,
            x: x as usize,
            edge: Edge::Unknown,
        },
        tried_line: (note.tried != 0).then_some(note.tried == LINE),
        chain: group(board, &note.chain, |_| None),
        contradiction: note.contradiction.map(|c| c.to_string()),
    }
}

/// Trail entries (edge, reason) grouped into steps: consecutive entries of one reason make
/// one step, but every guess and every region parity edge is a step of its own, and so is
/// every entry `probe_at` names the start of a probe for.
fn group(
    board: &Board,
    entries: &[(u32, Reason)],
    mut probe_at: impl FnMut(usize) -> Option<Probe>,
) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    for (k, &(e, reason)) in entries.iter().enumerate() {
        let probe = match reason {
            Reason::By(Deducer::Probing) => probe_at(k),
            _ => None,
        };
        let (y, x) = board.point(e as usize);
        let anchor = match reason {
            Reason::Rule { anchor, .. } => Some(board.point(anchor as usize)),
            _ => None,
        };
        let edge = if board.at(e as usize) == LINE {
            Edge::Line
        } else {
            debug_assert_eq!(board.at(e as usize), CROSS);
            Edge::Cross
        };
        let decided = Decided {
            y: y as usize,
            x: x as usize,
            edge,
        };
        match steps.last_mut() {
            Some(last)
                if last.reason == reason
                    && reason != Reason::Guess
                    && reason != Reason::By(Deducer::Parity)
                    && probe.is_none() =>
            {
                last.decided.push(decided)
            }
            _ => steps.push(Step {
                reason,
                anchor,
                probe,
                region: None,
                sides: Vec::new(),
                linked: None,
                decided: vec![decided],
            }),
        }
    }
    steps
}

/// The board the first `count` steps make of the bare puzzle `start`.
pub fn replay(start: &Picture, steps: &[Step], count: usize) -> Picture {
    let mut picture = start.clone();
    for step in &steps[..count.min(steps.len())] {
        for d in &step.decided {
            picture.set(d.y, d.x, d.edge);
        }
    }
    picture
}

impl Step {
    /// What decided the step, in words: the rule's name, file and line, symmetry and place,
    /// or the deducer.
    pub fn title(&self, book: &RuleBook) -> String {
        match self.reason {
            Reason::Rule { variant, .. } => {
                let v = &book.variants[variant as usize];
                let rule = &book.set.rules[v.rule];
                let (y, x) = self.anchor.unwrap_or_default();
                format!(
                    "{} ({}:{}), {} at {}",
                    rule.name,
                    rule.file,
                    rule.line,
                    v.symmetry,
                    describe_point(y as i32, x as i32)
                )
            }
            Reason::By(Deducer::Colouring) => "inside/outside colouring".to_string(),
            Reason::By(Deducer::Probing) => match &self.probe {
                Some(probe) => probe.words(book),
                None => "probing (one way led to a contradiction, or both agreed)".to_string(),
            },
            Reason::By(Deducer::Parity) => match (&self.region, self.decided.first()) {
                (Some(region), Some(d)) => region_words(region, d),
                _ => "region parity".to_string(),
            },
            Reason::By(Deducer::Connectivity) if self.linked.is_some() => {
                self.linked.as_ref().map(linked_words).unwrap_or_default()
            }
            Reason::By(Deducer::Regions) if !self.sides.is_empty() => {
                let words: Vec<String> = self.sides.iter().map(Side::words).collect();
                format!("regions: {}", words.join("; "))
            }
            Reason::By(d) => d.words().to_string(),
            Reason::Guess => "search guess".to_string(),
            Reason::Given => "given".to_string(),
        }
    }

    /// The edges it decided, as `line h(0,1), cross v(2,3)`; [`NO_EDGE`] for a step that only
    /// placed cells on a side of the loop.
    pub fn edges_text(&self) -> String {
        if self.decided.is_empty() {
            return NO_EDGE.to_string();
        }
        let mut s = String::new();
        for (k, d) in self.decided.iter().enumerate() {
            if k > 0 {
                s.push_str(", ");
            }
            let word = if d.edge == Edge::Line {
                "line"
            } else {
                "cross"
            };
            write!(s, "{word} {}", d.name()).unwrap();
        }
        s
    }
    /// The rule's `when` and `then` pictures as it was used (in its symmetry), for a rule step
    /// (`slink hint` prints them).
    pub fn rule_pictures(&self, book: &RuleBook) -> Option<(String, String)> {
        let Reason::Rule { variant, .. } = self.reason else {
            return None;
        };
        let v = &book.variants[variant as usize];
        let mut then = v.premise.clone();
        then.extend(v.conclusion.iter().copied());
        let mut then_colours = v.premise_colours.clone();
        then_colours.extend(v.conclusion_colours.iter().copied());
        let frame: Vec<_> = v
            .conclusion
            .iter()
            .map(|f| f.at)
            .chain(v.conclusion_colours.iter().map(|c| c.at))
            .collect();
        Some((
            draw_coloured(&v.dots, &v.premise, &v.premise_colours, &frame, 0),
            draw_coloured(&v.dots, &then, &then_colours, &frame, 0),
        ))
    }
}

/// A connectivity step on linked edges in words: the edges that go together, the way that
/// cannot be, and why.
fn linked_words(l: &LinkedStep) -> String {
    let names = |edges: &[(usize, usize)]| {
        let names: Vec<String> = edges.iter().map(|&(y, x)| edge_name(y, x)).collect();
        match names.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => String::new(),
        }
    };
    let mut together = l.lines.clone();
    together.extend(&l.crosses);
    let way = if l.crosses.is_empty() {
        format!("lines on {}", names(&l.lines))
    } else {
        format!(
            "lines on {} with crosses on {}",
            names(&l.lines),
            names(&l.crosses)
        )
    };
    let why = match l.why {
        LinkedWhy::ThreeLines((r, c)) => format!("dot ({r}, {c}) would have three lines"),
        LinkedWhy::LinesLeftOff((r, c)) => {
            format!("a loop would close at dot ({r}, {c}) with lines left off it")
        }
        LinkedWhy::TwoLoops((r, c), (s, t)) => {
            format!("two loops would close, at dots ({r}, {c}) and ({s}, {t})")
        }
        LinkedWhy::ClueUnmet((r, c), (s, t)) => {
            format!("the loop would close at dot ({r}, {c}) with cell ({s}, {t})'s clue unmet")
        }
        LinkedWhy::SplitSide(inside, from, to) => format!(
            "with the cells of the class not yet placed on their sides, the {}",
            split_words(inside, from, to)
        ),
        LinkedWhy::SplitEither([(i1, f1, t1), (i2, f2, t2)]) => format!(
            "the two classes would be one class of unknown side: with its cells one way, the {}; the other way, the {}",
            split_words(i1, f1, t1),
            split_words(i2, f2, t2)
        ),
    };
    let go = if together.len() == 1 {
        "is decided"
    } else {
        "go together"
    };
    format!(
        "connectivity, linked edges: {} {go} (by how the colour classes of their cells relate); {way} cannot be: {why}",
        names(&together)
    )
}

/// A side split by a way of linked edges, in words: "inside would be split: cell (r, c) and
/// cell (s, t), both inside, would be cut apart".
fn split_words(inside: bool, from: Option<Cell>, (s, t): Cell) -> String {
    let side = if inside { "inside" } else { "outside" };
    let from = match from {
        Some((r, c)) => format!("cell ({r}, {c})"),
        None => "the outside of the grid".to_string(),
    };
    format!("{side} would be split: {from} and cell ({s}, {t}), both {side}, would be cut apart")
}

/// What a step that decided no edge (regions placing cells whose neighbours' colours are not
/// known yet) says in place of its edges.
pub const NO_EDGE: &str = "no edge decided yet (the colour rules take the cells up)";

/// The most cells of a region an explanation names one by one.
const REGION_SHOWN: usize = 8;

/// A region parity step in words: the clue cells, their sum, what that says of the crossings
/// of their boundary, and what is known of the boundary.
fn region_words(region: &Region, d: &Decided) -> String {
    let mut cells: Vec<String> = region
        .cells
        .iter()
        .take(REGION_SHOWN)
        .map(|(r, c)| format!("({r}, {c})"))
        .collect();
    if region.cells.len() > REGION_SHOWN {
        cells.push(format!("{} more", region.cells.len() - REGION_SHOWN));
    }
    let cells = match cells.split_last() {
        Some((last, [])) => format!("cell {last}"),
        Some((last, rest)) => format!("cells {} and {last}", rest.join(", ")),
        None => "no cells".to_string(),
    };
    let (holds, their) = if region.cells.len() == 1 {
        ("holds clue", "its")
    } else {
        ("hold clues summing to", "their")
    };
    let parity = if region.clue_sum % 2 == 1 {
        "an odd"
    } else {
        "an even"
    };
    let state = if d.edge == Edge::Line {
        "a line"
    } else {
        "a cross"
    };
    let edge = d.name();
    if region.cells.is_empty() {
        let sides = if d.edge == Edge::Line {
            "different sides"
        } else {
            "the same side"
        };
        return format!(
            "region parity: the decided edges (and the colours, inside or outside, they give) \
             put the cells on either side of {edge} on {sides} of the loop, so it is {state}"
        );
    }
    let lines = match region.lines {
        0 => "none is a line".to_string(),
        1 => "1 is a line".to_string(),
        n => format!("{n} are lines"),
    };
    let tie = "by the colours (inside or outside) the decided edges give their cells";
    let known = match region.unknown {
        0 | 1 => format!("{edge} is the only unknown one"),
        2 => format!("the other unknown one is tied to {edge} {tie}"),
        n => format!("the other {} unknown ones are tied to {edge} {tie}", n - 1),
    };
    format!(
        "region parity: {cells} {holds} {}, so the loop crosses {their} boundary {parity} \
         number of times; of the {} boundary edges {lines} and {known}, so {edge} is {state}",
        region.clue_sum, region.boundary
    )
}

/// The most steps of a probe's chain an explanation names one by one.
const CHAIN_SHOWN: usize = 6;

impl Probe {
    /// The probe in words: the edge tried and, when that way failed, the steps it led to and
    /// the contradiction; when both ways agreed, that they did.
    pub fn words(&self, book: &RuleBook) -> String {
        let edge = self.edge.name();
        let Some(line) = self.tried_line else {
            return format!(
                "probing {edge}: as a line and as a cross, both ways decide these edges alike"
            );
        };
        let (tried, other) = if line {
            ("a line", "a cross")
        } else {
            ("a cross", "a line")
        };
        let mut chain = String::new();
        for step in self.chain.iter().take(CHAIN_SHOWN) {
            chain.push_str(&step.short_title(book));
            chain.push_str(", ");
        }
        if self.chain.len() > CHAIN_SHOWN {
            let more = self.chain.len() - CHAIN_SHOWN;
            let _ = write!(
                chain,
                "{more} more step{}, ",
                if more == 1 { "" } else { "s" }
            );
        }
        let broke = self.contradiction.as_deref().unwrap_or("a contradiction");
        let steps = match self.chain.len() {
            0 => "at once".to_string(),
            1 => "after 1 step".to_string(),
            n => format!("after {n} steps"),
        };
        format!("probing {edge}: as {tried}, {chain}then {broke} ({steps}); so it is {other}")
    }
}

impl Step {
    /// A short name of the step for a probe's chain: the rule's name and place, or the
    /// deducer.
    fn short_title(&self, book: &RuleBook) -> String {
        match self.reason {
            Reason::Rule { variant, .. } => {
                let rule = &book.set.rules[book.variants[variant as usize].rule];
                let (y, x) = self.anchor.unwrap_or_default();
                format!("{} at {}", rule.name, describe_point(y as i32, x as i32))
            }
            Reason::By(d) => d.words().to_string(),
            Reason::Guess => "a guess".to_string(),
            Reason::Given => "given".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_probing_step_names_its_edge_its_chain_and_where_it_broke() {
        let book = RuleBook::new(RuleSet::builtin());
        let options = SolveOptions {
            reasons: true,
            ..SolveOptions::default()
        };
        let mut solver = Solver::with_options(book, options);
        // Puzzle 27 of the Slitherlink corpus needs probing (as in tests/trial.rs: since
        // linked edges keep the sides joined, the earlier ones no longer do).
        let text = include_str!("../../tests/data/puzzles-slitherlink.in");
        let puzzle = crate::puzzle::parse_all("corpus", text.as_bytes())
            .unwrap()
            .remove(26);
        let attempt = solver.attempt(&puzzle);
        let steps = steps(&attempt.board);
        let probing: Vec<&Step> = steps
            .iter()
            .filter(|s| s.reason == Reason::By(Deducer::Probing))
            .collect();
        assert!(!probing.is_empty(), "the puzzle needs probing");
        let mut failures = 0;
        for step in probing {
            let probe = step
                .probe
                .as_ref()
                .expect("every probing step has its probe");
            let words = step.title(solver.book());
            assert!(words.contains(&probe.edge.name()), "{words}");
            if probe.tried_line.is_some() {
                failures += 1;
                assert!(
                    !probe.chain.is_empty() || words.contains("at once"),
                    "{words}"
                );
                let place = probe.contradiction.as_deref().expect("the place it broke");
                assert!(
                    ["cell (", "dot (", "edge "]
                        .iter()
                        .any(|p| place.contains(p)),
                    "{place}"
                );
                assert!(words.contains(place), "{words}");
                if let Some(first) = probe.chain.first() {
                    assert!(words.contains(&first.short_title(solver.book())), "{words}");
                }
            } else {
                assert!(words.contains("both ways"), "{words}");
            }
        }
        assert!(failures > 0, "some probe met a contradiction");
    }
    use crate::rules::RuleSet;
    use crate::solve::{SolveOptions, Solver};

    #[test]
    fn replaying_every_step_rebuilds_the_final_board() {
        let book = RuleBook::new(RuleSet::builtin());
        let options = SolveOptions {
            reasons: true,
            ..SolveOptions::default()
        };
        let mut solver = Solver::with_options(book, options);
        let text = include_str!("../../tests/data/sample.in");
        let mut puzzles = crate::puzzle::parse_all("sample", text.as_bytes()).unwrap();
        // And one that needs probing or search.
        puzzles.extend(crate::puzzle::parse_all("t", b"3 3\n3 . .\n. . .\n. . 3\n0 0\n").unwrap());
        for puzzle in &puzzles {
            let attempt = solver.attempt(puzzle);
            let steps = steps(&attempt.board);
            assert!(!steps.is_empty());
            let rebuilt = replay(&Picture::blank(puzzle), &steps, steps.len());
            assert_eq!(rebuilt, Picture::of(&attempt.board));
            for step in &steps {
                let title = step.title(solver.book());
                assert!(!title.is_empty());
                if let Reason::Rule { .. } = step.reason {
                    assert!(title.contains(".rules:"), "{title}");
                }
            }
        }
    }
}
