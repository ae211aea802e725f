//! A1 `lost_waker`: a task polls a `Sleep` just as the driver fires it.
//!
//! The scenario is the same for both versions: a `Sleep` due in 10 ms is
//! polled on a thread of its own, held at its pause point between the
//! look at the entry ("fired? not yet") and the store of the task's
//! waker. Meanwhile the deadline passes and the driver takes the entry
//! out of the wheel to fire it; the driver is held there too, until the
//! poll is in its window, so that the poll always finds the entry
//! waiting, however late it comes. The driver goes on, then the poll.
//!
//! - racy_poll.rs: the look let go of the entry's lock, so the driver
//!   fires the entry in the window, finds no waker, and wakes nobody. The
//!   poll then stores its waker and returns `Pending`: the entry has
//!   fired, the wheel is empty, and nothing will ever wake the task.
//! - entry.rs, the fix: the window is inside the entry's lock, the lock
//!   the driver fires under. The driver waits for it; the poll stores its
//!   waker and lets go; the driver fires and finds the waker. The driver
//!   acts at the same moment; the lock moves its fire after the store.
#![cfg(not(loom))]

mod support;

use std::thread;
use std::time::Duration;

use async_timer::{Driver, FIRE_WINDOW, Handle, POLL_WINDOW, Sleep, Variant, racy_poll};
use kit::pause::Pause;
use kit::scale::in_ms;
use kit::threads::{self, unique_name};
use kit::{Recorder, eventually, ms};
use support::TaskWaker;

/// The sleep's delay.
const DUE_MS: u64 = 10;
/// How long the test gives the driver to fire while the poll is held. On
/// the fix it cannot: this is how long it is seen not to. On racy_poll.rs
/// it fires at once, and the test waits until it has (at most 2 s).
const HOLD_MS: u64 = 100;
/// How long the correctness check waits for the task to be woken.
const WOKEN_WITHIN_MS: u64 = 1000;
/// What the test records when it sees the driver fire in the window.
const FIRED: &str = "fired the entry: no waker in it";

/// One run of the scenario.
struct Run {
    rec: Recorder,
    driver: Driver,
    driver_name: String,
    handle: Handle,
    sleep: Sleep,
    task: TaskWaker,
    /// When the sleep was due, since the start.
    due: Duration,
    /// Whether the driver fired the entry while the poll was held.
    fired_in_window: bool,
    /// Whether the held poll returned `Pending` (so stored its waker).
    pending: bool,
}

fn lost_waker_scenario(variant: Variant, window: &'static str) -> Run {
    let rec = Recorder::new();
    let (driver, driver_name) = support::driver("a1", variant);
    let handle = driver.handle();
    let poller = unique_name("a1-poll");
    let poll_pause = Pause::arm(window, &poller);
    let fire_pause = Pause::arm(FIRE_WINDOW, &driver_name);

    let due = rec.record_as("test", format!("sleep made, due in {DUE_MS} ms")) + ms(DUE_MS);
    let mut sleep = support::filed(&handle, ms(DUE_MS));
    let task = TaskWaker::new(&rec, "task");
    let waker = task.waker();
    let polling = thread::Builder::new()
        .name(poller.clone())
        .spawn(move || {
            let pending = support::poll_once(&mut sleep, &waker).is_pending();
            (sleep, pending)
        })
        .expect("spawn the poller");
    poll_pause.wait_reached();
    rec.record_as(&poller, "held: saw the entry waiting, waker not stored");
    fire_pause.wait_reached();
    rec.record_as(&driver_name, "held: took the due entry, not yet fired");

    rec.record_as("test", "release the driver");
    fire_pause.release();
    // racy_poll.rs: it fires the entry now. The fix: it waits for the
    // entry's lock, which the held poll has.
    let hold = match variant {
        Variant::RacyPoll => ms(2000),
        _ => ms(HOLD_MS),
    };
    let fired_in_window = eventually(hold, || handle.stats().fired == 1);
    if fired_in_window {
        rec.record_as(&driver_name, FIRED);
    }
    rec.record_as("test", "release the poll");
    poll_pause.release();
    let (sleep, pending) = polling.join().expect("the poller");
    if pending {
        rec.record_as(&poller, "poll returned Pending: waker stored");
    }
    Run {
        rec,
        driver,
        driver_name,
        handle,
        sleep,
        task,
        due,
        fired_in_window,
        pending,
    }
}

impl Run {
    /// Shuts the driver down; its thread must be gone.
    fn finish(self) {
        drop(self.sleep);
        drop(self.driver);
        threads::assert_gone(&self.driver_name);
    }
}

/// The correctness check: the task that polled the sleep is woken.
fn assert_task_woken(run: &Run) {
    let woken = run.task.woken_within(ms(WOKEN_WITHIN_MS));
    let stats = run.handle.stats();
    let fired = run
        .rec
        .at(FIRED)
        .map_or("?".to_string(), |at| in_ms(at).to_string());
    assert!(
        woken.is_some(),
        "A1 lost_waker: the sleep due at {} ms was fired by {fired} ms; the task that polled it \
         meanwhile was woken {} times by {} ms, and the wheel holds {} entries: nothing is \
         left to wake it\n{}",
        in_ms(run.due),
        run.task.count(),
        in_ms(run.rec.elapsed()),
        stats.pending,
        run.rec.log()
    );
}

fn run_on_racy_poll() -> Run {
    lost_waker_scenario(Variant::RacyPoll, racy_poll::WINDOW)
}

fn run_on_fixed() -> Run {
    lost_waker_scenario(Variant::Fixed, POLL_WINDOW)
}

#[test]
fn a1_lost_waker_reproduces() {
    let run = run_on_racy_poll();
    assert!(
        run.fired_in_window,
        "the driver did not fire the entry while the poll was held\n{}",
        run.rec.log()
    );
    assert!(run.pending, "the poll after the fire returned Ready");
    // The driver has fired the entry and run its wakes (`fired` counts an
    // entry once its wakes are done) and holds nothing else: no wake can
    // come any more, and none came.
    let stats = run.handle.stats();
    assert_eq!(
        (stats.fired, stats.pending, run.task.count()),
        (1, 0, 0),
        "(fired, pending, task woken)\n{}",
        run.rec.log()
    );
    assert!(run.sleep.is_elapsed(), "the entry fired");
    run.finish();
}

#[test]
fn a1_lost_waker_fixed() {
    let run = run_on_fixed();
    assert!(
        !run.fired_in_window,
        "the driver fired the entry while the poll held its lock\n{}",
        run.rec.log()
    );
    assert!(run.pending, "the held poll saw the entry waiting");
    assert_task_woken(&run);
    run.finish();
}

#[test]
#[ignore = "A1 lost_waker: shows the bug in racy_poll.rs"]
fn a1_lost_waker_on_racy_poll() {
    let run = run_on_racy_poll();
    assert!(
        run.fired_in_window,
        "precondition: the driver fired in the window"
    );
    assert_task_woken(&run);
    run.finish();
}
