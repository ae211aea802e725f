//! CI's step "durable timers: processes and stress": stage 9's nodes as
//! real processes, and its stress run at full size, on SQLite and on
//! PostgreSQL.
//!
//! `cargo test --workspace` runs `durable-timer`'s `processes` and
//! `stress` tests on SQLite, the stress at a quick size, and the step
//! "durable timers on PostgreSQL" runs them on both stores at that size.
//! This step runs them again with the stress at full size
//! (`DURABLE_STRESS=full`: more nodes, jobs, faults and steps), nodes on
//! threads and in processes, on each store. Each stress run prints a line
//! of counts; the step's note passes them on. A run that fails names its
//! replay number, and `DURABLE_STRESS_REPLAY` replays its plan.

use crate::cmd::{Cmd, Result, banner, secs};
use std::time::Instant;

/// The stress runs the step expects: threads and processes, on each store.
const RUNS: usize = 4;

/// Runs the step; a note with each stress run's counts.
pub fn run() -> Result<String> {
    banner("durable timers: nodes in processes, and the stress run at full size");
    let t = Instant::now();
    let cmd = Cmd::cargo(&[
        "test",
        "-p",
        "durable-timer",
        "--features",
        "postgres",
        "--test",
        "processes",
        "--test",
        "stress",
        "--",
        "--nocapture",
    ])
    .env("DURABLE_STRESS", "full");
    println!("$ {}", cmd.display());
    let out = cmd.read()?;
    print!("{out}");
    // libtest may print a test's name and its output on one line.
    let runs: Vec<String> = out
        .lines()
        .filter_map(|line| {
            line.find("stress, ")
                .map(|at| &line[at + "stress, ".len()..])
        })
        .filter_map(|line| {
            let (what, rest) = line.split_once(": replay ")?;
            let (_, counts) = rest.split_once("plan): ")?;
            Some(format!("{what}: {counts}"))
        })
        .collect();
    if runs.len() != RUNS {
        return Err(format!(
            "{} stress runs printed their counts, not {RUNS}",
            runs.len()
        ));
    }
    Ok(format!("{} in {}", runs.join("; "), secs(t.elapsed())))
}
