//! W7 `single_owner_wheel` (fix): the hashed wheel as Netty builds it.
//! Adders send an absolute deadline down an MPSC queue; one ticker thread
//! alone files it and expires buckets; delays longer than a revolution
//! wait out their remaining rounds; a handle cancels in O(1).
//!
//! What each test shows:
//!
//! - rounds: a delay of 2.5 revolutions fires after 2.5 revolutions, not
//!   a revolution or two early as on the lock-free wheel (W3);
//! - insert and cancel cost the same number of steps with 10^3 and 10^5
//!   timers pending (counted on the core, with no clock);
//! - a cancelled task never runs and `stop` does not return it; cancel
//!   after the task fired says false;
//! - `stop` hands back every pending task, and what the executor refused;
//!   a scheduler kept past `stop` is refused with the task back;
//! - bad input is a typed error: a zero tick, zero slots, a thread name
//!   with a NUL byte, `Duration::MAX`;
//! - 8 threads scheduling 1000 tasks each: every task fires exactly once;
//! - a task that panics on the ticker does not stop the wheel;
//! - an adder held between its deadline and its send (the window of W2
//!   and W9) holds up nothing, and its task fires a tick after the send;
//! - the price: an idle wheel's ticker still wakes every tick.
#![cfg(not(loom))]

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use wheel::hashed::{HashedConfig, HashedWheel, SEND_WINDOW};
use wheel::hashed_core::HashedCore;
use wheel::{ConfigError, Executor, Job, OnTicker, Reason};

use kit::Recorder;
use kit::pause::Pause;
use kit::scale::in_ms;

/// Beyond the one tick a task may be late: the OS waking the ticker. A
/// quiet run needs under a millisecond; a loaded VM has been seen to hold
/// the ticker back 90 ms. A bound no passing run reaches (W6 separates the
/// wheel's lateness from the OS's exactly).
const SLACK_MS: u64 = 250;

fn tick() -> Duration {
    kit::ms(10)
}

fn wheel(slots: usize, prefix: &str) -> (HashedWheel, String) {
    let name = kit::threads::unique_name(prefix);
    let config = HashedConfig {
        tick: tick(),
        slots,
    };
    (
        HashedWheel::start(config, Arc::new(OnTicker), &name).unwrap(),
        name,
    )
}

/// A job that records `what` when it runs.
fn note(rec: &Recorder, what: &str) -> Job {
    let (rec, what) = (rec.clone(), what.to_owned());
    Box::new(move || {
        rec.record(what);
    })
}

#[test]
fn w7_single_owner_wheel_rounds_fire_after_not_a_revolution_early() {
    // On the core, exactly: 4 slots, a task due at tick 10 (2.5
    // revolutions) sits through two visits of its bucket.
    let mut core = HashedCore::new(4).unwrap();
    let key = core.insert(10, "2.5 revolutions");
    assert_eq!(core.rounds(key), Some(2));
    let mut fired = Vec::new();
    let mut rounds_seen = Vec::new();
    while fired.is_empty() {
        let now = core.advance(&mut fired);
        rounds_seen.push((now, core.rounds(key)));
    }
    assert_eq!(core.now(), 10, "fired at tick {}", core.now());
    assert_eq!(rounds_seen[1], (2, Some(1)), "first visit: one round down");
    assert_eq!(rounds_seen[5], (6, Some(0)), "second visit: none left");

    // On a running wheel: 4 slots of 10 ms, a delay of 100 ms.
    let (wheel, _) = wheel(4, "w7-rnd");
    let rec = Recorder::new();
    let delay = tick() * 10;
    let scheduled = rec.elapsed();
    wheel.schedule(delay, note(&rec, "ran")).unwrap();
    // The wheel's deadline lies between `scheduled + delay` and this.
    let latest_deadline = rec.elapsed() + delay;
    let revolution = tick() * 4;
    let ran = rec
        .eventually("ran", delay + kit::ms(1000))
        .expect("it runs");
    // Not before, by the time the task recorded (not by when this thread
    // woke to look: on a loaded machine that can be later than both).
    assert!(
        ran >= scheduled + delay,
        "W7: a 2.5-revolution delay fired {:?} early\n{}",
        scheduled + delay - ran,
        rec.log()
    );
    let late = ran.saturating_sub(latest_deadline);
    println!(
        "W7 rounds: a delay of {} ms (2.5 revolutions of {} ms) ran at {} ms, {:.1} ms late; \
         with no rounds it would fire at {} ms",
        in_ms(delay),
        in_ms(revolution),
        in_ms(ran - scheduled),
        late.as_secs_f64() * 1000.0,
        in_ms(delay - revolution * 2)
    );
    assert!(
        late <= tick() + kit::ms(SLACK_MS),
        "W7: ran {late:?} late\n{}",
        rec.log()
    );
}

/// `n` entries pending, all in one bucket; then the cost of one more
/// insert and of cancelling the first one filed (a linear search's worst
/// case).
fn costs_with_pending(n: usize) -> (u64, u64) {
    let mut core = HashedCore::new(512).unwrap();
    let first = core.insert(100, 0);
    for i in 1..n {
        core.insert(100 + 512 * (i as u64 % 7), i);
    }
    assert_eq!(core.len(), n);
    let before = core.steps();
    core.insert(100, n);
    let insert = core.steps() - before;
    let before = core.steps();
    assert_eq!(core.cancel(first), Some(0));
    let cancel = core.steps() - before;
    (insert, cancel)
}

#[test]
fn w7_single_owner_wheel_insert_and_cancel_are_o1() {
    let (insert_small, cancel_small) = costs_with_pending(1_000);
    let (insert_big, cancel_big) = costs_with_pending(100_000);
    println!(
        "W7 O(1): steps to insert {insert_small} with 10^3 pending, {insert_big} with 10^5; \
         to cancel {cancel_small} and {cancel_big}"
    );
    assert_eq!(insert_small, insert_big, "insert cost grew with pending");
    assert_eq!(cancel_small, cancel_big, "cancel cost grew with pending");
    assert!(insert_big <= 2 && cancel_big <= 3);
}

#[test]
fn w7_single_owner_wheel_cancelled_never_runs_and_is_not_returned() {
    let (wheel, name) = wheel(8, "w7-can");
    let rec = Recorder::new();
    let soon = wheel.schedule(tick() * 3, note(&rec, "soon ran")).unwrap();
    let far = wheel
        .schedule(kit::ms(10_000), note(&rec, "far ran"))
        .unwrap();
    let kept = wheel
        .schedule(kit::ms(10_000), note(&rec, "kept ran"))
        .unwrap();
    assert!(soon.cancel(), "the first cancel wins");
    assert!(!soon.cancel(), "and only the first");
    assert!(soon.is_cancelled());
    assert!(far.cancel());
    // Past the cancelled task's tick, and one more: it never ran.
    let until = rec.elapsed() + tick() * 5;
    assert_eq!(
        rec.still_absent("soon ran", until),
        Ok(()),
        "\n{}",
        rec.log()
    );
    let returned = wheel.stop();
    assert_eq!(returned.len(), 1, "only the task not cancelled comes back");
    for job in returned {
        job();
    }
    assert_eq!(rec.count("kept ran"), 1);
    assert_eq!(rec.count("far ran") + rec.count("soon ran"), 0);
    assert!(!kept.cancel(), "handed back: no longer cancellable");
    assert!(!kept.is_cancelled());
    kit::threads::assert_gone(&name);
}

#[test]
fn w7_single_owner_wheel_cancel_after_fire_returns_false() {
    let (wheel, _) = wheel(8, "w7-aft");
    let rec = Recorder::new();
    let handle = wheel.schedule(tick(), note(&rec, "ran")).unwrap();
    rec.eventually("ran", kit::ms(1000)).expect("it runs");
    assert!(!handle.cancel(), "cancel after the task fired");
    assert!(!handle.is_cancelled());
    assert!(wheel.stop().is_empty());
}

#[test]
fn w7_single_owner_wheel_stop_returns_pending_and_refuses_after() {
    let (wheel, name) = wheel(8, "w7-stop");
    let rec = Recorder::new();
    let scheduler = wheel.scheduler();
    for i in 0..5 {
        // Some filed in buckets, some (the last) maybe still queued.
        wheel
            .schedule(kit::ms(1000 * (i + 1)), note(&rec, "pending ran"))
            .unwrap();
    }
    let returned = wheel.stop();
    kit::threads::assert_gone(&name);
    assert_eq!(returned.len(), 5);
    for job in returned {
        job();
    }
    assert_eq!(rec.count("pending ran"), 5, "nothing lost");

    let refused = scheduler
        .schedule(Duration::ZERO, note(&rec, "refused ran"))
        .expect_err("a stopped wheel takes nothing");
    assert_eq!(refused.reason(), Reason::Stopped);
    assert_eq!(
        refused.to_string(),
        "task refused: the wheel has been stopped"
    );
    refused.into_job()();
    assert_eq!(rec.count("refused ran"), 1, "the task came back");
}

/// An executor that takes nothing: a pool that has shut down.
struct Refusing;

impl Executor for Refusing {
    fn execute(&self, job: Job) -> Result<(), Job> {
        Err(job)
    }
}

#[test]
fn w7_single_owner_wheel_keeps_what_the_executor_gives_back() {
    let name = kit::threads::unique_name("w7-ref");
    let config = HashedConfig {
        tick: tick(),
        slots: 8,
    };
    let wheel = HashedWheel::start(config, Arc::new(Refusing), &name).unwrap();
    let rec = Recorder::new();
    let handles: Vec<_> = (0..2)
        .map(|_| {
            wheel
                .schedule(Duration::ZERO, note(&rec, "given back ran"))
                .unwrap()
        })
        .collect();
    // Two ticks: the first files and fires them, whatever the timing.
    let after = wheel.ticks() + 2;
    assert!(kit::eventually(kit::ms(1000), || wheel.ticks() >= after));
    let returned = wheel.stop();
    assert_eq!(returned.len(), 2, "the executor's refusals come back");
    for job in returned {
        job();
    }
    assert_eq!(rec.count("given back ran"), 2);
    assert!(handles.iter().all(|h| !h.cancel()), "they had fired");
}

#[test]
fn w7_single_owner_wheel_bad_config_is_a_typed_error() {
    let start = |tick, slots, name: &str| {
        HashedWheel::start(HashedConfig { tick, slots }, Arc::new(OnTicker), name).unwrap_err()
    };
    let zero_tick = start(Duration::ZERO, 8, "w7-bad");
    assert_eq!(zero_tick, ConfigError::ZeroTick);
    assert_eq!(zero_tick.to_string(), "the tick must be longer than zero");
    let zero_slots = start(tick(), 0, "w7-bad");
    assert_eq!(zero_slots, ConfigError::ZeroSlots);
    assert_eq!(zero_slots.to_string(), "a wheel needs at least one slot");
    let nul = start(tick(), 8, "w7\0bad");
    assert!(matches!(nul, ConfigError::Spawn(_)), "{nul:?}");
    assert!(nul.to_string().contains("NUL byte"), "{nul}");
    // The default is a working wheel.
    let default = HashedConfig::default();
    assert_eq!(
        (default.tick, default.slots),
        (Duration::from_millis(10), 512)
    );
}

#[test]
fn w7_single_owner_wheel_huge_delay_is_beyond_range() {
    let (wheel, _) = wheel(8, "w7-huge");
    let rec = Recorder::new();
    let refused = wheel
        .schedule(Duration::MAX, note(&rec, "huge ran"))
        .expect_err("no u64 counts Duration::MAX in 10 ms ticks");
    let Reason::BeyondRange { delay, max } = refused.reason() else {
        panic!("{refused}");
    };
    assert_eq!(delay, Duration::MAX);
    // u64::MAX ticks of 10 ms, less the wheel's age: about 5.8 billion years.
    assert!(
        max > Duration::from_secs(1 << 57) && max < Duration::MAX,
        "{max:?}"
    );
    println!("W7 range: {refused}");
    refused.into_job()();
    assert_eq!(rec.count("huge ran"), 1, "the task came back");
    // The wheel still works.
    wheel
        .schedule(Duration::ZERO, note(&rec, "after ran"))
        .unwrap();
    assert!(rec.eventually("after ran", kit::ms(1000)).is_some());
}

#[test]
fn w7_single_owner_wheel_eight_threads_each_task_fires_once() {
    const THREADS: usize = 8;
    const EACH: usize = 1000;
    let (wheel, _) = wheel(8, "w7-mt");
    let runs: Arc<Vec<AtomicU32>> =
        Arc::new((0..THREADS * EACH).map(|_| AtomicU32::new(0)).collect());
    let started = Instant::now();
    thread::scope(|scope| {
        for t in 0..THREADS {
            let (wheel, runs) = (&wheel, &runs);
            scope.spawn(move || {
                for i in 0..EACH {
                    let id = t * EACH + i;
                    let runs = Arc::clone(runs);
                    // 0 to 4 ticks, on and off the grid.
                    let delay = tick().mul_f64((id % 9) as f64 / 2.0);
                    wheel
                        .schedule(
                            delay,
                            Box::new(move || {
                                runs[id].fetch_add(1, Ordering::SeqCst);
                            }),
                        )
                        .unwrap();
                }
            });
        }
    });
    let total = || runs.iter().map(|r| r.load(Ordering::SeqCst)).sum::<u32>();
    let all = (THREADS * EACH) as u32;
    assert!(
        kit::eventually(kit::ms(1500), || total() >= all),
        "W7: {} of {all} tasks ran",
        total()
    );
    assert!(wheel.stop().is_empty());
    let not_once: Vec<_> = runs
        .iter()
        .enumerate()
        .filter(|(_, r)| r.load(Ordering::SeqCst) != 1)
        .map(|(id, r)| (id, r.load(Ordering::SeqCst)))
        .collect();
    println!(
        "W7 8 threads x 1000: all {all} ran once, the last by {} ms",
        in_ms(started.elapsed())
    );
    assert!(
        not_once.is_empty(),
        "W7: (task, runs) not run once: {not_once:?}"
    );
}

#[test]
fn w7_single_owner_wheel_survives_a_panicking_task() {
    let (wheel, _) = wheel(8, "w7-pan");
    let rec = Recorder::new();
    // resume_unwind: a panic that skips the panic hook, so the test's
    // output stays quiet.
    wheel
        .schedule(
            Duration::ZERO,
            Box::new(|| std::panic::resume_unwind(Box::new("on purpose"))),
        )
        .unwrap();
    wheel.schedule(tick() * 2, note(&rec, "after ran")).unwrap();
    assert!(rec.eventually("after ran", kit::ms(1000)).is_some());
    assert!(wheel.stop().is_empty());
}

#[test]
fn w7_single_owner_wheel_idle_ticker_wakes_every_tick() {
    let (wheel, _) = wheel(512, "w7-idle");
    let rec = Recorder::new();
    wheel
        .schedule(kit::ms(10_000), note(&rec, "far ran"))
        .unwrap();
    let (before, from) = (wheel.ticks(), Instant::now());
    // The measurement window itself, not a wait for an event.
    thread::sleep(kit::ms(200));
    let (woke, window) = (wheel.ticks() - before, from.elapsed());
    let expected = (window.as_secs_f64() / tick().as_secs_f64()) as u64;
    println!(
        "W7 idle cost: one timer {} ms away; in {} ms the ticker woke {woke} times \
         (one per {} ms tick: {expected})",
        in_ms(kit::ms(10_000)),
        in_ms(window),
        in_ms(tick())
    );
    assert!(
        woke >= expected / 2,
        "the ticker woke {woke} times in {window:?}, expected about {expected}"
    );
    assert_eq!(wheel.stop().len(), 1);
}

/// The window the lock-free wheel loses in (W2, W9), on this wheel: an
/// adder held between computing its deadline and sending. The ticker goes
/// on ticking and another task fires on time; the held task, sent after
/// its deadline, fires at the next tick: late by the hold, never lost,
/// never a revolution late.
#[test]
fn w7_single_owner_wheel_held_adder_costs_nothing() {
    // 64 slots: a revolution (640 ms) is longer than any bound below, so
    // a task that waited one, as on the lock-free wheel (W2), would show.
    let (wheel, _) = wheel(64, "w7-held");
    let rec = Recorder::new();
    let adder = kit::threads::unique_name("w7-adder");
    let pause = Pause::arm(SEND_WINDOW, &adder);
    let held_delay = tick() * 3;
    thread::scope(|scope| {
        let (wheel, rec) = (&wheel, &rec);
        let held = thread::Builder::new()
            .name(adder.clone())
            .spawn_scoped(scope, move || {
                let handle = wheel.schedule(held_delay, note(rec, "held ran")).unwrap();
                rec.record("held sent");
                handle
            })
            .unwrap();
        pause.wait_reached();
        let held_at = rec.record_as("test", "adder held");
        let other_delay = tick() * 2;
        wheel.schedule(other_delay, note(rec, "other ran")).unwrap();
        let other = rec
            .eventually("other ran", kit::ms(1000))
            .expect("the other task runs while the adder is held");
        assert!(other - held_at <= other_delay + tick() + kit::ms(SLACK_MS));
        // Well past the held task's deadline, and the ticker kept ticking.
        let ticks = wheel.ticks();
        assert!(kit::eventually(kit::ms(1000), || wheel.ticks() >= ticks + 5));
        assert_eq!(rec.count("held ran"), 0, "it was never sent");
        pause.release();
        let handle = held.join().unwrap();
        let sent = rec.at("held sent").unwrap();
        let ran = rec.eventually("held ran", kit::ms(1000)).expect("it runs");
        println!(
            "W7 held adder: due {} ms after it was held, sent at {} ms, ran at {} ms; \
             the other task ran at {} ms, due at {} ms",
            in_ms(held_delay),
            in_ms(sent - held_at),
            in_ms(ran - held_at),
            in_ms(other - held_at),
            in_ms(other_delay)
        );
        assert!(
            ran - sent <= tick() + kit::ms(SLACK_MS),
            "W7: a held adder's task ran {:?} after it was sent\n{}",
            ran - sent,
            rec.log()
        );
        assert!(!handle.cancel(), "it fired");
    });
    assert!(wheel.stop().is_empty());
}
