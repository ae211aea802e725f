//! Right: the reference's race, and then a second world in which a node
//! stalls past its lease in the middle of a job, as the chapter's D3 test
//! has it: node a claims the job, starts it, and waits in its action;
//! the world's time passes the end of a's lease; node b claims the job
//! and fires it; then a goes on and completes. A stalled node may deliver
//! again (at least once), but the job's effect must be written once: a's
//! late completion is refused by the fence. It catches D1 with the first
//! world, and D3 `unfenced_write`, whose completion goes in by id, with
//! the second.

use std::sync::{Arc, Barrier};
use std::thread;

use exercises::catch::d1::{LEASE, Millis, Pause, WINDOW, World};
use kit::ms;

const JOB: &str = "report";
const DUE: Millis = 1000;

#[test]
fn d1_double_fire_caught() {
    let world = World::new().expect("a world");
    world.schedule_once(JOB, DUE).expect("schedule the job");
    world.set_time(DUE).expect("the job is due");
    let a = world.node("a").expect("node a");
    let mut b = world.node("b").expect("node b");
    let pause = Pause::arm(WINDOW, a.thread_name());
    let a = a.spawn_step().expect("start node a's round");
    pause.wait_reached();
    thread::scope(|s| {
        let b_round = s.spawn(|| b.step());
        let _ = kit::eventually(ms(1000), || b_round.is_finished());
        pause.release();
        b_round
            .join()
            .expect("node b's round")
            .expect("node b's round");
    });
    a.join().1.expect("node a's round");
    let deliveries = world.deliveries(JOB).expect("read the deliveries");
    assert!(
        deliveries.len() == 1,
        "D1 check_then_claim: job `{JOB}` due at {DUE} ms was delivered {} times",
        deliveries.len()
    );

    stalled_past_the_lease();
}

/// Node a stalls in its action past its lease; its late completion must
/// write nothing.
fn stalled_past_the_lease() {
    let world = World::new().expect("a world");
    world.schedule_once(JOB, DUE).expect("schedule the job");
    world.set_time(DUE).expect("the job is due");
    // Two waits in a's action: "a is in it", then "go on".
    let stall = Arc::new(Barrier::new(2));
    let in_action = Arc::clone(&stall);
    let a = world
        .node("a")
        .expect("node a")
        .on_run(move |_| {
            in_action.wait();
            in_action.wait();
        });
    let mut b = world.node("b").expect("node b");
    let a = a.spawn_step().expect("start node a's round");
    stall.wait();
    let wake = DUE + LEASE + 500;
    world.set_time(wake).expect("past a's lease");
    b.step().expect("node b's round");
    stall.wait();
    a.join().1.expect("node a's round");
    let effects = world.effects(JOB).expect("read the effects");
    let fences: Vec<String> = effects.iter().map(|e| e.fence.to_string()).collect();
    assert!(
        effects.len() == 1,
        "D3 stale_lease_write: job `{JOB}`'s occurrence at {DUE} ms has {} effects (fences {}): \
         node a's lease ended at {} ms, and it wrote at {wake} ms, after node b's claim",
        effects.len(),
        fences.join(", "),
        DUE + LEASE
    );
}
