//! `cargo xtask exercise grade DIR [--chaffs DIR] [--out DIR]`: a class's
//! catch-it and find-it tests, graded as each student's own check grades
//! them, in one table.
//!
//! `DIR` holds one folder per student, each a copy of that student's
//! `exercises/mine/`. Every student's test of an exercise is built into the
//! same executables (one per version of the timer: a class costs as many
//! builds as one student), and each is run as a student's check runs it.
//! A file that does not compile is named as such, and the others are built
//! without it.
//!
//! `--chaffs DIR` adds a teacher's own buggy versions, which no student has
//! seen: `DIR/<exercise>/<name>.rs`, each one file written as the exercises
//! page's recipe says (a type `Chaff` implementing the exercise module's
//! `Version` trait; a first line `// chaff: <ID>`, its comments `//` ones:
//! the file is included into the module, where `//!` cannot stand). A chaff whose ID is
//! the exercise's own is one more form of the bug a test must catch; any
//! other counts toward thoroughness.
//!
//! The table is written as Markdown and CSV (`grades.md`, `grades.csv`, in
//! `--out`, by default `DIR`), and printed.

use super::catch::{self, Tests, graded_here};
use super::grade::{self, Builds, Grade, Progress, RUNS, Verdict};
use super::list::{SLOTS, Version};
use super::{EXERCISES, Exercise};
use crate::cmd::{Result, secs};
use devkit::markdown::md_table;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// One student's test of one exercise.
struct Entry {
    student: String,
    e: &'static Exercise,
    file: PathBuf,
    /// Its module in the build: `student_3`.
    module: String,
}

/// One cell of the table.
enum Cell {
    /// No file for it.
    Absent,
    /// The file does not compile.
    Broken,
    /// Graded.
    Graded(Grade),
}

/// Runs `cargo xtask exercise grade <args>`.
pub fn run(args: &[String]) -> Result {
    let mut dir = None;
    let mut chaffs = None;
    let mut out = None;
    let mut rest = args.iter();
    while let Some(a) = rest.next() {
        match a.as_str() {
            "--chaffs" => chaffs = Some(PathBuf::from(rest.next().ok_or("--chaffs DIR")?)),
            "--out" => out = Some(PathBuf::from(rest.next().ok_or("--out DIR")?)),
            other if dir.is_none() && !other.starts_with("--") => dir = Some(PathBuf::from(other)),
            other => return Err(format!("`exercise grade`: unexpected `{other}`")),
        }
    }
    let dir = dir.ok_or("`exercise grade DIR`: DIR holds one folder per student")?;
    let dir = absolute(&dir)?;
    let chaffs = chaffs.map(|c| absolute(&c)).transpose()?;
    let out = out.map_or_else(|| Ok(dir.clone()), |o| absolute(&o))?;
    let table = grade_class(&dir, chaffs.as_deref())?;
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    for (name, text) in [("grades.md", &table.markdown), ("grades.csv", &table.csv)] {
        let path = out.join(name);
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    println!("\n{}", table.markdown);
    println!(
        "Written: {} and {}",
        out.join("grades.md").display(),
        out.join("grades.csv").display()
    );
    Ok(())
}

fn absolute(p: &Path) -> Result<PathBuf> {
    std::path::absolute(p).map_err(|e| format!("{}: {e}", p.display()))
}

/// The table of a class, in two forms.
pub struct Table {
    /// For a reader.
    pub markdown: String,
    /// For a spreadsheet.
    pub csv: String,
}

/// Grades every student's test of every catch-it and find-it in `dir`.
pub fn grade_class(dir: &Path, chaffs: Option<&Path>) -> Result<Table> {
    let students = students(dir)?;
    let exercises: Vec<&'static Exercise> = EXERCISES.iter().filter(|e| graded_here(e)).collect();
    let mut entries = Vec::new();
    for (k, student) in students.iter().enumerate() {
        for e in &exercises {
            let file = dir.join(student).join(format!("{}.rs", e.name));
            if file.exists() {
                entries.push(Entry {
                    student: student.clone(),
                    e,
                    file,
                    module: format!("student_{k}"),
                });
            }
        }
    }
    let versions: Vec<(&'static Exercise, Vec<Version>)> = exercises
        .iter()
        .map(|e| Ok((*e, with_chaffs(e, chaffs)?)))
        .collect::<Result<_>>()?;
    let slots = versions.iter().map(|(_, v)| v.len()).max().unwrap_or(1);
    println!(
        "Grading {} tests of {} students against up to {slots} versions each...",
        entries.len(),
        students.len()
    );
    let t = Instant::now();
    let manifest = dir.join(".grade-manifest");
    let (builds, broken) = build_class(&entries, &manifest, chaffs, slots)?;
    let _ = std::fs::remove_file(&manifest);
    println!("(built in {})", secs(t.elapsed()));
    let names = builds.tests()?;
    let graded: Vec<&Entry> = entries
        .iter()
        .filter(|x| !broken.contains(&x.file))
        .collect();
    let subjects: Vec<grade::Subject> = graded
        .iter()
        .map(|x| {
            let mut s = catch::subject(&names, x.e, &x.module, x.file.clone(), RUNS);
            s.roles = grade::roles(versions_of(&versions, x.e), x.e.shows);
            s
        })
        .collect();
    let total = subjects
        .iter()
        .map(|s| grade::setups(&s.roles, s.runs).len())
        .sum();
    let progress = Progress::new(total);
    let t = Instant::now();
    let runs = grade::run_all(&builds, &subjects, Some(&progress))?;
    println!("({total} runs in {})", secs(t.elapsed()));
    let mut cells: Vec<(String, &'static Exercise, Cell)> = Vec::new();
    for student in &students {
        for e in &exercises {
            let entry = entries
                .iter()
                .find(|x| &x.student == student && x.e.name == e.name);
            let cell = match entry {
                None => Cell::Absent,
                Some(x) if broken.contains(&x.file) => Cell::Broken,
                Some(x) => {
                    let i = graded
                        .iter()
                        .position(|g| g.file == x.file)
                        .expect("graded");
                    let point = catch::point(e);
                    Cell::Graded(grade::judge(
                        &runs[i],
                        versions_of(&versions, e),
                        e.shows,
                        point,
                    ))
                }
            };
            cells.push((student.clone(), e, cell));
        }
    }
    Ok(table(&students, &exercises, &cells))
}

/// CI's proof of class mode: the made-up class of `exercises/class/`
/// (an honest student, one whose test probes the lock, one whose test reads
/// the environment; a teacher's chaff) graded, and the table compared with
/// the one kept beside them, `exercises/class/grades.md`. Returns the
/// problems.
pub fn verify() -> Result<Vec<String>> {
    crate::cmd::banner("grading a class: three made-up students and a teacher's chaff");
    let dir = crate::cmd::root().join("exercises/class");
    let table = grade_class(&dir.join("students"), Some(&dir.join("chaffs")))?;
    println!("{}", table.markdown);
    let kept = dir.join("grades.md");
    let expected = std::fs::read_to_string(&kept).unwrap_or_default();
    if expected == table.markdown {
        Ok(Vec::new())
    } else {
        Ok(vec![format!(
            "the class's table is not {}: a grader that changed its verdicts on the made-up \
             students (or a table whose shape changed: then write the new one there, after \
             reading it)",
            kept.display()
        )])
    }
}

/// The students: the folders of `dir`, sorted.
fn students(dir: &Path) -> Result<Vec<String>> {
    let mut found: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|entry| entry.ok())
        .filter(|entry| entry.path().is_dir())
        .filter_map(|entry| entry.file_name().to_str().map(String::from))
        .filter(|name| !name.starts_with('.'))
        .collect();
    found.sort();
    if found.is_empty() {
        return Err(format!("{}: no student folders in it", dir.display()));
    }
    Ok(found)
}

fn versions_of<'a>(all: &'a [(&'static Exercise, Vec<Version>)], e: &Exercise) -> &'a [Version] {
    all.iter()
        .find(|(x, _)| x.name == e.name)
        .map_or(&[], |(_, v)| v.as_slice())
}

/// An exercise's versions, and after them a teacher's chaffs for it (each
/// file's `// chaff: <ID>` line names its bug).
fn with_chaffs(e: &Exercise, chaffs: Option<&Path>) -> Result<Vec<Version>> {
    let mut all: Vec<Version> = e
        .versions
        .iter()
        .map(|v| Version {
            name: v.name,
            bug: v.bug,
            file: v.file,
        })
        .collect();
    let Some(dir) = chaffs else { return Ok(all) };
    let Ok(entries) = std::fs::read_dir(dir.join(e.name)) else {
        return Ok(all);
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    files.sort();
    for file in files {
        let text =
            std::fs::read_to_string(&file).map_err(|err| format!("{}: {err}", file.display()))?;
        let bug = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("// chaff:"))
            .map(str::trim)
            .filter(|b| !b.is_empty())
            .ok_or_else(|| format!("{}: no `// chaff: <ID>` line", file.display()))?;
        let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("chaff");
        // Leaked: a handful of short strings for the life of one command.
        all.push(Version {
            name: Box::leak(format!("teacher: {stem}").into_boxed_str()),
            bug: Some(Box::leak(bug.to_string().into_boxed_str())),
            file: Box::leak(file.display().to_string().into_boxed_str()),
        });
    }
    if all.len() > SLOTS {
        return Err(format!(
            "{}: {} versions with the teacher's chaffs, more than the {SLOTS} slots",
            e.name,
            all.len()
        ));
    }
    Ok(all)
}

/// Builds every entry, slot by slot. A slot-0 build that fails is tried
/// again one file at a time, to name the files that do not compile; the
/// others are built without them.
fn build_class(
    entries: &[Entry],
    manifest: &Path,
    chaffs: Option<&Path>,
    slots: usize,
) -> Result<(Builds, Vec<PathBuf>)> {
    let write = |of: &[&Entry]| -> Result {
        let text: String = of
            .iter()
            .map(|x| format!("{} {} {}\n", x.e.name, x.module, x.file.display()))
            .collect();
        std::fs::write(manifest, text).map_err(|e| format!("{}: {e}", manifest.display()))
    };
    let tests = Tests::Class { manifest, chaffs };
    let mut broken = Vec::new();
    let all: Vec<&Entry> = entries.iter().collect();
    write(&all)?;
    if catch::build_slot(tests, 0).is_err() {
        for x in &all {
            write(&[x])?;
            if catch::build_slot(tests, 0).is_err() {
                println!("  {} {}: does not compile", x.student, x.e.name);
                broken.push(x.file.clone());
            }
        }
        let fine: Vec<&Entry> = all
            .into_iter()
            .filter(|x| !broken.contains(&x.file))
            .collect();
        write(&fine)?;
    }
    let mut builds = Builds::new();
    for slot in 0..slots {
        builds.add(catch::build_slot(tests, slot)?)?;
    }
    Ok((builds, broken))
}

/// A cell in a few words.
fn word(cell: &Cell) -> String {
    match cell {
        Cell::Absent => "-".into(),
        Cell::Broken => "not yet: does not compile".into(),
        Cell::Graded(g) if g.verdict == Verdict::Caught => {
            let total = g.also.len() + g.not.len();
            if total == 0 {
                "done".into()
            } else {
                format!("done, +{}/{total}", g.also.len())
            }
        }
        Cell::Graded(g) => format!("not yet: {}", g.verdict.word()),
    }
}

/// The first reason of a cell, for the CSV.
fn why(cell: &Cell) -> String {
    match cell {
        Cell::Graded(g) if g.verdict == Verdict::Caught => grade::thoroughness(g),
        Cell::Graded(g) => g.reasons[0].clone(),
        Cell::Broken => "the file does not compile".into(),
        Cell::Absent => String::new(),
    }
}

fn table(
    students: &[String],
    exercises: &[&'static Exercise],
    cells: &[(String, &'static Exercise, Cell)],
) -> Table {
    // Only the exercises someone handed in.
    let shown: Vec<&&Exercise> = exercises
        .iter()
        .filter(|e| {
            cells
                .iter()
                .any(|(_, x, c)| x.name == e.name && !matches!(c, Cell::Absent))
        })
        .collect();
    let cell = |s: &str, e: &Exercise| {
        cells
            .iter()
            .find(|(st, x, _)| st == s && x.name == e.name)
            .map(|(_, _, c)| c)
    };
    let mut header = vec!["student".to_owned()];
    header.extend(shown.iter().map(|e| super::key(e)));
    header.push("done".to_owned());
    let mut rows = Vec::new();
    let mut csv = String::from("student,exercise,verdict,caught,passed,other bugs caught,why\n");
    for s in students {
        let mut row = vec![s.clone()];
        let mut done = 0;
        for e in &shown {
            let c = cell(s, e).unwrap_or(&Cell::Absent);
            if matches!(c, Cell::Graded(g) if g.verdict == Verdict::Caught) {
                done += 1;
            }
            row.push(word(c));
            let (caught, passed, also) = match c {
                Cell::Graded(g) => (
                    format!("{}/{}", g.caught.0, g.caught.1),
                    format!("{}/{}", g.passed.0, g.passed.1),
                    g.also.join("; "),
                ),
                _ => Default::default(),
            };
            if !matches!(c, Cell::Absent) {
                writeln!(
                    csv,
                    "{},{},{},{caught},{passed},{},{}",
                    quote(s),
                    e.name,
                    quote(&word(c)),
                    quote(&also),
                    quote(&why(c))
                )
                .expect("to a String");
            }
        }
        row.push(format!("{done} of {}", shown.len()));
        rows.push(row);
    }
    let mut md = md_table(&header, &rows);
    md.push_str(
        "\n\"done, +k/n\": caught the named bug on every run and passed every correct \
         version; it also caught k of the n other buggy versions. \"not yet\": the first \
         reason it fell short (the CSV has the whole sentence).\n",
    );
    Table { markdown: md, csv }
}

/// A CSV field, quoted when it must be.
fn quote(field: &str) -> String {
    if field.contains([',', '"', '\n']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_are_quoted_when_they_must_be() {
        assert_eq!(quote("plain"), "plain");
        assert_eq!(quote("a, b"), "\"a, b\"");
        assert_eq!(quote("say \"x\""), "\"say \"\"x\"\"\"");
    }
}
