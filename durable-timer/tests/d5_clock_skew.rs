//! D5 `clock_skew`: a node whose clock runs ahead.
//!
//! The job `report` is due at 10000 ms. Node a's own clock runs 5000 ms
//! ahead of the store's (NTP gave up on it, or its VM was paused and
//! resumed); node b's is right.
//!
//! - node_clock.rs: nodes judge due times and leases by their own clocks.
//!   At 5000 ms by the store, a reads 10000 ms and fires the job, 5000 ms
//!   early. And at 10000 ms, while b runs the job on a lease to 11000 ms,
//!   a reads 15000 ms, finds the lease over, and takes the job over: it
//!   runs twice, with no crash and no stall.
//! - claim.rs, the fix: the store's clock judges (`{now}`), whatever a
//!   node's clock says. a fires nothing at 5000 ms, and nothing while b's
//!   lease is live.

mod support;

use durable_timer::{Millis, RUNNING, Step, Variant};
use kit::pause::Pause;
use support::{Backend, TEST_LEASE, World, nodes};

const JOB: &str = "report";
const DUE: Millis = 10_000;
/// How far a's clock runs ahead.
const SKEW: Millis = 5000;
/// When a does its round: its clock reads the due time.
const EARLY: Millis = DUE - SKEW;

/// a's round at 5000 ms by the store (10000 ms by its clock); then the
/// world's time moves to the due time.
fn early_scenario(backend: Backend, variant: Variant) -> (World, Step) {
    let world = World::new(backend);
    world.jobs().schedule_once(JOB, DUE).expect("schedule");
    world.set_time(EARLY);
    let mut a = world.skewed_node("a", variant, SKEW);
    let step = a.step().expect("a's round");
    (world, step)
}

/// b runs the job, held before completing; a does a round meanwhile.
fn live_lease_scenario(backend: Backend, variant: Variant) -> (World, Step) {
    let world = World::new(backend);
    world.jobs().schedule_once(JOB, DUE).expect("schedule");
    world.set_time(DUE);
    let b = world.node("b", variant);
    let mut a = world.skewed_node("a", variant, SKEW);
    let pause = Pause::arm(RUNNING, b.thread_name());
    let b = b.spawn_step().expect("start b");
    pause.wait_reached();
    let a_step = a.step().expect("a's round");
    pause.release();
    let _ = b.join();
    (world, a_step)
}

/// The correctness check: nothing is delivered before it is due, by the
/// store's clock.
fn assert_not_early(world: &World) {
    let deliveries = world.deliveries(JOB, DUE);
    let early: Vec<_> = deliveries.iter().filter(|d| d.at < DUE).cloned().collect();
    assert!(
        early.is_empty(),
        "D5 clock_skew: job `{JOB}` due at {DUE} ms was delivered at {} ms by node {}, whose \
         clock runs {SKEW} ms ahead of the store's",
        early[0].at,
        nodes(&early)
    );
}

fn reproduces(backend: Backend) {
    let (world, step) = early_scenario(backend, Variant::NodeClock);
    assert!(matches!(step, Step::Fired(_)), "a fired early: {step:?}");
    assert_eq!(
        world.deliveries(JOB, DUE)[0].at,
        EARLY,
        "delivered at 5000 ms"
    );

    let (world, a_step) = live_lease_scenario(backend, Variant::NodeClock);
    assert!(
        matches!(a_step, Step::Fired(_)),
        "a took over b's live lease: {a_step:?}"
    );
    let deliveries = world.deliveries(JOB, DUE);
    assert_eq!(
        nodes(&deliveries).to_string(),
        "b, a",
        "b, then a, both at {DUE} ms, while b's lease ran to {} ms",
        DUE + TEST_LEASE
    );
}

fn fixed(backend: Backend) {
    let (world, step) = early_scenario(backend, Variant::Fixed);
    assert_eq!(step, Step::Idle, "a fired nothing early");
    world.set_time(DUE);
    let mut a = world.skewed_node("a", Variant::Fixed, SKEW);
    assert!(
        matches!(a.step(), Ok(Step::Fired(_))),
        "a fires it when due"
    );
    assert_not_early(&world);

    let (world, a_step) = live_lease_scenario(backend, Variant::Fixed);
    assert_eq!(a_step, Step::Idle, "a left b's live lease alone");
    assert_eq!(nodes(&world.deliveries(JOB, DUE)).to_string(), "b");
}

fn on_node_clock(backend: Backend) {
    let (world, _) = early_scenario(backend, Variant::NodeClock);
    assert_not_early(&world);
}

#[test]
fn d5_clock_skew_reproduces() {
    reproduces(Backend::Sqlite);
}

#[test]
fn d5_clock_skew_fixed() {
    fixed(Backend::Sqlite);
}

#[test]
#[ignore = "D5 clock_skew: shows the bug in node_clock.rs"]
fn d5_clock_skew_on_node_clock() {
    on_node_clock(Backend::Sqlite);
}

/// The same scenarios on PostgreSQL, with the same outcome.
#[cfg(feature = "postgres")]
mod postgres {
    use super::*;

    #[test]
    fn d5_clock_skew_reproduces() {
        reproduces(Backend::Postgres);
    }

    #[test]
    fn d5_clock_skew_fixed() {
        fixed(Backend::Postgres);
    }

    #[test]
    #[ignore = "D5 clock_skew: shows the bug in node_clock.rs"]
    fn d5_clock_skew_on_node_clock() {
        on_node_clock(Backend::Postgres);
    }
}
