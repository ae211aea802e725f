//! Catch-it and find-it exercises: the student's test built into the
//! `exercises-catch` crate's `catch` target once per version of the timer,
//! and graded against every version ([`grade`](super::grade)); and CI's
//! proof that the grader is honest, both ways: each exercise's reference
//! test is caught, and each wrong test (one that sleeps and hopes, one that
//! fails always, one that asserts nothing, one that catches another bug,
//! one that leans on how one correct timer is built, one that reads its own
//! executable, ...) is rejected for the reason its `// verdict:` line
//! names.

use super::grade::{self, Builds, Grade, RUNS, Role, Subject, Verdict};
use super::{EXERCISES, Exercise, Kind, hints, hints_file, mine, shown, skeleton};
use crate::cargo;
use crate::cmd::{Cmd, Result, banner, root, secs};
use crate::ftf::red;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// How many runs on the named bug's version CI gives a wrong test or a
/// skeleton: enough for each to meet every setup (loaded or not, shaken or
/// not); the reference test gets a student's full [`RUNS`].
const VERIFY_RUNS: usize = 4;

/// The wrong tests every catch-it and find-it has,
/// `exercises/wrong/<name>/<which>.rs`: the near-misses a grader must not be
/// fooled by.
pub const STANDARD_WRONG: [&str; 4] = [
    "sleeps_and_hopes",
    "fails_always",
    "asserts_nothing",
    "other_bug",
];

/// How many correct and how many buggy versions each exercise has at least.
const AT_LEAST: usize = 3;

/// Where a test must hold a thread, in messages: a catch-it's `WINDOW`; a
/// find-it names no window, and any of its pause points may be in it; a
/// bug with no race in it (the row's `forced` is false) has none.
pub fn point(e: &Exercise) -> Option<&'static str> {
    match e.kind {
        _ if !e.forced => None,
        Kind::Find => Some("one of its pause points"),
        _ => Some("WINDOW"),
    }
}

/// Judges `e`'s runs.
fn judge(e: &Exercise, runs: &[grade::Run]) -> Grade {
    grade::judge(runs, e.versions, e.shows, point(e))
}

/// Whether this grader judges `e`: catch-its and find-its.
pub fn graded_here(e: &Exercise) -> bool {
    matches!(e.kind, Kind::Catch | Kind::Find)
}

/// An exercise's reference test, from the workspace root.
pub fn reference(e: &Exercise) -> PathBuf {
    PathBuf::from(e.solution_file)
}

/// An exercise's wrong tests, `(which, file from the workspace root)`,
/// sorted.
pub fn wrong_tests(e: &Exercise) -> Vec<(String, PathBuf)> {
    tests_in("wrong", e)
}

/// An exercise's tests in `exercises/<kind>/<name>/`: `wrong` ones, which
/// the grader must reject, and other `right` ones, which it must accept.
fn tests_in(kind: &str, e: &Exercise) -> Vec<(String, PathBuf)> {
    let dir = Path::new("exercises").join(kind).join(e.name);
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

/// Builds the `catch` target once per slot, `slots` of them: with
/// `student`'s test alone (`Mine`), or with every exercise's skeleton,
/// reference, wrong and right tests (`All`), or one exercise's (`Only`). One build at a time (cargo locks the target
/// directory anyway); each after the first compiles only the exercises
/// crate and the test. A compile error shows as cargo prints it.
pub fn build(tests: Tests, slots: usize) -> Result<Builds> {
    let mut builds = Builds::new();
    for slot in 0..slots {
        builds.add(build_slot(tests, slot)?)?;
    }
    Ok(builds)
}

/// One slot's build of the `catch` target.
pub fn build_slot(tests: Tests, slot: usize) -> Result<crate::cargo::TestExe> {
    let packages = cargo::workspace()?;
    {
        let features = match slot {
            0 => "check".to_string(),
            k => format!("check,exercises/slot-{k}"),
        };
        let mut build = Cmd::cargo(&[
            "test",
            "-p",
            "exercises-catch",
            "--features",
            &features,
            "--test",
            "catch",
            "--no-run",
            "--message-format=json",
        ]);
        match tests {
            Tests::Mine(e) => build = build.env("EXERCISE_MINE", e.name),
            Tests::Only(e) => build = build.env("EXERCISE_ONLY", e.name),
            Tests::Class { manifest, chaffs } => {
                build = build.env("EXERCISE_MANIFEST", &manifest.to_string_lossy());
                // A teacher's chaff takes a slot after its exercise's own
                // versions: below the fewest versions any exercise has, no
                // slot holds one, and leaving the variable out there lets
                // those builds be the ones a student's check already made
                // (a changed variable rebuilds the exercises crate).
                let fewest = EXERCISES
                    .iter()
                    .filter(|e| graded_here(e))
                    .map(|e| e.versions.len())
                    .min()
                    .unwrap_or(0);
                if let Some(chaffs) = chaffs
                    && slot >= fewest
                {
                    build = build.env("EXERCISE_CHAFFS", &chaffs.to_string_lossy());
                }
            }
            Tests::All => {}
        }
        // Linked at once by the caller: another build of the same slot
        // (another check) may replace cargo's file before this one runs.
        cargo::test_executables(build, &packages)?
            .into_iter()
            .find(|x| x.target == "catch")
            .ok_or_else(|| "the build made no `catch` test executable".to_string())
    }
}

/// Which tests a build of the `catch` target holds.
#[derive(Clone, Copy)]
pub enum Tests<'a> {
    /// The student's test of one exercise.
    Mine(&'static Exercise),
    /// One exercise's skeleton, reference, wrong and right tests.
    Only(&'static Exercise),
    /// Every exercise's.
    All,
    /// A class's tests, as a manifest names them (`exercises/catch/build.rs`),
    /// and a teacher's own chaffs.
    Class {
        /// The manifest: `<exercise> <module> <path>` a line.
        manifest: &'a Path,
        /// The teacher's chaffs, `<dir>/<exercise>/*.rs`.
        chaffs: Option<&'a Path>,
    },
}

/// The subject of one module of the target: its tests, by their full names.
pub fn subject(
    names: &[String],
    e: &Exercise,
    module: &str,
    file: PathBuf,
    runs: usize,
) -> Subject {
    let prefix = format!("{}::{module}::", e.name);
    Subject {
        module: format!("{}::{module}", e.name),
        tests: names
            .iter()
            .filter(|n| n.starts_with(&prefix))
            .cloned()
            .collect(),
        file,
        runs,
        roles: grade::roles(e.versions, e.shows),
    }
}

/// How many correct and buggy versions `e` has, in words.
fn counted(e: &Exercise) -> String {
    let roles = grade::roles(e.versions, e.shows);
    let wheats = roles.iter().filter(|r| **r == Role::Wheat).count();
    format!(
        "{} versions of the timer ({wheats} correct, {} with a bug)",
        roles.len(),
        roles.len() - wheats
    )
}

/// `cargo xtask exercise check` for a catch-it or find-it exercise.
pub fn check(e: &'static Exercise) -> Result<Grade> {
    let started = mine(e).exists();
    let slots = e.versions.len();
    let t = Instant::now();
    let (builds, module, file) = if started {
        let builds = build(Tests::Mine(e), slots)
            .map_err(|err| format!("{err}\n{} does not compile yet", shown(&mine(e))))?;
        (builds, "mine", mine(e))
    } else {
        println!(
            "You have not started {} yet: checking the skeleton. `cargo xtask exercise start {}` \
             copies it for you to edit.",
            e.name,
            super::key(e)
        );
        (build(Tests::Only(e), slots)?, "skeleton", skeleton(e))
    };
    let built = t.elapsed();
    let relative = file.strip_prefix(root()).unwrap_or(&file).to_path_buf();
    let names = builds.tests()?;
    let subject = subject(&names, e, module, relative, RUNS);
    if subject.tests.is_empty() {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        return Err(super::source::no_test_why(&text, &shown(&file)));
    }
    let n = grade::setups(&subject.roles, RUNS).len();
    println!(
        "\nRunning {} against {} ({n} runs, part of them with every core busy)...",
        if subject.tests.len() == 1 {
            "your test".to_string()
        } else {
            format!("your {} tests", subject.tests.len())
        },
        counted(e),
    );
    let t = Instant::now();
    let runs = grade::run_all(&builds, std::slice::from_ref(&subject), None)?.remove(0);
    let grade = judge(e, &runs);
    let longest = runs.iter().map(|r| r.took).max().unwrap_or_default();
    println!(
        "({} runs in {}, the longest {}, after a build of {}{})",
        runs.len(),
        secs(t.elapsed()),
        secs(longest),
        secs(built),
        if runs.len() < n {
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

/// One test `verify` grades: its exercise, what it is, the verdicts it
/// must get, its subject.
struct Planned<'a> {
    e: &'a Exercise,
    what: String,
    expect: Vec<Verdict>,
    subject: Subject,
}

/// CI's check of every catch-it and find-it exercise (or of `only`), both
/// ways. Adds every problem to `problems`.
pub fn verify(problems: &mut Vec<String>, only: Option<&'static Exercise>) -> Result<Verified> {
    let rows: Vec<&Exercise> = EXERCISES
        .iter()
        .filter(|e| graded_here(e) && only.is_none_or(|o| o.name == e.name))
        .collect();
    banner(&format!(
        "catch it, both ways: {} exercises' reference tests caught on every version, their \
         wrong tests rejected for the right reason",
        rows.len()
    ));
    for e in &rows {
        problems.extend(files_problems(e));
    }
    let slots = rows.iter().map(|e| e.versions.len()).max().unwrap_or(1);
    let t = Instant::now();
    let builds = build(only.map_or(Tests::All, Tests::Only), slots)?;
    let built = t.elapsed();
    let names = builds.tests()?;
    let mut plan: Vec<Planned> = Vec::new();
    for e in &rows {
        let mut add = |what: String, module: &str, expect, file, runs| {
            plan.push(Planned {
                e,
                what,
                expect,
                subject: subject(&names, e, module, file, runs),
            });
        };
        add(
            "reference".into(),
            "reference",
            vec![Verdict::Caught],
            reference(e),
            RUNS,
        );
        add(
            "skeleton".into(),
            "skeleton",
            vec![Verdict::NeverHeld, Verdict::MissesTheBug],
            skeleton_relative(e),
            VERIFY_RUNS,
        );
        for (which, file) in tests_in("right", e) {
            let module = format!("right_{which}");
            add(
                format!("right: {which}"),
                &module,
                vec![Verdict::Caught],
                file,
                RUNS,
            );
        }
        for (which, file) in wrong_tests(e) {
            let text = std::fs::read_to_string(root().join(&file)).unwrap_or_default();
            let Ok(expect) = declared(&text) else {
                continue; // files_problems named it
            };
            // A test that catches by luck must be told so on every CI run:
            // with 4 runs a side one that catches half the time reads
            // "caught" one run in sixteen; with a student's 10, one in a
            // thousand.
            let runs = if expect.contains(&Verdict::Luck) {
                RUNS
            } else {
                VERIFY_RUNS
            };
            let module = format!("wrong_{which}");
            add(which, &module, expect, file, runs);
        }
    }
    for p in &plan {
        if p.subject.tests.is_empty() {
            problems.push(format!("{}: {} has no #[test]", p.e.name, p.what));
        }
    }
    plan.retain(|p| !p.subject.tests.is_empty());
    let subjects: Vec<Subject> = plan.iter().map(|p| clone_subject(&p.subject)).collect();
    let t = Instant::now();
    let all_runs = grade::run_all(&builds, &subjects, None)?;
    let ran = t.elapsed();

    let mut rejected = 0;
    let mut last = "";
    for (p, runs) in plan.iter().zip(&all_runs) {
        if p.e.name != last {
            last = p.e.name;
            print_versions(p.e);
        }
        let grade = judge(p.e, runs);
        let must: Vec<&str> = p.expect.iter().map(|v| v.word()).collect();
        let ok = p.expect.contains(&grade.verdict);
        if ok && grade.verdict != Verdict::Caught {
            rejected += 1;
        }
        println!(
            "    {:<30} {:<34} {:<16} {:>6} {:>6}{}",
            p.what,
            must.join(" | "),
            grade.verdict.word(),
            format!("{}/{}", grade.caught.0, grade.caught.1),
            format!("{}/{}", grade.passed.0, grade.passed.1),
            if ok { "" } else { "   <-- WRONG" }
        );
        let why = if grade.verdict == Verdict::Caught {
            grade::thoroughness(&grade)
        } else {
            grade.reasons[0].clone()
        };
        if !why.is_empty() {
            println!("      {}", first_sentence(&why));
        }
        if !ok {
            problems.push(format!(
                "{}: the check gives {} `{}`, not {}: {}",
                p.e.name,
                p.what,
                grade.verdict.word(),
                must.join(" or "),
                grade.reasons.join(" / ")
            ));
        } else if p.expect == [Verdict::Caught]
            && !grade
                .red
                .as_deref()
                .is_some_and(|m| m.starts_with(p.e.shows))
        {
            problems.push(format!(
                "{}: the reference test's red message does not start with {}: {:?}",
                p.e.name, p.e.shows, grade.red
            ));
        }
    }
    println!(
        "\ncatch it: {} tests graded in {} ({} runs), after {} builds in {}",
        plan.len(),
        secs(ran),
        all_runs.iter().map(Vec::len).sum::<usize>(),
        slots,
        secs(built)
    );
    Ok(Verified {
        exercises: rows.len(),
        rejected,
    })
}

/// An exercise's versions, and the header of its tests' table.
fn print_versions(e: &Exercise) {
    println!("\n  {} ({}):", e.name, counted(e));
    for (v, role) in e.versions.iter().zip(grade::roles(e.versions, e.shows)) {
        let what = match role {
            Role::Wheat => "correct".to_string(),
            Role::Named => format!("{}, the named bug", v.bug.unwrap_or("?")),
            Role::Other => format!("{}, another bug", v.bug.unwrap_or("?")),
        };
        println!("    version {:<20} {:<22} {}", v.name, what, v.file);
    }
    println!(
        "    {:<30} {:<34} {:<16} {:>6} {:>6}",
        "test", "must get", "got", "caught", "passed"
    );
}

/// A reason's first sentence, for a table's line.
fn first_sentence(text: &str) -> &str {
    let end = text.find(". ").map_or(text.len(), |i| i + 1);
    &text[..end]
}

fn clone_subject(s: &Subject) -> Subject {
    Subject {
        module: s.module.clone(),
        tests: s.tests.clone(),
        file: s.file.clone(),
        runs: s.runs,
        roles: s.roles.clone(),
    }
}

fn skeleton_relative(e: &Exercise) -> PathBuf {
    Path::new("exercises")
        .join("skeletons")
        .join(format!("{}.rs", e.name))
}

/// What a catch-it or find-it must have besides its tests passing: the
/// skeleton's `TODO`, hints (a find-it's are optional: an exam has none),
/// at least three correct and three buggy versions (the first correct, the
/// named bug among them), each version's file, a reference test, the
/// standard wrong tests, each declaring its verdict.
fn files_problems(e: &Exercise) -> Vec<String> {
    let mut problems = Vec::new();
    let text = std::fs::read_to_string(skeleton(e)).unwrap_or_default();
    if !text.contains(&format!("TODO({})", e.id)) {
        problems.push(format!("{}: the skeleton has no `TODO({})`", e.name, e.id));
    }
    if e.kind == Kind::Catch || hints_file(e).exists() {
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
    problems.extend(versions_problems(e));
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

/// What an exercise's list of versions must be.
fn versions_problems(e: &Exercise) -> Vec<String> {
    let mut problems = Vec::new();
    let roles = grade::roles(e.versions, e.shows);
    let count = |want: Role| roles.iter().filter(|r| **r == want).count();
    if roles.first() != Some(&Role::Wheat) {
        problems.push(format!(
            "{}: its first version (the default build) must be a correct one",
            e.name
        ));
    }
    if count(Role::Named) != 1 {
        problems.push(format!(
            "{}: {} versions have {}, the bug it names; one must",
            e.name,
            count(Role::Named),
            e.shows
        ));
    }
    if count(Role::Wheat) < AT_LEAST || count(Role::Named) + count(Role::Other) < AT_LEAST {
        problems.push(format!(
            "{}: {} correct and {} buggy versions; give at least {AT_LEAST} of each",
            e.name,
            count(Role::Wheat),
            count(Role::Named) + count(Role::Other)
        ));
    }
    if e.versions.len() > super::list::SLOTS {
        problems.push(format!(
            "{}: {} versions, more than the {} slots",
            e.name,
            e.versions.len(),
            super::list::SLOTS
        ));
    }
    for (i, v) in e.versions.iter().enumerate() {
        if !root().join(v.file).exists() {
            problems.push(format!(
                "{}: no file {} for version {}",
                e.name, v.file, v.name
            ));
        }
        if e.versions[..i].iter().any(|w| w.name == v.name) {
            problems.push(format!("{}: two versions are named {}", e.name, v.name));
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
        let more = grade::thoroughness(grade);
        if !more.is_empty() {
            println!("\n  {more}");
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
        "  (caught on the version with {} {} of {} times; passed on the correct versions {} of \
         {} times)",
        e.shows, grade.caught.0, grade.caught.1, grade.passed.0, grade.passed.1
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
    fn every_catch_it_and_find_it_has_its_files_versions_and_wrong_tests() {
        for e in EXERCISES.iter().filter(|e| graded_here(e)) {
            assert_eq!(files_problems(e), Vec::<String>::new(), "{}", e.name);
        }
    }
}
