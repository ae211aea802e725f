//! `cargo xtask bench-report [--write]` and `cargo xtask bench --quick`:
//! the targets of the last benchmark run (criterion's estimates under
//! `target/criterion`, the perf benches' results under
//! `target/bench-results`), each figure as a ratio against a peer or a
//! floor measured in the same run, each target with its verdict, missed
//! ones too, grouped under headings. `--write` also writes them and the
//! performance chapter's other tables, one table per file (at most four
//! short columns, so that each fits a printed page), and its plots to
//! `book/src/generated/perf/`. The chapter includes every file by name and
//! puts its own words between them, so a new run changes no prose.
//!
//! Its files, in reading order:
//!
//! - this file: the two commands, [`run`] and [`quick`];
//! - `load.rs`: what the last run measured, read back from its JSON; the
//!   names the benches give their subjects; a fair bench's spread;
//! - `targets.rs`: every target and its verdict, and their table;
//! - `tables.rs`: the chapter's other tables, one per file;
//! - `plots.rs`: the chapter's plots, as SVG;
//! - `tests.rs`: all of it on a made-up run shaped like a real one.

mod load;
mod plots;
mod tables;
mod targets;
#[cfg(test)]
mod tests;

use devkit::cmd::{Cmd, Result, root};
use devkit::markdown::figureless;

use load::Run;
use plots::plots;
use tables::tables;
use targets::{table, targets};

/// Where `--write` puts the table and the plots.
const OUT: &str = "book/src/generated/perf";

/// Every bench once, small: the workload benches in quick mode
/// (`PERF_QUICK=1`), `durable` on PostgreSQL too, criterion's with
/// `--quick` and short warm-up and measurement times; then the report
/// (not written: a quick run's numbers are not the book's). CI's check
/// that every bench runs and the report reads them all.
pub fn quick() -> Result<String> {
    Cmd::cargo(&[
        "bench",
        // `perf` alone: a command that also builds a stage's tests or
        // benches turns kit's pause points on for everything it builds
        // (feature unification), and the benches refuse to time that.
        "--package",
        "perf",
        // `durable`'s PostgreSQL half, on a throwaway server it starts
        // (`kit::pg`) from the machine's installation.
        "--features",
        "postgres",
        // Bench targets only: libtest's harness in the library's own
        // target knows none of criterion's flags.
        "--bench",
        "*",
        "--",
        "--quick",
        "--warm-up-time",
        "0.05",
        "--measurement-time",
        "0.1",
    ])
    .env("PERF_QUICK", "1")
    .run()?;
    run(false, None)?;
    refuses_pause_points()?;
    Ok("every bench once; the report read them; one built with pause points refused".to_owned())
}

/// What `perf::require_shipped_build` prints before it refuses.
const REFUSAL: &str = "kit was built with its `pause-points` feature";

/// Builds one bench with kit's pause points on, as a command that also
/// builds a stage's tests would, and checks that it refuses to time that
/// build, with its own message: the benches time what users get, and a
/// check that never fires would not show it.
fn refuses_pause_points() -> Result {
    let bench = Cmd::cargo(&[
        "bench",
        "--package",
        "perf",
        "--bench",
        "scheduled_pool",
        "--features",
        "kit/pause-points",
    ])
    .env("PERF_QUICK", "1");
    let ran = bench.capture(std::time::Duration::from_secs(1200))?;
    if ran.passed() || !ran.output.contains(REFUSAL) {
        return Err(format!(
            "`{}` should refuse to time a build with pause points ({REFUSAL}); it ended with {}:\n{}",
            bench.display(),
            ran.how(),
            ran.output
        ));
    }
    println!(
        "a bench built with pause points refused, as it must ({})",
        ran.how()
    );
    Ok(())
}

/// Prints the targets; with `write`, also writes them, the other tables
/// and the plots to `OUT` (`book/src/generated/perf`).
pub fn run(write: bool, only: Option<&str>) -> Result {
    let run = Run::load()?;
    let groups = targets(&run);
    let table = table(&run, &groups);
    print!("{table}");
    if !write {
        return Ok(());
    }
    let out = root().join(OUT);
    std::fs::create_dir_all(&out).map_err(|e| format!("{OUT}: {e}"))?;
    let mut all = vec![("targets.md", table)];
    all.extend(tables(&run));
    if let Some(only) = only
        && !all.iter().any(|(name, _)| *name == only)
    {
        let names: Vec<&str> = all.iter().map(|(name, _)| *name).collect();
        return Err(format!(
            "--only {only}: no such table ({})",
            names.join(", ")
        ));
    }
    for (name, text) in all {
        if only.is_some_and(|o| o != name) {
            continue;
        }
        // A table of dashes would leave the chapter's prose pointing at
        // nothing: the run did not measure it, so the last one stands.
        if figureless(&text) {
            println!("{OUT}/{name}: this run measured none of it; the one there is kept");
            continue;
        }
        std::fs::write(out.join(name), text).map_err(|e| format!("{OUT}/{name}: {e}"))?;
        println!("wrote {OUT}/{name}");
    }
    if only.is_none() {
        plots(&run, &out)?;
        println!("wrote the plots to {OUT}");
    }
    Ok(())
}
