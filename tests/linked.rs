//! End-to-end tests of connectivity's linked edges kept from splitting a side: `explain` names the group, the way that cannot be, the side that would be split and two of its cells cut apart, with no trial.

mod common;

use common::{data, slink};

/// Puzzle `k` (counted from 1) of the Slitherlink corpus.
fn puzzle(k: usize) -> String {
    let text = std::fs::read_to_string(data("puzzles-slitherlink.in")).unwrap();
    common::answers::nth_puzzle(&text, k - 1)
}

/// The text explanation of a puzzle without trial, which must finish it.
fn explained(puzzle: &str, extra: &[&str]) -> String {
    let mut args = vec!["explain", "--no-probing", "--no-search"];
    args.extend(extra);
    let run = slink(&args, puzzle.as_bytes());
    assert_eq!(run.status, 0, "{}", run.stderr);
    run.stdout_text()
}

/// The first linked-edges step that says a side would be split.
fn split_step(out: &str) -> &str {
    out.lines()
        .find(|l| l.contains("connectivity, linked edges:") && l.contains("would be split"))
        .unwrap_or_else(|| panic!("a linked-edges step that splits a side: {out}"))
}

#[test]
fn a_way_that_would_place_a_class_so_as_to_split_the_inside_is_explained() {
    // Puzzle 189 was stuck without trial: the way that relates a class of cells to the
    // outside so that they cut the inside apart cannot be.
    let p = puzzle(189);
    let out = explained(&p, &[]);
    assert!(out.contains("solved, the only answer"), "{out}");
    let step = split_step(&out);
    assert!(step.contains("go together"), "{step}");
    assert!(
        step.contains(
            "with the cells of the class not yet placed on their sides, the inside would be \
             split: cell (2, 5) and cell (4, 1), both inside, would be cut apart"
        ),
        "{step}"
    );
    // Every edge of the group is decided by the step.
    let decided = step.rsplit(": ").next().unwrap();
    for name in ["line h(2,2)", "cross v(2,6)", "cross h(5,0)", "line h(6,0)"] {
        assert!(decided.contains(name), "{name} in {step}");
    }
    // Without connectivity deduction alone is stuck again.
    let run = slink(
        &[
            "explain",
            "--no-probing",
            "--no-search",
            "--no-connectivity",
        ],
        p.as_bytes(),
    );
    assert!(run.stdout_text().contains("stuck"), "{}", run.stdout_text());
}

#[test]
fn a_way_that_would_split_a_side_whichever_side_two_classes_took_is_explained() {
    // Puzzle 242 needed probing: joining two classes of unknown side splits the inside with
    // their cells one way and the outside with them the other way.
    let p = puzzle(242);
    let out = explained(&p, &[]);
    assert!(out.contains("solved, the only answer"), "{out}");
    let step = out
        .lines()
        .find(|l| l.contains("the two classes would be one class of unknown side"))
        .unwrap_or_else(|| panic!("a step on two joined classes: {out}"));
    assert!(
        step.contains(
            "lines on h(3,6), h(4,5) and v(4,5) with crosses on v(3,6) and h(5,4) cannot be"
        ),
        "{step}"
    );
    assert!(
        step.contains("one way, the inside would be split: cell (4, 3) and cell (4, 5)"),
        "{step}"
    );
    assert!(
        step.contains("the other way, the outside would be split: cell (4, 3) and cell (2, 4)"),
        "{step}"
    );
    assert!(step.ends_with("cross h(3,6), line v(3,6), cross h(4,5), cross v(4,5), line h(5,4)"));
    // With trial allowed, the full explanation needs no probe now.
    let run = slink(&["explain"], p.as_bytes());
    assert!(
        !run.stdout_text().contains("probing"),
        "{}",
        run.stdout_text()
    );
}
