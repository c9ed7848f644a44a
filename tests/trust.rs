//! What slink must never do to the files and streams it is given: write through a symbolic
//! link, overwrite a file it was not told to replace, or leave half an answer on a pipe when
//! it is interrupted.

mod common;

use common::{BIN, Run, TempDir, data, finish, root, slink};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------------------------
// Ctrl-C (SIGINT) while answers are written

/// A Slink puzzle of `n` x `n` cells whose loop is the border: 2 in the corners, 1 along the
/// sides, 0 inside (deduction finishes it at once; its answer is a large frame).
fn border_puzzle(n: usize) -> String {
    let mut text = format!("{n} {n}\n");
    for r in 0..n {
        let row: Vec<&str> = (0..n)
            .map(|c| {
                let edge = usize::from(r == 0 || r == n - 1) + usize::from(c == 0 || c == n - 1);
                ["0", "1", "2"][edge]
            })
            .collect();
        text.push_str(&row.join(" "));
        text.push('\n');
    }
    text
}

/// The answers of an ASCII stream: each is its number's line and a frame of `#` rows; the
/// text must end at the end of an answer.
fn whole_answers(out: &str) -> usize {
    let lines: Vec<&str> = out.lines().collect();
    let mut answers = 0;
    let mut i = 0;
    while i < lines.len() {
        assert_eq!(
            lines[i],
            (answers + 1).to_string(),
            "answer {} starts with its number",
            answers + 1
        );
        let top = lines.get(i + 1).copied().unwrap_or_default();
        assert!(
            !top.is_empty() && top.bytes().all(|b| b == b'#'),
            "answer {} has no frame top",
            answers + 1
        );
        let bottom = lines[i + 2..]
            .iter()
            .position(|l| *l == top)
            .unwrap_or_else(|| panic!("answer {} is cut: no frame bottom", answers + 1));
        i += 3 + bottom;
        answers += 1;
    }
    assert!(out.ends_with('\n'), "the output ends inside a line");
    answers
}

/// Sends SIGINT to a child.
fn interrupt(child: &Child) {
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success(), "kill -INT failed");
}

/// Waits for a child, killing it (and failing) after a minute.
fn wait(mut child: Child, stdout: std::thread::JoinHandle<Vec<u8>>, what: &str) -> Run {
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{what}: still running a minute after SIGINT");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut output = child.wait_with_output().unwrap();
    output.stdout = stdout.join().unwrap();
    finish(output, what)
}

/// The number in `slink: interrupted after N answers`.
fn interrupted_after(run: &Run, what: &str) -> usize {
    let line = run
        .stderr
        .lines()
        .find(|l| l.starts_with("slink: interrupted after "))
        .unwrap_or_else(|| {
            panic!(
                "{what}: stderr does not say the run was interrupted:\n{}",
                run.stderr
            )
        });
    line.split_whitespace()
        .nth(3)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{what}: {line}"))
}

#[cfg(unix)]
#[test]
fn sigint_while_a_large_answer_is_written_ends_on_a_whole_answer() {
    let dir = TempDir::new("sigint");
    let copies = 6;
    let input = dir.0.join("big.in");
    let mut text = String::new();
    for _ in 0..copies {
        text.push_str(&border_puzzle(150));
    }
    text.push_str("0 0\n");
    std::fs::write(&input, text).unwrap();
    for jobs in ["1", "2"] {
        let what = format!("slink -j {jobs} big.in, interrupted");
        let mut child = Command::new(BIN)
            .args(["-j", jobs, input.to_str().unwrap()])
            .env("SLINK_CACHE_DIR", "")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        // The first bytes of the first answer (about 190 KB, more than a pipe holds): the
        // writer is now in the middle of it, and stays there until more is read.
        let mut head = vec![0; 1000];
        stdout.read_exact(&mut head).unwrap();
        interrupt(&child);
        std::thread::sleep(Duration::from_millis(300));
        let reader = std::thread::spawn(move || {
            let mut rest = head;
            stdout.read_to_end(&mut rest).unwrap();
            rest
        });
        let run = wait(child, reader, &what);
        assert_eq!(run.status, 130, "{what}: {}", run.stderr);
        let said = interrupted_after(&run, &what);
        let written = whole_answers(&run.stdout_text());
        assert_eq!(said, written, "{what}: stderr names the answers written");
        assert!(
            (1..copies).contains(&written),
            "{what}: {written} answers: the one being written is finished and the run stops"
        );
    }
}

#[cfg(unix)]
#[test]
fn sigint_while_waiting_for_input_ends_at_once_after_the_answers_written() {
    for jobs in ["1", "2"] {
        let what = format!("slink -j {jobs} on an open pipe, interrupted");
        let mut child = Command::new(BIN)
            .args(["-j", jobs])
            .env("SLINK_CACHE_DIR", "")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(border_puzzle(4).as_bytes()).unwrap();
        stdin.flush().unwrap();
        // Its answer arrives while slink waits for more input (the pipe stays open).
        let mut stdout = child.stdout.take().unwrap();
        let mut seen = Vec::new();
        let mut byte = [0];
        while whole(&seen) < 1 {
            assert_eq!(stdout.read(&mut byte).unwrap(), 1, "{what}: output ended");
            seen.push(byte[0]);
        }
        interrupt(&child);
        let reader = std::thread::spawn(move || {
            stdout.read_to_end(&mut seen).unwrap();
            seen
        });
        let run = wait(child, reader, &what);
        drop(stdin);
        assert_eq!(run.status, 130, "{what}: {}", run.stderr);
        assert_eq!(interrupted_after(&run, &what), 1, "{what}");
        assert_eq!(whole_answers(&run.stdout_text()), 1, "{what}");
    }
}

/// Whole answers in `bytes` so far (frames closed).
fn whole(bytes: &[u8]) -> usize {
    let text = String::from_utf8_lossy(bytes);
    let frame_rows = text
        .lines()
        .filter(|l| !l.is_empty() && l.bytes().all(|b| b == b'#'))
        .count();
    if text.ends_with('\n') {
        frame_rows / 2
    } else {
        0
    }
}

#[test]
fn answers_are_unchanged_when_nothing_interrupts() {
    let input = std::fs::read(data("sample.in")).unwrap();
    let expected = std::fs::read(data("sample.out")).unwrap();
    for jobs in ["1", "2"] {
        let run = slink(&["-j", jobs], &input);
        assert_eq!(run.status, 0, "{}", run.stderr);
        assert_eq!(run.stdout, expected);
    }
}

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
        kept.stderr
            .contains(&format!("{out} exists already; give --force")),
        "{}",
        kept.stderr
    );
    assert_eq!(std::fs::read_to_string(&page).unwrap(), "mine");

    let forced = run(&["explain", "--html", out, "--force"], &sample());
    assert_eq!(forced.status, 0, "{}", forced.stderr);
    assert!(
        std::fs::read_to_string(&page)
            .unwrap()
            .starts_with("<!DOCTYPE html>")
    );
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
    assert!(
        ran.stderr.contains("page-2.html is a symbolic link"),
        "{}",
        ran.stderr
    );
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
        ran.stderr.contains(&format!(
            "puzzle 1 could not be read, so {out} is not written"
        )),
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
        kept.stderr
            .contains("window-1x1.rules exists already; give --force"),
        "{}",
        kept.stderr
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "# mine\n");
    let forced = discover(dir.path(), &["--force"]);
    assert_eq!(forced.status, 0, "{}", forced.stderr);
    assert!(
        std::fs::read_to_string(&file)
            .unwrap()
            .starts_with("# Rules found")
    );
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

// ---------------------------------------------------------------------------------------------
// The HTML page: what the user names is text, never markup or script

/// The `<script type="application/json">` block of a page.
fn json_block(page: &str) -> &str {
    let open = r#"<script type="application/json" id="data">"#;
    let start = page.find(open).expect("the page has its data block") + open.len();
    let end = start
        + page[start..]
            .find("</script>")
            .expect("the data block ends");
    &page[start..end]
}

#[test]
fn explain_html_escapes_file_and_rule_directory_names() {
    let hostile = "x<img src=x onerror=alert(1)>{{DATA}}<!--<script>";
    let dir = TempDir::new("html-names");
    let rules = dir.0.join(format!("rules{hostile}"));
    std::fs::create_dir(&rules).unwrap();
    for entry in std::fs::read_dir(root().join("rules")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rules") {
            std::fs::copy(&path, rules.join(path.file_name().unwrap())).unwrap();
        }
    }
    let input = dir.0.join(format!("{hostile}.in"));
    std::fs::write(&input, "3 3\n2 1 2\n1 0 1\n2 1 2\n").unwrap();
    let out = dir.0.join("page.html");
    let ran = run(
        &[
            "explain",
            "--rules",
            rules.to_str().unwrap(),
            "--html",
            out.to_str().unwrap(),
            input.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(ran.status, 0, "{}", ran.stderr);
    let page = std::fs::read_to_string(&out).unwrap();
    // The title and heading hold the file name as text.
    assert!(!page.contains("<img"), "{page}");
    assert!(page.contains("x&lt;img src=x onerror=alert(1)&gt;{{DATA}}&lt;!--&lt;script&gt;"));
    // One data block, one viewer script: nothing in a name opens or closes either.
    assert_eq!(page.matches("<script").count(), 2, "{page}");
    assert_eq!(page.matches("</script>").count(), 2, "{page}");
    let json = json_block(&page);
    assert!(!json.contains(['<', '>', '&']), "{json}");
    assert!(json.starts_with('{') && json.ends_with('}'), "{json}");
    // The rule steps name their file, in the hostile directory, escaped as JSON text.
    assert!(json.contains(r"rulesx\u003cimg"), "{json}");
    let data: serde_json::Value = serde_json::from_str(json).expect("the data block is JSON");
    assert!(data["title"].as_str().unwrap().contains(hostile));
    // The rules the steps used name their file, in the hostile directory.
    assert!(
        data["rules"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["head"].as_str().unwrap().contains(hostile)),
        "{json}"
    );
}

// ---------------------------------------------------------------------------------------------
// Reading: every read is bounded

/// Runs `slink` on standard input streamed from `blocks` (each written `times` times), waits
/// for `answers` whole answers, and gives the run and its peak resident memory in KiB (read
/// from /proc while it still waits for more input).
#[cfg(target_os = "linux")]
fn slink_peak(blocks: Vec<(Vec<u8>, usize)>, answers: usize) -> (Run, u64) {
    let what = "slink on a streamed input";
    let mut child = Command::new(BIN)
        .env("SLINK_CACHE_DIR", "")
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let (done, wait_done) = std::sync::mpsc::channel::<()>();
    let writer = std::thread::spawn(move || {
        for (block, times) in blocks {
            for _ in 0..times {
                if pipe.write_all(&block).is_err() {
                    return;
                }
            }
        }
        let _ = pipe.flush();
        let _ = wait_done.recv();
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut seen = Vec::new();
    let mut chunk = [0; 1 << 16];
    // Frame rows (lines of `#` only) in the whole lines of `seen[..scanned]`: two per answer.
    let (mut scanned, mut frame_rows) = (0, 0);
    while frame_rows / 2 < answers {
        let n = stdout.read(&mut chunk).unwrap();
        assert!(
            n > 0,
            "{what}: the output ended after {}",
            String::from_utf8_lossy(&seen)
        );
        seen.extend_from_slice(&chunk[..n]);
        while let Some(end) = seen[scanned..].iter().position(|&b| b == b'\n') {
            let line = &seen[scanned..scanned + end];
            if !line.is_empty() && line.iter().all(|&b| b == b'#') {
                frame_rows += 1;
            }
            scanned += end + 1;
        }
    }
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    let peak = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc/PID/status");
    done.send(()).unwrap();
    writer.join().unwrap();
    let reader = std::thread::spawn(move || {
        stdout.read_to_end(&mut seen).unwrap();
        seen
    });
    (wait(child, reader, what), peak)
}

#[cfg(target_os = "linux")]
#[test]
fn leading_blank_lines_and_comments_are_not_kept() {
    let puzzle = b"1 2\n3 3\n".to_vec();
    // 512 MiB of blank lines before the first puzzle: not kept.
    let mut blank = vec![b' '; 1 << 10];
    blank[1023] = b'\n';
    let (ran, peak) = slink_peak(vec![(blank, 512 << 10), (puzzle.clone(), 1)], 1);
    assert!(
        peak < 100_000,
        "{peak} KiB resident after 512 MiB of blank lines"
    );
    assert!(
        ran.stdout_text().starts_with("1\n"),
        "{}",
        ran.stdout_text()
    );
    // Blank lines and a comment: the comment is a bad size line at its own line number.
    let mut text = b"\n \n\r\n# a comment\n\n".to_vec();
    text.extend_from_slice(&puzzle);
    let ran = slink(&[], &text);
    assert_eq!(ran.status, 2, "{}", ran.stderr);
    assert!(ran.stderr.contains("<stdin>:4:1: "), "{}", ran.stderr);
    // In a file of URLs, the lines keep their numbers too.
    let urls =
        b"\n# urls\n\nhttps://puzz.link/p?slither/2/2/g\n\nhttps://puzz.link/p?slither/2/x/!\n";
    let ran = slink(&[], urls);
    assert!(ran.stderr.contains("<stdin>:6: "), "{}", ran.stderr);
}

#[cfg(target_os = "linux")]
#[test]
fn an_over_long_first_line_is_reported_and_the_stream_goes_on() {
    // 100 MiB without a newline, then two puzzles: the line is named and skipped.
    let long = vec![b'7'; 1 << 20];
    let rest = b"\n1 2\n3 3\n1 2\n3 3\n".to_vec();
    let (ran, peak) = slink_peak(vec![(long, 100), (rest, 1)], 2);
    assert!(peak < 200_000, "{peak} KiB resident after a 100 MiB line");
    assert_eq!(ran.status, 2, "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains("<stdin>:1:1: line 1 is longer than 64 MiB: skipped to its end"),
        "{}",
        ran.stderr
    );
    let out = ran.stdout_text();
    // The long line took number 1 (a bad puzzle keeps its number); both puzzles after it are solved.
    assert!(out.starts_with("2\n") && out.contains("\n3\n"), "{out}");
}

#[cfg(target_os = "linux")]
#[test]
fn a_million_tiny_puzzles_keep_memory_flat() {
    // A million 1x2 puzzles in one stream, on every core: answers are written in input
    // order, and what is read ahead of the writer is bounded (src/cli/parallel.rs), so the
    // peak stays that of a short stream.
    let puzzle = b"1 2\n3 3\n".to_vec();
    let (_, short) = slink_peak(vec![(puzzle.clone(), 1_000)], 1_000);
    let (ran, long) = slink_peak(vec![(puzzle, 1_000_000)], 1_000_000);
    assert!(
        long < 40_000 && long < short + 30_000,
        "{long} KiB resident after a million tiny puzzles ({short} KiB after a thousand)"
    );
    let out = ran.stdout_text();
    assert!(
        out.starts_with("1\n") && out.contains("\n1000000\n"),
        "{}",
        &out[..200]
    );
}

/// A directory holding a copy of the built-in `counting.rules`.
fn rules_dir(name: &str) -> TempDir {
    let dir = TempDir::new(name);
    std::fs::copy(
        root().join("rules/counting.rules"),
        dir.0.join("counting.rules"),
    )
    .unwrap();
    dir
}

/// `slink --rules DIR` on a small puzzle, stopped (and failed) after 30 s.
fn solve_with_rules(dir: &Path) -> Run {
    let what = format!("slink --rules {}", dir.display());
    let child = Command::new(BIN)
        .args(["--rules", dir.to_str().unwrap()])
        .env("SLINK_CACHE_DIR", "")
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let id = child.id();
    let (sent, got) = std::sync::mpsc::channel();
    let watchdog = std::thread::spawn(move || {
        if got.recv_timeout(Duration::from_secs(30)).is_err() {
            let _ = Command::new("kill")
                .args(["-KILL", &id.to_string()])
                .status();
        }
    });
    let output = child.wait_with_output().unwrap();
    let _ = sent.send(());
    watchdog.join().unwrap();
    finish(output, &what)
}

#[cfg(unix)]
#[test]
fn rule_files_that_are_not_regular_files_are_refused_by_name() {
    // A FIFO named *.rules: refused at once, never opened (opening it would block).
    let dir = rules_dir("rules-fifo");
    let fifo = dir.0.join("pipe.rules");
    if Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        let ran = solve_with_rules(&dir.0);
        assert_eq!(ran.status, 2, "{}", ran.stderr);
        assert!(
            ran.stderr.contains(&format!(
                "cannot read the rules of {}: it is not a regular file",
                fifo.display()
            )),
            "{}",
            ran.stderr
        );
        assert!(!ran.stderr.contains("takes a directory"), "{}", ran.stderr);
    }
    // A link to a device that never ends.
    let dir = rules_dir("rules-zero");
    let zero = dir.0.join("zero.rules");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let ran = solve_with_rules(&dir.0);
    assert_eq!(ran.status, 2, "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains(&format!("{}: it is not a regular file", zero.display())),
        "{}",
        ran.stderr
    );
    // A regular file over 16 MiB.
    std::fs::remove_file(&zero).unwrap();
    let big = dir.0.join("big.rules");
    std::fs::write(&big, vec![b'#'; (16 << 20) + 1]).unwrap();
    let ran = solve_with_rules(&dir.0);
    assert_eq!(ran.status, 2, "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains(&format!("{}: it is larger than 16 MiB", big.display())),
        "{}",
        ran.stderr
    );
    // A link to a regular rule file is read.
    std::fs::remove_file(&big).unwrap();
    std::os::unix::fs::symlink(
        root().join("rules/threes.rules"),
        dir.0.join("threes.rules"),
    )
    .unwrap();
    let ran = solve_with_rules(&dir.0);
    assert_eq!(ran.status, 0, "{}", ran.stderr);
}

#[test]
fn rules_takes_a_directory_is_said_only_of_a_file_given_to_rules() {
    let dir = rules_dir("rules-hint");
    let file = dir.0.join("counting.rules");
    let ran = solve_with_rules(&file);
    assert_eq!(ran.status, 2, "{}", ran.stderr);
    assert!(
        ran.stderr.contains("--rules takes a directory"),
        "{}",
        ran.stderr
    );
    // A directory named *.rules inside the directory: named, without that hint.
    std::fs::create_dir(dir.0.join("sub.rules")).unwrap();
    let ran = solve_with_rules(&dir.0);
    assert_eq!(ran.status, 2, "{}", ran.stderr);
    assert!(
        ran.stderr.contains("sub.rules: is a directory"),
        "{}",
        ran.stderr
    );
    assert!(!ran.stderr.contains("takes a directory"), "{}", ran.stderr);
}

// ---------------------------------------------------------------------------------------------
// rules check: many copies of one rule

#[test]
fn rules_check_groups_thousands_of_copies_of_one_rule() {
    let dir = TempDir::new("copies");
    let copies = 2000;
    let mut text = String::new();
    for i in 0..copies {
        // The same rule, every other one drawn upside down.
        if i % 2 == 0 {
            text.push_str(&format!(
                "rule one-{i}\nwhen\n  +---+\n    1\n  +   +\nthen\n  +---+\n  x 1 x\n  + x +\n\n"
            ));
        } else {
            text.push_str(&format!(
                "rule one-{i}\nwhen\n  +   +\n    1\n  +---+\nthen\n  + x +\n  x 1 x\n  +---+\n\n"
            ));
        }
    }
    std::fs::write(dir.0.join("copies.rules"), text).unwrap();
    let started = Instant::now();
    let ran = run(&["rules", "check", dir.path()], "");
    let took = started.elapsed();
    let out = ran.stdout_text();
    assert!(took < Duration::from_secs(60), "took {took:?}");
    let warnings: Vec<&str> = out.lines().filter(|l| l.starts_with("warning: ")).collect();
    assert_eq!(warnings.len(), 1, "{}", warnings.join("\n"));
    assert!(
        warnings[0].contains(&format!("{} rules duplicate `one-0`", copies - 1))
            && warnings[0].contains("and 1994 more"),
        "{}",
        warnings[0]
    );
    // A line per rule, the warning's two lines, and a few more.
    assert!(out.lines().count() < copies + 20, "{out}");
    assert!(out.trim_end().ends_with("1 warning"), "{out}");
}

#[test]
fn rules_check_groups_the_many_rules_one_rule_is_subsumed_by() {
    let dir = TempDir::new("subsumed-by-copies");
    let mut text = String::from(
        "rule one-weaker\nwhen\n  +---+\n    1 x\n  +   +\nthen\n  +---+\n  x 1 x\n  +   +\n\n",
    );
    for i in 0..50 {
        text.push_str(&format!(
            "rule one-{i}\nwhen\n  +---+\n    1\n  +   +\nthen\n  +---+\n  x 1 x\n  + x +\n\n"
        ));
    }
    std::fs::write(dir.0.join("copies.rules"), text).unwrap();
    let ran = run(&["rules", "check", dir.path()], "");
    let out = ran.stdout_text();
    let warnings: Vec<&str> = out.lines().filter(|l| l.starts_with("warning: ")).collect();
    assert_eq!(warnings.len(), 2, "{}", warnings.join("\n"));
    assert!(
        warnings[0].contains("49 rules duplicate `one-0`"),
        "{}",
        warnings[0]
    );
    assert!(
        warnings[1].contains("`one-weaker`") && warnings[1].contains("is subsumed by 50 rules"),
        "{}",
        warnings[1]
    );
}

// ---------------------------------------------------------------------------------------------
// Messages that say what is wrong

#[test]
fn a_timeout_out_of_range_names_the_range() {
    for bad in ["1e300", "0", "inf", "NaN"] {
        let ran = run(&["--timeout", bad], "0 0\n");
        assert_eq!(ran.status, 2, "{bad}: {}", ran.stderr);
        assert!(
            ran.stderr
                .contains("give a number of seconds above 0 and at most 1e9"),
            "{bad}: {}",
            ran.stderr
        );
    }
    let ran = run(&["--timeout", "1e9"], "0 0\n");
    assert_eq!(ran.status, 0, "{}", ran.stderr);
}

#[test]
fn a_line_asked_outside_the_grid_is_named_by_a_dot_on_it() {
    for (puzzle, dot) in [
        ("1 3\n2 2 2\n0 0\n", "dot (0, 0)"),
        ("1 3\n. 2 2\n0 0\n", "dot (1, 3)"),
    ] {
        let ran = run(&[], puzzle);
        assert_eq!(ran.status, 1, "{}", ran.stderr);
        assert!(
            ran.stderr.contains(&format!(
                "no solution: the loop would have to leave the grid at {dot}"
            )),
            "{puzzle}: {}",
            ran.stderr
        );
        assert!(!ran.stderr.contains("-1"), "{}", ran.stderr);
        let ran = run(&["explain"], puzzle);
        assert!(
            ran.stdout_text()
                .contains(&format!("leave the grid at {dot}")),
            "{}",
            ran.stdout_text()
        );
    }
}

// ---------------------------------------------------------------------------------------------
// A puzzle that runs long is named on a terminal

#[cfg(target_os = "linux")]
#[test]
fn a_long_puzzle_is_named_on_a_terminal() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: no `script` to give slink a terminal");
        return;
    }
    let dir = TempDir::new("slow");
    let input = dir.0.join("wide.in");
    // A 600x600 blank grid: about 2 s here, far more than the 0.2 s SLINK_SLOW_AFTER asks for
    // (the default is 3 s).
    let mut text = String::from("1 1\n.\n600 600\n");
    let row = vec!["."; 600].join(" ");
    for _ in 0..600 {
        text.push_str(&row);
        text.push('\n');
    }
    text.push_str("0 0\n");
    std::fs::write(&input, text).unwrap();
    let command = format!("timeout 20 {BIN} -j 1 {} 2>&1", input.display());
    let mut child = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("SLINK_CACHE_DIR", "")
        .env("SLINK_SLOW_AFTER", "0.2")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut seen = Vec::new();
        let mut chunk = [0; 1024];
        while let Ok(n) = stdout.read(&mut chunk) {
            if n == 0 {
                break;
            }
            seen.extend_from_slice(&chunk[..n]);
            if String::from_utf8_lossy(&seen).contains("--timeout SECONDS") {
                break;
            }
        }
        seen
    });
    let seen = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        seen.contains(
            "slink: puzzle 2 (600x600) has run for 0.2 s and goes on; give --timeout SECONDS"
        ),
        "{seen}"
    );
    assert!(!seen.contains("puzzle 1 (1x1) has run"), "{seen}");
}

// ---------------------------------------------------------------------------------------------
// Bounds on big outputs, and a full disk

#[test]
fn an_explanation_page_of_a_puzzle_too_big_is_refused_by_name() {
    let dir = TempDir::new("big-page");
    let mut text = String::from("1 1\n.\n501 500\n");
    let row = vec!["."; 500].join(" ");
    for _ in 0..501 {
        text.push_str(&row);
        text.push('\n');
    }
    text.push_str("0 0\n");
    let (run, page) = common::explain_page(&dir, "out", &text);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "puzzle 2 (501x500) is too big for an explanation page: a page holds at most 250000 cells"
        ),
        "{}",
        run.stderr
    );
    assert!(page.is_file(), "puzzle 1 still gets its page");
    assert!(
        !dir.0.join("out-2.html").exists(),
        "no page for the big one"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_ends_the_run_with_a_message_and_status_2() {
    for args in [&[][..], &["--format", "svg"], &["--format", "json"]] {
        let mut full_args: Vec<&str> = args.to_vec();
        full_args.push("tests/data/sample.in");
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = Command::new(BIN)
            .args(&full_args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("cannot write the answers: No space left on device"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn an_svg_answer_grows_with_its_cells_and_no_faster() {
    // The bound of `--format svg`: one document per puzzle, at most 120 bytes a cell
    // (a clue, a dot and the loop's points), written as it is made.
    let mut text = String::new();
    for n in [20usize, 80] {
        text.push_str(&format!("{n} {n}\n"));
        let row = vec!["."; n].join(" ");
        for _ in 0..n {
            text.push_str(&row);
            text.push('\n');
        }
    }
    text.push_str("0 0\n");
    let dir = TempDir::new("svg-growth");
    let run = slink(
        &["--format", "svg", "--no-probing", "--out-dir", dir.path()],
        text.as_bytes(),
    );
    assert!(run.stderr.contains("wrote 2 SVG files"), "{}", run.stderr);
    let docs: Vec<String> = (1..=2)
        .map(|k| std::fs::read_to_string(dir.0.join(format!("{k}.svg"))).unwrap())
        .collect();
    for (doc, n) in docs.iter().zip([20usize, 80]) {
        assert!(
            doc.len() <= 120 * n * n + 4096,
            "{n}x{n}: {} bytes",
            doc.len()
        );
    }
}
