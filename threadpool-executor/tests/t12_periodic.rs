//! T12: `schedule`, `schedule_at_fixed_rate` and `schedule_with_fixed_delay`
//! on the scheduled pool (scheduled.rs).
//!
//! - A one-shot task runs once, not before its delay.
//! - Fixed rate: each run is due one period after the previous one was
//!   *due*. Fixed delay: one delay after the previous one *ended*. The
//!   job reads its own deadline when it starts, so the tests compare
//!   deadlines exactly instead of guessing from wall-clock times.
//! - A fixed-rate task slower than its period, on a pool of 4, never runs
//!   concurrently with itself: late runs start late.
//! - A periodic task that panics stops, and its `get` returns the panic,
//!   while another periodic task on the same worker goes on.
//! - A period of zero is a typed error; an initial delay of zero runs at
//!   once.
#![cfg(not(loom))]

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::time::Duration;

use kit::{Recorder, ms};
use parking_lot::Mutex;
use support::{Gate, prefix};
use threadpool_executor::deadline::Deadline;
use threadpool_executor::future::{FutureError, FutureState};
use threadpool_executor::queue::WorkQueue;
use threadpool_executor::scheduled::{Period, ScheduleError, ScheduledFuture, ScheduledThreadPool};

fn pool(id: &str, core: usize) -> ScheduledThreadPool {
    ScheduledThreadPool::builder()
        .core_pool_size(core)
        .thread_factory(support::threads(&prefix(id)))
        .build()
        .unwrap()
}

#[test]
fn t12_schedule_runs_once_not_before_its_delay() {
    let pool = pool("t12", 1);
    let rec = Recorder::new();
    let r = rec.clone();
    let scheduled_at = rec.record("schedule");
    let future = pool
        .schedule(ms(50), move || {
            r.record("ran");
            7
        })
        .unwrap();
    assert!(future.remaining_delay() <= ms(50));
    assert_eq!(future.period(), None);
    // Not before: an exact lower bound, read off the event's own time.
    let ran = rec.eventually("ran", ms(5000)).expect("it ran");
    assert!(
        ran >= scheduled_at + ms(50),
        "ran at {ran:?}, before its delay\n{}",
        rec.log()
    );
    assert_eq!(future.get_timeout(ms(5000)), Ok(7));
    assert_eq!(future.state(), FutureState::Normal);
    assert_eq!(future.remaining_delay(), Duration::ZERO);
    assert!(support::eventually(ms(1000), || pool
        .completed_task_count()
        == 1));
    assert_eq!(rec.count("ran"), 1);
}

/// One run of a periodic task, as the job saw it.
#[derive(Debug, Clone, Copy)]
struct Run {
    /// The deadline it ran for.
    due: Deadline,
    started: Deadline,
    ended: Deadline,
}

/// Runs a periodic task whose job takes `work` until it has run `n`
/// times; returns what each run saw, and the first deadline.
fn runs(period: Period, work: Duration, n: usize) -> (Vec<Run>, Deadline) {
    let pool = pool("t12", 1);
    let me: Arc<Mutex<Option<ScheduledFuture<()>>>> = Arc::new(Mutex::new(None));
    let seen = Arc::new(Mutex::new(Vec::new()));
    let gate = Gate::new();
    let future = pool
        .schedule_periodic(ms(10), period, {
            let (me, seen, gate) = (Arc::clone(&me), Arc::clone(&seen), gate.waiter());
            move || {
                // Until the test has stored the future where we read it.
                gate.wait();
                let started = Deadline::now();
                let due = me.lock().as_ref().expect("stored").deadline();
                std::thread::sleep(work);
                seen.lock().push(Run {
                    due,
                    started,
                    ended: Deadline::now(),
                });
            }
        })
        .unwrap();
    let first = future.deadline();
    *me.lock() = Some(future.clone());
    gate.open();
    assert!(
        support::eventually(ms(5000), || seen.lock().len() >= n),
        "ran {} of {n} times",
        seen.lock().len()
    );
    assert!(future.cancel(false));
    assert_eq!(future.get(), Err(FutureError::Cancelled));
    let runs = seen.lock().clone();
    for run in &runs {
        assert!(run.started >= run.due, "started before due: {run:?}");
    }
    (runs, first)
}

#[test]
fn t12_fixed_rate_is_due_one_period_after_the_previous_deadline() {
    let period = ms(40);
    let (runs, first) = runs(Period::FixedRate(period), ms(15), 4);
    for (k, run) in runs.iter().enumerate() {
        let expected = first.after(period * k as u32);
        assert_eq!(
            run.due,
            expected,
            "run {k}: due {:?} after the first deadline, expected {:?}",
            run.due.saturating_duration_since(first),
            period * k as u32
        );
    }
}

#[test]
fn t12_fixed_delay_is_due_one_delay_after_the_previous_run_ended() {
    let delay = ms(40);
    let work = ms(15);
    let (runs, first) = runs(Period::FixedDelay(delay), work, 4);
    assert_eq!(runs[0].due, first);
    for pair in runs.windows(2) {
        let (previous, run) = (pair[0], pair[1]);
        assert!(
            run.due >= previous.ended.after(delay),
            "due {:?} after the previous run ended, expected at least {delay:?}",
            run.due.saturating_duration_since(previous.ended)
        );
        // So it drifts: each gap is the delay plus the run.
        assert!(run.due.saturating_duration_since(previous.due) >= delay + work);
    }
}

/// A fixed-rate task that takes 4 periods per run, on a pool of 4 idle
/// workers: each run starts after the previous one ended, never beside
/// it; the runs fall behind their deadlines instead.
#[test]
fn t12_a_fixed_rate_task_never_overlaps_itself() {
    let pool = pool("t12", 4);
    assert_eq!(pool.prestart_all_core_threads(), 4);
    let period = ms(5);
    let running = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let rec = Recorder::new();
    let future = pool
        .schedule_at_fixed_rate(Duration::ZERO, period, {
            let (running, most, r) = (Arc::clone(&running), Arc::clone(&most), rec.clone());
            move || {
                let now = running.fetch_add(1, SeqCst) + 1;
                most.fetch_max(now, SeqCst);
                r.record("start");
                std::thread::sleep(ms(20));
                r.record("end");
                running.fetch_sub(1, SeqCst);
            }
        })
        .unwrap();
    assert!(rec.wait_until_count("end", 6, ms(5000)).is_some());
    future.cancel(false);
    assert_eq!(most.load(SeqCst), 1, "ran beside itself\n{}", rec.log());
    let events = rec.events();
    let order: Vec<&str> = events.iter().map(|e| e.what.as_str()).collect();
    for pair in order.windows(2) {
        assert_ne!(
            pair,
            ["start", "start"],
            "two starts in a row\n{}",
            rec.log()
        );
    }
    assert_eq!(pool.pool_size(), 4, "workers were free all along");
    // Late, not concurrent: the sixth run was due at 5 periods, and
    // started only after five runs of 4 periods each.
    let sixth = events.iter().filter(|e| e.what == "start").nth(5).unwrap();
    assert!(sixth.at >= ms(100), "sixth run at {:?}", sixth.at);
}

#[test]
fn t12_a_periodic_task_that_panics_stops_and_others_go_on() {
    let pool = pool("t12", 1);
    let failing_runs = Arc::new(AtomicUsize::new(0));
    let other_runs = Arc::new(AtomicUsize::new(0));
    let failing = pool
        .schedule_at_fixed_rate(Duration::ZERO, ms(5), {
            let runs = Arc::clone(&failing_runs);
            move || {
                if runs.fetch_add(1, SeqCst) + 1 == 2 {
                    // Without the panic hook's printout.
                    std::panic::resume_unwind(Box::new("second run fails"));
                }
            }
        })
        .unwrap();
    let other = pool
        .schedule_with_fixed_delay(Duration::ZERO, ms(5), {
            let runs = Arc::clone(&other_runs);
            move || {
                runs.fetch_add(1, SeqCst);
            }
        })
        .unwrap();
    assert_eq!(
        failing.get_timeout(ms(5000)),
        Err(FutureError::Panicked("second run fails".into()))
    );
    assert_eq!(failing.state(), FutureState::Exceptional);
    let then = other_runs.load(SeqCst);
    assert!(
        support::eventually(ms(5000), || other_runs.load(SeqCst) >= then + 3),
        "the other task stopped too"
    );
    assert_eq!(failing_runs.load(SeqCst), 2, "not run after its panic");
    assert_eq!(pool.pool_size(), 1, "the worker lives on");
    assert!(!other.is_done());
    assert!(other.cancel(false));
}

#[test]
fn t12_a_zero_period_is_a_typed_error() {
    let pool = pool("t12", 1);
    for result in [
        pool.schedule_at_fixed_rate(ms(1), Duration::ZERO, || {}),
        pool.schedule_with_fixed_delay(ms(1), Duration::ZERO, || {}),
    ] {
        let err = result.unwrap_err();
        assert!(matches!(err, ScheduleError::ZeroPeriod), "{err:?}");
        assert_eq!(
            err.to_string(),
            "a periodic task needs a period (or delay) longer than zero"
        );
    }
    assert_eq!(pool.queue().len(), 0, "nothing queued");
    assert_eq!(pool.pool_size(), 0, "no worker started");
}

#[test]
fn t12_a_zero_initial_delay_runs_at_once() {
    let pool = pool("t12", 1);
    let rec = Recorder::new();
    let r = rec.clone();
    let once = pool
        .schedule(Duration::ZERO, move || r.record("once"))
        .unwrap();
    let r = rec.clone();
    let periodic = pool
        .schedule_at_fixed_rate(Duration::ZERO, Duration::from_secs(3600), move || {
            r.record("periodic");
        })
        .unwrap();
    assert_eq!(once.remaining_delay(), Duration::ZERO);
    assert!(rec.eventually("once", ms(1000)).is_some());
    assert!(rec.eventually("periodic", ms(1000)).is_some());
    assert!(once.get().is_ok());
    // Next due in an hour.
    assert!(support::eventually(ms(1000), || periodic.remaining_delay()
        > Duration::from_secs(3000)));
    let r = rec.clone();
    pool.execute(move || {
        r.record("executed");
    })
    .unwrap();
    assert!(rec.eventually("executed", ms(1000)).is_some());
}

#[test]
fn t12_get_of_a_periodic_task_returns_once_it_is_cancelled() {
    let pool = pool("t12", 1);
    let future = pool
        .schedule_with_fixed_delay(Duration::ZERO, ms(5), || {})
        .unwrap();
    let getter = std::thread::spawn({
        let future = future.clone();
        move || future.get()
    });
    assert_eq!(
        future.get_timeout(ms(30)),
        Err(FutureError::Timeout),
        "a periodic task has no value"
    );
    assert!(future.cancel(false));
    assert_eq!(getter.join().unwrap(), Err(FutureError::Cancelled));
    assert!(future.is_done() && future.is_cancelled());
}
