//! `cargo xtask test-times`: where `cargo test --workspace` spends its
//! time. Cargo runs the test binaries one after another, so the run costs
//! about the sum of each binary's slowest test; this times every binary
//! alone, as `cargo test` would run it, and lists the slowest. The doc
//! tests are not in the list (rustdoc compiles them during the run): the
//! total says how much time they and cargo take besides.

use crate::cargo::{self, TestExe};
use crate::cmd::{Cmd, Result, secs};
use std::time::Duration;

/// How many of the slowest binaries are listed.
const SHOWN: usize = 25;
/// How long one binary may run before it counts as hung.
const LIMIT: Duration = Duration::from_secs(300);

/// Builds the tests, times each binary, prints the slowest [`SHOWN`].
pub fn run() -> Result {
    let packages = cargo::workspace()?;
    let build = Cmd::cargo(&[
        "test",
        "--workspace",
        "--no-run",
        "--message-format=json-render-diagnostics",
    ]);
    let exes = cargo::test_executables(build, &packages)?;
    let mut times: Vec<(Duration, &TestExe)> = Vec::new();
    let mut failed = Vec::new();
    for exe in &exes {
        let run = exe.cmd(&["-q"]).capture(LIMIT)?;
        if !run.passed() {
            failed.push(format!("{} ({})", exe.selector(), run.how()));
        }
        times.push((run.took, exe));
    }
    times.sort_by_key(|t| std::cmp::Reverse(t.0));
    let total: Duration = times.iter().map(|(t, _)| *t).sum();
    println!(
        "{:>8}  test binary (run alone, from its package's directory)",
        "time"
    );
    for (took, exe) in times.iter().take(SHOWN) {
        println!("{:>6.2} s  {}", took.as_secs_f64(), exe.selector());
    }
    println!(
        "{} binaries in {}; `cargo test --workspace` adds the doc tests and cargo's own time",
        times.len(),
        secs(total)
    );
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("failed: {}", failed.join(", ")))
    }
}
