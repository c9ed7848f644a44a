//! What a new user meets first, run through the binary: several puzzles as SVG files and
//! explanation pages with an index, every form of puzz.link URL, the built-in rule set named,
//! extended and exported, and the words of the messages.

mod common;

use common::{BIN, TempDir, data, root, slink};
use std::path::Path;
use std::process::Command;

const SAMPLE: &str = "tests/data/sample.in";

fn sample_out() -> Vec<u8> {
    std::fs::read(data("sample.out")).unwrap()
}

/// The root element of an XML file, parsed on its own; panics with the file's name if it is
/// not XML.
fn svg_root_attrs(path: &Path) -> (String, Option<String>, Option<String>, Option<String>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc = roxmltree::Document::parse(&text)
        .unwrap_or_else(|e| panic!("{} is not XML: {e}", path.display()));
    let root = doc.root_element();
    let title = root
        .children()
        .find(|n| n.has_tag_name("title"))
        .and_then(|n| n.text().map(str::to_string));
    (
        root.tag_name().name().to_string(),
        root.attribute("data-puzzle").map(str::to_string),
        root.attribute("data-source").map(str::to_string),
        title,
    )
}

// ---------------------------------------------------------------------------------------------
// Several puzzles as SVG

#[test]
fn out_dir_writes_one_valid_svg_file_per_puzzle_named_and_labelled() {
    let dir = TempDir::new("svg-out");
    // A source name that needs escaping in XML.
    let odd = dir.0.join("a&b \"<c>\".in");
    std::fs::copy(data("sample.in"), &odd).unwrap();
    let out = dir.0.join("pictures");
    let run = slink(
        &[
            "--format",
            "svg",
            "--out-dir",
            out.to_str().unwrap(),
            odd.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stdout.is_empty());
    assert!(
        run.stderr.contains("wrote 4 SVG files to"),
        "{}",
        run.stderr
    );
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["1.svg", "2.svg", "3.svg", "4.svg"]);
    for k in 1..=4 {
        let (tag, number, source, title) = svg_root_attrs(&out.join(format!("{k}.svg")));
        assert_eq!(tag, "svg");
        assert_eq!(number, Some(k.to_string()));
        assert_eq!(source.as_deref(), odd.to_str());
        assert_eq!(title, Some(format!("puzzle {k} ({})", odd.display())));
    }
    // Written again: refused without --force, the files kept; with --force, replaced.
    std::fs::write(out.join("2.svg"), "mine").unwrap();
    let again = slink(
        &[
            "--format",
            "svg",
            "--out-dir",
            out.to_str().unwrap(),
            SAMPLE,
        ],
        b"",
    );
    assert_eq!(again.status, 2);
    assert!(
        again.stderr.contains("1.svg exists already; give --force"),
        "{}",
        again.stderr
    );
    assert_eq!(std::fs::read_to_string(out.join("2.svg")).unwrap(), "mine");
    let forced = slink(
        &[
            "--format",
            "svg",
            "--out-dir",
            out.to_str().unwrap(),
            "--force",
            SAMPLE,
        ],
        b"",
    );
    assert_eq!(forced.status, 0, "{}", forced.stderr);
    assert_eq!(svg_root_attrs(&out.join("2.svg")).1.as_deref(), Some("2"));
}

#[cfg(unix)]
#[test]
fn out_dir_writes_through_no_symbolic_link() {
    let dir = TempDir::new("svg-link");
    let victim = dir.0.join("victim.txt");
    std::fs::write(&victim, "keep me").unwrap();
    let out = dir.0.join("out");
    std::fs::create_dir(&out).unwrap();
    std::os::unix::fs::symlink(&victim, out.join("1.svg")).unwrap();
    for force in [false, true] {
        let mut args = vec![
            "--format",
            "svg",
            "--out-dir",
            out.to_str().unwrap(),
            SAMPLE,
        ];
        if force {
            args.push("--force");
        }
        let run = slink(&args, b"");
        assert_eq!(run.status, 2);
        assert!(run.stderr.contains("is a symbolic link"), "{}", run.stderr);
    }
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
}

#[test]
fn svg_on_standard_output_is_one_document_and_points_at_out_dir() {
    let run = slink(&["--format", "svg", SAMPLE], b"");
    assert_eq!(run.status, 2);
    let out = run.stdout_text();
    let doc = roxmltree::Document::parse(&out).expect("standard output is one valid document");
    assert_eq!(doc.root_element().attribute("data-puzzle"), Some("1"));
    assert!(
        run.stderr
            .contains("puzzle 2: standard output holds one SVG document")
            && run.stderr.contains("--out-dir DIR"),
        "{}",
        run.stderr
    );
    let one = slink(&["--format", "svg"], b"2 2\n2 2\n2 2\n0 0\n");
    assert_eq!(one.status, 0, "{}", one.stderr);
    assert!(roxmltree::Document::parse(&one.stdout_text()).is_ok());
    // --out-dir is for SVG only.
    let json = slink(&["--format", "json", "--out-dir", "x", SAMPLE], b"");
    assert_eq!(json.status, 2);
    assert!(
        json.stderr.contains("give --format svg too"),
        "{}",
        json.stderr
    );
}

#[test]
fn explain_out_dir_writes_numbered_pages_and_an_index() {
    let dir = TempDir::new("explain-out");
    let out = dir.0.join("pages");
    let run = slink(
        &["explain", "--out-dir", out.to_str().unwrap(), SAMPLE],
        b"",
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    for k in 1..=4 {
        let page = std::fs::read_to_string(out.join(format!("{k}.html"))).unwrap();
        assert!(
            page.contains(&format!("puzzle {k} (tests/data/sample.in")),
            "page {k}"
        );
    }
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    let links: Vec<&str> = index
        .split("<a href=\"")
        .skip(1)
        .map(|s| &s[..s.find('"').unwrap()])
        .collect();
    assert_eq!(links, ["1.html", "2.html", "3.html", "4.html"]);
    assert!(
        index.contains("puzzle 3 (tests/data/sample.in, 2x2): solved"),
        "{index}"
    );
    // Again without --force: the pages are kept.
    let again = slink(
        &["explain", "--out-dir", out.to_str().unwrap(), SAMPLE],
        b"",
    );
    assert_eq!(again.status, 2);
    assert!(again.stderr.contains("exists already"), "{}", again.stderr);
}

// ---------------------------------------------------------------------------------------------
// URLs

#[test]
fn every_form_of_slitherlink_url_reads_as_the_same_puzzle() {
    let plain = slink(
        &[
            "--format",
            "url",
            "https://puzz.link/p?slither/5/5/cbcbcddad",
        ],
        b"",
    );
    assert_eq!(plain.status, 0, "{}", plain.stderr);
    assert_eq!(
        plain.stdout_text(),
        "https://puzz.link/p?slither/5/5/cbcbcddad\n"
    );
    for url in [
        "https://puzz.link/p?slither_edit/5/5/cbcbcddad",
        "https://puzz.link/p?slither_play/5/5/cbcbcddad",
        "http://pzv.jp/p.html?slither/5/5/cbcbcddad",
        "slither/5/5/cbcbcddad",
        "slither_edit/5/5/cbcbcddad",
        "p?slither/5/5/cbcbcddad",
    ] {
        let run = slink(&["--format", "url", url], b"");
        assert_eq!(run.status, 0, "{url}: {}", run.stderr);
        assert_eq!(run.stdout, plain.stdout, "{url}");
        // The answer too.
        let solved = slink(&[url], b"");
        let reference = slink(&["https://puzz.link/p?slither/5/5/cbcbcddad"], b"");
        assert_eq!(solved.stdout, reference.stdout, "{url}");
    }
    // In a file of URLs too.
    let list =
        b"# two forms\nslither/5/5/cbcbcddad\nhttps://puzz.link/p?slither_play/5/5/cbcbcddad\n";
    let run = slink(&["--format", "url"], list);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.stdout_text().lines().count(), 2);
}

#[test]
fn other_puzzle_types_are_named_not_taken_for_files() {
    for (url, kind) in [
        ("https://puzz.link/p?nurikabe/3/3/x", "nurikabe"),
        ("p?lits/4/4/abc", "lits"),
    ] {
        let run = slink(&[url], b"");
        assert_eq!(run.status, 2);
        assert!(
            run.stderr.contains(&format!(
                "slink: {url}: not a Slitherlink URL: its puzzle type is `{kind}`"
            )),
            "{}",
            run.stderr
        );
        assert!(!run.stderr.contains("no such file"), "{}", run.stderr);
    }
}

#[test]
fn urls_are_named_by_themselves_shortened() {
    let short = "https://puzz.link/p?slither/3/3/";
    let run = slink(&[short], b"");
    assert!(
        run.stderr.contains(&format!("puzzle 1 ({short}, 3x3)")),
        "{}",
        run.stderr
    );
    let long = format!("https://puzz.link/p?slither/30/30/{}", "z".repeat(45));
    let run = slink(&["--format", "url", &long], b"");
    assert!(
        run.stderr
            .contains("(https://puzz.link/p?slither/30/30/zzzzzzzzzzzzzz...zzzzzzzzzzzz, 30x30)"),
        "{}",
        run.stderr
    );
    let explained = slink(&["explain", "--no-search", &long], b"");
    let headline = explained.stdout_text().lines().next().unwrap().to_string();
    assert!(
        headline.starts_with("puzzle 1 (https://puzz.link/p?slither/30/30/zzz")
            && headline.contains("...")
            && !headline.contains(&long)
            && !headline.contains("<url>"),
        "{headline}"
    );
}

#[test]
fn a_url_has_the_streams_size_limits() {
    let run = slink(&["--max-cells", "50", "slither/10/10/"], b"");
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("size 10x10 is too large")
            && run
                .stderr
                .contains("50 cells; --max-cells sets the cell limit"),
        "{}",
        run.stderr
    );
    let run = slink(&["--format", "url", "slither/200000/1/"], b"");
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("at most 100000 rows"), "{}", run.stderr);
    // A side of 20,000 (over the old URL limit of 10,000) is read as a stream's would be.
    let run = slink(&["convert", "--to", "url", "slither/20000/1/"], b"");
    assert_eq!(run.status, 0, "{}", run.stderr);
}

#[test]
fn an_unknown_clue_reads_as_blank_with_a_warning() {
    let run = slink(&["--format", "url", "p?slither/2/2/.2."], b"");
    assert_eq!(run.stdout_text(), "https://puzz.link/p?slither/2/2/gc\n");
    assert!(
        run.stderr
            .contains("2 cells written `.` (a clue \"?\" of unknown number) read as blank"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_clue_4_is_refused_without_contradicting_itself() {
    let one = slink(&["slither/1/1/4"], b"");
    assert_eq!(one.status, 2);
    assert!(
        one.stderr
            .contains("clue 4 at cell 1 (row 1, column 1): slink reads clues 0 to 3")
            && !one.stderr.contains("only a 1x1 loop"),
        "{}",
        one.stderr
    );
    let two = slink(&["slither/2/2/4"], b"");
    assert!(
        two.stderr.contains("only a 1x1 puzzle can have"),
        "{}",
        two.stderr
    );
}

// ---------------------------------------------------------------------------------------------
// The built-in rule set, named and extended

const ZERO_AGAIN: &str = "rule zero-again\n  \"A 0 again.\"\nwhen\n  +   +\n    0\n  +   +\nthen\n  + x +\n  x 0 x\n  + x +\n";

const MADE_UP: &str = "rule two-corner-made-up\n  \"Made up.\"\nwhen\n  + x +\n  x 2\n  +   +\nthen\n  + x +\n  x 2 x\n  +   +\n";

fn rules_dir(name: &str, file: &str, text: &str) -> TempDir {
    let dir = TempDir::new(name);
    std::fs::write(dir.0.join(file), text).unwrap();
    dir
}

#[test]
fn the_builtin_set_is_named_and_extended_by_a_directory() {
    let mine = rules_dir("mine", "mine.rules", ZERO_AGAIN);
    let run = slink(&["--rules", "builtin", "--rules", mine.path(), SAMPLE], b"");
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.stdout, sample_out());
    // `builtin` alone is the built-in set.
    let run = slink(&["--rules", "builtin", SAMPLE], b"");
    assert_eq!(
        (run.status, run.stdout.clone()),
        (0, sample_out()),
        "{}",
        run.stderr
    );
    // rules check and test take several directories, builtin among them.
    let check = slink(&["rules", "check", "builtin", mine.path()], b"");
    assert_eq!(check.status, 0, "{}", check.stderr);
    let builtin_only = slink(&["rules", "check"], b"");
    let count = |text: &str| -> usize {
        let last = text.lines().last().unwrap();
        last.split_whitespace().next().unwrap().parse().unwrap()
    };
    assert_eq!(
        count(&check.stdout_text()),
        count(&builtin_only.stdout_text()) + 1,
        "{}",
        check.stdout_text()
    );
    let test = slink(
        &[
            "rules",
            "test",
            "--rules",
            "builtin",
            "--rules",
            mine.path(),
        ],
        b"",
    );
    assert_eq!(test.status, 0, "{}", test.stderr);
    assert!(
        test.stdout_text().contains("zero-again"),
        "{}",
        test.stdout_text()
    );
    // A name the built-in set has already is an error, with its place.
    let clash = rules_dir(
        "clash",
        "clash.rules",
        &ZERO_AGAIN.replace("zero-again", "zero"),
    );
    let run = slink(
        &["--rules", "builtin", "--rules", clash.path(), SAMPLE],
        b"",
    );
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("clash.rules:1"), "{}", run.stderr);
}

#[test]
fn the_refusals_suggested_command_runs() {
    let mine = TempDir::new("refused");
    let spaced = mine.0.join("my rules");
    std::fs::create_dir(&spaced).unwrap();
    std::fs::write(spaced.join("made-up.rules"), MADE_UP).unwrap();
    let run = slink(
        &[
            "--rules",
            "builtin",
            "--rules",
            spaced.to_str().unwrap(),
            SAMPLE,
        ],
        b"",
    );
    assert_eq!(run.status, 2);
    let last = run.stderr.lines().last().unwrap();
    assert!(
        last.contains("1 of its 1 rule is not proven sound"),
        "{last}"
    );
    let command = last.split('`').nth(1).expect("a command in backquotes");
    assert!(command.starts_with("slink rules check "), "{command}");
    // Run it as a shell would, with slink being the binary under test.
    let shell = format!("slink() {{ \"{BIN}\" \"$@\"; }}; {command}");
    let out = Command::new("sh")
        .args(["-c", &shell])
        .env("SLINK_CACHE_DIR", "")
        .current_dir(root())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{command}: {stdout}{stderr}");
    assert!(
        stdout.contains("UNSOUND") && stdout.contains("two-corner-made-up"),
        "{stdout}"
    );
}

#[test]
fn exported_rules_give_the_same_answers() {
    let dir = TempDir::new("export");
    let out = dir.0.join("rules");
    let run = slink(&["rules", "export", out.to_str().unwrap()], b"");
    assert_eq!(run.status, 0, "{}", run.stderr);
    let shipped: Vec<_> = std::fs::read_dir(root().join("rules"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rules"))
        .collect();
    for path in &shipped {
        let name = path.file_name().unwrap();
        assert_eq!(
            std::fs::read(out.join(name)).unwrap(),
            std::fs::read(path).unwrap(),
            "{name:?}"
        );
    }
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), shipped.len());
    for corpus in ["sample", "puzzles-slitherlink"] {
        let input = format!("tests/data/{corpus}.in");
        let run = slink(&["--rules", out.to_str().unwrap(), &input], b"");
        assert_eq!(run.status, 0, "{corpus}: {}", run.stderr);
        assert_eq!(
            run.stdout,
            std::fs::read(data(&format!("{corpus}.out"))).unwrap(),
            "{corpus}"
        );
    }
    // Exporting again keeps the files unless --force.
    let again = slink(&["rules", "export", out.to_str().unwrap()], b"");
    assert_eq!(again.status, 2);
    assert!(
        again.stderr.contains("exists already; give --force"),
        "{}",
        again.stderr
    );
    let forced = slink(&["rules", "export", "--force", out.to_str().unwrap()], b"");
    assert_eq!(forced.status, 0, "{}", forced.stderr);
}

// ---------------------------------------------------------------------------------------------
// Words

#[test]
fn counts_of_one_are_singular() {
    let run = slink(&["--stats"], b"2 2\n2 2\n2 2\n0 0\n");
    assert!(
        run.stderr.contains("statistics over 1 puzzle:"),
        "{}",
        run.stderr
    );
    let run = slink(
        &[
            "gen", "--rows", "3", "--cols", "3", "--count", "1", "--stats",
        ],
        b"",
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("slink gen: 1 puzzle from "),
        "{}",
        run.stderr
    );
    for wrong in [
        "1 puzzles",
        "1 candidates",
        "1 contradictions",
        "1 other loops",
    ] {
        assert!(!run.stderr.contains(wrong), "{wrong}: {}", run.stderr);
    }
    let explained = slink(
        &["explain", "--no-search", "--no-probing"],
        b"1 1\n3\n0 0\n",
    );
    assert!(
        !explained.stdout_text().contains(" 1 steps"),
        "{}",
        explained.stdout_text()
    );
}

#[test]
fn options_a_format_ignores_are_said_to_be_ignored() {
    let run = slink(&["--color", "always", SAMPLE], b"");
    assert_eq!(run.stdout, sample_out());
    assert!(
        run.stderr
            .contains("warning: --color is for --format unicode"),
        "{}",
        run.stderr
    );
    let run = slink(&["--crosses", "--format", "json", SAMPLE], b"");
    assert!(
        run.stderr
            .contains("warning: --crosses is for --format svg"),
        "{}",
        run.stderr
    );
    let quiet = slink(&["--crosses", "--format", "svg"], b"2 2\n2 2\n2 2\n0 0\n");
    assert!(!quiet.stderr.contains("warning"), "{}", quiet.stderr);
    let quiet = slink(&["--color", "never", "--format", "unicode", SAMPLE], b"");
    assert!(!quiet.stderr.contains("warning"), "{}", quiet.stderr);
}

#[test]
fn json_has_an_error_record_for_a_puzzle_that_cannot_be_read() {
    let run = slink(
        &["--format", "json"],
        b"2 2\n2 2\n2 x\n2 2\n2 2\n2 2\n0 0\n",
    );
    assert_eq!(run.status, 2);
    let records: Vec<serde_json::Value> = run
        .stdout_text()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 2, "{}", run.stdout_text());
    assert_eq!(records[0]["puzzle"], 1);
    assert_eq!(records[0]["outcome"], "error");
    assert_eq!(records[0]["answer"], false);
    let message = records[0]["message"].as_str().unwrap();
    assert!(message.starts_with("<stdin>:3:3: puzzle 1"), "{message}");
    assert_eq!(records[1]["puzzle"], 2);
    assert_eq!(records[1]["outcome"], "solved");
}

#[test]
fn a_contradiction_under_trusted_rules_is_no_solution_under_these_rules() {
    let mine = rules_dir("trusted", "made-up.rules", MADE_UP);
    let args = [
        "--trust-rules",
        "--rules",
        "builtin",
        "--rules",
        mine.path(),
    ];
    let run = slink(&[&args[..], &[SAMPLE]].concat(), b"");
    let line = run
        .stderr
        .lines()
        .find(|l| l.starts_with("slink: puzzle ") && l.contains("no solution"))
        .unwrap_or_else(|| panic!("no contradiction reported: {}", run.stderr));
    assert!(
        line.contains("): no solution under these rules, which are trusted"),
        "{line}"
    );
    let json = slink(&[&args[..], &["--format", "json", SAMPLE]].concat(), b"");
    let under = json
        .stdout_text()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|r| r["outcome"] == "no-solution")
        .expect("a record with no solution");
    assert!(
        under["message"]
            .as_str()
            .unwrap()
            .starts_with("no solution under these rules"),
        "{under}"
    );
}
