//! Wrong: it asserts nothing. It forces the race well, waits for the task
//! to be woken, and never says that it must be.
// verdict: misses-the-bug

use std::thread;

use exercises::catch::a1::{Pause, Task, Timer, WINDOW, poll_once, tick};
use kit::{ms, threads};

#[test]
fn a1_lost_waker_caught() {
    let name = threads::unique_name("catch-a1");
    let timer = Timer::new(&name).expect("start the driver");
    let task = Task::new();
    let poller = format!("{name}p");
    let mut sleep = timer.sleep(tick());
    let pause = Pause::arm(WINDOW, &poller);
    thread::scope(|s| {
        let poll = thread::Builder::new()
            .name(poller.clone())
            .spawn_scoped(s, || poll_once(&mut sleep, &task))
            .expect("spawn the poller");
        pause.wait_reached();
        timer.advance(tick());
        let _ = kit::eventually(ms(2000), || timer.fired() == 1);
        pause.release();
        let _ = poll.join().expect("the poller");
    });
    let woken = task.woken_within(ms(2000));
    println!("the task was woken: {woken}");
}
