//! Wrong: it catches another bug. It polls the sleep from task A, then from
//! task B, moves the clock, and asserts that B is woken: A2
//! `stale_waker`, a `Sleep` whose waker is kept from the first task that
//! polled it. Neither version here has it (both store the newest waker),
//! so it passes on both; and it never goes near the window A1 is about:
//! no thread is ever held.
// verdict: never-held

use exercises::catch::a1::{Task, Timer, poll_once, tick};
use kit::{ms, threads};

#[test]
fn a1_lost_waker_caught() {
    let name = threads::unique_name("catch-a1");
    let timer = Timer::new(&name).expect("start the driver");
    let (task_a, task_b) = (Task::new(), Task::new());
    let mut sleep = timer.sleep(tick());
    assert!(poll_once(&mut sleep, &task_a).is_pending());
    assert!(poll_once(&mut sleep, &task_b).is_pending());
    timer.advance(tick());
    assert!(
        task_b.woken_within(ms(2000)),
        "A1 lost_waker: task B, which polled last, was woken {} times, task A {} times",
        task_b.woken(),
        task_a.woken()
    );
}
