//! Wrong: it tests how one timer is built. It forces the race well, then
//! asserts that while the poll is held the driver fires nothing: true of
//! the chapter's poll, which holds the entry's lock in its window, so that
//! the driver waits for it. But a poll that stores its waker first and
//! looks second holds no lock there: the driver fires, and the poll, let
//! go, finds the entry fired. Nothing is lost, and this test fails on it.
// verdict: rejects-correct

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
    let fired_while_held = thread::scope(|s| {
        let poll = thread::Builder::new()
            .name(poller.clone())
            .spawn_scoped(s, || poll_once(&mut sleep, &task))
            .expect("spawn the poller");
        pause.wait_reached();
        timer.advance(tick());
        let fired = kit::eventually(ms(500), || timer.fired() > 0);
        pause.release();
        let _ = poll.join().expect("the poller");
        fired
    });
    assert!(
        !fired_while_held,
        "A1 lost_waker: the driver fired the sleep while its poll was held: it did not wait \
         for the poll"
    );
}
