//! D3 and D6 with real processes: each node is a child process
//! (`durable-node`), stopped with SIGSTOP and killed with SIGKILL, as the
//! other tests hold a node's thread at a pause point and crash it by hand.
//!
//! The job `report` is due at 1000 ms; nodes claim on a lease of 1000 ms.
//! A child waits at its pause by reading a line on its stdin, so the test
//! knows where it is; the signals do the rest. The store's clock is moved
//! through its `store_clock` row, which every process reads. Nothing
//! sleeps: the test reads what each child says, waiting at most
//! [`child::hang`] for a line.
//!
//! - **Stopped past its lease** (D3). Node a claims the job, delivers it,
//!   says so and waits; the test stops it with SIGSTOP. The world's time
//!   moves past a's lease, node b claims the job (fence 2), delivers and
//!   completes it. Then SIGCONT, and a is told to go on. The fix fences
//!   its completion out: one effect, two deliveries. `unfenced_write.rs`
//!   writes a second effect.
//! - **Killed after its claim committed** (D6). Node a claims the job and
//!   says so, after the claim has committed; the test kills it with
//!   SIGKILL and reaps it. Past a's lease, node b takes the job over:
//!   delivered once, one effect, nothing lost. `done_before_run.rs` had
//!   marked the job done at its claim: b finds nothing, the job is lost.

mod support;

use durable_timer::{Jobs, Millis, State};
use support::child::Child;
use support::{Backend, TEST_LEASE, World, fences, nodes};

const JOB: &str = "report";
const DUE: Millis = 1000;
/// When b does its round: after a's lease ended.
const LATER: Millis = DUE + TEST_LEASE + 500;

/// A scenario's world, and the last line each node said of its round.
struct Run {
    world: World,
    a: String,
    b: String,
}

/// A node of `version` in a child process on the world's store.
fn child(world: &World, name: &str, version: &str, pause: &str) -> Child {
    Child::spawn(&world.address(), name, TEST_LEASE, version, pause)
}

/// A world with the job `report` due, and its time at `DUE`.
fn world_with_the_job(backend: Backend) -> World {
    let world = World::new(backend);
    world.jobs().schedule_once(JOB, DUE).expect("schedule");
    world.set_time(DUE);
    world
}

fn stopped_past_its_lease(backend: Backend, version: &str) -> Run {
    let world = world_with_the_job(backend);
    let mut a = child(&world, "a", version, "delivered");
    let mut b = child(&world, "b", version, "none");
    a.send("step");
    assert_eq!(a.line(), format!("delivered {JOB} {DUE} 1"), "node a");
    a.sigstop();
    world.set_time(LATER);
    b.send("step");
    let b_said = b.line();
    a.sigcont();
    a.send("go");
    let a_said = a.line();
    assert!(
        a.finish().success() && b.finish().success(),
        "both ended well"
    );
    Run {
        world,
        a: a_said,
        b: b_said,
    }
}

fn killed_after_its_claim(backend: Backend, version: &str) -> Run {
    let world = world_with_the_job(backend);
    let mut a = child(&world, "a", version, "claimed");
    a.send("step");
    assert_eq!(a.line(), format!("claimed {JOB} {DUE} 1"), "node a");
    a.sigkill();
    world.set_time(LATER);
    let mut b = child(&world, "b", version, "none");
    b.send("step");
    let b_said = b.line();
    assert!(b.finish().success(), "b ended well");
    Run {
        world,
        a: "killed".into(),
        b: b_said,
    }
}

/// D3's correctness check: the occurrence's effect was written once.
fn assert_one_effect(run: &Run) {
    let effects = run.world.effects(JOB, DUE);
    assert!(
        effects.len() == 1,
        "D3 stale_lease_write: job `{JOB}`'s occurrence at {DUE} ms has {} effects (nodes {}, \
         fences {}): node a, a process stopped with SIGSTOP while its lease ran out at {} ms, \
         wrote after node b's claim when it was continued",
        effects.len(),
        nodes(&effects),
        fences(&effects),
        DUE + TEST_LEASE
    );
}

/// D6's correctness check: the job was delivered, or is still there to be.
fn assert_not_lost(run: &Run) {
    let deliveries = run.world.deliveries(JOB, DUE);
    let state = jobs(run).status(JOB).expect("status").state;
    assert!(
        !deliveries.is_empty() || matches!(state, State::Waiting | State::Running),
        "D6 done_before_run: job `{JOB}` due at {DUE} ms is {state:?} and was delivered {} \
         times: node a, a process killed with SIGKILL after its claim committed, had marked \
         it done, and at {LATER} ms node b found nothing to do",
        deliveries.len()
    );
}

fn jobs(run: &Run) -> Jobs {
    run.world.jobs()
}

fn stopped_reproduces(backend: Backend) {
    let run = stopped_past_its_lease(backend, "unfenced_write");
    assert_eq!(run.b, format!("fired {JOB} {DUE} 2"), "node b");
    assert_eq!(
        run.a,
        format!("fired {JOB} {DUE} 1"),
        "node a's stale write"
    );
    assert_eq!(
        fences(&run.world.effects(JOB, DUE)),
        "1, 2",
        "two effects, b's and a's stale one"
    );
}

fn stopped_fixed(backend: Backend) {
    let run = stopped_past_its_lease(backend, "fixed");
    assert_eq!(run.b, format!("fired {JOB} {DUE} 2"), "node b");
    assert_eq!(run.a, format!("fenced {JOB} {DUE} 1"), "node a fenced out");
    assert_eq!(
        nodes(&run.world.deliveries(JOB, DUE)).to_string(),
        "a, b",
        "delivered twice"
    );
    assert_one_effect(&run);
    assert_eq!(nodes(&run.world.effects(JOB, DUE)).to_string(), "b");
}

fn killed_reproduces(backend: Backend) {
    let run = killed_after_its_claim(backend, "done_before_run");
    assert_eq!(run.b, "idle", "node b found nothing");
    assert_eq!(jobs(&run).status(JOB).expect("status").state, State::Done);
    assert_eq!(run.world.deliveries(JOB, DUE).len(), 0, "never delivered");
}

fn killed_fixed(backend: Backend) {
    let run = killed_after_its_claim(backend, "fixed");
    assert_eq!(run.a, "killed");
    assert_eq!(run.b, format!("fired {JOB} {DUE} 2"), "node b took it over");
    assert_not_lost(&run);
    assert_eq!(nodes(&run.world.deliveries(JOB, DUE)).to_string(), "b");
    assert_eq!(nodes(&run.world.effects(JOB, DUE)).to_string(), "b");
    assert_eq!(jobs(&run).status(JOB).expect("status").state, State::Done);
}

#[test]
fn d3_stale_lease_write_sigstop_reproduces() {
    stopped_reproduces(Backend::Sqlite);
}

#[test]
fn d3_stale_lease_write_sigstop_fixed() {
    stopped_fixed(Backend::Sqlite);
}

#[test]
#[ignore = "D3 stale_lease_write: shows the bug in unfenced_write.rs"]
fn d3_stale_lease_write_sigstop_on_unfenced_write() {
    assert_one_effect(&stopped_past_its_lease(Backend::Sqlite, "unfenced_write"));
}

#[test]
fn d6_done_before_run_sigkill_reproduces() {
    killed_reproduces(Backend::Sqlite);
}

#[test]
fn d6_done_before_run_sigkill_fixed() {
    killed_fixed(Backend::Sqlite);
}

#[test]
#[ignore = "D6 done_before_run: shows the bug in done_before_run.rs"]
fn d6_done_before_run_sigkill_on_done_before_run() {
    assert_not_lost(&killed_after_its_claim(Backend::Sqlite, "done_before_run"));
}

/// The same processes on PostgreSQL: a stopped process keeps its
/// connection (idle, no transaction open), a killed one loses it, and the
/// server had committed its claim. The same outcome.
#[cfg(feature = "postgres")]
mod postgres {
    use super::*;

    #[test]
    fn d3_stale_lease_write_sigstop_reproduces() {
        stopped_reproduces(Backend::Postgres);
    }

    #[test]
    fn d3_stale_lease_write_sigstop_fixed() {
        stopped_fixed(Backend::Postgres);
    }

    #[test]
    #[ignore = "D3 stale_lease_write: shows the bug in unfenced_write.rs"]
    fn d3_stale_lease_write_sigstop_on_unfenced_write() {
        assert_one_effect(&stopped_past_its_lease(Backend::Postgres, "unfenced_write"));
    }

    #[test]
    fn d6_done_before_run_sigkill_reproduces() {
        killed_reproduces(Backend::Postgres);
    }

    #[test]
    fn d6_done_before_run_sigkill_fixed() {
        killed_fixed(Backend::Postgres);
    }

    #[test]
    #[ignore = "D6 done_before_run: shows the bug in done_before_run.rs"]
    fn d6_done_before_run_sigkill_on_done_before_run() {
        assert_not_lost(&killed_after_its_claim(
            Backend::Postgres,
            "done_before_run",
        ));
    }
}
