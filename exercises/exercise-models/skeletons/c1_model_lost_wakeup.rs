//! Model it: C1 `lost_wakeup`, from *A timer that loses a wake-up*.
//!
//! Write a loom model that finds the lost wake-up: the threads, what they
//! do, and the check. `cargo xtask model-check c1_model_lost_wakeup` runs
//! your `model` twice, each time in a process of its own:
//!
//! - on racy.rs, the timer that takes the head out of its queue and only
//!   then waits for it on a separate monitor: loom must find an execution
//!   that fails (a deadlock, or your assertion);
//! - on timer_style.rs, the timer that looks and waits under one lock:
//!   every execution must pass, with up to 3 preemptions.
//!
//! Your model cannot tell which one it got: both are `Timer`, with the same
//! methods. What you have (`exercise_models`):
//!
//! - `c1::Timer::new()` starts the timer's thread (one more thread in
//!   your model); dropping the timer stops that thread and joins it, and
//!   drops the tasks still queued without running them;
//! - `timer.schedule(delay, task)` queues `task` to run on the timer's
//!   thread once `delay` has passed; when the new task is due before every
//!   queued one, it notifies the thread;
//! - `Latch`: `open()` it from a task, `wait()` for it in the model;
//! - loom has no clock. The stages' clock is frozen under loom: a delay of
//!   `Duration::ZERO` is due at once, `FAR` never comes due, and a timed
//!   wait ends only when something notifies it.
//!
//! Keep `#[test] fn model()` and `loom::model(..)`: the grader runs that
//! test, and sets loom's preemption bound itself.

// What the model will want; the skeleton uses none of it yet.
#[allow(unused_imports)]
use exercise_models::c1::Timer;
#[allow(unused_imports)]
use exercise_models::{FAR, Latch};
#[allow(unused_imports)]
use std::time::Duration;

#[test]
fn model() {
    loom::model(|| {
        let timer = Timer::new();
        // TODO(C1): give the timer's thread something to wait for, then a
        // task that must interrupt that wait, and check that it runs.
        drop(timer);
    });
}
