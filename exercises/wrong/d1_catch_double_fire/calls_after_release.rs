//! Wrong: it holds node a in its claim, but runs node b's round only after
//! the release. By then a has (nearly always) marked the job for itself,
//! on every version, and b finds it taken: nothing is fired twice.
// verdict: misses-the-bug | luck

use exercises::catch::d1::{Pause, WINDOW, World};

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
    pause.release();
    let _ = b.step().expect("node b's round");
    let _ = a.join().1.expect("node a's round");
    let deliveries = world.deliveries("report").expect("read the deliveries");
    assert!(
        deliveries.len() == 1,
        "D1 check_then_claim: job `report` was delivered {} times",
        deliveries.len()
    );
}
