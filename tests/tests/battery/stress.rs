//! Nothing lost under stress, as a matrix column: each finished version
//! runs the stress plan of `progression::stress` (8 clients, random delays
//! and cancels, a shutdown midway) once, at a tenth of its full size:
//! [`TASKS`] tasks. The full size, 100 000 tasks, is CI's: `cargo xtask
//! stress --runs N` runs it N times (CI runs 5), each with a new replay
//! number; the matrix asks the same question in the default test run,
//! where a full run on every finished version would cost it a second or
//! more. The number is in the details; `STRESS_REPLAY=R` replays it.

use std::time::{SystemTime, UNIX_EPOCH};

use progression::stress::{self, Plan};

use super::scenarios::{Outcome, Verdict};
use super::versions::Version;

/// How many tasks the matrix's run offers: a tenth of the full plan's.
pub const TASKS: usize = 10_000;

/// The run's replay number: `STRESS_REPLAY`, or the clock's nanoseconds.
fn replay() -> u64 {
    std::env::var("STRESS_REPLAY")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(1)
        })
}

/// Every task accounted for exactly once, for the finished versions; n/a
/// for the others, which have no per-task report to account with.
pub fn nothing_lost(version: &Version) -> Outcome {
    let Some(fixed) = stress::all().into_iter().find(|f| f.name == version.name) else {
        return Outcome {
            verdict: Verdict::NotApplicable,
            detail: "not a finished version: a task discarded by its cancel or shutdown \
                     is not reported"
                .to_owned(),
            joined: true.into(),
        };
    };
    let plan = Plan::full(replay()).with_tasks(TASKS);
    let tally = (fixed.run)(plan);
    Outcome {
        verdict: if tally.all_accounted() {
            Verdict::Accounted(tally.tasks)
        } else {
            Verdict::Lost {
                lost: tally.lost,
                twice: tally.twice,
            }
        },
        detail: format!("{tally}; replay {}", plan.replay),
        // `run` joins every thread the version started (`finish`).
        joined: true.into(),
    }
}
