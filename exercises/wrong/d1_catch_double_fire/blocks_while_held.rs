//! Wrong: it tests how one node is built. It forces the race well, and
//! asserts that node b's round ends while node a is held: true of the
//! chapter's node, held before its one-statement claim with nothing in
//! hand. But a node that looks and marks inside one `BEGIN IMMEDIATE`
//! transaction holds the store's write lock in its window: b's round
//! waits for it, and ends once a is let go, finding the job taken.
//! Nothing is fired twice, and this test fails on it.
// verdict: rejects-correct

use std::thread;

use exercises::catch::d1::{Pause, WINDOW, World};
use kit::ms;

#[test]
fn d1_double_fire_caught() {
    let world = World::new().expect("a world");
    world.schedule_once("report", 1000).expect("schedule the job");
    world.set_time(1000).expect("the job is due");
    let a = world.node("a").expect("node a");
    let mut b = world.node("b").expect("node b");
    let pause = Pause::arm(WINDOW, a.thread_name());
    let a = a.spawn_step().expect("start node a's round");
    pause.wait_reached();
    let b_done = thread::scope(|s| {
        let b_round = s.spawn(|| b.step());
        let done = kit::eventually(ms(1000), || b_round.is_finished());
        pause.release();
        let _ = b_round.join().expect("node b's round");
        done
    });
    let _ = a.join().1.expect("node a's round");
    assert!(
        b_done,
        "D1 check_then_claim: node b's round did not end while node a was held in its claim"
    );
}
