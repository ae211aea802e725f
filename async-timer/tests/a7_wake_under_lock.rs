//! A7 `wake_under_lock`: a waker that files a new timer when it is woken.
//!
//! A waker is the executor's code, and an executor may poll the task
//! inline when it is woken; the task then files its next timer, which
//! takes the driver's lock. The scenario, the same for both versions: a
//! task polls a `Sleep` due in 10 ms with such a waker. When woken, the
//! waker first asks whether the driver's lock is free (`try_stats`, which
//! never waits): if it is, it files a timer due 10 ms later, as the task
//! would; if not, filing would deadlock the driver thread on its own
//! lock, so it records that and files nothing. The test never hangs.
//! (The driver is held where it has taken the due entry out of the
//! wheel until the task has polled, so the waker is always in place.)
//!
//! - wake_under_lock.rs: the driver wakes while it holds its lock. The
//!   waker finds the lock held, every time.
//! - driver.rs, the fix: the driver lets go of its lock before it wakes.
//!   The waker files its timer, and that timer fires in its turn.
#![cfg(not(loom))]

mod support;

use std::sync::{Arc, Mutex};
use std::task::{Wake, Waker};
use std::time::Duration;

use async_timer::{FIRE_WINDOW, Handle, Sleep, Variant, wake_under_lock};
use kit::pause::Pause;
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};
use support::TaskWaker;

/// The first sleep's delay, and the one the waker files.
const DUE_MS: u64 = 10;
const NEXT_MS: u64 = 10;

const UNDER_LOCK: &str = "woken under the driver's lock: filing a timer would deadlock";
const LOCK_FREE: &str = "woken, lock free: filed the next timer";

/// A waker that files the task's next timer, as a task polled inline
/// would, unless the driver's lock is held.
struct Refiling {
    handle: Handle,
    rec: Recorder,
    /// The next timer, filed from inside `wake`, and its task's waker.
    next: Mutex<Option<Sleep>>,
    next_task: TaskWaker,
}

impl Wake for Refiling {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        if self.handle.try_stats().is_none() {
            self.rec.record(UNDER_LOCK);
            return;
        }
        let mut next = support::filed(&self.handle, ms(NEXT_MS));
        assert!(support::poll_once(&mut next, &self.next_task.waker()).is_pending());
        *self.next.lock().unwrap() = Some(next);
        self.rec.record(LOCK_FREE);
    }
}

/// One run: how the first wake went, and the waker.
struct Run {
    rec: Recorder,
    waker: Arc<Refiling>,
    due: Duration,
    /// When the first sleep's waker ran, and what it found.
    woke: (Duration, &'static str),
}

fn refiling_scenario(variant: Variant, window: &'static str) -> Run {
    let rec = Recorder::new();
    let (driver, name) = support::driver("a7", variant);
    let handle = driver.handle();
    let fire_pause = Pause::arm(window, &name);
    let waker = Arc::new(Refiling {
        handle: handle.clone(),
        rec: rec.clone(),
        next: Mutex::new(None),
        next_task: TaskWaker::new(&rec, "next timer's task"),
    });
    let due = rec.record_as("task", format!("sleep made, due in {DUE_MS} ms")) + ms(DUE_MS);
    let mut sleep = support::filed(&handle, ms(DUE_MS));
    assert!(support::poll_once(&mut sleep, &Waker::from(Arc::clone(&waker))).is_pending());
    fire_pause.wait_reached();
    fire_pause.release();
    let ran = kit::eventually(ms(2000), || {
        rec.count(UNDER_LOCK) + rec.count(LOCK_FREE) > 0
    });
    assert!(ran, "the sleep's waker never ran\n{}", rec.log());
    let woke = [UNDER_LOCK, LOCK_FREE]
        .into_iter()
        .find_map(|what| rec.at(what).map(|at| (at, what)))
        .expect("one of the two was recorded");
    // The next timer (if filed) fires 10 ms later; wait for it before
    // shutting down, so that the run is complete.
    if woke.1 == LOCK_FREE {
        waker.next_task.woken_within(ms(2000));
    }
    drop(sleep);
    drop(driver);
    threads::assert_gone(&name);
    Run {
        rec,
        waker,
        due,
        woke,
    }
}

/// The correctness check: the waker ran with the lock free, and the timer
/// it filed from inside `wake` fired.
fn assert_refiled(run: &Run) {
    let (at, what) = run.woke;
    assert!(
        what == LOCK_FREE,
        "A7 wake_under_lock: the waker of the sleep due at {} ms ran at {} ms with the driver's \
         lock held ({} of {} wakes): the timer it files would deadlock the driver\n{}",
        in_ms(run.due),
        in_ms(at),
        run.rec.count(UNDER_LOCK),
        run.rec.count(UNDER_LOCK) + run.rec.count(LOCK_FREE),
        run.rec.log()
    );
    assert_eq!(run.waker.next_task.count(), 1, "the refiled timer fired");
}

#[test]
fn a7_wake_under_lock_reproduces() {
    let run = refiling_scenario(Variant::WakeUnderLock, wake_under_lock::WINDOW);
    assert_eq!(
        (run.rec.count(UNDER_LOCK), run.rec.count(LOCK_FREE)),
        (1, 0),
        "(wakes under the lock, wakes with it free)\n{}",
        run.rec.log()
    );
    assert!(run.waker.next.lock().unwrap().is_none(), "nothing filed");
}

#[test]
fn a7_wake_under_lock_fixed() {
    assert_refiled(&refiling_scenario(Variant::Fixed, FIRE_WINDOW));
}

#[test]
#[ignore = "A7 wake_under_lock: shows the bug in wake_under_lock.rs"]
fn a7_wake_under_lock_on_wake_under_lock() {
    assert_refiled(&refiling_scenario(
        Variant::WakeUnderLock,
        wake_under_lock::WINDOW,
    ));
}
