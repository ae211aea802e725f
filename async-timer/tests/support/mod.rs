//! What the stage's tests share: a driver of their own on a named thread,
//! a task's waker that records when it is woken, and one poll of a
//! future by hand.
//!
//! A "task" in these tests is often just a waker and a hand that polls:
//! the timer knows nothing else of its executor, so a recording waker
//! sees exactly what an executor would, and a test that polls by hand
//! can never hang on a task nobody wakes.
#![allow(dead_code)]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll, Wake, Waker};
use std::time::Duration;

use async_timer::{Driver, Handle, Sleep, Variant};
use kit::Recorder;
use kit::threads::unique_name;

/// A driver of `variant` on a thread named `<prefix>-<n>`; its name.
pub fn driver(prefix: &str, variant: Variant) -> (Driver, String) {
    let name = unique_name(prefix);
    let driver = Driver::builder(&name)
        .variant(variant)
        .start()
        .expect("start the driver");
    (driver, name)
}

/// A sleep due in `delay` that the driver has to fire: it is in the wheel.
///
/// [`Handle::sleep`] reads the clock twice, once for the deadline and once,
/// under the driver's lock, to file it. A thread kept from a core for
/// longer than `delay` between the two finds the deadline passed and fires
/// the sleep itself (A6's rule), and the driver never sees it: a test
/// holding the driver where it fires would wait in vain. Such a sleep is
/// made again, up to 100 times; past that the machine is keeping this
/// thread off a core for `delay` every time, and the test says so.
pub fn filed(handle: &Handle, delay: Duration) -> Sleep {
    for _ in 0..100 {
        let sleep = handle.sleep(delay);
        if !sleep.is_elapsed() {
            return sleep;
        }
    }
    panic!(
        "100 sleeps due in {} ms were all past due by the time they were filed",
        delay.as_millis()
    );
}

/// A driver of `variant` on a manual clock.
pub fn manual_driver(prefix: &str, variant: Variant) -> Driver {
    Driver::builder(&unique_name(prefix))
        .variant(variant)
        .manual_clock()
        .start()
        .expect("start the driver")
}

/// A task's waker that records "<task> woken" each time it is woken.
pub struct TaskWaker {
    inner: Arc<Woken>,
}

struct Woken {
    rec: Recorder,
    what: String,
    count: AtomicUsize,
}

impl Wake for Woken {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.count.fetch_add(1, Ordering::SeqCst);
        self.rec.record(self.what.as_str());
    }
}

impl TaskWaker {
    /// The waker of the task named `task`, recording into `rec`.
    pub fn new(rec: &Recorder, task: &str) -> TaskWaker {
        TaskWaker {
            inner: Arc::new(Woken {
                rec: rec.clone(),
                what: format!("{task} woken"),
                count: AtomicUsize::new(0),
            }),
        }
    }

    /// A `Waker` that wakes this task.
    pub fn waker(&self) -> Waker {
        Waker::from(Arc::clone(&self.inner))
    }

    /// How many times it has been woken.
    pub fn count(&self) -> usize {
        self.inner.count.load(Ordering::SeqCst)
    }

    /// Waits at most `within` for the first wake; when it came.
    pub fn woken_within(&self, within: Duration) -> Option<Duration> {
        self.inner.rec.eventually(&self.inner.what, within)
    }
}

/// Polls `future` once with `waker`.
pub fn poll_once<F: Future + Unpin>(future: &mut F, waker: &Waker) -> Poll<F::Output> {
    std::pin::Pin::new(future).poll(&mut Context::from_waker(waker))
}
