//! The fixed timer on two executors: the crate's own `block_on`, and the
//! `futures` crate's `block_on` and `LocalPool`. Executor-agnostic means
//! exactly this: the same `Sleep`, `timeout` and `Interval` work on both,
//! since all they use of an executor is a `Waker`.
//!
//! Every timer is checked "not before" with an exact bound (its deadline)
//! and "on time" with a generous one.
#![cfg(not(loom))]

mod support;

use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use async_timer::{Handle, MissedTickBehavior, TimeoutError, Variant, block_on};
use futures::executor::LocalPool;
use futures::task::LocalSpawnExt;
use kit::{ms, threads};

/// How late a timer may be on an idle machine, and then some.
const MARGIN_MS: u64 = 200;

/// Runs `test` with a fresh fixed driver's handle, then shuts it down.
fn with_driver(prefix: &str, test: impl FnOnce(&Handle)) {
    let (driver, name) = support::driver(prefix, Variant::Fixed);
    test(&driver.handle());
    drop(driver);
    threads::assert_gone(&name);
}

/// Sleeps `delay` with `run` as the executor; checks it was on time.
fn sleeps_on_time(
    handle: &Handle,
    run: impl FnOnce(async_timer::Sleep) -> Result<(), async_timer::TimerError>,
) {
    let start = Instant::now();
    let sleep = handle.sleep(ms(20));
    let deadline = sleep.deadline();
    run(sleep).expect("the sleep fires");
    let woke = Instant::now();
    assert!(
        woke >= deadline,
        "woke {:?} before its deadline",
        deadline - woke
    );
    assert!(
        woke - start <= ms(20 + MARGIN_MS),
        "woke after {:?}",
        woke - start
    );
}

#[test]
fn sleep_on_the_crates_block_on() {
    with_driver("ex-own", |handle| sleeps_on_time(handle, block_on));
}

#[test]
fn sleep_on_futures_block_on() {
    with_driver("ex-fut", |handle| {
        sleeps_on_time(handle, futures::executor::block_on);
    });
}

#[test]
fn sleeps_on_a_local_pool_each_wake_their_own_task() {
    with_driver("ex-pool", |handle| {
        let mut pool = LocalPool::new();
        let woke = Rc::new(RefCell::new(Vec::new()));
        let start = handle.now();
        for delay in [30, 10, 20] {
            let (handle, woke) = (handle.clone(), Rc::clone(&woke));
            let deadline = start + ms(delay);
            let task = async move {
                handle.sleep_until(deadline).await.expect("fires");
                woke.borrow_mut().push((deadline, Instant::now()));
            };
            pool.spawner().spawn_local(task).expect("spawn");
        }
        pool.run();
        assert_eq!(woke.borrow().len(), 3, "every task finished");
        for &(deadline, at) in woke.borrow().iter() {
            assert!(at >= deadline, "a task woke {:?} early", deadline - at);
        }
        assert!(
            start.elapsed() <= ms(30 + MARGIN_MS),
            "took {:?}",
            start.elapsed()
        );
    });
}

#[test]
fn timeout_either_way_on_both_executors() {
    with_driver("ex-to", |handle| {
        // The limit counts from the call, not from the first poll. Ours
        // fixes the deadline where it files the entry, at the call: the
        // driver fires the limit with no poll at all, and the first poll
        // finds it elapsed. (Counted from the first poll, nothing would be
        // in the wheel to fire.) Judged by what the driver did, not by how
        // soon the poll returned: a loaded machine decides that, and
        // counted from the poll the limit is only 10 ms later. First on a
        // fresh driver, so that the one timer it can have fired is the
        // limit (it counts an entry once it has completed it).
        assert_eq!(handle.stats().fired, 0);
        let limit = handle.timeout(ms(10), std::future::pending::<()>());
        assert!(
            kit::eventually(ms(5000), || handle.stats().fired == 1),
            "the limit was not fired before its first poll: it counts from the poll"
        );
        assert_eq!(
            futures::FutureExt::now_or_never(limit),
            Some(Err(TimeoutError::Elapsed)),
            "elapsed at the first poll"
        );
        let fast = handle.timeout(ms(1000), async { 7 });
        assert_eq!(block_on(fast), Ok(7));
        let slow = handle.timeout(ms(10), handle.sleep(ms(1000)));
        assert_eq!(
            futures::executor::block_on(slow),
            Err(TimeoutError::Elapsed)
        );
    });
}

#[test]
fn interval_ticks_every_period_on_a_local_pool() {
    with_driver("ex-iv", |handle| {
        let mut interval = handle.interval(ms(10)).expect("a valid period");
        interval.set_missed_tick_behavior(MissedTickBehavior::Skip);
        let mut pool = LocalPool::new();
        let ticks = pool.run_until(async move {
            let mut ticks = Vec::new();
            for _ in 0..4 {
                ticks.push(interval.tick().await.expect("ticks"));
            }
            ticks
        });
        for pair in ticks.windows(2) {
            let step = pair[1] - pair[0];
            assert!(step >= ms(10), "ticks {step:?} apart");
        }
    });
}

#[test]
fn reset_later_and_earlier() {
    with_driver("ex-rs", |handle| {
        let start = Instant::now();
        let mut later = handle.sleep(ms(10));
        later.reset(start + ms(40));
        block_on(&mut later).expect("fires");
        assert!(
            Instant::now() >= start + ms(40),
            "fired at its old deadline"
        );
        let mut sooner = handle.sleep(ms(10_000));
        sooner.reset(Instant::now() + ms(10));
        let before = Instant::now();
        block_on(&mut sooner).expect("fires");
        assert!(
            before.elapsed() < ms(MARGIN_MS),
            "waited for the old deadline"
        );
    });
}

#[test]
fn a_fired_sleep_stays_ready_and_a_dropped_one_leaves_nothing() {
    with_driver("ex-dr", |handle| {
        let mut sleep = handle.sleep(Duration::ZERO);
        assert!(sleep.is_elapsed(), "a deadline of now fires at once");
        assert_eq!(block_on(&mut sleep), Ok(()));
        assert_eq!(block_on(&mut sleep), Ok(()));
        let far: Vec<_> = (0..100).map(|_| handle.sleep(ms(60_000))).collect();
        assert_eq!(handle.stats().pending, 100);
        drop(far);
        assert_eq!(handle.stats().pending, 0);
    });
}

#[test]
fn timers_can_move_between_threads() {
    fn send<T: Send>(_: &T) {}
    fn send_sync<T: Send + Sync>(_: &T) {}
    with_driver("ex-send", |handle| {
        send_sync(handle);
        let sleep = handle.sleep(ms(1));
        send(&sleep);
        send(&handle.timeout(ms(1), async { 1 }));
        send(&handle.interval(ms(1)).expect("a valid period"));
        // A sleep made on one thread is awaited on another.
        let woke = std::thread::spawn(move || block_on(sleep));
        assert_eq!(woke.join().expect("the other thread"), Ok(()));
    });
}
