//! The scenario the S1 and C4 checks share: the timer thread is held in its
//! window (it has looked at a far task and is not waiting yet) while a
//! client thread schedules a task due sooner; then the thread is let go.
//! A timer that can be woken runs the second task on time.

use std::sync::Arc;
use std::time::Duration;

use kit::pause::Pause;
use kit::{Recorder, ms, threads};

/// When the far task is due.
pub const TASK1_DUE_MS: u64 = 1000;
/// When the task that arrives in the window is due.
pub const TASK2_DUE_MS: u64 = 50;
/// How late task 2 may run on a timer that hears about it.
pub const MARGIN_MS: u64 = 300;
/// How long the thread is held while the client tries to get in.
const HOLD_MS: u64 = 100;

/// A boxed task, as every timer's `schedule` accepts one.
pub type Task = Box<dyn FnOnce() + Send>;

/// What one run of the scenario saw, in times since its start.
pub struct Run {
    /// Every event, for the failure message.
    pub rec: Recorder,
    /// When task 2 was due.
    pub task2_due: Duration,
    /// When task 2 ran.
    pub task2_ran: Duration,
}

/// Runs the scenario on `timer`, whose thread is `name` and whose window is
/// the pause point `window`; `schedule` calls the timer's own `schedule`.
pub fn earlier_task_in_window<T: Send + Sync + 'static>(
    timer: T,
    name: &str,
    window: &'static str,
    schedule: fn(&T, Duration, Task),
) -> Run {
    let timer = Arc::new(timer);
    let rec = Recorder::new();
    let pause = Pause::arm(window, name);

    rec.record_as("check", "schedule task 1, due at 1000 ms");
    let r = rec.clone();
    schedule(
        &timer,
        ms(TASK1_DUE_MS),
        Box::new(move || {
            r.record("task 1 ran");
        }),
    );
    assert!(
        pause.reached_within(ms(5000)),
        "the timer thread never reached `kit::pause_point(WINDOW)`: keep that call \
         where the skeleton has it, between looking at the head and waiting"
    );
    rec.record_as(name, "held in its window");

    let client = {
        let (timer, rec) = (Arc::clone(&timer), rec.clone());
        std::thread::Builder::new()
            .name(threads::unique_name("ex-client"))
            .spawn(move || {
                let called = rec.record("schedule task 2, due in 50 ms");
                let r = rec.clone();
                schedule(
                    &timer,
                    ms(TASK2_DUE_MS),
                    Box::new(move || {
                        r.record("task 2 ran");
                    }),
                );
                rec.record("schedule returned");
                called + ms(TASK2_DUE_MS)
            })
            .expect("spawn the client")
    };
    // If the thread holds the lock the client needs, the client cannot get
    // in while it is held: give up waiting for it after HOLD_MS.
    let _ = rec.eventually("schedule returned", ms(HOLD_MS));
    rec.record_as("check", "let the timer thread go");
    pause.release();
    let task2_due = client.join().expect("the client thread");
    let task2_ran = rec
        .eventually("task 2 ran", ms(5000))
        .unwrap_or_else(|| panic!("task 2 never ran within 5 s:\n{}", rec.log()));
    drop(timer);
    threads::assert_gone(name);
    Run {
        rec,
        task2_due,
        task2_ran,
    }
}
