//! `slink rules discover`: find new proven-sound rules in a small window (or learn them from the probes of a corpus) and write them, with pictures and examples, as a rule file.
//!
//! The file is read back before the command ends: it must parse, every rule must be proved
//! sound, and every example must pass, or the command fails.

use super::corpus::{MAX_CORPUS_CELLS, read_corpus};
use super::io::{Io, say};
use super::write_file::{Existing, check_target, write_file};
use super::{EXIT_BAD_INPUT, EXIT_OK, EXIT_UNSOLVED, RulesArg, TrustArg, io_reason, parse_jobs};
use crate::discover::enumerate::{Options, Shape};
use crate::discover::learn::LearnOptions;
use crate::discover::progress::Progress;
use crate::discover::rulefile;
use crate::discover::{Discovery, Settings, discover, discover_from_probes};
use crate::format::words::{count, duration};
use crate::rules::RuleSet;
use crate::rules::examples::run_all;
use crate::rules::prove::{Verdict, prove};
use clap::Args;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Options of `slink rules discover`.
#[derive(Args, Debug, Clone)]
pub struct DiscoverArgs {
    /// The window premises are drawn in: R x C cells, e.g. `2x2` (every smaller box is
    /// searched too); `RxC:K` bounds its premises by K facts instead of `--max-facts`. Repeat
    /// it to pool the candidates of several windows, e.g. `--window 2x2:4 --window 2x3:2`.
    /// With `--from-probes`: the largest window a harvested rule may have (default 3x4; up to
    /// 4x4 or 3x5, whose edges with the exits still fit in 64); repeated, a rule may have any
    /// of them, e.g. `--window 4x4 --window 3x5`.
    #[arg(long, value_name = "RxC[:K]", value_parser = parse_window, required_unless_present = "from_probes")]
    pub window: Vec<WindowArg>,
    /// Learn rules from probes instead of enumerating premises: solve the `--corpus` with
    /// probing on, and turn each probe that met a contradiction within `--max-steps` steps
    /// into a rule over the window of what its chain read (its premise every fact of that
    /// window decided before the probe, minimised; the probed edge the other way follows).
    /// With `--colours K`, premises may keep up to K relations the colour store held before
    /// the probe between cells of the window's block.
    #[arg(long, requires = "corpus")]
    pub from_probes: bool,
    /// With `--from-probes`: the longest chain harvested (edges the failing way decided
    /// before it broke).
    #[arg(long, value_name = "K", default_value_t = 12, requires = "from_probes")]
    pub max_steps: usize,
    /// With `--from-probes`: harvest N times, each round solving the corpus with the rules
    /// picked from the candidates of the rounds before (the stuck boards they leave have
    /// other probes); the last ranking is over every round's candidates.
    #[arg(long, value_name = "N", default_value_t = 1, requires = "from_probes")]
    pub rounds: usize,
    /// With `--from-probes`: harvest every probe at the point where deduction alone stops
    /// (each unknown edge of the stuck board tried both ways) instead of the probes a solve
    /// with probing makes.
    #[arg(long, requires = "from_probes")]
    pub every_probe: bool,
    /// What a premise cell may hold: clue digits 0-3, and `.` for "anything".
    #[arg(long, value_name = "ALPHABET", default_value = "0123.", value_parser = parse_alphabet)]
    pub clues: Alphabet,
    /// The most lines and crosses in a premise (clues are not counted), for windows given
    /// without their own `:K`.
    #[arg(long, value_name = "K", default_value_t = 3)]
    pub max_facts: usize,
    /// Discover rules with colour letters: premises hold up to K colour facts (two ring cells
    /// of the window, at most two cells apart, on the same or opposite sides of the loop) as
    /// well as lines and crosses, and conclusions may relate cells. Only rules with a colour
    /// fact are kept; K is at most 2.
    #[arg(long, value_name = "K", default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=2), conflicts_with = "no_colouring")]
    pub colours: u8,
    /// Derive with the local laws only: no rule that needs the answer to be one loop.
    #[arg(long)]
    pub no_single_loop: bool,
    /// The level the written rules get (the engine runs cheaper levels to a fixpoint first).
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=9))]
    pub level: u32,
    /// Rank the candidates on this puzzle stream: by how many more puzzles (then edges)
    /// deduction finishes with each one added (search and probing off), greedily.
    #[arg(long, value_name = "FILE")]
    pub corpus: Option<PathBuf>,
    /// Keep at most K rules (with a corpus: the K best, chosen greedily).
    #[arg(long, value_name = "K", default_value_t = 60)]
    pub keep: usize,
    /// With a corpus: pick K+N rules greedily, then drop the N that weigh least (what the
    /// corpus loses without each, solved afresh), one at a time.
    #[arg(long, value_name = "N", default_value_t = 0, requires = "corpus")]
    pub overshoot: usize,
    /// Score the corpus without inside/outside colouring.
    #[arg(long)]
    pub no_colouring: bool,
    /// The directory the rule file is written to (created when missing).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// The rule file's name in DIR (default: `window-RxC.rules`; with `--from-probes`,
    /// `learned.rules`, or `learned-colours.rules` with `--colours`).
    #[arg(long, value_name = "NAME", value_parser = parse_file_name)]
    pub file: Option<String>,
    /// Replace the rule file when it exists already (never through a symbolic link).
    #[arg(long)]
    pub force: bool,
    /// Run on N threads (default: every core, or RAYON_NUM_THREADS).
    #[arg(long, short = 'j', value_name = "N", value_parser = parse_jobs)]
    pub jobs: Option<usize>,
    /// The current rule set: candidates it derives already are not kept.
    #[command(flatten)]
    pub rules: RulesArg,
    #[command(flatten)]
    pub trust: TrustArg,
}

/// A `--window`: its cells down and across, and its own bound on premise facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowArg {
    /// Cells down.
    pub rows: usize,
    /// Cells across.
    pub cols: usize,
    /// Its bound on facts, when given as `RxC:K`.
    pub max_facts: Option<usize>,
}

impl WindowArg {
    /// The window as enumeration takes it, `default` facts unless it has its own bound.
    fn shape(&self, default: usize) -> Shape {
        Shape {
            rows: self.rows,
            cols: self.cols,
            max_facts: self.max_facts.unwrap_or(default),
        }
    }

    /// `RxC`, or `RxC:K`.
    fn text(&self) -> String {
        match self.max_facts {
            Some(k) => format!("{}x{}:{k}", self.rows, self.cols),
            None => format!("{}x{}", self.rows, self.cols),
        }
    }
}

/// Parses `RxC` or `RxC:K`.
fn parse_window(text: &str) -> Result<WindowArg, String> {
    let bad = || format!("`{text}`: give the window as RxC or RxC:K, e.g. 2x2 or 2x3:2");
    let (size, facts) = match text.split_once(':') {
        Some((size, k)) => (size, Some(k.parse::<usize>().map_err(|_| bad())?)),
        None => (text, None),
    };
    let (r, c) = size.split_once(['x', 'X']).ok_or_else(bad)?;
    let (r, c): (usize, usize) = (r.parse().map_err(|_| bad())?, c.parse().map_err(|_| bad())?);
    if crate::discover::window::Window::new(r, c).is_none() {
        return Err(format!(
            "`{text}`: windows up to 4x4 or 3x5 cells (a window's edges, exits included, must fit in 64)"
        ));
    }
    Ok(WindowArg {
        rows: r,
        cols: c,
        max_facts: facts,
    })
}

/// Parses `--file`: a plain file name, so that the file stays in the `--out` directory.
fn parse_file_name(text: &str) -> Result<String, String> {
    let plain = !text.is_empty()
        && text != "."
        && text != ".."
        && !text.contains(['/', '\\'])
        && !text.starts_with('.');
    if plain {
        Ok(text.to_string())
    } else {
        Err(format!(
            "`{text}`: give a file name without a directory (the directory is --out)"
        ))
    }
}

/// What a premise cell may hold: clues, and `None` for anything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alphabet(pub Vec<Option<u8>>);

/// Parses a clue alphabet such as `0123.`.
fn parse_alphabet(text: &str) -> Result<Alphabet, String> {
    let mut out = Vec::new();
    for ch in text.chars() {
        let item = match ch {
            '0'..='3' => Some(ch as u8 - b'0'),
            '.' | '-' => None,
            _ => {
                return Err(format!(
                    "`{ch}` is not a clue: use the digits 0-3 and `.` for anything"
                ));
            }
        };
        if !out.contains(&item) {
            out.push(item);
        }
    }
    if out.is_empty() {
        return Err("give at least one of 0-3 or `.`".to_string());
    }
    Ok(Alphabet(out))
}

/// Runs discovery; returns the exit status.
pub fn run(io: &mut Io, args: &DiscoverArgs) -> i32 {
    let set = match args.rules.set(io, args.trust) {
        Ok(set) => set,
        Err(status) => return status,
    };
    let corpus = match &args.corpus {
        None => None,
        Some(path) => {
            let name = path.display().to_string();
            match read_corpus(&name, MAX_CORPUS_CELLS) {
                Ok(puzzles) => Some(puzzles),
                Err(e) => {
                    say!(io, "slink: {e}");
                    return EXIT_BAD_INPUT;
                }
            }
        }
    };
    let settings = Settings {
        enumerate: Options {
            windows: args
                .window
                .iter()
                .map(|w| w.shape(args.max_facts))
                .collect(),
            alphabet: args.clues.0.clone(),
            single_loop: !args.no_single_loop,
            colours: usize::from(args.colours),
        },
        level: args.level,
        keep: args.keep,
        overshoot: args.overshoot,
        colouring: !args.no_colouring,
    };
    let started = Instant::now();
    let progress = if io.err_terminal {
        Progress::shown()
    } else {
        Progress::hidden()
    };
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .build()
    {
        Ok(pool) => pool,
        Err(e) => {
            say!(io, "slink: cannot start threads: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    let file = args.file.clone().unwrap_or_else(|| {
        if args.from_probes {
            let colours = if args.colours > 0 { "-colours" } else { "" };
            return format!("learned{colours}.rules");
        }
        let sizes: Vec<String> = args
            .window
            .iter()
            .map(|w| format!("{}x{}", w.rows, w.cols))
            .collect();
        let colours = if args.colours > 0 { "-colours" } else { "" };
        format!("window-{}{colours}.rules", sizes.join("-"))
    });
    let path = args.out.join(&file);
    let existing = if args.force {
        Existing::Replace
    } else {
        Existing::Keep
    };
    // Said before the search rather than after it; checked again when writing.
    if let Err(e) = check_target(&path, existing) {
        say!(io, "slink: {e}");
        return EXIT_BAD_INPUT;
    }
    if !args.from_probes
        && let Some(w) = args
            .window
            .iter()
            .find(|w| w.rows.max(w.cols) > 4 || w.rows.min(w.cols) > 3)
    {
        say!(
            io,
            "slink: `{}`: enumeration takes windows up to 3x4 cells (larger ones only with --from-probes)",
            w.text()
        );
        return EXIT_BAD_INPUT;
    }
    let (found, harvest) = if args.from_probes {
        let mut windows: Vec<(usize, usize)> =
            args.window.iter().map(|w| (w.rows, w.cols)).collect();
        if windows.is_empty() {
            windows.push((3, 4));
        }
        let options = LearnOptions {
            max_steps: args.max_steps,
            windows,
            rounds: args.rounds,
            colours: usize::from(args.colours),
            every_probe: args.every_probe,
        };
        let corpus = corpus.expect("--from-probes requires --corpus");
        let (found, harvest) =
            pool.install(|| discover_from_probes(&set, &settings, options, corpus, &progress));
        (found, Some(harvest))
    } else {
        (
            pool.install(|| discover(&set, &settings, corpus, &progress)),
            None,
        )
    };
    let text = found.file_text(&header(args));
    if let Err(e) = std::fs::create_dir_all(&args.out) {
        say!(
            io,
            "slink: cannot write {}: {}",
            path.display(),
            io_reason(&e)
        );
        return EXIT_BAD_INPUT;
    }
    if let Err(e) = write_file(&path, text.as_bytes(), existing) {
        say!(io, "slink: {e}");
        return EXIT_BAD_INPUT;
    }
    let problems = read_back(&path.display().to_string(), &text);
    let mut out = String::new();
    if let Some(h) = &harvest {
        let _ = writeln!(
            out,
            "{}{} needed probing: {} decided by a contradiction, {} of them within {} steps; {} with a window over the cap, {} decided by the window's local laws ({} window searches gave up), {}",
            if args.rounds > 1 {
                format!("over {} rounds, ", args.rounds)
            } else {
                String::new()
            },
            count(h.puzzles, "puzzle"),
            count(h.probes, "probe"),
            h.short,
            args.max_steps,
            h.too_big,
            h.local,
            crate::discover::laws::searches_given_up(),
            count(h.candidates.len(), "distinct candidate")
        );
    }
    let unit = if args.from_probes {
        "short probe"
    } else {
        "clue placement"
    };
    out.push_str(&summary(
        &found,
        started.elapsed().as_secs_f64(),
        args.level,
        unit,
    ));
    let _ = writeln!(
        out,
        "wrote {} to {}",
        count(found.rules.len(), "rule"),
        path.display()
    );
    for p in &problems {
        let _ = writeln!(out, "error: {p}");
    }
    if let Err(status) = io.print(&out) {
        return status;
    }
    // A proof that ran out of its budget leaves a candidate out but is no error; a
    // counterexample to a candidate the laws derived would be a bug.
    let refuted = found
        .unsound
        .iter()
        .any(|(_, v)| !matches!(v, Verdict::Undecided { .. }));
    if problems.is_empty() && !refuted {
        EXIT_OK
    } else {
        EXIT_UNSOLVED
    }
}

/// The comment on top of the file: how it was made, so that it can be made again.
fn header(args: &DiscoverArgs) -> String {
    let alphabet: String = args
        .clues
        .0
        .iter()
        .map(|c| c.map_or('.', |n| (b'0' + n) as char))
        .collect();
    let windows: String = args
        .window
        .iter()
        .map(|w| format!("--window {} ", w.text()))
        .collect();
    let mut command = if args.from_probes {
        format!(
            "slink rules discover --from-probes{} --max-steps {} --rounds {} {windows}--level {} --keep {}",
            if args.every_probe {
                " --every-probe"
            } else {
                ""
            },
            args.max_steps,
            args.rounds,
            args.level,
            args.keep
        )
    } else {
        format!(
            "slink rules discover {windows}--clues {alphabet} --max-facts {} --level {} --keep {}",
            args.max_facts, args.level, args.keep
        )
    };
    if args.colours > 0 {
        let _ = write!(command, " --colours {}", args.colours);
    }
    if args.no_single_loop {
        command.push_str(" --no-single-loop");
    }
    if let Some(c) = &args.corpus {
        let _ = write!(command, " --corpus {}", c.display());
    }
    if args.overshoot > 0 {
        let _ = write!(command, " --overshoot {}", args.overshoot);
    }
    if args.no_colouring {
        command.push_str(" --no-colouring");
    }
    format!(
        "Rules found by slink's rule discovery, each proved sound by `slink rules check`.\n\
         Made with:\n  {command} --out DIR\n\
         (plus the --rules directories of the rule set they add to)."
    )
}

/// Parses the written file and checks every rule: sound, and every example passing.
fn read_back(name: &str, text: &str) -> Vec<String> {
    let set = match RuleSet::from_sources(&[(name, text)]) {
        Ok(set) => set,
        Err(diagnostics) => return diagnostics.iter().map(|d| d.to_string()).collect(),
    };
    let mut problems = Vec::new();
    for rule in &set.rules {
        if !matches!(prove(rule), Verdict::Sound { .. }) {
            problems.push(format!("rule `{}` is not proved sound", rule.name));
        }
    }
    for result in run_all(&set).results {
        if !result.outcome.passed() {
            problems.push(result.headline());
        }
    }
    problems
}

/// The report printed at the end.
fn summary(found: &Discovery, seconds: f64, level: u32, unit: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} searched in {}: {}; {} derived by the rule set already, {} impossible with it; {} not proved; {} without an example board; {} new",
        count(found.placements, unit),
        duration(Duration::from_secs_f64(seconds)),
        count(found.candidates, "minimal candidate"),
        found.known,
        found.impossible,
        found.unsound.len(),
        found.without_examples,
        found.new
    );
    let timings: Vec<String> = found
        .timings
        .iter()
        .map(|(name, secs)| format!("{name} {}", duration(Duration::from_secs_f64(*secs))))
        .collect();
    let _ = writeln!(out, "stages: {}", timings.join(", "));
    if let Some(c) = found.corpus {
        let _ = writeln!(
            out,
            "corpus of {}, deduction only: {} solved and {} decided before, {} solved and {} decided with the {} kept",
            count(c.puzzles, "puzzle"),
            c.solved_before,
            count(c.decided_before, "edge"),
            c.solved_after,
            count(c.decided_after, "edge"),
            count(found.rules.len(), "rule")
        );
    }
    for f in &found.rules {
        match f.gain {
            Some(g) if found.pruned => {
                let _ = writeln!(
                    out,
                    "  {:<28} weighs {}, {}",
                    f.rule.name,
                    count(g.edges, "edge"),
                    count(g.puzzles, "puzzle")
                );
            }
            Some(g) => {
                let _ = writeln!(
                    out,
                    "  {:<28} +{}, +{}",
                    f.rule.name,
                    count(g.edges, "edge"),
                    count(g.puzzles, "puzzle")
                );
            }
            None => {
                let _ = writeln!(out, "  {}", f.rule.name);
            }
        }
    }
    for (c, verdict) in &found.unsound {
        let (severity, why) = match verdict {
            Verdict::Undecided { steps, edges } => (
                "warning",
                format!("the proof ran out of its budget ({steps} steps, {edges} edges)"),
            ),
            Verdict::NeedsSingleLoop(_) => ("error", "it needs the single-loop law".to_string()),
            _ => ("error", "the proof found a counterexample".to_string()),
        };
        let rule = rulefile::bare_rule(c, &rulefile::base_name(c), level);
        let _ = writeln!(
            out,
            "{severity}: a candidate was not proved sound ({why}) and is left out:\n{}",
            rulefile::rule_text(&rule, "")
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_and_alphabets() {
        assert_eq!(
            parse_window("2x3"),
            Ok(WindowArg {
                rows: 2,
                cols: 3,
                max_facts: None
            })
        );
        assert_eq!(parse_window("2x3:2").map(|w| w.max_facts), Ok(Some(2)));
        assert!(parse_window("2x3:").is_err());
        assert!(parse_window("2").is_err());
        assert!(parse_window("5x5").is_err());
        assert!(parse_window("4x5").is_err());
        assert!(parse_window("4x4").is_ok());
        assert!(parse_window("5x3").is_ok());
        assert_eq!(
            parse_alphabet("3.1"),
            Ok(Alphabet(vec![Some(3), None, Some(1)]))
        );
        assert!(parse_alphabet("4").is_err());
        assert_eq!(parse_file_name("mine.rules"), Ok("mine.rules".to_string()));
        for bad in ["", ".", "..", "../x.rules", "a/b.rules", ".hidden.rules"] {
            assert!(parse_file_name(bad).is_err(), "{bad}");
        }
    }
}
