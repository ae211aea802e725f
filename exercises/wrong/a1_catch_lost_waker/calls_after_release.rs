//! Wrong: it holds the poll, but lets the deadline pass only after the
//! release. By then the poll has (nearly always) stored its waker, on
//! every version, and the driver finds it when it fires: nothing is lost.
// verdict: misses-the-bug | luck

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
    let polled = thread::scope(|s| {
        let poll = thread::Builder::new()
            .name(poller.clone())
            .spawn_scoped(s, || poll_once(&mut sleep, &task))
            .expect("spawn the poller");
        pause.wait_reached();
        pause.release();
        timer.advance(tick());
        poll.join().expect("the poller")
    });
    if polled.is_pending() {
        assert!(
            task.woken_within(ms(2000)),
            "A1 lost_waker: the task was woken {} times",
            task.woken()
        );
    }
}
