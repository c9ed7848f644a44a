//! Solving statistics: per rule and per deducer counts, per puzzle lines, and the tables `--stats` prints.
//!
//! [`Stats`] solves puzzles with [`Solver::attempt_counting`], timing each one. Two kinds of
//! count are kept apart:
//! - *work*: how often each rule fired and how many premise tests it tried, everywhere the
//!   engine ran (probes and search branches that were taken back included);
//! - *the answer*: which rule or deducer decided each edge of the final board (read from the
//!   board's reasons, which the solver keeps when statistics are on).
//!
//! The time a puzzle took is split over the rules in proportion to the premise tests each
//! tried in it (every test is roughly the same work), so a rule's time share is an estimate,
//! and the table says so. With the per-puzzle view it also keeps one line per puzzle.

use crate::board::{Board, Reason};
use crate::deduce::{Deducer, DeducerSet, PerDeducer};
use crate::engine::Tally;
use crate::rules::compile::RuleBook;
use crate::solve::{Attempt, Outcome, Report};
use std::fmt::Write as _;
use std::time::Duration;

/// Which tables `--stats` prints.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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
    /// Solved, and the answer is the only one.
    Solved,
    /// Solved, with more than one solution.
    Several,
    /// Deduction ran out with edges left unknown (search off).
    Stuck,
    /// The puzzle has no solution.
    Contradiction,
    /// A budget ran out.
    Limit,
}

impl Ending {
    /// The ending of an outcome.
    pub fn of(outcome: &Outcome) -> Ending {
        match outcome {
            Outcome::Solved => Ending::Solved,
            Outcome::Several => Ending::Several,
            Outcome::Stuck { .. } => Ending::Stuck,
            Outcome::Contradiction(_) => Ending::Contradiction,
            Outcome::Limit { .. } => Ending::Limit,
        }
    }

    /// The word the tables use (one word, so that the tables split on blanks).
    pub fn word(self) -> &'static str {
        match self {
            Ending::Solved => "solved",
            Ending::Several => "several",
            Ending::Stuck => "stuck",
            Ending::Contradiction => "no-solution",
            Ending::Limit => "limit",
        }
    }
}

/// What one rule (all its variants together) did over a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RuleCounts {
    /// Matches that decided at least one edge (work).
    pub fired: u64,
    /// Edges of the final boards it decided.
    pub decided: u64,
    /// Premise tests tried (work).
    pub tried: u64,
    /// Estimated solve time spent on it, in seconds (see the module notes).
    pub seconds: f64,
}

/// Who decided the edges of one final board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Deciders {
    /// Edges per rule (by rule index).
    pub per_rule: Vec<u64>,
    /// Edges decided by each deducer (by search: its guesses).
    pub by: PerDeducer<u64>,
}

impl Deciders {
    /// Reads a board's reasons (empty unless the board tracks them).
    pub fn of(board: &Board, variant_rule: &[usize], rule_count: usize) -> Deciders {
        let mut d = Deciders {
            per_rule: vec![0; rule_count],
            ..Deciders::default()
        };
        for reason in board.reasons() {
            match reason {
                Reason::Rule { variant, .. } => {
                    if let Some(&r) = variant_rule.get(variant as usize) {
                        d.per_rule[r] += 1;
                    }
                }
                Reason::By(deducer) => d.by[deducer] += 1,
                Reason::Guess => d.by[Deducer::Search] += 1,
                Reason::Given => {}
            }
        }
        d
    }

    #[cfg(test)]
    /// Edges decided by rules.
    pub fn by_rules(&self) -> u64 {
        self.per_rule.iter().sum()
    }
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
    /// Rules that decided its edges: (rule index, edges), most edges first.
    pub rules: Vec<(usize, u64)>,
    /// Who decided its edges.
    pub deciders: Deciders,
    /// What solving took (probes, search nodes, ...).
    pub report: Report,
    /// Grid edges still unknown at the end.
    pub unknown: usize,
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
    /// The deducers in use.
    pub switches: DeducerSet,
    /// Edges of the final boards decided by the deducers and by guesses.
    pub deciders: Deciders,
    /// Probes made.
    pub probes: u64,
    /// Search nodes.
    pub nodes: u64,
    /// Puzzles solved with one solution.
    pub solved: usize,
    /// Puzzles with several solutions.
    pub several: usize,
    /// Puzzles left with unknown edges.
    pub stuck: usize,
    /// Puzzles found to have no solution.
    pub contradiction: usize,
    /// Puzzles that ran out of budget.
    pub limit: usize,
    /// Total solve time.
    pub time: Duration,
    /// Solve time of puzzles where no premise test was counted, in seconds (not attributed to any rule).
    pub unattributed: f64,
    /// One line per puzzle, kept for the per-puzzle view only.
    pub puzzles: Vec<PuzzleLine>,
    /// Counts of the puzzle being solved; emptied after each puzzle.
    #[cfg(test)]
    scratch: Tally,
}

impl Stats {
    /// Empty statistics for a rule book whose solver uses `switches`, to be printed in `view`.
    pub fn new(book: &RuleBook, switches: DeducerSet, view: StatsView) -> Stats {
        Stats {
            view,
            names: book.set.rules.iter().map(|r| r.name.clone()).collect(),
            variant_rule: book.variants.iter().map(|v| v.rule).collect(),
            rules: vec![RuleCounts::default(); book.set.rules.len()],
            switches,
            deciders: Deciders::default(),
            probes: 0,
            nodes: 0,
            solved: 0,
            several: 0,
            stuck: 0,
            contradiction: 0,
            limit: 0,
            time: Duration::ZERO,
            unattributed: 0.0,
            puzzles: Vec::new(),
            #[cfg(test)]
            scratch: Tally::new(book.variants.len()),
        }
    }

    #[cfg(test)]
    /// Solves puzzle number `number` with counting on, times it, and records it.
    ///
    /// `solver` must use the rule book these statistics were made for, and keep reasons
    /// ([`crate::solve::SolveOptions::reasons`]) for the answer's edges to be counted.
    pub fn solve(
        &mut self,
        solver: &mut crate::solve::Solver,
        number: usize,
        puzzle: &crate::puzzle::Puzzle,
    ) -> Attempt {
        let mut tally = std::mem::take(&mut self.scratch);
        let started = std::time::Instant::now();
        let attempt = solver.attempt_counting(puzzle, &mut tally);
        let time = started.elapsed();
        self.record(number, &attempt, time, &tally);
        tally.clear();
        self.scratch = tally;
        attempt
    }

    /// Adds one solved puzzle: its attempt, how long it took, and its own counts.
    pub fn record(&mut self, number: usize, attempt: &Attempt, time: Duration, tally: &Tally) {
        let deciders = Deciders::of(&attempt.board, &self.variant_rule, self.names.len());
        self.add_counts(Ending::of(&attempt.outcome), time, tally, &deciders);
        let report = attempt.report;
        self.probes += report.probes;
        self.nodes += report.search.nodes;
        if self.view == StatsView::Puzzles {
            let mut rules: Vec<(usize, u64)> = deciders
                .per_rule
                .iter()
                .copied()
                .enumerate()
                .filter(|&(_, n)| n > 0)
                .collect();
            rules.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            self.puzzles.push(PuzzleLine {
                number,
                rows: attempt.board.rows(),
                cols: attempt.board.cols(),
                ending: Ending::of(&attempt.outcome),
                time,
                rules,
                deciders,
                report,
                unknown: attempt.board.unknown(),
            });
        }
    }

    /// Adds one puzzle's counts, ending and time to the totals, splitting the time over the
    /// rules in proportion to the premise tests each tried.
    pub fn add_counts(
        &mut self,
        ending: Ending,
        time: Duration,
        tally: &Tally,
        deciders: &Deciders,
    ) {
        match ending {
            Ending::Solved => self.solved += 1,
            Ending::Several => self.several += 1,
            Ending::Stuck => self.stuck += 1,
            Ending::Contradiction => self.contradiction += 1,
            Ending::Limit => self.limit += 1,
        }
        self.time += time;
        self.deciders.by.add(&deciders.by);
        for (counts, &n) in self.rules.iter_mut().zip(&deciders.per_rule) {
            counts.decided += n;
        }
        let mut tried = vec![0u64; self.rules.len()];
        for (v, &r) in self.variant_rule.iter().enumerate() {
            self.rules[r].fired += tally.fired.get(v).copied().unwrap_or(0);
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
        self.solved + self.several + self.stuck + self.contradiction + self.limit
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

    /// The summary line: puzzles by outcome and the total solve time.
    pub fn summary(&self) -> String {
        let n = self.puzzle_count();
        format!(
            "slink: statistics over {n} puzzle{}: {} solved, {} with several solutions, {} stuck, {} without solution, {} at a limit; solve time {}",
            plural(n),
            self.solved,
            self.several,
            self.stuck,
            self.contradiction,
            self.limit,
            format_total(self.time)
        )
    }

    /// The per-rule table, with the deducers' rows, totals, outcomes and the total solve time.
    pub fn rules_table(&self) -> String {
        let deducer_rows: Vec<(&str, u64)> = self
            .switches
            .iter()
            .map(|d| (d.row(), self.deciders.by[d]))
            .collect();
        let name_width = self
            .names
            .iter()
            .map(|n| n.len())
            .chain(deducer_rows.iter().map(|(name, _)| name.len()))
            .chain(["rule".len()])
            .max()
            .unwrap_or(0);
        let total_decided: u64 = self.rules.iter().map(|r| r.decided).sum::<u64>()
            + deducer_rows.iter().map(|&(_, n)| n).sum::<u64>();
        let mut t = Table {
            s: String::new(),
            name_width,
            total_decided: total_decided as f64,
        };
        writeln!(t.s, "{}", self.summary()).unwrap();
        t.line(
            "rule",
            [
                "fired".into(),
                "edges".into(),
                "edges %".into(),
                "tests tried".into(),
                "time % (est.)".into(),
            ],
        );
        let uncounted = self.rule_rows(&mut t);
        for &(name, n) in &deducer_rows {
            t.line(
                name,
                [
                    "-".into(),
                    n.to_string(),
                    share(n as f64, t.total_decided),
                    "-".into(),
                    "-".into(),
                ],
            );
        }
        let attributed: f64 = self.rules.iter().map(|r| r.seconds).sum();
        let total_fired: u64 = self.rules.iter().map(|r| r.fired).sum();
        let total_tried: u64 = self.rules.iter().map(|r| r.tried).sum();
        t.line(
            "total",
            [
                total_fired.to_string(),
                total_decided.to_string(),
                share(t.total_decided, t.total_decided),
                total_tried.to_string(),
                share(attributed, self.time.as_secs_f64()),
            ],
        );
        self.rules_table_notes(&mut t.s, uncounted);
        t.s
    }

    /// The rules' rows of the rule table, in [`Stats::rule_order`]; returns whether a rule's
    /// tests and time were not counted.
    fn rule_rows(&self, t: &mut Table) -> bool {
        let total_seconds = self.time.as_secs_f64();
        let mut uncounted = false;
        for r in self.rule_order() {
            let c = &self.rules[r];
            let (tried, time) = if c.tried == 0 && c.fired > 0 {
                uncounted = true;
                ("n/c".to_string(), "n/c".to_string())
            } else {
                (c.tried.to_string(), share(c.seconds, total_seconds))
            };
            let edge_share = share(c.decided as f64, t.total_decided);
            t.line(
                &self.names[r],
                [
                    c.fired.to_string(),
                    c.decided.to_string(),
                    edge_share,
                    tried,
                    time,
                ],
            );
        }
        uncounted
    }

    /// The lines under the rule table: probing and search figures, what the columns mean, and
    /// what time went unattributed.
    fn rules_table_notes(&self, s: &mut String, uncounted: bool) {
        if self.switches.contains(Deducer::Probing) || self.switches.contains(Deducer::Search) {
            writeln!(s, "probes: {}; search nodes: {}", self.probes, self.nodes).unwrap();
        }
        writeln!(
            s,
            "edges: the edges of the final boards each rule or deducer decided; fired and tests tried: all the work, probes and search branches that were taken back included"
        )
        .unwrap();
        writeln!(
            s,
            "time % (est.): each puzzle's solve time (deducers and bookkeeping included) is split over the rules in proportion to the premise tests they tried in it"
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
    }

    /// One line per puzzle: number, size, outcome, time, edges left to each deducer and to
    /// nobody, probes and search nodes, and the rules that decided its edges (most first,
    /// with their edge counts).
    pub fn puzzles_table(&self) -> String {
        let mut s = String::new();
        write!(
            s,
            "{:>7}  {:>7}  {:<11}  {:>10}",
            "puzzle", "size", "outcome", "time ms"
        )
        .unwrap();
        for d in Deducer::ALL {
            write!(s, "  {:>7}", d.column()).unwrap();
        }
        writeln!(
            s,
            "  {:>7}  {:>7}  {:>7}  rules needed (edges decided)",
            "unknown", "probes", "nodes"
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
            let d = &p.deciders;
            write!(
                s,
                "{:>7}  {:>7}  {:<11}  {:>10.3}",
                p.number,
                size,
                p.ending.word(),
                p.time.as_secs_f64() * 1e3,
            )
            .unwrap();
            for (_, n) in d.by.iter() {
                write!(s, "  {n:>7}").unwrap();
            }
            writeln!(
                s,
                "  {:>7}  {:>7}  {:>7}  {rules}",
                p.unknown, p.report.probes, p.report.search.nodes,
            )
            .unwrap();
        }
        s
    }
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

/// The rule table being written: its text, the width of its name column, and the edges
/// decided in all (the whole of the edge shares).
struct Table {
    s: String,
    name_width: usize,
    total_decided: f64,
}

impl Table {
    /// One row: a name and five columns (fired, edges, edge share, tests tried, time share).
    fn line(&mut self, name: &str, cols: [String; 5]) {
        let [fired, edges, edge_share, tried, time] = cols;
        let name_width = self.name_width;
        writeln!(
            self.s,
            "{name:<name_width$}  {fired:>10}  {edges:>10}  {edge_share:>7}  {tried:>12}  {time:>13}"
        )
        .unwrap();
    }
}

/// A part of a whole in per cent with one decimal, or `-` for no whole.
fn share(part: f64, whole: f64) -> String {
    if whole > 0.0 {
        format!("{:.1}", 100.0 * part / whole)
    } else {
        "-".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse_all;
    use crate::rules::RuleSet;
    use crate::solve::{SolveOptions, Solver};

    /// The official sample: four puzzles the built-in rules finish.
    const SAMPLE: &str = include_str!("../tests/data/sample.in");

    fn book() -> RuleBook {
        RuleBook::new(RuleSet::builtin())
    }

    fn solver() -> Solver {
        Solver::with_options(
            book(),
            SolveOptions {
                reasons: true,
                ..SolveOptions::default()
            },
        )
    }

    fn stats(view: StatsView) -> Stats {
        let book = book();
        let switches = book.deducers();
        Stats::new(&book, switches, view)
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
                tally.tried[v] = 5;
            }
        }
        let variants = book.variants.iter().filter(|v| v.rule == zero).count() as u64;
        let mut stats = stats(StatsView::Rules);
        let mut deciders = Deciders {
            per_rule: vec![0; book.set.rules.len()],
            ..Deciders::default()
        };
        deciders.per_rule[zero] = 7;
        stats.add_counts(Ending::Solved, Duration::from_millis(4), &tally, &deciders);
        let c = &stats.rules[zero];
        assert_eq!(
            (c.fired, c.decided, c.tried),
            (2 * variants, 7, 5 * variants)
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
        let mut stats = stats(StatsView::Rules);
        let none = Deciders::default();
        stats.add_counts(Ending::Stuck, Duration::from_millis(8), &tally, &none);
        stats.add_counts(
            Ending::Contradiction,
            Duration::from_millis(2),
            &Tally::new(book.variants.len()),
            &none,
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
        let mut stats = stats(StatsView::Puzzles);
        let mut solver = solver();
        // The sample, plus a Slitherlink puzzle that needs probing or search.
        let mut puzzles = parse_all("sample", SAMPLE.as_bytes()).unwrap();
        puzzles.extend(parse_all("blank", b"3 3\n3 . .\n. . .\n. . 3\n0 0\n").unwrap());
        for (k, p) in puzzles.iter().enumerate() {
            stats.solve(&mut solver, k + 1, p);
        }
        assert_eq!(stats.puzzles.len(), puzzles.len());
        assert_eq!(stats.puzzle_count(), puzzles.len());
        let mut from_lines = 0;
        for (line, p) in stats.puzzles.iter().zip(&puzzles) {
            let edges = (p.rows + 1) * p.cols + p.rows * (p.cols + 1);
            let d = &line.deciders;
            let by_deducers = d.by.total();
            assert_eq!(
                d.by_rules() + by_deducers + line.unknown as u64,
                edges as u64,
                "puzzle {}",
                line.number
            );
            assert!(
                line.rules.windows(2).all(|w| w[0].1 >= w[1].1),
                "most edges first"
            );
            from_lines += d.by_rules() + by_deducers;
        }
        let d = &stats.deciders;
        let from_totals: u64 = stats.rules.iter().map(|r| r.decided).sum::<u64>() + d.by.total();
        assert_eq!(from_lines, from_totals);
    }

    #[test]
    fn tables_name_every_rule_every_deducer_and_every_puzzle() {
        let book = book();
        let names: Vec<String> = book.set.rules.iter().map(|r| r.name.clone()).collect();
        let mut stats = stats(StatsView::Puzzles);
        let mut solver = solver();
        for (k, p) in parse_all("sample", SAMPLE.as_bytes())
            .unwrap()
            .iter()
            .enumerate()
        {
            let attempt = stats.solve(&mut solver, k + 1, p);
            assert_eq!(attempt.outcome, Outcome::Solved);
        }
        let report = stats.report();
        for row in [
            "time % (est.)",
            "loop closure",
            "colouring",
            "probing",
            "search guesses",
        ] {
            assert!(report.contains(row), "{row}: {report}");
        }
        assert!(
            report.contains("4 puzzles: 4 solved, 0 with several solutions, 0 stuck"),
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
        let order = stats.rule_order();
        assert!(
            order
                .windows(2)
                .all(|w| stats.rules[w[0]].decided >= stats.rules[w[1]].decided)
        );
    }

    #[test]
    fn solving_leaves_the_scratch_tally_empty() {
        let mut stats = stats(StatsView::Rules);
        let mut solver = solver();
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
