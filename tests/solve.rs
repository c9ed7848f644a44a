//! End-to-end tests of `slink` solving puzzle streams: the built binary is run as a separate
//! process, fed the puzzle files of `tests/data/`, and its answers, messages and exit status
//! are checked.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

mod common;

use common::{BIN, Run, TempDir, data, root, slink};

// ---------------------------------------------------------------------------------------------
// Running the binary

fn read(name: &str) -> Vec<u8> {
    std::fs::read(data(name)).unwrap_or_else(|e| panic!("cannot read tests/data/{name}: {e}"))
}

fn read_text(name: &str) -> String {
    String::from_utf8(read(name)).expect("test data is UTF-8")
}

impl TempDir {
    /// A copy of the repository's `rules/` directory, without the files named in `without`.
    fn rules_copy(name: &str, without: &[&str]) -> TempDir {
        let dir = TempDir::new(name);
        let mut copied = 0;
        for entry in std::fs::read_dir(root().join("rules")).expect("rules/ is readable") {
            let path = entry.unwrap().path();
            let file = path.file_name().unwrap().to_str().unwrap().to_string();
            if path.is_file() && !without.contains(&file.as_str()) {
                std::fs::copy(&path, dir.0.join(&file)).unwrap();
                copied += 1;
            }
        }
        for gone in without {
            assert!(
                root().join("rules").join(gone).is_file(),
                "rules/{gone} does not exist: the test needs updating"
            );
        }
        assert!(copied > 0, "rules/ holds no files");
        dir
    }
}

// ---------------------------------------------------------------------------------------------
// Puzzles and answers

#[derive(Clone, Debug)]
struct Puzzle {
    rows: usize,
    cols: usize,
    /// Row-major; None = blank.
    clues: Vec<Option<u8>>,
}

impl Puzzle {
    fn edges(&self) -> usize {
        (self.rows + 1) * self.cols + self.rows * (self.cols + 1)
    }
}

/// Reads a well-formed puzzle stream (the test data), up to `0 0`.
fn parse_puzzles(text: &str) -> Vec<Puzzle> {
    let mut tokens = text.split_whitespace();
    let mut next = || tokens.next().expect("truncated test data");
    let mut puzzles = Vec::new();
    loop {
        let rows: usize = next().parse().unwrap();
        let cols: usize = next().parse().unwrap();
        if rows == 0 && cols == 0 {
            return puzzles;
        }
        puzzles.push(Puzzle {
            rows,
            cols,
            clues: Vec::new(),
        });
        let p = puzzles.last_mut().unwrap();
        for _ in 0..rows * cols {
            let t = next();
            p.clues.push(match t {
                "." | "-" => None,
                d => Some(d.parse().expect("clue 0-3")),
            });
        }
    }
}

/// Splits an answer stream into (number, block) pairs, a block being the number line and the
/// picture as printed. Answers must follow one another with nothing in between.
fn split_answers(out: &str, puzzles: &[Puzzle]) -> Vec<(usize, String)> {
    let lines: Vec<&str> = out.split_inclusive('\n').collect();
    let mut answers = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let k: usize = lines[i].trim_end_matches('\n').parse().unwrap_or_else(|_| {
            panic!(
                "answer line {}: expected a puzzle number, found {:?}",
                i + 1,
                lines[i]
            )
        });
        assert!(
            (1..=puzzles.len()).contains(&k),
            "answer line {}: no puzzle {k}",
            i + 1
        );
        let height = 2 * puzzles[k - 1].rows + 5;
        assert!(
            i + 1 + height <= lines.len(),
            "answer {k} is cut short: {} of {height} picture lines",
            lines.len() - i - 1
        );
        answers.push((k, lines[i..i + 1 + height].concat()));
        i += 1 + height;
    }
    answers
}

/// Checks one answer block (number line included) against its puzzle: the frame, the glyphs,
/// the clues, every clue's count, and that the lines form one single loop.
fn check_answer(k: usize, block: &str, p: &Puzzle) -> Result<(), String> {
    let lines: Vec<&str> = block.lines().collect();
    let (rows, cols) = (p.rows, p.cols);
    let width = 4 * cols + 5;
    if lines.len() != 2 * rows + 6 || lines[0] != k.to_string() {
        return Err(format!("answer {k}: bad number line or height"));
    }
    let pic = &lines[1..];
    let border = "#".repeat(width);
    let blank = format!("#{}#", " ".repeat(width - 2));
    if pic[0] != border || pic[pic.len() - 1] != border {
        return Err(format!("answer {k}: bad top or bottom border"));
    }
    if pic[1] != blank || pic[pic.len() - 2] != blank {
        return Err(format!("answer {k}: bad blank frame line"));
    }
    let mut h = vec![false; (rows + 1) * cols]; // h[i * cols + j]: dot (i,j) to (i,j+1)
    let mut v = vec![false; rows * (cols + 1)]; // v[i * (cols+1) + j]: dot (i,j) to (i+1,j)
    let mut dot_glyphs = Vec::new();
    for g in 0..=2 * rows {
        let line = pic[2 + g].as_bytes();
        if line.len() != width || !line.starts_with(b"# ") || !line.ends_with(b" #") {
            return Err(format!("answer {k}: grid line {g} is not framed `# ... #`"));
        }
        let inner = &line[2..width - 2];
        for j in 0..=cols {
            let at = inner[4 * j];
            if g % 2 == 0 {
                if !b"+-| ".contains(&at) {
                    return Err(format!("answer {k}: bad dot glyph {:?}", at as char));
                }
                dot_glyphs.push(at);
            } else {
                match at {
                    b'|' => v[(g / 2) * (cols + 1) + j] = true,
                    b' ' => {}
                    _ => return Err(format!("answer {k}: bad side glyph {:?}", at as char)),
                }
            }
            if j == cols {
                break;
            }
            let slot = &inner[4 * j + 1..4 * j + 4];
            if g % 2 == 0 {
                match slot {
                    b"---" => h[(g / 2) * cols + j] = true,
                    b"   " => {}
                    _ => {
                        return Err(format!(
                            "answer {k}: bad edge glyphs {:?}",
                            String::from_utf8_lossy(slot)
                        ));
                    }
                }
            } else {
                let want = match p.clues[(g / 2) * cols + j] {
                    Some(d) => [b' ', b'0' + d, b' '],
                    None => *b"   ",
                };
                if slot != want {
                    return Err(format!(
                        "answer {k}: cell ({}, {j}) is printed wrong",
                        g / 2
                    ));
                }
            }
        }
    }
    // Clue counts.
    for r in 0..rows {
        for c in 0..cols {
            if let Some(d) = p.clues[r * cols + c] {
                let n = [
                    h[r * cols + c],
                    h[(r + 1) * cols + c],
                    v[r * (cols + 1) + c],
                    v[r * (cols + 1) + c + 1],
                ]
                .iter()
                .filter(|&&x| x)
                .count();
                if n != d as usize {
                    return Err(format!(
                        "answer {k}: cell ({r}, {c}) has {n} lines, clue {d}"
                    ));
                }
            }
        }
    }
    // Degrees, dot glyphs, one loop.
    let dot = |i: usize, j: usize| i * (cols + 1) + j;
    let mut adjacent = vec![Vec::new(); (rows + 1) * (cols + 1)];
    for i in 0..=rows {
        for j in 0..cols {
            if h[i * cols + j] {
                adjacent[dot(i, j)].push(dot(i, j + 1));
                adjacent[dot(i, j + 1)].push(dot(i, j));
            }
        }
    }
    for i in 0..rows {
        for j in 0..=cols {
            if v[i * (cols + 1) + j] {
                adjacent[dot(i, j)].push(dot(i + 1, j));
                adjacent[dot(i + 1, j)].push(dot(i, j));
            }
        }
    }
    for i in 0..=rows {
        for j in 0..=cols {
            let left = j > 0 && h[i * cols + j - 1];
            let right = j < cols && h[i * cols + j];
            let up = i > 0 && v[(i - 1) * (cols + 1) + j];
            let down = i < rows && v[i * (cols + 1) + j];
            let want = match (left, right, up, down) {
                (false, false, false, false) => b' ',
                (true, true, false, false) => b'-',
                (false, false, true, true) => b'|',
                _ if adjacent[dot(i, j)].len() == 2 => b'+',
                _ => {
                    return Err(format!(
                        "answer {k}: dot ({i}, {j}) has {} lines",
                        adjacent[dot(i, j)].len()
                    ));
                }
            };
            if dot_glyphs[dot(i, j)] != want {
                return Err(format!("answer {k}: dot ({i}, {j}) is drawn wrong"));
            }
        }
    }
    let on_loop: Vec<usize> = (0..adjacent.len())
        .filter(|&d| !adjacent[d].is_empty())
        .collect();
    let Some(&start) = on_loop.first() else {
        return Err(format!("answer {k}: no loop at all"));
    };
    let mut seen = vec![false; adjacent.len()];
    let mut stack = vec![start];
    seen[start] = true;
    let mut reached = 0;
    while let Some(d) = stack.pop() {
        reached += 1;
        for &e in &adjacent[d] {
            if !seen[e] {
                seen[e] = true;
                stack.push(e);
            }
        }
    }
    if reached != on_loop.len() {
        return Err(format!(
            "answer {k}: more than one loop ({reached} of {} dots reached)",
            on_loop.len()
        ));
    }
    Ok(())
}

/// The expected answers of a data file, by puzzle number.
fn expected_answers(puzzles: &[Puzzle], out_file: &str) -> BTreeMap<usize, String> {
    split_answers(&read_text(out_file), puzzles)
        .into_iter()
        .collect()
}

/// The puzzle number a stderr line is about (`... puzzle K ...`), if any.
fn puzzle_number(line: &str) -> Option<usize> {
    let rest = &line[line.find("puzzle ")? + "puzzle ".len()..];
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok()
}

/// The stderr line reporting puzzle `k` as stuck, if there is exactly one.
fn stuck_line(stderr: &str, k: usize) -> Option<&str> {
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| puzzle_number(l) == Some(k) && l.contains("stuck"))
        .collect();
    (lines.len() == 1).then(|| lines[0])
}

/// The first number after `stuck` on a stuck line: the count of unknown edges.
fn unknown_edges(line: &str) -> Option<usize> {
    let rest = &line[line.find("stuck")?..];
    rest.split(|c: char| !c.is_ascii_digit())
        .find(|s| !s.is_empty())?
        .parse()
        .ok()
}

/// Checks that every answer of `run` equals the expected one of the same number, and returns
/// the numbers answered.
fn answered_exactly(
    run: &Run,
    puzzles: &[Puzzle],
    expected: &BTreeMap<usize, String>,
) -> Vec<usize> {
    let mut numbers = Vec::new();
    for (k, block) in split_answers(&run.stdout_text(), puzzles) {
        assert_eq!(
            &block, &expected[&k],
            "answer {k} differs from the expected one"
        );
        numbers.push(k);
    }
    numbers
}

// ---------------------------------------------------------------------------------------------
// The official sample

#[test]
fn sample_on_stdin_gives_the_official_answer() {
    let run = slink(&[], &read("sample.in"));
    assert_eq!(run.stderr, "", "no message expected");
    assert_eq!(run.stdout_text(), read_text("sample.out"));
    assert_eq!(run.status, 0);
}

#[test]
fn sample_as_a_file_argument_gives_the_official_answer() {
    let run = slink(&["solve", "tests/data/sample.in"], b"");
    assert_eq!(run.stderr, "");
    assert_eq!(run.stdout_text(), read_text("sample.out"));
    assert_eq!(run.status, 0);
}

#[test]
fn dash_reads_standard_input() {
    let run = slink(&["solve", "-"], &read("sample.in"));
    assert_eq!(run.stderr, "");
    assert_eq!(run.stdout_text(), read_text("sample.out"));
    assert_eq!(run.status, 0);
}

#[test]
fn every_sample_answer_passes_the_checker() {
    // The checker itself is trusted by the blank-puzzle tests: make sure it accepts the
    // official answers and rejects broken ones.
    let puzzles = parse_puzzles(&read_text("sample.in"));
    let answers = split_answers(&read_text("sample.out"), &puzzles);
    assert_eq!(answers.len(), 4);
    for (k, block) in &answers {
        check_answer(*k, block, &puzzles[k - 1]).unwrap();
    }
    let (k, good) = &answers[2];
    let broken = [
        good.replacen("+-------+", "+---+---+", 1), // a dot drawn as a turn mid-line
        good.replacen("# | 2   2 | #", "# | 2   2   #", 1), // a side lost: open loop
        good.replacen("# | 2   2 | #", "# | 2 | 2 | #", 1), // a side added: dot of degree 3
        good.replacen("| 2", "| 3", 1),             // wrong clue printed
        good.replacen("#\n", "# \n", 1),            // trailing space
    ];
    for b in &broken {
        assert_ne!(b, good, "the corruption did not apply");
        assert!(
            check_answer(*k, b, &puzzles[k - 1]).is_err(),
            "checker accepted:\n{b}"
        );
    }
    // Two separate loops that match every clue.
    let p = Puzzle {
        rows: 1,
        cols: 3,
        clues: vec![None, Some(2), None],
    };
    let two_loops = "1\n#################\n#               #\n# +---+   +---+ #\n# |   | 2 |   | #\n# +---+   +---+ #\n#               #\n#################\n";
    let err = check_answer(1, two_loops, &p).unwrap_err();
    assert!(err.contains("more than one loop"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// The Slink corpus

#[test]
fn all_580_slink_puzzles_are_solved_exactly() {
    let run = slink(&[], &read("puzzles-slink.in"));
    assert_eq!(run.stderr, "");
    let expected = read_text("puzzles-slink.out");
    let got = run.stdout_text();
    if got != expected {
        let puzzles = parse_puzzles(&read_text("puzzles-slink.in"));
        let want = expected_answers(&puzzles, "puzzles-slink.out");
        let numbers = answered_exactly(&run, &puzzles, &want);
        panic!(
            "the answers differ from the expected ones; answered {} puzzles",
            numbers.len()
        );
    }
    assert_eq!(
        split_answers(&got, &parse_puzzles(&read_text("puzzles-slink.in"))).len(),
        580
    );
    assert_eq!(run.status, 0);
}

// ---------------------------------------------------------------------------------------------
// Rule directories

#[test]
fn an_empty_rule_directory_deduces_nothing() {
    let dir = TempDir::new("empty-rules");
    let puzzles = parse_puzzles(&read_text("sample.in"));
    let run = slink(&["--rules", dir.path()], &read("sample.in"));
    assert_eq!(run.stdout_text(), "", "nothing can be solved without rules");
    for (i, p) in puzzles.iter().enumerate() {
        let k = i + 1;
        let line = stuck_line(&run.stderr, k)
            .unwrap_or_else(|| panic!("puzzle {k} is not reported stuck once:\n{}", run.stderr));
        assert_eq!(
            unknown_edges(line),
            Some(p.edges()),
            "puzzle {k} ({}x{}) should have all its edges unknown: {line}",
            p.rows,
            p.cols
        );
    }
    assert_eq!(run.status, 1);
}

#[test]
fn colouring_alone_deduces_nothing_from_a_clue() {
    // The colour store is switched on, but every local colour inference is a rule: with none,
    // no clue gives anything.
    let dir = TempDir::new("only-colouring");
    std::fs::write(
        std::path::Path::new(dir.path()).join("only.rules"),
        "use colouring\n",
    )
    .unwrap();
    let puzzles = parse_puzzles(&read_text("sample.in"));
    let run = slink(&["--rules", dir.path()], &read("sample.in"));
    assert_eq!(run.stdout_text(), "");
    for (i, p) in puzzles.iter().enumerate() {
        let line = stuck_line(&run.stderr, i + 1).expect("every puzzle is stuck");
        assert_eq!(unknown_edges(line), Some(p.edges()), "{line}");
    }
    // With the colour rules beside it, the same store does deduce.
    std::fs::copy(
        root().join("rules/colours.rules"),
        std::path::Path::new(dir.path()).join("colours.rules"),
    )
    .unwrap();
    std::fs::copy(
        root().join("rules/counting.rules"),
        std::path::Path::new(dir.path()).join("counting.rules"),
    )
    .unwrap();
    let with = slink(&["--rules", dir.path()], &read("sample.in"));
    let without = {
        std::fs::write(
            std::path::Path::new(dir.path()).join("only.rules"),
            "# colouring off\n",
        )
        .unwrap();
        slink(&["--rules", dir.path()], &read("sample.in"))
    };
    let unknown = |run: &Run| -> usize {
        (1..=puzzles.len())
            .filter_map(|k| stuck_line(&run.stderr, k).and_then(unknown_edges))
            .sum()
    };
    assert!(
        unknown(&with) < unknown(&without),
        "the colour rules deduce nothing with colouring on:\n{}\n{}",
        with.stderr,
        without.stderr
    );
}

#[test]
fn a_full_copy_of_the_rules_solves_like_the_built_in_set() {
    let dir = TempDir::rules_copy("full-rules", &[]);
    let run = slink(&["--rules", dir.path()], &read("sample.in"));
    assert_eq!(run.stderr, "");
    assert_eq!(run.stdout_text(), read_text("sample.out"));
    assert_eq!(run.status, 0);
    let run = slink(&["solve", "--rules", dir.path()], &read("puzzles-slink.in"));
    assert_eq!(run.stderr, "");
    assert!(
        run.stdout_text() == read_text("puzzles-slink.out"),
        "the copied rules do not solve the corpus like the built-in set"
    );
    assert_eq!(run.status, 0);
}

/// Without `threes.rules` the rules no longer finish everything: fewer puzzles are solved, the
/// ones still solved are right, the others are reported stuck, exit status 1. No rebuild: the
/// same binary reads another rule directory.
#[test]
fn removing_a_rule_file_changes_what_is_solved() {
    // global.rules goes too: with probing and search, any solvable puzzle is finished; and
    // windows.rules, whose discovered rules include what the table's 3 rules conclude.
    let dir = TempDir::rules_copy(
        "no-threes",
        &["threes.rules", "global.rules", "windows.rules"],
    );
    for (input, output) in [
        ("sample.in", "sample.out"),
        ("puzzles-slink.in", "puzzles-slink.out"),
    ] {
        let puzzles = parse_puzzles(&read_text(input));
        let expected = expected_answers(&puzzles, output);
        let run = slink(&["--rules", dir.path()], &read(input));
        let solved = answered_exactly(&run, &puzzles, &expected);
        assert!(
            solved.len() < puzzles.len(),
            "{input}: without threes.rules all {} puzzles were still solved",
            puzzles.len()
        );
        let solved: BTreeSet<usize> = solved.into_iter().collect();
        for k in 1..=puzzles.len() {
            if !solved.contains(&k) {
                assert!(
                    stuck_line(&run.stderr, k).is_some(),
                    "{input}: puzzle {k} is neither answered nor reported stuck:\n{}",
                    run.stderr
                );
            }
        }
        assert_eq!(run.status, 1, "{input}: exit status");
    }
}

#[test]
fn each_file_of_table_rules_is_needed_by_the_corpus() {
    // Ablation by file: without any one of these files some puzzle of the corpus is no longer
    // finished by deduction. (loops.rules, which only switches on loop-closure, is not in the
    // list: the rules finish the whole Slink corpus without it; global.rules, with probing
    // and search, is left out of every copy, as it would finish every puzzle, and so is
    // windows.rules: its discovered rules conclude much of what the table's files do.)
    let input = read("puzzles-slink.in");
    let puzzles = parse_puzzles(&read_text("puzzles-slink.in"));
    let expected = expected_answers(&puzzles, "puzzles-slink.out");
    for file in [
        "corners.rules",
        "counting.rules",
        "dots.rules",
        "threes.rules",
    ] {
        let dir = TempDir::rules_copy(
            &format!("without-{file}"),
            &[file, "global.rules", "windows.rules"],
        );
        let run = slink(&["--rules", dir.path()], &input);
        let solved = answered_exactly(&run, &puzzles, &expected).len();
        assert!(
            solved < puzzles.len(),
            "without {file} every puzzle is still solved"
        );
        assert_eq!(run.status, 1, "without {file}");
    }
}

#[test]
fn numbering_continues_after_a_stuck_puzzle() {
    // Without corners.rules the 2x2 sample puzzle 3 is out of reach, the others are not.
    let dir = TempDir::rules_copy("no-corners", &["corners.rules", "global.rules"]);
    let puzzles = parse_puzzles(&read_text("sample.in"));
    let expected = expected_answers(&puzzles, "sample.out");
    let run = slink(&["--rules", dir.path()], &read("sample.in"));
    assert_eq!(answered_exactly(&run, &puzzles, &expected), vec![1, 2, 4]);
    let line = stuck_line(&run.stderr, 3).expect("puzzle 3 is reported stuck");
    assert_eq!(unknown_edges(line), Some(12), "{line}");
    // Besides the warning that the copy leaves off deducers of the built-in set.
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{}", run.stderr);
    assert!(
        lines[0].starts_with("slink: warning: the rules of ") && lines[0].contains("probing"),
        "{}",
        run.stderr
    );
    assert_eq!(run.status, 1);
}

#[test]
fn numbering_continues_after_a_puzzle_without_solution() {
    // A 2x2 of 0s has no loop at all, whatever the rules.
    let input = format!("{TWO_BY_TWO}2 2\n0 0\n0 0\n{TWO_BY_TWO}0 0\n");
    let run = slink(&[], input.as_bytes());
    assert_eq!(
        run.stdout_text(),
        two_by_two_answer(1) + &two_by_two_answer(3)
    );
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{}", run.stderr);
    assert_eq!(puzzle_number(lines[0]), Some(2), "{}", lines[0]);
    assert!(lines[0].contains("no solution"), "{}", lines[0]);
    assert_eq!(run.status, 1);
}

#[test]
fn a_missing_rule_directory_is_a_clear_error() {
    let dir = TempDir::new("missing-rules");
    let missing = dir.0.join("no-such-dir");
    let missing = missing.to_str().unwrap();
    let run = slink(&["--rules", missing], &read("sample.in"));
    assert_eq!(run.stdout_text(), "");
    assert!(
        run.stderr.contains(missing) && run.stderr.contains("rules"),
        "the message should name the rule directory: {}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert_eq!(run.status, 2);
}

#[test]
fn a_rule_path_that_is_a_file_is_a_clear_error() {
    let run = slink(&["--rules", "rules/dots.rules"], &read("sample.in"));
    assert_eq!(run.stdout_text(), "");
    assert!(run.stderr.contains("rules/dots.rules"), "{}", run.stderr);
    assert_eq!(run.status, 2);
}

// ---------------------------------------------------------------------------------------------
// Bad puzzle input

const TWO_BY_TWO: &str = "2 2\n2 2\n2 2\n";

fn two_by_two_answer(k: usize) -> String {
    let sample = read_text("sample.out");
    let puzzles = parse_puzzles(&read_text("sample.in"));
    let (_, block) = split_answers(&sample, &puzzles).swap_remove(2);
    block.replacen("3\n", &format!("{k}\n"), 1)
}

#[test]
fn a_bad_clue_spoils_only_its_own_puzzle() {
    let input = format!("{TWO_BY_TWO}2 2\n2 5\n2 2\n{TWO_BY_TWO}0 0\n");
    let run = slink(&[], input.as_bytes());
    assert_eq!(
        run.stdout_text(),
        two_by_two_answer(1) + &two_by_two_answer(3),
        "puzzles 1 and 3 are answered, numbered 1 and 3"
    );
    assert!(
        run.stderr.contains("<stdin>:5:3:"),
        "the message names <stdin>:line:column of the bad clue: {}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert_eq!(run.status, 2);
}

#[test]
fn a_bad_clue_in_a_file_names_the_file() {
    let dir = TempDir::new("bad-file");
    let file = dir.0.join("bad.in");
    std::fs::write(&file, format!("{TWO_BY_TWO}2 2\n2 x\n2 2\n0 0\n")).unwrap();
    let file = file.to_str().unwrap();
    let run = slink(&["solve", file], b"");
    assert_eq!(run.stdout_text(), two_by_two_answer(1));
    assert!(
        run.stderr.contains(&format!("{file}:5:3:")),
        "{}",
        run.stderr
    );
    assert_eq!(run.status, 2);
}

/// Byte offsets of each puzzle of a stream (and of the `0 0` end marker): from the start of its
/// header to the end of its last line, newline excluded.
fn puzzle_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut starts = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        starts.push((offset, line.trim_end_matches('\n')));
        offset += line.len();
    }
    let mut i = 0;
    while i < starts.len() {
        let (start, header) = starts[i];
        let size: Vec<usize> = header
            .split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect();
        let last = i + size[0];
        let (last_start, last_text) = starts[last];
        spans.push((start, last_start + last_text.len()));
        if size[0] == 0 {
            break;
        }
        i = last + 1;
    }
    spans
}

#[test]
fn a_truncated_stream_keeps_the_answers_before_it() {
    let input = read_text("sample.in");
    let puzzles = parse_puzzles(&input);
    let answers = split_answers(&read_text("sample.out"), &puzzles);
    let spans = puzzle_spans(&input);
    assert_eq!(spans.len(), puzzles.len() + 1);
    for cut in 0..=input.len() {
        let run = slink(&[], &input.as_bytes()[..cut]);
        let complete = spans
            .iter()
            .filter(|&&(_, end)| end <= cut)
            .count()
            .min(puzzles.len());
        let inside = spans.iter().any(|&(start, end)| start < cut && cut < end);
        let kept: String = answers[..complete]
            .iter()
            .map(|(_, b)| b.as_str())
            .collect();
        assert_eq!(
            run.stdout_text(),
            kept,
            "cut at byte {cut}: the {complete} answers before the cut must be printed"
        );
        if inside {
            assert_eq!(
                run.status, 2,
                "cut at byte {cut} (inside a puzzle): {}",
                run.stderr
            );
            assert!(
                run.stderr.contains("<stdin>:"),
                "cut at byte {cut}: the message names a position: {}",
                run.stderr
            );
        } else {
            assert_eq!(
                run.status, 0,
                "cut at byte {cut} (between puzzles): {}",
                run.stderr
            );
        }
    }
}

#[test]
fn garbage_input_never_panics() {
    let cases: &[&[u8]] = &[
        b"",
        b"\n\n\n",
        b"0 0\n",
        b"abc\n",
        b"2\n",
        b"2 2 2\n",
        b"-1 2\n",
        b"2 2\n2 2\n",
        b"2 2\n2 2 2\n2 2\n0 0\n",
        b"99999999999999999999 2\n",
        b"100000 100000\n",
        b"1 1\n\xff\n0 0\n",
        b"2 2\r\n2 2\r\n2 2\r\n0 0\r\n",
        b"\t2\t2\n2\t2\n2 2\n0 0\n",
        b"2 2\n. .\n. .\n0 0\n",
        b"1 1\n0\n0 0\n",
        b"1 1\n3\n0 0\n",
    ];
    for input in cases {
        let run = slink(&[], input);
        assert!(
            [0, 1, 2].contains(&run.status),
            "{:?}: exit status {}",
            String::from_utf8_lossy(input),
            run.status
        );
        if run.status == 2 {
            assert!(
                !run.stderr.is_empty(),
                "{:?}",
                String::from_utf8_lossy(input)
            );
        }
        // Every answer printed is a valid loop.
        if run.status != 2 && !run.stdout.is_empty() {
            let puzzles = parse_puzzles(&String::from_utf8_lossy(input).replace('\r', ""));
            for (k, block) in split_answers(&run.stdout_text(), &puzzles) {
                check_answer(k, &block, &puzzles[k - 1]).unwrap();
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Blanks (ordinary Slitherlink)

#[test]
fn the_two_by_two_sample_with_a_blank_is_still_solved() {
    for blank in 0..4 {
        let mut cells = ["2"; 4];
        cells[blank] = ".";
        let input = format!(
            "2 2\n{} {}\n{} {}\n0 0\n",
            cells[0], cells[1], cells[2], cells[3]
        );
        let run = slink(&[], input.as_bytes());
        assert_eq!(run.stderr, "", "{input}");
        // The official answer, with the blank cell printed as three spaces.
        let mut lines: Vec<String> = two_by_two_answer(1).lines().map(String::from).collect();
        let (r, c) = (blank / 2, blank % 2);
        lines[1 + 3 + 2 * r].replace_range(4 * c + 4..4 * c + 5, " ");
        let want = lines.join("\n") + "\n";
        assert_eq!(run.stdout_text(), want, "{input}");
        assert_eq!(run.status, 0);
    }
}

#[test]
fn slitherlink_puzzles_are_solved_correctly_or_reported() {
    let input = read_text("puzzles-slitherlink.in");
    let puzzles = parse_puzzles(&input);
    assert_eq!(puzzles.len(), 580);
    assert!(
        puzzles.iter().any(|p| p.clues.contains(&None)),
        "the Slitherlink corpus should have blanks"
    );
    // Deduction alone: what it cannot finish is reported stuck, never "no solution".
    let run = slink(&["--no-search"], input.as_bytes());
    let mut printed = BTreeSet::new();
    for (k, block) in split_answers(&run.stdout_text(), &puzzles) {
        if let Err(e) = check_answer(k, &block, &puzzles[k - 1]) {
            panic!("an invalid answer was printed: {e}\n{block}");
        }
        assert!(printed.insert(k), "puzzle {k} answered twice");
    }
    let mut reported = BTreeSet::new();
    for line in run.stderr.lines() {
        let k = puzzle_number(line).unwrap_or_else(|| panic!("unexpected message: {line}"));
        assert!(line.contains("stuck"), "unexpected message: {line}");
        assert!(reported.insert(k), "puzzle {k} reported twice");
    }
    assert!(
        printed.is_disjoint(&reported),
        "a puzzle was both answered and reported"
    );
    let all: BTreeSet<usize> = (1..=puzzles.len()).collect();
    let covered: BTreeSet<usize> = printed.union(&reported).copied().collect();
    assert_eq!(covered, all, "every puzzle is either answered or reported");
    assert!(
        !printed.is_empty(),
        "some Slitherlink puzzles are within reach of the rules"
    );
    assert_eq!(run.status, if reported.is_empty() { 0 } else { 1 });
}

// ---------------------------------------------------------------------------------------------
// Streaming

#[test]
fn an_answer_is_written_before_the_input_ends() {
    for jobs in ["1", "2"] {
        answer_written_before_the_input_ends(jobs);
    }
}

/// With `--jobs JOBS`: the first answer arrives while the input is still open.
fn answer_written_before_the_input_ends(jobs: &str) {
    let input = read_text("sample.in");
    let spans = puzzle_spans(&input);
    let first = &input[..spans[0].1 + 1]; // puzzle 1 with its last newline
    let expected = read_text("sample.out");
    let first_answer_lines = 1 + 2 * 8 + 5;

    let mut child = Command::new(BIN)
        .args(["--jobs", jobs])
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start slink");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel::<String>();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line + "\n").is_err() {
                break;
            }
        }
    });
    stdin.write_all(first.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let mut got = String::new();
    for _ in 0..first_answer_lines {
        match rx.recv_timeout(Duration::from_secs(5)) {
            Ok(line) => got.push_str(&line),
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                let why = match e {
                    mpsc::RecvTimeoutError::Timeout => "no complete first answer within 5 s",
                    mpsc::RecvTimeoutError::Disconnected => "slink closed its output early",
                };
                panic!("--jobs {jobs}: {why} while the input stays open; got:\n{got}");
            }
        }
    }
    assert!(expected.starts_with(&got), "first answer:\n{got}");
    // Now the rest of the stream.
    stdin.write_all(&input.as_bytes()[first.len()..]).unwrap();
    drop(stdin);
    let mut deadline = 0;
    while child.try_wait().unwrap().is_none() {
        deadline += 1;
        if deadline > 1000 {
            let _ = child.kill();
            let _ = child.wait();
            panic!("slink did not finish within 10 s after its input was closed");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let status = child.wait().unwrap();
    reader.join().unwrap();
    while let Ok(line) = rx.try_recv() {
        got.push_str(&line);
    }
    assert_eq!(got, expected);
    assert_eq!(status.code(), Some(0));
}

/// Case 6 of the table (adjacent 3s) is wrong when the loop around the pair is the whole
/// answer; the engine switches `assumes single-loop` rules off on such small puzzles.
#[test]
fn a_loop_around_two_threes_that_is_the_whole_answer_is_found() {
    let run = slink(&[], b"1 2\n3 3\n2 2\n3 3\n1 1\n0 0\n");
    assert_eq!(run.status, 0, "{}", run.stderr);
    let answers = run.stdout_text();
    assert!(answers.starts_with("1\n"), "{answers}");
    assert!(answers.contains("\n2\n"), "{answers}");
    assert_eq!(answers.matches("# | 3   3 | #").count(), 2, "{answers}");
}
