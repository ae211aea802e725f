//! Thin adapters: every version of the timer, seen through one interface.

use std::time::Duration;

/// A task as the battery hands it to a timer.
pub type Task = Box<dyn FnOnce() + Send>;

/// A running timer. Dropping it stops and joins its thread.
pub trait Subject: Send + Sync {
    /// Runs `task` once `delay` has passed.
    fn schedule(&self, delay: Duration, task: Task);
}

/// One version of the timer, in teaching order.
pub struct Version {
    /// The stage and file, e.g. `condvar-timer::racy`.
    pub name: &'static str,
    /// The pause point where the thread has chosen how long to wait but is
    /// not waiting yet, and the ID of the bug that window shows, if any.
    pub window: Option<(&'static str, &'static str)>,
    /// Starts the timer with its thread named as given.
    pub start: fn(&str) -> Box<dyn Subject>,
}

impl Subject for naive::busy_loop::Timer {
    fn schedule(&self, delay: Duration, task: Task) {
        naive::busy_loop::Timer::schedule(self, delay, task).expect("a small delay");
    }
}

impl Subject for sleep_based::sleep_until::Timer {
    fn schedule(&self, delay: Duration, task: Task) {
        sleep_based::sleep_until::Timer::schedule(self, delay, task).expect("a small delay");
    }
}

impl Subject for condvar_timer::racy::Timer {
    fn schedule(&self, delay: Duration, task: Task) {
        condvar_timer::racy::Timer::schedule(self, delay, task).expect("a small delay");
    }
}

impl Subject for condvar_timer::timer_style::Timer {
    fn schedule(&self, delay: Duration, task: Task) {
        condvar_timer::timer_style::Timer::schedule(self, delay, task).expect("a small delay");
    }
}

impl Subject for condvar_timer::something_changed::TimerQueue {
    fn schedule(&self, delay: Duration, task: Task) {
        // The handler also runs, aborted, if the queue is dropped first; the
        // battery only counts runs that were not aborted.
        self.add(delay, move |aborted| {
            if !aborted {
                task()
            }
        })
        .expect("a small delay");
    }
}

/// Every version, in the order the book introduces them.
pub fn versions() -> Vec<Version> {
    vec![
        Version {
            name: "naive::busy_loop",
            window: None,
            start: |name| Box::new(naive::busy_loop::Timer::new(name).unwrap()),
        },
        Version {
            name: "sleep-based::sleep_until",
            window: Some((
                "sleep-based::sleep_until: took the head, going to sleep",
                "S1",
            )),
            start: |name| Box::new(sleep_based::sleep_until::Timer::new(name).unwrap()),
        },
        Version {
            name: "condvar-timer::racy",
            window: Some(("condvar-timer::racy: took the head, not yet waiting", "C1")),
            start: |name| Box::new(condvar_timer::racy::Timer::new(name).unwrap()),
        },
        Version {
            name: "condvar-timer::timer_style",
            window: Some((
                "condvar-timer::timer_style: peeked the head, not yet waiting",
                "C1",
            )),
            start: |name| Box::new(condvar_timer::timer_style::Timer::new(name).unwrap()),
        },
        Version {
            name: "condvar-timer::something_changed",
            window: Some((
                "condvar-timer::something_changed: computed the wait, not yet waiting",
                "C1",
            )),
            start: |name| {
                Box::new(
                    condvar_timer::something_changed::TimerQueue::new(name)
                        .expect("spawn the queue's thread"),
                )
            },
        },
    ]
}
