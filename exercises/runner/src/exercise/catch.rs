//! Catch-it and find-it exercises: the student's test built into the
//! `exercises` crate's `catch` target, graded against both versions
//! ([`grade`](super::grade)); and CI's proof that the grader is honest,
//! both ways: each exercise's reference test is caught, and each wrong
//! test (one that sleeps and hopes, one that fails always, one that asserts
//! nothing, one that catches another bug, ...) is rejected for the reason
//! its `// verdict:` line names.

use super::grade::{self, Grade, RUNS, Subject, Verdict};
use super::{EXERCISES, Exercise, Kind, find, hints, hints_file, mine, shown, skeleton};
use crate::cargo::{self, TestExe};
use crate::cmd::{Cmd, Result, banner, root, secs};
use crate::ftf::red;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// How many runs on each side CI gives a wrong test or a skeleton: enough
/// for each to meet every setup (loaded or not, shaken or not); the
/// reference test gets a student's full [`RUNS`].
const VERIFY_RUNS: usize = 4;

/// The wrong tests every catch-it has, `wrong/<name>/<which>.rs`: the
/// near-misses a grader must not be fooled by.
pub const STANDARD_WRONG: [&str; 4] = [
    "sleeps_and_hopes",
    "fails_always",
    "asserts_nothing",
    "other_bug",
];

/// The name the exercises' API gives the window, in messages.
const POINT: &str = "WINDOW";

/// Where a test must hold a thread, in messages: a catch-it's `WINDOW`; a
/// find-it names no window, and any of its pause points may be in it.
fn point(e: &Exercise) -> &'static str {
    match e.kind {
        Kind::Find => "one of its pause points",
        _ => POINT,
    }
}

/// Judges `e`'s runs: a race's test must hold a thread at its window; a
/// test of a bug with no race in it (the row's `forced` is false) need not.
fn judge(e: &Exercise, runs: &[grade::Run]) -> Grade {
    if e.forced {
        grade::judge(runs, point(e))
    } else {
        grade::judge_unforced(runs)
    }
}

/// Whether this grader judges `e`: catch-its and find-its.
pub fn graded_here(e: &Exercise) -> bool {
    matches!(e.kind, Kind::Catch | Kind::Find)
}

/// A catch-it's reference test, from the workspace root.
pub fn reference(e: &Exercise) -> PathBuf {
    PathBuf::from(e.solution_file)
}

/// A catch-it's wrong tests, `(which, file from the workspace root)`, sorted;
/// a find-it's are modules of its one file.
pub fn wrong_tests(e: &Exercise) -> Vec<(String, PathBuf)> {
    if e.kind == Kind::Find {
        return find::wrong_tests(e)
            .into_iter()
            .map(|(which, _)| (which, find::file(e)))
            .collect();
    }
    let dir = Path::new("exercises").join("wrong").join(e.name);
    let Ok(entries) = std::fs::read_dir(root().join(&dir)) else {
        return Vec::new();
    };
    let mut found: Vec<(String, PathBuf)> = entries
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|x| x == "rs"))
        .filter_map(|path| {
            let which = path.file_stem()?.to_str()?.to_owned();
            let file = dir.join(path.file_name()?);
            Some((which, file))
        })
        .collect();
    found.sort();
    found
}

/// The verdicts a wrong test declares it must get: its `// verdict: a | b`
/// line.
pub fn declared(text: &str) -> Result<Vec<Verdict>> {
    let line = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("// verdict:"))
        .ok_or("no `// verdict: <verdict>` line")?;
    line.split('|')
        .map(|w| {
            Verdict::parse(w).ok_or_else(|| {
                let all: Vec<&str> = Verdict::ALL.iter().map(|v| v.word()).collect();
                format!("`{}` is not a verdict ({})", w.trim(), all.join(", "))
            })
        })
        .collect()
}

/// Whether a test reads which version it runs against, instead of telling
/// them apart by what they do.
pub fn reads_the_side(text: &str) -> bool {
    [
        "EXERCISE_SIDE",
        "EXERCISE_RECORD",
        "EXERCISE_SHAKE",
        "SIDE_VAR",
        // What a find-it's API builds its version by.
        "side()",
        "Side::",
    ]
    .iter()
    .any(|v| text.contains(v))
}

/// Builds the `catch` target: with `student`'s test alone, or (`None`) with
/// every catch-it's skeleton, reference and wrong tests. A compile error
/// shows as cargo prints it.
pub fn build(student: Option<&Exercise>) -> Result<TestExe> {
    let packages = cargo::workspace()?;
    let mut build = Cmd::cargo(&[
        "test",
        "-p",
        "exercises",
        "--features",
        "check",
        "--test",
        "catch",
        "--no-run",
        "--message-format=json",
    ]);
    if let Some(e) = student {
        build = build
            .env("EXERCISE_CHECK", e.name)
            .env("EXERCISE_SOURCE", "mine");
    }
    cargo::test_executables(build, &packages)?
        .into_iter()
        .find(|x| x.target == "catch")
        .ok_or_else(|| "the build made no `catch` test executable".to_string())
}

/// The subject of one module of the target: its tests, by their full names.
fn subject(names: &[String], e: &Exercise, module: &str, file: PathBuf, runs: usize) -> Subject {
    let prefix = format!("{}::{module}::", e.name);
    // A find-it's tests share its file: each owns its module's lines.
    let lines = (e.kind == Kind::Find && module != "mine")
        .then(|| find::module(e, module).ok().map(|m| m.lines))
        .flatten();
    Subject {
        module: format!("{}::{module}", e.name),
        tests: names
            .iter()
            .filter(|n| n.starts_with(&prefix))
            .cloned()
            .collect(),
        file,
        lines,
        runs,
    }
}

/// `cargo xtask exercise check` for a catch-it or find-it exercise.
pub fn check(e: &Exercise) -> Result<Grade> {
    let started = mine(e).exists();
    let (exe, module, file) = if started {
        let exe = build(Some(e))
            .map_err(|err| format!("{err}\n{} does not compile yet", shown(&mine(e))))?;
        (exe, "mine", mine(e))
    } else {
        println!(
            "You have not started {} yet: checking the skeleton. `cargo xtask exercise start {}` \
             copies it for you to edit.",
            e.name,
            super::key(e)
        );
        (build(None)?, "skeleton", skeleton(e))
    };
    let text = if e.kind == Kind::Find && !started {
        find::skeleton_text(e)?
    } else {
        std::fs::read_to_string(&file).map_err(|err| format!("{}: {err}", shown(&file)))?
    };
    if reads_the_side(&text) {
        return Err(format!(
            "{} reads which version it runs against (an EXERCISE_ variable): a test must \
             tell the versions apart by what the timer does",
            shown(&file)
        ));
    }
    let relative = file.strip_prefix(root()).unwrap_or(&file).to_path_buf();
    let names = cargo::default_tests(&exe)?;
    let subject = subject(&names, e, module, relative, RUNS);
    if subject.tests.is_empty() {
        return Err(format!("{} has no `#[test]` function yet", shown(&file)));
    }
    println!(
        "\nRunning {} {} times against each version, {} of them with every core busy...",
        if subject.tests.len() == 1 {
            "your test".to_string()
        } else {
            format!("your {} tests", subject.tests.len())
        },
        RUNS,
        RUNS / 2
    );
    let t = Instant::now();
    let runs = grade::run_all(&exe, std::slice::from_ref(&subject))?.remove(0);
    let grade = judge(e, &runs);
    let longest = runs.iter().map(|r| r.took).max().unwrap_or_default();
    println!(
        "({} runs in {}, the longest {}{})",
        runs.len(),
        secs(t.elapsed()),
        secs(longest),
        if runs.len() < 2 * RUNS {
            "; none under load: it hung already"
        } else {
            ""
        }
    );
    Ok(grade)
}

/// What CI's check of the catch-its graded.
pub struct Verified {
    /// Exercises, each with its reference test caught.
    pub exercises: usize,
    /// Wrong tests and skeletons rejected for the reason they must be.
    pub rejected: usize,
}

/// CI's check of every catch-it and find-it exercise, both ways. Adds
/// every problem to `problems`.
pub fn verify(problems: &mut Vec<String>) -> Result<Verified> {
    let rows: Vec<&Exercise> = EXERCISES.iter().filter(|e| graded_here(e)).collect();
    banner(&format!(
        "catch it, both ways: {} exercises' reference tests caught, their wrong tests rejected \
         for the right reason",
        rows.len()
    ));
    for e in &rows {
        problems.extend(files_problems(e));
    }
    let t = Instant::now();
    let exe = build(None)?;
    let built = t.elapsed();
    let names = cargo::default_tests(&exe)?;
    // (exercise, what, the verdicts it must get, its subject)
    let mut plan: Vec<(&Exercise, String, Vec<Verdict>, Subject)> = Vec::new();
    for e in &rows {
        plan.push((
            e,
            "reference".into(),
            vec![Verdict::Caught],
            subject(&names, e, "reference", reference(e), RUNS),
        ));
        plan.push((
            e,
            "skeleton".into(),
            vec![Verdict::NeverHeld, Verdict::MissesTheBug],
            subject(&names, e, "skeleton", skeleton_relative(e), VERIFY_RUNS),
        ));
        for (which, file) in wrong_tests(e) {
            let text = wrong_text(e, &which, &file);
            let Ok(expect) = declared(&text) else {
                continue; // files_problems named it
            };
            let module = format!("wrong_{which}");
            // A test that catches by luck must be told so on every CI run:
            // with 4 runs a side one that catches half the time reads
            // "caught" one run in sixteen; with a student's 10, one in a
            // thousand.
            let runs = if expect.contains(&Verdict::Luck) {
                RUNS
            } else {
                VERIFY_RUNS
            };
            plan.push((
                e,
                module.clone(),
                expect,
                subject(&names, e, &module, file, runs),
            ));
        }
    }
    for (e, what, _, s) in &plan {
        if s.tests.is_empty() {
            problems.push(format!("{}: {what} has no #[test]", e.name));
        }
    }
    plan.retain(|(_, _, _, s)| !s.tests.is_empty());
    let subjects: Vec<Subject> = plan.iter().map(|(_, _, _, s)| clone_subject(s)).collect();
    let t = Instant::now();
    let all_runs = grade::run_all(&exe, &subjects)?;
    let ran = t.elapsed();

    // On the buggy version: failed, and caught (failed by its own
    // assertion, a thread held); on the fixed version: passed.
    println!(
        "\n  {:<22} {:<26} {:<28} {:<15} {:>6} {:>6} {:>6}",
        "exercise", "test", "must get", "got", "failed", "caught", "passed"
    );
    let mut rejected = 0;
    for ((e, what, expect, _), runs) in plan.iter().zip(&all_runs) {
        let grade = judge(e, runs);
        let must: Vec<&str> = expect.iter().map(|v| v.word()).collect();
        let ok = expect.contains(&grade.verdict);
        if ok && grade.verdict != Verdict::Caught {
            rejected += 1;
        }
        println!(
            "  {:<22} {:<26} {:<28} {:<15} {:>6} {:>6} {:>6}{}",
            e.name,
            what,
            must.join(" | "),
            grade.verdict.word(),
            format!("{}/{}", grade.failed.0, grade.failed.1),
            format!("{}/{}", grade.caught.0, grade.caught.1),
            format!("{}/{}", grade.passed.0, grade.passed.1),
            if ok { "" } else { "   <-- WRONG" }
        );
        if !ok {
            problems.push(format!(
                "{}: the check gives {what} `{}`, not {}: {}",
                e.name,
                grade.verdict.word(),
                must.join(" or "),
                grade.reasons.join(" / ")
            ));
        } else if what == "reference"
            && !grade.red.as_deref().is_some_and(|m| m.starts_with(e.shows))
        {
            problems.push(format!(
                "{}: the reference test's red message does not start with {}: {:?}",
                e.name, e.shows, grade.red
            ));
        }
    }
    println!(
        "\ncatch it: {} tests graded in {} ({} runs), after a build of {}",
        plan.len(),
        secs(ran),
        all_runs.iter().map(Vec::len).sum::<usize>(),
        secs(built)
    );
    Ok(Verified {
        exercises: rows.len(),
        rejected,
    })
}

fn clone_subject(s: &Subject) -> Subject {
    Subject {
        module: s.module.clone(),
        tests: s.tests.clone(),
        file: s.file.clone(),
        lines: s.lines,
        runs: s.runs,
    }
}

/// A wrong test's text: its file, or a find-it's module.
fn wrong_text(e: &Exercise, which: &str, file: &Path) -> String {
    if e.kind == Kind::Find {
        return find::module(e, &format!("wrong_{which}"))
            .map(|m| m.body)
            .unwrap_or_default();
    }
    std::fs::read_to_string(root().join(file)).unwrap_or_default()
}

fn skeleton_relative(e: &Exercise) -> PathBuf {
    if e.kind == Kind::Find {
        return find::file(e);
    }
    Path::new("exercises")
        .join("skeletons")
        .join(format!("{}.rs", e.name))
}

/// What a catch-it must have besides its tests passing: the skeleton's
/// `TODO`, hints, both versions' files, a reference test, the standard wrong
/// tests, each declaring its verdict.
fn files_problems(e: &Exercise) -> Vec<String> {
    if e.kind == Kind::Find {
        return find_problems(e);
    }
    let mut problems = Vec::new();
    let text = std::fs::read_to_string(skeleton(e)).unwrap_or_default();
    if !text.contains(&format!("TODO({})", e.id)) {
        problems.push(format!("{}: the skeleton has no `TODO({})`", e.name, e.id));
    }
    match hints(e) {
        Ok(h) if h.len() >= 2 => {}
        Ok(h) => problems.push(format!(
            "{}: {} hint(s); give at least two",
            e.name,
            h.len()
        )),
        Err(err) => problems.push(err),
    }
    match e.versions {
        Some((buggy, fixed)) => {
            for file in [buggy, fixed] {
                if !root().join(file).exists() {
                    problems.push(format!("{}: no version file {file}", e.name));
                }
            }
        }
        None => problems.push(format!("{}: a catch-it names its two versions", e.name)),
    }
    if !root().join(reference(e)).exists() {
        problems.push(format!("{}: no reference test {}", e.name, e.solution_file));
    }
    let wrong = wrong_tests(e);
    for standard in STANDARD_WRONG {
        if !wrong.iter().any(|(which, _)| which == standard) {
            problems.push(format!(
                "{}: no wrong test exercises/wrong/{}/{standard}.rs",
                e.name, e.name
            ));
        }
    }
    for (which, file) in &wrong {
        let text = std::fs::read_to_string(root().join(file)).unwrap_or_default();
        if let Err(err) = declared(&text) {
            problems.push(format!("{}: wrong test {which}: {err}", e.name));
        }
    }
    problems
}

/// What a find-it's one file must hold: the modules `skeleton` (with its
/// `TODO`), `reference` and the standard wrong tests, each declaring its
/// verdict. Hints are its own file, and optional: an exam has none.
fn find_problems(e: &Exercise) -> Vec<String> {
    let mut problems = Vec::new();
    match find::skeleton_text(e) {
        Ok(text) if text.contains(&format!("TODO({})", e.id)) => {}
        Ok(_) => problems.push(format!("{}: the skeleton has no `TODO({})`", e.name, e.id)),
        Err(err) => problems.push(err),
    }
    if let Err(err) = find::module(e, "reference") {
        problems.push(err);
    }
    if hints_file(e).exists() {
        match hints(e) {
            Ok(h) if h.len() >= 2 => {}
            Ok(h) => problems.push(format!(
                "{}: {} hint(s); give at least two",
                e.name,
                h.len()
            )),
            Err(err) => problems.push(err),
        }
    }
    let wrong = find::wrong_tests(e);
    for standard in STANDARD_WRONG {
        if !wrong.iter().any(|(which, _)| which == standard) {
            problems.push(format!(
                "{}: no wrong test `mod wrong_{standard}` in {}",
                e.name,
                find::file(e).display()
            ));
        }
    }
    for (which, module) in &wrong {
        if let Err(err) = declared(&module.body) {
            problems.push(format!("{}: wrong test {which}: {err}", e.name));
        }
    }
    problems
}

/// Prints a grade as the student reads it.
pub fn print(e: &Exercise, grade: &Grade) {
    println!();
    if grade.verdict == Verdict::Caught {
        println!("  {}", grade.reasons[0]);
        if let Some(red) = &grade.red {
            let first = red.lines().next().unwrap_or_default();
            println!("\n  Your red message on the buggy version: {first}");
            if !first.starts_with(e.shows) {
                println!(
                    "  (Tip: start it with {}, as the book's checks do: a reader then knows \
                     which bug failed.)",
                    e.shows
                );
            }
        }
        return;
    }
    for (i, reason) in grade.reasons.iter().enumerate() {
        let text = if i == 0 {
            red(reason)
        } else {
            format!("also: {reason}")
        };
        println!("  {text}\n");
    }
    println!(
        "  (caught on the buggy version {} of {} times; passed on the fixed version {} of {})",
        grade.caught.0, grade.caught.1, grade.passed.0, grade.passed.1
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrong_test_declares_one_verdict_or_several() {
        assert_eq!(
            declared("//! x\n// verdict: never-held\n").unwrap(),
            [Verdict::NeverHeld]
        );
        assert_eq!(
            declared("// verdict: luck | misses-the-bug").unwrap(),
            [Verdict::Luck, Verdict::MissesTheBug]
        );
        assert!(declared("// verdict: lucky").is_err());
        assert!(declared("no line").is_err());
    }

    #[test]
    fn a_test_that_reads_the_side_is_known() {
        assert!(reads_the_side("std::env::var(\"EXERCISE_SIDE\")"));
        assert!(!reads_the_side("let timer = Timer::new(&name);"));
    }

    #[test]
    fn every_catch_it_has_its_files_and_wrong_tests() {
        for e in EXERCISES.iter().filter(|e| graded_here(e)) {
            assert_eq!(files_problems(e), Vec::<String>::new(), "{}", e.name);
        }
    }
}
