//! Embeds the files of `rules/` into the binary as the built-in rule set, with what a plain
//! solve needs to pass over the files probing stands in for, and names the prover's source by
//! a hash (`SLINK_PROVER_HASH`: the cache of proven rules is kept per prover).

use std::fmt::Write;
use std::path::Path;

/// The crate's directory, as cargo says when it runs the script (not `env!`, which would
/// bake in the directory the script was compiled in: a target directory shared by two
/// checkouts would then embed the other checkout's rules, or none).
fn manifest_dir() -> std::path::PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .expect("cargo sets CARGO_MANIFEST_DIR for build scripts")
        .into()
}

fn main() {
    let dir = manifest_dir().join("rules");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "rules"))
                .collect()
        })
        .unwrap_or_default();
    paths.sort();
    assert!(
        !paths.is_empty(),
        "no rule files in {}: the built-in rule set would be empty",
        dir.display()
    );
    let mut code = String::from("&[\n");
    let mut lowest = String::from("&[");
    let mut replaces: Option<u32> = None;
    for path in &paths {
        println!("cargo:rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let scan = scan_levels(&text);
        write!(lowest, "{},", scan.lowest).unwrap();
        if let Some(n) = scan.replaces {
            replaces = Some(replaces.map_or(n, |r| r.min(n)));
        }
        let name = format!("rules/{}", path.file_name().unwrap().to_string_lossy());
        writeln!(
            code,
            "    ({name:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .unwrap();
    }
    code.push(']');
    lowest.push(']');
    let out_dir = std::env::var("OUT_DIR").unwrap();
    std::fs::write(Path::new(&out_dir).join("builtin_rules.rs"), code).unwrap();
    let levels = format!("({lowest}, {replaces:?})");
    std::fs::write(Path::new(&out_dir).join("builtin_levels.rs"), levels).unwrap();
    prover_hash();
}

/// What a quick look at a rule file's text finds: the lowest level of its rules (0 when it
/// has `use` lines or no rules: it is always read), and the N of a `use probing instead of
/// level N` line. The test suite checks both against the parsed files.
struct LevelScan {
    lowest: u32,
    replaces: Option<u32>,
}

fn scan_levels(text: &str) -> LevelScan {
    let mut levels = Vec::new();
    let mut uses = false;
    let mut replaces = None;
    // Within a rule's header (between `rule NAME` and `when`), the `level N` line.
    let mut in_header = false;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("use ") {
            uses = true;
            let words: Vec<&str> = rest.split_whitespace().collect();
            if let ["probing", "instead", "of", "level", n] = words.as_slice() {
                replaces = n.parse::<u32>().ok();
            }
        } else if line.starts_with("rule ") {
            levels.push(1);
            in_header = true;
        } else if line.starts_with("when") {
            in_header = false;
        } else if in_header
            && let Some(n) = line.trim().strip_prefix("level ")
            && let (Some(last), Ok(n)) = (levels.last_mut(), n.trim().parse::<u32>())
        {
            *last = n;
        }
    }
    LevelScan {
        lowest: if uses {
            0
        } else {
            levels.into_iter().min().unwrap_or(0)
        },
        replaces,
    }
}

/// What the prover's verdict depends on: the whole rule module (`src/rules/`, the prover with
/// the grammar, checks and expansion it reads rules through) and the geometry under it. Found by
/// walking the directories, so a file added there is hashed without being listed here.
const PROVER_SOURCES: &[&str] = &["src/rules", "src/geometry.rs"];

/// Every file under `path` (or `path` itself when it is a file), recursively.
fn files_under(path: &Path, out: &mut Vec<std::path::PathBuf>) {
    if path.is_dir() {
        let entries = std::fs::read_dir(path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        for entry in entries {
            let entry = entry.unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            files_under(&entry.path(), out);
        }
    } else if path.is_file() {
        out.push(path.to_path_buf());
    }
}

/// FNV-1a over the prover's sources, sorted by path: each file's path (relative to the crate,
/// with `/` separators) and its length, then its content.
fn prover_hash() {
    let root = manifest_dir();
    let mut files = Vec::new();
    for source in PROVER_SOURCES {
        let path = root.join(source);
        assert!(
            path.exists(),
            "{} is missing: the prover's hash would not name it",
            path.display()
        );
        println!("cargo:rerun-if-changed={}", path.display());
        files_under(&path, &mut files);
    }
    let mut named: Vec<(String, std::path::PathBuf)> = files
        .into_iter()
        .map(|path| {
            let rel = path.strip_prefix(&root).unwrap_or(&path);
            let name = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            (name, path)
        })
        .collect();
    named.sort();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for &byte in bytes {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    for (name, path) in &named {
        println!("cargo:rerun-if-changed={}", path.display());
        let content =
            std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        feed(name.as_bytes());
        feed(&[0]);
        feed(&(content.len() as u64).to_le_bytes());
        feed(&content);
    }
    println!("cargo:rustc-env=SLINK_PROVER_HASH={hash:016x}");
}
