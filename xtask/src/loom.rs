//! `cargo xtask loom`: the loom models.
//!
//! Every integration test named `loom_*` is a set of loom models, compiled
//! only under `--cfg loom`. Its non-ignored models must pass; each ignored
//! model (a buggy version) runs alone and must fail. loom aborts the whole
//! process when it finds a deadlock, so only the exit status is judged, and
//! the output must say "deadlock" or name the bug's ID.
//!
//! `cargo xtask loom PACKAGE MODEL` runs one model file the way a class
//! sees it ([`devkit::loom::show`]): locations on, and the run cut to the lines the book
//! reads (the captured outputs in the book are made by the same function).

use crate::cargo;
use crate::cmd::{Result, banner, secs};
use crate::ftf::{bug_id, last_lines, panic_message, red};
pub use devkit::loom::{
    LIMIT, MAX_PREEMPTIONS, build, models, rustflags, show, summary_line, target_dir,
};

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

/// `cargo xtask loom PACKAGE MODEL [--full]`: runs one model file's
/// buggy models (or its fixed ones, when it has none) and prints it as [`devkit::loom::show`] does;
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

/// The ignored tests' reasons from a libtest run's output.
fn ignore_reasons(output: &str) -> Vec<(String, String)> {
    output
        .lines()
        .filter_map(|l| l.strip_prefix("test "))
        .filter_map(|l| l.split_once(" ... ignored, "))
        .map(|(name, reason)| (name.to_string(), reason.trim().to_string()))
        .collect()
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
