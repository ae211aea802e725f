//! `cargo xtask audit [N]`: the determinism audit.
//!
//! Every bug's forced reproduction (a default test named `*_reproduces`)
//! must pass on every run, and every ignored red check must fail naming
//! its bug on every run, however loaded the machine: a race is forced by a
//! pause point, never hoped for. The audit takes that promise at its word.
//! It runs each of them N times (20 unless told) while one busy thread per
//! core, started here, keeps every core loaded, and names any test whose
//! verdict changed even once: a reproduction that failed, a red check that
//! passed or failed without naming its bug, each with what that run
//! printed (its first lines: the panic message and the numbers).
//!
//! The failing-then-fixed check (`ftf.rs`) asks each red check once, in
//! parallel; this asks every reproduction and red check many times, one at
//! a time: the busy threads already take the cores. The harness cannot
//! repeat a test inside one process, so each run is its own `--exact` run
//! of the test executable (a start costs about 10 ms). The build, the list
//! of tests, the run of one test alone under a time limit and the judge of
//! a red check are `ftf.rs`'s, shared, so both checks judge alike.
//!
//! On the 2-core machine this was written on, one run of all 54 takes
//! about 30 s under load: CI runs 2 (`ci.rs`), and `cargo xtask audit 20`
//! (about 10 minutes) is the long run.
//!
//! `cargo xtask audit --whole [N]` asks the other half of the promise: no
//! test fails because the machine is busy. For each stage crate (a
//! package whose description starts "Stage N:"), it runs the
//! stage's whole default test run N times (20 unless told), beside the
//! same busy threads: every test executable of the stage one after the
//! other, each running its tests side by side as `cargo test -p <stage>`
//! does (the doc tests left out: they print, they do not time), and last
//! the cross-stage battery and progression matrix the same way. A table
//! gives each stage's runs and failed runs, then every failing test with
//! its first lines. CI runs it once per stage (`ci.rs`).

use crate::cargo::{self, TestExe};
use crate::cmd::{Result, banner, secs};
use crate::ftf::{self, first_lines, who};
pub(crate) use devkit::load::under_load;
use std::time::{Duration, Instant};

/// How many lines of a run that went the wrong way the report shows.
const SHOWN_LINES: usize = 8;

/// What a test must do on every run.
#[derive(Clone, Copy, PartialEq)]
enum Expect {
    /// A forced reproduction: pass.
    Pass,
    /// A red check: fail, naming its bug.
    Red,
}

/// One test's runs.
struct Tally {
    /// Its executable, an index into the built ones.
    exe: usize,
    name: String,
    expect: Expect,
    /// Runs that exited with success, and runs that did not.
    passed: usize,
    failed: usize,
    /// Runs whose verdict was not the expected one (1-based).
    changed: Vec<usize>,
    /// The first such run of each kind (one that passed, one that failed:
    /// a red check can go wrong both ways), with why and what it printed.
    shown: Vec<(usize, bool, String)>,
    took: Duration,
}

/// Runs the audit: `runs` times each, under load (only the stages whose
/// names contain `only`, if given); fails naming every test whose verdict
/// changed.
pub fn run(runs: usize, only: Option<&str>, busy: Option<usize>) -> Result {
    banner(&format!(
        "determinism audit: every reproduction and red check, {runs} time(s) each, every core loaded"
    ));
    let (packages, exes) = ftf::test_exes()?;
    let mut tallies = Vec::new();
    for (i, exe) in exes.iter().enumerate() {
        if only.is_some_and(|only| !exe.package.contains(only)) {
            continue;
        }
        for name in cargo::default_tests(exe)? {
            if name
                .rsplit("::")
                .next()
                .is_some_and(|n| n.contains("_reproduces"))
            {
                tallies.push(tally(i, name, Expect::Pass));
            }
        }
        for name in cargo::ignored_tests(exe)? {
            tallies.push(tally(i, name, Expect::Red));
        }
    }
    // Teaching order, each bug's reproduction before its red check.
    tallies.sort_by_key(|t| {
        let (stage, number, name) = ftf::teaching_rank(&packages, &exes[t.exe], &t.name);
        (stage, number, t.expect == Expect::Red, name)
    });
    let cores = busy_threads(busy);
    println!(
        "{} reproductions and {} red checks, {runs} run(s) each, one at a time, \
         beside {cores} busy thread(s)",
        tallies.iter().filter(|t| t.expect == Expect::Pass).count(),
        tallies.iter().filter(|t| t.expect == Expect::Red).count()
    );

    let start = Instant::now();
    // The table's rows come as each test's runs end: a long audit shows
    // where it is.
    println!();
    println!(
        "  {:<7} {:>4} {:>6} {:>6}  {:<6} {:>7}  test",
        "expect", "runs", "passed", "failed", "stable", "time"
    );
    under_load(cores, || {
        for t in &mut tallies {
            let exe = &exes[t.exe];
            let t0 = Instant::now();
            for k in 1..=runs {
                let (passed, change) = once(exe, &t.name, t.expect);
                if passed {
                    t.passed += 1;
                } else {
                    t.failed += 1;
                }
                if let Some(what) = change {
                    t.changed.push(k);
                    if !t.shown.iter().any(|(_, p, _)| *p == passed) {
                        t.shown.push((k, passed, what));
                    }
                }
            }
            t.took = t0.elapsed();
            println!("{}", row(t, exe, runs));
        }
    });
    let took = start.elapsed();

    let unstable: Vec<&Tally> = tallies.iter().filter(|t| !t.changed.is_empty()).collect();
    for t in &unstable {
        println!();
        println!(
            "CHANGED: {} went the other way in run(s) {} of {runs}",
            who(&exes[t.exe], &t.name),
            list(&t.changed),
        );
        for (k, _, what) in &t.shown {
            println!("  run {k}:");
            for line in what.lines() {
                println!("    {line}");
            }
        }
    }
    println!();
    println!(
        "audit: {} test(s), {runs} run(s) each, under load on {cores} core(s), in {} \
         ({} a round of all); {} verdict(s) changed",
        tallies.len(),
        secs(took),
        secs(took / runs as u32),
        unstable.len()
    );
    if unstable.is_empty() {
        return Ok(());
    }
    Err(format!(
        "the determinism audit found {} test(s) whose verdict changed under load:\n  {}",
        unstable.len(),
        unstable
            .iter()
            .map(|t| format!(
                "{}: {} of {runs} run(s) not as expected (runs {})",
                who(&exes[t.exe], &t.name),
                t.changed.len(),
                list(&t.changed)
            ))
            .collect::<Vec<_>>()
            .join("\n  ")
    ))
}

/// How long one test executable's whole default run may take under load
/// before it counts as hung: the longest takes about 15 s at rest.
const WHOLE_LIMIT: Duration = Duration::from_secs(300);

/// One stage's whole default runs.
struct Stage {
    name: String,
    /// Its test executables, indices into the built ones, in build order.
    exes: Vec<usize>,
    failed: usize,
    /// Each failing test (or executable, if it died before naming one),
    /// with the run it failed in and its first lines.
    failures: Vec<(usize, String, String)>,
    took: Duration,
}

/// The busy threads beside the runs: `busy`, or one per core.
fn busy_threads(busy: Option<usize>) -> usize {
    busy.unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
}

/// `cargo xtask audit --whole N`: every stage's whole default test run (or
/// only the stages whose names contain `only`), N times, under load; fails
/// naming every test that failed even once. Returns the table's summary
/// line.
pub fn whole(runs: usize, only: Option<&str>, busy: Option<usize>) -> Result<String> {
    banner(&format!(
        "whole-run audit: every stage's default tests, {runs} time(s), every core loaded"
    ));
    let (_, exes) = ftf::test_exes()?;
    let mut stages: Vec<Stage> = stage_names()?
        .into_iter()
        .filter(|name| only.is_none_or(|only| name.contains(only)))
        .map(|name| Stage {
            exes: (0..exes.len())
                .filter(|&i| exes[i].package == name)
                .collect(),
            name,
            failed: 0,
            failures: Vec::new(),
            took: Duration::ZERO,
        })
        .filter(|s| !s.exes.is_empty())
        .collect();
    let cores = busy_threads(busy);
    println!(
        "{} stage(s), {runs} whole run(s) each, one stage at a time, beside {cores} busy \
         thread(s)",
        stages.len()
    );
    println!();
    println!(
        "  {:<20} {:>4} {:>6} {:>8} {:>8}  failing tests",
        "stage", "runs", "failed", "time", "per run"
    );
    let start = Instant::now();
    under_load(cores, || {
        for stage in &mut stages {
            let t0 = Instant::now();
            for k in 1..=runs {
                let mut failed = false;
                for &i in &stage.exes {
                    for (name, lines) in whole_run(&exes[i]) {
                        failed = true;
                        stage.failures.push((k, name, lines));
                    }
                }
                stage.failed += usize::from(failed);
            }
            stage.took = t0.elapsed();
            println!("{}", stage_row(stage, runs));
        }
    });
    let took = start.elapsed();
    for stage in &stages {
        for (k, name, lines) in &stage.failures {
            println!();
            println!("FAILED in run {k} of {runs}: {name}");
            for line in lines.lines() {
                println!("    {line}");
            }
        }
    }
    let failed: usize = stages.iter().map(|s| s.failed).sum();
    let summary = format!(
        "{} stage(s), {runs} whole run(s) each, under load on {cores} core(s), in {}; \
         {failed} run(s) failed",
        stages.len(),
        secs(took)
    );
    println!();
    println!("whole-run audit: {summary}");
    if failed == 0 {
        return Ok(summary);
    }
    let mut names: Vec<&str> = stages
        .iter()
        .flat_map(|s| s.failures.iter().map(|(_, name, _)| name.as_str()))
        .collect();
    names.sort_unstable();
    names.dedup();
    Err(format!(
        "the whole-run audit found {failed} failed run(s) under load; failing:\n  {}",
        names.join("\n  ")
    ))
}

/// The package of the cross-stage battery and the progression matrix:
/// every stage's scenarios again, many of them side by side, so the whole
/// run most likely to be hurt by a busy machine.
const BATTERY: &str = "progression";

/// The stage crates, in teaching order (the workspace packages whose
/// description starts "Stage N:"), then the battery.
fn stage_names() -> Result<Vec<String>> {
    Ok(cargo::workspace()?
        .into_iter()
        .filter(|p| {
            p.name == BATTERY
                || std::fs::read_to_string(p.dir.join("Cargo.toml")).is_ok_and(|text| {
                    text.lines()
                        .any(|l| l.replace(' ', "").starts_with("description=\"Stage"))
                })
        })
        .map(|p| p.name)
        .collect())
}

/// One default run of one test executable (its tests side by side, as
/// `cargo test` runs them): each failing test with its first lines; the
/// executable itself if it failed without naming a test (killed, hung).
fn whole_run(exe: &TestExe) -> Vec<(String, String)> {
    let run = match exe.cmd(&[]).capture(WHOLE_LIMIT) {
        Ok(run) => run,
        Err(e) => return vec![(exe.selector(), e)],
    };
    if run.passed() {
        return Vec::new();
    }
    let failing = failing_tests(&run.output);
    if failing.is_empty() {
        let last = ftf::last_lines(&run.output, SHOWN_LINES);
        return vec![(exe.selector(), format!("{}: {last}", run.how()))];
    }
    failing
        .into_iter()
        .map(|name| {
            let lines = first_lines(&run.output, &name, SHOWN_LINES).join("\n");
            (who(exe, &name), lines)
        })
        .collect()
}

/// The tests the harness reported as failed (`test name ... FAILED`).
fn failing_tests(output: &str) -> Vec<String> {
    output
        .lines()
        .filter_map(|l| l.strip_prefix("test ")?.strip_suffix(" ... FAILED"))
        .map(String::from)
        .collect()
}

/// One row of the whole-run table.
fn stage_row(stage: &Stage, runs: usize) -> String {
    let mut failing: Vec<&str> = stage
        .failures
        .iter()
        .map(|(_, name, _)| name.rsplit(' ').next().unwrap_or(name))
        .collect();
    failing.sort_unstable();
    failing.dedup();
    format!(
        "  {:<20} {runs:>4} {:>6} {:>8} {:>8}  {}",
        stage.name,
        stage.failed,
        secs(stage.took),
        secs(stage.took / runs as u32),
        if failing.is_empty() {
            "-".to_string()
        } else {
            failing.join(", ")
        }
    )
}

fn tally(exe: usize, name: String, expect: Expect) -> Tally {
    Tally {
        exe,
        name,
        expect,
        passed: 0,
        failed: 0,
        changed: Vec::new(),
        shown: Vec::new(),
        took: Duration::ZERO,
    }
}

/// One row of the table.
fn row(t: &Tally, exe: &TestExe, runs: usize) -> String {
    let expect = match t.expect {
        Expect::Pass => "passes",
        Expect::Red => "red",
    };
    let stable = if t.changed.is_empty() { "yes" } else { "NO" };
    format!(
        "  {expect:<7} {runs:>4} {:>6} {:>6}  {stable:<6} {:>7}  {}",
        t.passed,
        t.failed,
        secs(t.took),
        who(exe, &t.name)
    )
}

/// One run of one test: whether it passed, and, if it did not do what it
/// must, why and what it printed.
fn once(exe: &TestExe, name: &str, expect: Expect) -> (bool, Option<String>) {
    let run = match ftf::run_alone(exe, name, expect == Expect::Red) {
        Ok(run) => run,
        Err(e) => return (false, Some(e)),
    };
    let passed = run.passed();
    let shown = || first_lines(&run.output, name, SHOWN_LINES).join("\n");
    let change = match expect {
        // A red check is judged exactly as the failing-then-fixed check
        // judges it: failed, naming its bug.
        Expect::Red => ftf::red_verdict(exe, name, &run)
            .err()
            .map(|e| format!("{e}\n{}", shown())),
        Expect::Pass if passed => None,
        Expect::Pass => Some(format!("failed ({})\n{}", run.how(), shown())),
    };
    (passed, change)
}

/// "3, 7, 12".
fn list(runs: &[usize]) -> String {
    runs.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failing_tests_are_read_from_the_harness_output() {
        let output = "running 3 tests\n\
                      test a::ok ... ok\n\
                      test w3_fixed ... FAILED\n\
                      test t10_herd ... FAILED\n\
                      \nfailures:\n";
        assert_eq!(failing_tests(output), ["w3_fixed", "t10_herd"]);
        assert!(failing_tests("test x ... ok\n").is_empty());
    }

    #[test]
    fn the_stages_in_teaching_order_then_the_battery() {
        let stages = stage_names().unwrap();
        assert_eq!(stages.first().map(String::as_str), Some("naive"));
        assert_eq!(stages.last().map(String::as_str), Some(BATTERY));
        assert!(stages.iter().any(|s| s == "wheel"), "{stages:?}");
        assert!(!stages.iter().any(|s| s == "kit"), "{stages:?}");
    }
}
