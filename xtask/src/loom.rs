//! `cargo xtask loom`: the loom models.
//!
//! Every integration test named `loom_*` is a set of loom models, compiled
//! only under `--cfg loom`. Its non-ignored models must pass; each ignored
//! model (a buggy version) runs alone and must fail. loom aborts the whole
//! process when it finds a deadlock, so only the exit status is judged, and
//! the output must say "deadlock" or name the bug's ID.
//!
//! `cargo xtask loom PACKAGE MODEL` runs one model file the way a class
//! sees it ([`show`]): locations on, and the run cut to the lines the book
//! reads (the captured outputs in the book are made by the same function).

use crate::cargo::{self, TestExe};
use crate::cmd::{Cmd, Result, banner, secs};
use crate::ftf::{bug_id, last_lines, panic_message, red};
use std::time::Duration;

/// The preemption bound the models are checked with.
pub const MAX_PREEMPTIONS: &str = "3";

pub use devkit::loom::{rustflags, target_dir};

/// How long one model binary may run.
const LIMIT: Duration = Duration::from_secs(600);

/// The packages that have loom models, with their `loom_*` test targets.
pub fn models(packages: &[cargo::Package]) -> Vec<(String, Vec<String>)> {
    packages
        .iter()
        .map(|p| (p.name.clone(), p.loom_tests()))
        .filter(|(_, tests)| !tests.is_empty())
        .collect()
}

/// Builds the models of one package in release mode under `--cfg loom`.
pub fn build(package: &str, tests: &[String], packages: &[cargo::Package]) -> Result<Vec<TestExe>> {
    let dir = target_dir();
    let mut cmd = Cmd::cargo(&["test", "--release", "--target-dir", &dir, "-p", package]);
    for t in tests {
        cmd = cmd.args(["--test", t.as_str()]);
    }
    let cmd = cmd
        .args(["--no-run", "--message-format=json"])
        .env("RUSTFLAGS", &rustflags());
    cargo::test_executables(cmd, packages)
}

/// Runs every model; returns how many model binaries passed and how many
/// buggy models failed as they should; fails naming each one that broke the
/// rule.
pub fn run() -> Result<(usize, usize)> {
    banner(&format!(
        "loom models (release, --cfg loom, LOOM_MAX_PREEMPTIONS={MAX_PREEMPTIONS})"
    ));
    let packages = cargo::workspace()?;
    // The model-it exercises' models are judged by their grader, which
    // picks the version each run checks: `cargo xtask model-check --verify`.
    let models: Vec<_> = models(&packages)
        .into_iter()
        .filter(|(package, _)| package != crate::model_check::PACKAGE)
        .collect();
    if models.is_empty() {
        println!("no loom_* test targets yet: nothing to check");
        return Ok((0, 0));
    }
    let mut problems = Vec::new();
    let (mut passed, mut shown) = (0, 0);
    for (package, tests) in &models {
        for exe in build(package, tests, &packages)? {
            if !tests.contains(&exe.target) {
                continue;
            }
            let who = exe.selector();
            // The models of fixed versions: all must pass.
            let run = exe
                .cmd(&[])
                .env("LOOM_MAX_PREEMPTIONS", MAX_PREEMPTIONS)
                .capture(LIMIT)?;
            if run.passed() {
                println!(
                    "  ok  {who}: {} ({})",
                    summary_line(&run.output),
                    secs(run.took)
                );
                passed += 1;
            } else {
                let problem = format!(
                    "{who}: a model that must pass failed ({}): {}",
                    run.how(),
                    panic_message(&run.output).unwrap_or_else(|| last_lines(&run.output, 8))
                );
                println!("  FAILED: {problem}");
                problems.push(problem);
            }
            // libtest printed each ignored model's reason in that run:
            // `test x ... ignored, C1 lost_wakeup: loom finds it in racy.rs`.
            let reasons = ignore_reasons(&run.output);
            // The models of buggy versions: each alone, each must fail.
            for name in cargo::ignored_tests(&exe)? {
                let reason = reasons
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, r)| r.clone());
                let who = format!("{who} {name}");
                let run = exe
                    .cmd(&["--ignored", "--exact", &name])
                    .env("LOOM_MAX_PREEMPTIONS", MAX_PREEMPTIONS)
                    .capture(LIMIT)?;
                let id = bug_id(&name).or_else(|| {
                    reason
                        .as_deref()
                        .and_then(|r| r.split_whitespace().next())
                        .and_then(|w| bug_id(&w.to_ascii_lowercase()))
                });
                let says = run.output.to_lowercase().contains("deadlock")
                    || id
                        .as_ref()
                        .is_some_and(|id| run.output.contains(id.as_str()));
                if run.passed() {
                    problems.push(format!(
                        "ignored means shows a bug: {who} passed under loom"
                    ));
                } else if run.status.is_none() {
                    problems.push(format!("{who}: still running after {}", secs(LIMIT)));
                } else if !says {
                    problems.push(format!(
                        "{who} failed ({}) without saying deadlock or its ID: {}",
                        run.how(),
                        last_lines(&run.output, 5)
                    ));
                } else {
                    let what = panic_message(&run.output).unwrap_or_else(|| "deadlock".to_string());
                    let what: String = what.chars().take(100).collect();
                    let headline = reason.unwrap_or_else(|| id.unwrap_or_default());
                    println!(
                        "  {}\n      {who} ({}, {})",
                        red(&format!("{headline}: {what}")),
                        run.how(),
                        secs(run.took)
                    );
                    shown += 1;
                    continue;
                }
                println!("  FAILED: {}", problems.last().expect("just pushed"));
            }
        }
    }
    if problems.is_empty() {
        println!(
            "loom: {passed} model binaries passed; {shown} buggy model(s) failed, as they should"
        );
        Ok((passed, shown))
    } else {
        Err(format!(
            "loom found {} problem(s):\n  {}",
            problems.len(),
            problems.join("\n  ")
        ))
    }
}

/// One model file's run, as [`show`] prints it.
pub struct Shown {
    /// The command, then the run: cut to what matters unless `full`.
    pub text: String,
    /// Whether every model in the file passed.
    pub passed: bool,
}

/// `cargo xtask loom PACKAGE MODEL [--full]`: runs one model file's
/// buggy models (or its fixed ones, when it has none) and prints it as [`show`] does;
/// fails when a model failed (as `cargo test` would).
pub fn demo(package: &str, model: &str, full: bool, no_run: bool) -> Result {
    if no_run {
        // `cargo xtask prepare`: the build alone.
        return build(package, &[model.to_string()], &cargo::workspace()?).map(|_| ());
    }
    let shown = show(package, model, full)?;
    print!("{}", shown.text);
    if shown.passed {
        Ok(())
    } else {
        Err(format!(
            "loom found a failure in {package}'s tests/{model}.rs (as the book shows)"
        ))
    }
}

/// Builds and runs one model file (its buggy models if it has any, else
/// its fixed ones) with `LOOM_LOCATION=1`, so a deadlock names where
/// each thread is blocked, and `RUST_BACKTRACE=0`. A failing run is cut
/// to the lines the book reads ([`crate::timelines::excerpt`]): loom's
/// panic and its deadlock line come first, and the backtrace that Rust
/// prints for the panic in a destructor (over a hundred lines, even with
/// `RUST_BACKTRACE=0`) is left out unless `full`.
pub fn show(package: &str, model: &str, full: bool) -> Result<Shown> {
    use crate::timelines::{COLUMNS, excerpt, wrap, wrap_command};
    let packages = cargo::workspace()?;
    let Some(owner) = packages.iter().find(|p| p.name == package) else {
        let with: Vec<String> = models(&packages).into_iter().map(|(p, _)| p).collect();
        return Err(format!(
            "no package `{package}` (the packages with loom models: {})",
            with.join(", ")
        ));
    };
    let files = owner.loom_tests();
    if !files.contains(&model.to_string()) {
        return Err(format!(
            "{package} has no loom model file `{model}` (it has: {})",
            files.join(", ")
        ));
    }
    // Build first, so a compile error shows as one and the run below holds
    // no compiler output.
    let exes = build(package, &[model.to_string()], &packages)?;
    // A file with a buggy model runs those (`--ignored`: the failure is
    // what there is to see); a file of fixed models runs them all.
    let mut buggy = false;
    for exe in exes.iter().filter(|e| e.target == model) {
        buggy |= !cargo::ignored_tests(exe)?.is_empty();
    }
    let which = if buggy {
        "--ignored"
    } else {
        "--include-ignored"
    };
    let cmd = Cmd::cargo(&[
        "test",
        "-p",
        package,
        "--release",
        "--target-dir",
        &target_dir(),
        "--test",
        model,
        "--",
        which,
    ])
    .env("RUST_BACKTRACE", "0")
    .env("LOOM_LOCATION", "1")
    .env("RUSTFLAGS", &rustflags())
    .env("LOOM_MAX_PREEMPTIONS", MAX_PREEMPTIONS);
    let run = cmd.capture(LIMIT)?;
    // The target directory as a reader types it, from the workspace's top.
    let typed = cmd
        .display()
        .replace(&format!("{}/", crate::cmd::root().display()), "");
    let head = wrap_command(&format!("$ {typed}"), COLUMNS);
    let body = if full {
        run.output.clone()
    } else if run.passed() {
        format!("{}\n", summary_line(&run.output))
    } else {
        format!(
            "{}[backtraces and cargo's build lines left out: `--full` prints the whole run]\n",
            wrap(&excerpt(&run.output), COLUMNS)
        )
    };
    Ok(Shown {
        text: format!("{head}\n{body}"),
        passed: run.passed(),
    })
}

/// The ignored tests' reasons from a libtest run's output.
fn ignore_reasons(output: &str) -> Vec<(String, String)> {
    output
        .lines()
        .filter_map(|l| l.strip_prefix("test "))
        .filter_map(|l| l.split_once(" ... ignored, "))
        .map(|(name, reason)| (name.to_string(), reason.trim().to_string()))
        .collect()
}

/// "3 passed; 0 failed; 1 ignored" from libtest's result line.
fn summary_line(output: &str) -> String {
    output
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("test result: ok. "))
        .map(|l| l.split("; finished").next().unwrap_or(l).to_string())
        .unwrap_or_else(|| "passed".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_ignore_reasons() {
        let out = "running 1 test\ntest loom_racy_model ... ignored, C1 lost_wakeup: loom finds it in racy.rs\n";
        assert_eq!(
            ignore_reasons(out),
            vec![(
                "loom_racy_model".to_string(),
                "C1 lost_wakeup: loom finds it in racy.rs".to_string()
            )]
        );
    }
}
