//! A4 `blocking_in_async`: one task blocks the thread a single-threaded
//! executor runs every task on (stage 5's I4 again).
//!
//! The scenario, on the `futures` crate's `LocalPool`: three tasks each
//! wait 20 ms on the timer; once they are waiting, a fourth task waits
//! 200 ms. (The driver is held before it fires the three until the fourth
//! has begun its wait, so that the wait always comes first, however
//! late the pool's thread gets to it.)
//!
//! - blocking_wait.rs, `wait_blocking`: the fourth task calls
//!   `std::thread::sleep`. The timer fires the three at 20 ms and wakes
//!   them, on time; but the pool's only thread is asleep inside the fourth
//!   task's poll, and polls them only when it wakes, at 200 ms.
//! - `wait_async`, the fix: the fourth task awaits a `Sleep`, its poll
//!   returns `Pending` at once, and the thread polls the three as soon
//!   as they are woken.
#![cfg(not(loom))]

mod support;

use std::cell::Cell;
use std::future::poll_fn;
use std::rc::Rc;
use std::task::Poll;
use std::thread;
use std::time::Duration;

use async_timer::blocking_wait::{wait_async, wait_blocking};
use async_timer::{FIRE_WINDOW, Variant};
use futures::executor::LocalPool;
use futures::task::LocalSpawnExt;
use kit::pause::Pause;
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

/// The three tasks' wait.
const DUE_MS: u64 = 20;
/// The fourth task's wait.
const BLOCK_MS: u64 = 200;
/// How late a task may run when nothing blocks the thread.
const MARGIN_MS: u64 = 100;
const TASKS: usize = 3;

/// One run: when each of the three was due and ran, and when the fourth
/// task's wait ended.
struct Run {
    rec: Recorder,
    tasks: Vec<(Duration, Duration)>,
    waited_until: Duration,
}

fn scenario(blocking: bool) -> Run {
    let rec = Recorder::new();
    let (driver, name) = support::driver("a4", Variant::Fixed);
    let handle = driver.handle();
    let pause = Pause::arm(FIRE_WINDOW, &name);
    let starts = if blocking {
        format!("task 4 waits {BLOCK_MS} ms: blocks the thread")
    } else {
        format!("task 4 waits {BLOCK_MS} ms: awaits a Sleep")
    };
    // Lets the driver fire the three once task 4 has begun its wait.
    let releaser = {
        let (rec, starts) = (rec.clone(), starts.clone());
        thread::spawn(move || {
            let started = rec.eventually(&starts, ms(5000));
            pause.release();
            started.is_some()
        })
    };
    let mut pool = LocalPool::new();
    let spawner = pool.spawner();
    let waiting = Rc::new(Cell::new(0));
    let done = Rc::new(Cell::new(Vec::new()));
    for i in 0..TASKS {
        let (rec, handle, waiting, done) =
            (rec.clone(), handle.clone(), waiting.clone(), done.clone());
        let task = async move {
            let due =
                rec.record_as("pool", format!("task {} waits {DUE_MS} ms", i + 1)) + ms(DUE_MS);
            let sleep = support::filed(&handle, ms(DUE_MS));
            waiting.set(waiting.get() + 1);
            sleep.await.expect("the timer fires");
            let ran = rec.record_as("pool", format!("task {} ran", i + 1));
            let mut all = done.take();
            all.push((due, ran));
            done.set(all);
        };
        spawner.spawn_local(task).expect("spawn a task");
    }
    let fourth = {
        let rec = rec.clone();
        async move {
            // Once the three are waiting (a yield per turn until then).
            poll_fn(|cx| {
                if waiting.get() == TASKS {
                    Poll::Ready(())
                } else {
                    cx.waker().wake_by_ref();
                    Poll::Pending
                }
            })
            .await;
            rec.record_as("pool", starts);
            if blocking {
                wait_blocking(ms(BLOCK_MS)).await;
            } else {
                wait_async(&handle, ms(BLOCK_MS))
                    .await
                    .expect("the timer fires");
            }
            rec.record_as("pool", "task 4 done waiting")
        }
    };
    let waited = spawner
        .spawn_local_with_handle(fourth)
        .expect("spawn task 4");
    let waited_until = pool.run_until(waited);
    pool.run();
    assert!(releaser.join().expect("the releaser"), "task 4 never began");
    drop(driver);
    threads::assert_gone(&name);
    Run {
        tasks: done.take(),
        rec,
        waited_until,
    }
}

/// The correctness check: every task runs within MARGIN_MS of its due
/// time, or before task 4's wait ended. Judged on order too, not on the
/// clock alone: a task that ran while task 4 was still waiting was not
/// kept from the thread by it, however late a loaded machine let it run;
/// with the thread held, every task runs after task 4's wait, exactly.
fn assert_on_time(run: &Run) {
    assert_eq!(run.tasks.len(), TASKS, "every task ran\n{}", run.rec.log());
    for (i, &(due, ran)) in run.tasks.iter().enumerate() {
        assert!(
            ran <= due + ms(MARGIN_MS) || ran < run.waited_until,
            "A4 blocking_in_async: task {} due at {} ms ran at {} ms ({} ms late): task 4 held \
             the executor's only thread until {} ms\n{}",
            i + 1,
            in_ms(due),
            in_ms(ran),
            in_ms(ran.saturating_sub(due)),
            in_ms(run.waited_until),
            run.rec.log()
        );
    }
}

#[test]
fn a4_blocking_in_async_reproduces() {
    let run = scenario(true);
    assert_eq!(run.tasks.len(), TASKS, "every task ran\n{}", run.rec.log());
    // None ran before task 4 let go of the thread: an exact bound.
    for (i, &(_, ran)) in run.tasks.iter().enumerate() {
        assert!(
            ran >= run.waited_until,
            "task {} ran at {} ms, while task 4 blocked the thread\n{}",
            i + 1,
            in_ms(ran),
            run.rec.log()
        );
    }
}

#[test]
fn a4_blocking_in_async_fixed() {
    assert_on_time(&scenario(false));
}

#[test]
#[ignore = "A4 blocking_in_async: shows the bug in blocking_wait.rs"]
fn a4_blocking_in_async_on_blocking_wait() {
    assert_on_time(&scenario(true));
}
