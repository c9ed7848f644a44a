//! Helpers shared by the end-to-end tests: run the built `slink` binary and collect what it did.
#![allow(dead_code)] // each test crate uses its own subset

pub mod answers;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_slink");

/// The crate root: the binary runs from here, so relative paths in messages are stable.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A file of `tests/data/`.
pub fn data(name: &str) -> PathBuf {
    root().join("tests/data").join(name)
}

/// What one run of the binary produced.
pub struct Run {
    /// Exit status.
    pub status: i32,
    /// Standard output, as bytes.
    pub stdout: Vec<u8>,
    /// Standard error, as text.
    pub stderr: String,
}

impl Run {
    /// Standard output as text.
    pub fn stdout_text(&self) -> String {
        String::from_utf8(self.stdout.clone()).expect("answers are UTF-8")
    }
}

/// Checks what every run must satisfy, whatever its input: an exit status, and no panic.
pub fn finish(output: Output, what: &str) -> Run {
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let status = output
        .status
        .code()
        .unwrap_or_else(|| panic!("{what}: killed by a signal; stderr:\n{stderr}"));
    assert!(
        !stderr.contains("panicked") && !stderr.contains("RUST_BACKTRACE"),
        "{what}: the binary panicked:\n{stderr}"
    );
    Run {
        status,
        stdout: output.stdout,
        stderr,
    }
}

/// Runs `slink ARGS` from the crate root with `stdin` as standard input.
pub fn slink(args: &[&str], stdin: &[u8]) -> Run {
    let what = format!("slink {}", args.join(" "));
    let mut child = Command::new(BIN)
        .args(args)
        // No cache of proven rules: every run proves its --rules afresh (tests/robustness.rs
        // tests the cache on its own).
        .env("SLINK_CACHE_DIR", "")
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{what}: cannot start {BIN}: {e}"));
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    // Write from another thread so that a large input cannot deadlock against a full stdout.
    let writer = std::thread::spawn(move || {
        // The binary may stop reading early (e.g. after an unrecoverable error): ignore EPIPE.
        let _ = pipe.write_all(&input);
    });
    let output = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    writer.join().unwrap();
    finish(output, &what)
}

/// A directory under the system temp dir, unique to this process and name; removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("slink-test-{}-{n}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path)
            .unwrap_or_else(|e| panic!("cannot create {}: {e}", path.display()));
        TempDir(path)
    }

    /// The directory's path as text.
    pub fn path(&self) -> &str {
        self.0.to_str().expect("temp dir path is UTF-8")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Copies the files of `rules/` (not its subdirectories) into `dir` without their `use
/// probing` and `use search` lines: the built-in set as deduction alone, for `rules ablate`.
pub fn copy_rules_for_deduction(dir: &Path) {
    copy_rules_for_deduction_from(&root().join("rules"), dir);
}

/// [`copy_rules_for_deduction`] from the rule directory `from`.
pub fn copy_rules_for_deduction_from(from: &Path, dir: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            let text: String = std::fs::read_to_string(&path)
                .unwrap()
                .lines()
                .filter(|l| !l.starts_with("use probing") && !l.starts_with("use search"))
                .map(|l| format!("{l}\n"))
                .collect();
            std::fs::write(dir.join(path.file_name().unwrap()), text).unwrap();
        }
    }
}

/// Writes `puzzle` to `DIR/NAME.in` and runs `slink explain --html DIR/NAME.html` on it: the
/// run and the page's path.
pub fn explain_page(dir: &TempDir, name: &str, puzzle: &str) -> (Run, PathBuf) {
    let input = dir.0.join(format!("{name}.in"));
    std::fs::write(&input, puzzle).unwrap();
    let page = dir.0.join(format!("{name}.html"));
    let run = slink(
        &[
            "explain",
            "--html",
            page.to_str().unwrap(),
            input.to_str().unwrap(),
        ],
        b"",
    );
    (run, page)
}

/// The JSON data inside the explanation page at `page`.
pub fn page_data(page: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(page).unwrap();
    let tag = r#"<script type="application/json" id="data">"#;
    let start = text.find(tag).expect("the page's data") + tag.len();
    let len = text[start..].find("</script>").expect("the data's end");
    serde_json::from_str(&text[start..start + len]).expect("the page's data is JSON")
}

/// A small linear congruential generator (fixed seeds: the same cases everywhere, no crate
/// needed).
pub struct Lcg(pub u64);

impl Lcg {
    /// The next number below `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}
