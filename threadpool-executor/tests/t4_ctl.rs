//! T4 `ctl`: the run state and the worker count in one atomic word,
//! changed by CAS.
//!
//! The word's layout and order, CAS increments that never lose a count
//! while the state moves, and the pool's walk through the states:
//! RUNNING, SHUTDOWN or STOP, TIDYING (while the terminated hook runs),
//! TERMINATED. The loom model of the same word under a real pool is
//! tests/loom_ctl.rs.
#![cfg(not(loom))]

mod support;

use std::sync::Arc;
use std::thread;

use threadpool_executor::ThreadPool;
use threadpool_executor::ctl::{CAPACITY, Ctl, RunState, Word};

use kit::ms;
use support::{Gate, eventually, prefix};

#[test]
fn t4_ctl_word() {
    assert_eq!(CAPACITY, (1 << 29) - 1);
    let states = [
        RunState::Running,
        RunState::Shutdown,
        RunState::Stop,
        RunState::Tidying,
        RunState::Terminated,
    ];
    for (i, &state) in states.iter().enumerate() {
        for count in [0, 1, 7, CAPACITY] {
            let word = Word::new(state, count);
            assert_eq!((word.run_state(), word.worker_count()), (state, count));
            assert_eq!(word.is_running(), state == RunState::Running);
            for (j, &other) in states.iter().enumerate() {
                assert_eq!(word.at_least(other), i >= j, "{word:?} at least {other:?}");
                assert_eq!(word.less_than(other), i < j);
            }
        }
        if let Some(&next) = states.get(i + 1) {
            // The state decides, whatever the counts.
            assert!(Word::new(state, CAPACITY) < Word::new(next, 0));
        }
    }
    assert_eq!(
        format!("{:?}", Word::new(RunState::Stop, 2)),
        "Word(Stop, 2 workers)"
    );
}

/// Four threads add 10 000 workers each by CAS, while another moves the
/// state to SHUTDOWN then STOP: no count is lost, no state is lost.
#[test]
fn t4_ctl_cas_keeps_count_and_state() {
    const THREADS: usize = 4;
    const EACH: usize = 10_000;
    let ctl = Arc::new(Ctl::new());
    let adders: Vec<_> = (0..THREADS)
        .map(|_| {
            let ctl = Arc::clone(&ctl);
            thread::spawn(move || {
                let mut failed = 0;
                for _ in 0..EACH {
                    loop {
                        let seen = ctl.get();
                        if ctl.compare_and_increment(seen) {
                            break;
                        }
                        failed += 1;
                    }
                }
                failed
            })
        })
        .collect();
    ctl.advance_run_state(RunState::Shutdown);
    ctl.advance_run_state(RunState::Stop);
    ctl.advance_run_state(RunState::Shutdown); // never backwards
    let failed: usize = adders.into_iter().map(|t| t.join().unwrap()).sum();
    let word = ctl.get();
    assert_eq!(word.run_state(), RunState::Stop);
    assert_eq!(
        word.worker_count(),
        THREADS * EACH,
        "{failed} CAS attempts failed and retried"
    );
    for _ in 0..THREADS * EACH {
        ctl.decrement();
    }
    assert_eq!(ctl.get(), Word::new(RunState::Stop, 0));
}

/// RUNNING, SHUTDOWN (a task still running), TIDYING (the terminated hook
/// holds it there), TERMINATED.
#[test]
fn t4_ctl_shutdown_walks_the_states() {
    let (task_gate, hook_gate) = (Gate::new(), Gate::new());
    let hook_waiter = hook_gate.waiter();
    let pool = ThreadPool::builder()
        .core_pool_size(2)
        .maximum_pool_size(2)
        .on_terminated(move || hook_waiter.wait())
        .thread_factory(support::threads(&prefix("t4")))
        .build()
        .unwrap();
    assert_eq!(pool.ctl(), Word::new(RunState::Running, 0));
    let waiter = task_gate.waiter();
    pool.execute(move || waiter.wait()).unwrap();
    assert_eq!(pool.prestart_all_core_threads(), 1);
    assert_eq!(pool.ctl(), Word::new(RunState::Running, 2));

    pool.shutdown();
    // The idle worker leaves; the busy one stays.
    assert!(eventually(ms(5000), || pool.ctl() == Word::new(RunState::Shutdown, 1)));
    assert!(pool.is_shutdown() && pool.is_terminating() && !pool.is_terminated());

    task_gate.open();
    assert!(eventually(ms(5000), || pool.run_state() == RunState::Tidying));
    assert_eq!(pool.ctl(), Word::new(RunState::Tidying, 0));
    assert_eq!(pool.pool_size(), 0);
    assert!(pool.is_terminating() && !pool.is_terminated());
    assert!(!pool.await_termination(ms(0)));

    hook_gate.open();
    assert!(pool.await_termination(ms(5000)));
    assert_eq!(pool.ctl(), Word::new(RunState::Terminated, 0));
    assert!(!pool.is_terminating());
}

/// RUNNING to STOP, and SHUTDOWN to STOP.
#[test]
fn t4_ctl_shutdown_now_moves_to_stop() {
    for shutdown_first in [false, true] {
        let gate = Gate::new();
        let pool = ThreadPool::builder()
            .thread_factory(support::threads(&prefix("t4-now")))
            .build()
            .unwrap();
        let waiter = gate.waiter();
        pool.execute(move || waiter.wait()).unwrap();
        if shutdown_first {
            pool.shutdown();
            assert_eq!(pool.run_state(), RunState::Shutdown);
        }
        let returned = pool.shutdown_now();
        assert!(returned.is_empty());
        // The task ignores interrupts: STOP until it ends.
        assert_eq!(pool.ctl(), Word::new(RunState::Stop, 1));
        gate.open();
        assert!(pool.await_termination(ms(5000)));
        assert_eq!(pool.run_state(), RunState::Terminated);
    }
}
