//! End-to-end tests of the output formats, URLs, `convert`, `--jobs` and `explain`, run
//! in-process through `slink::cli::run`; every oracle is read independently of the crate
//! (the expected answer frames of `tests/data`, a puzzle and answer published with pzprjs).

use std::collections::BTreeSet;
use std::ffi::OsString;

mod common;

use common::answers::{Answer, EdgeKey, first_puzzles, parse_answers, parse_puzzles};
use common::data;

/// What one in-process run gave: exit status, standard output and standard error.
struct Ran {
    status: i32,
    out: String,
    err: String,
}

/// Runs `slink ARGS` in-process with `stdin`.
fn slink(args: &[&str], stdin: &str) -> Ran {
    let mut argv: Vec<OsString> = vec!["slink".into()];
    argv.extend(args.iter().map(OsString::from));
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let status = slink::cli::run(argv, &mut stdin.as_bytes(), &mut out, &mut err);
    let err = String::from_utf8(err).expect("messages are UTF-8");
    assert!(!err.contains("panicked"), "slink {args:?} panicked: {err}");
    Ran {
        status,
        out: String::from_utf8(out).expect("output is UTF-8"),
        err,
    }
}

fn read(name: &str) -> String {
    std::fs::read_to_string(data(name)).unwrap_or_else(|e| panic!("tests/data/{name}: {e}"))
}

/// The sample and the first `n` corpus puzzles with their expected answers.
fn stream_and_answers(n: usize) -> Vec<(String, Vec<Answer>)> {
    let corpus = first_puzzles(&read("puzzles-slink.in"), n);
    let expected: Vec<Answer> = parse_answers(&read("puzzles-slink.out"))
        .into_iter()
        .take(n)
        .collect();
    vec![
        (read("sample.in"), parse_answers(&read("sample.out"))),
        (corpus, expected),
    ]
}

// ---------------------------------------------------------------------------------------------
// SVG

/// The edges a loop path's `d` walks (`M x y L x y ... Z`), as dot-to-dot steps.
fn path_edges(d: &str) -> Vec<EdgeKey> {
    const CELL: i64 = 32;
    const MARGIN: i64 = 16;
    let mut points = Vec::new();
    let mut closed = false;
    let mut rest = d.trim();
    while !rest.is_empty() {
        let (cmd, tail) = rest.split_at(1);
        match cmd {
            "M" | "L" => {
                let end = tail.find(['M', 'L', 'Z']).unwrap_or(tail.len());
                let nums: Vec<i64> = tail[..end]
                    .split([' ', ','])
                    .filter(|s| !s.is_empty())
                    .map(|s| s.parse().expect("integer coordinate"))
                    .collect();
                assert_eq!(nums.len(), 2, "one point per command in {d:?}");
                let (x, y) = ((nums[0] - MARGIN), (nums[1] - MARGIN));
                assert!(x % CELL == 0 && y % CELL == 0, "points sit on dots: {d:?}");
                points.push((y / CELL, x / CELL));
                rest = tail[end..].trim_start();
            }
            "Z" => {
                closed = true;
                rest = tail.trim_start();
            }
            other => panic!("unexpected path command {other:?} in {d:?}"),
        }
    }
    if closed {
        points.push(points[0]);
    }
    points
        .windows(2)
        .map(|w| {
            let ((r0, c0), (r1, c1)) = (w[0], w[1]);
            match (r1 - r0, c1 - c0) {
                (0, 1) => ('h', r0 as usize, c0 as usize),
                (0, -1) => ('h', r0 as usize, c1 as usize),
                (1, 0) => ('v', r0 as usize, c0 as usize),
                (-1, 0) => ('v', r1 as usize, c0 as usize),
                step => panic!("a path step {step:?} that is not one edge, in {d:?}"),
            }
        })
        .collect()
}

#[test]
fn svg_pictures_parse_as_xml_and_their_loop_walks_exactly_the_answer() {
    for (k, (input, expected)) in stream_and_answers(150).into_iter().enumerate() {
        // One file per puzzle under --out-dir, each parsed on its own.
        let dir =
            std::env::temp_dir().join(format!("slink-formats-svg-{}-{k}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let ran = slink(
            &["--format", "svg", "--out-dir", dir.to_str().unwrap()],
            &input,
        );
        assert_eq!(ran.status, 0, "{}", ran.err);
        assert!(ran.out.is_empty(), "the answers go to files");
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        files.sort();
        assert_eq!(
            files.len(),
            expected.len(),
            "one SVG file per puzzle: {files:?}"
        );
        for answer in &expected {
            let doc = std::fs::read_to_string(dir.join(format!("{}.svg", answer.number)))
                .unwrap_or_else(|e| panic!("puzzle {}: {e}", answer.number));
            let xml = roxmltree::Document::parse(&doc)
                .unwrap_or_else(|e| panic!("puzzle {}: not XML: {e}", answer.number));
            let root = xml.root_element();
            assert_eq!(root.tag_name().name(), "svg");
            let number = answer.number.to_string();
            assert_eq!(root.attribute("data-puzzle"), Some(number.as_str()));
            assert_eq!(root.attribute("data-source"), Some("<stdin>"));
            let title = root.children().find(|n| n.has_tag_name("title")).unwrap();
            assert_eq!(
                title.text(),
                Some(format!("puzzle {number} (<stdin>)").as_str())
            );
            let paths: Vec<&str> = root
                .descendants()
                .filter(|n| n.has_tag_name("path") && n.attribute("class") == Some("loop"))
                .map(|n| n.attribute("d").expect("a path has d"))
                .collect();
            assert_eq!(
                paths.len(),
                1,
                "puzzle {}: one loop, one path",
                answer.number
            );
            let walked = path_edges(paths[0]);
            let set: BTreeSet<EdgeKey> = walked.iter().copied().collect();
            assert_eq!(set.len(), walked.len(), "the loop visits no edge twice");
            assert_eq!(set, answer.lines, "puzzle {}: loop edges", answer.number);
            let clues = root
                .descendants()
                .filter(|n| n.has_tag_name("text"))
                .count();
            assert_eq!(
                clues,
                answer.rows * answer.cols,
                "every Slink cell has its clue drawn"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn svg_crosses_are_drawn_on_request() {
    let input = read("sample.in");
    let plain = slink(&["--format", "svg"], &input).out;
    let crossed = slink(&["--format", "svg", "--crosses"], &input).out;
    assert!(!plain.contains("class=\"crosses\""));
    assert!(crossed.contains("class=\"crosses\""), "{crossed}");
}

// ---------------------------------------------------------------------------------------------
// JSON

#[test]
fn json_records_parse_and_their_edges_rebuild_the_answer() {
    for (input, expected) in stream_and_answers(150) {
        let puzzles = parse_puzzles(&input);
        let ran = slink(&["--format", "json"], &input);
        assert_eq!(ran.status, 0, "{}", ran.err);
        let records: Vec<serde_json::Value> = ran
            .out
            .lines()
            .map(|l| serde_json::from_str(l).expect("each line is one JSON object"))
            .collect();
        assert_eq!(records.len(), expected.len());
        for ((record, answer), puzzle) in records.iter().zip(&expected).zip(&puzzles) {
            assert_eq!(record["puzzle"], answer.number);
            assert_eq!(record["outcome"], "solved");
            assert_eq!(record["answer"], true);
            assert_eq!(record["rows"], answer.rows);
            assert_eq!(record["cols"], answer.cols);
            let clues: Vec<String> = record["clues"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_string())
                .collect();
            assert_eq!(clues, puzzle.clues);
            let mut lines = BTreeSet::new();
            for (kind, key) in [('h', "horizontal"), ('v', "vertical")] {
                let rows = record["edges"][key].as_array().unwrap();
                let expect_rows = if kind == 'h' {
                    answer.rows + 1
                } else {
                    answer.rows
                };
                assert_eq!(rows.len(), expect_rows);
                for (r, row) in rows.iter().enumerate() {
                    for (c, state) in row.as_str().unwrap().chars().enumerate() {
                        assert!(
                            state == 'L' || state == 'x',
                            "a solved board has no unknowns"
                        );
                        if state == 'L' {
                            lines.insert((kind, r, c));
                        }
                    }
                }
            }
            assert_eq!(lines, answer.lines, "puzzle {}", answer.number);
            assert!(record["stats"]["time_ms"].is_number());
            assert!(record["grade"]["level"].as_u64().unwrap() >= 1);
        }
    }
}

#[test]
fn json_shows_a_stuck_board_with_its_unknown_edges() {
    let ran = slink(
        &["--format", "json", "--no-search", "--no-probing"],
        "3 3\n. . .\n. . .\n. . .\n0 0\n",
    );
    assert_eq!(ran.status, 1);
    let record: serde_json::Value = serde_json::from_str(ran.out.trim()).unwrap();
    assert_eq!(record["outcome"], "stuck");
    assert_eq!(record["answer"], false);
    assert!(record["message"].as_str().unwrap().contains("stuck"));
    assert!(
        record["edges"]["horizontal"][0]
            .as_str()
            .unwrap()
            .contains('?')
    );
}

// ---------------------------------------------------------------------------------------------
// URLs

/// A puzzle and its answer as published in pzprjs's own tests (`test/script/slither.js`): the
/// URL body `5/5/cbcbcddad`, the board `2 . . 1 . / . 2 . . 1 / . . 2 . . / 3 . . 3 . /
/// . 0 . . 3`, and its solved border data (1 line, -1 cross, 0 unmarked; first the vertical
/// edges per cell row, then the horizontal edges per dot row).
const PZPR_URL: &str = "https://puzz.link/p?slither/5/5/cbcbcddad";
const PZPR_STREAM: &str = "5 5\n2 . . 1 .\n. 2 . . 1\n. . 2 . .\n3 . . 3 .\n. 0 . . 3\n0 0\n";
const PZPR_VERTICAL: [&str; 5] = [
    "1 -1 0 -1 -1 1",
    "1 1 -1 1 -1 1",
    "1 1 1 0 0 1",
    "1 1 1 1 1 1",
    "-1 -1 -1 0 1 1",
];
const PZPR_HORIZONTAL: [&str; 6] = [
    "1 1 1 1 1",
    "-1 1 1 -1 -1",
    "0 -1 1 0 0",
    "0 0 0 1 0",
    "1 -1 1 -1 0",
    "-1 0 -1 0 1",
];

fn pzpr_lines() -> BTreeSet<EdgeKey> {
    let mut lines = BTreeSet::new();
    for (kind, rows) in [('v', &PZPR_VERTICAL[..]), ('h', &PZPR_HORIZONTAL[..])] {
        for (r, row) in rows.iter().enumerate() {
            for (c, v) in row.split_whitespace().enumerate() {
                if v == "1" {
                    lines.insert((kind, r, c));
                }
            }
        }
    }
    lines
}

#[test]
fn a_published_url_reads_as_its_puzzle_and_solves_to_its_published_answer() {
    // Reading: convert to a stream.
    let ran = slink(&["convert", "--to", "stream", PZPR_URL], "");
    assert_eq!(ran.status, 0, "{}", ran.err);
    assert_eq!(parse_puzzles(&ran.out), parse_puzzles(PZPR_STREAM));
    // Solving the URL given as an argument.
    let ran = slink(&[PZPR_URL], "");
    assert_eq!(ran.status, 0, "{}", ran.err);
    let answers = parse_answers(&ran.out);
    assert_eq!(answers.len(), 1);
    assert_eq!(answers[0].lines, pzpr_lines());
    // Writing: the stream's puzzle as a URL is the published one.
    let ran = slink(&["convert", "--to", "url"], PZPR_STREAM);
    assert_eq!(ran.out.trim(), PZPR_URL);
    let ran = slink(&["--format", "url"], PZPR_STREAM);
    assert_eq!(ran.out.trim(), PZPR_URL);
}

#[test]
fn a_file_of_urls_is_read_line_by_line() {
    let dir = std::env::temp_dir().join(format!("slink-urls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("urls.txt");
    std::fs::write(&file, format!("# a comment\n{PZPR_URL}\n\n{PZPR_URL}\n")).unwrap();
    let ran = slink(&[file.to_str().unwrap()], "");
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(ran.status, 0, "{}", ran.err);
    let answers = parse_answers(&ran.out);
    assert_eq!(answers.len(), 2);
    assert!(answers.iter().all(|a| a.lines == pzpr_lines()));
    assert_eq!(answers[1].number, 2);
}

#[test]
fn the_corpus_round_trips_through_urls() {
    for name in ["puzzles-slitherlink.in", "puzzles-slink.in", "sample.in"] {
        let input = read(name);
        let urls = slink(&["convert", "--to", "url"], &input);
        assert_eq!(urls.status, 0, "{}", urls.err);
        assert!(
            urls.out
                .lines()
                .all(|l| l.starts_with("https://puzz.link/p?slither/"))
        );
        let back = slink(&["convert", "--to", "stream"], &urls.out);
        assert_eq!(back.status, 0, "{}", back.err);
        assert_eq!(parse_puzzles(&back.out), parse_puzzles(&input), "{name}");
    }
}

#[test]
fn a_bad_url_is_named_and_the_rest_still_solved() {
    let input = format!("https://puzz.link/p?slither/5/x/zz\n{PZPR_URL}\n");
    let ran = slink(&[], &input);
    assert_eq!(ran.status, 2, "bad input gives status 2");
    assert!(ran.err.contains("<stdin>:1"), "{}", ran.err);
    assert_eq!(parse_answers(&ran.out).len(), 1);
}

// ---------------------------------------------------------------------------------------------
// Parallel streams

#[test]
fn jobs_2_writes_byte_for_byte_what_jobs_1_writes() {
    // 580 Slink puzzles and 580 Slitherlink ones (some needing search), plus a bad puzzle in
    // the middle of a stream, so that messages are ordered too.
    let slink_in = data("puzzles-slink.in");
    let slither_in = data("puzzles-slitherlink.in");
    let files = [slink_in.to_str().unwrap(), slither_in.to_str().unwrap()];
    let one = slink(&[&["--jobs", "1"][..], &files[..]].concat(), "");
    let two = slink(&[&["--jobs", "2"][..], &files[..]].concat(), "");
    assert_eq!(one.status, 0, "{}", one.err);
    assert_eq!(parse_answers(&one.out).len(), 1160);
    assert!(one.out == two.out, "--jobs 2 answers differ from --jobs 1");
    assert_eq!(one.err, two.err);
    assert_eq!(one.status, two.status);

    let bad = "2 2\n2 2\n2 2\n2 2\n9 2\n2 2\n2 2\n2 2\n0 0\n";
    let one = slink(&["--jobs", "1", "--format", "url"], bad);
    let two = slink(&["--jobs", "2", "--format", "url"], bad);
    assert_eq!(one.status, 2);
    assert_eq!(
        (one.out, one.err, one.status),
        (two.out, two.err, two.status)
    );
}

// ---------------------------------------------------------------------------------------------
// Explanations

/// Replays the steps of `slink explain` text (`line h(r,c)`, `cross v(r,c)`) in order, checking
/// that no step decides an edge twice; returns the lines.
fn replay_explanation(text: &str) -> Vec<BTreeSet<EdgeKey>> {
    let mut puzzles = Vec::new();
    let mut decided = std::collections::BTreeMap::new();
    let mut started = false;
    for line in text.lines() {
        if line.starts_with("puzzle ") {
            if started {
                puzzles.push(std::mem::take(&mut decided));
            }
            started = true;
            continue;
        }
        let trimmed = line.trim_start();
        let Some((number, rest)) = trimmed.split_once(". ") else {
            continue;
        };
        if number.parse::<usize>().is_err() {
            continue;
        }
        let Some((_, edges)) = rest.rsplit_once(": ") else {
            panic!("a step without edges: {line}");
        };
        if edges == "no edge decided yet (the colour rules take the cells up)" {
            // A regions step that only placed cells on a side of the loop.
            assert!(rest.starts_with("regions: "), "{line}");
            continue;
        }
        for item in edges.split(", ") {
            let (state, edge) = item.split_once(' ').expect("state and edge");
            let kind = edge.chars().next().unwrap();
            let inner = &edge[2..edge.len() - 1];
            let (r, c) = inner.split_once(',').unwrap();
            let key = (kind, r.parse().unwrap(), c.parse().unwrap());
            let state = match state {
                "line" => true,
                "cross" => false,
                other => panic!("unknown state {other:?} in {line}"),
            };
            assert!(
                decided.insert(key, state).is_none(),
                "an edge decided twice: {line}"
            );
        }
    }
    puzzles.push(decided);
    puzzles
        .into_iter()
        .map(|d| d.into_iter().filter(|&(_, l)| l).map(|(k, _)| k).collect())
        .collect()
}

#[test]
fn explanation_steps_replayed_in_order_rebuild_the_answer() {
    // Slink puzzles (rules only) and Slitherlink ones, some of which need probing and search.
    let slither = first_puzzles(&read("puzzles-slitherlink.in"), 40);
    let slither_answers: Vec<Answer> = parse_answers(&read("puzzles-slitherlink.out"))
        .into_iter()
        .take(40)
        .collect();
    let mut cases = stream_and_answers(40);
    cases.push((slither, slither_answers));
    for (input, expected) in cases {
        let ran = slink(&["explain"], &input);
        assert_eq!(ran.status, 0, "{}", ran.err);
        let replayed = replay_explanation(&ran.out);
        assert_eq!(replayed.len(), expected.len());
        for (lines, answer) in replayed.iter().zip(&expected) {
            assert_eq!(lines, &answer.lines, "puzzle {}", answer.number);
        }
    }
}

#[test]
fn explanation_names_rules_with_file_line_symmetry_and_place() {
    let ran = slink(&["explain", "--every", "10"], &read("sample.in"));
    assert_eq!(ran.status, 0);
    let first = ran
        .out
        .lines()
        .find(|l| l.trim_start().starts_with("1. "))
        .unwrap();
    // e.g. "1. zero (rules/counting.rules:8), identity at cell (0, 1): cross h(0,1), ..."
    assert!(first.contains(".rules:"), "{first}");
    assert!(first.contains(" at cell ("), "{first}");
    assert!(
        ["identity", "rotate", "reflect", "transpose", "anti"]
            .iter()
            .any(|s| first.contains(s)),
        "{first}"
    );
    // --every 10 draws the board: picture lines with dots and lines.
    assert!(
        ran.out.lines().any(|l| l.trim_start().starts_with("+---")),
        "{}",
        ran.out
    );
}

#[test]
fn a_stuck_explanation_ends_by_drawing_where_it_stopped() {
    let ran = slink(
        &["explain", "--no-search", "--no-probing"],
        "3 3\n. . .\n. 0 .\n. . .\n0 0\n",
    );
    assert_eq!(ran.status, 1);
    assert!(ran.out.contains("stuck"), "{}", ran.out);
    assert!(ran.out.contains("where it ends"), "{}", ran.out);
    // The 0 is drawn with its four crosses.
    assert!(ran.out.contains(" 0 "), "{}", ran.out);
    assert!(ran.out.matches('x').count() >= 4, "{}", ran.out);
}

#[test]
fn html_explanations_are_self_contained_pages_per_puzzle() {
    let dir = std::env::temp_dir().join(format!("slink-html-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("page.html");
    let ran = slink(
        &["explain", "--html", out.to_str().unwrap()],
        &read("sample.in"),
    );
    assert_eq!(ran.status, 0, "{}", ran.err);
    let first = std::fs::read_to_string(&out).unwrap();
    for n in 2..=4 {
        assert!(
            dir.join(format!("page-{n}.html")).is_file(),
            "page {n} written"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(first.starts_with("<!DOCTYPE html>"));
    // No network and no external files: nothing is fetched.
    for fetch in ["src=", "href=", "http://", "https://", "@import", "url("] {
        let allowed = fetch == "http://"
            && first.matches(fetch).count() == first.matches("http://www.w3.org/2000/svg").count();
        assert!(
            allowed || !first.contains(fetch),
            "the page fetches something: {fetch}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Unicode and grades

#[test]
fn unicode_answers_are_coloured_only_when_asked_or_on_a_terminal() {
    let input = read("sample.in");
    let plain = slink(&["--format", "unicode"], &input);
    let always = slink(&["--format", "unicode", "--color", "always"], &input);
    let never = slink(&["--format", "unicode", "--colour", "never"], &input);
    assert_eq!(plain.status, 0);
    assert!(
        !plain.out.contains('\x1b'),
        "piped output has no colour codes"
    );
    assert_eq!(never.out, plain.out);
    assert!(always.out.contains("\x1b["), "--color always colours");
    // Same pictures once the colour codes are taken out.
    let mut stripped = String::new();
    let mut chars = always.out.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for d in chars.by_ref() {
                if d == 'm' {
                    break;
                }
            }
        } else {
            stripped.push(c);
        }
    }
    assert_eq!(stripped, plain.out);
    // Box drawing: every line of the spec's frame has its counterpart.
    let expected = parse_answers(&read("sample.out"));
    let first: Vec<&str> = plain.out.lines().collect();
    assert_eq!(first[0], "1");
    assert!(plain.out.contains('×') && plain.out.contains('─') && plain.out.contains('│'));
    let pictures: usize = expected.iter().map(|a| 2 * a.rows + 2).sum();
    assert_eq!(
        plain.out.lines().count(),
        pictures,
        "a number and 2R+1 rows per answer"
    );
}

#[test]
fn grades_name_the_level_and_the_deducers_a_puzzle_needed() {
    let ran = slink(&["--grade"], &read("sample.in"));
    assert_eq!(ran.status, 0);
    let grades: Vec<&str> = ran.err.lines().filter(|l| l.contains("grade:")).collect();
    assert_eq!(grades.len(), 4, "{}", ran.err);
    assert!(
        grades[0].ends_with("grade: level 1; rules only; no search"),
        "{}",
        grades[0]
    );
    assert_eq!(
        ran.out,
        read("sample.out"),
        "answers are unchanged by --grade"
    );
    // A Slitherlink puzzle that needs search to be finished (and proven unique).
    let slither = read("puzzles-slitherlink.in");
    let ran = slink(&["--grade", "--format", "json"], &slither);
    let searched = ran.err.lines().filter(|l| l.contains("; search (")).count();
    assert!(searched > 0, "some corpus puzzles need search");
    let records: Vec<serde_json::Value> = ran
        .out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let in_json = records
        .iter()
        .filter(|r| r["grade"]["needed"]["search"] == true)
        .count();
    assert_eq!(in_json, searched, "the json grade says the same");
    assert!(
        records
            .iter()
            .any(|r| r["grade"]["needed"]["probing"] == true)
    );
}

#[test]
fn urls_above_the_cell_limit_are_refused_before_they_are_read() {
    let big = "https://puzz.link/p?slither/10000/10000/zz";
    let ran = slink(&["--max-cells", "100", big, PZPR_URL], "");
    assert_eq!(ran.status, 2);
    assert!(ran.err.contains("--max-cells"), "{}", ran.err);
    assert_eq!(
        parse_answers(&ran.out).len(),
        1,
        "the next URL is still solved"
    );
    // A line far longer than any URL of the allowed size ends that file of URLs.
    let input = format!(
        "{PZPR_URL}\nhttps://puzz.link/p?slither/5/5/{}\n",
        "g".repeat(5000)
    );
    let ran = slink(&["--max-cells", "100"], &input);
    assert_eq!(ran.status, 2);
    assert!(
        ran.err.contains("<stdin>:2: a line longer than"),
        "{}",
        ran.err
    );
    assert_eq!(parse_answers(&ran.out).len(), 1);
}

/// An output that is slow, then closed: its first write waits (so the reader fills its
/// window meanwhile), then every write fails as a pipe with no reader does.
struct ClosedPipe;

impl std::io::Write for ClosedPipe {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        std::thread::sleep(std::time::Duration::from_millis(500));
        Err(std::io::ErrorKind::BrokenPipe.into())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.write(b"").map(|_| ())
    }
}

#[test]
fn a_closed_output_ends_a_parallel_run_even_with_its_window_full() {
    // More items than the reader's window holds (4 M cells for two jobs, 68 per 2x2 puzzle).
    let input = "2 2\n2 2\n2 2\n".repeat(100_000) + "0 0\n";
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let argv: Vec<OsString> = ["slink", "--jobs", "2"]
            .iter()
            .map(OsString::from)
            .collect();
        let mut err = Vec::new();
        let status = slink::cli::run(argv, &mut input.as_bytes(), &mut ClosedPipe, &mut err);
        let _ = tx.send((status, err));
    });
    let (status, err) = rx
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("the run ends when its output is closed");
    assert_eq!(status, 0, "a closed output ends the run quietly");
    assert!(err.is_empty(), "{}", String::from_utf8_lossy(&err));
}
