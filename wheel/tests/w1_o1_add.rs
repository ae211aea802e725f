//! W1 `o1_add`: the lock-free wheel of the CAS hashed wheel timer post
//! (lockfree.rs) adds a task in O(1): slot = (cursor + delay / tick) mod
//! slots, one `fetch_add` and one store, no lock, no search. A ticker
//! thread moves the cursor one slot a tick and hands the slot it leaves to
//! an executor, here stage 6's pool.
//!
//! The facts: where a task lands, that it fires within about a tick of its
//! due time (up to a tick early: the division truncates, W3), that a task
//! with less than a tick to wait goes to the executor at once, that `stop`
//! hands back every task still in the ring (and any the executor refused),
//! and that a configuration the wheel cannot run is a typed error.
//!
//! To read the cursor and the slots while nothing moves, a test holds the
//! ticker at its pause point, just woken for a tick and not yet moving
//! the cursor.
#![cfg(not(loom))]

use std::sync::Arc;
use std::time::Duration;

use threadpool_executor::factory::NamedThreads;
use threadpool_executor::presets;
use wheel::lockfree::{LockFreeConfig, LockFreeWheel, MAX_CELLS};
use wheel::{ConfigError, Executor, Job, OnTicker};

use kit::pause::Pause;
use kit::scale::in_ms;
use kit::threads::{assert_gone, unique_name};
use kit::{Recorder, ms};

const TICKER_WOKE: &str = "wheel::lockfree: woke for a tick, cursor not yet advanced";
const TICK_MS: u64 = 10;
const SLOTS: usize = 32;
/// What a loaded machine may add to a tick before a task runs: generous
/// (at rest it is under a millisecond; a loaded machine has held a ticker
/// back 80 ms), and still less than a revolution (320 ms), so a task that
/// waited for its slot to come round again would not pass. Which slot a
/// task lands in is checked exactly, with the ticker held
/// (`w1_o1_add_lands_in_cursor_plus_delay_over_tick`): this test only
/// shows the tasks fire, through the pool, about when they are due.
const SLACK_MS: u64 = 250;

fn wheel(name: &str, executor: Arc<dyn Executor>) -> LockFreeWheel {
    LockFreeWheel::start(LockFreeConfig::new(ms(TICK_MS), SLOTS, 4), executor, name).unwrap()
}

/// A job that records `what` when it runs.
fn job(rec: &Recorder, what: &str) -> impl FnOnce() + Send + 'static {
    let (rec, what) = (rec.clone(), what.to_owned());
    move || {
        rec.record(what);
    }
}

#[test]
fn w1_o1_add_lands_in_cursor_plus_delay_over_tick() {
    let name = unique_name("w1-slot");
    let rec = Recorder::new();
    let wheel = wheel(&name, Arc::new(OnTicker));
    // Some way round the ring first, so the cursor is not 0.
    assert!(kit::eventually(ms(2000), || wheel.stats().ticks >= 5));
    let pause = Pause::arm(TICKER_WOKE, &name);
    pause.wait_reached();
    // The ticker is held: the cursor stays where it is.
    let cursor = wheel.cursor();
    let tick = ms(TICK_MS);
    for (delay, ticks) in [(tick * 3, 3), (tick * 5 + tick / 2, 5), (tick * 17, 17)] {
        wheel.add(delay, job(&rec, "ran")).unwrap();
        let slot = (cursor + ticks) % SLOTS;
        assert_eq!(
            wheel.claimed(slot),
            1,
            "a delay of {delay:?} with the cursor at {cursor} goes to slot {slot}"
        );
    }
    let held: usize = (0..SLOTS).map(|slot| wheel.claimed(slot)).sum();
    assert_eq!(held, 3, "three tasks, three slots");
    pause.release();
    println!("W1: cursor {cursor}; delays of 3, 5.5 and 17 ticks went to slots +3, +5, +17");
    assert_eq!(wheel.stop().len(), 3, "none due yet");
}

#[test]
fn w1_o1_add_fires_about_on_time_through_the_pool() {
    let name = unique_name("w1-pool");
    let pool = presets::fixed(2)
        .thread_factory(NamedThreads::with_prefix(format!("{name}-p")))
        .build()
        .unwrap();
    let pool = Arc::new(pool);
    let wheel = wheel(&name, pool.clone());
    let rec = Recorder::new();
    let delays = [3, 5, 8].map(|ticks| ms(TICK_MS * ticks));
    let mut due = Vec::new();
    for (i, delay) in delays.iter().enumerate() {
        due.push(rec.elapsed() + *delay);
        wheel
            .add(*delay, job(&rec, &format!("task {i} ran")))
            .unwrap();
    }
    for (i, due) in due.iter().enumerate() {
        let ran = rec
            .eventually(&format!("task {i} ran"), ms(2000))
            .unwrap_or_else(|| panic!("task {i} never ran\n{}", rec.log()));
        // Up to a tick early (the division truncates: W3), up to a tick
        // late (it waits for its slot), plus what the machine adds.
        let (early, late) = (ms(TICK_MS), ms(TICK_MS + SLACK_MS));
        assert!(
            ran + early >= *due && ran <= *due + late,
            "task {i} due at {} ms ran at {} ms\n{}",
            in_ms(*due),
            in_ms(ran),
            rec.log()
        );
        println!(
            "W1: task {i} due at {} ms ran at {} ms on {}",
            in_ms(*due),
            in_ms(ran),
            rec.events()
                .iter()
                .find(|e| e.what == format!("task {i} ran"))
                .map(|e| e.who.clone())
                .unwrap_or_default()
        );
    }
    let stats = wheel.stats();
    assert_eq!(stats.fired, 3);
    assert_eq!(stats.spins, 0, "no adder kept the ticker waiting");
    assert!(wheel.stop().is_empty());
    assert_gone(&name);
}

#[test]
fn w1_o1_add_a_delay_under_a_tick_goes_to_the_executor_at_once() {
    let name = unique_name("w1-now");
    let pause = Pause::arm(TICKER_WOKE, &name);
    let wheel = wheel(&name, Arc::new(OnTicker));
    pause.wait_reached();
    // The ticker is held, so a task that ran was run by `add` itself.
    let ran = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let r = Arc::clone(&ran);
    wheel
        .add(ms(TICK_MS) / 2, move || {
            r.store(true, std::sync::atomic::Ordering::SeqCst);
        })
        .unwrap();
    assert!(ran.load(std::sync::atomic::Ordering::SeqCst));
    // A whole revolution is the cursor's slot again: at once too (W3).
    let rec = Recorder::new();
    wheel
        .add(ms(TICK_MS) * SLOTS as u32, job(&rec, "a revolution"))
        .unwrap();
    assert_eq!(rec.count("a revolution"), 1);
    pause.release();
    let stats = wheel.stats();
    assert_eq!((stats.fired, stats.fired_early), (2, 2));
    assert!(wheel.stop().is_empty());
}

#[test]
fn w1_o1_add_stop_returns_the_pending_tasks() {
    let name = unique_name("w1-stop");
    let wheel = wheel(&name, Arc::new(OnTicker));
    let rec = Recorder::new();
    for i in 0..3 {
        wheel
            .add(ms(TICK_MS * 20), job(&rec, &format!("task {i} ran")))
            .unwrap();
    }
    let pending = wheel.stop();
    assert_gone(&name);
    assert_eq!(pending.len(), 3, "all three handed back");
    assert_eq!(rec.events().len(), 0, "none ran");
    for job in pending {
        job();
    }
    assert_eq!(rec.events().len(), 3, "and each one runs");
}

/// An executor that takes nothing: a pool that has shut down.
struct Refuses;

impl Executor for Refuses {
    fn execute(&self, job: Job) -> Result<(), Job> {
        Err(job)
    }
}

#[test]
fn w1_o1_add_a_task_the_executor_refuses_comes_back_from_stop() {
    let name = unique_name("w1-refuse");
    let wheel = wheel(&name, Arc::new(Refuses));
    let rec = Recorder::new();
    wheel.add(Duration::ZERO, job(&rec, "now")).unwrap();
    wheel.add(ms(TICK_MS), job(&rec, "next tick")).unwrap();
    assert!(kit::eventually(ms(2000), || wheel.stats().fired == 2));
    let back = wheel.stop();
    assert_eq!(back.len(), 2, "both refused by the executor, both kept");
    for job in back {
        job();
    }
    assert_eq!((rec.count("now"), rec.count("next tick")), (1, 1));
}

#[test]
fn w1_o1_add_a_bad_configuration_is_an_error() {
    let start = |tick, slots, capacity| {
        LockFreeWheel::start(
            LockFreeConfig::new(tick, slots, capacity),
            Arc::new(OnTicker),
            &unique_name("w1-bad"),
        )
        .err()
    };
    let tick = ms(TICK_MS);
    assert_eq!(start(Duration::ZERO, 8, 1), Some(ConfigError::ZeroTick));
    assert_eq!(start(tick, 0, 1), Some(ConfigError::ZeroSlots));
    assert_eq!(start(tick, 8, 0), Some(ConfigError::ZeroCapacity));
    assert_eq!(
        start(tick, usize::MAX, 2),
        Some(ConfigError::TooLarge {
            slots: usize::MAX,
            capacity: 2,
            max: MAX_CELLS
        })
    );
    // A tick the clock cannot add is no error: the wheel just never ticks.
    let name = unique_name("w1-long");
    let wheel = LockFreeWheel::start(
        LockFreeConfig::new(Duration::MAX, 8, 1),
        Arc::new(OnTicker),
        &name,
    )
    .unwrap();
    let rec = Recorder::new();
    wheel.add(Duration::MAX, job(&rec, "far")).unwrap();
    assert_eq!(wheel.stop().len(), 1, "one tick away, for ever");
    assert_eq!(rec.count("far"), 0);
    assert_gone(&name);
}
