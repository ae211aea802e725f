//! D2 `recurring_aba`: a recurring job, two nodes, and a claim guarded by
//! the job's state.
//!
//! The job `tick` runs every 1000 ms from 1000 ms; the world's time is
//! 1000 ms, so occurrence T1 = 1000 ms is due. Node a starts its round and
//! is held at its pause point; node b does a whole round; then a goes on.
//!
//! - state_guard_claim.rs: a is held after its look ("`tick`, due at
//!   1000") and before its mark. b claims T1, runs it, and completes it:
//!   the job is `waiting` again, for T2 = 2000 ms. a's mark asks only
//!   "still waiting?": yes, again. a runs T1 a second time.
//! - claim.rs, the fix: a is held before its one-statement claim. b runs
//!   T1; a's claim finds nothing due (T2 is not yet). When T2 comes, one
//!   node runs T2: each occurrence once.

mod support;

use durable_timer::{CLAIMING, Millis, Misfire, Step, Variant, state_guard_claim};
use kit::pause::Pause;
use support::{Backend, World, nodes};

const JOB: &str = "tick";
const PERIOD: Millis = 1000;
/// The occurrence both nodes see due.
const T1: Millis = 1000;
const T2: Millis = T1 + PERIOD;

struct Run {
    world: World,
    a: Step,
    b: Step,
}

fn recurring_aba_scenario(backend: Backend, variant: Variant, window: &'static str) -> Run {
    let world = World::new(backend);
    world
        .jobs()
        .schedule_every(JOB, T1, PERIOD, Misfire::FireOnce)
        .expect("schedule");
    world.set_time(T1);
    let a = world.node("a", variant);
    let mut b = world.node("b", variant);

    let pause = Pause::arm(window, a.thread_name());
    let a = a.spawn_step().expect("start node a");
    pause.wait_reached();
    let b_step = b.step().expect("node b's round");
    pause.release();
    let (_, a_step) = a.join();
    Run {
        world,
        a: a_step.expect("node a's round"),
        b: b_step,
    }
}

/// The correctness check: with no crash and no stall, T1 was delivered
/// once.
fn assert_t1_delivered_once(run: &Run) {
    let deliveries = run.world.deliveries(JOB, T1);
    assert!(
        deliveries.len() == 1,
        "D2 recurring_aba: job `{JOB}` (every {PERIOD} ms) had its occurrence at {T1} ms \
         delivered {} times (nodes {}); the job was waiting again, for {T2} ms, when the \
         second claim's guard matched",
        deliveries.len(),
        nodes(&deliveries)
    );
}

fn reproduces(backend: Backend) {
    let run = recurring_aba_scenario(backend, Variant::StateGuardClaim, state_guard_claim::WINDOW);
    let fired = |step: &Step| match step {
        Step::Fired(claim) => Some(claim.occurrence),
        _ => None,
    };
    assert_eq!(fired(&run.b), Some(T1), "b fired T1: {:?}", run.b);
    assert_eq!(fired(&run.a), Some(T1), "a fired T1 again: {:?}", run.a);
    assert_eq!(run.world.deliveries(JOB, T1).len(), 2);
    // The schedule itself is intact: the job waits for T2.
    assert_eq!(run.world.jobs().status(JOB).expect("status").due_at, T2);
}

fn fixed(backend: Backend) {
    let run = recurring_aba_scenario(backend, Variant::Fixed, CLAIMING);
    assert!(matches!(run.b, Step::Fired(_)), "b fired T1: {:?}", run.b);
    assert_eq!(run.a, Step::Idle, "a found nothing due");
    assert_t1_delivered_once(&run);
    // And T2, when it comes, runs once too.
    run.world.set_time(T2);
    let mut a = run.world.node("a", Variant::Fixed);
    assert!(matches!(a.step(), Ok(Step::Fired(ref c)) if c.occurrence == T2));
    assert_eq!(run.world.deliveries(JOB, T2).len(), 1);
}

fn on_state_guard_claim(backend: Backend) {
    let run = recurring_aba_scenario(backend, Variant::StateGuardClaim, state_guard_claim::WINDOW);
    assert_t1_delivered_once(&run);
}

#[test]
fn d2_recurring_aba_reproduces() {
    reproduces(Backend::Sqlite);
}

#[test]
fn d2_recurring_aba_fixed() {
    fixed(Backend::Sqlite);
}

#[test]
#[ignore = "D2 recurring_aba: shows the bug in state_guard_claim.rs"]
fn d2_recurring_aba_on_state_guard_claim() {
    on_state_guard_claim(Backend::Sqlite);
}

/// The same scenarios on PostgreSQL, with the same outcome: the guard is
/// checked on the row as b left it, committed, `waiting`.
#[cfg(feature = "postgres")]
mod postgres {
    use super::*;

    #[test]
    fn d2_recurring_aba_reproduces() {
        reproduces(Backend::Postgres);
    }

    #[test]
    fn d2_recurring_aba_fixed() {
        fixed(Backend::Postgres);
    }

    #[test]
    #[ignore = "D2 recurring_aba: shows the bug in state_guard_claim.rs"]
    fn d2_recurring_aba_on_state_guard_claim() {
        on_state_guard_claim(Backend::Postgres);
    }
}
