//! ExecutorService's calls on the pool: `submit`, `invoke_all`,
//! `invoke_any`, each beside what the JDK does for the same input.
//!
//! Nothing here races: each test gates or orders its jobs so that what
//! runs when is decided before the call, and waits on events with
//! deadlines.
#![cfg(not(loom))]

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};

use kit::ms;
use support::{Gate, prefix};
use threadpool_executor::ThreadPool;
use threadpool_executor::error::{InvokeError, Reason};
use threadpool_executor::future::FutureError;

fn pool(id: &str, workers: usize) -> ThreadPool {
    ThreadPool::builder()
        .core_pool_size(workers)
        .maximum_pool_size(workers)
        .thread_factory(support::threads(&prefix(id)))
        .build()
        .expect("a valid pool")
}

/// A panic on purpose, without the panic hook's report.
fn panics(payload: &'static str) -> u32 {
    std::panic::resume_unwind(Box::new(payload))
}

#[test]
fn submit_returns_the_value() {
    let pool = pool("sub-val", 1);
    let answer = pool.submit(|| 6 * 7).expect("accepted");
    assert_eq!(answer.get(), Ok(42));
    assert!(answer.is_done() && !answer.is_cancelled());
}

#[test]
fn submit_keeps_the_panic_and_its_payload_and_the_worker_lives() {
    let reported = Arc::new(AtomicUsize::new(0));
    let r = Arc::clone(&reported);
    let pool = ThreadPool::builder()
        .on_panic(move |_| {
            r.fetch_add(1, SeqCst);
        })
        .thread_factory(support::threads(&prefix("sub-panic")))
        .build()
        .unwrap();
    let failed = pool.submit(|| panics("the payload")).expect("accepted");
    assert_eq!(
        failed.get(),
        Err(FutureError::Panicked("the payload".to_owned()))
    );
    let payload = failed.take_panic().expect("the payload, once");
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"the payload"));
    assert!(failed.take_panic().is_none(), "taken already");
    // Java's FutureTask keeps a task's exception: the worker goes on.
    assert_eq!(pool.submit(|| 1).unwrap().get(), Ok(1));
    assert_eq!(pool.largest_pool_size(), 1, "no worker was replaced");
    assert_eq!(reported.load(SeqCst), 0, "no worker died of it");
}

#[test]
fn submit_after_shutdown_is_refused() {
    let pool = pool("sub-shut", 1);
    pool.shutdown();
    let refused = pool.submit(|| 1).expect_err("refused");
    assert_eq!(refused.reason(), Reason::Shutdown);
}

#[test]
fn submit_can_be_cancelled_before_it_runs() {
    let pool = pool("sub-cancel", 1);
    let gate = Gate::new();
    let waiter = gate.waiter();
    let first = pool.submit(move || waiter.wait()).unwrap();
    let ran = Arc::new(AtomicUsize::new(0));
    let r = Arc::clone(&ran);
    let second = pool.submit(move || r.fetch_add(1, SeqCst)).unwrap();
    assert!(second.cancel(false));
    assert_eq!(second.get(), Err(FutureError::Cancelled));
    gate.open();
    assert_eq!(first.get(), Ok(()));
    pool.shutdown();
    assert!(pool.await_termination(ms(10_000)));
    assert_eq!(ran.load(SeqCst), 0, "a cancelled job never runs");
}

#[test]
fn invoke_all_waits_for_every_job_in_order() {
    let pool = pool("inv-all", 2);
    let jobs: Vec<Box<dyn FnOnce() -> u32 + Send>> =
        vec![Box::new(|| 1), Box::new(|| panics("two")), Box::new(|| 3)];
    let all = pool.invoke_all(jobs).expect("accepted");
    assert!(all.iter().all(|f| f.is_done()));
    let got: Vec<_> = all.iter().map(|f| f.get()).collect();
    assert_eq!(
        got,
        [Ok(1), Err(FutureError::Panicked("two".to_owned())), Ok(3)]
    );
}

#[test]
fn invoke_all_timeout_cancels_what_is_not_done() {
    let pool = pool("inv-all-t", 2);
    // Both workers waiting already, so the first job needs only a core
    // within the limit: the limit is long for that, and short for a test.
    assert_eq!(pool.prestart_all_core_threads(), 2);
    let gate = Gate::new();
    let waiter = gate.waiter();
    let jobs: Vec<Box<dyn FnOnce() -> u32 + Send>> = vec![
        Box::new(|| 1),
        Box::new(move || {
            waiter.wait();
            2
        }),
    ];
    let all = pool.invoke_all_timeout(jobs, ms(300)).expect("accepted");
    assert_eq!(all[0].get(), Ok(1));
    assert_eq!(
        all[1].get(),
        Err(FutureError::Cancelled),
        "not done in time"
    );
    gate.open();
}

#[test]
fn invoke_all_with_no_jobs_is_empty() {
    let pool = pool("inv-all-0", 1);
    let none: Vec<fn() -> u32> = Vec::new();
    assert!(pool.invoke_all(none).expect("nothing to refuse").is_empty());
}

#[test]
fn invoke_all_after_shutdown_is_refused() {
    let pool = pool("inv-all-s", 1);
    pool.shutdown();
    let jobs: Vec<fn() -> u32> = vec![|| 1];
    assert_eq!(
        pool.invoke_all(jobs).expect_err("refused").reason(),
        Reason::Shutdown
    );
}

#[test]
fn invoke_any_returns_the_first_value_and_cancels_the_rest() {
    // One worker: the first job returns, the second is still queued and
    // must never run.
    let pool = pool("inv-any", 1);
    let ran = Arc::new(AtomicUsize::new(0));
    let r = Arc::clone(&ran);
    let jobs: Vec<Box<dyn FnOnce() -> u32 + Send>> = vec![
        Box::new(|| 1),
        Box::new(move || {
            r.fetch_add(1, SeqCst);
            2
        }),
    ];
    // The queued job may be taken before invoke_any reads the first
    // value: it may run, but its value is never the one returned.
    assert_eq!(pool.invoke_any(jobs), Ok(1));
    pool.shutdown();
    assert!(pool.await_termination(ms(10_000)));
    assert!(ran.load(SeqCst) <= 1);
}

#[test]
fn invoke_any_skips_panics() {
    let pool = pool("inv-any-p", 1);
    let jobs: Vec<Box<dyn FnOnce() -> u32 + Send>> =
        vec![Box::new(|| panics("first")), Box::new(|| 2)];
    assert_eq!(pool.invoke_any(jobs), Ok(2));
}

#[test]
fn invoke_any_when_every_job_panics() {
    let pool = pool("inv-any-all", 1);
    let jobs: Vec<Box<dyn FnOnce() -> u32 + Send>> =
        vec![Box::new(|| panics("first")), Box::new(|| panics("last"))];
    assert_eq!(
        pool.invoke_any(jobs),
        Err(InvokeError::AllPanicked("last".to_owned()))
    );
}

#[test]
fn invoke_any_with_no_jobs_is_an_error() {
    let pool = pool("inv-any-0", 1);
    let none: Vec<fn() -> u32> = Vec::new();
    assert_eq!(pool.invoke_any(none), Err(InvokeError::NoJobs));
    assert_eq!(
        pool.invoke_any_timeout(Vec::<fn() -> u32>::new(), ms(10)),
        Err(InvokeError::NoJobs)
    );
}

#[test]
fn invoke_any_timeout_when_nothing_returns_in_time() {
    let pool = pool("inv-any-t", 1);
    let gate = Gate::new();
    let waiter = gate.waiter();
    let jobs: Vec<Box<dyn FnOnce() -> u32 + Send>> = vec![Box::new(move || {
        waiter.wait();
        1
    })];
    assert_eq!(
        pool.invoke_any_timeout(jobs, ms(50)),
        Err(InvokeError::Timeout)
    );
    // A zero timeout only looks.
    let later: Vec<fn() -> u32> = vec![|| 2];
    assert_eq!(
        pool.invoke_any_timeout(later, ms(0)),
        Err(InvokeError::Timeout),
        "the worker is still held by the first call's job"
    );
    gate.open();
}

#[test]
fn invoke_any_after_shutdown_is_refused() {
    let pool = pool("inv-any-s", 1);
    pool.shutdown();
    let jobs: Vec<fn() -> u32> = vec![|| 1];
    assert_eq!(
        pool.invoke_any(jobs),
        Err(InvokeError::Rejected(Reason::Shutdown))
    );
}
