//! Right: the race forced on a job that repeats every second, every
//! delivery counted. At 1000 ms only the occurrence due then may start,
//! once. The check-then-claim node's mark, by id alone, takes the job's
//! next occurrence (due at 2000 ms) and fires it a second early; a mark
//! guarded by `state = 'waiting'` (D2) fires the one at 1000 ms again.
//! Either way the job started twice by 1000 ms: this test catches both.

use std::thread;

use exercises::catch::d1::{Millis, Pause, WINDOW, World};
use kit::ms;

const JOB: &str = "report";
const FIRST: Millis = 1000;
const PERIOD: Millis = 1000;

#[test]
fn d1_double_fire_caught() {
    let world = World::new().expect("a world");
    world
        .schedule_every(JOB, FIRST, PERIOD)
        .expect("schedule the job");
    world.set_time(FIRST).expect("the first occurrence is due");
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
    let seen: Vec<String> = deliveries
        .iter()
        .map(|d| format!("{} ms by {}", d.occurrence, d.node))
        .collect();
    assert!(
        deliveries.len() == 1,
        "D1 check_then_claim: job `{JOB}`, every {PERIOD} ms from {FIRST} ms, started {} times \
         by {FIRST} ms (occurrences {})",
        deliveries.len(),
        seen.join(", ")
    );
}
