//! `cargo xtask catalogue`: the book's page "Every bug in this book"
//! (`book/src/catalogue.md`) checked against the code, both ways.
//!
//! - Every row whose stage exists names its test file, and the file is there.
//! - Every **bug** has `<id>_<name>_reproduces` and an ignored
//!   `<id>_<name>_on_<file>` in its stage, and `<id>_<name>_fixed` in the
//!   stage its row says fixes it, once that stage exists.
//! - Every test file named after an ID (`c1_lost_wakeup.rs`) has a row.
//!
//! A missing piece fails, naming it.

use crate::cmd::{Result, banner, root};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The page, from the workspace root.
pub const PAGE: &str = "book/src/catalogue.md";

/// One row of the catalogue.
#[derive(Debug, PartialEq)]
pub struct Row {
    /// `C1`.
    pub id: String,
    /// `lost_wakeup`.
    pub name: String,
    /// `bug`, `fix` or `fact`.
    pub kind: String,
    /// The stage's crate directory (`condvar-timer`).
    pub stage: String,
    /// For a bug, the stage whose tests prove the fix (`sleep-based` for N1).
    pub fixed_in: Option<String>,
    /// The test file a student runs, from the workspace root; `None` while
    /// the stage is coming.
    pub test: Option<String>,
}

impl Row {
    /// The prefix of its tests' names: `c1_lost_wakeup`.
    fn prefix(&self) -> String {
        format!("{}_{}", self.id.to_ascii_lowercase(), self.name)
    }
}

/// The rows of the page's tables: one table per stage, under a heading
/// `## Stage N: \`crate\``; a row is `| ID | kind | fixed in | what | test |`,
/// its test the file's stem (`c1_lost_wakeup`), `*(coming)*` after it while
/// it is not written.
pub fn rows(page: &str) -> Result<Vec<Row>> {
    // "stage 2" in a "Fixed in" cell names the crate of `## Stage 2: ...`.
    let mut stages: Vec<(String, String)> = Vec::new();
    for line in page.lines() {
        if let Some(rest) = line.strip_prefix("## Stage ")
            && let Some((n, krate)) = rest.split_once(':')
        {
            stages.push((
                n.trim().to_string(),
                krate.trim().trim_matches('`').to_string(),
            ));
        }
    }
    let crate_of = |cell: &str| -> Result<Option<String>> {
        let Some(n) = cell.strip_prefix("stage ") else {
            return Ok(None);
        };
        stages
            .iter()
            .find(|(k, _)| k == n.trim())
            .map(|(_, c)| Some(c.clone()))
            .ok_or_else(|| format!("{PAGE}: no `## Stage {n}` heading for \"{cell}\""))
    };
    let mut rows = Vec::new();
    let mut stage = String::new();
    for line in page.lines() {
        if let Some(rest) = line.strip_prefix("## Stage ") {
            stage = rest
                .split_once(':')
                .map(|(_, c)| c.trim().trim_matches('`').to_string())
                .unwrap_or_default();
            continue;
        }
        if !line.starts_with('|') {
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        if id_of(cells[0]).is_none() {
            continue; // the header or its rule
        }
        let [id, kind, fixed_in, _what, test] = &cells[..] else {
            return Err(format!("{PAGE}: a row needs 5 cells: {line}"));
        };
        let coming = test.contains("(coming)");
        let stem = test.split('`').nth(1).unwrap_or_default();
        let Some(name) = stem.strip_prefix(&format!("{}_", id.to_ascii_lowercase())) else {
            return Err(format!(
                "{PAGE}: {id}'s test `{stem}` does not start with `{}_`",
                id.to_ascii_lowercase()
            ));
        };
        rows.push(Row {
            id: id.to_string(),
            name: name.to_string(),
            kind: kind.to_string(),
            stage: stage.clone(),
            fixed_in: crate_of(fixed_in)?,
            test: (!coming).then(|| format!("{stage}/tests/{stem}.rs")),
        });
    }
    Ok(rows)
}

/// `C1` for `C1`, `T10` for `t10`: letters then digits, upper-cased.
fn id_of(word: &str) -> Option<String> {
    let letters = word.trim_end_matches(|c: char| c.is_ascii_digit());
    let ok = !letters.is_empty()
        && letters.len() < word.len()
        && letters.chars().all(|c| c.is_ascii_alphabetic());
    ok.then(|| word.to_ascii_uppercase())
}

/// The integration test files of every crate at the top of the workspace:
/// `<crate>/tests/*.rs`.
fn test_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let Ok(crates) = std::fs::read_dir(root()) else {
        return files;
    };
    for krate in crates.flatten() {
        let tests = krate.path().join("tests");
        if !krate.path().join("Cargo.toml").exists() {
            continue;
        }
        if let Ok(entries) = std::fs::read_dir(&tests) {
            files.extend(
                entries
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "rs")),
            );
        }
    }
    files.sort();
    files
}

/// The test functions of some files, with whether each is `#[ignore]`d.
fn test_fns(files: &[PathBuf]) -> Vec<(String, bool)> {
    let mut fns = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let Some(rest) = line.trim_start().strip_prefix("fn ") else {
                continue;
            };
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            // Its attributes: the lines just above, up to a blank line or
            // the end of the previous item.
            let ignored = lines[..i]
                .iter()
                .rev()
                .take_while(|l| {
                    let l = l.trim();
                    !l.is_empty() && !l.ends_with('}') && !l.ends_with(';')
                })
                .any(|l| l.trim_start().starts_with("#[ignore"));
            fns.push((name, ignored));
        }
    }
    fns
}

fn rel(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Runs the check; returns how many rows it checked against code.
pub fn check() -> Result<usize> {
    banner(&format!(
        "the catalogue ({PAGE}) against the code, both ways"
    ));
    let page = std::fs::read_to_string(root().join(PAGE)).map_err(|e| format!("{PAGE}: {e}"))?;
    let rows = rows(&page)?;
    let files = test_files();
    let mut problems = Vec::new();
    let mut ids = BTreeSet::new();
    let mut written = 0;
    let mut coming = Vec::new();

    for row in &rows {
        if !ids.insert(row.id.clone()) {
            problems.push(format!("{}: two rows", row.id));
        }
        if !matches!(row.kind.as_str(), "bug" | "fix" | "fact") {
            problems.push(format!(
                "{}: kind `{}` is not bug, fix or fact",
                row.id, row.kind
            ));
        }
        let stage_dir = root().join(&row.stage);
        if !stage_dir.join("Cargo.toml").exists() {
            if let Some(test) = &row.test {
                problems.push(format!(
                    "{}: names {test}, but its stage {} does not exist yet (write *coming*)",
                    row.id, row.stage
                ));
            }
            continue;
        }
        let Some(test) = &row.test else {
            // A part of a stage not written yet (the scheduled pool, in the
            // pool's crate): allowed while no test file of that ID exists.
            let prefix = format!("{}_", row.id.to_ascii_lowercase());
            let written_after_all = files.iter().any(|f| {
                f.starts_with(&stage_dir)
                    && f.file_name()
                        .is_some_and(|n| n.to_string_lossy().starts_with(&prefix))
            });
            if written_after_all {
                problems.push(format!(
                    "{}: {}/tests has its test file, but the row's test says *coming*",
                    row.id, row.stage
                ));
            } else {
                coming.push(row.id.clone());
            }
            continue;
        };
        written += 1;
        let file_name = Path::new(test)
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !root().join(test).exists() {
            problems.push(format!(
                "{} {}: its test file {test} is missing",
                row.id, row.name
            ));
        } else if !test.starts_with(&format!("{}/tests/", row.stage))
            || !file_name.starts_with(&format!("{}_", row.id.to_ascii_lowercase()))
        {
            problems.push(format!(
                "{}: its test file {test} is not {}/tests/{}_….rs",
                row.id,
                row.stage,
                row.id.to_ascii_lowercase()
            ));
        }
        if row.kind == "bug" {
            let prefix = row.prefix();
            let stage_files: Vec<PathBuf> = files
                .iter()
                .filter(|f| f.starts_with(&stage_dir))
                .cloned()
                .collect();
            let stage_fns = test_fns(&stage_files);
            let has = |fns: &[(String, bool)], name: &str, ignored: bool| {
                fns.iter()
                    .any(|(f, ig)| *ig == ignored && (f == name || f.starts_with(name)))
            };
            if !has(&stage_fns, &format!("{prefix}_reproduces"), false) {
                problems.push(format!(
                    "{} (bug): no `{prefix}_reproduces` test in {}/tests",
                    row.id, row.stage
                ));
            }
            if !has(&stage_fns, &format!("{prefix}_on_"), true) {
                problems.push(format!(
                    "{} (bug): no ignored `{prefix}_on_<file>` test in {}/tests",
                    row.id, row.stage
                ));
            }
            match &row.fixed_in {
                None => problems.push(format!(
                    "{} (bug): its row names no stage that fixes it",
                    row.id
                )),
                Some(fixer) if root().join(fixer).join("Cargo.toml").exists() => {
                    let fixer_dir = root().join(fixer);
                    let fixer_files: Vec<PathBuf> = files
                        .iter()
                        .filter(|f| f.starts_with(&fixer_dir))
                        .cloned()
                        .collect();
                    if !has(&test_fns(&fixer_files), &format!("{prefix}_fixed"), false) {
                        problems.push(format!(
                            "{} (bug): no `{prefix}_fixed` test in {fixer}/tests",
                            row.id
                        ));
                    }
                }
                Some(_) => {} // the stage that fixes it is coming
            }
        }
    }

    // The other way: every test file named after an ID has a row.
    for file in &files {
        let name = file.file_stem().unwrap_or_default().to_string_lossy();
        let Some(id) = name.split('_').next().and_then(id_of) else {
            continue;
        };
        if !ids.contains(&id) {
            problems.push(format!(
                "{} is named after {id}, which has no row in {PAGE}",
                rel(file)
            ));
        }
    }

    if problems.is_empty() {
        println!(
            "{} rows, {written} of them written: every test is there",
            rows.len()
        );
        if !coming.is_empty() {
            println!("coming in stages that exist: {}", coming.join(", "));
        }
        Ok(written)
    } else {
        Err(format!(
            "the catalogue and the code disagree ({} problem(s)):\n  {}",
            problems.len(),
            problems.join("\n  ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_read_from_the_table() {
        let page = "\
## Stage 3: `condvar-timer`

| ID | Kind | Fixed in | What | Test |
|---|---|---|---|---|
| C1 | bug | stage 3 | lost | `c1_lost_wakeup` |

## Stage 7: `wheel`

| ID | Kind | Fixed in | What | Test |
|---|---|---|---|---|
| W2 | bug | stage 7 | late | `w2_cursor_race` *(coming)* |
";
        let rows = rows(page).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].prefix(), "c1_lost_wakeup");
        assert_eq!(rows[0].stage, "condvar-timer");
        assert_eq!(rows[0].fixed_in.as_deref(), Some("condvar-timer"));
        assert_eq!(
            rows[0].test.as_deref(),
            Some("condvar-timer/tests/c1_lost_wakeup.rs")
        );
        assert_eq!(rows[1].fixed_in.as_deref(), Some("wheel"));
        assert_eq!(rows[1].test, None);
    }

    #[test]
    fn ids_are_letters_then_digits() {
        assert_eq!(id_of("t10").as_deref(), Some("T10"));
        assert_eq!(id_of("bad"), None);
        assert_eq!(id_of("10"), None);
        assert_eq!(id_of("loom"), None);
    }

    #[test]
    fn the_catalogue_matches_the_code() {
        check().unwrap();
    }
}
