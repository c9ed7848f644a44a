//! `slink rules ablate`: what each rule is worth on a corpus.
//!
//! The corpus is solved by deduction (search off: with search every solvable puzzle is
//! finished, whatever the rules) with the full rule set, then once more for each rule with
//! that rule left out, and once for each deducer with that deducer switched off. A puzzle is
//! *lost* when the full set finishes it and the smaller one does not. The ablations are independent
//! and run on all available cores; a progress line shows on a terminal when they take long.

use super::corpus::{MAX_CORPUS_CELLS, read_corpus};
use super::io::{Io, say};
use super::{EXIT_BAD_INPUT, EXIT_OK, RulesArg, TrustArg};
use crate::deduce::{Deducer, DeducerSet};
use crate::puzzle::Puzzle;
use crate::rules::RuleSet;
use crate::rules::compile::RuleBook;
use crate::solve::{Outcome, SolveOptions, Solver};
use clap::Args;
use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Options of `slink rules ablate`.
#[derive(Args, Debug, Clone)]
pub struct AblateArgs {
    /// The puzzle stream to measure on.
    #[arg(value_name = "CORPUS")]
    pub corpus: PathBuf,
    #[command(flatten)]
    pub rules: RulesArg,
    #[command(flatten)]
    pub trust: TrustArg,
}

/// Runs the ablation; returns the exit status.
pub fn run(io: &mut Io, args: &AblateArgs) -> i32 {
    let set = match args.rules.set(io, args.trust) {
        Ok(set) => set,
        Err(status) => return status,
    };
    let name = args.corpus.display().to_string();
    let puzzles = match read_corpus(&name, MAX_CORPUS_CELLS) {
        Ok(puzzles) => puzzles,
        Err(message) => {
            say!(io, "slink: {message}");
            return EXIT_BAD_INPUT;
        }
    };
    let progress = io.err_terminal;
    let report = ablate_with(&set, &puzzles, &mut *io.err, progress);
    match io.print(&report.render(&name)) {
        Ok(()) => EXIT_OK,
        Err(status) => status,
    }
}

/// What is left out of the full rule set in one ablation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Removed {
    /// The rule of this index.
    Rule(usize),
    /// This deducer.
    Deducer(Deducer),
}

/// The outcome of one ablation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ablation {
    /// What was left out.
    pub removed: Removed,
    /// Its name (rule name or deducer name).
    pub name: String,
    /// Puzzles the full set finishes and this set does not.
    pub lost: usize,
    /// Puzzles this set finishes and the full set does not (only possible when a rule was
    /// unsound or a contradiction came from a rule rather than from the puzzle).
    pub gained: usize,
}

/// The result of ablating every rule and deducer of a set on a corpus.
#[derive(Clone, Debug)]
pub struct Report {
    /// Puzzles in the corpus.
    pub puzzles: usize,
    /// Puzzles the full set finishes.
    pub solved: usize,
    /// Puzzles the full set leaves stuck.
    pub stuck: usize,
    /// Puzzles the full set finds without solution.
    pub contradiction: usize,
    /// Rules in the full set.
    pub rules: usize,
    /// Deducers in the full set.
    pub deducers: usize,
    /// One entry per rule (in set order) then per deducer.
    pub ablations: Vec<Ablation>,
    /// Wall time of the whole measurement.
    pub elapsed: Duration,
}

/// A solver that deduces only (no search). With `reach`, the rules marked `assumes
/// single-loop` are switched off on the puzzles where the full set switches them off (see
/// [`RuleBook::single_loop_rules_apply`]), so that an ablation measures the rule left out
/// and not a smaller reach (more conservative than the smaller set's own: still sound).
fn deducer(set: RuleSet, reach: Option<Option<usize>>) -> Solver {
    let options = SolveOptions {
        switches: DeducerSet::ALL.without(Deducer::Search),
        ..SolveOptions::default()
    };
    let mut book = RuleBook::new(set);
    if let Some(reach) = reach
        && book.single_loop_reach.is_some()
    {
        book.single_loop_reach = reach;
    }
    Solver::with_options(book, options)
}

/// Which puzzles a rule set finishes by deduction (`reach` as [`deducer`] takes it).
fn finished(set: RuleSet, reach: Option<Option<usize>>, puzzles: &[Puzzle]) -> Vec<bool> {
    let mut solver = deducer(set, reach);
    puzzles
        .iter()
        .map(|p| matches!(solver.solve(p).1, Outcome::Solved))
        .collect()
}

/// The set without one rule or deducer.
fn without(set: &RuleSet, removed: Removed) -> RuleSet {
    let mut smaller = set.clone();
    match removed {
        Removed::Rule(i) => {
            smaller.rules.remove(i);
        }
        Removed::Deducer(d) => smaller.deducers.retain(|&x| x != d),
    }
    smaller
}

/// Solves the corpus with the full set and with every one-rule and one-deducer ablation of it.
///
/// A progress line goes to `err` when `progress` is set and the work takes long.
pub fn ablate_with(
    set: &RuleSet,
    puzzles: &[Puzzle],
    err: &mut (dyn Write + Send),
    progress: bool,
) -> Report {
    let started = Instant::now();
    let mut solver = deducer(set.clone(), None);
    let reach = Some(solver.book().single_loop_reach);
    let (mut stuck, mut contradiction) = (0, 0);
    let full: Vec<bool> = puzzles
        .iter()
        .map(|p| match solver.solve(p).1 {
            Outcome::Solved => true,
            Outcome::Stuck { .. } | Outcome::Several | Outcome::Limit { .. } => {
                stuck += 1;
                false
            }
            Outcome::Contradiction(_) => {
                contradiction += 1;
                false
            }
        })
        .collect();
    let jobs: Vec<(Removed, String)> = set
        .rules
        .iter()
        .enumerate()
        .map(|(i, r)| (Removed::Rule(i), r.name.clone()))
        .chain(
            set.deducers
                .iter()
                .filter(|&&d| d != Deducer::Search)
                .map(|&d| (Removed::Deducer(d), d.name().to_string())),
        )
        .collect();
    let results: Mutex<Vec<Option<Ablation>>> = Mutex::new(vec![None; jobs.len()]);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let err = Mutex::new(err);
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(jobs.len())
        .max(1);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let j = next.fetch_add(1, Ordering::Relaxed);
                    let Some((removed, name)) = jobs.get(j) else {
                        break;
                    };
                    let smaller = finished(without(set, *removed), reach, puzzles);
                    let lost = full
                        .iter()
                        .zip(&smaller)
                        .filter(|&(&f, &s)| f && !s)
                        .count();
                    let gained = full
                        .iter()
                        .zip(&smaller)
                        .filter(|&(&f, &s)| !f && s)
                        .count();
                    results.lock().unwrap()[j] = Some(Ablation {
                        removed: *removed,
                        name: name.clone(),
                        lost,
                        gained,
                    });
                    let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if progress && started.elapsed() > Duration::from_secs(2) {
                        let mut err = err.lock().unwrap();
                        let _ = write!(err, "\rslink: ablated {n} of {}", jobs.len());
                        let _ = err.flush();
                    }
                }
            });
        }
    });
    if progress && started.elapsed() > Duration::from_secs(2) {
        let _ = write!(err.lock().unwrap(), "\r\x1b[K");
    }
    Report {
        puzzles: puzzles.len(),
        solved: full.iter().filter(|&&f| f).count(),
        stuck,
        contradiction,
        rules: set.rules.len(),
        deducers: set.deducers.len(),
        ablations: results
            .into_inner()
            .unwrap()
            .into_iter()
            .map(|a| a.expect("every job ran"))
            .collect(),
        elapsed: started.elapsed(),
    }
}

impl Report {
    /// The printed report: the full set's result, one line per ablation (most puzzles lost
    /// first), and the rules and deducers no puzzle of the corpus needs.
    pub fn render(&self, corpus: &str) -> String {
        let mut s = String::new();
        writeln!(
            s,
            "corpus {corpus}: {} puzzle{}; the full rule set ({} rule{}, {} deducer{}) finishes {} ({} stuck, {} without solution)",
            self.puzzles,
            plural(self.puzzles),
            self.rules,
            plural(self.rules),
            self.deducers,
            plural(self.deducers),
            self.solved,
            self.stuck,
            self.contradiction
        )
        .unwrap();
        let mut order: Vec<&Ablation> = self.ablations.iter().collect();
        order.sort_by_key(|a| std::cmp::Reverse(a.lost));
        let width = order
            .iter()
            .map(|a| a.name.len())
            .chain(["without".len()])
            .max()
            .unwrap_or(0);
        let any_gained = order.iter().any(|a| a.gained > 0);
        writeln!(s).unwrap();
        write!(
            s,
            "{:<width$}  {:<7}  {:>12}  {:>8}",
            "without", "kind", "puzzles lost", "% lost"
        )
        .unwrap();
        if any_gained {
            write!(s, "  {:>6}", "gained").unwrap();
        }
        writeln!(s).unwrap();
        for a in &order {
            let kind = match a.removed {
                Removed::Rule(_) => "rule",
                Removed::Deducer(_) => "deducer",
            };
            let share = if self.solved > 0 {
                format!("{:.1}", 100.0 * a.lost as f64 / self.solved as f64)
            } else {
                "-".to_string()
            };
            write!(
                s,
                "{:<width$}  {kind:<7}  {:>12}  {share:>8}",
                a.name, a.lost
            )
            .unwrap();
            if any_gained {
                write!(s, "  {:>6}", a.gained).unwrap();
            }
            writeln!(s).unwrap();
        }
        let unneeded: Vec<&str> = self
            .ablations
            .iter()
            .filter(|a| a.lost == 0)
            .map(|a| a.name.as_str())
            .collect();
        writeln!(s).unwrap();
        if unneeded.is_empty() {
            writeln!(
                s,
                "every rule and deducer is needed by some puzzle of this corpus"
            )
            .unwrap();
        } else {
            writeln!(
                s,
                "not needed by any puzzle of this corpus ({}): {}",
                unneeded.len(),
                unneeded.join(", ")
            )
            .unwrap();
        }
        if any_gained {
            writeln!(
                s,
                "gained: puzzles finished only without that rule (the full set found a contradiction or got stuck there)"
            )
            .unwrap();
        }
        writeln!(
            s,
            "{} ablation{} in {}",
            self.ablations.len(),
            plural(self.ablations.len()),
            crate::format::words::duration(self.elapsed)
        )
        .unwrap();
        s
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse_all;

    const SAMPLE: &str = "6 6\n0 0 1 1 0 0\n0 2 2 2 2 0\n1 2 0 0 2 1\n1 2 0 0 2 1\n0 2 2 2 2 0\n0 0 1 1 0 0\n2 2\n2 2\n2 2\n0 0\n";

    #[test]
    fn without_drops_exactly_one_thing() {
        let set = RuleSet::builtin();
        let smaller = without(&set, Removed::Rule(0));
        assert_eq!(smaller.rules.len(), set.rules.len() - 1);
        assert!(!smaller.rules.iter().any(|r| r.name == set.rules[0].name));
        let smaller = without(&set, Removed::Deducer(Deducer::LoopClosure));
        assert_eq!(smaller.rules, set.rules);
        assert!(!smaller.uses(Deducer::LoopClosure));
    }

    #[test]
    fn every_rule_and_deducer_is_ablated_and_zero_is_needed() {
        // Without probing and colouring, which would make up for any one rule here.
        let set = without(
            &without(&RuleSet::builtin(), Removed::Deducer(Deducer::Probing)),
            Removed::Deducer(Deducer::Colouring),
        );
        let puzzles = parse_all("sample", SAMPLE.as_bytes()).unwrap();
        let report = ablate_with(&set, &puzzles, &mut std::io::sink(), false);
        assert_eq!((report.puzzles, report.solved), (2, 2));
        // Search is not ablated: ablation measures deduction.
        assert!(set.uses(Deducer::Search));
        assert_eq!(
            report.ablations.len(),
            set.rules.len() + set.deducers.len() - 1
        );
        assert!(!report.ablations.iter().any(|a| a.name == "search"));
        let zero = report.ablations.iter().find(|a| a.name == "zero").unwrap();
        assert!(zero.lost > 0, "the 6x6 sample is mostly zeros");
        let text = report.render("sample");
        for rule in &set.rules {
            assert!(text.contains(&rule.name), "{} missing:\n{text}", rule.name);
        }
        assert!(
            text.contains("not needed by any puzzle of this corpus"),
            "{text}"
        );
        assert!(!text.contains("gained"), "{text}");
    }

    #[test]
    fn an_empty_corpus_needs_nothing() {
        let set = RuleSet::builtin();
        let report = ablate_with(&set, &[], &mut std::io::sink(), false);
        assert_eq!(report.solved, 0);
        assert!(
            report
                .ablations
                .iter()
                .all(|a| a.lost == 0 && a.gained == 0)
        );
        assert!(report.render("empty").contains("% lost"));
    }
}
