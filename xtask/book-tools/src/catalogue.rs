//! `cargo xtask catalogue`: the book's page "Every bug in this book"
//! (`book/src/catalogue.md`) checked against the code, both ways.
//!
//! - Every row whose stage exists names its test file, and the file is there.
//! - Every **bug** has `<id>_<name>_reproduces` and an ignored
//!   `<id>_<name>_on_<file>` in its stage, and `<id>_<name>_fixed` in the
//!   stage its row says fixes it, once that stage exists.
//! - Every test file named after an ID (`c1_lost_wakeup.rs`) has a row.
//! - Every row says how its test shows it (the column "Shown by"), and the
//!   code agrees: a **loom** row's test file is compiled only under
//!   `--cfg loom`, and only a loom row's is; a **forced race** reaches a
//!   pause point (`Pause::arm`, in the test or in a function of its file or
//!   of a module the file declares), in a bug's `_reproduces` and `_fixed`
//!   tests, in one of a fact's or a fix's tests. A **scenario** or a
//!   **count** may hold a thread still too; what tells them apart is what
//!   the test judges, which only a reader can check.
//! - The summary of that column that "What each step bought" includes
//!   ([`SHOWN_BY`]) is the one the page implies: `--write` rewrites it.
//!
//! A missing piece fails, naming it.

use crate::cmd::{Result, banner, root};
use course_runner::exercise::source::{self as rust, Function};
use devkit::markdown::md_table;
use proc_macro2::{Delimiter, TokenStream, TokenTree};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// The page, from the workspace root.
pub const PAGE: &str = "book/src/catalogue.md";

/// The column "Shown by", summed up by kind: included by "What each step
/// bought", written by `cargo xtask catalogue --write`.
pub const SHOWN_BY: &str = "book/src/generated/catalogue-shown-by.md";

/// How a row's test shows its bug, fix or fact: the column "Shown by".
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Shown {
    /// A thread is held at a pause point inside the race window while
    /// another acts: the interleaving that shows it happens on every run.
    ForcedRace,
    /// A loom model, compiled and run only under `--cfg loom`.
    Loom,
    /// A fixed sequence of calls, with no race window: what the timer did
    /// (ran, refused, kept, handed back) is the verdict.
    Scenario,
    /// A measured cost is the verdict: CPU time, wake-ups, notifies, heap
    /// operations, comparisons, steps.
    Count,
}

impl Shown {
    /// Every kind, in the order the summary lists them.
    pub const ALL: [Shown; 4] = [
        Shown::ForcedRace,
        Shown::Loom,
        Shown::Scenario,
        Shown::Count,
    ];

    /// The word the column uses.
    pub fn word(self) -> &'static str {
        match self {
            Shown::ForcedRace => "forced race",
            Shown::Loom => "loom",
            Shown::Scenario => "scenario",
            Shown::Count => "count",
        }
    }

    /// A cell of the column: one kind, or several separated by commas.
    fn parse(cell: &str) -> Option<Vec<Shown>> {
        let kinds: Option<Vec<Shown>> = cell
            .split(',')
            .map(|w| Shown::ALL.into_iter().find(|k| k.word() == w.trim()))
            .collect();
        kinds.filter(|k| !k.is_empty())
    }
}

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
    /// How that test shows it.
    pub shown: Vec<Shown>,
}

impl Row {
    /// The prefix of its tests' names: `c1_lost_wakeup`.
    fn prefix(&self) -> String {
        format!("{}_{}", self.id.to_ascii_lowercase(), self.name)
    }
}

/// The rows of the page's tables: one table per stage, under a heading
/// `## Stage N: \`crate\``; a row is
/// `| ID | kind | fixed in | shown by | what | test |`,
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
        let [id, kind, fixed_in, shown, _what, test] = &cells[..] else {
            return Err(format!("{PAGE}: a row needs 6 cells: {line}"));
        };
        let Some(shown) = Shown::parse(shown) else {
            return Err(format!(
                "{PAGE}: {id}'s \"Shown by\" is `{shown}`, not one or more of: {}",
                Shown::ALL.map(Shown::word).join(", ")
            ));
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
            shown,
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
fn test_fns(sources: &Sources, files: &[PathBuf]) -> Vec<(String, bool)> {
    files
        .iter()
        .flat_map(|file| sources.fns(file).as_ref().clone())
        .collect()
}

/// The functions of one file, with whether each is `#[ignore]`d; none if
/// it does not parse (its build names why).
fn file_fns(file: &Path) -> Vec<(String, bool)> {
    parse(file)
        .map(|f| {
            rust::functions(&f)
                .into_iter()
                .map(|f| (f.name, f.ignored))
                .collect()
        })
        .unwrap_or_default()
}

/// A file read as Rust, by `syn`: a comment or a string that names a thing
/// never counts as code. `None` if it cannot be read or does not parse.
fn parse(file: &Path) -> Option<syn::File> {
    syn::parse_file(&std::fs::read_to_string(file).ok()?).ok()
}

fn rel(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Whether `tokens` hold the path `first::second` (in a macro's arguments
/// too).
fn has_path(tokens: &TokenStream, first: &str, second: &str) -> bool {
    let t: Vec<TokenTree> = tokens.clone().into_iter().collect();
    let colon = |tt: &TokenTree| matches!(tt, TokenTree::Punct(p) if p.as_char() == ':');
    t.windows(4).any(|w| {
        matches!((&w[0], &w[3]), (TokenTree::Ident(a), TokenTree::Ident(b)) if a == first && b == second)
            && colon(&w[1])
            && colon(&w[2])
    }) || t
        .iter()
        .any(|tt| matches!(tt, TokenTree::Group(g) if has_path(&g.stream(), first, second)))
}

/// True if `tokens` call the function `name` (`name(`, `.name(`,
/// `name::<T>(`), in a macro's arguments too.
fn calls(tokens: &TokenStream, name: &str) -> bool {
    let t: Vec<TokenTree> = tokens.clone().into_iter().collect();
    let punct =
        |i: usize, c: char| matches!(t.get(i), Some(TokenTree::Punct(p)) if p.as_char() == c);
    t.iter().enumerate().any(|(i, tt)| match tt {
        TokenTree::Ident(id) if id == name => {
            matches!(t.get(i + 1), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis)
                || (punct(i + 1, ':') && punct(i + 2, ':') && punct(i + 3, '<'))
        }
        TokenTree::Group(g) => calls(&g.stream(), name),
        _ => false,
    })
}

/// What a test file's code says about how it shows its bug.
struct Source {
    /// Compiled only under `--cfg loom`.
    loom_only: bool,
    /// The functions of the file and of the modules it declares.
    funcs: Vec<Function>,
    /// The names of those that arm a pause point, themselves or through
    /// another of them.
    arming: BTreeSet<String>,
}

impl Source {
    fn read(file: &Path) -> Source {
        let Some(parsed) = parse(file) else {
            // Its build names why; nothing of it counts.
            return Source {
                loom_only: false,
                funcs: Vec::new(),
                arming: BTreeSet::new(),
            };
        };
        let loom_only = parsed.attrs.iter().any(|a| {
            matches!(a.style, syn::AttrStyle::Inner(_))
                && matches!(&a.meta, syn::Meta::List(l)
                    if l.path.is_ident("cfg") && l.tokens.to_string() == "loom")
        });
        let mut funcs = rust::functions(&parsed);
        // `mod support;` brings tests/support/mod.rs (or support.rs).
        let dir = file.parent().unwrap_or(Path::new("."));
        for item in &parsed.items {
            let syn::Item::Mod(m) = item else { continue };
            if m.content.is_some() {
                continue;
            }
            let name = m.ident.to_string();
            for module in [
                dir.join(&name).join("mod.rs"),
                dir.join(format!("{name}.rs")),
            ] {
                if let Some(parsed) = parse(&module) {
                    funcs.extend(rust::functions(&parsed));
                }
            }
        }
        let mut arming: BTreeSet<String> = funcs
            .iter()
            .filter(|f| has_path(&f.body, "Pause", "arm"))
            .map(|f| f.name.clone())
            .collect();
        loop {
            let more: Vec<String> = funcs
                .iter()
                .filter(|f| !arming.contains(&f.name))
                .filter(|f| arming.iter().any(|a| calls(&f.body, a)))
                .map(|f| f.name.clone())
                .collect();
            if more.is_empty() {
                break;
            }
            arming.extend(more);
        }
        Source {
            loom_only,
            funcs,
            arming,
        }
    }

    /// The names of its functions that start with `prefix`.
    fn named(&self, prefix: &str) -> Vec<&str> {
        self.funcs
            .iter()
            .map(|f| f.name.as_str())
            .filter(|n| n.starts_with(prefix))
            .collect()
    }
}

/// The test files one check has read, each read and parsed once: a row
/// looks at every file of its stage, and a stage has many rows.
#[derive(Default)]
struct Sources {
    parsed: Known<Source>,
    fns: Known<Vec<(String, bool)>>,
}

/// What has been read of each file.
type Known<T> = RefCell<BTreeMap<PathBuf, Rc<T>>>;

impl Sources {
    fn get(&self, file: &Path) -> Rc<Source> {
        once(&self.parsed, file, Source::read)
    }

    fn fns(&self, file: &Path) -> Rc<Vec<(String, bool)>> {
        once(&self.fns, file, file_fns)
    }
}

/// `read(file)`, the first time it is asked for; then the same again.
fn once<T>(known: &Known<T>, file: &Path, read: impl FnOnce(&Path) -> T) -> Rc<T> {
    let found = known.borrow().get(file).cloned();
    found.unwrap_or_else(|| {
        let value = Rc::new(read(file));
        known
            .borrow_mut()
            .insert(file.to_path_buf(), Rc::clone(&value));
        value
    })
}

/// The tests named `<prefix>…` in `files`, and whether each reaches a pause
/// point.
fn forced(sources: &Sources, files: &[PathBuf], prefix: &str) -> Vec<(String, bool)> {
    let mut found = Vec::new();
    for file in files {
        let source = sources.get(file);
        for name in source.named(prefix) {
            found.push((name.to_string(), source.arming.contains(name)));
        }
    }
    found
}

/// The summary of the column "Shown by" that [`SHOWN_BY`] holds: for each
/// kind, the bugs and the facts and fixes shown that way.
pub fn shown_by(rows: &[Row]) -> String {
    let ids = |kind: Shown, bugs: bool| -> String {
        let ids: Vec<&str> = rows
            .iter()
            .filter(|r| r.shown.contains(&kind) && (r.kind == "bug") == bugs)
            .map(|r| r.id.as_str())
            .collect();
        if ids.is_empty() {
            "none".to_string()
        } else {
            ids.join(", ")
        }
    };
    let rows: Vec<Vec<String>> = Shown::ALL
        .iter()
        .map(|&kind| vec![kind.word().to_string(), ids(kind, true), ids(kind, false)])
        .collect();
    format!(
        "<!-- Written by `cargo xtask catalogue --write` from the column \"Shown by\" \
         of catalogue.md; do not edit. -->\n\n{}",
        md_table(&["Shown by", "Bugs", "Facts and fixes"], &rows)
    )
}

/// What the code says against a written row's "Shown by": a loom row's file
/// is loom's, and only a loom row's; a forced race reaches a pause point.
fn shown_problems(
    sources: &Sources,
    row: &Row,
    test: &str,
    stage_files: &[PathBuf],
    files: &[PathBuf],
) -> Vec<String> {
    let mut problems = Vec::new();
    let source = sources.get(&root().join(test));
    let loom = row.shown.contains(&Shown::Loom);
    if loom && !source.loom_only {
        problems.push(format!(
            "{}: shown by loom, but {test} is not `#![cfg(loom)]`",
            row.id
        ));
    } else if !loom && source.loom_only {
        problems.push(format!(
            "{}: {test} runs only under `--cfg loom`: its row must say loom",
            row.id
        ));
    }
    if !row.shown.contains(&Shown::ForcedRace) {
        return problems;
    }
    let reaches = |found: &[(String, bool)]| found.iter().any(|(_, armed)| *armed);
    if row.kind == "bug" {
        let prefix = row.prefix();
        let reproduces = forced(sources, stage_files, &format!("{prefix}_reproduces"));
        if !reaches(&reproduces) {
            problems.push(format!(
                "{}: a forced race, but no `{prefix}_reproduces` test holds a thread at a pause point",
                row.id
            ));
        }
        if let Some(fixer) = &row.fixed_in {
            let fixer_dir = root().join(fixer);
            let fixer_files: Vec<PathBuf> = files
                .iter()
                .filter(|f| f.starts_with(&fixer_dir))
                .cloned()
                .collect();
            let fixed = forced(sources, &fixer_files, &format!("{prefix}_fixed"));
            if !fixed.is_empty() && !reaches(&fixed) {
                problems.push(format!(
                    "{}: a forced race, but no `{prefix}_fixed` test holds a thread at the pause point",
                    row.id
                ));
            }
        }
    } else {
        let own = forced(
            sources,
            &[root().join(test)],
            &format!("{}_", row.id.to_ascii_lowercase()),
        );
        if !reaches(&own) {
            problems.push(format!(
                "{}: a forced race, but no test in {test} holds a thread at a pause point",
                row.id
            ));
        }
    }
    problems
}

/// Writes [`SHOWN_BY`] from the page, then runs the check.
pub fn write() -> Result<usize> {
    let page = std::fs::read_to_string(root().join(PAGE)).map_err(|e| format!("{PAGE}: {e}"))?;
    let summary = shown_by(&rows(&page)?);
    std::fs::write(root().join(SHOWN_BY), summary).map_err(|e| format!("{SHOWN_BY}: {e}"))?;
    println!("wrote {SHOWN_BY}");
    check()
}

/// Runs the check; returns how many rows it checked against code.
pub fn check() -> Result<usize> {
    banner(&format!(
        "the catalogue ({PAGE}) against the code, both ways"
    ));
    let page = std::fs::read_to_string(root().join(PAGE)).map_err(|e| format!("{PAGE}: {e}"))?;
    let rows = rows(&page)?;
    let files = test_files();
    let sources = Sources::default();
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
        let stage_files: Vec<PathBuf> = files
            .iter()
            .filter(|f| f.starts_with(&stage_dir))
            .cloned()
            .collect();
        problems.extend(shown_problems(&sources, row, test, &stage_files, &files));
        if row.kind == "bug" {
            let prefix = row.prefix();
            let stage_fns = test_fns(&sources, &stage_files);
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
                    if !has(
                        &test_fns(&sources, &fixer_files),
                        &format!("{prefix}_fixed"),
                        false,
                    ) {
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

    let summary = shown_by(&rows);
    let on_disk = std::fs::read_to_string(root().join(SHOWN_BY)).unwrap_or_default();
    if on_disk != summary {
        problems.push(format!(
            "{SHOWN_BY} is not the summary of the column \"Shown by\": run `cargo xtask catalogue --write`"
        ));
    }

    if problems.is_empty() {
        println!(
            "{} rows, {written} of them written: every test is there, and shown as its row says",
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

| ID | Kind | Fixed in | Shown by | What | Test |
|---|---|---|---|---|---|
| C1 | bug | stage 3 | forced race | lost | `c1_lost_wakeup` |

## Stage 7: `wheel`

| ID | Kind | Fixed in | Shown by | What | Test |
|---|---|---|---|---|---|
| W2 | bug | stage 7 | scenario, count | late | `w2_cursor_race` *(coming)* |
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
        assert_eq!(rows[0].shown, [Shown::ForcedRace]);
        assert_eq!(rows[1].fixed_in.as_deref(), Some("wheel"));
        assert_eq!(rows[1].test, None);
        assert_eq!(rows[1].shown, [Shown::Scenario, Shown::Count]);
        let summary = shown_by(&rows);
        assert!(summary.contains("| forced race | C1 | none |"), "{summary}");
        assert!(summary.contains("| count | W2 | none |"), "{summary}");
    }

    #[test]
    fn a_row_must_say_how_it_is_shown() {
        let row = "## Stage 3: `condvar-timer`\n\n| C1 | bug | stage 3 | luck | lost | `c1_lost_wakeup` |\n";
        assert!(rows(row).unwrap_err().contains("luck"));
    }

    #[test]
    fn comments_and_literals_are_not_code() {
        // The old hand-written lexer's traps: a brace or a name in a string,
        // a comment, a character literal (`'"'` too) or a raw string.
        let file = syn::parse_file(
            "fn a() { let s = \"}{ Pause::arm\"; /* { */ let c = '{'; let q = '\"'; // }\n \
             let r = r#\"} Pause::arm(\"#; }\n\
             fn b<'x>(v: &'x str) { a(); }",
        )
        .unwrap();
        let funcs = rust::functions(&file);
        let names: Vec<&str> = funcs.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        assert!(!has_path(&funcs[0].body, "Pause", "arm"));
        assert!(calls(&funcs[1].body, "a"));
        let other = syn::parse_file("fn x() { ba(); a_b(); assert!(y::<u8>()); }").unwrap();
        let body = &rust::functions(&other)[0].body;
        assert!(!calls(body, "a"));
        assert!(calls(body, "y"), "a call inside a macro's arguments counts");
    }

    #[test]
    fn a_pause_is_reached_through_helpers() {
        // Removed when dropped, a panicking test too.
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().to_path_buf();
        std::fs::create_dir_all(dir.join("support")).unwrap();
        std::fs::write(
            dir.join("support/mod.rs"),
            "pub fn hold(p: &str) { let _p = Pause::arm(p, \"t\"); }\n",
        )
        .unwrap();
        let file = dir.join("x1_thing.rs");
        std::fs::write(
            &file,
            "mod support;\nfn run() { support::hold(\"w\"); }\n\
             #[test]\nfn x1_thing_reproduces() { run(); }\n\
             #[test]\nfn x1_thing_fixed() { /* Pause::arm */ }\n",
        )
        .unwrap();
        let found = forced(&Sources::default(), &[file], "x1_thing_");
        assert_eq!(
            found,
            [
                ("x1_thing_reproduces".to_string(), true),
                ("x1_thing_fixed".to_string(), false)
            ]
        );
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
