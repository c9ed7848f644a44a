//! What slink must never do to the files it is given: write through a symbolic link, or
//! overwrite a file it was not told to replace.

mod common;

use common::{BIN, Run, TempDir, data, finish, root, slink};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

// ---------------------------------------------------------------------------------------------
// Files written: never through a link, never over a file unless --force, atomically

/// Runs `slink ARGS` (from the crate root) on `stdin`.
fn run(args: &[&str], stdin: &str) -> Run {
    slink(args, stdin.as_bytes())
}

/// The files of `dir`, by name: no temporary file is left behind.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn sample() -> String {
    std::fs::read_to_string(data("sample.in")).unwrap()
}

#[test]
fn explain_html_keeps_an_existing_page_unless_forced() {
    let dir = TempDir::new("html-exists");
    let page = dir.0.join("page.html");
    std::fs::write(&page, "mine").unwrap();
    let out = page.to_str().unwrap();
    let kept = run(&["explain", "--html", out], &sample());
    assert_eq!(kept.status, 2, "{}", kept.stderr);
    assert!(
        kept.stderr.contains(&format!("{out} exists already; give --force")),
        "{}",
        kept.stderr
    );
    assert_eq!(std::fs::read_to_string(&page).unwrap(), "mine");

    let forced = run(&["explain", "--html", out, "--force"], &sample());
    assert_eq!(forced.status, 0, "{}", forced.stderr);
    assert!(std::fs::read_to_string(&page).unwrap().starts_with("<!DOCTYPE html>"));
    assert_eq!(
        names(&dir.0),
        ["page-2.html", "page-3.html", "page-4.html", "page.html"]
    );
    // Run again without --force: the pages of the first run are kept.
    let again = run(&["explain", "--html", out], &sample());
    assert_eq!(again.status, 2, "{}", again.stderr);
}

#[cfg(unix)]
#[test]
fn explain_html_writes_through_no_symbolic_link() {
    let dir = TempDir::new("html-link");
    let victim = dir.0.join("victim.txt");
    std::fs::write(&victim, "keep me").unwrap();
    let page = dir.0.join("page.html");
    std::os::unix::fs::symlink(&victim, &page).unwrap();
    // The second puzzle's page, as a dangling link: not created through it either.
    let second = dir.0.join("page-2.html");
    let elsewhere = dir.0.join("elsewhere.html");
    std::os::unix::fs::symlink(&elsewhere, &second).unwrap();
    let out = page.to_str().unwrap();
    for force in [false, true] {
        let mut args = vec!["explain", "--html", out];
        if force {
            args.push("--force");
        }
        let ran = run(&args, &sample());
        assert_eq!(ran.status, 2, "{}", ran.stderr);
        assert!(
            ran.stderr.contains(&format!("{out} is a symbolic link")),
            "{}",
            ran.stderr
        );
    }
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    // Past the first page (removed now), the link at the second is refused too.
    std::fs::remove_file(&page).unwrap();
    let ran = run(&["explain", "--html", out, "--force"], &sample());
    assert_eq!(ran.status, 2, "{}", ran.stderr);
    assert!(ran.stderr.contains("page-2.html is a symbolic link"), "{}", ran.stderr);
    assert!(!elsewhere.exists());
    assert!(std::fs::symlink_metadata(&second).unwrap().is_symlink());
}

#[test]
fn explain_html_names_each_page_after_its_puzzle_when_the_first_is_bad() {
    let dir = TempDir::new("html-bad-first");
    let page = dir.0.join("page.html");
    let out = page.to_str().unwrap();
    // Puzzle 1 has a bad clue; puzzles 2 and 3 are the sample's first two.
    let sample = sample();
    let mut puzzles = sample.lines();
    let first: Vec<&str> = puzzles.by_ref().take(9).collect();
    let second: Vec<&str> = puzzles.take(7).collect();
    let input = format!(
        "2 2\n1 7\n2 2\n{}\n{}\n0 0\n",
        first.join("\n"),
        second.join("\n")
    );
    let ran = run(&["explain", "--html", out], &input);
    assert_eq!(ran.status, 2, "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains(&format!("puzzle 1 could not be read, so {out} is not written")),
        "{}",
        ran.stderr
    );
    assert_eq!(names(&dir.0), ["page-2.html", "page-3.html"]);
    let second_page = std::fs::read_to_string(dir.0.join("page-2.html")).unwrap();
    assert!(second_page.contains("puzzle 2"), "page-2 is puzzle 2's");
}

/// `slink rules discover` on a tiny window, writing into `out` (plus `extra` arguments).
fn discover(out: &str, extra: &[&str]) -> Run {
    let mut args = vec![
        "rules",
        "discover",
        "-j",
        "1",
        "--window",
        "1x1",
        "--clues",
        "3",
        "--max-facts",
        "1",
        "--out",
        out,
    ];
    args.extend(extra);
    run(&args, "")
}

#[test]
fn discover_keeps_an_existing_rule_file_unless_forced() {
    let dir = TempDir::new("discover-exists");
    let file = dir.0.join("window-1x1.rules");
    std::fs::write(&file, "# mine\n").unwrap();
    let kept = discover(dir.path(), &[]);
    assert_eq!(kept.status, 2, "{}", kept.stderr);
    assert!(
        kept.stderr.contains("window-1x1.rules exists already; give --force"),
        "{}",
        kept.stderr
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "# mine\n");
    let forced = discover(dir.path(), &["--force"]);
    assert_eq!(forced.status, 0, "{}", forced.stderr);
    assert!(std::fs::read_to_string(&file).unwrap().starts_with("# Rules found"));
    assert_eq!(names(&dir.0), ["window-1x1.rules"]);
}

#[cfg(unix)]
#[test]
fn discover_writes_through_no_symbolic_link_and_only_into_its_directory() {
    let dir = TempDir::new("discover-link");
    let out = dir.0.join("out");
    std::fs::create_dir(&out).unwrap();
    let victim = dir.0.join("victim.rules");
    std::fs::write(&victim, "keep me").unwrap();
    std::os::unix::fs::symlink(&victim, out.join("window-1x1.rules")).unwrap();
    for extra in [&[][..], &["--force"][..]] {
        let ran = discover(out.to_str().unwrap(), extra);
        assert_eq!(ran.status, 2, "{}", ran.stderr);
        assert!(ran.stderr.contains("is a symbolic link"), "{}", ran.stderr);
    }
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    // A --file name that leaves the directory is refused before anything is done.
    let ran = discover(out.to_str().unwrap(), &["--file", "../escaped.rules"]);
    assert_eq!(ran.status, 2, "{}", ran.stderr);
    assert!(ran.stderr.contains("without a directory"), "{}", ran.stderr);
    assert!(!dir.0.join("escaped.rules").exists());
}

/// Runs `slink --rules rules` on the sample with the proof cache in `cache`.
fn solve_with_cache(cache: &Path) -> Run {
    let mut child = Command::new(BIN)
        .args(["--rules", "rules", data("sample.in").to_str().unwrap()])
        .env("SLINK_CACHE_DIR", cache)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = Vec::new();
    child.stdout.take().unwrap().read_to_end(&mut out).unwrap();
    let mut output = child.wait_with_output().unwrap();
    output.stdout = out;
    finish(output, "slink --rules rules sample.in")
}

#[cfg(unix)]
#[test]
fn the_proof_cache_is_written_through_no_symbolic_link() {
    let dir = TempDir::new("cache-link");
    let cache: PathBuf = dir.0.join("cache");
    std::fs::create_dir(&cache).unwrap();
    let file = slink::cli::proof_cache::file_in(&cache);
    let victim = dir.0.join("victim.txt");
    std::fs::write(&victim, "keep me").unwrap();
    std::os::unix::fs::symlink(&victim, &file).unwrap();
    let ran = solve_with_cache(&cache);
    assert_eq!(ran.status, 0, "{}", ran.stderr);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    assert!(std::fs::symlink_metadata(&file).unwrap().is_symlink());

    // Without the link the cache is written, whole lines, and read back the next time.
    std::fs::remove_file(&file).unwrap();
    let ran = solve_with_cache(&cache);
    assert_eq!(ran.status, 0, "{}", ran.stderr);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(!text.is_empty() && text.ends_with('\n'), "{text}");
    assert_eq!(names(&cache).len(), 1, "no temporary file is left");
    let again = solve_with_cache(&cache);
    assert_eq!(again.status, 0, "{}", again.stderr);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
}
