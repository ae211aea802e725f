//! Files under a directory, at any depth, and copies of them. The walks
//! are walkdir's: links followed as `Path::is_dir` follows them, errors
//! named with the directory walked.

use crate::cmd::Result;
use std::path::{Path, PathBuf};
use walkdir::WalkDir;

/// Every file under `dir`, at any depth, sorted by path.
///
/// # Errors
/// If `dir`, or a directory under it, cannot be read.
pub fn under(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in WalkDir::new(dir).follow_links(true).sort_by_file_name() {
        let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
        if !entry.file_type().is_dir() {
            files.push(entry.into_path());
        }
    }
    Ok(files)
}

/// Copies the file `from` to `to`, making `to`'s directory first.
///
/// # Errors
/// If the directory cannot be made or the file copied.
pub fn copy_file(from: &Path, to: &Path) -> Result {
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    std::fs::copy(from, to).map_err(|e| format!("{}: {e}", from.display()))?;
    Ok(())
}

/// Copies a directory tree (the built book: its files and directories) to
/// `to`, which it replaces.
///
/// # Errors
/// If `from` cannot be read or a copy cannot be written.
pub fn copy_dir(from: &Path, to: &Path) -> Result {
    let _ = std::fs::remove_dir_all(to);
    for entry in WalkDir::new(from).follow_links(true) {
        let entry = entry.map_err(|e| format!("{}: {e}", from.display()))?;
        let relative = entry.path().strip_prefix(from).unwrap_or(entry.path());
        let copy = to.join(relative);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&copy).map_err(|e| format!("{}: {e}", copy.display()))?;
        } else {
            copy_file(entry.path(), &copy)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_is_walked_sorted_and_copied_whole() {
        // Removed when dropped, a panicking test too.
        let temp = tempfile::tempdir().unwrap();
        let from = temp.path().join("from");
        for (file, text) in [("b.md", "b"), ("a/c.md", "c"), ("a/d/e.txt", "e")] {
            copy_text(&from.join(file), text);
        }
        std::fs::create_dir_all(from.join("empty")).unwrap();
        let names = |dir: &Path| -> Vec<String> {
            under(dir)
                .unwrap()
                .iter()
                .map(|f| f.strip_prefix(dir).unwrap().display().to_string())
                .collect()
        };
        assert_eq!(names(&from), ["a/c.md", "a/d/e.txt", "b.md"]);
        let to = temp.path().join("to");
        copy_text(&to.join("stale.md"), "gone after the copy");
        copy_dir(&from, &to).unwrap();
        assert_eq!(names(&to), ["a/c.md", "a/d/e.txt", "b.md"]);
        assert!(to.join("empty").is_dir());
        assert_eq!(std::fs::read_to_string(to.join("a/d/e.txt")).unwrap(), "e");
        assert!(under(&temp.path().join("missing")).is_err());
    }

    fn copy_text(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}
