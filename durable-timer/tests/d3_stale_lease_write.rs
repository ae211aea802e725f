//! D3 `stale_lease_write`: a node stalls past its lease, and writes after
//! its successor.
//!
//! The job `report` is due at 1000 ms; nodes claim on a lease of 1000 ms.
//! At 1000 ms node a claims it (fence 1), delivers it, and is held at its
//! pause point before completing: the stall (a GC pause, a SIGSTOP). The
//! world's time moves to 2500 ms: a's lease ended at 2000 ms. Node b claims
//! the job (fence 2), delivers it, and completes it: the effect is
//! written. Then a wakes and completes.
//!
//! - unfenced_write.rs: a completes by the job's id, and writes the effect
//!   again. Two effects of one occurrence.
//! - complete.rs, the fix: a's completion asks for fence 1 on a running
//!   job; the job has fence 2 and is done. No row changes, the transaction
//!   is rolled back: `Fenced`. One effect, b's.
//!
//! Both versions deliver twice: a node cannot un-send what it sent before
//! it stalled. At least once, effectively once.

mod support;

use durable_timer::{Millis, RUNNING, Step, Variant, unfenced_write};
use kit::pause::Pause;
use support::{Backend, TEST_LEASE, World, fences, nodes};

const JOB: &str = "report";
const DUE: Millis = 1000;
/// When a wakes: past the end of its lease.
const WAKE: Millis = DUE + TEST_LEASE + 500;

struct Run {
    world: World,
    a: Step,
    b: Step,
}

fn stale_lease_write_scenario(backend: Backend, variant: Variant, window: &'static str) -> Run {
    let world = World::new(backend);
    world.jobs().schedule_once(JOB, DUE).expect("schedule");
    world.set_time(DUE);
    let a = world.node("a", variant);
    let mut b = world.node("b", variant);

    let pause = Pause::arm(window, a.thread_name());
    let a = a.spawn_step().expect("start node a");
    pause.wait_reached();
    world.set_time(WAKE);
    let b_step = b.step().expect("node b's round");
    pause.release();
    let (_, a_step) = a.join();
    Run {
        world,
        a: a_step.expect("node a's round"),
        b: b_step,
    }
}

/// The correctness check: the occurrence's effect was written once.
fn assert_one_effect(run: &Run) {
    let effects = run.world.effects(JOB, DUE);
    assert!(
        effects.len() == 1,
        "D3 stale_lease_write: job `{JOB}`'s occurrence at {DUE} ms has {} effects (nodes {}, \
         fences {}): node a's lease ended at {} ms, and it wrote at {WAKE} ms, after node b's \
         claim",
        effects.len(),
        nodes(&effects),
        fences(&effects),
        DUE + TEST_LEASE
    );
}

/// Both versions: the job was delivered by a (fence 1), then b (fence 2).
fn assert_delivered_twice(run: &Run) {
    let deliveries = run.world.deliveries(JOB, DUE);
    let seen: Vec<(&str, i64)> = deliveries
        .iter()
        .map(|d| (d.node.as_str(), d.fence))
        .collect();
    assert_eq!(seen, [("a", 1), ("b", 2)], "deliveries (node, fence)");
}

fn reproduces(backend: Backend) {
    let run = stale_lease_write_scenario(backend, Variant::UnfencedWrite, unfenced_write::WINDOW);
    assert_delivered_twice(&run);
    assert!(matches!(run.b, Step::Fired(_)), "b fired: {:?}", run.b);
    assert!(
        matches!(run.a, Step::Fired(_)),
        "a's stale completion went in: {:?}",
        run.a
    );
    let effects = run.world.effects(JOB, DUE);
    assert_eq!(fences(&effects), "1, 2", "a's stale effect beside b's");
}

fn fixed(backend: Backend) {
    let run = stale_lease_write_scenario(backend, Variant::Fixed, RUNNING);
    assert_delivered_twice(&run);
    assert!(matches!(run.b, Step::Fired(_)), "b fired: {:?}", run.b);
    assert!(
        matches!(run.a, Step::Fenced(ref c) if c.fence == 1),
        "a was fenced out: {:?}",
        run.a
    );
    assert_one_effect(&run);
    assert_eq!(run.world.effects(JOB, DUE)[0].fence, 2, "the effect is b's");
}

fn on_unfenced_write(backend: Backend) {
    let run = stale_lease_write_scenario(backend, Variant::UnfencedWrite, unfenced_write::WINDOW);
    assert_one_effect(&run);
}

#[test]
fn d3_stale_lease_write_reproduces() {
    reproduces(Backend::Sqlite);
}

#[test]
fn d3_stale_lease_write_fixed() {
    fixed(Backend::Sqlite);
}

#[test]
#[ignore = "D3 stale_lease_write: shows the bug in unfenced_write.rs"]
fn d3_stale_lease_write_on_unfenced_write() {
    on_unfenced_write(Backend::Sqlite);
}

/// The same scenarios on PostgreSQL, with the same outcome.
#[cfg(feature = "postgres")]
mod postgres {
    use super::*;

    #[test]
    fn d3_stale_lease_write_reproduces() {
        reproduces(Backend::Postgres);
    }

    #[test]
    fn d3_stale_lease_write_fixed() {
        fixed(Backend::Postgres);
    }

    #[test]
    #[ignore = "D3 stale_lease_write: shows the bug in unfenced_write.rs"]
    fn d3_stale_lease_write_on_unfenced_write() {
        on_unfenced_write(Backend::Postgres);
    }
}
