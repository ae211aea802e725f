//! Wrong: it catches another bug. It forces the race well, on a job that
//! repeats every second, and counts the deliveries of the occurrence node
//! a looked at, the one due at 1000 ms. That is D2 `recurring_aba`'s
//! symptom: node b fires that occurrence and puts the job back to waiting
//! for the next one; a mark guarded by `state = 'waiting'` finds it
//! waiting again, and fires the same occurrence a second time. The
//! check-then-claim node's mark, by id alone, takes the job's *next*
//! occurrence, due at 2000 ms, and fires it a second early: the
//! occurrence this test counts is delivered once.
// verdict: catches-another

use std::thread;

use exercises::catch::d1::{Pause, WINDOW, World};
use kit::ms;

#[test]
fn d1_double_fire_caught() {
    let world = World::new().expect("a world");
    world
        .schedule_every("report", 1000, 1000)
        .expect("schedule the job");
    world.set_time(1000).expect("the job is due");
    let a = world.node("a").expect("node a");
    let mut b = world.node("b").expect("node b");
    let pause = Pause::arm(WINDOW, a.thread_name());
    let a = a.spawn_step().expect("start node a's round");
    pause.wait_reached();
    thread::scope(|s| {
        let b_round = s.spawn(|| b.step());
        let _ = kit::eventually(ms(1000), || b_round.is_finished());
        pause.release();
        let _ = b_round.join().expect("node b's round");
    });
    let _ = a.join().1.expect("node a's round");
    let deliveries = world.deliveries("report").expect("read the deliveries");
    let first = deliveries.iter().filter(|d| d.occurrence == 1000).count();
    assert!(
        first == 1,
        "D1 check_then_claim: the occurrence at 1000 ms was delivered {first} times"
    );
}
