//! Solving statistics: per rule and per puzzle counts, and the tables `--stats` prints.
//!
//! [`Stats`] solves puzzles with [`Solver::solve_counting`], timing each one, and adds what
//! every rule variant did to the totals of its rule. The time a puzzle took is split over
//! the rules in proportion to the premise tests each tried in that puzzle (every test is
//! roughly the same work), so a rule's time share is an estimate, and the table says so.
//! With the per-puzzle view it also keeps one line per puzzle: its outcome, its time, the
//! rules that decided its edges, and what was left to loop closure, search, or nobody.

use crate::board::{Board, Reason};
use crate::compile::RuleBook;
use crate::engine::Tally;
use crate::puzzle::Puzzle;
use crate::solve::{Outcome, Solver};
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// Which tables `--stats` prints.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum StatsView {
    /// One line per rule, with totals.
    #[default]
    Rules,
    /// One line per puzzle, then the per-rule table.
    Puzzles,
}

/// How a puzzle's solve ended, without the details.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The rules finished it.
    Solved,
    /// The rules ran out with edges left unknown.
    Stuck,
    /// The puzzle has no solution.
    Contradiction,
}

impl Ending {
    /// The ending of an outcome.
    pub fn of(outcome: &Outcome) -> Ending {
        match outcome {
            Outcome::Solved => Ending::Solved,
            Outcome::Stuck { .. } => Ending::Stuck,
            Outcome::Contradiction(_) => Ending::Contradiction,
        }
    }

    /// The word the tables use.
    pub fn word(self) -> &'static str {
        match self {
            Ending::Solved => "solved",
            Ending::Stuck => "stuck",
            Ending::Contradiction => "no solution",
        }
    }
}

/// What one rule (all its variants together) did over a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RuleCounts {
    /// Matches that decided at least one edge.
    pub fired: u64,
    /// Edges decided.
    pub decided: u64,
    /// Premise tests tried.
    pub tried: u64,
    /// Estimated solve time spent on it, in seconds (see the module notes).
    pub seconds: f64,
}

/// One puzzle's line of the per-puzzle table.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleLine {
    /// Its number in the run (1, 2, ...), as in the answers.
    pub number: usize,
    /// Cells down.
    pub rows: usize,
    /// Cells across.
    pub cols: usize,
    /// How it ended.
    pub ending: Ending,
    /// Its solve time.
    pub time: Duration,
    /// Rules that decided edges on its board: (rule index, edges), most edges first.
    pub rules: Vec<(usize, u64)>,
    /// Edges decided by loop closure.
    pub closure: u64,
    /// Edges decided by search guesses.
    pub guessed: u64,
    /// Grid edges still unknown at the end.
    pub unknown: usize,
}

impl PuzzleLine {
    /// Reads a finished board: who decided each edge of its trail, and what is left unknown.
    pub fn from_board(
        number: usize,
        board: &Board,
        outcome: &Outcome,
        time: Duration,
        variant_rule: &[usize],
        rule_count: usize,
    ) -> PuzzleLine {
        let mut per_rule = vec![0u64; rule_count];
        let (mut closure, mut guessed) = (0, 0);
        for reason in board.reasons() {
            match reason {
                Reason::Rule { variant, .. } => {
                    if let Some(&r) = variant_rule.get(variant as usize) {
                        per_rule[r] += 1;
                    }
                }
                Reason::LoopClosure => closure += 1,
                Reason::Guess => guessed += 1,
                Reason::Given => {}
            }
        }
        let mut rules: Vec<(usize, u64)> = per_rule
            .into_iter()
            .enumerate()
            .filter(|&(_, n)| n > 0)
            .collect();
        rules.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        PuzzleLine {
            number,
            rows: board.rows(),
            cols: board.cols(),
            ending: Ending::of(outcome),
            time,
            rules,
            closure,
            guessed,
            unknown: board.unknown(),
        }
    }
}

/// Statistics gathered over a run of puzzles with one rule book.
#[derive(Clone, Debug)]
pub struct Stats {
    view: StatsView,
    /// Rule names, by rule index.
    names: Vec<String>,
    /// The rule of each variant.
    variant_rule: Vec<usize>,
    /// Per rule totals, by rule index.
    pub rules: Vec<RuleCounts>,
    /// Whether the rule book uses loop closure.
    pub loop_closure: bool,
    /// Edges decided by loop closure.
    pub closure_decided: u64,
    /// Puzzles the rules finished.
    pub solved: usize,
    /// Puzzles the rules left with unknown edges.
    pub stuck: usize,
    /// Puzzles found to have no solution.
    pub contradiction: usize,
    /// Total solve time.
    pub time: Duration,
    /// Solve time of puzzles where no premise test was counted, in seconds (not attributed to any rule).
    pub unattributed: f64,
    /// One line per puzzle, kept for the per-puzzle view only.
    pub puzzles: Vec<PuzzleLine>,
    /// Counts of the puzzle being solved; emptied after each puzzle.
    scratch: Tally,
}

impl Stats {
    /// Empty statistics for a rule book, to be printed in `view`.
    pub fn new(book: &RuleBook, view: StatsView) -> Stats {
        Stats {
            view,
            names: book.set.rules.iter().map(|r| r.name.clone()).collect(),
            variant_rule: book.variants.iter().map(|v| v.rule).collect(),
            rules: vec![RuleCounts::default(); book.set.rules.len()],
            loop_closure: book.loop_closure(),
            closure_decided: 0,
            solved: 0,
            stuck: 0,
            contradiction: 0,
            time: Duration::ZERO,
            unattributed: 0.0,
            puzzles: Vec::new(),
            scratch: Tally::new(book.variants.len()),
        }
    }

    /// Solves puzzle number `number` with counting on, times it, and records it.
    ///
    /// `solver` must use the rule book these statistics were made for.
    pub fn solve(
        &mut self,
        solver: &mut Solver,
        number: usize,
        puzzle: &Puzzle,
    ) -> (Board, Outcome) {
        let mut tally = std::mem::take(&mut self.scratch);
        let started = Instant::now();
        let (board, outcome) = solver.solve_counting(puzzle, &mut tally);
        let time = started.elapsed();
        self.record(number, &board, &outcome, time, &tally);
        clear(&mut tally);
        self.scratch = tally;
        (board, outcome)
    }

    /// Adds one solved puzzle: its board and outcome, how long it took, and its own counts.
    pub fn record(
        &mut self,
        number: usize,
        board: &Board,
        outcome: &Outcome,
        time: Duration,
        tally: &Tally,
    ) {
        self.add_counts(Ending::of(outcome), time, tally);
        if self.view == StatsView::Puzzles {
            self.puzzles.push(PuzzleLine::from_board(
                number,
                board,
                outcome,
                time,
                &self.variant_rule,
                self.names.len(),
            ));
        }
    }

    /// Adds one puzzle's counts, ending and time to the totals, splitting the time over the
    /// rules in proportion to the premise tests each tried.
    pub fn add_counts(&mut self, ending: Ending, time: Duration, tally: &Tally) {
        match ending {
            Ending::Solved => self.solved += 1,
            Ending::Stuck => self.stuck += 1,
            Ending::Contradiction => self.contradiction += 1,
        }
        self.time += time;
        self.closure_decided += tally.closure_decided;
        let mut tried = vec![0u64; self.rules.len()];
        for (v, &r) in self.variant_rule.iter().enumerate() {
            let counts = &mut self.rules[r];
            counts.fired += tally.fired.get(v).copied().unwrap_or(0);
            counts.decided += tally.decided.get(v).copied().unwrap_or(0);
            tried[r] += tally.tried.get(v).copied().unwrap_or(0);
        }
        let total: u64 = tried.iter().sum();
        let seconds = time.as_secs_f64();
        if total == 0 {
            self.unattributed += seconds;
            return;
        }
        for (counts, n) in self.rules.iter_mut().zip(tried) {
            counts.tried += n;
            counts.seconds += seconds * n as f64 / total as f64;
        }
    }

    /// Puzzles recorded.
    pub fn puzzle_count(&self) -> usize {
        self.solved + self.stuck + self.contradiction
    }

    /// Rule indices in table order: most edges decided first, then most tests tried, then rule order.
    pub fn rule_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.rules.len()).collect();
        order.sort_by(|&a, &b| {
            let (x, y) = (&self.rules[a], &self.rules[b]);
            y.decided
                .cmp(&x.decided)
                .then(y.tried.cmp(&x.tried))
                .then(a.cmp(&b))
        });
        order
    }

    /// The report for the chosen view: the per-puzzle table first when asked for, then the rule table.
    pub fn report(&self) -> String {
        match self.view {
            StatsView::Rules => self.rules_table(),
            StatsView::Puzzles => self.puzzles_table() + "\n" + &self.rules_table(),
        }
    }

    /// The per-rule table, with loop closure, totals, outcomes and the total solve time.
    pub fn rules_table(&self) -> String {
        let name_width = self
            .names
            .iter()
            .map(|n| n.len())
            .chain(["loop closure".len(), "rule".len()])
            .max()
            .unwrap_or(0);
        let total_decided: u64 =
            self.rules.iter().map(|r| r.decided).sum::<u64>() + self.closure_decided;
        let total_fired: u64 = self.rules.iter().map(|r| r.fired).sum();
        let total_tried: u64 = self.rules.iter().map(|r| r.tried).sum();
        let total_seconds = self.time.as_secs_f64();
        let share = |part: f64, whole: f64| {
            if whole > 0.0 {
                format!("{:.1}", 100.0 * part / whole)
            } else {
                "-".to_string()
            }
        };
        let mut s = String::new();
        let n = self.puzzle_count();
        writeln!(
            s,
            "slink: statistics over {n} puzzle{}: {} solved, {} stuck, {} without solution; solve time {}",
            plural(n),
            self.solved,
            self.stuck,
            self.contradiction,
            format_total(self.time)
        )
        .unwrap();
        let line = |s: &mut String, name: &str, cols: [String; 5]| {
            let [fired, edges, edge_share, tried, time] = cols;
            writeln!(
                s,
                "{name:<name_width$}  {fired:>10}  {edges:>10}  {edge_share:>7}  {tried:>12}  {time:>13}"
            )
            .unwrap();
        };
        line(
            &mut s,
            "rule",
            [
                "fired".into(),
                "edges".into(),
                "edges %".into(),
                "tests tried".into(),
                "time % (est.)".into(),
            ],
        );
        let mut uncounted = false;
        for r in self.rule_order() {
            let c = &self.rules[r];
            let (tried, time) = if c.tried == 0 && c.decided > 0 {
                uncounted = true;
                ("n/c".to_string(), "n/c".to_string())
            } else {
                (c.tried.to_string(), share(c.seconds, total_seconds))
            };
            line(
                &mut s,
                &self.names[r],
                [
                    c.fired.to_string(),
                    c.decided.to_string(),
                    share(c.decided as f64, total_decided as f64),
                    tried,
                    time,
                ],
            );
        }
        if self.loop_closure {
            line(
                &mut s,
                "loop closure",
                [
                    "-".into(),
                    self.closure_decided.to_string(),
                    share(self.closure_decided as f64, total_decided as f64),
                    "-".into(),
                    "-".into(),
                ],
            );
        }
        let attributed: f64 = self.rules.iter().map(|r| r.seconds).sum();
        line(
            &mut s,
            "total",
            [
                total_fired.to_string(),
                total_decided.to_string(),
                share(total_decided as f64, total_decided as f64),
                total_tried.to_string(),
                share(attributed, total_seconds),
            ],
        );
        writeln!(
            s,
            "time % (est.): each puzzle's solve time (loop closure and bookkeeping included) is split over the rules in proportion to the premise tests they tried in it"
        )
        .unwrap();
        if uncounted {
            writeln!(
                s,
                "n/c: not counted; these rules run from a lookup table without premise tests, so their time falls to the others"
            )
            .unwrap();
        }
        if self.unattributed > 0.0 {
            writeln!(
                s,
                "{} of solve time went to puzzles where no premise test ran and is not attributed",
                format_total(Duration::from_secs_f64(self.unattributed))
            )
            .unwrap();
        }
        s
    }

    /// One line per puzzle: number, size, outcome, time, edges left to loop closure, search
    /// and nobody, and the rules that decided its edges (most first, with their edge counts).
    pub fn puzzles_table(&self) -> String {
        let mut s = String::new();
        writeln!(
            s,
            "{:>7}  {:>7}  {:<11}  {:>10}  {:>7}  {:>6}  {:>7}  rules needed (edges decided)",
            "puzzle", "size", "outcome", "time ms", "closure", "search", "unknown"
        )
        .unwrap();
        for p in &self.puzzles {
            let size = format!("{}x{}", p.rows, p.cols);
            let mut rules = String::new();
            for (i, &(r, n)) in p.rules.iter().enumerate() {
                if i > 0 {
                    rules.push_str(", ");
                }
                write!(rules, "{} {n}", self.names[r]).unwrap();
            }
            if rules.is_empty() {
                rules.push('-');
            }
            writeln!(
                s,
                "{:>7}  {:>7}  {:<11}  {:>10.3}  {:>7}  {:>6}  {:>7}  {rules}",
                p.number,
                size,
                p.ending.word(),
                p.time.as_secs_f64() * 1e3,
                p.closure,
                p.guessed,
                p.unknown
            )
            .unwrap();
        }
        s
    }
}

/// Zeroes every count of a tally, keeping its size.
fn clear(tally: &mut Tally) {
    tally.fired.fill(0);
    tally.decided.fill(0);
    tally.tried.fill(0);
    tally.closure_decided = 0;
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// A run's total time: milliseconds below ten seconds, seconds above.
fn format_total(d: Duration) -> String {
    if d < Duration::from_secs(10) {
        format!("{:.1} ms", d.as_secs_f64() * 1e3)
    } else {
        format!("{:.2} s", d.as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse_all;
    use crate::rules::RuleSet;

    /// The official sample: four puzzles the built-in rules finish.
    const SAMPLE: &str = include_str!("../tests/data/sample.in");

    fn book() -> RuleBook {
        RuleBook::new(RuleSet::builtin())
    }

    fn rule_index(book: &RuleBook, name: &str) -> usize {
        book.set.rules.iter().position(|r| r.name == name).unwrap()
    }

    fn variant_of(book: &RuleBook, rule: usize) -> usize {
        book.variants.iter().position(|v| v.rule == rule).unwrap()
    }

    #[test]
    fn variants_add_up_to_their_rule() {
        let book = book();
        let zero = rule_index(&book, "zero");
        let mut tally = Tally::new(book.variants.len());
        for (v, variant) in book.variants.iter().enumerate() {
            if variant.rule == zero {
                tally.fired[v] = 2;
                tally.decided[v] = 3;
                tally.tried[v] = 5;
            }
        }
        let variants = book.variants.iter().filter(|v| v.rule == zero).count() as u64;
        let mut stats = Stats::new(&book, StatsView::Rules);
        stats.add_counts(Ending::Solved, Duration::from_millis(4), &tally);
        let c = &stats.rules[zero];
        assert_eq!(
            (c.fired, c.decided, c.tried),
            (2 * variants, 3 * variants, 5 * variants)
        );
        assert!(
            (c.seconds - 0.004).abs() < 1e-12,
            "all the tests were zero's"
        );
        assert_eq!(stats.rule_order()[0], zero);
    }

    #[test]
    fn time_is_split_by_tests_tried() {
        let book = book();
        let (a, b) = (
            rule_index(&book, "zero"),
            rule_index(&book, "adjacent-threes"),
        );
        let mut tally = Tally::new(book.variants.len());
        tally.tried[variant_of(&book, a)] = 3;
        tally.tried[variant_of(&book, b)] = 1;
        let mut stats = Stats::new(&book, StatsView::Rules);
        stats.add_counts(Ending::Stuck, Duration::from_millis(8), &tally);
        stats.add_counts(
            Ending::Contradiction,
            Duration::from_millis(2),
            &Tally::new(book.variants.len()),
        );
        assert!((stats.rules[a].seconds - 0.006).abs() < 1e-12);
        assert!((stats.rules[b].seconds - 0.002).abs() < 1e-12);
        assert!(
            (stats.unattributed - 0.002).abs() < 1e-12,
            "no tests: not attributed"
        );
        assert_eq!((stats.solved, stats.stuck, stats.contradiction), (0, 1, 1));
        assert_eq!(stats.time, Duration::from_millis(10));
    }

    #[test]
    fn every_edge_is_accounted_for_on_each_puzzle() {
        let book = book();
        let mut stats = Stats::new(&book, StatsView::Puzzles);
        let mut solver = Solver::new(book);
        let puzzles = parse_all("sample", SAMPLE.as_bytes()).unwrap();
        for (k, p) in puzzles.iter().enumerate() {
            stats.solve(&mut solver, k + 1, p);
        }
        assert_eq!(stats.puzzles.len(), puzzles.len());
        assert_eq!(stats.puzzle_count(), puzzles.len());
        let mut from_lines = 0;
        for (line, p) in stats.puzzles.iter().zip(&puzzles) {
            let edges = (p.rows + 1) * p.cols + p.rows * (p.cols + 1);
            let by_rules: u64 = line.rules.iter().map(|&(_, n)| n).sum();
            assert_eq!(
                by_rules + line.closure + line.guessed + line.unknown as u64,
                edges as u64
            );
            assert!(
                line.rules.windows(2).all(|w| w[0].1 >= w[1].1),
                "most edges first"
            );
            from_lines += by_rules + line.closure;
        }
        let from_totals: u64 =
            stats.rules.iter().map(|r| r.decided).sum::<u64>() + stats.closure_decided;
        assert_eq!(
            from_lines, from_totals,
            "solved puzzles: the tally and the trail agree"
        );
    }

    #[test]
    fn tables_name_every_rule_and_every_puzzle() {
        let book = book();
        let names: Vec<String> = book.set.rules.iter().map(|r| r.name.clone()).collect();
        let mut stats = Stats::new(&book, StatsView::Puzzles);
        let mut solver = Solver::new(book);
        for (k, p) in parse_all("sample", SAMPLE.as_bytes())
            .unwrap()
            .iter()
            .enumerate()
        {
            let (_, outcome) = stats.solve(&mut solver, k + 1, p);
            assert!(matches!(outcome, Outcome::Solved));
        }
        let report = stats.report();
        assert!(report.contains("time % (est.)"), "{report}");
        assert!(report.contains("loop closure"), "{report}");
        assert!(
            report.contains("4 puzzles: 4 solved, 0 stuck, 0 without solution"),
            "{report}"
        );
        let rules = stats.rules_table();
        for name in &names {
            assert!(
                rules
                    .lines()
                    .any(|l| l.split_whitespace().next() == Some(name)),
                "{name} missing:\n{rules}"
            );
        }
        let puzzles = stats.puzzles_table();
        assert_eq!(puzzles.lines().count(), 1 + 4, "{puzzles}");
        let third: Vec<&str> = puzzles.lines().nth(3).unwrap().split_whitespace().collect();
        assert_eq!(third[..3], ["3", "2x2", "solved"], "{puzzles}");
        // Sorted by edges decided, descending.
        let order = stats.rule_order();
        assert!(
            order
                .windows(2)
                .all(|w| stats.rules[w[0]].decided >= stats.rules[w[1]].decided)
        );
    }

    #[test]
    fn solving_leaves_the_scratch_tally_empty() {
        let book = book();
        let mut stats = Stats::new(&book, StatsView::Rules);
        let mut solver = Solver::new(book);
        let p = &parse_all("sample", SAMPLE.as_bytes()).unwrap()[1];
        stats.solve(&mut solver, 1, p);
        let once = stats.rules.clone();
        stats.solve(&mut solver, 2, p);
        for (a, b) in once.iter().zip(&stats.rules) {
            assert_eq!(
                (2 * a.fired, 2 * a.decided, 2 * a.tried),
                (b.fired, b.decided, b.tried)
            );
        }
        assert!(stats.scratch.tried.iter().all(|&n| n == 0));
        assert!(
            stats.puzzles.is_empty(),
            "the rule view keeps no puzzle lines"
        );
    }
}
