//! Model it: P3 `cancel_notify_race`, from *A timer that will not stop*.
//!
//! Write a loom model that finds the cancel nobody hears: the threads,
//! what they do, and the check. `cargo xtask model-check
//! p3_model_cancel_notify_race` runs your `model` twice, each time in a
//! process of its own:
//!
//! - on notify_on_cancel.rs, whose `cancel` sets a flag and notifies the
//!   monitor the timer's thread waits on for the head's deadline: loom must
//!   find an execution that fails, and it must be P3's, not another bug's;
//! - on poison_pill.rs, whose `cancel` puts a pill into the queue the
//!   thread does all its waiting in: every execution must pass, with up to
//!   3 preemptions.
//!
//! Your model cannot tell which one it got: both are `Timer`, with the same
//! methods. What you have (`exercise_models`):
//!
//! - `p3::Timer::new()` starts the timer's thread (one more thread in
//!   your model);
//! - `timer.schedule(delay, task)` queues `task` to run on the timer's
//!   thread once `delay` has passed (refused once the timer is cancelled);
//! - `timer.cancel()` asks the timer to stop and returns at once;
//!   dropping the timer cancels it too, then joins its thread: the drop
//!   returns only once the thread has ended;
//! - `Latch`: `open()` it from a task, `wait()` for it in the model;
//! - loom has no clock. The stages' clock is frozen under loom: a delay of
//!   `Duration::ZERO` is due at once, `FAR` never comes due, and a timed
//!   wait ends only when something notifies it.
//!
//! notify_on_cancel.rs has a second bug, P1: a thread blocked in `take` on
//! an empty queue waits on the queue, not on the monitor, and never hears
//! the notify. The grader tells you if loom found that one instead.
//!
//! Keep `#[test] fn model()` and `loom::model(..)`: the grader runs that
//! test, and sets loom's preemption bound itself.

// What the model will want; the skeleton uses none of it yet.
#[allow(unused_imports)]
use exercise_models::p3::Timer;
#[allow(unused_imports)]
use exercise_models::{FAR, Latch};
#[allow(unused_imports)]
use std::time::Duration;

#[test]
fn model() {
    loom::model(|| {
        let timer = Timer::new();
        // TODO(P3): put the timer's thread where a cancel must wake it, and
        // cancel.
        drop(timer);
    });
}
