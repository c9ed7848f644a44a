//! Differential tests: slink's solver against the independent SAT oracle (`tests/oracle`) on
//! random puzzles from a fixed-seed generator written here: (a) a planted loop (the boundary
//! of a random simply connected polyomino) with a random share of its clues blanked, (b) the
//! same with one clue changed, (c) uniform random clue grids (mostly unsolvable or
//! ambiguous). slink must say Solved exactly when the oracle finds one answer (and print it),
//! Several exactly when the oracle finds two or more (and print a valid answer), and no
//! solution exactly when the oracle finds none.
//!
//! The same file checks slink's rule prover (`slink rules check`) against the oracle on
//! random small rules (see `tests/oracle/rules.rs`).
//!
//! `cargo test --release --test differential` runs the fixed-seed sets; the `#[ignore]`d
//! `long_run` and `long_run_rules` take their size from the environment (see
//! docs/trust-oracle.md):
//!
//! ```text
//! SLINK_DIFF_PUZZLES=500000 SLINK_DIFF_MAX_SIZE=12 SLINK_DIFF_SEED=1 \
//!   cargo test --release --test differential -- --ignored --nocapture --exact long_run
//! SLINK_DIFF_RULES=20000 SLINK_DIFF_SEED=1 \
//!   cargo test --release --test differential -- --ignored --nocapture --exact long_run_rules
//! ```

mod oracle;

use oracle::{Grid, Judgement, Kind, Solver, judge, slink_solver, slink_solver_with_timeout};
use std::collections::BTreeMap;
use std::time::Instant;

/// SplitMix64: a small, fixed, well-mixed generator (no crate needed).
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in 0..n (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in lo..=hi.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }
}

/// A random simply connected polyomino whose boundary is one simple loop: grown cell by cell
/// from a random seed cell, each new cell a neighbour of the region that keeps the outside
/// connected (no holes) and makes no pinch (two region cells meeting only at a corner).
fn polyomino(rows: usize, cols: usize, rng: &mut SplitMix64) -> Vec<bool> {
    let n = rows * cols;
    let mut inside = vec![false; n];
    inside[rng.below(n)] = true;
    let target = rng.range(2, (n * 2).div_ceil(3).max(2));
    let mut size = 1;
    let mut tries = 0;
    while size < target && tries < 20 * n {
        tries += 1;
        let cell = rng.below(n);
        if inside[cell] {
            continue;
        }
        let (r, c) = (cell / cols, cell % cols);
        let touches = neighbours(rows, cols, r, c).any(|(nr, nc)| inside[nr * cols + nc]);
        if !touches {
            continue;
        }
        inside[cell] = true;
        if no_pinch(rows, cols, &inside) && outside_connected(rows, cols, &inside) {
            size += 1;
        } else {
            inside[cell] = false;
        }
    }
    inside
}

fn neighbours(
    rows: usize,
    cols: usize,
    r: usize,
    c: usize,
) -> impl Iterator<Item = (usize, usize)> {
    let mut out = Vec::with_capacity(4);
    if r > 0 {
        out.push((r - 1, c));
    }
    if r + 1 < rows {
        out.push((r + 1, c));
    }
    if c > 0 {
        out.push((r, c - 1));
    }
    if c + 1 < cols {
        out.push((r, c + 1));
    }
    out.into_iter()
}

/// No inner dot has its four cells in the pattern in/out/in/out (diagonal).
fn no_pinch(rows: usize, cols: usize, inside: &[bool]) -> bool {
    for r in 1..rows {
        for c in 1..cols {
            let a = inside[(r - 1) * cols + c - 1];
            let b = inside[(r - 1) * cols + c];
            let d = inside[r * cols + c - 1];
            let e = inside[r * cols + c];
            if a == e && b == d && a != b {
                return false;
            }
        }
    }
    true
}

/// Every cell outside the region reaches the grid's border through outside cells.
fn outside_connected(rows: usize, cols: usize, inside: &[bool]) -> bool {
    let mut seen = vec![false; rows * cols];
    let mut stack = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if (r == 0 || c == 0 || r + 1 == rows || c + 1 == cols) && !inside[r * cols + c] {
                seen[r * cols + c] = true;
                stack.push((r, c));
            }
        }
    }
    while let Some((r, c)) = stack.pop() {
        for (nr, nc) in neighbours(rows, cols, r, c) {
            let k = nr * cols + nc;
            if !inside[k] && !seen[k] {
                seen[k] = true;
                stack.push((nr, nc));
            }
        }
    }
    (0..rows * cols).all(|k| inside[k] || seen[k])
}

/// The planted loop of a polyomino: the edges between an inside and an outside cell (the
/// grid's outside counts as outside).
fn boundary(grid: &Grid, inside: &[bool]) -> Vec<bool> {
    let (rows, cols) = (grid.rows, grid.cols);
    let at = |r: isize, c: isize| -> bool {
        r >= 0
            && c >= 0
            && (r as usize) < rows
            && (c as usize) < cols
            && inside[r as usize * cols + c as usize]
    };
    let mut lines = vec![false; grid.edges()];
    for r in 0..=rows {
        for c in 0..cols {
            lines[grid.h(r, c)] = at(r as isize - 1, c as isize) != at(r as isize, c as isize);
        }
    }
    for r in 0..rows {
        for c in 0..=cols {
            lines[grid.v(r, c)] = at(r as isize, c as isize - 1) != at(r as isize, c as isize);
        }
    }
    lines
}

/// A planted loop's full clue grid and the loop.
fn planted(rows: usize, cols: usize, rng: &mut SplitMix64) -> (Grid, Vec<bool>) {
    let inside = polyomino(rows, cols, rng);
    let mut grid = Grid::blank(rows, cols);
    let lines = boundary(&grid, &inside);
    assert!(
        oracle::is_solution(&grid, &lines),
        "a planted loop is one loop"
    );
    for r in 0..rows {
        for c in 0..cols {
            let k = grid.sides(r, c).iter().filter(|&&e| lines[e]).count();
            // A one-cell loop gives its cell a 4, which the format cannot say: blank it.
            grid.clues[r * cols + c] = (k < 4).then_some(k as u8);
        }
    }
    (grid, lines)
}

/// The three families of random puzzles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Family {
    Planted,
    Changed,
    Uniform,
}

fn random_puzzle(family: Family, max_size: usize, rng: &mut SplitMix64) -> Grid {
    let rows = rng.range(2, max_size);
    let cols = rng.range(2, max_size);
    match family {
        Family::Planted | Family::Changed => {
            let (mut grid, _) = planted(rows, cols, rng);
            let share = rng.unit() * 0.8;
            for clue in &mut grid.clues {
                if rng.unit() < share {
                    *clue = None;
                }
            }
            if family == Family::Changed {
                let given: Vec<usize> = (0..grid.clues.len())
                    .filter(|&k| grid.clues[k].is_some())
                    .collect();
                let k = if given.is_empty() {
                    rng.below(grid.clues.len())
                } else {
                    given[rng.below(given.len())]
                };
                let old = grid.clues[k];
                loop {
                    let new = Some(rng.below(4) as u8);
                    if new != old {
                        grid.clues[k] = new;
                        break;
                    }
                }
            }
            grid
        }
        Family::Uniform => {
            let blank = 0.2 + rng.unit() * 0.7;
            let clues = (0..rows * cols)
                .map(|_| {
                    if rng.unit() < blank {
                        None
                    } else {
                        Some(rng.below(4) as u8)
                    }
                })
                .collect();
            Grid::new(rows, cols, clues)
        }
    }
}

/// Whether slink and the oracle disagree on this grid.
fn disagrees(solver: &mut Solver, grid: &Grid) -> bool {
    matches!(judge(solver, grid), Judgement::Disagree(_))
}

/// A smaller puzzle that still shows a disagreement: clues blanked one at a time, then rows
/// and columns cut off at the edges, while the disagreement stays.
fn minimise(solver: &mut Solver, grid: &Grid) -> Grid {
    let mut best = grid.clone();
    loop {
        let mut smaller = false;
        // Cut a border row or column.
        for side in 0..4 {
            let (rows, cols) = (best.rows, best.cols);
            if (side < 2 && rows <= 1) || (side >= 2 && cols <= 1) {
                continue;
            }
            let (r0, r1, c0, c1) = match side {
                0 => (1, rows, 0, cols),
                1 => (0, rows - 1, 0, cols),
                2 => (0, rows, 1, cols),
                _ => (0, rows, 0, cols - 1),
            };
            let clues = (r0..r1)
                .flat_map(|r| (c0..c1).map(move |c| (r, c)))
                .map(|(r, c)| best.clue(r, c))
                .collect();
            let cut = Grid::new(r1 - r0, c1 - c0, clues);
            if disagrees(solver, &cut) {
                best = cut;
                smaller = true;
            }
        }
        for k in 0..best.clues.len() {
            if best.clues[k].is_some() {
                let mut blanked = best.clone();
                blanked.clues[k] = None;
                if disagrees(solver, &blanked) {
                    best = blanked;
                    smaller = true;
                }
            }
        }
        if !smaller {
            return best;
        }
    }
}

/// The tally of one run.
#[derive(Default, Debug)]
struct Tally {
    puzzles: usize,
    kinds: BTreeMap<(Family, Kind), usize>,
    limits: usize,
    disagreements: Vec<(Grid, String, Grid)>,
}

impl Tally {
    fn merge(&mut self, other: Tally) {
        self.puzzles += other.puzzles;
        for (k, n) in other.kinds {
            *self.kinds.entry(k).or_default() += n;
        }
        self.limits += other.limits;
        self.disagreements.extend(other.disagreements);
    }

    fn summary(&self) -> String {
        let mut s = format!(
            "{} puzzles, {} limits, {} disagreements;",
            self.puzzles,
            self.limits,
            self.disagreements.len()
        );
        for ((f, k), n) in &self.kinds {
            s.push_str(&format!(" {f:?}/{k:?} {n}"));
        }
        s
    }
}

/// Runs `count` puzzles of seed `seed` (round robin over the families), on `threads` threads;
/// slink gets `timeout` per puzzle (none when `None`), and a puzzle that runs out is printed
/// and counted as a limit.
fn run(
    seed: u64,
    count: usize,
    max_size: usize,
    threads: usize,
    progress: bool,
    timeout: Option<std::time::Duration>,
) -> Tally {
    let families = [Family::Planted, Family::Changed, Family::Uniform];
    let start = Instant::now();
    let mut total = Tally::default();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut solver = match timeout {
                        Some(t) => slink_solver_with_timeout(t),
                        None => slink_solver(),
                    };
                    let mut tally = Tally::default();
                    for i in (t..count).step_by(threads) {
                        // Each puzzle has a seed of its own, so any one can be replayed.
                        let mut rng = SplitMix64::new(seed.wrapping_mul(1_000_003).wrapping_add(i as u64));
                        let family = families[i % families.len()];
                        let grid = random_puzzle(family, max_size, &mut rng);
                        tally.puzzles += 1;
                        match judge(&mut solver, &grid) {
                            Judgement::Agree(kind) => *tally.kinds.entry((family, kind)).or_default() += 1,
                            Judgement::Limit => {
                                eprintln!(
                                    "LIMIT (puzzle {i}, seed {seed}): slink ran out of time on\n{}",
                                    grid.to_text()
                                );
                                tally.limits += 1;
                            }
                            Judgement::Disagree(why) => {
                                let small = minimise(&mut solver, &grid);
                                eprintln!(
                                    "DISAGREEMENT (puzzle {i}, seed {seed}): {why}\n{}minimised:\n{}",
                                    grid.to_text(),
                                    small.to_text()
                                );
                                tally.disagreements.push((grid, why, small));
                            }
                        }
                        if progress && tally.puzzles % 5_000 == 0 {
                            eprintln!(
                                "thread {t}: {} (in {:.1?})",
                                tally.summary(),
                                start.elapsed()
                            );
                        }
                    }
                    tally
                })
            })
            .collect();
        for h in handles {
            total.merge(h.join().expect("a worker"));
        }
    });
    total
}

fn threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(4)
}

fn check(tally: &Tally, limits_allowed: bool) {
    let kinds = |k: Kind| {
        tally
            .kinds
            .iter()
            .filter(|((_, kind), _)| *kind == k)
            .map(|(_, n)| n)
            .sum::<usize>()
    };
    assert!(
        tally.disagreements.is_empty(),
        "slink and the oracle disagree: {:#?}",
        tally.disagreements
    );
    assert!(
        limits_allowed || tally.limits == 0,
        "no budget is set, so no limit is hit"
    );
    // The mix: every kind of puzzle shows up.
    assert!(kinds(Kind::Unique) > 0 && kinds(Kind::Several) > 0 && kinds(Kind::None) > 0);
}

/// Puzzles in the fixed-seed set: 20,000 in release builds (as CI runs the tests), 1,000 in
/// debug builds, which are many times slower.
const CI_PUZZLES: usize = if cfg!(debug_assertions) {
    1_000
} else {
    20_000
};

/// The fixed-seed set that runs in CI: sizes 2x2 to 8x8.
#[test]
fn slink_agrees_with_the_oracle_on_random_puzzles() {
    let start = Instant::now();
    let tally = run(2026, CI_PUZZLES, 8, threads(), false, None);
    eprintln!("{} in {:.1?}", tally.summary(), start.elapsed());
    check(&tally, false);
}

/// The oracle on grids whose answers are known by hand: a blank 1x1 has one answer (its
/// square), a 0 or a 3 there has none, and a blank 2x2 has 13 (four squares, four
/// dominoes, four L-trominoes, the big square).
#[test]
fn the_oracle_counts_small_grids_right() {
    assert_eq!(oracle::count(&Grid::blank(1, 1), 5).len(), 1);
    assert_eq!(oracle::count(&Grid::new(1, 1, vec![Some(0)]), 5).len(), 0);
    assert_eq!(oracle::count(&Grid::new(1, 1, vec![Some(3)]), 5).len(), 0);
    let all = oracle::count(&Grid::blank(2, 2), 100);
    assert_eq!(all.len(), 13);
    assert!(!all.capped);
    assert!(all.common().iter().all(|&c| c == oracle::Common::Differs));
    // A ring of 2s round a blank 3x3 centre... a 2x2 of 3s has no answer (each 3 needs three
    // sides; the loop round the block gives each cell two).
    assert_eq!(
        oracle::count(&Grid::new(2, 2, vec![Some(3); 4]), 5).len(),
        0
    );
}

/// slink and the oracle agree on the sample puzzles (each has one answer).
#[test]
fn slink_agrees_with_the_oracle_on_the_samples() {
    let text = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sample.in")).unwrap();
    let mut solver = slink_solver();
    for puzzle in oracle::parse_all("sample.in", &text).unwrap() {
        let grid = Grid::new(puzzle.rows, puzzle.cols, puzzle.clues.clone());
        assert_eq!(
            judge(&mut solver, &grid),
            Judgement::Agree(Kind::Unique),
            "{}",
            grid.to_text()
        );
    }
}

/// Puzzles once found to disagree, minimised (none so far).
#[test]
fn regression_cases() {
    let cases: &[&str] = &[];
    let mut solver = slink_solver();
    for text in cases {
        for puzzle in oracle::parse_all("case", text.as_bytes()).unwrap() {
            let grid = Grid::new(puzzle.rows, puzzle.cols, puzzle.clues.clone());
            assert!(
                matches!(judge(&mut solver, &grid), Judgement::Agree(_)),
                "{text}"
            );
        }
    }
}

/// The puzzles on which slink once hit its limits while the oracle answered
/// (tests/fixtures/oracle-limits.in, from the long run): slink agrees with the oracle on
/// each, within a generous 20 s (tests/search.rs runs them through the binary).
#[test]
fn slink_agrees_with_the_oracle_on_its_former_limits() {
    let text = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/oracle-limits.in"
    ))
    .unwrap();
    let mut solver = slink_solver_with_timeout(std::time::Duration::from_secs(20));
    for puzzle in oracle::parse_all("oracle-limits.in", &text).unwrap() {
        let grid = Grid::new(puzzle.rows, puzzle.cols, puzzle.clues.clone());
        assert!(
            matches!(judge(&mut solver, &grid), Judgement::Agree(_)),
            "{}",
            grid.to_text()
        );
    }
}

/// The long run: `SLINK_DIFF_PUZZLES` puzzles (default 1,000,000) up to
/// `SLINK_DIFF_MAX_SIZE` (default 12) cells a side, seed `SLINK_DIFF_SEED` (default 1),
/// slink given `SLINK_DIFF_TIMEOUT` seconds a puzzle (default 10: its search is exponential
/// on a few large random puzzles); the puzzles that run out are printed and counted, not
/// judged.
#[test]
#[ignore]
fn long_run() {
    let env = |name: &str, default: u64| -> u64 {
        std::env::var(name)
            .ok()
            .map(|v| v.replace(['_', ','], "").parse().expect("a number"))
            .unwrap_or(default)
    };
    let count = env("SLINK_DIFF_PUZZLES", 1_000_000) as usize;
    let max_size = env("SLINK_DIFF_MAX_SIZE", 12) as usize;
    let seed = env("SLINK_DIFF_SEED", 1);
    let start = Instant::now();
    let timeout = std::time::Duration::from_secs(env("SLINK_DIFF_TIMEOUT", 10));
    let tally = run(seed, count, max_size, threads(), true, Some(timeout));
    eprintln!(
        "long run: seed {seed}, sizes 2x2 to {max_size}x{max_size}: {} in {:.1?}",
        tally.summary(),
        start.elapsed()
    );
    check(&tally, true);
}

// ---- The rule prover against the oracle ----

use oracle::rules::{RuleCase, Verdict};

/// A random rule in a window of 1x1 to 2x2 cells: clues in some cells, lines and crosses on
/// some edges, and one or two added facts; half of them picked among the facts the oracle
/// finds forced (so that sound rules are common), half at random; a third marked `assumes
/// single-loop`.
fn random_rule(rng: &mut SplitMix64) -> RuleCase {
    loop {
        let (h, w) = (rng.range(1, 2), rng.range(1, 2));
        let edges = Grid::blank(h, w).edges();
        let clue_share = rng.unit();
        let edge_share = rng.unit() * 0.5;
        let clues: Vec<Option<u8>> = (0..h * w)
            .map(|_| (rng.unit() < clue_share).then(|| rng.below(4) as u8))
            .collect();
        let premise: Vec<Option<bool>> = (0..edges)
            .map(|_| (rng.unit() < edge_share).then(|| rng.below(2) == 0))
            .collect();
        if clues.iter().all(Option::is_none) && premise.iter().all(Option::is_none) {
            continue;
        }
        let unknown: Vec<usize> = (0..edges).filter(|&e| premise[e].is_none()).collect();
        if unknown.is_empty() {
            continue;
        }
        let mut rule = RuleCase {
            h,
            w,
            clues,
            premise,
            added: Vec::new(),
            single_loop: rng.below(3) == 0,
        };
        let wanted = rng.range(1, 2.min(unknown.len()));
        let mut pool: Vec<(usize, bool)> = unknown
            .iter()
            .flat_map(|&e| [(e, true), (e, false)])
            .collect();
        if rng.below(2) == 0 {
            pool.retain(|&(e, on)| oracle::rules::locally_forced(&rule, e, on));
        }
        while rule.added.len() < wanted && !pool.is_empty() {
            let (e, on) = pool.swap_remove(rng.below(pool.len()));
            if rule.added.iter().all(|&(f, _)| f != e) {
                rule.added.push((e, on));
            }
        }
        if rule.added.is_empty() {
            continue;
        }
        return rule;
    }
}

/// The prover's verdicts on these rules: all written into one rule file in a fresh
/// directory and checked by one `slink rules check DIR`.
fn prover_verdicts(rules: &[RuleCase], tag: &str) -> Vec<Verdict> {
    let dir = std::env::temp_dir().join(format!("slink-oracle-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let text: String = rules
        .iter()
        .enumerate()
        .map(|(i, r)| r.to_text(&format!("r{i}")))
        .collect();
    std::fs::write(dir.join("random.rules"), &text).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_slink"))
        .args(["rules", "check"])
        .arg(&dir)
        .output()
        .expect("the slink binary runs");
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut verdicts: Vec<Option<Verdict>> = vec![None; rules.len()];
    let lines: Vec<&str> = report.lines().collect();
    for (k, line) in lines.iter().enumerate() {
        let mut words = line.split_whitespace();
        let (Some(status), Some(name)) = (words.next(), words.next()) else {
            continue;
        };
        let Some(i) = name.strip_prefix('r').and_then(|n| n.parse::<usize>().ok()) else {
            continue;
        };
        let verdict = match status {
            "ok" => Verdict::Sound,
            "UNSOUND"
                if lines
                    .get(k + 1)
                    .is_some_and(|l| l.contains("sound only given a single loop")) =>
            {
                Verdict::NeedsSingleLoop
            }
            "UNSOUND" => Verdict::Unsound,
            "NEVER" => Verdict::NeverFires,
            "UNDECIDED" => Verdict::Undecided,
            _ => continue,
        };
        assert!(verdicts[i].is_none(), "two verdicts for r{i}:\n{report}");
        verdicts[i] = Some(verdict);
    }
    let _ = std::fs::remove_dir_all(&dir);
    verdicts
        .into_iter()
        .enumerate()
        .map(|(i, v)| {
            v.unwrap_or_else(|| {
                panic!(
                    "no verdict for r{i}:\n{}\nstdout:\n{report}\nstderr:\n{}",
                    rules[i].to_text(&format!("r{i}")),
                    String::from_utf8_lossy(&out.stderr)
                )
            })
        })
        .collect()
}

/// The tally of a rule run.
#[derive(Default, Debug)]
struct RuleTally {
    rules: usize,
    verdicts: BTreeMap<(bool, Verdict), usize>,
    /// Rules the prover finds unsound whose counterexamples none extends to a single loop on
    /// the padded grid (the prover is local, so stricter; not a disagreement).
    local_only: usize,
    disagreements: Vec<String>,
}

fn run_rules(seed: u64, count: usize, batch: usize, progress: bool) -> RuleTally {
    let start = Instant::now();
    let mut tally = RuleTally::default();
    let mut rng = SplitMix64::new(seed);
    let mut done = 0;
    while done < count {
        let n = batch.min(count - done);
        let rules: Vec<RuleCase> = (0..n).map(|_| random_rule(&mut rng)).collect();
        let verdicts = prover_verdicts(&rules, &format!("{seed}-{done}"));
        for (rule, &prover) in rules.iter().zip(&verdicts) {
            tally.rules += 1;
            *tally
                .verdicts
                .entry((rule.single_loop, prover))
                .or_default() += 1;
            let local = oracle::rules::local(rule);
            let global = oracle::rules::padded(rule);
            let mut why = Vec::new();
            if local != prover {
                why.push(format!("prover {prover:?}, oracle (same notion) {local:?}"));
            }
            match prover {
                Verdict::Sound | Verdict::NeverFires if global.is_some() => why.push(format!(
                    "prover {prover:?}, but an answer on the padded grid breaks the rule"
                )),
                Verdict::Unsound | Verdict::NeedsSingleLoop if global.is_none() => {
                    tally.local_only += 1
                }
                _ => {}
            }
            if !why.is_empty() {
                tally
                    .disagreements
                    .push(format!("{}\n{}", why.join("; "), rule.to_text("r")));
            }
        }
        done += n;
        if progress {
            eprintln!(
                "{done} rules: {} local-only, {:?}, {} disagreements (in {:.1?})",
                tally.local_only,
                tally.verdicts,
                tally.disagreements.len(),
                start.elapsed()
            );
        }
    }
    tally
}

/// Random rules judged by slink's prover and by the oracle: the same verdict in the same
/// notion, and no rule the prover passes broken by an answer on the padded grid.
#[test]
fn the_prover_agrees_with_the_oracle_on_random_rules() {
    let start = Instant::now();
    let count = if cfg!(debug_assertions) { 200 } else { 1_000 };
    let tally = run_rules(28, count, 1_000, false);
    eprintln!(
        "{} rules, {} local-only counterexamples, verdicts (marked, verdict): {:?}, {} disagreements, in {:.1?}",
        tally.rules,
        tally.local_only,
        tally.verdicts,
        tally.disagreements.len(),
        start.elapsed()
    );
    assert!(
        tally.disagreements.is_empty(),
        "{}",
        tally.disagreements.join("\n")
    );
    for v in [Verdict::Sound, Verdict::Unsound, Verdict::NeverFires] {
        assert!(
            tally.verdicts.keys().any(|(_, w)| *w == v),
            "no rule was {v:?}"
        );
    }
}

/// The long run of the rule check: `SLINK_DIFF_RULES` rules (default 100,000), seed
/// `SLINK_DIFF_SEED` (default 1).
#[test]
#[ignore]
fn long_run_rules() {
    let env = |name: &str, default: u64| -> u64 {
        std::env::var(name)
            .ok()
            .map(|v| v.replace(['_', ','], "").parse().expect("a number"))
            .unwrap_or(default)
    };
    let count = env("SLINK_DIFF_RULES", 100_000) as usize;
    let seed = env("SLINK_DIFF_SEED", 1);
    let start = Instant::now();
    let tally = run_rules(seed, count, 1_000, true);
    eprintln!(
        "long rule run: seed {seed}: {} rules, {} local-only counterexamples, verdicts (marked, verdict): {:?}, {} disagreements, in {:.1?}",
        tally.rules,
        tally.local_only,
        tally.verdicts,
        tally.disagreements.len(),
        start.elapsed()
    );
    assert!(
        tally.disagreements.is_empty(),
        "{}",
        tally.disagreements.join("\n")
    );
}

/// Replays the puzzles of the file `SLINK_DIFF_REPLAY` (slink's input format): the oracle's
/// count (up to 3) and slink's outcome within `SLINK_DIFF_TIMEOUT` seconds (default 60), each
/// timed. For looking into a puzzle the long run printed.
#[test]
#[ignore]
fn replay() {
    let Ok(path) = std::env::var("SLINK_DIFF_REPLAY") else {
        eprintln!("set SLINK_DIFF_REPLAY to a puzzle file");
        return;
    };
    let secs: u64 =
        std::env::var("SLINK_DIFF_TIMEOUT").map_or(60, |v| v.parse().expect("a number"));
    let text = std::fs::read(&path).expect("a puzzle file");
    let mut solver = slink_solver_with_timeout(std::time::Duration::from_secs(secs));
    for puzzle in oracle::parse_all(&path, &text).unwrap() {
        let grid = Grid::new(puzzle.rows, puzzle.cols, puzzle.clues.clone());
        let start = Instant::now();
        let count = oracle::count(&grid, 3);
        let oracle_time = start.elapsed();
        let start = Instant::now();
        let (_, outcome) = solver.solve(&puzzle);
        eprintln!(
            "{}oracle: {}{} answer(s) in {oracle_time:.1?}; slink: {outcome:?} in {:.1?}",
            grid.to_text(),
            count.len(),
            if count.capped { "+" } else { "" },
            start.elapsed()
        );
    }
}
