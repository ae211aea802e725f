//! The durable timer's columns: each a small copy of one test of stage 9
//! (`durable-timer/tests/d<N>_*.rs`), the same scenario and the same
//! correctness check, asked of every version of its node. A cell says
//! "bug D<N>" when the check fails, "ok" when it holds.
//!
//! Each scenario holds a node where the row's version has the moment the
//! scenario is about ([`Durable`]'s windows: between its look and its
//! mark, where it found nothing, where it planned), or moves the clocks,
//! or crashes a node; never a sleep.

use std::thread;

use durable_timer::{Millis, Misfire, Node, Point, RUNNING, Schedule, State, Step};
use kit::pause::Pause;

use super::Durable;
use super::world::{LEASE, World, fences, nodes};
use crate::battery::scenarios::{Outcome, Verdict};

const JOB: &str = "report";
const DUE: Millis = 1000;
/// When a node held past its lease wakes: half a lease after it ended.
const WAKE: Millis = DUE + LEASE + 500;

/// The cell: ok if `held`, else the bug `id`; the numbers in `detail`.
fn judged(held: bool, id: &'static str, detail: String) -> Outcome {
    Outcome {
        verdict: if held { Verdict::Ok } else { Verdict::Bug(id) },
        detail,
        joined: true.into(),
    }
}

/// a's round held at `window` while b does a whole round; then a's ends.
fn a_held_while_b_steps(world: &World, row: &Durable, window: &'static str) {
    let a = world.node("a", row.variant, 0);
    let mut b = world.node("b", row.variant, 0);
    let pause = Pause::arm(window, a.thread_name());
    let a = a.spawn_step().expect("start node a");
    pause.wait_reached();
    b.step().expect("node b's round");
    pause.release();
    a.join().1.expect("node a's round");
}

/// D1: one due job; a held between its look and its mark while b fires it.
/// Delivered once?
pub fn check_then_claim(row: &Durable) -> Outcome {
    let world = World::new();
    world.jobs().schedule_once(JOB, DUE).expect("schedule");
    world.set_time(DUE);
    a_held_while_b_steps(&world, row, row.claim_window);
    let deliveries = world.deliveries(JOB, DUE);
    let detail = format!(
        "delivered {} times ({})",
        deliveries.len(),
        nodes(&deliveries)
    );
    judged(deliveries.len() == 1, "D1", detail)
}

/// D2: a recurring job; a held between its look at T1 and its mark while b
/// runs T1 and the job waits again, for T2. T1 delivered once?
pub fn recurring_aba(row: &Durable) -> Outcome {
    let world = World::new();
    world
        .jobs()
        .schedule_every(JOB, DUE, 1000, Misfire::FireOnce)
        .expect("schedule");
    world.set_time(DUE);
    a_held_while_b_steps(&world, row, row.claim_window);
    let deliveries = world.deliveries(JOB, DUE);
    let detail = format!(
        "T1 delivered {} times ({})",
        deliveries.len(),
        nodes(&deliveries)
    );
    judged(deliveries.len() == 1, "D2", detail)
}

/// D3: a held after running the job, past its lease, while b reclaims and
/// completes it; then a completes. One effect?
pub fn stale_lease_write(row: &Durable) -> Outcome {
    let world = World::new();
    world.jobs().schedule_once(JOB, DUE).expect("schedule");
    world.set_time(DUE);
    let a = world.node("a", row.variant, 0);
    let mut b = world.node("b", row.variant, 0);
    let pause = Pause::arm(RUNNING, a.thread_name());
    let a = a.spawn_step().expect("start node a");
    pause.wait_reached();
    world.set_time(WAKE);
    b.step().expect("node b's round");
    pause.release();
    a.join().1.expect("node a's round");
    let effects = world.effects(JOB, DUE);
    let detail = format!("{} effects (fences {})", effects.len(), fences(&effects));
    judged(effects.len() == 1, "D3", detail)
}

/// D4: two nodes named `n` that renew before completing; n1 held past its
/// lease, n2 claims and is held too; n1, then n2, go on. No effect written
/// but the live claim's? (The stage's test also asks that the live claim
/// wrote one; here a version that never takes the job over, or whose
/// claim leaves nothing to renew, writes none, which is not D4's bug.)
pub fn renewal_steals_lease(row: &Durable) -> Outcome {
    let world = World::new();
    world.jobs().schedule_once(JOB, DUE).expect("schedule");
    world.set_time(DUE);
    let (n1_pause, n1) = held_if_it_runs(world.node("n", row.variant, 0).renewing());
    world.set_time(WAKE);
    let (n2_pause, n2) = held_if_it_runs(world.node("n", row.variant, 0).renewing());
    for (pause, node) in [(n1_pause, n1), (n2_pause, n2)] {
        pause.release();
        node.join().expect("a node's thread");
    }
    let effects = world.effects(JOB, DUE);
    let latest = world.jobs().status(JOB).expect("status").fence;
    let detail = format!("effects under fences [{}], live {latest}", fences(&effects));
    let stale = effects.iter().any(|e| e.fence != latest);
    judged(effects.len() <= 1 && !stale, "D4", detail)
}

/// Starts a round of `node` on its thread and waits until it is held
/// after running a job, or its round ended without one (a version that
/// does not take over an expired lease finds nothing to run).
fn held_if_it_runs(node: Node) -> (Pause, thread::JoinHandle<()>) {
    let pause = Pause::arm(RUNNING, node.thread_name());
    let round = thread::Builder::new()
        .name(node.thread_name().to_owned())
        .spawn(move || {
            let mut node = node;
            node.step().expect("a round");
        })
        .expect("start a node");
    while !pause.reached_within(kit::ms(10)) && !round.is_finished() {}
    (pause, round)
}

/// D5: a node whose clock runs 5 s ahead does a round 5 s before a job is
/// due. Nothing delivered early?
pub fn clock_skew(row: &Durable) -> Outcome {
    const SKEW: Millis = 5000;
    let due = 10_000;
    let world = World::new();
    world.jobs().schedule_once(JOB, due).expect("schedule");
    world.set_time(due - SKEW);
    world
        .node("a", row.variant, SKEW)
        .step()
        .expect("a's round");
    let early = world
        .deliveries(JOB, due)
        .iter()
        .filter(|d| d.at < due)
        .count();
    judged(
        early == 0,
        "D5",
        format!("{early} deliveries before {due} ms"),
    )
}

/// D6: a crashes right after its claim; past a's lease, b does a round.
/// Delivered, or still there to be?
pub fn done_before_run(row: &Durable) -> Outcome {
    let world = World::new();
    world.jobs().schedule_once(JOB, DUE).expect("schedule");
    world.set_time(DUE);
    let mut a = world.node("a", row.variant, 0).crash_at(Point::Claimed);
    assert_eq!(a.step(), Ok(Step::Crashed), "a crashed");
    world.set_time(WAKE);
    world.node("b", row.variant, 0).step().expect("b's round");
    let delivered = world.deliveries(JOB, DUE).len();
    let state = world.jobs().status(JOB).expect("status").state;
    let there = matches!(state, State::Waiting | State::Running);
    let detail = format!("delivered {delivered} times, {state:?}");
    judged(delivered > 0 || there, "D6", detail)
}

/// D7: a job due at 1000 ms commits at 1200 ms while a is in a round, held
/// where it found nothing; a does another round a minute later. Delivered?
pub fn cursor_skips_late_job(row: &Durable) -> Outcome {
    let world = World::new();
    let mut jobs = world.jobs();
    world.set_time(1200);
    let a = world.node("a", row.variant, 0);
    let pause = Pause::arm(row.idle_window, a.thread_name());
    let a = a.spawn_step().expect("start node a");
    pause.wait_reached();
    jobs.schedule_once(JOB, DUE).expect("schedule");
    pause.release();
    let (mut a, first) = a.join();
    first.expect("a's first round");
    world.set_time(61_200);
    a.step().expect("a's second round");
    let delivered = world.deliveries(JOB, DUE).len();
    let detail = format!("delivered {delivered} times by 61200 ms");
    judged(delivered == 1, "D7", detail)
}

/// Rounds of `node` until one finds nothing, at most a thousand.
fn rounds(node: &mut Node) {
    for _ in 0..1000 {
        if node.step().expect("a round") == Step::Idle {
            return;
        }
    }
}

/// D8: a job every second, run once on time, then every node down for 150
/// periods. At most one run on waking?
pub fn catch_up_storm(row: &Durable) -> Outcome {
    let world = World::new();
    world
        .jobs()
        .schedule_every(JOB, DUE, 1000, Misfire::FireOnce)
        .expect("schedule");
    world.set_time(DUE);
    let mut a = world.node("a", row.variant, 0);
    rounds(&mut a);
    world.set_time(DUE + 150 * 1000);
    rounds(&mut a);
    let after = world
        .all_deliveries()
        .iter()
        .filter(|(_, occurrence)| *occurrence > DUE)
        .count();
    judged(after <= 1, "D8", format!("{after} runs after downtime"))
}

/// D9: a cron entry's occurrence at 1000 ms, planned by a and b at once, a
/// held where it planned; then both run what is due. Delivered once?
pub fn duplicate_occurrence(row: &Durable) -> Outcome {
    let world = World::new();
    world.set_time(500);
    let schedule = Schedule {
        name: "nightly".into(),
        first: 1000,
        period: 1000,
    };
    let a = world.node("a", row.variant, 0);
    let mut b = world.node("b", row.variant, 0);
    let pause = Pause::arm(row.plan_window, a.thread_name());
    let a = thread::Builder::new()
        .name(a.thread_name().to_owned())
        .spawn({
            let schedule = schedule.clone();
            move || {
                let mut a = a;
                a.plan(&schedule).expect("a's plan");
                a
            }
        })
        .expect("start node a");
    pause.wait_reached();
    b.plan(&schedule).expect("b's plan");
    pause.release();
    let mut a = a.join().expect("a's thread");
    world.set_time(1000);
    rounds(&mut a);
    rounds(&mut b);
    let delivered = world
        .all_deliveries()
        .iter()
        .filter(|(_, occurrence)| *occurrence == 1000)
        .count();
    judged(delivered == 1, "D9", format!("delivered {delivered} times"))
}
