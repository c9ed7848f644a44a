//! The README's commands, run as the README shows them.
//!
//! Every line of a fenced code block of README.md that starts with `$ ` is a command (a line
//! ending in `\` goes on on the next one); in a block without any `$ ` line, a line that
//! starts with `slink ` is one too. Each command is run by `sh -c` in a scratch directory
//! holding copies of `tests/data` and `rules`, with the built `slink` first on the `PATH`
//! and the proof cache kept in the scratch directory. Commands starting with `cargo` are not
//! run (they would build and test this crate again); the two the README must give are
//! checked to be there verbatim.
//!
//! What a command must do:
//!
//! * exit with status 0, unless the next command is `$ echo $?`, whose output line is then
//!   the status expected (a pipeline's status is its last command's, as in the shell);
//! * print the lines shown under it, if any: they are compared, with trailing blanks
//!   trimmed, with the lines of standard output (or of standard error when standard output
//!   is empty). A line `...` ends the comparison there; without one, the output must have
//!   exactly the lines shown.
//!
//! A second test checks that every relative link of README.md and docs/*.md names a file
//! that exists (and, with `#anchor`, a heading of that file).

#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The two commands the README must give, exactly.
const REQUIRED: [&str; 2] = [
    "cargo run --release -- solve tests/data/sample.in",
    "cargo test --release",
];

/// One command of the README and what it should do.
#[derive(Debug)]
struct Example {
    /// The README line the command starts on (from 1).
    line: usize,
    command: String,
    /// The output lines shown under it (up to a `...` line, if any).
    output: Vec<String>,
    /// Whether the shown output ends with `...` (so it is only the output's first lines).
    truncated: bool,
    /// The exit status expected.
    status: i32,
}

fn crate_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn readme() -> String {
    fs::read_to_string(crate_root().join("README.md")).expect("README.md can be read")
}

/// The fenced code blocks of a Markdown text, each as (line of its first content line,
/// its lines).
fn fenced_blocks(text: &str) -> Vec<(usize, Vec<&str>)> {
    let mut blocks = Vec::new();
    let mut current: Option<(usize, Vec<&str>)> = None;
    for (index, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            match current.take() {
                Some(block) => blocks.push(block),
                None => current = Some((index + 2, Vec::new())),
            }
        } else if let Some((_, lines)) = current.as_mut() {
            lines.push(line);
        }
    }
    assert!(current.is_none(), "README.md: a code block is never closed");
    blocks
}

/// The commands of the README's fenced blocks, with their output and status.
fn examples(text: &str) -> Vec<Example> {
    let mut examples: Vec<Example> = Vec::new();
    for (first, lines) in fenced_blocks(text) {
        let prompted = lines.iter().any(|line| line.starts_with("$ "));
        let mut i = 0;
        while i < lines.len() {
            let line = lines[i];
            let start = if prompted {
                line.strip_prefix("$ ")
            } else if line.starts_with("slink ") {
                Some(line)
            } else {
                None
            };
            let Some(start) = start else {
                i += 1;
                continue;
            };
            let line_number = first + i;
            let mut command = start.to_string();
            while command.ends_with('\\') && i + 1 < lines.len() {
                command.pop();
                i += 1;
                command.push_str(lines[i].trim_start());
            }
            i += 1;
            let mut shown = Vec::new();
            while prompted && i < lines.len() && !lines[i].starts_with("$ ") {
                shown.push(lines[i].trim_end().to_string());
                i += 1;
            }
            if command.trim() == "echo $?" {
                let previous = examples.last_mut().unwrap_or_else(|| {
                    panic!("README.md:{line_number}: `echo $?` follows no command")
                });
                previous.status = shown
                    .first()
                    .and_then(|status| status.trim().parse().ok())
                    .unwrap_or_else(|| {
                        panic!("README.md:{line_number}: `echo $?` shows no status")
                    });
                continue;
            }
            let truncated = shown.iter().any(|line| line == "...");
            if let Some(end) = shown.iter().position(|line| line == "...") {
                shown.truncate(end);
            }
            examples.push(Example {
                line: line_number,
                command,
                output: shown,
                truncated,
                status: 0,
            });
        }
    }
    examples
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("the scratch directory can be made");
    for entry in fs::read_dir(from).expect("the directory can be read") {
        let entry = entry.expect("the directory entry can be read");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("the entry has a type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).expect("the file can be copied");
        }
    }
}

/// A scratch directory, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Self {
        let dir = std::env::temp_dir().join(format!("slink-readme-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        copy_dir(&crate_root().join("tests/data"), &dir.join("tests/data"));
        copy_dir(&crate_root().join("rules"), &dir.join("rules"));
        fs::create_dir_all(dir.join("cache")).expect("the cache directory can be made");
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn lines_of(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(|line| line.trim_end().to_string())
        .collect()
}

/// Runs one example; the problems found, if any.
fn run(example: &Example, dir: &Path, path: &str) -> Result<(), String> {
    let output = Command::new("sh")
        .arg("-c")
        .arg(&example.command)
        .current_dir(dir)
        .env("PATH", path)
        .env("SLINK_CACHE_DIR", dir.join("cache"))
        .env("NO_COLOR", "1")
        .output()
        .map_err(|error| format!("could not run sh: {error}"))?;
    let stdout = lines_of(&output.stdout);
    let stderr = lines_of(&output.stderr);
    let status = output.status.code();
    if status != Some(example.status) {
        return Err(format!(
            "exit status {status:?}, the README says {}\nstdout:\n{}\nstderr:\n{}",
            example.status,
            stdout.join("\n"),
            stderr.join("\n")
        ));
    }
    if example.output.is_empty() {
        return Ok(());
    }
    let (got, stream) = if stdout.is_empty() {
        (&stderr, "standard error")
    } else {
        (&stdout, "standard output")
    };
    let matches = if example.truncated {
        got.len() >= example.output.len() && got[..example.output.len()] == example.output[..]
    } else {
        *got == example.output
    };
    if matches {
        return Ok(());
    }
    let shown = got.len().min(example.output.len() + 5);
    Err(format!(
        "its {stream} differs from the README's\nthe README shows{}:\n{}\nthe command wrote{}:\n{}",
        if example.truncated {
            " (first lines)"
        } else {
            ""
        },
        example.output.join("\n"),
        if shown < got.len() {
            format!(" (first {shown} of {} lines)", got.len())
        } else {
            String::new()
        },
        got[..shown].join("\n")
    ))
}

#[test]
fn readme_gives_the_two_commands_verbatim() {
    let text = readme();
    for command in REQUIRED {
        assert!(
            text.lines().any(|line| line.trim() == command),
            "README.md must give the command `{command}` on a line of its own"
        );
    }
}

#[test]
fn readme_commands_run_as_shown() {
    let text = readme();
    let examples = examples(&text);
    assert!(
        examples.len() >= 10,
        "README.md: only {} commands found",
        examples.len()
    );
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_slink"));
    let bin_dir = binary.parent().expect("the binary has a directory");
    let path = match std::env::var_os("PATH") {
        Some(path) => format!("{}:{}", bin_dir.display(), path.to_string_lossy()),
        None => bin_dir.display().to_string(),
    };
    let scratch = Scratch::new();
    let mut failures = Vec::new();
    let mut ran = 0;
    for example in &examples {
        if example.command.starts_with("cargo ") {
            continue;
        }
        assert!(
            example.command.contains("slink"),
            "README.md:{}: `{}` runs no slink command",
            example.line,
            example.command
        );
        ran += 1;
        if let Err(problem) = run(example, &scratch.0, &path) {
            failures.push(format!(
                "README.md:{}: `{}` failed: {problem}",
                example.line, example.command
            ));
        }
    }
    assert!(ran >= 10, "README.md: only {ran} slink commands were run");
    assert!(
        failures.is_empty(),
        "{} of {ran} README commands failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '-' || *c == '_' || *c == ' ')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors(text: &str) -> Vec<String> {
    let mut in_code = false;
    let mut found = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            found.push(anchor(line.trim_start_matches('#')));
        }
    }
    found
}

/// The targets of the Markdown links `[text](target)` and `![alt](target)` of a text,
/// outside code, with their line numbers.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut in_code = false;
    let mut found = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code || line.starts_with("    ") {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            found.push((index + 1, after[..end].to_string()));
            rest = &after[end..];
        }
    }
    found
}

#[test]
fn relative_links_resolve() {
    let root = crate_root();
    let mut pages = vec![root.join("README.md")];
    for entry in fs::read_dir(root.join("docs")).expect("docs/ can be read") {
        let path = entry.expect("docs/ entry").path();
        if path.extension().is_some_and(|ext| ext == "md") {
            pages.push(path);
        }
    }
    let mut broken = Vec::new();
    for page in &pages {
        let text = fs::read_to_string(page).expect("the page can be read");
        let name = page
            .strip_prefix(&root)
            .unwrap_or(page)
            .display()
            .to_string();
        for (line, target) in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, fragment) = match target.split_once('#') {
                Some((file, fragment)) => (file, Some(fragment)),
                None => (target.as_str(), None),
            };
            let path = if file.is_empty() {
                page.clone()
            } else {
                page.parent().expect("a page has a directory").join(file)
            };
            if !path.exists() {
                broken.push(format!(
                    "{name}:{line}: `{target}`: no file {}",
                    path.display()
                ));
                continue;
            }
            if let Some(fragment) = fragment
                && path.extension().is_some_and(|ext| ext == "md")
            {
                let target_text = fs::read_to_string(&path).expect("the linked page can be read");
                if !anchors(&target_text).iter().any(|a| a == fragment) {
                    broken.push(format!("{name}:{line}: `{target}`: no heading #{fragment}"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}
