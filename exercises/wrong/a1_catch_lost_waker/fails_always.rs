//! Wrong: it fails always. It forces the race well, then asserts more
//! than any timer gives: that the task is woken while its poll is still
//! held. No version can do that: a first poll's waker is not where the
//! driver looks until the poll is let go. On the racy poll the task is
//! never woken at all; on the chapter's the driver cannot fire the entry
//! until the poll, which holds the entry's lock, has stored its waker and
//! let go; on others the driver fires, finds no waker, and the poll, let
//! go, finds the entry fired.
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
    let woken_while_held = thread::scope(|s| {
        let poll = thread::Builder::new()
            .name(poller.clone())
            .spawn_scoped(s, || poll_once(&mut sleep, &task))
            .expect("spawn the poller");
        pause.wait_reached();
        timer.advance(tick());
        let woken = task.woken_within(ms(500));
        pause.release();
        let _ = poll.join().expect("the poller");
        woken
    });
    assert!(
        woken_while_held,
        "A1 lost_waker: the task was not woken while its poll was held"
    );
}
