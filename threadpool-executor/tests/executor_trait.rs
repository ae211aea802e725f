//! The `Executor` trait on every finished version it covers (stage 5's
//! Timer, the pool, the scheduled pool), each test written once and run
//! on all three. Verdicts are counts and values; a "never came" is waited
//! for with a generous deadline.
#![cfg(not(loom))]

use std::sync::mpsc;
use std::time::Duration;

use interrupt_cancel::timer::Timer;
use kit::gate::Gate;
use threadpool_executor::ThreadPool;
use threadpool_executor::executor::Executor;
use threadpool_executor::scheduled::ScheduledThreadPool;

/// Long enough that "it never came" is not a loaded machine.
const EVENTUALLY: Duration = Duration::from_secs(10);

/// Every version with one thread, so that a job can hold it.
fn timer() -> Timer {
    Timer::new(&kit::threads::unique_name("ex-timer")).unwrap()
}

fn pool() -> ThreadPool {
    ThreadPool::builder()
        .core_pool_size(1)
        .maximum_pool_size(1)
        .build()
        .unwrap()
}

fn scheduled() -> ScheduledThreadPool {
    ScheduledThreadPool::new(1).unwrap()
}

/// Submits 100 jobs, shuts down, and checks that every value came, the
/// version ended, and nothing new is taken.
fn every_value_then_terminated(on: &impl Executor) {
    let futures: Vec<_> = (0..100_u64)
        .map(|n| on.submit(move || n * 2).unwrap())
        .collect();
    on.shutdown();
    assert!(on.is_shutdown());
    assert!(on.await_termination(EVENTUALLY), "did not end");
    assert!(on.is_terminated());
    let values: Vec<u64> = futures.iter().map(|f| f.get().unwrap()).collect();
    assert_eq!(values, (0..100).map(|n| n * 2).collect::<Vec<_>>());
    assert!(
        on.execute(Box::new(|| {})).is_err(),
        "a shut-down version took a job"
    );
}

#[test]
fn executor_every_value_then_terminated() {
    every_value_then_terminated(&timer());
    every_value_then_terminated(&pool());
    every_value_then_terminated(&scheduled());
}

/// Holds the one thread with a job, queues five more, and asks
/// `shutdown_now` for what never started: exactly those five.
fn hands_back_what_never_started(on: &impl Executor) -> usize {
    let gate = Gate::new();
    let (held, started) = gate.held_job();
    on.execute(Box::new(held)).unwrap();
    started.wait(EVENTUALLY);
    let (ran, _) = mpsc::channel::<u32>();
    for n in 0..5 {
        let ran = ran.clone();
        on.execute(Box::new(move || {
            let _ = ran.send(n);
        }))
        .unwrap();
    }
    let pending = on.shutdown_now().len();
    gate.open();
    assert!(on.await_termination(EVENTUALLY), "did not end");
    pending
}

#[test]
fn executor_shutdown_now_hands_back_what_never_started() {
    assert_eq!(hands_back_what_never_started(&timer()), 5, "Timer");
    assert_eq!(hands_back_what_never_started(&pool()), 5, "ThreadPool");
    assert_eq!(
        hands_back_what_never_started(&scheduled()),
        5,
        "ScheduledThreadPool"
    );
}

/// A job's panic is its future's; the version goes on.
///
/// The job panics with `resume_unwind`: the same unwinding and the same
/// payload as `panic_any`, without the panic hook, which with
/// `RUST_BACKTRACE=1` walks and prints the stack first (a tenth of a
/// second and more in a debug build, for a panic the test wants).
fn a_panic_is_the_futures(on: &impl Executor) {
    let failed = on
        .submit(|| -> u8 { std::panic::resume_unwind(Box::new(7_u8)) })
        .unwrap();
    assert!(failed.get().is_err());
    let payload = failed.take_panic().expect("the payload");
    assert_eq!(payload.downcast_ref::<u8>(), Some(&7));
    assert_eq!(on.submit(|| "still here").unwrap().get(), Ok("still here"));
}

#[test]
fn executor_a_panic_is_the_futures_and_the_version_lives() {
    a_panic_is_the_futures(&timer());
    a_panic_is_the_futures(&pool());
    a_panic_is_the_futures(&scheduled());
}
