//! Wrong: it sleeps and hopes. No pause point: it polls on one thread
//! while another moves the clock past the deadline "at the same moment",
//! a millisecond after the poller starts. The window is a few
//! instructions wide, and a sleep of a millisecond does not land the fire
//! in it.
// verdict: never-held

use std::thread;
use std::time::Duration;

use exercises::catch::a1::{Task, Timer, poll_once, tick};
use kit::{ms, threads};

#[test]
fn a1_lost_waker_caught() {
    let name = threads::unique_name("catch-a1");
    let timer = Timer::new(&name).expect("start the driver");
    let task = Task::new();
    let mut sleep = timer.sleep(tick());
    let polled = thread::scope(|s| {
        let poll = s.spawn(|| poll_once(&mut sleep, &task));
        thread::sleep(Duration::from_millis(1));
        timer.advance(tick());
        poll.join().expect("the poller")
    });
    if polled.is_pending() {
        assert!(
            task.woken_within(ms(2000)),
            "A1 lost_waker: the task was never woken"
        );
    }
}
