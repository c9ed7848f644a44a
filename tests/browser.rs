//! The HTML explanation in a real browser: headless Chromium loads each page, steps to the end
//! (End, and Right one step at a time), and the loop it draws must equal the expected answer.
//! Skips, saying so, where no Chromium is installed (`SLINK_CHROMIUM` names one elsewhere).

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

use common::answers::{Answer, EdgeKey, first_puzzles, parse_answers};
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
            "--virtual-time-budget=5000",
        ])
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
