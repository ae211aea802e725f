//! Bad input: every configuration the pool cannot honour is a typed error
//! with a message, at construction and in every setter, and a setter that
//! fails changes nothing; every ExecutorService call given nothing, no
//! time, or a pool shut down answers as the JDK does, never with a panic
//! or a hang.
#![cfg(not(loom))]

mod support;

use std::io;
use std::time::Duration;

use threadpool_executor::ThreadPool;
use threadpool_executor::ctl::CAPACITY;
use threadpool_executor::error::{ConfigError, InvokeError, Reason};
use threadpool_executor::factory::NamedThreads;
use threadpool_executor::future::FutureError;
use threadpool_executor::queue::TaskQueue;

use kit::{Recorder, ms};
use support::{eventually, prefix};

#[test]
fn bad_input_at_construction() {
    let cases = [
        (
            ThreadPool::builder()
                .core_pool_size(4)
                .maximum_pool_size(2)
                .build(),
            ConfigError::CoreAboveMaximum {
                core: 4,
                maximum: 2,
            },
            "the core pool size (4) is larger than the maximum pool size (2)",
        ),
        (
            ThreadPool::builder()
                .core_pool_size(0)
                .maximum_pool_size(0)
                .build(),
            ConfigError::ZeroMaximum,
            "the maximum pool size must be at least 1",
        ),
        (
            ThreadPool::builder().maximum_pool_size(usize::MAX).build(),
            ConfigError::TooLarge { size: usize::MAX },
            "a pool size of 18446744073709551615 is more than the 536870911 workers the ctl word can count",
        ),
        (
            ThreadPool::builder()
                .keep_alive(Duration::ZERO)
                .allow_core_thread_timeout(true)
                .build(),
            ConfigError::ZeroKeepAliveWithCoreTimeout,
            "core threads may time out only with a keep-alive longer than zero",
        ),
    ];
    for (built, error, message) in cases {
        let got = built.err();
        assert_eq!(got, Some(error));
        assert_eq!(got.unwrap().to_string(), message);
    }
    assert_eq!(
        TaskQueue::<threadpool_executor::Task>::bounded(0).err(),
        Some(ConfigError::ZeroCapacity)
    );
    // The largest the word can count is fine.
    assert!(
        ThreadPool::builder()
            .maximum_pool_size(CAPACITY)
            .build()
            .is_ok()
    );
}

#[test]
fn bad_input_setters_keep_the_invariants() {
    let pool = ThreadPool::builder()
        .core_pool_size(2)
        .maximum_pool_size(4)
        .keep_alive(ms(50))
        .thread_factory(support::threads(&prefix("bad")))
        .build()
        .unwrap();
    assert_eq!(
        pool.set_core_pool_size(5),
        Err(ConfigError::CoreAboveMaximum {
            core: 5,
            maximum: 4
        })
    );
    assert_eq!(pool.set_maximum_pool_size(0), Err(ConfigError::ZeroMaximum));
    assert_eq!(
        pool.set_maximum_pool_size(1),
        Err(ConfigError::CoreAboveMaximum {
            core: 2,
            maximum: 1
        })
    );
    assert_eq!(
        pool.set_maximum_pool_size(CAPACITY + 1),
        Err(ConfigError::TooLarge { size: CAPACITY + 1 })
    );
    assert_eq!(
        (pool.core_pool_size(), pool.maximum_pool_size()),
        (2, 4),
        "unchanged"
    );

    pool.allow_core_thread_timeout(true).unwrap();
    assert_eq!(
        pool.set_keep_alive(Duration::ZERO),
        Err(ConfigError::ZeroKeepAliveWithCoreTimeout)
    );
    assert_eq!(pool.keep_alive(), ms(50), "unchanged");
    pool.allow_core_thread_timeout(false).unwrap();
    pool.set_keep_alive(Duration::ZERO).unwrap();
    assert_eq!(
        pool.allow_core_thread_timeout(true),
        Err(ConfigError::ZeroKeepAliveWithCoreTimeout)
    );
    assert!(!pool.allows_core_thread_timeout(), "unchanged");

    // Valid changes apply: a larger core size starts workers for what is
    // queued.
    pool.set_maximum_pool_size(6).unwrap();
    pool.set_core_pool_size(6).unwrap();
    assert_eq!((pool.core_pool_size(), pool.maximum_pool_size()), (6, 6));
}

/// Raising the core size starts workers for queued tasks at once.
#[test]
fn bad_input_larger_core_runs_the_queue() {
    let pool = ThreadPool::builder()
        .core_pool_size(1)
        .maximum_pool_size(3)
        .thread_factory(support::threads(&prefix("bad-core")))
        .build()
        .unwrap();
    let (gate, rec) = (support::Gate::new(), Recorder::new());
    for i in 0..3 {
        let (waiter, r) = (gate.waiter(), rec.clone());
        pool.execute(move || {
            r.record(format!("started {i}"));
            waiter.wait();
        })
        .unwrap();
    }
    assert_eq!((pool.pool_size(), pool.queue().len()), (1, 2));
    pool.set_core_pool_size(3).unwrap();
    assert!(rec.wait_until_count("started 2", 1, ms(5000)).is_some());
    assert!(eventually(ms(5000), || pool.active_count() == 3));
    gate.open();
}

/// A thread name the system cannot take is the factory's error, and the
/// task comes back; nothing panics.
#[test]
fn bad_input_thread_name_with_a_nul() {
    let pool = ThreadPool::builder()
        .thread_factory(NamedThreads::with_prefix("bad\0name-"))
        .build()
        .unwrap();
    let rejected = pool.execute(|| {}).unwrap_err();
    assert_eq!(
        rejected.reason(),
        Reason::NoThread {
            error: io::ErrorKind::InvalidInput
        }
    );
}

/// The ExecutorService calls given nothing, or no time, answer as the JDK
/// does: `invoke_any` of nothing is an error (Java's
/// `IllegalArgumentException`), `invoke_all` of nothing is an empty list,
/// and a zero timeout is no error (Java allows zero and negative ones): it
/// runs out at once.
#[test]
fn bad_input_invoke_with_nothing_or_no_time() {
    let pool = ThreadPool::builder()
        .core_pool_size(2)
        .maximum_pool_size(2)
        .thread_factory(support::threads(&prefix("bad-inv")))
        .build()
        .unwrap();
    let none = Vec::<fn() -> u32>::new;
    assert_eq!(pool.invoke_any(none()), Err(InvokeError::NoJobs));
    assert_eq!(
        pool.invoke_any_timeout(none(), ms(5000)),
        Err(InvokeError::NoJobs)
    );
    assert_eq!(
        pool.invoke_any_timeout(none(), Duration::ZERO),
        Err(InvokeError::NoJobs)
    );
    assert!(pool.invoke_all(none()).unwrap().is_empty());
    assert!(
        pool.invoke_all_timeout(none(), Duration::ZERO)
            .unwrap()
            .is_empty()
    );

    // A zero timeout on `invoke_all`: Java submits no job whose turn comes
    // after the deadline, so none runs, and every future is cancelled.
    let rec = Recorder::new();
    let jobs: Vec<_> = (0..3)
        .map(|n| {
            let r = rec.clone();
            move || {
                r.record("ran");
                n
            }
        })
        .collect();
    let futures = pool.invoke_all_timeout(jobs, Duration::ZERO).unwrap();
    assert_eq!(futures.len(), 3);
    for future in &futures {
        assert_eq!(future.get(), Err(FutureError::Cancelled));
        assert_eq!(future.task_id(), None, "never given to the pool");
    }
    assert_eq!(pool.task_count(), 0, "nothing was submitted");
    assert_eq!(rec.count("ran"), 0);

    // A zero timeout on `invoke_any`: the jobs are submitted, none has
    // returned when it looks (they wait at a gate), so it times out (and
    // cancels them).
    let gate = support::Gate::new();
    let jobs: Vec<_> = (0..2)
        .map(|n| {
            let waiter = gate.waiter();
            move || {
                waiter.wait();
                n
            }
        })
        .collect();
    assert_eq!(
        pool.invoke_any_timeout(jobs, Duration::ZERO),
        Err(InvokeError::Timeout)
    );
    gate.open();
}

/// After shutdown every call that hands the pool work is refused with
/// `Reason::Shutdown` and the work comes back; `remove` and `purge` still
/// work, as Java's do, before and after the pool has terminated.
#[test]
fn bad_input_calls_after_shutdown() {
    let pool = ThreadPool::builder()
        .core_pool_size(1)
        .maximum_pool_size(1)
        .thread_factory(support::threads(&prefix("bad-shut")))
        .build()
        .unwrap();
    let gate = support::Gate::new();
    let waiter = gate.waiter();
    let running = pool.execute_with_id(move || waiter.wait()).unwrap();
    let queued = pool.execute_with_id(|| {}).unwrap();
    pool.shutdown();

    let refused = pool.execute(|| {}).unwrap_err();
    assert_eq!(refused.reason(), Reason::Shutdown);
    let refused = pool.execute_with_id(|| {}).unwrap_err();
    assert_eq!(refused.reason(), Reason::Shutdown);
    assert_eq!(pool.submit(|| 1).unwrap_err().reason(), Reason::Shutdown);
    assert_eq!(
        pool.invoke_all(vec![|| 1]).unwrap_err().reason(),
        Reason::Shutdown
    );
    assert_eq!(
        pool.invoke_any(vec![|| 1]),
        Err(InvokeError::Rejected(Reason::Shutdown))
    );
    assert_eq!(
        pool.invoke_any(Vec::<fn() -> u32>::new()),
        Err(InvokeError::NoJobs),
        "Java looks at the list first"
    );

    assert!(!pool.remove(running), "running: not in the queue");
    assert!(pool.remove(queued), "queued: taken out after shutdown");
    assert_eq!(pool.purge(), 0);
    gate.open();
    assert!(pool.await_termination(ms(5000)));
    assert!(!pool.remove(queued));
    assert_eq!(pool.purge(), 0, "a terminated pool purges nothing");
}
