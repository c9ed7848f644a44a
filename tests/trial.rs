//! End-to-end tests of trial a person can follow: `explain` and `--grade` take, of the probes
//! that would decide an edge by a contradiction, the one whose chain is shortest, and the
//! grade says how many probes the explanation needed and how deep the deepest went.

mod common;

use common::{data, slink};

/// The first `n` puzzles of the Slitherlink corpus (each needs probing or more).
fn first_puzzles(n: usize) -> String {
    let text = std::fs::read_to_string(data("puzzles-slitherlink.in")).unwrap();
    common::answers::first_puzzles(&text, n)
}

/// The depth of each puzzle's grade in a JSON run.
fn depths(args: &[&str], input: &str) -> Vec<u64> {
    let mut all = vec!["--format", "json"];
    all.extend(args);
    let run = slink(&all, input.as_bytes());
    assert_eq!(run.status, 0, "{}", run.stderr);
    run.stdout_text()
        .lines()
        .map(|l| {
            let record: serde_json::Value = serde_json::from_str(l).unwrap();
            record["grade"]["depth"].as_u64().expect("a grade depth")
        })
        .collect()
}

/// Puzzles of the corpus (from 1) of at most 200 cells that deduction alone leaves stuck
/// (284 aside: probing alone does not finish it): each needs probing.
const NEED_PROBING: [usize; 31] = [
    10, 23, 27, 42, 52, 60, 63, 65, 147, 172, 183, 198, 212, 228, 239, 249, 276, 294, 299, 311,
    324, 334, 345, 350, 354, 367, 371, 434, 443, 499, 560,
];

#[test]
fn the_grade_counts_probes_and_their_depth_with_the_shortest_chains() {
    let text = std::fs::read_to_string(data("puzzles-slitherlink.in")).unwrap();
    let input: String = NEED_PROBING
        .iter()
        .map(|&k| {
            let one = common::answers::nth_puzzle(&text, k - 1);
            one.strip_suffix("0 0\n").unwrap().to_string()
        })
        .chain(["0 0\n".to_string()])
        .collect();
    // The same rules as --grade (a plain solve keeps the learned rules aside), probes as found.
    let plain = depths(&["--rules-first"], &input);
    let graded = depths(&["--grade"], &input);
    assert_eq!(plain.len(), NEED_PROBING.len());
    let (p, g): (u64, u64) = (plain.iter().sum(), graded.iter().sum());
    assert!(g > 0, "these puzzles need probing");
    // About half as deep (846 against 1,791 on 2026-12-06).
    assert!(
        3 * g < 2 * p,
        "shortest chains: {graded:?}, first found: {plain:?}"
    );
    let run = slink(&["--grade"], input.as_bytes());
    let lines: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.contains("grade:"))
        .collect();
    assert_eq!(lines.len(), NEED_PROBING.len(), "{}", run.stderr);
    for (line, depth) in lines.iter().zip(&graded) {
        if line.contains("probing (") {
            let want = format!("deepest {depth} edge");
            assert!(line.contains(&want), "{line} lacks {want}");
        }
    }
    let answers = slink(&[], input.as_bytes());
    assert_eq!(
        run.stdout, answers.stdout,
        "answers are unchanged by --grade"
    );
}

#[test]
fn every_probing_step_of_an_explanation_names_its_edge_its_chain_and_where_it_broke() {
    // Puzzle 27 of the corpus needs probing (puzzle 6 no longer does since linked edges keep
    // the sides joined).
    let text = std::fs::read_to_string(data("puzzles-slitherlink.in")).unwrap();
    let puzzle = common::answers::nth_puzzle(&text, 26);
    let run = slink(&["explain"], puzzle.as_bytes());
    assert_eq!(run.status, 0, "{}", run.stderr);
    let mut failures = 0;
    let mut longest = 0;
    for line in run.stdout_text().lines() {
        let Some((_, words)) = line.split_once("probing ") else {
            continue;
        };
        let edge = words.split(':').next().unwrap();
        assert!(edge.starts_with("h(") || edge.starts_with("v("), "{line}");
        if words.contains("both ways") {
            continue;
        }
        failures += 1;
        assert!(words.contains(", then "), "{line}");
        assert!(
            ["cell (", "dot (", "edge "]
                .iter()
                .any(|p| words.contains(p)),
            "{line}"
        );
        let steps: usize = match words.split_once("(after ") {
            Some((_, rest)) => rest.split(' ').next().unwrap().parse().unwrap(),
            None => {
                assert!(words.contains("(at once)"), "{line}");
                0
            }
        };
        longest = longest.max(steps);
    }
    assert!(failures > 0, "the puzzle needs probing");
    // The shortest chains stay short.
    assert!(longest < 10, "longest chain {longest} steps");
}

#[test]
fn linked_edges_that_would_close_a_loop_early_are_explained_without_trial() {
    // Puzzle 9 of the corpus once needed one probe ("as a line, ... then a loop would close
    // at dot (4, 16)"); connectivity now takes the edges the colour store links as one move,
    // and its step names them, the way that cannot be and why.
    let text = std::fs::read_to_string(data("puzzles-slitherlink.in")).unwrap();
    let puzzle = common::answers::nth_puzzle(&text, 8);
    let run = slink(&["explain"], puzzle.as_bytes());
    assert_eq!(run.status, 0, "{}", run.stderr);
    let out = run.stdout_text();
    assert!(out.contains("solved, the only answer"), "{out}");
    assert!(!out.contains("probing"), "no trial left: {out}");
    let step = out
        .lines()
        .find(|l| l.contains("connectivity, linked edges:"))
        .unwrap_or_else(|| panic!("a linked-edges step: {out}"));
    assert!(step.contains("go together"), "{step}");
    assert!(
        step.contains("cannot be: a loop would close at dot"),
        "{step}"
    );
    assert!(step.contains("with lines left off it"), "{step}");
    // Every edge the step names as going together is among those it decided.
    let decided = step.rsplit(": ").next().unwrap();
    for name in [
        "v(3,15)", "h(4,16)", "h(4,17)", "v(2,18)", "v(3,18)", "h(4,15)",
    ] {
        assert!(decided.contains(name), "{name} in {step}");
    }
    // Without connectivity the same puzzle needs its probe again.
    let run = slink(&["explain", "--no-connectivity"], puzzle.as_bytes());
    assert!(
        run.stdout_text().contains("probing"),
        "{}",
        run.stdout_text()
    );
}

/// Each puzzle's outcome, probe count and answer in a JSON run (exit status 0, or 1 when
/// some puzzle is left unsolved).
fn outcomes(args: &[&str], input: &str) -> Vec<(String, u64, serde_json::Value)> {
    let mut all = vec!["--format", "json"];
    all.extend(args);
    let run = slink(&all, input.as_bytes());
    assert!(run.status == 0 || run.status == 1, "{}", run.stderr);
    run.stdout_text()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let probes = v["stats"]["probes"].as_u64().unwrap();
            (
                v["outcome"].as_str().unwrap().to_string(),
                probes,
                v["edges"].clone(),
            )
        })
        .collect()
}

#[test]
fn a_plain_solve_probes_where_the_learned_rules_would_and_explanations_keep_them() {
    // Puzzle 125 of the corpus (5x5): deduction finishes it only with the rules learned from
    // probes (level 4), which probing stands in for in a plain solve (`use probing instead
    // of level 4`).
    let text = std::fs::read_to_string(data("puzzles-slitherlink.in")).unwrap();
    let puzzle = common::answers::nth_puzzle(&text, 124);
    let plain = outcomes(&[], &puzzle);
    let first = outcomes(&["--rules-first"], &puzzle);
    let alone = outcomes(&["--no-probing", "--no-search"], &puzzle);
    assert_eq!(plain[0].0, "solved");
    assert!(plain[0].1 > 0, "the plain solve probes: {plain:?}");
    assert_eq!((first[0].0.as_str(), first[0].1), ("solved", 0));
    assert_eq!(alone[0].0, "solved");
    assert_eq!(plain[0].2, first[0].2);
    assert_eq!(plain[0].2, alone[0].2);
    // --grade counts the probes an explanation needs: none, the learned rules go first.
    let run = slink(&["--grade"], puzzle.as_bytes());
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stderr.contains("grade:"), "{}", run.stderr);
    assert!(!run.stderr.contains("probing"), "{}", run.stderr);
    // And explain names no probe.
    let run = slink(&["explain"], puzzle.as_bytes());
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        !run.stdout_text().contains("probing"),
        "{}",
        run.stdout_text()
    );
}

#[test]
fn the_rules_probing_stands_in_for_come_on_where_probing_is_stuck() {
    // A copy of the built-in set in which probing stands in for every rule (`use probing
    // instead of level 1`): a plain solve probes with no rule at all, which finishes none of
    // these puzzles (the second copy: no rules, probing alone), then brings every rule on,
    // on the same boards, and probes again.
    let every = common::TempDir::new("instead-of-1");
    let none = common::TempDir::new("no-rules");
    for entry in std::fs::read_dir(common::root().join("rules")).unwrap() {
        let path = entry.unwrap().path();
        if !path.is_file() {
            continue;
        }
        let name = path.file_name().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let text = text.replace(
            "use probing instead of level 4",
            "use probing instead of level 1",
        );
        std::fs::write(every.0.join(name), &text).unwrap();
        if name == "global.rules" || name == "loops.rules" {
            std::fs::write(none.0.join(name), &text).unwrap();
        }
    }
    let puzzles = first_puzzles(12);
    let args = |dir: &str| -> Vec<String> {
        ["--trust-rules", "--rules", dir, "--no-search"]
            .map(String::from)
            .to_vec()
    };
    let run = |dir: &str| {
        let args = args(dir);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        outcomes(&args, &puzzles)
    };
    let with_rules = run(every.path());
    let probing_alone = run(none.path());
    assert_eq!(with_rules.len(), 12);
    assert!(with_rules.iter().all(|o| o.0 == "solved"), "{with_rules:?}");
    assert!(
        probing_alone.iter().all(|o| o.0 == "stuck"),
        "{probing_alone:?}"
    );
    // The same answers as the built-in set's plain solve.
    let plain = outcomes(&[], &puzzles);
    for (a, b) in with_rules.iter().zip(&plain) {
        assert_eq!(a.2, b.2);
    }
}
