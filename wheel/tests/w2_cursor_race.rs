//! W2 `cursor_race`: the CAS hashed wheel timer post's own TODO. `add`
//! reads the cursor, computes the task's slot, and only then claims a cell
//! in it. If the ticker drains that slot in between, the task lands in a
//! slot that has just been emptied, and waits a whole revolution for the
//! ticker to come round again.
//!
//! - lockfree.rs: the adder is held at its pause point, slot computed
//!   and not yet claimed, while the ticker passes that slot; released, it
//!   claims the slot behind the ticker, and the task fires a revolution
//!   after it was due.
//! - hashed.rs, the fix: `schedule` computes a deadline and sends it to the
//!   ticker, which alone picks the slot, from the deadline and its own
//!   cursor. Held at the same moment (deadline computed, not yet sent),
//!   the task is late by the hold and no more: it fires on the next tick.
//!
//! The correctness check: the task fires less than a revolution after it
//! was due. Exact for the bug when counted in the ticker's own ticks (its
//! task cannot fire before its slot comes round again, a revolution on; in
//! wall time a ticker that lagged and caught up can make a revolution
//! shorter, which a run beside four busy loops once did), and for the fix
//! a bound no loaded machine reaches: the hold ends a few ticks after the due time, and the task
//! fires at the next tick. A hold is no bug of the wheel's, a revolution
//! is. (It was "one tick plus 40 ms after the later of the due time and the
//! let-go", a bound on the clock that a loaded machine can break, as it
//! broke W3's.) That the hold costs the fixed wheel nothing more is
//! counted in its own ticks: the task fires at the first tick after it
//! reached the ticker.
#![cfg(not(loom))]

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::SeqCst};
use std::thread;
use std::time::Duration;

use wheel::hashed::{HashedConfig, HashedWheel, SEND_WINDOW};
use wheel::hashed_core::ticks_for;
use wheel::lockfree::{LockFreeConfig, LockFreeWheel};
use wheel::{Job, OnTicker};

use kit::pause::Pause;
use kit::scale::in_ms;
use kit::threads::unique_name;
use kit::{Recorder, ms};

const LOCKFREE_WINDOW: &str = "wheel::lockfree: slot computed, not yet claimed";
const TICK_MS: u64 = 10;
const SLOTS: usize = 32;
/// The task's delay: its slot is two ahead of the cursor.
const DELAY_TICKS: u64 = 2;

fn revolution() -> Duration {
    ms(TICK_MS) * SLOTS as u32
}

/// One run: when the task was due, when the adder was let go, when the
/// task ran.
struct Run {
    rec: Recorder,
    due: Duration,
    released: Duration,
    ran: Option<Duration>,
}

/// Holds the adder at `window` while `add` schedules the task, calls
/// `pass` (which returns once the ticker has gone past the task's slot),
/// releases the adder, and waits for the task.
fn race(window: &'static str, add: impl Fn(Duration, Job) + Sync, pass: impl FnOnce()) -> Run {
    let rec = Recorder::new();
    let adder = unique_name("w2-add");
    let pause = Pause::arm(window, &adder);
    let delay = ms(TICK_MS * DELAY_TICKS);
    let (due, released) = thread::scope(|scope| {
        let handle = thread::Builder::new()
            .name(adder.clone())
            .spawn_scoped(scope, || {
                let r = rec.clone();
                let called = rec.record("add called");
                add(
                    delay,
                    Box::new(move || {
                        r.record("ran");
                    }),
                );
                called + delay
            })
            .unwrap();
        pause.wait_reached();
        rec.record_as("test", "adder held");
        pass();
        let released = rec.record_as("test", "ticker passed the slot; adder released");
        pause.release();
        (handle.join().unwrap(), released)
    });
    // Generous: a passing run returns as soon as the task runs, and a ticker
    // starved beside busy loops and builds once took more than a second.
    let ran = rec.eventually("ran", released + revolution() * 2 + ms(10_000));
    Run {
        rec,
        due,
        released,
        ran,
    }
}

/// The race on the lock-free wheel, and its count in the ticker's own
/// ticks: the ticks done before the adder was started, and the tick during
/// which the task ran.
///
/// Why ticks: the ticker wakes at deadlines (start + k × tick), so one kept
/// off its core catches up with ticks back to back, and a revolution after
/// a lag can take less than a revolution of wall time. In ticks the bug is
/// exact. The adder read a cursor `c` no earlier than `before`, so its task
/// was due at tick `c + DELAY_TICKS` or later; the ticker drained that
/// slot while the adder was held, so the task runs when the slot comes
/// round again, at tick `c + DELAY_TICKS + SLOTS` or later.
fn on_lockfree() -> (Run, u64, u64) {
    let name = unique_name("w2-lf");
    let config = LockFreeConfig::new(ms(TICK_MS), SLOTS, 4);
    let wheel = Arc::new(LockFreeWheel::start(config, Arc::new(OnTicker), &name).unwrap());
    let ran_at = Arc::new(AtomicU64::new(u64::MAX));
    let before = wheel.stats().ticks;
    let run = race(
        LOCKFREE_WINDOW,
        |delay, job| {
            // A weak handle: the task lives in the wheel it reads.
            let (weak, ran_at) = (Arc::downgrade(&wheel), Arc::clone(&ran_at));
            let counted: Job = Box::new(move || {
                if let Some(wheel) = weak.upgrade() {
                    ran_at.store(wheel.stats().ticks, SeqCst);
                }
                job();
            });
            wheel.add(delay, counted).unwrap();
        },
        || {
            // The adder read the cursor at tick k or before; its slot is
            // drained, to the end, by tick k + DELAY_TICKS + 1.
            let k = wheel.stats().ticks;
            let passed = kit::eventually(ms(2000), || wheel.stats().ticks > k + DELAY_TICKS);
            assert!(passed, "the ticker did not move");
        },
    );
    let wheel = Arc::into_inner(wheel).expect("the task let its handle go before it recorded");
    drop(wheel.stop());
    (run, before, ran_at.load(SeqCst))
}

/// The correctness check on the lock-free wheel, in its ticks: the task
/// ran less than a revolution after the earliest tick it can have been due
/// at (see [`on_lockfree`]).
fn within_a_revolution_in_ticks(before: u64, ran_tick: u64) -> bool {
    ran_tick < before + DELAY_TICKS + SLOTS as u64
}

/// The same hold on the hashed wheel, for as many ticks. Also returns, in
/// the wheel's ticks, the last tick it had begun when the held `schedule`
/// returned, and the tick that ran the task.
fn on_hashed() -> (Run, u64, u64) {
    let name = unique_name("w2-h");
    let config = HashedConfig {
        tick: ms(TICK_MS),
        slots: SLOTS,
    };
    let wheel = HashedWheel::start(config, Arc::new(OnTicker), &name).unwrap();
    let (sent, fired) = (AtomicU64::new(0), Arc::new(AtomicU64::new(0)));
    let run = race(
        SEND_WINDOW,
        |delay, job| {
            let (scheduler, fired) = (wheel.scheduler(), Arc::clone(&fired));
            let job: Job = Box::new(move || {
                // On the ticker (OnTicker): the tick being processed.
                fired.store(scheduler.ticks(), SeqCst);
                job();
            });
            drop(wheel.schedule(delay, job).unwrap());
            sent.store(wheel.ticks(), SeqCst);
        },
        || {
            // The held adder computed its deadline before it was held: it
            // rounds up to this tick at the latest. The hold lasts until
            // the ticker has processed it, counted in the ticker's ticks (a
            // ticker kept off its core lags the clock: held only for
            // DELAY_TICKS of its ticks, the adder was once let go before
            // its due tick, and the task rightly waited for it).
            let due = ticks_for(
                wheel.started_at().elapsed() + ms(TICK_MS * DELAY_TICKS),
                wheel.tick(),
            )
            .unwrap();
            let k = wheel.ticks();
            let past = due.max(k + DELAY_TICKS);
            let passed = kit::eventually(ms(2000), || wheel.ticks() > past);
            assert!(passed, "the ticker did not move");
        },
    );
    assert!(wheel.stop().is_empty());
    (run, sent.load(SeqCst), fired.load(SeqCst))
}

/// The correctness check: less than a revolution after it was due.
fn assert_fires_within_a_revolution(run: &Run, wheel: &str) {
    let Some(ran) = run.ran else {
        panic!(
            "W2 cursor_race: on {wheel}, the task due at {} ms (adder let go at {} ms) never \
             ran\n{}",
            in_ms(run.due),
            in_ms(run.released),
            run.rec.log()
        );
    };
    assert!(
        ran < run.due + revolution(),
        "W2 cursor_race: on {wheel}, the task due at {} ms, whose adder was let go at {} ms, \
         ran at {} ms: {} ms late, a revolution ({} ms) or more; the ticker had passed its \
         slot\n{}",
        in_ms(run.due),
        in_ms(run.released),
        in_ms(ran),
        in_ms(ran.saturating_sub(run.due)),
        in_ms(revolution()),
        run.rec.log()
    );
}

#[test]
fn w2_cursor_race_reproduces() {
    let (run, before, ran_tick) = on_lockfree();
    let ran = run.ran.expect("ran, a revolution late");
    // Not before its slot came round again, in the ticker's ticks: exact.
    assert!(
        !within_a_revolution_in_ticks(before, ran_tick),
        "ran at tick {ran_tick}, before its slot came round again (ticks done before the \
         adder started: {before})\n{}",
        run.rec.log()
    );
    println!(
        "W2 reproduced: task due at {} ms, adder let go at {} ms, ran at {} ms: {} ms late \
         (a revolution is {} ms); at tick {ran_tick}, {} ticks after the {before} done before \
         the adder started",
        in_ms(run.due),
        in_ms(run.released),
        in_ms(ran),
        in_ms(ran.saturating_sub(run.due)),
        in_ms(revolution()),
        ran_tick.saturating_sub(before)
    );
}

#[test]
#[ignore = "W2 cursor_race: shows the bug in lockfree.rs"]
fn w2_cursor_race_on_lockfree() {
    let (run, before, ran_tick) = on_lockfree();
    assert_fires_within_a_revolution(&run, "lockfree.rs");
    assert!(
        within_a_revolution_in_ticks(before, ran_tick),
        "W2 cursor_race: on lockfree.rs, the task ran at tick {ran_tick}, {} ticks after the \
         {before} done before its adder started: its slot had come round again ({SLOTS} \
         slots), the ticker had passed it\n{}",
        ran_tick.saturating_sub(before),
        run.rec.log()
    );
}

#[test]
fn w2_cursor_race_fixed() {
    let (run, sent, fired) = on_hashed();
    assert_fires_within_a_revolution(&run, "hashed.rs");
    // Nothing more than the hold: the ticker files it at the next tick it
    // begins (or the one it is beginning), and it is due by then (the hold
    // outlasted its due tick, in the ticker's count).
    assert!(
        fired <= sent + 1,
        "W2 cursor_race: on hashed.rs, the task reached the ticker during tick {sent} and ran \
         at tick {fired}\n{}",
        run.rec.log()
    );
    let ran = run.ran.unwrap();
    println!(
        "W2 fixed: task due at {} ms, adder let go at {} ms, ran at {} ms, at tick {fired} (sent \
         during tick {sent})",
        in_ms(run.due),
        in_ms(run.released),
        in_ms(ran)
    );
}
