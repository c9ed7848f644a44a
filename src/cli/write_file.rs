//! Writing a file safely, for every command that writes one (`explain --html`, `rules
//! discover --out`, the proof cache): never through a symbolic link, never over an existing
//! file unless asked, and atomically.
//!
//! The text goes to a new temporary file beside the target (created exclusively, so a link
//! planted at its name is not followed), which is then linked or renamed into place: a reader
//! sees the old file or the whole new one, never a part. Without leave to replace, the new
//! file is put in place with a hard link, which fails when anything is at the target by then;
//! on a file system without hard links it is renamed after a last check.

use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Whether an existing file at the target may be replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Existing {
    /// Keep it: the write fails (the commands' default).
    Keep,
    /// Replace it (`--force`, and the proof cache, which is slink's own file).
    Replace,
}

/// Why a file was not written.
#[derive(Debug)]
pub enum WriteError {
    /// A file is there already, and may not be replaced.
    Exists(PathBuf),
    /// A symbolic link is there; slink writes through none.
    Link(PathBuf),
    /// Something other than a regular file is there (a directory, a FIFO, a device).
    NotAFile(PathBuf),
    /// The system refused.
    Io(PathBuf, io::Error),
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            WriteError::Exists(path) => write!(
                f,
                "{} exists already; give --force to replace it, or choose another name",
                path.display()
            ),
            WriteError::Link(path) => write!(
                f,
                "{} is a symbolic link, and slink writes through none: remove it or choose another name",
                path.display()
            ),
            WriteError::NotAFile(path) => write!(
                f,
                "{} is not a regular file (a directory, FIFO or device): choose another name",
                path.display()
            ),
            WriteError::Io(path, e) => {
                write!(
                    f,
                    "cannot write {}: {}",
                    path.display(),
                    super::io_reason(e)
                )
            }
        }
    }
}

impl std::error::Error for WriteError {}

/// Tells temporary files of one process apart.
static SERIAL: AtomicU64 = AtomicU64::new(0);

/// Writes `bytes` to `path` as the module says; the directory must exist.
pub fn write_file(path: &Path, bytes: &[u8], existing: Existing) -> Result<(), WriteError> {
    let io_error = |e: io::Error| WriteError::Io(path.to_path_buf(), e);
    check_target(path, existing)?;
    let name = path
        .file_name()
        .ok_or_else(|| WriteError::NotAFile(path.to_path_buf()))?;
    let temp = path.with_file_name(format!(
        ".{}.{}-{}.tmp",
        name.to_string_lossy(),
        std::process::id(),
        SERIAL.fetch_add(1, Ordering::Relaxed)
    ));
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp)
        .and_then(|mut file| {
            file.write_all(bytes)?;
            file.sync_all()
        });
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(io_error(e));
    }
    let placed = match existing {
        // A rename replaces a link at the target rather than writing through it.
        Existing::Replace => std::fs::rename(&temp, path).map_err(io_error),
        Existing::Keep => match std::fs::hard_link(&temp, path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                // Something appeared since the check: say what it is.
                Err(check_target(path, Existing::Keep)
                    .err()
                    .unwrap_or_else(|| WriteError::Exists(path.to_path_buf())))
            }
            Err(_) => {
                // No hard links here: check again, then rename.
                check_target(path, Existing::Keep)
                    .and_then(|()| std::fs::rename(&temp, path).map_err(io_error))
            }
        },
    };
    let _ = std::fs::remove_file(&temp);
    placed
}

/// Refuses a link, anything but a regular file, and an existing file unless it may be
/// replaced (a command may ask before its work, to fail early; [`write_file`] asks again).
pub fn check_target(path: &Path, existing: Existing) -> Result<(), WriteError> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => Err(WriteError::Link(path.to_path_buf())),
        Ok(meta) if !meta.is_file() => Err(WriteError::NotAFile(path.to_path_buf())),
        Ok(_) if existing == Existing::Keep => Err(WriteError::Exists(path.to_path_buf())),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(WriteError::Io(path.to_path_buf(), e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("slink-write-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// The files of `dir`, by name (no temporary file is left behind).
    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_new_file_is_written_and_an_existing_one_kept_unless_replaced() {
        let dir = temp("exists");
        let path = dir.join("out.txt");
        write_file(&path, b"first", Existing::Keep).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        let e = write_file(&path, b"second", Existing::Keep).unwrap_err();
        assert!(matches!(e, WriteError::Exists(_)), "{e}");
        assert!(e.to_string().contains("--force"), "{e}");
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        write_file(&path, b"third", Existing::Replace).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"third");
        assert_eq!(names(&dir), ["out.txt"]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_at_the_target_is_refused_and_its_target_untouched() {
        let dir = temp("link");
        let victim = dir.join("victim.txt");
        std::fs::write(&victim, "keep me").unwrap();
        let link = dir.join("out.txt");
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        let dangling = dir.join("dangling.txt");
        std::os::unix::fs::symlink(dir.join("nowhere"), &dangling).unwrap();
        for existing in [Existing::Keep, Existing::Replace] {
            for path in [&link, &dangling] {
                let e = write_file(path, b"evil", existing).unwrap_err();
                assert!(matches!(e, WriteError::Link(_)), "{e}");
            }
        }
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
        assert!(!dir.join("nowhere").exists());
        assert_eq!(names(&dir), ["dangling.txt", "out.txt", "victim.txt"]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_directory_at_the_target_is_refused() {
        let dir = temp("dir");
        let e = write_file(&dir, b"x", Existing::Replace).unwrap_err();
        assert!(matches!(e, WriteError::NotAFile(_)), "{e}");
        let missing = dir.join("no-such-dir").join("out.txt");
        let e = write_file(&missing, b"x", Existing::Keep).unwrap_err();
        assert!(e.to_string().starts_with("cannot write "), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
