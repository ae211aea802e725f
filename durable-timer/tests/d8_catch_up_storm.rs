//! D8 `catch_up_storm`: a recurring job after downtime.
//!
//! The job `tick` runs every 1000 ms from 1000 ms, misfire policy
//! `fire_once`. A node fires the occurrence at 1000 ms; then every node
//! is down until 151000 ms: 150 occurrences (2000 to 151000 ms) are missed.
//! A node comes back and does rounds until none is due.
//!
//! - every_missed_period.rs: each round runs the oldest missed occurrence
//!   and moves the job one period on, still in the past: 150 runs in a
//!   burst.
//! - claim.rs and misfire.rs, the fix: the claim computes the latest
//!   missed occurrence (151000 ms) and runs it once; the job goes on from
//!   152000 ms. A `skip` job runs none of them.

mod support;

use durable_timer::{Millis, Misfire, Node, Step, Variant};
use support::{Backend, World};

const JOB: &str = "tick";
const PERIOD: Millis = 1000;
const FIRST: Millis = 1000;
/// How many occurrences the downtime missed.
const MISSED: Millis = 150;
/// When a node is back: the last missed occurrence.
const BACK: Millis = FIRST + MISSED * PERIOD;
/// A bound on the rounds after downtime, well above the storm's.
const MAX_ROUNDS: usize = 1000;

/// Rounds of `node` until one is idle; how many fired.
fn rounds(node: &mut Node) -> usize {
    let mut fired = 0;
    for _ in 0..MAX_ROUNDS {
        match node.step().expect("a round") {
            Step::Idle => return fired,
            Step::Fired(_) => fired += 1,
            other => panic!("an unexpected round: {other:?}"),
        }
    }
    panic!("still firing after {MAX_ROUNDS} rounds");
}

/// The job `id` fired once at its first occurrence, the nodes down, and
/// back at [`BACK`]: the occurrences the node delivered after downtime.
fn catch_up_storm_scenario(
    backend: Backend,
    variant: Variant,
    misfire: Misfire,
) -> (World, Vec<Millis>) {
    let world = World::new(backend);
    world
        .jobs()
        .schedule_every(JOB, FIRST, PERIOD, misfire)
        .expect("schedule");
    world.set_time(FIRST);
    let mut node = world.node("a", variant);
    assert_eq!(rounds(&mut node), 1, "the first occurrence, on time");
    world.set_time(BACK);
    rounds(&mut node);
    let after: Vec<Millis> = world
        .all_deliveries()
        .into_iter()
        .map(|(_, occurrence)| occurrence)
        .filter(|&occurrence| occurrence > FIRST)
        .collect();
    (world, after)
}

/// The correctness check: after downtime, at most one run.
fn assert_no_storm(after: &[Millis]) {
    assert!(
        after.len() <= 1,
        "D8 catch_up_storm: job `{JOB}` (every {PERIOD} ms) was down from {FIRST} ms to {BACK} ms, \
         and on waking was delivered {} times in a burst (occurrences {} to {} ms)",
        after.len(),
        after.first().copied().unwrap_or_default(),
        after.last().copied().unwrap_or_default()
    );
}

fn reproduces(backend: Backend) {
    let (_, after) =
        catch_up_storm_scenario(backend, Variant::EveryMissedPeriod, Misfire::FireOnce);
    let every_missed: Vec<Millis> = (1..=MISSED).map(|k| FIRST + k * PERIOD).collect();
    assert_eq!(after, every_missed, "every missed occurrence, oldest first");
}

fn fixed(backend: Backend) {
    let (world, after) = catch_up_storm_scenario(backend, Variant::Fixed, Misfire::FireOnce);
    assert_eq!(after, [BACK], "the latest missed occurrence, once");
    assert_no_storm(&after);
    let status = world.jobs().status(JOB).expect("status");
    assert_eq!(status.due_at, BACK + PERIOD, "on from the next one");

    let (world, after) = catch_up_storm_scenario(backend, Variant::Fixed, Misfire::Skip);
    assert_eq!(after, [] as [Millis; 0], "skip: none of the missed ones");
    let status = world.jobs().status(JOB).expect("status");
    assert_eq!(status.due_at, BACK + PERIOD, "on from the next one");
}

fn on_every_missed_period(backend: Backend) {
    let (_, after) =
        catch_up_storm_scenario(backend, Variant::EveryMissedPeriod, Misfire::FireOnce);
    assert_no_storm(&after);
}

#[test]
fn d8_catch_up_storm_reproduces() {
    reproduces(Backend::Sqlite);
}

#[test]
fn d8_catch_up_storm_fixed() {
    fixed(Backend::Sqlite);
}

#[test]
#[ignore = "D8 catch_up_storm: shows the bug in every_missed_period.rs"]
fn d8_catch_up_storm_on_every_missed_period() {
    on_every_missed_period(Backend::Sqlite);
}

/// The same scenarios on PostgreSQL, with the same outcome.
#[cfg(feature = "postgres")]
mod postgres {
    use super::*;

    #[test]
    fn d8_catch_up_storm_reproduces() {
        reproduces(Backend::Postgres);
    }

    #[test]
    fn d8_catch_up_storm_fixed() {
        fixed(Backend::Postgres);
    }

    #[test]
    #[ignore = "D8 catch_up_storm: shows the bug in every_missed_period.rs"]
    fn d8_catch_up_storm_on_every_missed_period() {
        on_every_missed_period(Backend::Postgres);
    }
}
