//! Four of stage 8's bugs, forced as the tests force them, each beside the
//! fixed timer held at the same moment: the event logs that *A timer for
//! futures* shows (`book/src/generated/a*-….txt`, written by `cargo xtask
//! timelines`).
//!
//! - `a1`, the lost waker: a poll held between its look at the entry and
//!   the store of its waker, while the driver fires the entry.
//! - `a4`, a blocking call in a task: three tasks on a `LocalPool` wait
//!   20 ms on the timer while a fourth waits 200 ms, blocking or awaiting.
//! - `a5`, the driver that oversleeps: a `Sleep` due in 20 ms, filed while
//!   the driver goes to sleep until a timer due in 1000 ms.
//! - `a6`, a reset to the past: a waiting `Sleep` reset to a deadline
//!   already past, while the driver sleeps until another timer.
//!
//! ```text
//! cargo run -p async-timer --example async_races            # all four
//! cargo run -p async-timer --example async_races -- a5      # one
//! cargo run -p async-timer --example async_races -- --a5 FILE [--a1 FILE ...]
//! ```
//!
//! The last form writes each one's log to its file, after a first line
//! with the command that prints it.

#[path = "../tests/support/mod.rs"]
mod support;

use std::cell::Cell;
use std::future::poll_fn;
use std::rc::Rc;
use std::task::Poll;
use std::thread;
use std::time::Duration;

use async_timer::blocking_wait::{wait_async, wait_blocking};
use async_timer::{Driver, FIRE_WINDOW, PARK_WINDOW, POLL_WINDOW, Plan, Variant, racy_poll};
use futures::executor::LocalPool;
use futures::task::LocalSpawnExt;
use kit::pause::Pause;
use kit::scale::in_ms;
use kit::threads::unique_name;
use kit::{Recorder, eventually, ms};
use support::TaskWaker;

/// One run's log, and the line that sums it up.
struct Run {
    title: &'static str,
    rec: Recorder,
    verdict: String,
}

/// Shuts a driver down and waits for its thread to be gone.
fn stop(driver: Driver, name: &str) {
    drop(driver);
    kit::threads::assert_gone(name);
}

/// A1: the sleep is due in 10 ms. The poll is held in its window; the
/// driver is held once it has taken the due entry, then let go first.
fn lost_waker(variant: Variant, window: &'static str, title: &'static str) -> Run {
    let rec = Recorder::new();
    let (driver, name) = support::driver("a1-driver", variant);
    let handle = driver.handle();
    let poller = unique_name("a1-poll");
    let poll_pause = Pause::arm(window, &poller);
    let fire_pause = Pause::arm(FIRE_WINDOW, &name);
    rec.record_as("test", "sleep made, due in 10 ms");
    let mut sleep = handle.sleep(ms(10));
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
    rec.record_as(&name, "held: took the due entry, not yet fired");
    rec.record_as("test", "driver let go");
    fire_pause.release();
    // The fix's driver waits for the entry's lock, which the poll holds.
    let hold = if variant == Variant::RacyPoll {
        2000
    } else {
        100
    };
    if eventually(ms(hold), || handle.stats().fired == 1) {
        rec.record_as(&name, "fired the entry: no waker in it");
    } else {
        rec.record_as("test", "driver still waiting for the entry's lock");
    }
    rec.record_as("test", "poll let go");
    poll_pause.release();
    let (sleep, pending) = polling.join().expect("the poller");
    if pending {
        rec.record_as(&poller, "poll returned Pending: waker stored");
    }
    let verdict = match task.woken_within(ms(500)) {
        Some(at) => format!("the task was woken at {} ms", in_ms(at)),
        None => format!(
            "the entry fired, the wheel holds {} entries: the task sleeps for ever",
            handle.stats().pending
        ),
    };
    drop(sleep);
    stop(driver, &name);
    Run {
        title,
        rec,
        verdict,
    }
}

/// A4: three tasks wait 20 ms; once they wait, a fourth waits 200 ms. The
/// driver is held before it fires the three until the fourth has begun.
fn blocking_in_async(blocking: bool, title: &'static str) -> Run {
    let rec = Recorder::new();
    let (driver, name) = support::driver("a4-driver", Variant::Fixed);
    let handle = driver.handle();
    let pause = Pause::arm(FIRE_WINDOW, &name);
    let starts = if blocking {
        "task 4 waits 200 ms: thread::sleep"
    } else {
        "task 4 waits 200 ms: awaits a Sleep"
    };
    let releaser = {
        let rec = rec.clone();
        thread::spawn(move || {
            let _ = rec.eventually(starts, ms(5000));
            pause.release();
        })
    };
    let mut pool = LocalPool::new();
    let spawner = pool.spawner();
    let waiting = Rc::new(Cell::new(0));
    for i in 1..=3 {
        let (rec, handle, waiting) = (rec.clone(), handle.clone(), waiting.clone());
        let task = async move {
            rec.record_as("pool", format!("task {i} waits 20 ms"));
            let sleep = handle.sleep(ms(20));
            waiting.set(waiting.get() + 1);
            sleep.await.expect("the timer fires");
            rec.record_as("pool", format!("task {i} ran"));
        };
        spawner.spawn_local(task).expect("spawn a task");
    }
    let fourth = {
        let (rec, handle) = (rec.clone(), handle.clone());
        async move {
            poll_fn(|cx| {
                if waiting.get() == 3 {
                    Poll::Ready(())
                } else {
                    cx.waker().wake_by_ref();
                    Poll::Pending
                }
            })
            .await;
            rec.record_as("pool", starts);
            if blocking {
                wait_blocking(ms(200)).await;
            } else {
                wait_async(&handle, ms(200)).await.expect("the timer fires");
            }
            rec.record_as("pool", "task 4 done waiting");
        }
    };
    spawner.spawn_local(fourth).expect("spawn task 4");
    pool.run();
    releaser.join().expect("the releaser");
    stop(driver, &name);
    let ran: Vec<String> = (1..=3)
        .filter_map(|i| rec.at(&format!("task {i} ran")))
        .map(|at| in_ms(at).to_string())
        .collect();
    let verdict = format!("tasks 1 to 3, due at 20 ms, ran at {} ms", ran.join(", "));
    Run {
        title,
        rec,
        verdict,
    }
}

/// Holds the driver as it goes to sleep after firing a timer due in 5 ms:
/// the pause, armed at its park, and its plan, as time since `rec`'s start.
fn held_at_park(rec: &Recorder, driver: &Driver, name: &str) -> (Pause, Duration) {
    let handle = driver.handle();
    let fire_pause = Pause::arm(FIRE_WINDOW, name);
    rec.record_as("test", "timer made, due in 5 ms");
    let first = handle.sleep(ms(5));
    fire_pause.wait_reached();
    let park_pause = Pause::arm(PARK_WINDOW, name);
    fire_pause.release();
    park_pause.wait_reached();
    drop(first);
    let plan = match handle.stats().plan {
        Plan::Until(at) => at.saturating_duration_since(rec.start()),
        other => panic!("the driver plans {other:?}"),
    };
    rec.record_as(
        name,
        format!("held: plans to sleep until {} ms", in_ms(plan)),
    );
    (park_pause, plan)
}

/// A5: the driver knows a timer due in 1000 ms and goes to sleep until its
/// slot; a task files a `Sleep` due in 20 ms meanwhile.
fn driver_oversleeps(variant: Variant, title: &'static str) -> Run {
    let rec = Recorder::new();
    let (driver, name) = support::driver("a5-driver", variant);
    let handle = driver.handle();
    rec.record_as("test", "timer made, due in 1000 ms");
    let far = handle.sleep(ms(1000));
    let (park_pause, _) = held_at_park(&rec, &driver, &name);
    rec.record_as("task", "sleep made, due in 20 ms");
    let mut near = handle.sleep(ms(20));
    let task = TaskWaker::new(&rec, "task");
    assert!(support::poll_once(&mut near, &task.waker()).is_pending());
    rec.record_as("test", "driver let go");
    park_pause.release();
    let verdict = match task.woken_within(ms(2000)) {
        Some(at) => format!(
            "the sleep due at about 20 ms woke its task at {} ms",
            in_ms(at)
        ),
        None => "the sleep never woke its task".to_string(),
    };
    drop((near, far));
    stop(driver, &name);
    Run {
        title,
        rec,
        verdict,
    }
}

/// A6: a task waits on a `Sleep` due in 5 s; another timer is due in
/// 200 ms. The `Sleep` is reset to the start of the run, already past.
fn reset_to_past(variant: Variant, title: &'static str) -> Run {
    let rec = Recorder::new();
    let (driver, name) = support::driver("a6-driver", variant);
    let handle = driver.handle();
    rec.record_as("task", "sleep made, due in 5000 ms");
    let mut sleep = handle.sleep(ms(5000));
    let task = TaskWaker::new(&rec, "task");
    assert!(support::poll_once(&mut sleep, &task.waker()).is_pending());
    rec.record_as("test", "other timer made, due in 200 ms");
    let other = handle.sleep(ms(200));
    let (park_pause, _) = held_at_park(&rec, &driver, &name);
    rec.record_as("task", "sleep reset to 0 ms, already past");
    sleep.reset(rec.start());
    rec.record_as("test", "driver let go");
    park_pause.release();
    let verdict = match task.woken_within(ms(2000)) {
        Some(at) => format!("the task was woken at {} ms", in_ms(at)),
        None => "the task was never woken".to_string(),
    };
    drop((sleep, other));
    stop(driver, &name);
    Run {
        title,
        rec,
        verdict,
    }
}

/// Each scenario's name, and its two runs: the bug's version, then the fix.
fn scenario(which: &str) -> Option<[Run; 2]> {
    Some(match which {
        "a1" => [
            lost_waker(Variant::RacyPoll, racy_poll::WINDOW, "racy_poll.rs"),
            lost_waker(Variant::Fixed, POLL_WINDOW, "entry.rs (the fix)"),
        ],
        "a4" => [
            blocking_in_async(true, "wait_blocking"),
            blocking_in_async(false, "wait_async (the fix)"),
        ],
        "a5" => [
            driver_oversleeps(Variant::UnparksIdleOnly, "unparks_idle_only.rs"),
            driver_oversleeps(Variant::Fixed, "handle.rs (the fix)"),
        ],
        "a6" => [
            reset_to_past(Variant::ResetWithoutWake, "reset_without_wake.rs"),
            reset_to_past(Variant::Fixed, "sleep.rs (the fix)"),
        ],
        _ => return None,
    })
}

/// The command that prints `which`, then both runs' logs and verdicts.
fn report(which: &str, runs: &[Run; 2]) -> String {
    let mut out = format!("$ cargo run -p async-timer --example async_races -- {which}\n");
    for (i, run) in runs.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&format!(
            "{}:\n{}=> {}\n",
            run.title,
            run.rec.log(),
            run.verdict
        ));
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a.starts_with("--")) {
        for pair in args.chunks(2) {
            let [flag, file] = pair else {
                panic!("--<scenario> needs a file: {pair:?}");
            };
            let which = flag.trim_start_matches("--");
            let runs = scenario(which).unwrap_or_else(|| panic!("no scenario {flag}"));
            std::fs::write(file, report(which, &runs)).expect("write the log");
        }
        return;
    }
    let all = ["a1", "a4", "a5", "a6"].map(String::from);
    for which in if args.is_empty() { &all[..] } else { &args[..] } {
        let runs = scenario(which).unwrap_or_else(|| panic!("no scenario {which}"));
        println!("{}", report(which, &runs));
    }
}
