//! D6 `done_before_run`: a node crashes between its claim and the run.
//!
//! The job `report` is due at 1000 ms; nodes claim on a lease of 1000 ms.
//! At 1000 ms node a claims it and crashes at once, before it delivers:
//! its connection is gone, with anything it had not committed. The world's
//! time moves to 2500 ms, and node b does a round.
//!
//! - done_before_run.rs: a's claim marked the job done and committed. b
//!   finds nothing to do. The job is done and was never delivered: lost.
//! - claim.rs, the fix: a's claim holds the job `running` on a lease, which
//!   ends at 2000 ms. b takes it over and fires it: one delivery, one
//!   effect.
//!
//! The fix's mirror, the thesis of the stage: if a crashes after it
//! delivered, before it completed, b runs the job again: two deliveries,
//! and still one effect. At least once, effectively once.

mod support;

use durable_timer::{Jobs, Millis, Point, State, Step, Variant};
use support::{Backend, TEST_LEASE, World, nodes};

const JOB: &str = "report";
const DUE: Millis = 1000;
/// When b does its round: after a's lease would have ended.
const LATER: Millis = DUE + TEST_LEASE + 500;

struct Run {
    world: World,
    b: Step,
}

fn done_before_run_scenario(backend: Backend, variant: Variant, crash_at: Point) -> Run {
    let world = World::new(backend);
    world.jobs().schedule_once(JOB, DUE).expect("schedule");
    world.set_time(DUE);
    let mut a = world.node("a", variant).crash_at(crash_at);
    let mut b = world.node("b", variant);
    assert_eq!(a.step(), Ok(Step::Crashed), "a crashed");
    world.set_time(LATER);
    let b_step = b.step().expect("node b's round");
    Run { world, b: b_step }
}

/// The correctness check: a job accepted is delivered at least once, or
/// is still there to be.
fn assert_not_lost(run: &Run) {
    let deliveries = run.world.deliveries(JOB, DUE);
    let state = jobs(run).status(JOB).expect("status").state;
    assert!(
        !deliveries.is_empty() || matches!(state, State::Waiting | State::Running),
        "D6 done_before_run: job `{JOB}` due at {DUE} ms is {state:?} and was delivered {} \
         times: node a crashed between its claim and the run, and at {LATER} ms node b found \
         nothing to do",
        deliveries.len()
    );
}

fn jobs(run: &Run) -> Jobs {
    run.world.jobs()
}

fn reproduces(backend: Backend) {
    let run = done_before_run_scenario(backend, Variant::DoneBeforeRun, Point::Claimed);
    assert_eq!(run.b, Step::Idle, "b found nothing to do");
    assert_eq!(jobs(&run).status(JOB).expect("status").state, State::Done);
    assert_eq!(run.world.deliveries(JOB, DUE).len(), 0, "never delivered");
}

fn fixed(backend: Backend) {
    let run = done_before_run_scenario(backend, Variant::Fixed, Point::Claimed);
    assert!(
        matches!(run.b, Step::Fired(_)),
        "b took over a's claim: {:?}",
        run.b
    );
    assert_not_lost(&run);
    assert_eq!(run.world.effects(JOB, DUE).len(), 1, "one effect");

    // The mirror: a crash after the delivery runs the job twice, and
    // writes its effect once.
    let run = done_before_run_scenario(backend, Variant::Fixed, Point::Delivered);
    assert!(
        matches!(run.b, Step::Fired(_)),
        "b took over a's claim: {:?}",
        run.b
    );
    let deliveries = run.world.deliveries(JOB, DUE);
    assert_eq!(
        nodes(&deliveries).to_string(),
        "a, b",
        "delivered by a, then b"
    );
    let effects = run.world.effects(JOB, DUE);
    assert_eq!(nodes(&effects).to_string(), "b", "one effect, b's");
}

fn on_done_before_run(backend: Backend) {
    let run = done_before_run_scenario(backend, Variant::DoneBeforeRun, Point::Claimed);
    assert_not_lost(&run);
}

#[test]
fn d6_done_before_run_reproduces() {
    reproduces(Backend::Sqlite);
}

#[test]
fn d6_done_before_run_fixed() {
    fixed(Backend::Sqlite);
}

#[test]
#[ignore = "D6 done_before_run: shows the bug in done_before_run.rs"]
fn d6_done_before_run_on_done_before_run() {
    on_done_before_run(Backend::Sqlite);
}

/// The same scenarios on PostgreSQL: a crashed node's connection closes,
/// the server rolls back what it had not committed, with the same outcome.
#[cfg(feature = "postgres")]
mod postgres {
    use super::*;

    #[test]
    fn d6_done_before_run_reproduces() {
        reproduces(Backend::Postgres);
    }

    #[test]
    fn d6_done_before_run_fixed() {
        fixed(Backend::Postgres);
    }

    #[test]
    #[ignore = "D6 done_before_run: shows the bug in done_before_run.rs"]
    fn d6_done_before_run_on_done_before_run() {
        on_done_before_run(Backend::Postgres);
    }
}
