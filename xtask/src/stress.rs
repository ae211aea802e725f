//! `cargo xtask stress [--runs N] [--replay R]`: the stress test at full size
//! (8 clients, 100 000 tasks, random delays and cancels, stage 8's resets,
//! a shutdown midway) against every finished version, N times, each run
//! with its own replay number; `--replay` replays one run. The progression
//! matrix runs it once; this is the soak.

use crate::cmd::{Cmd, Result};
use std::time::{SystemTime, UNIX_EPOCH};

/// Runs by default, and in CI.
pub const RUNS: usize = 5;

/// Runs the stress example `runs` times; fails at the first run in which a
/// task was lost or accounted twice, naming its replay number.
pub fn run(runs: usize, replay: Option<u64>) -> Result<String> {
    let first = replay.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    });
    let runs = if replay.is_some() { 1 } else { runs };
    for i in 0..runs {
        let replay = first.wrapping_add(i as u64).to_string();
        Cmd::cargo(&[
            "run",
            "--quiet",
            "-p",
            "progression",
            "--example",
            "stress",
            "--",
            "--replay",
            &replay,
        ])
        .run()
        .map_err(|e| format!("{e}\nreplay it: cargo xtask stress --replay {replay}"))?;
    }
    Ok(format!(
        "{runs} run(s) of 100 000 tasks on 7 versions: none lost, none twice"
    ))
}
