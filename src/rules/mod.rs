//! Rule sets: the checked form of rule files, and loading them from a directory or from the copy built into the binary.

pub(crate) mod ast;
pub(crate) mod check;
pub(crate) mod compile;
pub(crate) mod draw;
pub(crate) mod examples;
pub(crate) mod expand;
pub(crate) mod glyphs;
pub(crate) mod grammar;
#[cfg(test)]
mod matcher_tests;
pub(crate) mod prove;
pub(crate) mod write;

// The rule pipeline's stages, for rule authors' tools, the benches and the fuzz targets:
// text -> raw (grammar) -> checked -> expanded -> compiled; the prover and the example runner.
pub use check::{check_file, check_unique_names};
pub use compile::{RuleBook, Stages};
pub use examples::run_all as run_examples;
pub use expand::{Variant, expand_all};
pub use grammar::{parse_file, parse_file_with};
pub use prove::{Budget as ProofBudget, overlaps, prove_with};
pub use write::{rule as write_rule, rule_set as write_rule_set};

use crate::deduce::Deducer;
use crate::geometry::Pos;
pub use ast::{Diagnostic, Glyph, Span};
use std::fmt;
use std::path::{Path, PathBuf};

/// One fact of a checked rule: a line or cross on an edge, or a clue in a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fact {
    /// Lattice position relative to the rule's origin.
    pub at: Pos,
    /// What holds there.
    pub glyph: Glyph,
}

/// A colour fact of a checked rule: the cell at `at` carries a colour letter. Cells with the
/// same letter in the same case lie on the same side of the loop; the same letter in the
/// other case, on opposite sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Colour {
    /// Lattice position (a cell) relative to the rule's origin.
    pub at: Pos,
    /// The letter, lower case (`a` to `z`, not `x`).
    pub letter: u8,
    /// Whether it was written in upper case.
    pub upper: bool,
}

impl Colour {
    /// The letter as drawn.
    pub fn glyph(&self) -> char {
        let c = char::from(self.letter);
        if self.upper {
            c.to_ascii_uppercase()
        } else {
            c
        }
    }
}

/// The relations a set of colour facts states, as (cell, cell, differ) pairs: each cell of a
/// letter against the first cell of that letter in `base` followed by `facts` (so that a
/// conclusion's new cells are related to the premise's), for the cells of `facts` only.
pub fn colour_relations(base: &[Colour], facts: &[Colour]) -> Vec<(Pos, Pos, bool)> {
    let mut out = Vec::new();
    for f in facts {
        let first = base.iter().chain(facts).find(|g| g.letter == f.letter);
        if let Some(first) = first
            && first.at != f.at
        {
            out.push((first.at, f.at, first.upper != f.upper));
        }
    }
    out
}

/// A board a rule is tested on: a whole little grid, with its own border.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Example {
    /// The line of the `example` or `quiet` keyword.
    pub line: usize,
    /// Cells down.
    pub rows: usize,
    /// Cells across.
    pub cols: usize,
    /// Clues, lines and crosses before the rule runs.
    pub board: Vec<Fact>,
    /// Every fact after the rule ran to a fixpoint; `None`: the rule must not fire.
    pub gives: Option<Vec<Fact>>,
    /// Colour letters of the `gives` board: relations that must hold after the run.
    pub gives_colours: Vec<Colour>,
}

/// A rule checked for meaning: what it needs, what it adds, and where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    /// Unique name within the rule set.
    pub name: String,
    /// One-line description, if the file gives one.
    pub description: Option<String>,
    /// Sound only given that the answer is a single loop.
    pub assumes_single_loop: bool,
    /// Cost level (1 = cheapest, the default): the engine runs the rules of one level to a
    /// fixpoint before it switches on the next.
    pub level: u32,
    /// The file it came from.
    pub file: String,
    /// The line of its `rule` keyword.
    pub line: usize,
    /// The dots drawn in its pictures (its window).
    pub dots: Vec<Pos>,
    /// What must hold for it to fire.
    pub premise: Vec<Fact>,
    /// What it adds (only edges, never a premise fact).
    pub conclusion: Vec<Fact>,
    /// The colour facts that must hold (cells' sides of the loop, by letter).
    pub premise_colours: Vec<Colour>,
    /// The colour facts it adds (their letters relate them to the premise's cells too).
    pub conclusion_colours: Vec<Colour>,
    /// Boards it is tested on.
    pub examples: Vec<Example>,
}

/// A checked set of rules plus the global deducers it switches on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleSet {
    /// The rules, in file-name order then file order.
    pub rules: Vec<Rule>,
    /// The deducers named by `use` lines, without repeats.
    pub deducers: Vec<Deducer>,
    /// `use probing instead of level N` (the lowest N given): with probing on, a plain solve
    /// leaves out the rules of level N and up, as probing finds what they would (see
    /// [`RuleSet::without_what_probing_replaces`]).
    pub probing_replaces: Option<u32>,
}

/// Why a rule set could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// A file or directory could not be read.
    #[error("cannot read the rules of {}: {}", .path.display(), describe_io(.source, .path))]
    Io {
        /// The path that failed.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The files were read but have errors.
    #[error("{}", render_diagnostics(.0))]
    Invalid(Vec<Diagnostic>),
}

/// What the system said, in lower case and without the `(os error N)` tail, with a hint where
/// one helps.
fn describe_io(e: &std::io::Error, _path: &Path) -> String {
    let text = e.to_string();
    let text = text
        .rfind(" (os error ")
        .map_or(text.as_str(), |i| &text[..i]);
    let mut chars = text.chars();
    let mut reason: String = match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    };
    // Only when the path given to --rules is itself not a directory (not for a file in it).
    if e.kind() == std::io::ErrorKind::NotADirectory {
        reason.push_str(" (--rules takes a directory of `*.rules` files)");
    }
    reason
}

/// Largest rule file read: 16 MiB (the built-in rules are 60 KiB).
pub const MAX_RULE_FILE: u64 = 16 << 20;

/// The bytes of the regular file at `path` (a symbolic link to one is fine), at most `limit`
/// of them: a FIFO, socket or device is refused before it is opened (it could block or
/// never end), and so is a larger file, each with an error saying why.
pub fn read_regular(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    use std::io::{Error, ErrorKind, Read};
    let regular = |meta: &std::fs::Metadata| {
        if meta.is_dir() {
            Err(Error::new(ErrorKind::IsADirectory, "is a directory"))
        } else if !meta.is_file() {
            Err(Error::new(
                ErrorKind::InvalidInput,
                "it is not a regular file (a FIFO, socket or device)",
            ))
        } else {
            Ok(())
        }
    };
    regular(&std::fs::metadata(path)?)?;
    let file = std::fs::File::open(path)?;
    regular(&file.metadata()?)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        let size = if limit.is_multiple_of(1 << 20) {
            format!("{} MiB", limit >> 20)
        } else {
            format!("{limit} bytes")
        };
        return Err(Error::new(
            ErrorKind::FileTooLarge,
            format!("it is larger than {size}, the most read"),
        ));
    }
    Ok(bytes)
}

/// The `*.rules` files of a directory, in file-name order.
pub fn rule_files(dir: &Path) -> Result<Vec<PathBuf>, LoadError> {
    let io = |source| LoadError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if path.extension().is_some_and(|e| e == "rules") {
            paths.push(path);
        }
    }
    paths.sort();
    Ok(paths)
}

/// A rule file's text, or a diagnostic at the first byte that is not UTF-8.
fn decode(name: &str, bytes: Vec<u8>) -> Result<String, Diagnostic> {
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let at = e.utf8_error().valid_up_to();
        let before = &bytes[..at];
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        // Valid UTF-8 up to `at`: count characters for the column.
        let column = String::from_utf8_lossy(&before[line_start..])
            .chars()
            .count()
            + 1;
        Diagnostic::new(
            name,
            Span::new(line, column),
            format!("the file is not UTF-8 text: byte 0x{:02X} here", bytes[at]),
        )
        .with_help("save the rule file as UTF-8 (pictures use only ASCII)")
    })
}

fn render_diagnostics(diagnostics: &[Diagnostic]) -> String {
    let mut s = String::new();
    for (i, d) in diagnostics.iter().enumerate() {
        if i > 0 {
            s.push('\n');
        }
        s.push_str(&d.to_string());
    }
    let n = diagnostics.len();
    s.push_str(&format!(
        "\n{n} error{} in the rule files",
        if n == 1 { "" } else { "s" }
    ));
    s
}

impl RuleSet {
    /// Whether a deducer is switched on.
    pub fn uses(&self, deducer: Deducer) -> bool {
        self.deducers.contains(&deducer)
    }

    /// Parses and checks rule files given as (name, text) pairs; every problem of every file is reported.
    pub fn from_sources<N: AsRef<str>, T: AsRef<str>>(
        sources: &[(N, T)],
    ) -> Result<RuleSet, Vec<Diagnostic>> {
        RuleSet::from_sources_with(sources, true)
    }

    /// [`RuleSet::from_sources`], with the rules' examples left unread unless `examples`
    /// (see [`grammar::parse_file_with`]): the rules have none then, and they are not
    /// checked for meaning either ([`check::read_checked_file`]): for the built-in files
    /// only, which the test suite checks.
    fn from_sources_with<N: AsRef<str>, T: AsRef<str>>(
        sources: &[(N, T)],
        examples: bool,
    ) -> Result<RuleSet, Vec<Diagnostic>> {
        let mut set = RuleSet::default();
        let mut diagnostics = Vec::new();
        for (name, text) in sources {
            let (file, mut errors) =
                grammar::parse_file_with(name.as_ref(), text.as_ref(), examples);
            diagnostics.append(&mut errors);
            let (rules, deducers) = if examples {
                let (rules, deducers, mut errors) = check::check_file(&file);
                diagnostics.append(&mut errors);
                (rules, deducers)
            } else {
                check::read_checked_file(&file)
            };
            set.rules.extend(rules);
            for u in &file.uses {
                if let Some(level) = u.instead_of_level.filter(|&n| n > 0)
                    && u.name == Deducer::Probing.name()
                {
                    let lowest = set.probing_replaces.map_or(level, |l| l.min(level));
                    set.probing_replaces = Some(lowest);
                }
            }
            for d in deducers {
                if !set.deducers.contains(&d) {
                    set.deducers.push(d);
                }
            }
        }
        if examples {
            diagnostics.extend(check::check_unique_names(&set.rules));
        }
        if diagnostics.is_empty() {
            Ok(set)
        } else {
            diagnostics.sort_by(|a, b| (&a.file, a.at).cmp(&(&b.file, b.at)));
            Err(diagnostics)
        }
    }

    /// Loads every `*.rules` file of a directory, in file-name order.
    ///
    /// A file that is not UTF-8 is reported with the position of its first bad byte, along
    /// with the problems of the other files; a file that cannot be read at all (a directory
    /// or a dangling link named `*.rules`, no permission) ends the load with an I/O error
    /// naming it.
    pub fn load_dir(dir: &Path) -> Result<RuleSet, LoadError> {
        RuleSet::load_dirs(&[dir])
    }

    /// Loads the `*.rules` files of several directories together as one set: directory by
    /// directory in the order given, each in file-name order (subdirectories are not read).
    /// Rule names must be unique across all of them.
    pub fn load_dirs<P: AsRef<Path>>(dirs: &[P]) -> Result<RuleSet, LoadError> {
        RuleSet::load_with_builtin(false, dirs)
    }

    /// Loads the built-in files first (when `builtin`), then the `*.rules` files of `dirs`
    /// as [`RuleSet::load_dirs`] does, as one set: the built-in rules are the set's first
    /// `RuleSet::builtin().rules.len()`, and rule names must be unique across all of them.
    pub fn load_with_builtin<P: AsRef<Path>>(
        builtin: bool,
        dirs: &[P],
    ) -> Result<RuleSet, LoadError> {
        let mut paths = Vec::new();
        for dir in dirs {
            paths.extend(rule_files(dir.as_ref())?);
        }
        let mut sources: Vec<(String, String)> = Vec::new();
        if builtin {
            sources.extend(
                BUILTIN_RULES
                    .iter()
                    .map(|(name, text)| (name.to_string(), text.to_string())),
            );
        }
        let mut not_text = Vec::new();
        for path in paths {
            let bytes = read_regular(&path, MAX_RULE_FILE).map_err(|source| LoadError::Io {
                path: path.clone(),
                source,
            })?;
            let name = path.display().to_string();
            match decode(&name, bytes) {
                Ok(text) => sources.push((name, text)),
                Err(diagnostic) => not_text.push(diagnostic),
            }
        }
        match RuleSet::from_sources(&sources) {
            Ok(set) if not_text.is_empty() => Ok(set),
            Ok(_) => Err(LoadError::Invalid(not_text)),
            Err(mut diagnostics) => {
                diagnostics.append(&mut not_text);
                diagnostics.sort_by(|a, b| (&a.file, a.at).cmp(&(&b.file, b.at)));
                Err(LoadError::Invalid(diagnostics))
            }
        }
    }

    /// The rule set built into the binary: the files of `rules/` at compile time.
    pub fn builtin() -> RuleSet {
        RuleSet::from_sources(BUILTIN_RULES)
            .expect("the built-in rules are checked by the test suite")
    }

    /// The built-in rule set without the rules' examples, which are left unread (half the
    /// built-in files' text is examples, run by the test suite and by `slink rules test`,
    /// which load [`RuleSet::builtin`]), and not checked for meaning again (the test suite
    /// checks the built-in files, and that this set is [`RuleSet::builtin`] less its
    /// examples): what solving, explaining, hints and the generator need, loaded in a
    /// fraction of the time.
    pub fn builtin_to_solve() -> RuleSet {
        RuleSet::from_sources_with(BUILTIN_RULES, false)
            .expect("the built-in rules are checked by the test suite")
    }

    /// [`RuleSet::builtin_to_solve`] without the rules probing stands in for
    /// ([`RuleSet::without_what_probing_replaces`]), for a plain solve with probing on: the
    /// files that hold only such rules (and no `use` line) are not even read.
    pub fn builtin_to_solve_with_probing() -> RuleSet {
        let (lowest, replaces) = BUILTIN_LEVELS;
        let sources: Vec<(&str, &str)> = BUILTIN_RULES
            .iter()
            .zip(lowest)
            .filter(|&(_, &low)| replaces.is_none_or(|n| low < n))
            .map(|(&source, _)| source)
            .collect();
        RuleSet::from_sources_with(&sources, false)
            .expect("the built-in rules are checked by the test suite")
            .without_what_probing_replaces()
    }

    /// The rules of the built-in set that [`RuleSet::builtin_to_solve_with_probing`] leaves
    /// out (those of level N and up, for `use probing instead of level N`), without examples.
    pub fn builtin_late_rules() -> Vec<Rule> {
        let (lowest, replaces) = BUILTIN_LEVELS;
        let Some(n) = replaces else {
            return Vec::new();
        };
        let sources: Vec<(&str, &str)> = BUILTIN_RULES
            .iter()
            .zip(lowest)
            .filter(|&(_, &low)| low >= n)
            .map(|(&source, _)| source)
            .collect();
        let mut rules = RuleSet::from_sources_with(&sources, false)
            .expect("the built-in rules are checked by the test suite")
            .rules;
        rules.retain(|r| r.level >= n);
        rules
    }

    /// The set less the rules that probing stands in for (`use probing instead of level N`:
    /// those of level N and up). They are rules learned from probes: where probing is on,
    /// probing finds what they would, for less than trying them on every puzzle; the answers
    /// are the same, and `explain`, hints, grades and `--no-probing` keep them.
    pub fn without_what_probing_replaces(mut self) -> RuleSet {
        if let Some(n) = self.probing_replaces {
            self.rules.retain(|r| r.level < n);
        }
        self
    }
}

/// The files of `rules/` as (file name, text), embedded at compile time.
pub const BUILTIN_RULES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/builtin_rules.rs"));

/// For each file of [`BUILTIN_RULES`], the lowest level of its rules (0 for a file with `use`
/// lines or without rules), and the N of the set's `use probing instead of level N`: found
/// by a quick look at the text when the binary is built (`build.rs`), checked against the
/// parsed files by the test suite.
pub(crate) const BUILTIN_LEVELS: (&[u32], Option<u32>) =
    include!(concat!(env!("OUT_DIR"), "/builtin_levels.rs"));

impl fmt::Display for Fact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.glyph {
            Glyph::Line => "line".to_string(),
            Glyph::Cross => "cross".to_string(),
            Glyph::Clue(n) => format!("clue {n}"),
        };
        write!(f, "{what} at ({}, {})", self.at.y, self.at.x)
    }
}
