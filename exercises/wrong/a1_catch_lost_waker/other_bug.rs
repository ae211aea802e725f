//! Wrong: it catches another bug. It holds a poll in the window, as a test
//! of A1 must, but lets it go before the deadline passes: no race. Then it
//! polls the sleep again from a second task, moves the clock, and asserts
//! that the second task is woken: A2 `stale_waker`, a `Sleep` that keeps
//! the first waker it was given and wakes the first task. The racy poll
//! stores the newest waker well enough when nothing fires in between.
// verdict: catches-another

use std::thread;

use exercises::catch::a1::{Pause, Task, Timer, WINDOW, poll_once, tick};
use kit::{ms, threads};

#[test]
fn a1_lost_waker_caught() {
    let name = threads::unique_name("catch-a1");
    let timer = Timer::new(&name).expect("start the driver");
    let (task_a, task_b) = (Task::new(), Task::new());
    let poller = format!("{name}p");
    let mut sleep = timer.sleep(tick());
    let pause = Pause::arm(WINDOW, &poller);
    thread::scope(|s| {
        let poll = thread::Builder::new()
            .name(poller.clone())
            .spawn_scoped(s, || poll_once(&mut sleep, &task_a))
            .expect("spawn the poller");
        pause.wait_reached();
        pause.release();
        let _ = poll.join().expect("the poller");
    });
    let _ = poll_once(&mut sleep, &task_b);
    timer.advance(tick());
    assert!(
        task_b.woken_within(ms(2000)),
        "A1 lost_waker: task B, which polled last, was woken {} times, task A {} times",
        task_b.woken(),
        task_a.woken()
    );
}
