//! D4 `renewal_steals_lease`: two claims of one job under one node name.
//!
//! Two nodes answer to the name `n` (a node restarted under its host's
//! name, two pods of one stateful set). Both renew their lease before
//! completing. The job `report` is due at 1000 ms; the lease is 1000 ms.
//!
//! At 1000 ms the first `n` (call it n1) claims the job (fence 1), delivers
//! it, and is held before renewing: it stalls. The world's time moves to
//! 2500 ms; n1's lease ended at 2000 ms. The second `n` (n2) claims the job
//! (fence 2, lease to 3500 ms), delivers it, and is held before renewing
//! too. Then n1 wakes, renews, and completes; then n2 does.
//!
//! - renew_by_name.rs: n1 renews "the claim of `n`": n2's, live, which it
//!   takes over. It completes by name and writes the effect under its own
//!   stale fence 1, while n2, the live claim, is still running the job;
//!   n2's renewal then finds the job done, and n2 drops its run.
//! - lease.rs, the fix: n1 renews fence 1, which is not the job's, and
//!   whose lease is over anyway: refused, n1 drops its run. n2 renews
//!   fence 2, live, and completes: the effect is n2's.

mod support;

use durable_timer::{Millis, Node, RUNNING, Step, Variant, renew_by_name};
use kit::pause::Pause;
use support::{Backend, TEST_LEASE, World, fences};

const JOB: &str = "report";
const DUE: Millis = 1000;
/// When n1 wakes: past the end of its lease.
const WAKE: Millis = DUE + TEST_LEASE + 500;
/// The name both nodes answer to.
const NAME: &str = "n";

struct Run {
    world: World,
    n1: Step,
    n2: Step,
}

fn renewing(world: &World, variant: Variant) -> Node {
    world.node(NAME, variant).renewing()
}

fn renewal_steals_lease_scenario(backend: Backend, variant: Variant, window: &'static str) -> Run {
    let world = World::new(backend);
    world.jobs().schedule_once(JOB, DUE).expect("schedule");
    world.set_time(DUE);
    let n1 = renewing(&world, variant);
    let n2 = renewing(&world, variant);

    let n1_pause = Pause::arm(window, n1.thread_name());
    let n1 = n1.spawn_step().expect("start n1");
    n1_pause.wait_reached();
    world.set_time(WAKE);
    let n2_pause = Pause::arm(window, n2.thread_name());
    let n2 = n2.spawn_step().expect("start n2");
    n2_pause.wait_reached();

    n1_pause.release();
    let (_, n1_step) = n1.join();
    n2_pause.release();
    let (_, n2_step) = n2.join();
    Run {
        world,
        n1: n1_step.expect("n1's round"),
        n2: n2_step.expect("n2's round"),
    }
}

/// The correctness check: one effect, written under the job's latest
/// claim (the stale claim renewed nothing and wrote nothing).
fn assert_effect_of_the_live_claim(run: &Run) {
    let effects = run.world.effects(JOB, DUE);
    let latest = run.world.jobs().status(JOB).expect("status").fence;
    assert!(
        effects.len() == 1 && effects[0].fence == latest,
        "D4 renewal_steals_lease: job `{JOB}`'s effects were written under fences [{}], not once \
         under fence {latest}, the live claim: node `{NAME}`'s claim of fence 1 ended at \
         {} ms, and at {WAKE} ms it renewed by name over fence {latest}'s, live to {} ms",
        fences(&effects),
        DUE + TEST_LEASE,
        WAKE + TEST_LEASE
    );
}

fn reproduces(backend: Backend) {
    let run = renewal_steals_lease_scenario(backend, Variant::RenewByName, renew_by_name::WINDOW);
    assert!(
        matches!(run.n1, Step::Fired(ref c) if c.fence == 1),
        "n1, stale, renewed and completed: {:?}",
        run.n1
    );
    assert!(
        matches!(run.n2, Step::Demoted(ref c) if c.fence == 2),
        "n2, the live claim, lost the job: {:?}",
        run.n2
    );
    assert_eq!(
        fences(&run.world.effects(JOB, DUE)),
        "1",
        "the effect is the stale claim's"
    );
}

fn fixed(backend: Backend) {
    let run = renewal_steals_lease_scenario(backend, Variant::Fixed, RUNNING);
    assert!(
        matches!(run.n1, Step::Demoted(ref c) if c.fence == 1),
        "n1's renewal was refused: {:?}",
        run.n1
    );
    assert!(
        matches!(run.n2, Step::Fired(ref c) if c.fence == 2),
        "n2 completed: {:?}",
        run.n2
    );
    assert_effect_of_the_live_claim(&run);
}

fn on_renew_by_name(backend: Backend) {
    let run = renewal_steals_lease_scenario(backend, Variant::RenewByName, renew_by_name::WINDOW);
    assert_effect_of_the_live_claim(&run);
}

#[test]
fn d4_renewal_steals_lease_reproduces() {
    reproduces(Backend::Sqlite);
}

#[test]
fn d4_renewal_steals_lease_fixed() {
    fixed(Backend::Sqlite);
}

#[test]
#[ignore = "D4 renewal_steals_lease: shows the bug in renew_by_name.rs"]
fn d4_renewal_steals_lease_on_renew_by_name() {
    on_renew_by_name(Backend::Sqlite);
}

/// The same scenarios on PostgreSQL, with the same outcome.
#[cfg(feature = "postgres")]
mod postgres {
    use super::*;

    #[test]
    fn d4_renewal_steals_lease_reproduces() {
        reproduces(Backend::Postgres);
    }

    #[test]
    fn d4_renewal_steals_lease_fixed() {
        fixed(Backend::Postgres);
    }

    #[test]
    #[ignore = "D4 renewal_steals_lease: shows the bug in renew_by_name.rs"]
    fn d4_renewal_steals_lease_on_renew_by_name() {
        on_renew_by_name(Backend::Postgres);
    }
}
