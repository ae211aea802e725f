//! Wrong: it asserts nothing. It forces the race well, counts the
//! deliveries, and never says how many there may be.
// verdict: misses-the-bug

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
    thread::scope(|s| {
        let b_round = s.spawn(|| b.step());
        let _ = kit::eventually(ms(1000), || b_round.is_finished());
        pause.release();
        let _ = b_round.join().expect("node b's round");
    });
    let _ = a.join().1.expect("node a's round");
    let deliveries = world.deliveries("report").expect("read the deliveries");
    println!("the job was delivered {} times", deliveries.len());
}
