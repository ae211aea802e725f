//! Wrong: it fails always. It forces the race well, then asserts that
//! node a, held between its look and its mark, is fenced out when it goes
//! on. A fence refuses a late *completion* (D3), not a late claim: a
//! correct node that was held finds the job taken (its round is idle), or
//! it had the job first (where its window holds the store's write lock,
//! node b waits for it, and a fires the job). No version returns `Fenced`
//! here.
// verdict: rejects-correct

use std::thread;

use exercises::catch::d1::{Pause, Step, WINDOW, World};
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
    thread::scope(|s| {
        let b_round = s.spawn(|| b.step());
        let _ = kit::eventually(ms(1000), || b_round.is_finished());
        pause.release();
        let _ = b_round.join().expect("node b's round");
    });
    let a_step = a.join().1.expect("node a's round");
    assert!(
        matches!(a_step, Step::Fenced(_)),
        "D1 check_then_claim: node a, held in its claim, was not fenced out: {a_step:?}"
    );
}
