//! How the loom models are built: in a target directory of their own, with
//! `--cfg loom` added to the caller's flags; and one model file run the
//! way a class sees it ([`show`]), which both `cargo xtask loom PACKAGE
//! MODEL` and the book's captured outputs print.

use std::time::Duration;

use crate::cargo::{self, TestExe};
use crate::cmd::{Cmd, Result, root};
use crate::libtest::excerpt;
use crate::wrap::{COLUMNS, wrap, wrap_command};

/// The preemption bound the models are checked with.
pub const MAX_PREEMPTIONS: &str = "3";

/// How long one model binary may run.
pub const LIMIT: Duration = Duration::from_secs(600);

/// Where the loom builds go, apart from the normal ones so neither
/// invalidates the other: `loom/` in cargo's target directory.
pub fn target_dir() -> String {
    crate::cmd::target_dir().join("loom").display().to_string()
}

/// `RUSTFLAGS` with `--cfg loom` added to whatever the caller already set.
pub fn rustflags() -> String {
    match std::env::var("RUSTFLAGS") {
        Ok(flags) if !flags.trim().is_empty() => format!("{flags} --cfg loom"),
        _ => "--cfg loom".to_string(),
    }
}

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

/// One model file's run, as [`show`] prints it.
pub struct Shown {
    /// The command, then the run: cut to what matters unless `full`.
    pub text: String,
    /// Whether every model in the file passed.
    pub passed: bool,
}

/// Builds and runs one model file (its buggy models if it has any, else
/// its fixed ones) with `LOOM_LOCATION=1`, so a deadlock names where
/// each thread is blocked, and `RUST_BACKTRACE=0`. A failing run is cut
/// to the lines the book reads ([`crate::libtest::excerpt`]): loom's
/// panic and its deadlock line come first, and the backtrace that Rust
/// prints for the panic in a destructor (over a hundred lines, even with
/// `RUST_BACKTRACE=0`) is left out unless `full`.
pub fn show(package: &str, model: &str, full: bool) -> Result<Shown> {
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
    let typed = cmd.display().replace(&format!("{}/", root().display()), "");
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

/// "3 passed; 0 failed; 1 ignored" from libtest's result line.
pub fn summary_line(output: &str) -> String {
    output
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("test result: ok. "))
        .map(|l| l.split("; finished").next().unwrap_or(l).to_string())
        .unwrap_or_else(|| "passed".to_string())
}
