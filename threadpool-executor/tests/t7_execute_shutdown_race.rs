//! T7 `execute_shutdown_race` (the class of JDK-6523756): `execute` reads
//! the ctl word ("running"), and before its offer reaches the queue,
//! `shutdown` runs to the end: the queue is empty, the idle worker leaves,
//! the pool terminates. Then the offer succeeds (a queue knows nothing of
//! the pool's state).
//!
//! - no_recheck.rs: `execute` returns `Ok`. The task lies in the queue of
//!   a terminated pool: it will never run, and nobody was told it was
//!   rejected.
//! - pool.rs, the fix (Java's re-check): after queuing, `execute` reads
//!   the word again; the pool is not running, so it takes its task back
//!   out of the queue and rejects it: the task comes back to the caller.
//!
//! The race is forced on every run: a pause point holds the calling
//! thread between its look at the state and its offer while the test
//! shuts the pool down and waits for it to terminate.
//!
//! The correctness check: the task is run, or handed back. Never neither.
#![cfg(not(loom))]

mod support;

use std::thread;
use std::time::Duration;

use threadpool_executor::error::{Reason, Rejected};
use threadpool_executor::pool::Variant;
use threadpool_executor::{Task, ThreadPool};

use kit::pause::Pause;
use kit::scale::in_ms;
use kit::{Recorder, ms};
use support::prefix;

const FIXED_WINDOW: &str = "threadpool-executor::pool: saw the pool running, not yet queued";
const BUGGY_WINDOW: &str = "threadpool-executor::no_recheck: saw the pool running, not yet queued";
/// How long a stranded task is given to run after `execute` returned.
const WITHIN_MS: u64 = 300;
/// How long a reproduction watches the stranded task. What proves it
/// stranded is the pool's state, read too: terminated (or, with core size
/// 0, without a worker, which only a next `execute` would start) with the
/// task in its queue, a state nothing changes by itself. Watching the
/// whole `WITHIN_MS` would show no more; the ignored `_on_` test runs
/// the correctness check itself, with its full bound.
const LOOK_MS: u64 = 50;

struct Run {
    pool: ThreadPool,
    rec: Recorder,
    terminated_at: Duration,
    returned_at: Duration,
    result: Result<(), Rejected<Task>>,
}

fn race(variant: Variant) -> Run {
    let window = match variant {
        Variant::NoRecheck => BUGGY_WINDOW,
        _ => FIXED_WINDOW,
    };
    let prefix = prefix("t7");
    let rec = Recorder::new();
    let r = rec.clone();
    let pool = ThreadPool::builder()
        .core_pool_size(1)
        .maximum_pool_size(1)
        .on_terminated(move || {
            r.record("terminated");
        })
        .variant(variant)
        .thread_factory(support::threads(&prefix))
        .build()
        .unwrap();
    // At core size, so `execute` goes to step 2, the queue.
    assert!(pool.prestart_core_thread());

    let caller = format!("{prefix}c");
    let pause = Pause::arm(window, &caller);
    let (result, terminated_at) = thread::scope(|scope| {
        let execute = thread::Builder::new()
            .name(caller.clone())
            .spawn_scoped(scope, || {
                let r = rec.clone();
                let result = pool.execute(move || {
                    r.record("task ran");
                });
                rec.record(format!("execute returned {}", describe(&result)));
                result
            })
            .unwrap();
        pause.wait_reached();
        rec.record_as("test", "execute held: it saw RUNNING, has not queued");
        pool.shutdown();
        assert!(pool.await_termination(ms(5000)), "\n{}", rec.log());
        let terminated_at = rec.at("terminated").expect("terminated");
        pause.release();
        (execute.join().unwrap(), terminated_at)
    });
    let returned_at = rec
        .at(&format!("execute returned {}", describe(&result)))
        .unwrap();
    Run {
        pool,
        rec,
        terminated_at,
        returned_at,
        result,
    }
}

fn describe(result: &Result<(), Rejected<Task>>) -> String {
    match result {
        Ok(()) => "Ok".into(),
        Err(rejected) => format!("Err({})", rejected.reason()),
    }
}

/// The correctness check: the task came back, or it runs.
fn assert_run_or_handed_back(run: &Run) {
    let until = run.returned_at + ms(WITHIN_MS);
    let handed_back = run.result.is_err();
    let ran = !handed_back && run.rec.still_absent("task ran", until).is_err();
    let queued = run.pool.queue().len();
    let state = run.pool.run_state();
    assert!(
        ran || handed_back,
        "T7 execute_shutdown_race: the pool terminated at {} ms; execute returned Ok at {} ms; \
         the task was neither run nor rejected: at {} ms it is still queued ({queued}) in a pool \
         that is {state:?}\n{}",
        in_ms(run.terminated_at),
        in_ms(run.returned_at),
        in_ms(until),
        run.rec.log()
    );
}

#[test]
fn t7_execute_shutdown_race_reproduces() {
    let run = race(Variant::NoRecheck);
    assert!(
        run.result.is_ok(),
        "accepted by a terminated pool\n{}",
        run.rec.log()
    );
    assert!(run.pool.is_terminated());
    assert_eq!(run.pool.queue().len(), 1, "stranded in the queue");
    let until = run.returned_at + ms(LOOK_MS);
    assert_eq!(
        run.rec.still_absent("task ran", until),
        Ok(()),
        "\n{}",
        run.rec.log()
    );
    assert_eq!(run.pool.queue().len(), 1, "still there");
}

#[test]
fn t7_execute_shutdown_race_fixed() {
    let run = race(Variant::Fixed);
    assert_run_or_handed_back(&run);
    assert_eq!(run.pool.queue().len(), 0, "taken back out of the queue");
    assert_eq!(run.rec.count("terminated"), 1);
    let rejected = run.result.expect_err("handed back");
    assert_eq!(rejected.reason(), Reason::Shutdown);
    // Nothing lost: the task is ours, and runs.
    rejected.into_task()();
    assert_eq!(run.rec.count("task ran"), 1);
}

/// The same missing look, without a shutdown: with core size 0 the task is
/// queued and nothing ever starts a worker.
#[test]
fn t7_execute_shutdown_race_reproduces_with_core_zero() {
    let rec = Recorder::new();
    let pool = ThreadPool::builder()
        .core_pool_size(0)
        .maximum_pool_size(1)
        .variant(Variant::NoRecheck)
        .thread_factory(support::threads(&prefix("t7-zero")))
        .build()
        .unwrap();
    let r = rec.clone();
    pool.execute(move || {
        r.record("task ran");
    })
    .unwrap();
    assert_eq!((pool.pool_size(), pool.queue().len()), (0, 1));
    assert_eq!(rec.still_absent("task ran", ms(LOOK_MS)), Ok(()));
    assert_eq!((pool.pool_size(), pool.queue().len()), (0, 1));
    assert_eq!(pool.shutdown_now().len(), 1, "handed back at last");
}

#[test]
#[ignore = "T7 execute_shutdown_race: shows the bug in no_recheck.rs"]
fn t7_execute_shutdown_race_on_no_recheck() {
    assert_run_or_handed_back(&race(Variant::NoRecheck));
}
