//! Compiled matchers against a plain premise interpreter: on random boards (random clues,
//! blanks and given edges), the engine's fixpoint of a rule set must be exactly the fixpoint
//! a naive interpreter reaches by trying every variant at every place until nothing changes,
//! and the two must agree on whether a contradiction arises. The rule sets: the built-in one
//! (dot tables, side tables, one- and two-cell tests) and a fixture of rules that only the
//! general watch index takes (`tests/fixtures/general/`).

use crate::board::{Board, CROSS, LINE, Reason, Tracking, UNKNOWN};
use crate::deduce::DeducerSet;
use crate::engine::Engine;
use crate::generate::Rng;
use crate::puzzle::Puzzle;
use crate::rules::compile::RuleBook;
use crate::rules::{Glyph, RuleSet};
use std::collections::HashMap;

/// Edge states of a grid by doubled coordinates, with everything off the grid a cross.
struct Plain {
    rows: i32,
    cols: i32,
    clues: Vec<Option<u8>>,
    edges: HashMap<(i32, i32), u8>,
}

impl Plain {
    fn on_grid(&self, y: i32, x: i32) -> bool {
        (0..=2 * self.rows).contains(&y) && (0..=2 * self.cols).contains(&x)
    }

    /// The state of the edge at (y, x): `None` off the grid.
    fn edge(&self, y: i32, x: i32) -> Option<u8> {
        self.on_grid(y, x).then(|| self.edges[&(y, x)])
    }

    fn clue(&self, y: i32, x: i32) -> Option<u8> {
        if !(0..2 * self.rows).contains(&y) || !(0..2 * self.cols).contains(&x) {
            return None;
        }
        self.clues[((y / 2) * self.cols + x / 2) as usize]
    }

    /// Runs every variant at every origin until nothing changes; says which variant where on
    /// a contradiction (a conclusion against a decided edge, or a line off the grid).
    /// Rules marked `assumes single-loop` run only when `single_loop` says so, as in a solve.
    fn fixpoint(&mut self, book: &RuleBook, single_loop: bool) -> Result<(), String> {
        loop {
            let mut changed = false;
            // Colour rules match only with colouring on, which these runs leave off.
            let runs = |v: &&crate::rules::expand::Variant| {
                !v.has_colours() && (single_loop || !book.set.rules[v.rule].assumes_single_loop)
            };
            for v in book.variants.iter().filter(runs) {
                for oy in -6..=2 * self.rows + 6 {
                    for ox in -6..=2 * self.cols + 6 {
                        // Only places where every fact lands on its kind of point.
                        let fits = v.premise.iter().chain(&v.conclusion).all(|f| {
                            let (y, x) = (oy + f.at.y, ox + f.at.x);
                            match f.glyph {
                                Glyph::Clue(_) => y.rem_euclid(2) == 1 && x.rem_euclid(2) == 1,
                                _ => (y + x).rem_euclid(2) == 1,
                            }
                        });
                        let dots_fit = v.dots.iter().all(|d| {
                            (oy + d.y).rem_euclid(2) == 0 && (ox + d.x).rem_euclid(2) == 0
                        });
                        if !fits || !dots_fit {
                            continue;
                        }
                        let holds = v.premise.iter().all(|f| {
                            let (y, x) = (oy + f.at.y, ox + f.at.x);
                            match f.glyph {
                                Glyph::Line => self.edge(y, x) == Some(LINE),
                                Glyph::Cross => matches!(self.edge(y, x), None | Some(CROSS)),
                                Glyph::Clue(n) => self.clue(y, x) == Some(n),
                            }
                        });
                        if !holds {
                            continue;
                        }
                        for f in &v.conclusion {
                            let (y, x) = (oy + f.at.y, ox + f.at.x);
                            let want = if f.glyph == Glyph::Line { LINE } else { CROSS };
                            let fail = || {
                                let rule = &book.set.rules[v.rule].name;
                                format!(
                                    "{rule} ({}) at origin ({oy}, {ox}) sets ({y}, {x})",
                                    v.symmetry
                                )
                            };
                            match self.edge(y, x) {
                                None if want == CROSS => {}
                                None => return Err(fail()),
                                Some(UNKNOWN) => {
                                    self.edges.insert((y, x), want);
                                    changed = true;
                                }
                                Some(s) if s == want => {}
                                Some(_) => return Err(fail()),
                            }
                        }
                    }
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }
}

impl Plain {
    /// The local laws the board checks as edges are decided: a dot has at most two lines,
    /// and not one line with every other edge blocked; a clue's lines neither exceed it nor
    /// can no longer reach it; a closed loop holds every line and meets every clue.
    fn laws(&self) -> Result<(), String> {
        let state = |y: i32, x: i32| self.edge(y, x);
        for y in (0..=2 * self.rows).step_by(2) {
            for x in (0..=2 * self.cols).step_by(2) {
                let around =
                    [(y - 1, x), (y, x + 1), (y + 1, x), (y, x - 1)].map(|(a, b)| state(a, b));
                let lines = around.iter().filter(|s| **s == Some(LINE)).count();
                let blocked = around
                    .iter()
                    .filter(|s| matches!(s, None | Some(CROSS)))
                    .count();
                if lines > 2 || (lines == 1 && blocked == 3) {
                    return Err(format!("dot ({y}, {x})"));
                }
            }
        }
        let mut satisfied = true;
        for y in (1..2 * self.rows).step_by(2) {
            for x in (1..2 * self.cols).step_by(2) {
                let Some(clue) = self.clue(y, x) else {
                    continue;
                };
                let sides =
                    [(y - 1, x), (y, x + 1), (y + 1, x), (y, x - 1)].map(|(a, b)| state(a, b));
                let lines = sides.iter().filter(|s| **s == Some(LINE)).count() as u8;
                let crosses = sides.iter().filter(|s| **s == Some(CROSS)).count() as u8;
                if lines > clue || crosses > 4 - clue {
                    return Err(format!("cell ({y}, {x})"));
                }
                satisfied &= lines == clue;
            }
        }
        // A closed loop: walk from each line; fine only as the whole answer.
        let total = self.edges.values().filter(|&&s| s == LINE).count();
        for (&(y, x), &s) in &self.edges {
            if s != LINE {
                continue;
            }
            let (mut dot, mut came, mut walked) = if y % 2 == 0 {
                ((y, x + 1), (y, x), 1)
            } else {
                ((y + 1, x), (y, x), 1)
            };
            let start = if y % 2 == 0 { (y, x - 1) } else { (y - 1, x) };
            loop {
                let next = [
                    (dot.0 - 1, dot.1),
                    (dot.0, dot.1 + 1),
                    (dot.0 + 1, dot.1),
                    (dot.0, dot.1 - 1),
                ]
                .into_iter()
                .find(|&e| e != came && state(e.0, e.1) == Some(LINE));
                let Some(e) = next else { break };
                walked += 1;
                dot = (2 * e.0 - dot.0, 2 * e.1 - dot.1);
                came = e;
                if dot == start {
                    if walked != total || !satisfied {
                        return Err(format!("a loop through ({y}, {x})"));
                    }
                    break;
                }
                if walked > total {
                    break;
                }
            }
        }
        Ok(())
    }
}

/// Edges given before the rules run: (doubled coordinates, state).
type Given = Vec<((i32, i32), u8)>;

/// A random board: clues (some blank), and a few given edges.
fn random_case(seed: u64) -> (Puzzle, Given) {
    let mut rng = Rng::new(seed);
    let rows = 1 + rng.index(6);
    let cols = 1 + rng.index(6);
    let blank_share = rng.unit();
    let clues = (0..rows * cols)
        .map(|_| (rng.unit() >= blank_share).then(|| rng.index(4) as u8))
        .collect();
    let mut given = Vec::new();
    for _ in 0..rng.index(6) {
        let y = rng.index(2 * rows + 1) as i32;
        let x = rng.index(cols + (y as usize % 2)) as i32 * 2 + 1 - (y % 2);
        let state = if rng.index(2) == 0 { LINE } else { CROSS };
        given.push(((y, x), state));
    }
    (Puzzle { rows, cols, clues }, given)
}

/// Checks compiled against plain on `cases` random boards.
fn compare(book: &RuleBook, cases: u64, salt: u64) {
    let mut agreed_contradictions = 0;
    for seed in 0..cases {
        let (puzzle, given) = random_case(seed ^ salt);
        let mut plain = Plain {
            rows: puzzle.rows as i32,
            cols: puzzle.cols as i32,
            clues: puzzle.clues.clone(),
            edges: HashMap::new(),
        };
        for y in 0..=2 * plain.rows {
            for x in 0..=2 * plain.cols {
                if (y + x) % 2 == 1 {
                    plain.edges.insert((y, x), UNKNOWN);
                }
            }
        }
        let mut board = Board::new(&puzzle, book.margin, Tracking::default());
        let mut consistent = true;
        for &((y, x), state) in &given {
            let e = board.index(y as isize, x as isize);
            if board.set_edge(e, state, Reason::Given).is_err() {
                consistent = false;
            }
            match plain.edges[&(y, x)] {
                UNKNOWN => {
                    plain.edges.insert((y, x), state);
                }
                s if s == state => {}
                _ => consistent = false,
            }
        }
        if !consistent {
            continue;
        }
        // As a solve does: rules that assume one loop stay off where the whole answer could be
        // a loop inside one of their windows (applied there, they may cut off the answer, and
        // whether that shows as a contradiction depends on the order rules fire in).
        let single_loop = book.single_loop_rules_apply(&puzzle);
        let stages = book.stages(board.stride(), single_loop);
        let none = DeducerSet::NONE;
        let compiled = Engine::new(book, &stages)
            .with_switches(none)
            .start(&mut board);
        let interpreted = plain
            .fixpoint(book, single_loop)
            .and_then(|()| plain.laws());
        assert_eq!(
            compiled.is_ok(),
            interpreted.is_ok(),
            "seed {seed}: compiled says {compiled:?}, the interpreter {interpreted:?}\n{puzzle:?} given {given:?}"
        );
        if interpreted.is_err() {
            agreed_contradictions += 1;
            continue;
        }
        for (&(y, x), &state) in &plain.edges {
            let got = board.at(board.index(y as isize, x as isize));
            assert_eq!(
                got, state,
                "seed {seed}: edge at doubled ({y}, {x}) is {got} compiled, {state} interpreted"
            );
        }
    }
    assert!(
        agreed_contradictions < cases as usize,
        "some boards are consistent"
    );
}

#[test]
fn the_built_in_rules_match_as_the_interpreter_says() {
    let book = RuleBook::new(RuleSet::builtin());
    compare(&book, 300, 0x5eed);
    // Among these, seed 1093: a 2 whose corner-ahead rule concludes a line off the grid,
    // once every slot it concludes on is decided (a contradiction the watch lists skipped).
    compare(&book, 2000, 0x3d1);
}

#[test]
fn rules_of_the_general_form_match_as_the_interpreter_says() {
    let text = include_str!("../../tests/fixtures/general/general.rules");
    let set = RuleSet::from_sources(&[("general.rules", text)]).expect("the fixture parses");
    let book = RuleBook::new(set);
    let stages = book.stages(64, true);
    let general = stages.iter().map(|s| s.all.entries.len()).max();
    assert!(
        general.is_some_and(|n| n > 0),
        "the fixture's rules go through the general watch index"
    );
    compare(&book, 300, 0x9e4e);
}

/// The built-in rules with one more file.
fn built_in_with(name: &str, text: &str) -> RuleBook {
    let mut sources: Vec<(String, String)> = crate::rules::BUILTIN_RULES
        .iter()
        .map(|(n, t)| (n.to_string(), t.to_string()))
        .collect();
    sources.push((name.into(), text.into()));
    RuleBook::new(RuleSet::from_sources(&sources).expect("the rules parse"))
}

#[test]
fn the_built_in_rules_with_the_general_ones_match_too() {
    let general = include_str!("../../tests/fixtures/general/general.rules");
    compare(&built_in_with("general.rules", general), 300, 0xa11);
}

#[test]
fn the_built_in_rules_with_the_other_discovered_ones_match_too() {
    // The fifty discovered edge rules not built in (`rules/discovered/`), which a user loads
    // with `--rules rules --rules rules/discovered`.
    let discovered = include_str!("../../rules/discovered/window-2x2-2x3.rules");
    compare(
        &built_in_with("window-2x2-2x3.rules", discovered),
        1000,
        0x3d1,
    );
}
