//! Wrong: it sleeps and hopes. No pause point: it starts both nodes'
//! rounds at once, on two threads, a millisecond apart, and hopes that
//! node b's round lands between node a's look and its mark. That gap is
//! two statements wide, and a millisecond's head start does not put b in
//! it.
// verdict: never-held

use std::thread;
use std::time::Duration;

use exercises::catch::d1::World;

#[test]
fn d1_double_fire_caught() {
    let world = World::new().expect("a world");
    world.schedule_once("report", 1000).expect("schedule the job");
    world.set_time(1000).expect("the job is due");
    let a = world.node("a").expect("node a");
    let b = world.node("b").expect("node b");
    let a = a.spawn_step().expect("start node a's round");
    thread::sleep(Duration::from_millis(1));
    let b = b.spawn_step().expect("start node b's round");
    let _ = a.join().1.expect("node a's round");
    let _ = b.join().1.expect("node b's round");
    let deliveries = world.deliveries("report").expect("read the deliveries");
    assert!(
        deliveries.len() == 1,
        "D1 check_then_claim: job `report` was delivered {} times",
        deliveries.len()
    );
}
