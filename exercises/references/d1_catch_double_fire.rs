//! Catch it, D1 `check_then_claim`: the reference test.
//!
//! The scenario of *A timer that outlives its process*, forced. One job,
//! `report`, is due at 1000 ms, and the world's time is 1000 ms. Node a
//! starts its round on its thread and is held in its claim's window.
//! While it is held, node b does a whole round of its own, on a thread of
//! its own: where a holds the store's write lock in its window, b's round
//! waits for it, so the test gives b a while and lets a go either way.
//! No node crashed or stalled past its lease, so even at-least-once
//! delivery allows one delivery: a correct node either found the job taken
//! (b had fired it) or took it first (and b found it taken). The
//! check-then-claim node looked before b's round and marks the job by its
//! id after it: it runs the done job again.

use std::thread;

use exercises::catch::d1::{Millis, Pause, WINDOW, World};
use kit::ms;

const JOB: &str = "report";
/// The job's due time, and the world's time through the scenario.
const DUE: Millis = 1000;
/// How long node b's round is given while node a is held: long past what
/// a round takes when nothing stops it.
const WITHIN_MS: u64 = 1000;

#[test]
fn d1_double_fire_caught() {
    let world = World::new().expect("a world");
    world.schedule_once(JOB, DUE).expect("schedule the job");
    world.set_time(DUE).expect("the job is due");
    let a = world.node("a").expect("node a");
    let mut b = world.node("b").expect("node b");

    // Armed first: node a reaches the window as soon as its round starts.
    let pause = Pause::arm(WINDOW, a.thread_name());
    let a = a.spawn_step().expect("start node a's round");
    pause.wait_reached();
    // The second half of the race, while a is held: b's round, from a
    // thread of its own (it may wait for a).
    let b_done_in_window = thread::scope(|s| {
        let b_round = s.spawn(|| b.step());
        let done = kit::eventually(ms(WITHIN_MS), || b_round.is_finished());
        pause.release();
        b_round
            .join()
            .expect("node b's round")
            .expect("node b's round");
        done
    });
    let (_, a_step) = a.join();
    a_step.expect("node a's round");

    let deliveries = world.deliveries(JOB).expect("read the deliveries");
    let nodes: Vec<&str> = deliveries.iter().map(|d| d.node.as_str()).collect();
    assert!(
        deliveries.len() == 1,
        "D1 check_then_claim: job `{JOB}` due at {DUE} ms was delivered {} times (nodes {}); \
         node b's round ended {} node a was held between its look and its mark",
        deliveries.len(),
        nodes.join(", "),
        if b_done_in_window { "while" } else { "after" }
    );
}
