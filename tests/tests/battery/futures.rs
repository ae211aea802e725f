//! Stage 8's timer for futures in the battery: its driver's versions as
//! rows, and the columns only a timer for futures answers.
//!
//! A row is a driver of one [`Variant`], seen two ways:
//!
//! - as a battery timer ([`Subject`]): `schedule` makes a `Sleep` and
//!   spawns, on an executor of one worker (`progression::executor`), a
//!   task that awaits it and then runs the battery's task. The driver's
//!   thread carries the row's name, so the timer columns hold and measure
//!   it as they do a timer's one thread: S1/C1 holds it where it has
//!   chosen how long to park (A5, S1's lesson again), N1 and the idle
//!   column watch it, P1 and P2 drop it. The columns about what a task
//!   does (I2/I6's panic, I4's long task, I5's periods) are its
//!   executor's business, not the driver's: n/a, with the reason.
//! - directly, for the columns of its own, each a scenario of the stage's
//!   tests in small: A1, a poll held between its look and its store while
//!   the driver fires; A2, a `Sleep` polled by a second task; A6, a reset
//!   to the past; A7, what a waker finds when the driver wakes it. And
//!   T14's column asks A3: timeouts whose futures won, and what the wheel
//!   still holds.
//!
//! Every scenario forces its interleaving with the stage's pause points,
//! and judges each version by what happened, not by which it is.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::task::{Context, Poll, Wake, Waker};
use std::thread;
use std::time::{Duration, Instant};

use async_timer::{
    Driver, FIRE_WINDOW, Handle, POLL_WINDOW, Plan, Sleep, Variant, racy_poll, wake_under_lock,
};
use kit::pause::Pause;
use kit::threads::unique_name;
use kit::{eventually, ms};
use parking_lot::Mutex;
use progression::executor::Executor;

use super::gone::gone_within;
use super::scenarios::{Outcome, Verdict};
use super::versions::{Subject, Task, Version};

/// One version of stage 8's driver, as a row.
#[derive(Clone, Copy)]
pub struct Futures {
    /// The row's name: the file of its bug, or the crate for the fix.
    pub name: &'static str,
    /// The version of the driver it builds.
    pub variant: Variant,
    /// The pause point inside its poll, between the look at the entry and
    /// the store of the waker (A1's window); `None` for a poll that has
    /// none (`first_waker_only.rs` looks and stores under one hold of the
    /// entry's lock, as the fix does, and marks no point).
    pub poll_window: Option<&'static str>,
    /// The pause point where its driver has taken the due entries out of
    /// the wheel and not yet fired them.
    pub fire_window: &'static str,
    /// How long A1 gives the driver to fire while the poll is held, in
    /// ms: a driver that can fire then (racy_poll.rs) does so at once, and
    /// the wait ends there, so its budget is long (a loaded machine may
    /// keep the driver from a core a while); one that cannot is seen not
    /// to for a short while, which no longer wait would change (the
    /// stage's own A1 test gives the same two budgets).
    pub a1_hold_ms: u64,
    /// Starts it as a battery timer, its driver's thread named as given.
    pub start: fn(&str) -> Box<dyn Subject>,
}

/// The fixed driver: the stress's row of the same name too.
pub const FIXED: Futures = Futures {
    name: progression::stress::ASYNC,
    variant: Variant::Fixed,
    poll_window: Some(POLL_WINDOW),
    fire_window: FIRE_WINDOW,
    a1_hold_ms: 100,
    start: |name| start(name, Variant::Fixed),
};

/// A1's version.
pub const RACY_POLL: Futures = Futures {
    name: "async-timer::racy_poll",
    variant: Variant::RacyPoll,
    poll_window: Some(racy_poll::WINDOW),
    a1_hold_ms: 2000,
    start: |name| start(name, Variant::RacyPoll),
    ..FIXED
};

/// A2's version.
pub const FIRST_WAKER_ONLY: Futures = Futures {
    name: "async-timer::first_waker_only",
    variant: Variant::FirstWakerOnly,
    poll_window: None,
    start: |name| start(name, Variant::FirstWakerOnly),
    ..FIXED
};

/// A3's version.
pub const LEAKY_DROP: Futures = Futures {
    name: "async-timer::leaky_drop",
    variant: Variant::LeakyDrop,
    start: |name| start(name, Variant::LeakyDrop),
    ..FIXED
};

/// A5's version.
pub const UNPARKS_IDLE_ONLY: Futures = Futures {
    name: "async-timer::unparks_idle_only",
    variant: Variant::UnparksIdleOnly,
    start: |name| start(name, Variant::UnparksIdleOnly),
    ..FIXED
};

/// A6's version.
pub const RESET_WITHOUT_WAKE: Futures = Futures {
    name: "async-timer::reset_without_wake",
    variant: Variant::ResetWithoutWake,
    start: |name| start(name, Variant::ResetWithoutWake),
    ..FIXED
};

/// A7's version.
pub const WAKE_UNDER_LOCK: Futures = Futures {
    name: "async-timer::wake_under_lock",
    variant: Variant::WakeUnderLock,
    fire_window: wake_under_lock::WINDOW,
    start: |name| start(name, Variant::WakeUnderLock),
    ..FIXED
};

/// A driver as a battery timer: the driver, the executor its tasks run
/// on, and how it was started (see [`start`]).
struct FuturesSubject {
    driver: Option<Driver>,
    handle: Handle,
    executor: Executor,
    /// The driver, held where it is about to fire its first timer, until
    /// the first `schedule` (or the drop).
    primed: Mutex<Option<Pause>>,
    /// Whether that hold is inside the driver's lock (A7's version).
    primed_under_lock: bool,
    /// A timer an hour away, so that the driver never parks idle again;
    /// and the first one, kept until the hold is let go (dropping it takes
    /// the driver's lock, which A7's version holds there).
    _timers: [Sleep; 2],
}

/// Starts a driver of `variant` on a thread named `name`, and holds it
/// where it has taken its first timer (due in 1 ms) out of the wheel and
/// not yet fired it, until the first `schedule` has filed its timer.
///
/// Why: S1/C1 holds the driver where it has chosen how long to park (A5's
/// window, S1's lesson), and a driver passes that point also when it parks
/// with nothing to do, as it does at once on start. Held there, it would
/// not have planned for the scenario's far task. So the scenario arms that
/// window after the start, while the driver is held here; the first
/// `schedule` files the far task and lets the driver go, and its next turn
/// plans for the far task and is the one held. (A7's version holds its
/// lock at this point: its `schedule` lets it go first, then files, and a
/// timer an hour away, filed here, keeps the turn held from being an idle
/// one either way.)
fn start(name: &str, variant: Variant) -> Box<dyn Subject> {
    let primed_under_lock = variant == Variant::WakeUnderLock;
    let window = if primed_under_lock {
        wake_under_lock::WINDOW
    } else {
        FIRE_WINDOW
    };
    let pause = Pause::arm(window, name);
    let driver = Driver::builder(name)
        .variant(variant)
        .start()
        .expect("start the driver");
    let handle = driver.handle();
    let anchor = handle.sleep(ms(3_600_000));
    let first = filed(&handle, ms(1));
    pause.wait_reached();
    Box::new(FuturesSubject {
        driver: Some(driver),
        handle,
        executor: Executor::new(&unique_name("pm-ax"), 1),
        primed: Mutex::new(Some(pause)),
        primed_under_lock,
        _timers: [anchor, first],
    })
}

impl Subject for FuturesSubject {
    fn schedule(&self, delay: Duration, task: Task) {
        let primed = self.primed.lock().take();
        let primed = if self.primed_under_lock {
            drop(primed);
            None
        } else {
            primed
        };
        let sleep = self.handle.sleep(delay);
        drop(primed);
        self.executor.spawn(async move {
            if sleep.await.is_ok() {
                task();
            }
        });
    }

    fn wakeups(&self) -> Option<u64> {
        Some(self.handle.stats().wakeups)
    }

    fn planned_a_deadline(&self) -> bool {
        matches!(self.handle.stats().plan, Plan::Until(_))
    }
}

impl Drop for FuturesSubject {
    fn drop(&mut self) {
        // Lets the driver go if it is still held, shuts it down and joins
        // its thread; the executor's drop then runs what the shutdown
        // woke and joins its worker.
        drop(self.primed.lock().take());
        drop(self.driver.take());
    }
}

/// A sleep due in `delay` that the driver has to fire: it is in the wheel.
///
/// `Handle::sleep` reads the clock twice, once for the deadline and once,
/// under the driver's lock, to file it. A thread kept from a core for
/// longer than `delay` between the two (a loaded machine) finds the
/// deadline passed and fires the sleep itself (A6's rule), and the driver
/// never sees it: a scenario holding the driver where it fires would wait
/// in vain. Such a sleep is made again, up to 100 times.
fn filed(handle: &Handle, delay: Duration) -> Sleep {
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

/// Why a timer column does not ask a timer for futures.
pub fn not_the_drivers(why: &str) -> Outcome {
    Outcome {
        verdict: Verdict::NotApplicable,
        detail: format!("a timer for futures: {why}"),
        joined: true.into(),
    }
}

fn not_futures() -> Outcome {
    Outcome {
        verdict: Verdict::NotApplicable,
        detail: "not a timer for futures".to_owned(),
        joined: true.into(),
    }
}

/// A task's waker that counts its wakes, and how many of them came while
/// the driver's lock was held (it asks with `try_stats`, which never
/// waits).
struct Probe {
    woken: AtomicUsize,
    under_lock: AtomicUsize,
    handle: Handle,
}

impl Wake for Probe {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        if self.handle.try_stats().is_none() {
            self.under_lock.fetch_add(1, SeqCst);
        }
        self.woken.fetch_add(1, SeqCst);
    }
}

impl Probe {
    fn new(handle: &Handle) -> Arc<Probe> {
        Arc::new(Probe {
            woken: AtomicUsize::new(0),
            under_lock: AtomicUsize::new(0),
            handle: handle.clone(),
        })
    }

    fn woken(&self) -> usize {
        self.woken.load(SeqCst)
    }
}

/// Polls `sleep` once with `probe`'s waker.
fn poll(sleep: &mut Sleep, probe: &Arc<Probe>) -> Poll<Result<(), async_timer::TimerError>> {
    let waker = Waker::from(Arc::clone(probe));
    Pin::new(sleep).poll(&mut Context::from_waker(&waker))
}

/// A driver of the row's version, on a thread of its own name.
fn driver(version: &Futures, prefix: &str) -> (Driver, String) {
    let name = unique_name(prefix);
    let driver = Driver::builder(&name)
        .variant(version.variant)
        .start()
        .expect("start the driver");
    (driver, name)
}

/// Shuts the driver down; whether its thread is gone.
fn finish(driver: Driver, name: &str) -> bool {
    drop(driver);
    gone_within(name, ms(1000))
}

/// A1 `lost_waker`: a `Sleep` due in 10 ms is polled on a thread held in
/// the poll's window (it has seen the entry waiting and not yet stored
/// its waker); the driver, held where it has taken the due entry out, is
/// let go, then the poll. Is the task woken, or did the driver fire the
/// entry in the window, find no waker, and leave it fired with nothing
/// left to wake it?
pub fn lost_waker(version: &Version) -> Outcome {
    let Some(futures) = version.futures else {
        return not_futures();
    };
    let Some(poll_window) = futures.poll_window else {
        return Outcome {
            verdict: Verdict::NotApplicable,
            detail: "its poll has no window to hold: it looks and stores under one hold of \
                     the entry's lock, as the fix does"
                .to_owned(),
            joined: true.into(),
        };
    };
    let (driver, name) = driver(&futures, "pm-a1");
    let handle = driver.handle();
    let poller = unique_name("pm-a1p");
    let poll_pause = Pause::arm(poll_window, &poller);
    let fire_pause = Pause::arm(futures.fire_window, &name);
    let mut sleep = filed(&handle, ms(10));
    let probe = Probe::new(&handle);
    let (pending, fired_in_window) = thread::scope(|s| {
        let polling = thread::Builder::new()
            .name(poller.clone())
            .spawn_scoped(s, || poll(&mut sleep, &probe).is_pending())
            .expect("spawn the poller");
        poll_pause.wait_reached();
        fire_pause.wait_reached();
        fire_pause.release();
        // `try_stats`: a driver that wakes under its lock holds it while
        // it waits for the entry's lock, which the held poll has.
        let fired = eventually(ms(futures.a1_hold_ms), || {
            handle.try_stats().is_some_and(|s| s.fired == 1)
        });
        poll_pause.release();
        (polling.join().expect("the poller"), fired)
    });
    // `fired` counts an entry once its wakes have run: a fired entry and
    // a task not woken is a wake that will never come.
    eventually(ms(2000), || {
        probe.woken() > 0 || handle.try_stats().is_some_and(|s| s.fired == 1)
    });
    let stats = handle.stats();
    let woken = probe.woken();
    let verdict = if woken > 0 {
        Verdict::Ok
    } else if pending && stats.fired == 1 && stats.pending == 0 {
        Verdict::Bug("A1")
    } else {
        Verdict::Unclear
    };
    drop(sleep);
    Outcome {
        verdict,
        detail: format!(
            "fired while the poll was held: {fired_in_window}; the poll returned {}; task woken \
             {woken} times; the wheel holds {}",
            if pending { "Pending" } else { "Ready" },
            stats.pending
        ),
        joined: finish(driver, &name).into(),
    }
}

/// A2 `stale_waker`: task A polls a `Sleep` due in 20 ms and lets it go;
/// task B polls it while the driver is held where it has taken the entry
/// out. Which task does the driver wake?
pub fn stale_waker(version: &Version) -> Outcome {
    let Some(futures) = version.futures else {
        return not_futures();
    };
    let (driver, name) = driver(&futures, "pm-a2");
    let handle = driver.handle();
    let pause = Pause::arm(futures.fire_window, &name);
    let mut sleep = filed(&handle, ms(20));
    let (a, b) = (Probe::new(&handle), Probe::new(&handle));
    let polled_a = poll(&mut sleep, &a).is_pending();
    pause.wait_reached();
    let polled_b = poll(&mut sleep, &b).is_pending();
    pause.release();
    // Counted once its wakes have run (`try_stats`: see `lost_waker`).
    let fired = eventually(ms(2000), || {
        handle.try_stats().is_some_and(|s| s.fired == 1)
    });
    let (woken_a, woken_b) = (a.woken(), b.woken());
    let verdict = match (polled_a && polled_b && fired, woken_a, woken_b) {
        (true, _, 1..) => Verdict::Ok,
        (true, 1.., 0) => Verdict::Bug("A2"),
        _ => Verdict::Unclear,
    };
    drop(sleep);
    Outcome {
        verdict,
        detail: format!(
            "fired: {fired}; task A (polled first, then let go) woken {woken_a} times, task B \
             (polled last) {woken_b}"
        ),
        joined: finish(driver, &name).into(),
    }
}

/// How soon after a reset to the past A6 wants the task woken.
const A6_WITHIN_MS: u64 = 100;

/// A6 `reset_to_past_never_wakes`: a task waits on a `Sleep` due in 5 s;
/// once the driver sleeps until that timer's slot, the `Sleep` is reset to
/// a deadline already past. Is the task woken?
pub fn reset_to_past(version: &Version) -> Outcome {
    let Some(futures) = version.futures else {
        return not_futures();
    };
    let (driver, name) = driver(&futures, "pm-a6");
    let handle = driver.handle();
    let began = Instant::now();
    let mut sleep = handle.sleep(ms(5000));
    let probe = Probe::new(&handle);
    let polled = poll(&mut sleep, &probe).is_pending();
    let far_plan =
        || matches!(handle.stats().plan, Plan::Until(at) if at > Instant::now() + ms(1000));
    let planned = eventually(ms(2000), far_plan);
    sleep.reset(began);
    let woken = eventually(ms(A6_WITHIN_MS), || probe.woken() > 0);
    let stats = handle.stats();
    let due_now = stats.next.is_some_and(|next| next <= Instant::now());
    let verdict = if !polled || !planned {
        Verdict::Unclear
    } else if woken {
        Verdict::Ok
    } else if due_now && far_plan() {
        // Due in the wheel, nobody woken, and the driver asleep until a
        // slot seconds away: nothing looks before then.
        Verdict::Bug("A6")
    } else {
        Verdict::Unclear
    };
    drop(sleep);
    Outcome {
        verdict,
        detail: format!(
            "reset to the past; woken within {A6_WITHIN_MS} ms: {woken}; due in the wheel: \
             {due_now}; the driver's plan {:?}",
            stats.plan
        ),
        joined: finish(driver, &name).into(),
    }
}

/// A7 `wake_under_lock`: the driver wakes a task's waker; does the waker
/// find the driver's lock free? A waker that polls inline, or files the
/// task's next timer, takes that lock: held, the driver deadlocks on
/// itself. (The waker only asks, with `try_stats`; it files nothing, so
/// the scenario cannot hang.)
pub fn wake_under_lock(version: &Version) -> Outcome {
    let Some(futures) = version.futures else {
        return not_futures();
    };
    let (driver, name) = driver(&futures, "pm-a7");
    let handle = driver.handle();
    let pause = Pause::arm(futures.fire_window, &name);
    let mut sleep = filed(&handle, ms(10));
    let probe = Probe::new(&handle);
    // The driver is held before it fires until the task has polled, so
    // the waker is always in place.
    let polled = poll(&mut sleep, &probe).is_pending();
    pause.wait_reached();
    pause.release();
    let woken = eventually(ms(2000), || probe.woken() > 0);
    let under = probe.under_lock.load(SeqCst);
    let verdict = match (polled && woken, under) {
        (true, 0) => Verdict::Ok,
        (true, _) => Verdict::Bug("A7"),
        _ => Verdict::Unclear,
    };
    drop(sleep);
    Outcome {
        verdict,
        detail: format!(
            "woken {} times, {under} of them with the driver's lock held",
            probe.woken()
        ),
        joined: finish(driver, &name).into(),
    }
}

/// How many timeouts A3's scenario sets, as T14's column cancels.
const TIMEOUTS: usize = 1000;

/// A3 `dropped_sleep_leaks`, asked in T14's column: 1000 timeouts of an
/// hour, each around a future that is ready at once (the timeout's
/// `Sleep` is dropped unfired): how many entries does the wheel still
/// hold?
pub fn dropped_sleeps_held(futures: &Futures) -> Outcome {
    let (driver, name) = driver(futures, "pm-a3");
    let handle = driver.handle();
    let won = (0..TIMEOUTS)
        .filter(|&i| async_timer::block_on(handle.timeout(ms(3_600_000), async { i })) == Ok(i))
        .count();
    let held = handle.stats().pending;
    let verdict = match (won, held) {
        (TIMEOUTS, 0) => Verdict::Ok,
        (TIMEOUTS, TIMEOUTS) => Verdict::Bug("A3"),
        _ => Verdict::Unclear,
    };
    Outcome {
        verdict,
        detail: format!("{held} entries held after {won} timeouts whose futures won"),
        joined: finish(driver, &name).into(),
    }
}
