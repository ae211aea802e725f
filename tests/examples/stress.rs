//! Nothing lost under stress, at full size: 8 clients, 100 000 tasks with
//! random delays and random cancels (and stage 8's resets), a shutdown
//! midway, against every finished version. Prints each version's tally
//! and the replay number; exits 1 if any task was lost or accounted twice.
//!
//! ```text
//! cargo run --release -p progression --example stress -- [--tasks N] [--replay R]
//! ```
//! `cargo xtask stress` runs it so.

use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use progression::stress::{self, Plan};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut plan = Plan::full(fresh_replay());
    while let Some(flag) = args.next() {
        let value = args.next().and_then(|v| v.parse::<u64>().ok());
        match (flag.as_str(), value) {
            ("--tasks", Some(n)) => plan = plan.with_tasks(n as usize),
            ("--replay", Some(s)) => plan.replay = s,
            _ => {
                eprintln!("usage: stress [--tasks N] [--replay R]");
                return ExitCode::from(2);
            }
        }
    }
    println!(
        "stress: {} clients, {} tasks, delays up to {} ms, one in {} cancelled (and, where the \
         version can, one in {} reset), a shutdown midway; replay {}",
        plan.clients,
        plan.tasks,
        plan.max_delay.as_millis(),
        plan.cancel_one_in,
        plan.reset_one_in,
        plan.replay
    );
    let mut failed = false;
    for version in stress::all() {
        let tally = (version.run)(plan);
        let verdict = if tally.all_accounted() {
            "ok"
        } else {
            "LOST OR TWICE"
        };
        println!("{:<44} {verdict:<14} {tally}", version.name);
        failed |= !tally.all_accounted();
    }
    if failed {
        println!("replay: cargo xtask stress --replay {}", plan.replay);
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// A new replay number each run (the clock's nanoseconds), printed so it can be
/// given back with `--replay`.
fn fresh_replay() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1)
}
