//! Catch it, A1 `lost_waker`: the reference test.
//!
//! The scenario of *A timer for futures*, forced. A `Sleep` due in one
//! tick is polled on a thread of its own, held in its window: between the
//! poll's look at the entry and the store of its waker. While it is held,
//! the clock passes the deadline and the driver fires the entry if it can.
//! Then the poll is let go. Whatever order a poll does its two halves in,
//! and whether or not it holds the entry's lock in between, a correct one
//! ends in one of two ways: it returns `Ready` (its look saw the entry
//! fired), or it returns `Pending` and its task is woken (the driver found
//! its waker). The racy poll looked before the fire and stored its waker
//! after it: `Pending`, and nothing will ever call the waker.

use std::thread;

use exercises::catch::a1::{Pause, Task, Timer, WINDOW, poll_once, tick};
use kit::{ms, threads};

/// How long the driver is given to fire while the poll is held, and the
/// task to be woken once it is let go: long past what either takes.
const WITHIN_MS: u64 = 2000;

#[test]
fn a1_lost_waker_caught() {
    let name = threads::unique_name("catch-a1");
    let timer = Timer::new(&name).expect("start the driver");
    let task = Task::new();
    let poller = format!("{name}p");
    let mut sleep = timer.sleep(tick());

    // Armed first: the poller reaches the window as soon as it polls.
    let pause = Pause::arm(WINDOW, &poller);
    let (polled, fired_in_window) = thread::scope(|s| {
        let poll = thread::Builder::new()
            .name(poller.clone())
            .spawn_scoped(s, || poll_once(&mut sleep, &task))
            .expect("spawn the poller");
        pause.wait_reached();

        // The second half of the race, while the poll is held: the
        // deadline passes, and the driver fires the entry if it can.
        timer.advance(tick());
        let fired = kit::eventually(ms(WITHIN_MS), || timer.fired() == 1);
        pause.release();
        (poll.join().expect("the poller"), fired)
    });
    // Ready: the poll saw the entry fired, and there is nothing to wake.
    if polled.is_ready() {
        return;
    }
    assert!(
        task.woken_within(ms(WITHIN_MS)),
        "A1 lost_waker: the poll of the sleep as it came due returned Pending, and its task \
         was woken {} times within {WITHIN_MS} ms of the poll's release; the driver fired it \
         {} the poll was held, and {} entries are left in the wheel: nothing will wake the \
         task",
        task.woken(),
        if fired_in_window { "while" } else { "after" },
        timer.pending()
    );
}
