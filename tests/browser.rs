//! The HTML explanation in a real browser: headless Chromium loads each page, steps to the end
//! (End, and Right one step at a time), and the loop it draws must equal the expected answer.
//! A second test opens pages as `...#measure`, which steps forward and back and notes the time
//! each step takes and where the board is: the board must not move, the controls stay in
//! view, and a 100x100 step takes under 20 ms. A third checks what the pages mark: the edges
//! that differ between solutions, and the letters of a colour rule's pictures.
//! Skips, saying so, where no Chromium is installed (`SLINK_CHROMIUM` names one elsewhere).

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

use common::answers::{Answer, EdgeKey, first_puzzles, nth_puzzle, parse_answers};
use common::data;

/// The Chromium to use, if any.
fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("SLINK_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ]
    .iter()
    .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
    .find(|p| p.is_file())
}

/// The page's DOM after its scripts ran, as Chromium serializes it.
fn dump_dom(browser: &Path, page: &Path, hash: &str) -> String {
    dump_dom_with(browser, page, hash, &["--virtual-time-budget=5000"])
}

/// Like [`dump_dom`], with `extra` arguments for Chromium.
fn dump_dom_with(browser: &Path, page: &Path, hash: &str, extra: &[&str]) -> String {
    let profile = std::env::temp_dir().join(format!(
        "slink-chromium-{}-{}",
        std::process::id(),
        page.file_name().unwrap().to_string_lossy()
    ));
    let url = format!("file://{}#{hash}", page.display());
    let output = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .args(extra)
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(&url)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", browser.display()));
    let _ = std::fs::remove_dir_all(&profile);
    let dom = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        dom.contains("</html>"),
        "{} gave no page for {url}: {}",
        browser.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    dom
}

/// The value of attribute `name` in the tag text `tag`.
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let len = tag[start..].find('"')?;
    Some(&tag[start..start + len])
}

/// The edges the page draws as lines, and how many edges it draws in all.
fn drawn_lines(dom: &str) -> (BTreeSet<EdgeKey>, usize) {
    let mut lines = BTreeSet::new();
    let mut edges = 0;
    for piece in dom.split("<line").skip(1) {
        let tag = &piece[..piece.find('>').expect("a closed tag")];
        let (Some(key), Some(class)) = (attribute(tag, "data-edge"), attribute(tag, "class"))
        else {
            continue;
        };
        edges += 1;
        let mut parts = key.split(' ');
        let kind = parts.next().unwrap().chars().next().unwrap();
        let r: usize = parts.next().unwrap().parse().unwrap();
        let c: usize = parts.next().unwrap().parse().unwrap();
        let classes: Vec<&str> = class.split(' ').collect();
        assert!(classes.contains(&"edge"), "{tag}");
        assert!(
            !classes.contains(&"unknown"),
            "an unknown edge at the end: {tag}"
        );
        if classes.contains(&"line") {
            lines.insert((kind, r, c));
        }
    }
    (lines, edges)
}

#[test]
#[ignore = "needs Chromium: `.ci/run` installs Debian's chromium and runs it with --ignored"]
fn the_html_explanation_stepped_to_the_end_in_chromium_draws_the_answer() {
    let browser = chromium().expect(
        "no chromium on PATH: install Debian's `chromium`, or set SLINK_CHROMIUM to a browser",
    );
    let dir = std::env::temp_dir().join(format!("slink-browser-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The sample (rules only) and two Slitherlink puzzles (colouring, probing or search).
    let read = |name: &str| std::fs::read_to_string(data(name)).unwrap();
    let cases: Vec<(String, Vec<Answer>)> = vec![
        (read("sample.in"), parse_answers(&read("sample.out"))),
        (
            first_puzzles(&read("puzzles-slitherlink.in"), 2),
            parse_answers(&read("puzzles-slitherlink.out"))
                .into_iter()
                .take(2)
                .collect(),
        ),
    ];
    for (i, (input, answers)) in cases.iter().enumerate() {
        let out = dir.join(format!("case{i}.html"));
        let args: Vec<OsString> = ["slink", "explain", "--html", out.to_str().unwrap()]
            .iter()
            .map(OsString::from)
            .collect();
        let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
        let status = slink::cli::run(args, &mut input.as_bytes(), &mut stdout, &mut stderr);
        assert_eq!(status, 0, "{}", String::from_utf8_lossy(&stderr));
        for (n, answer) in answers.iter().enumerate() {
            let page = if n == 0 {
                out.clone()
            } else {
                dir.join(format!("case{i}-{}.html", n + 1))
            };
            for hash in ["end", "step"] {
                let dom = dump_dom(&browser, &page, hash);
                let (lines, edges) = drawn_lines(&dom);
                let expected_edges =
                    (answer.rows + 1) * answer.cols + answer.rows * (answer.cols + 1);
                assert_eq!(edges, expected_edges, "every edge is drawn");
                assert_eq!(
                    lines,
                    answer.lines,
                    "{} #{hash}: the drawn loop is not the answer",
                    page.display()
                );
                // The counter says the last step is shown.
                let counter = dom.split("id=\"counter\">").nth(1).unwrap();
                let counter = &counter[..counter.find('<').unwrap()];
                let words: Vec<&str> = counter.split(' ').collect();
                assert_eq!(words.len(), 4, "{counter}");
                assert_eq!(words[1], words[3], "{counter}: not at the last step");
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Writes the explanation page of `input` (its first puzzle) to `out`.
fn write_page(input: &str, out: &Path) {
    write_page_with(input, out, &[]);
}

/// [`write_page`] with more options for `slink explain`.
fn write_page_with(input: &str, out: &Path, extra: &[&str]) {
    let args: Vec<OsString> = [
        "slink",
        "explain",
        "--html",
        out.to_str().unwrap(),
        "--force",
    ]
    .iter()
    .chain(extra)
    .map(OsString::from)
    .collect();
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let status = slink::cli::run(args, &mut input.as_bytes(), &mut stdout, &mut stderr);
    assert_eq!(status, 0, "{}", String::from_utf8_lossy(&stderr));
}

#[test]
#[ignore = "needs Chromium: `.ci/run` installs Debian's chromium and runs it with --ignored"]
fn the_board_stays_still_the_controls_in_view_and_a_100x100_step_is_quick() {
    let browser = chromium().expect(
        "no chromium on PATH: install Debian's `chromium`, or set SLINK_CHROMIUM to a browser",
    );
    let dir = std::env::temp_dir().join(format!("slink-measure-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let read = |name: &str| std::fs::read_to_string(data(name)).unwrap();
    // The sample's first puzzle (rule pictures of every height), 30x40 and 100x100 boards.
    let cases = [
        ("sample", first_puzzles(&read("sample.in"), 1)),
        ("30x40", read("gen-30x40.in")),
        ("100x100", read("gen-100x100.in")),
    ];
    for (name, input) in cases {
        let page = dir.join(format!("{name}.html"));
        write_page(&input, &page);
        let dom = dump_dom_with(&browser, &page, "measure", &["--window-size=1024,768"]);
        let start = dom.find("id=\"measure\"").expect("the measure block");
        let json = &dom[start..];
        let json = &json[json.find('>').unwrap() + 1..json.find("</pre>").unwrap()];
        let m: serde_json::Value =
            serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
        let num = |v: &serde_json::Value| v.as_f64().unwrap();
        assert!(
            num(&m["steps"]) >= 20.0,
            "{name}: too few steps measured: {m}"
        );
        assert!(
            num(&m["moved_px"]) < 0.5,
            "{name}: the board moved between steps: {m}"
        );
        let (width, height) = (num(&m["window"][0]), num(&m["window"][1]));
        let board: Vec<f64> = (0..4).map(|k| num(&m["board"][k])).collect();
        assert!(
            board[0] >= 0.0
                && board[1] >= 0.0
                && board[0] + board[2] <= width + 0.5
                && board[1] + board[3] <= height + 0.5,
            "{name}: the board is not within the window: {m}"
        );
        assert!(
            num(&m["controls"][3]) <= height && num(&m["controls"][3]) < board[1] + 1.0,
            "{name}: the controls are not in view above the board: {m}"
        );
        if name == "100x100" {
            // The typical and the average step (one may wait for a busy machine).
            assert!(num(&m["median_ms"]) < 20.0, "{name}: {m}");
            assert!(num(&m["mean_ms"]) < 20.0, "{name}: {m}");
        }
        eprintln!("{name}: {m}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The text elements of class `letter` inside the SVG element with id `id`.
fn letters_in(dom: &str, id: &str) -> Vec<String> {
    let start = dom.find(&format!("id=\"{id}\"")).expect("the picture");
    let svg = &dom[start..start + dom[start..].find("</svg>").unwrap()];
    svg.split("<text")
        .skip(1)
        .filter(|t| t.starts_with(" ") && t.contains("class=\"letter"))
        .map(|t| t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()].to_string())
        .collect()
}

#[test]
#[ignore = "needs Chromium: `.ci/run` installs Debian's chromium and runs it with --ignored"]
fn the_page_marks_the_edges_that_differ_and_letters_colour_rules() {
    let browser = chromium().expect(
        "no chromium on PATH: install Debian's `chromium`, or set SLINK_CHROMIUM to a browser",
    );
    let dir = common::TempDir::new("browser-marks");
    // Several solutions: every edge the page's data names as differing (tests/ambiguity.rs
    // checks those against the oracle) is drawn over the board, with a legend entry.
    let (run, page) = common::explain_page(&dir, "several", "2 3\n. 2 .\n. 2 .\n0 0\n");
    assert_eq!(run.status, 1, "{}", run.stderr);
    let json = common::page_data(&page);
    let horizontal = 3 * 3;
    let want: BTreeSet<String> = json["undetermined"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let e = e.as_u64().unwrap() as usize;
            if e < horizontal {
                format!("h {} {}", e / 3, e % 3)
            } else {
                format!("v {} {}", (e - horizontal) / 4, (e - horizontal) % 4)
            }
        })
        .collect();
    assert!(!want.is_empty());
    for hash in ["end", "1"] {
        let dom = dump_dom(&browser, &page, hash);
        let drawn: BTreeSet<String> = dom
            .split("<line")
            .skip(1)
            .filter_map(|t| attribute(&t[..t.find('>').unwrap()], "data-undetermined"))
            .map(str::to_string)
            .collect();
        assert_eq!(drawn, want, "#{hash}");
        assert!(
            dom.contains("differs between the solutions"),
            "no legend entry"
        );
    }
    // A colour rule's step: its pictures show its letters (the `then` picture the premise's
    // and the conclusion's), and the legend says what letters mean.
    let read = |name: &str| std::fs::read_to_string(data(name)).unwrap();
    let first = first_puzzles(&read("puzzles-slitherlink.in"), 1);
    let (run, page) = common::explain_page(&dir, "slither", &first);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let json = common::page_data(&page);
    let steps: Vec<i64> = json["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    let (mut at, mut k, mut found) = (0, 0, None);
    while at < steps.len() {
        let rule = &json["rules"][steps[at + 1] as usize];
        if steps[at] == 0 && !rule["when_colours"].as_array().unwrap().is_empty() {
            found = Some((k + 1, rule.clone()));
            break;
        }
        at += 5 + steps[at + 4] as usize;
        k += 1;
    }
    let (step, rule) = found.expect("a step by a colour rule in the first Slitherlink puzzle");
    let glyphs = |key: &str| -> Vec<String> {
        let mut g: Vec<String> = rule[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| char::from(f[2].as_u64().unwrap() as u8).to_string())
            .collect();
        g.sort();
        g
    };
    let dom = dump_dom(&browser, &page, &step.to_string());
    let mut when = letters_in(&dom, "when");
    when.sort();
    assert_eq!(when, glyphs("when_colours"), "step {step}");
    let mut then = letters_in(&dom, "then");
    then.sort();
    let mut both = glyphs("when_colours");
    both.extend(glyphs("then_colours"));
    both.sort();
    assert_eq!(then, both, "step {step}");
    assert!(dom.contains("cells with one letter are on the same side"));
}

#[test]
#[ignore = "needs Chromium: `.ci/run` installs Debian's chromium and runs it with --ignored"]
fn a_regions_step_that_decided_no_edge_is_shown_with_its_cell() {
    const NO_EDGE: &str = ": no edge decided yet (the colour rules take the cells up)";
    let browser = chromium().expect(
        "no chromium on PATH: install Debian's `chromium`, or set SLINK_CHROMIUM to a browser",
    );
    let dir = std::env::temp_dir().join(format!("slink-browser-edgeless-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("p.html");
    let corpus = std::fs::read_to_string(data("puzzles-slitherlink.in")).unwrap();
    // The first puzzle whose text explanation has a regions step that decided no edge
    // (connectivity off: its linked edges, which come first, leave regions fewer cells).
    let (puzzle, line) = (0..150)
        .find_map(|n| {
            let puzzles = nth_puzzle(&corpus, n);
            let args: Vec<OsString> = ["slink", "explain", "--no-connectivity"]
                .iter()
                .map(OsString::from)
                .collect();
            let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
            let status = slink::cli::run(args, &mut puzzles.as_bytes(), &mut stdout, &mut stderr);
            assert_eq!(status, 0, "{}", String::from_utf8_lossy(&stderr));
            let text = String::from_utf8(stdout).unwrap();
            let line = text
                .lines()
                .find(|l| l.ends_with(NO_EDGE))?
                .trim()
                .to_string();
            Some((puzzles, line))
        })
        .expect("a regions step that decided no edge");
    write_page_with(&puzzle, &page, &["--no-connectivity"]);
    let (step, _) = line.split_once(". ").unwrap();
    let dom = dump_dom(&browser, &page, step);
    assert!(dom.contains(&line), "the step's text is not shown: {line}");
    std::fs::remove_dir_all(&dir).unwrap();
}
