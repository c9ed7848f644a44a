//! End-to-end tests of `slink hint` and of the board files it reads (`convert --to
//! pzprv3|board`), run through the binary. The oracle is the expected answers of
//! `tests/data`, read independently of the crate: boards are made from them with some of
//! the solution's lines and crosses marked (and, for the wrong-mark tests, one mark flipped).

mod common;

use common::answers::{EdgeKey, PuzzleText, parse_answers, parse_puzzles};
use common::{Lcg, TempDir, data, slink};
use std::collections::BTreeMap;

/// A puzzle with its only solution's lines.
struct Case {
    puzzle: PuzzleText,
    lines: std::collections::BTreeSet<EdgeKey>,
}

/// Every edge of a grid, in reading order of the doubled grid.
fn edges(rows: usize, cols: usize) -> Vec<EdgeKey> {
    let mut all = Vec::new();
    for r in 0..=rows {
        for c in 0..cols {
            all.push(('h', r, c));
        }
        if r < rows {
            for c in 0..=cols {
                all.push(('v', r, c));
            }
        }
    }
    all
}

/// The sample's puzzles and the first few of each corpus, with their answers.
fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (stream, answers, n) in [
        ("sample.in", "sample.out", 4),
        ("puzzles-slink.in", "puzzles-slink.out", 4),
        ("puzzles-slitherlink.in", "puzzles-slitherlink.out", 3),
    ] {
        let puzzles = parse_puzzles(&std::fs::read_to_string(data(stream)).unwrap());
        let answers = parse_answers(&std::fs::read_to_string(data(answers)).unwrap());
        for (puzzle, answer) in puzzles.into_iter().zip(answers).take(n) {
            assert_eq!((puzzle.rows, puzzle.cols), (answer.rows, answer.cols));
            cases.push(Case {
                puzzle,
                lines: answer.lines,
            });
        }
    }
    cases
}

/// A framed board: the puzzle's clues and the marks (`true` a line, `false` a cross).
fn framed(puzzle: &PuzzleText, marks: &BTreeMap<EdgeKey, bool>) -> String {
    let (rows, cols) = (puzzle.rows, puzzle.cols);
    let width = 4 * cols + 5;
    let mut out = format!("{}\n#{}#\n", "#".repeat(width), " ".repeat(width - 2));
    for y in 0..=2 * rows {
        let r = y / 2;
        let mut line = String::from("# ");
        for c in 0..=cols {
            if y % 2 == 0 {
                line.push('+');
                if c < cols {
                    line.push_str(match marks.get(&('h', r, c)) {
                        Some(true) => "---",
                        Some(false) => " x ",
                        None => "   ",
                    });
                }
            } else {
                line.push(match marks.get(&('v', r, c)) {
                    Some(true) => '|',
                    Some(false) => 'x',
                    None => ' ',
                });
                if c < cols {
                    let clue = puzzle.clues[r].as_bytes()[c] as char;
                    line.push(' ');
                    line.push(if clue == '.' { ' ' } else { clue });
                    line.push(' ');
                }
            }
        }
        out += &line;
        out += " #\n";
    }
    out + &format!("#{}#\n{}\n", " ".repeat(width - 2), "#".repeat(width))
}

/// About `percent` of the edges, marked as the solution has them.
fn right_marks(case: &Case, percent: u64, rng: &mut Lcg) -> BTreeMap<EdgeKey, bool> {
    edges(case.puzzle.rows, case.puzzle.cols)
        .into_iter()
        .filter(|_| rng.below(100) < percent)
        .map(|e| (e, case.lines.contains(&e)))
        .collect()
}

/// `h(r,c)` / `v(r,c)`, as slink names an edge.
fn name(e: &EdgeKey) -> String {
    format!("{}({},{})", e.0, e.1, e.2)
}

/// The edges a step line decides: `line h(0,1), cross v(2,3)` after its last `: `.
fn step_edges(line: &str) -> Vec<(EdgeKey, bool)> {
    let (_, list) = line.rsplit_once(": ").expect("a step names its edges");
    list.split(", ")
        .map(|item| {
            let (word, edge) = item.split_once(' ').expect("`line e` or `cross e`");
            let inner = &edge[2..edge.len() - 1];
            let (r, c) = inner.split_once(',').unwrap();
            let key = (
                edge.chars().next().unwrap(),
                r.parse().unwrap(),
                c.parse().unwrap(),
            );
            (key, word == "line")
        })
        .collect()
}

#[test]
fn a_board_with_one_wrong_mark_is_told_that_mark() {
    let mut rng = Lcg(7);
    for (k, case) in cases().iter().enumerate() {
        for percent in [10, 40, 80] {
            let mut marks = right_marks(case, percent, &mut rng);
            let all = edges(case.puzzle.rows, case.puzzle.cols);
            let flipped = all[rng.below(all.len() as u64) as usize];
            let wrong = !case.lines.contains(&flipped);
            marks.insert(flipped, wrong);
            let run = slink(&["hint"], framed(&case.puzzle, &marks).as_bytes());
            let out = run.stdout_text();
            assert_eq!(run.status, 1, "case {k}: {out}{}", run.stderr);
            assert!(out.contains(": 1 mark is wrong"), "case {k}: {out}");
            let listed: Vec<&str> = out.lines().filter(|l| l.starts_with("    ")).collect();
            let word = if wrong { "line" } else { "cross" };
            assert_eq!(listed.len(), 1, "case {k}: {out}");
            assert!(
                listed[0].starts_with(&format!(
                    "    {word} {}, the edge between dots",
                    name(&flipped)
                )),
                "case {k}, {flipped:?}: {out}"
            );
        }
    }
}

#[test]
fn a_hint_on_a_right_board_names_steps_that_agree_with_the_solution() {
    let mut rng = Lcg(11);
    let mut deducer_steps = 0;
    for (k, case) in cases().iter().enumerate() {
        for percent in [0, 20, 50, 80] {
            let marks = right_marks(case, percent, &mut rng);
            let board = framed(&case.puzzle, &marks);
            let run = slink(&["hint", "--all"], board.as_bytes());
            let out = run.stdout_text();
            if out.contains("solved, every line of the loop is drawn") {
                assert!(
                    case.lines.iter().all(|e| marks.get(e) == Some(&true)),
                    "{out}"
                );
                continue;
            }
            assert_eq!(run.status, 0, "case {k}: {out}{}", run.stderr);
            assert!(out.contains("the marks are right"), "case {k}: {out}");
            deducer_steps += usize::from(out.contains("(no rule applies)"));
            let steps: Vec<&str> = out
                .lines()
                .filter(|l| {
                    let t = l.trim_start();
                    t.split_once(". ")
                        .is_some_and(|(n, _)| n.bytes().all(|b| b.is_ascii_digit()))
                })
                .collect();
            assert!(!steps.is_empty(), "case {k}: {out}");
            for step in steps {
                for (edge, line) in step_edges(step) {
                    assert_eq!(
                        case.lines.contains(&edge),
                        line,
                        "case {k}: {step} disagrees with the solution at {edge:?}"
                    );
                    assert!(
                        !marks.contains_key(&edge),
                        "case {k}: {step} was marked already"
                    );
                }
            }
            // Without --all: one step, the first of the list.
            let one = slink(&["hint", "-"], board.as_bytes()).stdout_text();
            let first = |text: &str| {
                text.lines()
                    .find(|l| l.starts_with("    1. "))
                    .map(str::to_string)
            };
            assert_eq!(first(&one), first(&out), "case {k}");
            assert!(!one.contains("    2. "), "case {k}: {one}");
        }
    }
    // Not every test board needs a deducer; the count is only reported.
    eprintln!("{deducer_steps} hints named a deducer's step");
}

#[test]
fn a_full_loop_is_solved_and_a_board_with_every_line_is_checked() {
    let case = &cases()[3];
    let marks: BTreeMap<EdgeKey, bool> = case.lines.iter().map(|&e| (e, true)).collect();
    let run = slink(&["hint"], framed(&case.puzzle, &marks).as_bytes());
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stdout_text()
            .contains(": solved, every line of the loop is drawn"),
        "{}",
        run.stdout_text()
    );
    // slink's own answer is a board too (its dots drawn as the loop passes them).
    let answer = slink(&["tests/data/sample.in"], b"").stdout_text();
    let run = slink(&["hint"], answer.as_bytes());
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout_text().matches(": solved, every line").count(),
        4,
        "{}",
        run.stdout_text()
    );
}

#[test]
fn a_pzprv3_file_round_trips_and_gives_the_same_hint_as_its_framed_board() {
    // Written by hand from pzprjs's file description: clues, cell colours, vertical edges
    // (rows x cols + 1), horizontal edges (rows + 1 x cols); 1 line, -1 cross, 0 nothing.
    let file = std::fs::read_to_string(data("hint-3x5.pzprv3")).unwrap();
    let board = slink(
        &["convert", "--to", "board", "tests/data/hint-3x5.pzprv3"],
        b"",
    );
    assert_eq!(board.status, 0, "{}", board.stderr);
    let board = board.stdout_text();
    assert!(
        board.contains("# +---+   +   +   +   + #\n# | 3 | 3   3   2   3   #\n# + x +"),
        "{board}"
    );
    let back = slink(&["convert", "--to", "pzprv3"], board.as_bytes());
    assert_eq!(back.status, 0, "{}", back.stderr);
    assert_eq!(back.stdout_text(), file);
    // And a framed board through a file and back, for every case.
    let mut rng = Lcg(3);
    let dir = TempDir::new("hint");
    for (k, case) in cases().iter().enumerate() {
        let marks = right_marks(case, 50, &mut rng);
        let framed = framed(&case.puzzle, &marks);
        let file = slink(&["convert", "--to", "pzprv3"], framed.as_bytes());
        assert_eq!(file.status, 0, "{}", file.stderr);
        let path = format!("{}/{k}.pzprv3", dir.path());
        std::fs::write(&path, &file.stdout).unwrap();
        let again = slink(&["convert", "--to", "board", &path], b"").stdout_text();
        assert_eq!(again, format!("1\n{framed}"), "case {k}");
        let hint_file = slink(&["hint", &path], b"").stdout_text();
        let hint_board = slink(&["hint"], framed.as_bytes()).stdout_text();
        assert_eq!(hint_file.replace(&path, "<stdin>"), hint_board, "case {k}");
        // The puzzle alone, as a stream.
        let stream = slink(&["convert", "--to", "stream", &path], b"").stdout_text();
        let mut expected = format!("{} {}\n", case.puzzle.rows, case.puzzle.cols);
        for row in &case.puzzle.clues {
            let cells: Vec<String> = row.chars().map(String::from).collect();
            expected += &(cells.join(" ") + "\n");
        }
        assert_eq!(stream, expected + "0 0\n", "case {k}");
    }
}

#[test]
fn a_puzzle_without_marks_gets_its_first_step() {
    let run = slink(&["hint", "tests/data/sample.in"], b"");
    assert_eq!(run.status, 0, "{}", run.stderr);
    let out = run.stdout_text();
    assert_eq!(
        out.matches("0 lines and 0 crosses): the marks are right")
            .count(),
        4,
        "{out}"
    );
    assert!(out.contains("when:") && out.contains("then:"), "{out}");
}

#[test]
fn bad_boards_are_named_with_their_place() {
    let bad_glyph = "#############\n#           #\n# +-o-+   + #\n#   3       #\n# +   +   + #\n#   1   2   #\n# +   +   + #\n#           #\n#############\n";
    let run = slink(&["hint"], bad_glyph.as_bytes());
    assert_eq!(run.status, 2);
    assert!(
        run.stderr
            .contains("<stdin>:3:4: `-o-` on a horizontal edge"),
        "{}",
        run.stderr
    );
    let bad_clue = bad_glyph.replace("-o-", "   ").replace(" 3 ", " 5 ");
    let run = slink(&["hint"], bad_clue.as_bytes());
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("<stdin>:4:4: ` 5 ` in a cell"),
        "{}",
        run.stderr
    );
    let cases = [
        ("pzprv3\nnurikabe\n1\n1\n", "<stdin>:2:1: a `nurikabe` file"),
        ("pzprv3\nslither\n1\n2\n4 . \n", "<stdin>:5:1: clue 4"),
        (
            "pzprv3\nslither\n1\n2\n1 . \n0 0 y\n",
            "<stdin>:6:5: `y` is not an edge mark",
        ),
        (
            "pzprv3\nslither\n1\n2\n1 . \n0 0 0\n0 0\n",
            "<stdin>:8:1: the file ends before all its lines of horizontal edges",
        ),
        (
            "pzprv3.1\nslither\n1\n2\n1 . 3\n",
            "<stdin>:5:5: more than 2 items",
        ),
    ];
    for (text, message) in cases {
        let run = slink(&["hint"], text.as_bytes());
        assert_eq!(run.status, 2, "{text}");
        assert!(run.stderr.contains(message), "{text}: {}", run.stderr);
    }
    // Frames cut short, and a size whose lines are not there: refused, no panic.
    for text in [
        "#########\n#########\n",
        "1\n#############\n#           #\n#############\n",
        "#############\n#           #\n# +   +   + #\n#           #\n#############\n",
        "#############\n",
        "1\n",
        "pzprv3\nslither\n5000\n5000\n",
    ] {
        let run = slink(&["hint"], text.as_bytes());
        assert_eq!(run.status, 2, "{text}: {}", run.stdout_text());
        assert!(run.stderr.contains("<stdin>:"), "{text}: {}", run.stderr);
    }
    let run = slink(&["hint", "tests/data"], b"");
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("it is a directory"), "{}", run.stderr);
}

/// The built-in rule files as they were when the `hint-stuck` and `hint-colour` boards were
/// written (deduction's fixpoint then): without the discovered rules of `windows.rules` and
/// the rules learned from probes of `learned.rules`, which find steps on those boards. In a
/// directory `rules` of its own, so steps name `rules/FILE:LINE` as the built-in set's do.
fn rules_of_the_boards() -> (TempDir, String) {
    let dir = TempDir::new("hint-rules");
    let rules = dir.0.join("rules");
    std::fs::create_dir_all(&rules).unwrap();
    for entry in std::fs::read_dir(common::root().join("rules")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap();
        if path.is_file() && name != "windows.rules" && name != "learned.rules" {
            std::fs::copy(&path, rules.join(path.file_name().unwrap())).unwrap();
        }
    }
    let path = rules.to_str().unwrap().to_string();
    (dir, path)
}

#[test]
fn where_no_rule_applies_the_first_deducer_step_is_named() {
    // The first Slitherlink corpus puzzle where deduction without probing stops (written
    // from `slink --no-probing --no-search --format json`): no rule applies there.
    let case = &cases()[8];
    assert_eq!((case.puzzle.rows, case.puzzle.cols), (10, 18));
    let (_dir, rules) = rules_of_the_boards();
    let run = slink(
        &["hint", "--rules", &rules, "tests/data/hint-stuck.txt"],
        b"",
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let out = run.stdout_text();
    assert!(out.contains("the next step (no rule applies):"), "{out}");
    let step = out
        .lines()
        .find(|l| l.starts_with("    1. "))
        .expect("a step");
    // Connectivity comes before regions and probing, and names the linked edges it decided
    // and why the other way cannot be.
    assert!(
        step.starts_with("    1. connectivity, linked edges: "),
        "{step}"
    );
    assert!(step.contains("cannot be: "), "{step}");
    for (edge, line) in step_edges(step) {
        assert_eq!(case.lines.contains(&edge), line, "{step}: {edge:?}");
    }
    // With connectivity, regions and probing off there is no step, and the exit status says so.
    let run = slink(
        &[
            "hint",
            "--rules",
            &rules,
            "--no-connectivity",
            "--no-regions",
            "--no-probing",
            "tests/data/hint-stuck.txt",
        ],
        b"",
    );
    assert_eq!(run.status, 1, "{}", run.stdout_text());
    assert!(
        run.stdout_text()
            .contains("deduction finds no step from here"),
        "{}",
        run.stdout_text()
    );
}

#[test]
fn where_only_colour_rules_apply_their_steps_are_named_with_their_letters() {
    // The first Slitherlink corpus puzzle as deduction leaves it without colouring (written
    // from `slink --no-colouring --no-probing --no-search --format json`): no edge rule
    // applies and loop closure adds nothing, but the colour store of the marks lets a colour
    // rule decide an edge.
    let case = &cases()[8];
    let (_dir, rules) = rules_of_the_boards();
    let run = slink(
        &[
            "hint",
            "--rules",
            &rules,
            "--all",
            "tests/data/hint-colour.txt",
        ],
        b"",
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let out = run.stdout_text();
    assert!(out.contains("the marks are right"), "{out}");
    let steps: Vec<&str> = out.lines().filter(|l| l.starts_with("    ")).collect();
    let numbered: Vec<&&str> = steps
        .iter()
        .filter(|l| {
            l.trim_start()
                .split_once(". ")
                .is_some_and(|(n, _)| n.parse::<usize>().is_ok())
        })
        .collect();
    assert!(!numbered.is_empty(), "{out}");
    for step in &numbered {
        assert!(step.contains("rules/colours.rules:"), "{step}");
        for (edge, line) in step_edges(step) {
            assert_eq!(case.lines.contains(&edge), line, "{step}: {edge:?}");
        }
    }
    // The rule's pictures show its colour letters.
    assert!(
        steps.iter().any(|l| l.starts_with("         ")
            && l.chars().any(|c| c.is_ascii_alphabetic() && c != 'x')),
        "{out}"
    );
    // Without colouring, no colour rule is named: the step is a deducer's.
    let run = slink(
        &[
            "hint",
            "--rules",
            &rules,
            "--no-colouring",
            "tests/data/hint-colour.txt",
        ],
        b"",
    );
    let out = run.stdout_text();
    assert!(out.contains("the next step (no rule applies):"), "{out}");
    assert!(!out.contains("colours.rules"), "{out}");
}

#[test]
fn urls_are_boards_without_marks_and_unchecked_marks_are_said() {
    let run = slink(&["hint", "https://puzz.link/p?slither/5/5/cbcbcddad"], b"");
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stdout_text().starts_with("board 1 (https://puzz.link/p?slither/5/5/cbcbcddad, 5x5, 0 lines and 0 crosses): the marks are right; the next step (a level-1 rule):"),
        "{}",
        run.stdout_text()
    );
    let (_dir, rules) = rules_of_the_boards();
    // Search off, and deduction alone does not finish this one: a step, marks unchecked.
    let run = slink(
        &[
            "hint",
            "--rules",
            &rules,
            "--no-search",
            "--no-probing",
            "--no-regions",
            "--no-connectivity",
            "tests/data/hint-stuck.txt",
        ],
        b"",
    );
    assert_eq!(run.status, 1, "{}", run.stderr);
    assert!(
        run.stdout_text()
            .contains("the marks are not checked (search is off"),
        "{}",
        run.stdout_text()
    );
}

#[test]
fn marks_that_clash_on_a_puzzle_with_several_solutions_name_the_marks_to_blame() {
    // A 2x3 puzzle with one clue (many solutions); the marks run a line into the corner
    // and cross the edge it would have to turn down.
    let run = slink(&["hint", "tests/data/hint-clash.txt"], b"");
    assert_eq!(run.status, 1, "{}", run.stderr);
    let out = run.stdout_text();
    assert!(
        out.contains(
            "no solution agrees with all the marks together: the loop would end at dot (0, 0)"
        ),
        "{out}"
    );
    let blamed: Vec<&str> = out.lines().filter(|l| l.starts_with("    ")).collect();
    assert_eq!(
        blamed,
        [
            "    line h(0,0), the edge between dots (0, 0) and (0, 1), the top side of cell (0, 0)",
            "    cross v(0,0), the edge between dots (0, 0) and (1, 0), the left side of cell (0, 0)",
        ],
        "{out}"
    );
    // Without the cross, the marks agree with some solution.
    let fixed = std::fs::read_to_string(data("hint-clash.txt"))
        .unwrap()
        .replace("# x           | #", "#             | #");
    let run = slink(&["hint"], fixed.as_bytes());
    assert!(
        run.stdout_text()
            .contains("the marks are right (the puzzle has several solutions"),
        "{}",
        run.stdout_text()
    );
}
