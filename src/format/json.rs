//! One JSON object per puzzle (one per line): clues, every edge's state, the outcome, and what solving took.
//!
//! Edge states are strings of one character per edge, row by row: `L` line, `x` cross, `?`
//! unknown; `horizontal` has a string per dot row (`cols` edges each), `vertical` one per
//! cell row (`cols + 1` edges). Clues are strings per row, `.` for a blank.

use crate::deduce::ambiguity::Ambiguity;
use crate::deduce::{Deducer, PerDeducer};
use crate::format::view::{Edge, Marked, View};
use crate::solve::{Outcome, Report};
use serde::Serialize;

/// The JSON record of one puzzle.
#[derive(Clone, Debug, Serialize)]
pub struct Record {
    /// Its number in the stream (1, 2, ...).
    pub puzzle: usize,
    /// Where it was read from.
    pub source: String,
    /// Cells down.
    pub rows: usize,
    /// Cells across.
    pub cols: usize,
    /// Clues, one string per row (`.` blank).
    pub clues: Vec<String>,
    /// `solved`, `several`, `stuck`, `no-solution` or `limit`.
    pub outcome: &'static str,
    /// Whether `edges` holds an answer (one loop meeting every clue).
    pub answer: bool,
    /// Why it ended otherwise than solved, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Every edge's state.
    pub edges: Edges,
    /// Answers counted, up to `--count N` (with several answers, or when asked).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solutions: Option<u64>,
    /// The edges the same in every answer (`L`, `x`) and those that differ (`?`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub facts: Option<Edges>,
    /// Clues that make the answer unique, best first (with `--suggest`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestions: Option<Vec<SuggestionRecord>>,
    /// What solving took.
    pub stats: Stats,
    /// The difficulty grade.
    pub grade: Grade,
}

/// Edge states, one string per row (see the module notes).
#[derive(Clone, Debug, Serialize)]
pub struct Edges {
    /// Per dot row, `cols` edges.
    pub horizontal: Vec<String>,
    /// Per cell row, `cols + 1` edges.
    pub vertical: Vec<String>,
}

/// A clue proposed for a blank cell.
#[derive(Clone, Debug, Serialize)]
pub struct SuggestionRecord {
    /// Row and column, from 0.
    pub cell: [usize; 2],
    /// The clue.
    pub clue: u8,
    /// Edges still undetermined with it (0: the answer is then unique).
    pub undetermined: usize,
}

/// What solving one puzzle took.
#[derive(Clone, Debug, Serialize)]
pub struct Stats {
    /// Solve time in milliseconds.
    pub time_ms: f64,
    /// Probes made.
    pub probes: u64,
    /// Search nodes (guesses).
    pub nodes: u64,
    /// Edges decided by each deducer (work: in probes and search branches too), keyed by
    /// the deducer's name.
    pub decided: PerDeducer<u64>,
}

/// How hard a puzzle was: what it needed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Grade {
    /// The highest rule level that ran.
    pub level: u32,
    /// Which deducers were needed (decided an edge; search: guessed; colouring: it or a
    /// colour rule decided an edge), keyed by name.
    pub needed: PerDeducer<bool>,
    /// Probes that decided something: the trial a person would need.
    pub probes: u64,
    /// The depth of the deepest probe that decided an edge by a contradiction: the edges its
    /// failed way decided before it broke (0 when none did). Tells easy trial from hard.
    pub depth: u64,
    /// Search nodes (solver calls and their conflicts): the trial past probing.
    pub nodes: u64,
}

impl Grade {
    /// The grade of a puzzle solved with this report.
    pub fn of(report: &Report) -> Grade {
        let mut needed = report.decided.map(|_, &n| n > 0);
        needed[Deducer::Search] = report.search.nodes > 0;
        // A colour rule's step needs colouring: the rules with colour letters state what
        // the colour store implies.
        needed[Deducer::Colouring] |= report.colour_rules > 0;
        Grade {
            level: report.level,
            needed,
            probes: report.useful_probes,
            depth: report.deepest_probe,
            nodes: report.search.nodes,
        }
    }

    /// A one-line summary, e.g. `level 2; loop closure, probing; no search`.
    pub fn summary(&self) -> String {
        let used: Vec<String> = self
            .needed
            .iter()
            .filter(|&(d, &on)| on && d != Deducer::Search)
            .map(|(d, _)| match d {
                Deducer::Probing => format!(
                    "probing ({} probe{}, deepest {})",
                    self.probes,
                    if self.probes == 1 { "" } else { "s" },
                    crate::format::words::count(self.depth, "edge")
                ),
                d => d.words().to_string(),
            })
            .collect();
        let used = if used.is_empty() {
            "rules only".to_string()
        } else {
            used.join(", ")
        };
        let search = if self.needed[Deducer::Search] {
            format!(
                "search ({})",
                crate::format::words::count(self.nodes, "node")
            )
        } else {
            "no search".to_string()
        };
        format!("level {}; {used}; {search}", self.level)
    }
}

/// The JSON record of a puzzle that could not be read: `outcome` is `error`.
#[derive(Clone, Debug, Serialize)]
pub struct ErrorRecord<'a> {
    /// Its number in the stream.
    pub puzzle: usize,
    /// Where it was read from.
    pub source: &'a str,
    /// `error`.
    pub outcome: &'static str,
    /// No answer.
    pub answer: bool,
    /// Why it could not be read, with its position.
    pub message: &'a str,
}

impl<'a> ErrorRecord<'a> {
    /// The record of puzzle `puzzle` of `source`, which could not be read for `message`.
    pub fn new(puzzle: usize, source: &'a str, message: &'a str) -> Self {
        ErrorRecord {
            puzzle,
            source,
            outcome: "error",
            answer: false,
            message,
        }
    }

    /// The record as one line of JSON (with its `\n`).
    pub fn line(&self) -> String {
        let mut s = serde_json::to_string(self).expect("records serialize");
        s.push('\n');
        s
    }
}

/// The word of an outcome.
pub fn outcome_word(outcome: &Outcome) -> &'static str {
    match outcome {
        Outcome::Solved => "solved",
        Outcome::Several => "several",
        Outcome::Stuck { .. } => "stuck",
        Outcome::Contradiction(_) => "no-solution",
        Outcome::Limit { .. } => "limit",
    }
}

impl Edges {
    /// A view's edge states.
    pub fn of(view: &impl View) -> Edges {
        let (rows, cols) = (view.rows(), view.cols());
        Edges {
            horizontal: (0..=rows)
                .map(|r| (0..cols).map(|c| edge_char(view.h(r, c))).collect())
                .collect(),
            vertical: (0..rows)
                .map(|r| (0..=cols).map(|c| edge_char(view.v(r, c))).collect())
                .collect(),
        }
    }
}

fn edge_char(e: Edge) -> char {
    match e {
        Edge::Line => 'L',
        Edge::Cross => 'x',
        Edge::Unknown => '?',
    }
}

impl Record {
    /// The record of a puzzle's board and outcome.
    pub fn new(
        puzzle: usize,
        source: &str,
        view: &impl View,
        outcome: &Outcome,
        report: &Report,
        time_ms: f64,
        message: Option<String>,
    ) -> Record {
        let (rows, cols) = (view.rows(), view.cols());
        Record {
            puzzle,
            source: source.to_string(),
            rows,
            cols,
            clues: (0..rows)
                .map(|r| {
                    (0..cols)
                        .map(|c| view.clue(r, c).map_or('.', |n| char::from(b'0' + n)))
                        .collect()
                })
                .collect(),
            outcome: outcome_word(outcome),
            answer: outcome.has_answer(),
            message,
            edges: Edges::of(view),
            solutions: None,
            facts: None,
            suggestions: None,
            stats: Stats {
                time_ms,
                probes: report.probes,
                nodes: report.search.nodes,
                decided: report.decided,
            },
            grade: Grade::of(report),
        }
    }

    /// The record with what is known about the answers: their count, the facts and (when
    /// `suggest`) the suggested clues.
    pub fn with_ambiguity(
        mut self,
        ambiguity: &Ambiguity,
        marked: &Marked<'_>,
        suggest: bool,
    ) -> Record {
        self.solutions = Some(ambiguity.solutions);
        let mut facts = Edges::of(marked);
        for (r, row) in facts.horizontal.iter_mut().enumerate() {
            *row = (0..self.cols)
                .map(|c| match marked.undetermined_h(r, c) {
                    true => '?',
                    false => edge_char(marked.h(r, c)),
                })
                .collect();
        }
        for (r, row) in facts.vertical.iter_mut().enumerate() {
            *row = (0..=self.cols)
                .map(|c| match marked.undetermined_v(r, c) {
                    true => '?',
                    false => edge_char(marked.v(r, c)),
                })
                .collect();
        }
        // Only complete facts are written (see `Ambiguity::complete`).
        self.facts = ambiguity.complete.then_some(facts);
        if suggest {
            self.suggestions = Some(
                ambiguity
                    .suggestions
                    .iter()
                    .map(|s| SuggestionRecord {
                        cell: [s.row, s.col],
                        clue: s.clue,
                        undetermined: s.undetermined,
                    })
                    .collect(),
            );
        }
        self
    }

    /// The record as one line of JSON (with its `\n`).
    pub fn line(&self) -> String {
        let mut s = serde_json::to_string(self).expect("records serialize");
        s.push('\n');
        s
    }
}
