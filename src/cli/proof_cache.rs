//! A cache of rules proven sound, so that a rule set read from files is proven once per machine and prover, not on every run.
//!
//! An entry is the rule's meaning written out exactly (the single-loop mark, its dots, premise
//! and conclusion; not its name, words or examples), so an edited rule never matches its old
//! entry and there are no hash collisions to fear. Entries live in one text file per slink
//! version and prover source (`proofs-VERSION-HASH.txt`, the hash taken of the prover's source
//! files at build time), one per line, in the cache directory:
//! `$SLINK_CACHE_DIR` (set and empty: no cache), else `$XDG_CACHE_HOME/slink`, else
//! `$HOME/.cache/slink`. Only `Sound` verdicts are kept. The cache is a convenience: a file
//! that cannot be read or written is passed over in silence, and the rules are proven.

use super::write_file::{Existing, write_file};
use crate::rules::{Fact, Glyph, Rule, read_regular};
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The largest cache file read (a larger one is passed over, and written afresh when saving).
const MAX_BYTES: u64 = 64 << 20;

/// The cache directory the environment names, if any.
pub fn dir_from_env() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("SLINK_CACHE_DIR") {
        return (!dir.is_empty()).then(|| PathBuf::from(dir));
    }
    let absolute = |v: std::ffi::OsString| Some(PathBuf::from(v)).filter(|p| p.is_absolute());
    if let Some(base) = std::env::var_os("XDG_CACHE_HOME").and_then(absolute) {
        return Some(base.join("slink"));
    }
    std::env::var_os("HOME")
        .and_then(absolute)
        .map(|home| home.join(".cache").join("slink"))
}

/// The file of this slink and prover in `dir`.
pub fn file_in(dir: &Path) -> PathBuf {
    dir.join(format!(
        "proofs-{}-{}.txt",
        env!("CARGO_PKG_VERSION"),
        env!("SLINK_PROVER_HASH")
    ))
}

/// What a proof of `rule` depends on, on one line.
pub fn key(rule: &Rule) -> String {
    let mut out = String::from(if rule.assumes_single_loop { "L" } else { "-" });
    out.push_str(" dots");
    for d in &rule.dots {
        let _ = write!(out, " {},{}", d.y, d.x);
    }
    let facts = |out: &mut String, name: &str, facts: &[Fact]| {
        out.push_str(name);
        for f in facts {
            let glyph = match f.glyph {
                Glyph::Line => '-',
                Glyph::Cross => 'x',
                Glyph::Clue(n) => char::from(b'0' + n.min(9)),
            };
            let _ = write!(out, " {},{}:{glyph}", f.at.y, f.at.x);
        }
    };
    // Colour letters follow their picture's facts (a letter is never `-`, `x` or a digit).
    let colours = |out: &mut String, colours: &[crate::rules::Colour]| {
        for c in colours {
            let _ = write!(out, " {},{}:{}", c.at.y, c.at.x, c.glyph());
        }
    };
    facts(&mut out, "; when", &rule.premise);
    colours(&mut out, &rule.premise_colours);
    facts(&mut out, "; then", &rule.conclusion);
    colours(&mut out, &rule.conclusion_colours);
    out
}

/// The well-formed entries of a cache file's text: whole lines (a last line without its
/// newline may be torn and is dropped), UTF-8, and shaped as [`key`] writes them (`L` or `-`,
/// ` dots`, `; when`, `; then`). Anything else is passed over.
fn entries(bytes: &[u8]) -> impl Iterator<Item = &str> {
    let whole = match bytes.iter().rposition(|&b| b == b'\n') {
        Some(last) => &bytes[..=last],
        None => &[][..],
    };
    whole
        .split(|&b| b == b'\n')
        .filter_map(|line| std::str::from_utf8(line).ok())
        .filter(|line| {
            (line.starts_with("L dots") || line.starts_with("- dots"))
                && line.matches("; when").count() == 1
                && line.matches("; then").count() == 1
                && line.find("; when") < line.find("; then")
                && !line.contains(['\r', '\0'])
        })
}

/// The rules proven before, and those proven in this run (to be saved).
#[derive(Debug, Default)]
pub struct ProofCache {
    /// The cache file; `None` when there is no cache.
    file: Option<PathBuf>,
    /// Keys of rules proven sound.
    known: HashSet<String>,
    /// Keys proven in this run, not yet in the file.
    fresh: Vec<String>,
}

impl ProofCache {
    /// No cache: every rule is proven.
    pub fn none() -> ProofCache {
        ProofCache::default()
    }

    /// The cache in `dir` (read now; a missing or unreadable file is an empty cache).
    pub fn open(dir: &Path) -> ProofCache {
        let file = file_in(dir);
        let known = read_regular(&file, MAX_BYTES)
            .map(|bytes| entries(&bytes).map(str::to_string).collect())
            .unwrap_or_default();
        ProofCache {
            file: Some(file),
            known,
            fresh: Vec::new(),
        }
    }

    /// Whether `rule` was proven sound before.
    pub fn proven(&self, rule: &Rule) -> bool {
        self.file.is_some() && self.known.contains(&key(rule))
    }

    /// Notes that `rule` was proven sound.
    pub fn record(&mut self, rule: &Rule) {
        if self.file.is_none() {
            return;
        }
        let key = key(rule);
        if self.known.insert(key.clone()) {
            self.fresh.push(key);
        }
    }

    /// Adds the rules proven in this run to the file: the file as it is now (other runs may
    /// have added to it since it was read) plus them, written beside it and renamed into
    /// place ([`write_file`]), so that no reader sees a part of a line and no symbolic link
    /// at the file's name is written through; a failure is ignored.
    pub fn save(&mut self) {
        let Some(file) = &self.file else { return };
        if self.fresh.is_empty() {
            return;
        }
        let mut text = String::new();
        let mut kept = HashSet::new();
        if let Ok(meta) = std::fs::symlink_metadata(file)
            && meta.is_file()
            && let Ok(bytes) = read_regular(file, MAX_BYTES)
        {
            for line in entries(&bytes) {
                if kept.insert(line.to_string()) {
                    text.push_str(line);
                    text.push('\n');
                }
            }
        }
        for key in self.fresh.drain(..) {
            if kept.insert(key.clone()) {
                text.push_str(&key);
                text.push('\n');
            }
        }
        if let Some(dir) = file.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = write_file(file, text.as_bytes(), Existing::Replace);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RuleSet;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("slink-proofs-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn rules_proven_once_are_known_the_next_time() {
        let dir = temp("known");
        let set = RuleSet::builtin();
        let mut cache = ProofCache::open(&dir);
        assert!(set.rules.iter().all(|r| !cache.proven(r)));
        for r in &set.rules {
            cache.record(r);
        }
        cache.save();
        let again = ProofCache::open(&dir);
        assert!(set.rules.iter().all(|r| again.proven(r)));
        let lines = std::fs::read_to_string(file_in(&dir))
            .unwrap()
            .lines()
            .count();
        assert_eq!(lines, set.rules.len());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_edited_rule_is_not_known() {
        let dir = temp("edited");
        let set = RuleSet::builtin();
        let mut cache = ProofCache::open(&dir);
        cache.record(&set.rules[0]);
        cache.save();
        let cache = ProofCache::open(&dir);
        let mut edited = set.rules[0].clone();
        edited.name = "renamed".into();
        assert!(cache.proven(&edited), "names are not part of the meaning");
        edited.conclusion.pop();
        assert!(!cache.proven(&edited));
        let mut flipped = set.rules[0].clone();
        flipped.assumes_single_loop = !flipped.assumes_single_loop;
        assert!(!cache.proven(&flipped));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn no_cache_knows_nothing_and_writes_nothing() {
        let set = RuleSet::builtin();
        let mut cache = ProofCache::none();
        cache.record(&set.rules[0]);
        cache.save();
        assert!(!cache.proven(&set.rules[0]));
    }

    #[cfg(unix)]
    #[test]
    fn a_link_at_the_cache_file_is_not_written_through() {
        let dir = temp("link");
        std::fs::create_dir_all(&dir).unwrap();
        let victim = dir.join("victim.txt");
        std::fs::write(&victim, "keep me").unwrap();
        std::os::unix::fs::symlink(&victim, file_in(&dir)).unwrap();
        let set = RuleSet::builtin();
        let mut cache = ProofCache::open(&dir);
        cache.record(&set.rules[0]);
        cache.save();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
        assert!(
            std::fs::symlink_metadata(file_in(&dir))
                .unwrap()
                .is_symlink()
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn saving_keeps_what_another_run_added_meanwhile() {
        let dir = temp("merge");
        let set = RuleSet::builtin();
        let (mut one, mut two) = (ProofCache::open(&dir), ProofCache::open(&dir));
        one.record(&set.rules[0]);
        two.record(&set.rules[1]);
        one.save();
        two.save();
        let again = ProofCache::open(&dir);
        assert!(again.proven(&set.rules[0]) && again.proven(&set.rules[1]));
        let text = std::fs::read_to_string(file_in(&dir)).unwrap();
        assert_eq!(text.lines().count(), 2, "{text}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_unwritable_place_is_passed_over() {
        let dir = temp("unwritable");
        std::fs::write(&dir, "a file, not a directory").unwrap();
        let set = RuleSet::builtin();
        let mut cache = ProofCache::open(&dir.join("below"));
        cache.record(&set.rules[0]);
        cache.save();
        let _ = std::fs::remove_file(&dir);
    }

    #[test]
    fn a_torn_last_line_and_malformed_lines_are_passed_over() {
        let dir = temp("torn");
        std::fs::create_dir_all(&dir).unwrap();
        let set = RuleSet::builtin();
        let (whole, torn) = (key(&set.rules[0]), key(&set.rules[1]));
        // A torn entry that happens to end where another rule's key would: not taken either.
        let cut = &torn[..torn.rfind(' ').unwrap()];
        let text = format!("garbage\n\u{fffd}{whole}\nL dots; then 0,0:-; when\n{whole}\n{cut}");
        std::fs::write(file_in(&dir), text).unwrap();
        let mut cache = ProofCache::open(&dir);
        assert_eq!(cache.known.len(), 1, "{:?}", cache.known);
        assert!(cache.proven(&set.rules[0]));
        assert!(!cache.proven(&set.rules[1]));
        // Saving writes whole lines only: the torn tail is not glued to the next entry.
        cache.record(&set.rules[2]);
        cache.save();
        let text = std::fs::read_to_string(file_in(&dir)).unwrap();
        assert_eq!(text, format!("{whole}\n{}\n", key(&set.rules[2])));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_at_the_cache_file_is_not_opened() {
        let dir = temp("fifo");
        std::fs::create_dir_all(&dir).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(file_in(&dir))
            .status()
            .is_ok_and(|s| s.success());
        if made {
            // Opening a FIFO for reading would block until a writer comes: it is passed over.
            let cache = ProofCache::open(&dir);
            assert!(cache.known.is_empty());
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
