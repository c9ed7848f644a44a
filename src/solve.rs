//! Solving one puzzle with a rule book: lay out the board, deduce (rules, loop closure, colouring, probing), search when deduction is stuck, and name the outcome.

use crate::board::{Board, Contradiction, LINE, Reason, Tracking};
use crate::deduce::ambiguity::{Ambiguity, AmbiguityOptions, analyse};
use crate::deduce::budget::{Budget, Halt, Limit};
use crate::deduce::probing::Prober;
use crate::deduce::search::{Found, SearchCounts, exhausted, search};
use crate::deduce::{Deducer, DeducerSet, PerDeducer};
use crate::engine::{Engine, Tally, Workspace};
use crate::puzzle::Puzzle;
use crate::rules::compile::{RuleBook, StageCache};
use crate::rules::{Rule, RuleSet};
use crate::verify::check_answer;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// How solving a puzzle ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The lines form one loop meeting every clue, and no other answer exists (found by
    /// deduction alone, or by a search that went through every way).
    Solved,
    /// The board holds one answer, and search found another: the puzzle has several.
    Several,
    /// Deduction ran out with this many edges undecided, and search is off.
    Stuck {
        /// Grid edges still unknown.
        unknown: usize,
    },
    /// The puzzle has no solution.
    Contradiction(Contradiction),
    /// A budget ran out before the puzzle was finished.
    Limit {
        /// Which budget.
        limit: Limit,
        /// Whether the board holds an answer (found by search, not proven the only one).
        found: bool,
    },
}

impl Outcome {
    /// Whether the board holds an answer to print.
    pub fn has_answer(&self) -> bool {
        matches!(
            self,
            Outcome::Solved | Outcome::Several | Outcome::Limit { found: true, .. }
        )
    }
}

/// How a puzzle may be solved: which deducers (of those the rule set switches on) and what budget.
#[derive(Clone, Copy, Debug, Default)]
pub struct SolveOptions {
    /// Deducers allowed (a mask over the rule set's `use` lines).
    pub switches: DeducerSet,
    /// At most this many search nodes per puzzle.
    pub max_nodes: Option<u64>,
    /// At most this much time per puzzle.
    pub timeout: Option<Duration>,
    /// Keep the reason of every decided edge (statistics, explanations).
    pub reasons: bool,
}

/// What solving one puzzle took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// The highest rule level that ran.
    pub level: u32,
    /// Edges each deducer decided (work: in probes and search branches too).
    pub decided: PerDeducer<u64>,
    /// Edges decided by the colour rules (work: in probes and search branches too; counted
    /// among the rules' edges, not in `decided`).
    pub colour_rules: u64,
    /// Whether colouring came on (the rules and loop closure were stuck).
    pub colouring_on: bool,
    /// Probes made.
    pub probes: u64,
    /// Probes that decided something (on the way to the answer and in search branches).
    pub useful_probes: u64,
    /// The longest chain of a probe that decided its edge by a contradiction: the edges its
    /// failed way decided before it broke.
    pub deepest_probe: u64,
    /// What search did.
    pub search: SearchCounts,
}

/// One puzzle's board, outcome and report.
#[derive(Clone)]
pub struct Attempt {
    /// The board as far as solving took it (the first answer when there is one).
    pub board: Board,
    /// How it ended.
    pub outcome: Outcome,
    /// What it took.
    pub report: Report,
    /// What the answers share and how many there are: for several answers, or when asked
    /// ([`SolveOptions::ambiguity`]); `None` when not worked out (or a budget ran out).
    pub ambiguity: Option<Ambiguity>,
}

/// Solves puzzles with one rule book, keeping matchers for the grid widths it has seen.
pub struct Solver {
    book: RuleBook,
    stages: StageCache,
    options: SolveOptions,
    prober: Prober,
    /// A board handed back by [`Solver::recycle`], reused for the next puzzle.
    spare: Option<Board>,
    /// The engine's buffers, kept from one puzzle to the next.
    workspace: Workspace,
    /// See [`Solver::set_ambiguity`].
    ambiguity: Option<AmbiguityOptions>,
    /// See [`Solver::set_unasked_ambiguity`].
    unasked: bool,
    /// The second answer search found in the last solve, when it found one.
    second: Option<Board>,
    /// See [`Solver::with_probing_instead`].
    late: Option<Late>,
}

/// The rules probing stands in for (`use probing instead of level N`: those of level N and
/// up), kept aside by a plain solve ([`Solver::with_probing_instead`]): on the corpus's
/// puzzles probing finds what they would, for less than trying them everywhere; where
/// probing is stuck (big or ambiguous puzzles, before search) they come on, on the same
/// board, and probing looks again where they decided something.
#[derive(Clone)]
pub struct Late {
    /// The N.
    level: u32,
    /// The rules of level N and up.
    rules: LateRules,
    /// The rule book of the solver's rules followed by these (so that the solver's variants
    /// keep their numbers), made when first needed and shared by sibling solvers.
    book: Arc<OnceLock<RuleBook>>,
    /// Its matchers, per stride.
    stages: StageCache,
}

/// Where the rules probing stands in for come from.
#[derive(Clone)]
pub enum LateRules {
    /// The built-in files holding them, read when first needed (see
    /// [`RuleSet::builtin_to_solve_with_probing`]).
    Builtin,
    /// Rules read already (from `--rules` directories).
    Read(Arc<Vec<Rule>>),
}

/// The board margin the whole built-in set needs, its learned rules of level 4 included: the
/// boards of a plain solve, whose rule book leaves those out, are laid out with it, so that
/// they can come on later on the same board. The test suite checks it.
pub const BUILTIN_MARGIN: usize = 16;

impl LateRules {
    /// The whole set's rule book in `book`, made now if it was not yet.
    fn whole<'a>(&self, book: &'a OnceLock<RuleBook>, main: &RuleBook) -> &'a RuleBook {
        book.get_or_init(|| {
            let mut set = RuleSet {
                rules: main.set.rules.clone(),
                deducers: main.set.deducers.clone(),
                probing_replaces: main.set.probing_replaces,
            };
            match self {
                LateRules::Builtin => set.rules.extend(RuleSet::builtin_late_rules()),
                LateRules::Read(rules) => set.rules.extend(rules.iter().cloned()),
            }
            RuleBook::new(set)
        })
    }
}

impl Solver {
    /// A solver for a rule book, with every deducer the rule set switches on and no budget.
    pub fn new(book: RuleBook) -> Solver {
        Solver::with_options(book, SolveOptions::default())
    }

    /// A solver for a rule book with these options.
    pub fn with_options(book: RuleBook, options: SolveOptions) -> Solver {
        Solver {
            book,
            stages: StageCache::new(),
            options,
            prober: Prober::new(),
            spare: None,
            workspace: Workspace::default(),
            ambiguity: None,
            unasked: false,
            second: None,
            late: None,
        }
    }

    /// A solver for a plain solve: `book` holds the rules below the level N of `use probing
    /// instead of level N`, and `late` the others, which come on only when probing is stuck
    /// (see [`Late`]). `book`'s margin is raised to what the whole set needs.
    pub fn with_probing_instead(
        mut book: RuleBook,
        options: SolveOptions,
        late: LateRules,
    ) -> Solver {
        let Some(level) = book.set.probing_replaces else {
            return Solver::with_options(book, options);
        };
        let whole = Arc::new(OnceLock::new());
        match &late {
            LateRules::Builtin => book.margin = book.margin.max(BUILTIN_MARGIN),
            LateRules::Read(rules) => {
                let mut set = book.set.clone();
                set.rules.extend(rules.iter().cloned());
                let full = RuleBook::new(set);
                book.margin = book.margin.max(full.margin);
                let _ = whole.set(full);
            }
        }
        let mut solver = Solver::with_options(book, options);
        solver.late = Some(Late {
            level,
            rules: late,
            book: whole,
            stages: StageCache::new(),
        });
        solver
    }

    /// Works out what the answers share, counts them and suggests clues with these options
    /// (`--count`, `--suggest`), for a puzzle with one answer too; a puzzle with several
    /// answers gets it anyway, with the default options.
    pub fn set_ambiguity(&mut self, options: AmbiguityOptions) {
        self.ambiguity = Some(options);
    }

    /// Works out what the answers share for a puzzle with several answers even when not
    /// asked (bounded: see [`AUTO_TIME`]), as `slink` does for the line it writes on stderr.
    /// Off by default, so that a caller that only wants the verdict (the generator, hints)
    /// does not pay for it.
    pub fn set_unasked_ambiguity(&mut self, on: bool) {
        self.unasked = on;
    }

    /// A solver of its own with the same rule book and options (one per thread).
    pub fn sibling(&self) -> Solver {
        let mut solver = Solver::with_options(self.book.clone(), self.options);
        solver.ambiguity = self.ambiguity;
        solver.unasked = self.unasked;
        solver.prober.shortest = self.prober.shortest;
        solver.late = self.late.as_ref().map(|late| Late {
            stages: StageCache::new(),
            ..late.clone()
        });
        solver
    }

    /// For explanations: when several probes would decide an edge by a contradiction, take
    /// the one whose chain is shortest (among the next few candidates; slower, so off by
    /// default).
    pub fn set_shortest_probes(&mut self, on: bool) {
        self.prober.shortest = on;
    }

    /// The rule book in use.
    pub fn book(&self) -> &RuleBook {
        &self.book
    }

    /// The options in use.
    pub fn options(&self) -> SolveOptions {
        self.options
    }

    /// The deducers in use: those the rule set switches on and the options allow.
    pub fn switches(&self) -> DeducerSet {
        self.book.deducers().and(self.options.switches)
    }

    /// The second answer of the last puzzle solved, when search found one (the outcome was
    /// [`Outcome::Several`]); the board returned holds the first.
    pub fn take_second(&mut self) -> Option<Board> {
        self.second.take()
    }

    /// Takes back a board that is no longer needed, to lay out the next puzzle on its memory
    /// (a stream of puzzles then allocates nothing after the first).
    pub fn recycle(&mut self, board: Board) {
        self.spare = Some(board);
    }

    /// Solves a puzzle; returns the board as far as solving took it, and the outcome.
    pub fn solve(&mut self, puzzle: &Puzzle) -> (Board, Outcome) {
        let a = self.attempt(puzzle);
        (a.board, a.outcome)
    }

    /// Solves a puzzle and reports what it took.
    pub fn attempt(&mut self, puzzle: &Puzzle) -> Attempt {
        self.run(puzzle, None, &[])
    }

    /// Solves a puzzle from marks already made: each `(y, x, state)` (an edge on the doubled
    /// grid, [`crate::board::LINE`] or [`crate::board::CROSS`]) is set as given
    /// ([`Reason::Given`]) before deduction starts. Marks that break a clue or a dot at once
    /// end the attempt as a contradiction.
    pub fn attempt_from(&mut self, puzzle: &Puzzle, givens: &[(usize, usize, u8)]) -> Attempt {
        self.run(puzzle, None, givens)
    }

    /// Solves a puzzle, adding what each variant did to `tally`.
    pub fn attempt_counting(&mut self, puzzle: &Puzzle, tally: &mut Tally) -> Attempt {
        self.run(puzzle, Some(tally), &[])
    }

    fn run(
        &mut self,
        puzzle: &Puzzle,
        tally: Option<&mut Tally>,
        givens: &[(usize, usize, u8)],
    ) -> Attempt {
        let switches = self.switches();
        let tracking = Tracking {
            closures: switches.contains(Deducer::LoopClosure),
            reasons: self.options.reasons,
        };
        let board = match self.spare.take() {
            Some(mut board) => {
                board.reset(puzzle, self.book.margin, tracking);
                board
            }
            None => Board::new(puzzle, self.book.margin, tracking),
        };
        let mut board = board;
        for &(y, x, state) in givens {
            let i = board.index(y as isize, x as isize);
            if let Err(c) = board.set_edge(i, state, Reason::Given) {
                return Attempt {
                    board,
                    outcome: Outcome::Contradiction(c),
                    report: Report::default(),
                    ambiguity: None,
                };
            }
        }
        let stride = board.stride();
        let book = &self.book;
        let single_loop = book.single_loop_rules_apply(puzzle);
        let stages = self.stages.get(book, stride, single_loop);
        let engine = Engine::new(book, &stages)
            .with_switches(switches)
            .with_workspace(std::mem::take(&mut self.workspace));
        let prober = &mut self.prober;
        prober.begin();
        let second = &mut self.second;
        *second = None;
        let late = self.late.as_mut().map(|late| LateRun {
            late,
            main: book,
            puzzle,
        });
        let (attempt, workspace) = match tally {
            Some(t) => finish(
                engine.with_tally(t),
                board,
                prober,
                &self.options,
                (self.ambiguity, self.unasked),
                second,
                late,
            ),
            None => finish(
                engine,
                board,
                prober,
                &self.options,
                (self.ambiguity, self.unasked),
                second,
                late,
            ),
        };
        self.workspace = workspace;
        attempt
    }
}

/// What bringing the rules probing stands in for on needs ([`Late`]).
struct LateRun<'a> {
    late: &'a mut Late,
    /// The solver's rule book.
    main: &'a RuleBook,
    puzzle: &'a Puzzle,
}

/// Once probing is stuck: brings the rules it stands in for on, on the same board, and probes
/// again if they decided something. Adds what their engine decided to `report`, and hands
/// the engine's buffers back to `engine`.
fn bring_late_rules<const C: bool>(
    run: LateRun<'_>,
    engine: &mut Engine<'_, C>,
    board: &mut Board,
    prober: &mut Prober,
    budget: &Budget,
    report: &mut Report,
) -> Result<(), Halt> {
    let LateRun { late, main, puzzle } = run;
    let whole = late.rules.whole(&late.book, main);
    // The board must be wide enough for every rule (see BUILTIN_MARGIN); if it is not, the
    // rules stay aside and search settles what probing left.
    debug_assert!(whole.margin <= main.margin, "BUILTIN_MARGIN is too small");
    if whole.margin > main.margin {
        return Ok(());
    }
    let stages = late
        .stages
        .get(whole, board.stride(), whole.single_loop_rules_apply(puzzle));
    let mut own = Engine::new(whole, &stages)
        .with_switches(engine.switches())
        .with_workspace(engine.take_workspace())
        .holding_back_from(late.level);
    let before = board.unknown();
    let result = own
        .release(board)
        .map_err(Halt::Contradiction)
        .and_then(|level| {
            report.level = report.level.max(level.unwrap_or(0));
            // Probing looks again where they decided something (on small boards: everywhere,
            // as after any change).
            if board.unknown() > 0 && board.unknown() < before {
                probe_and_settle(&mut own, board, prober, budget)
            } else {
                Ok(())
            }
        });
    report.decided.add(&own.deduced());
    report.colour_rules += own.colour_decided();
    engine.put_workspace(own.take_workspace());
    result
}

/// Deduces, probes and searches as the engine's switches say; hands back the engine's buffers.
fn finish<const C: bool>(
    mut engine: Engine<'_, C>,
    mut board: Board,
    prober: &mut Prober,
    options: &SolveOptions,
    (asked, unasked): (Option<AmbiguityOptions>, bool),
    second: &mut Option<Board>,
    late: Option<LateRun<'_>>,
) -> (Attempt, Workspace) {
    let switches = engine.switches();
    let mut budget = Budget::new(options.max_nodes, options.timeout);
    let mut report = Report::default();
    let mut ambiguity = None;
    let outcome = 'outcome: {
        match engine.start(&mut board) {
            Ok(level) => report.level = level,
            Err(c) => break 'outcome Outcome::Contradiction(c),
        }
        report.colouring_on = board.colouring().is_some();
        if board.unknown() > 0 && switches.contains(Deducer::Probing) {
            let mut probed = probe_and_settle(&mut engine, &mut board, prober, &budget);
            if probed.is_ok()
                && board.unknown() > 0
                && let Some(late) = late
            {
                probed =
                    bring_late_rules(late, &mut engine, &mut board, prober, &budget, &mut report);
            }
            match probed {
                Ok(()) => {}
                Err(Halt::Contradiction(c)) => break 'outcome Outcome::Contradiction(c),
                Err(Halt::Limit(limit)) => {
                    break 'outcome Outcome::Limit {
                        limit,
                        found: false,
                    };
                }
            }
        }
        if board.unknown() > 0 && switches.contains(Deducer::Search) {
            let mut found = Found::default();
            let searching = Instant::now();
            let result = search(&mut board, &mut budget, &mut report.search, &mut found);
            let no_solution = exhausted(&board);
            let any = found.first.is_some();
            if result.is_ok()
                && found.several
                && (asked.is_some() || unasked)
                && let Some(first) = &found.first
            {
                // Its own counts: the grade and the statistics stay those of the verdict.
                let mut counts = SearchCounts::default();
                let options = asked.unwrap_or_default();
                let took = searching.elapsed();
                if asked.is_none()
                    && took >= AUTO_TIME.1
                    && let Some(second) = &found.second
                {
                    // Unasked, after a search that took longer than the analysis may: the
                    // analysis starts a solver afresh, and its first question alone takes
                    // about as long as the verdict's search, so it would find nothing; the
                    // two answers in hand say as much as it could.
                    ambiguity = Some(two_answers(first, second, options));
                } else {
                    // Unasked, it may take a bounded time past the verdict's (see AUTO_TIME).
                    let mut own = match asked {
                        Some(_) => None,
                        None => Some(auto_budget(&budget, took)),
                    };
                    let budget = own.as_mut().unwrap_or(&mut budget);
                    ambiguity = analyse(&mut board, first, options, budget, &mut counts).ok();
                }
            }
            *second = found.second;
            if let Some(first) = found.first {
                board = first;
            }
            break 'outcome match result {
                Err(Halt::Limit(limit)) => Outcome::Limit { limit, found: any },
                Err(Halt::Contradiction(c)) => Outcome::Contradiction(c),
                Ok(()) if !any => Outcome::Contradiction(no_solution),
                Ok(()) if found.several => Outcome::Several,
                Ok(()) => Outcome::Solved,
            };
        }
        match check_answer(&board) {
            Ok(()) => Outcome::Solved,
            Err(c) if board.unknown() == 0 => Outcome::Contradiction(c),
            Err(_) => Outcome::Stuck {
                unknown: board.unknown(),
            },
        }
    };
    if outcome == Outcome::Solved
        && let Some(options) = asked
    {
        ambiguity = Some(Ambiguity::unique(options));
    }
    report.decided.add(&engine.deduced());
    report.colour_rules += engine.colour_decided();
    report.decided[Deducer::Probing] = prober.decided;
    report.probes = prober.probes;
    report.useful_probes = prober.useful;
    report.deepest_probe = prober.deepest;
    let attempt = Attempt {
        board,
        outcome,
        report,
        ambiguity,
    };
    (attempt, engine.take_workspace())
}

/// Unasked (no `--count`, no `--suggest`), working out the facts of a puzzle with several
/// answers takes about as long as the search took, but at least the first and at most the
/// second of these: a verdict gets at most 0.2 s slower (issue 25's goals are on verdicts).
/// When the search took the second or longer, the facts are not worked out at all (the
/// analysis could not answer its first question in that time): what is known is the two
/// answers the search found, and the edges where they differ.
const AUTO_TIME: (Duration, Duration) = (Duration::from_millis(20), Duration::from_millis(200));

/// What two different answers say of a puzzle's answers: at least two, and the edges where
/// they differ undetermined (the rest not worked out).
fn two_answers(first: &Board, second: &Board, options: AmbiguityOptions) -> Ambiguity {
    let undetermined = first
        .grid_edges()
        .filter(|&e| (first.at(e) == LINE) != (second.at(e) == LINE))
        .map(|e| e as u32)
        .collect();
    Ambiguity {
        solutions: 2.min(options.count.max(1)),
        bound: options.count.max(1),
        undetermined,
        complete: false,
        ..Ambiguity::default()
    }
}

/// The budget of an unasked ambiguity analysis (see [`AUTO_TIME`]), within the puzzle's.
fn auto_budget(budget: &Budget, search: Duration) -> Budget {
    let mut time = search.clamp(AUTO_TIME.0, AUTO_TIME.1);
    if let Some(deadline) = budget.deadline() {
        time = time.min(deadline.saturating_duration_since(Instant::now()));
    }
    Budget::new(budget.nodes_left(), Some(time))
}

/// Probes until probing is stuck; whenever probing decided something, the whole-board
/// deducers ([`crate::deduce::Phase::Settle`]) look again, and probing goes on if they did.
fn probe_and_settle<const C: bool>(
    engine: &mut Engine<'_, C>,
    board: &mut Board,
    prober: &mut Prober,
    budget: &Budget,
) -> Result<(), Halt> {
    while prober.run(engine, board, budget)? > 0 && board.unknown() > 0 {
        let before = board.unknown();
        engine.settle(board)?;
        if board.unknown() == before {
            break;
        }
    }
    Ok(())
}
