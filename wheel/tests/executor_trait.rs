//! Stage 6's `Executor` trait on the two finished wheels, each with its
//! pool ([`WheelPool`]): every test written once, run on the hashed and
//! the hierarchical wheel. Each pool has one thread, so that a job can
//! hold it. Verdicts are counts and values; a "never came" is waited for
//! with a generous deadline.
#![cfg(not(loom))]

use std::sync::mpsc;
use std::time::Duration;

use kit::gate::Gate;
use kit::ms;
use kit::threads::{assert_gone, unique_name};
use threadpool_executor::ThreadPool;
use threadpool_executor::executor::Executor;
use threadpool_executor::factory::NamedThreads;
use wheel::Reason;
use wheel::executor::{RunningWheel, WheelPool};
use wheel::hashed::{HashedConfig, HashedWheel};
use wheel::hierarchical::{HierarchicalConfig, HierarchicalWheel};

/// Long enough that "it never came" is not a loaded machine.
const EVENTUALLY: Duration = Duration::from_secs(10);

/// A wheel pool's threads: its ticker, and its pool's one worker.
struct Names {
    ticker: String,
    worker: String,
}

impl Names {
    fn new(what: &str) -> Names {
        let ticker = unique_name(what);
        let worker = format!("{ticker}-w1");
        Names { ticker, worker }
    }

    fn pool(&self) -> ThreadPool {
        threadpool_executor::presets::fixed(1)
            .thread_factory(NamedThreads::with_prefix(format!("{}-w", self.ticker)))
            .build()
            .unwrap()
    }

    /// Both threads gone: every thread the wheel pool started is joined.
    fn assert_gone(&self) {
        assert_gone(&self.ticker);
        assert_gone(&self.worker);
    }
}

fn hashed(names: &Names) -> WheelPool<HashedWheel> {
    let config = HashedConfig {
        tick: ms(1),
        slots: 64,
    };
    WheelPool::hashed(config, names.pool(), &names.ticker).unwrap()
}

fn hierarchical(names: &Names) -> WheelPool<HierarchicalWheel> {
    let config = HierarchicalConfig { tick: ms(1) };
    WheelPool::hierarchical(config, names.pool(), &names.ticker).unwrap()
}

/// [`on_each`] with one generic scenario, instantiated for each wheel.
macro_rules! on_both {
    ($what:expr, $scenario:ident) => {
        on_each($what, $scenario, $scenario)
    };
}

/// Runs `on_hashed` and `on_hierarchical` (one generic check, twice) on
/// a fresh wheel pool of each kind, and checks, once it is dropped, that
/// its threads are gone.
fn on_each(
    what: &str,
    on_hashed: fn(&WheelPool<HashedWheel>),
    on_hierarchical: fn(&WheelPool<HierarchicalWheel>),
) {
    let names = Names::new(what);
    on_hashed(&hashed(&names));
    names.assert_gone();
    let names = Names::new(what);
    on_hierarchical(&hierarchical(&names));
    names.assert_gone();
}

/// The refusal a shut-down wheel pool gives: `Stopped`, with the job.
fn assert_refused_stopped<W: RunningWheel>(on: &WheelPool<W>) {
    let (ran, came) = mpsc::channel();
    let refused = on
        .execute(Box::new(move || ran.send("refused job").unwrap()))
        .expect_err("a shut-down wheel pool took a job");
    assert_eq!(refused.reason(), Reason::Stopped);
    refused.into_job()();
    assert_eq!(came.try_recv(), Ok("refused job"), "not the job given");
}

fn every_value_then_terminated<W: RunningWheel>(on: &WheelPool<W>) {
    let futures: Vec<_> = (0..100)
        .map(|n| on.submit(move || n * 2).unwrap())
        .collect();
    on.shutdown();
    assert!(on.is_shutdown());
    assert_refused_stopped(on);
    assert!(on.await_termination(EVENTUALLY), "did not end");
    assert!(on.is_terminated());
    let values: Vec<u64> = futures.iter().map(|f| f.get().unwrap()).collect();
    assert_eq!(values, (0..100).map(|n| n * 2).collect::<Vec<_>>());
    assert_refused_stopped(on);
}

#[test]
fn executor_every_value_then_terminated() {
    on_both!("wx-values", every_value_then_terminated);
}

fn shutdown_lets_a_delayed_task_run_first<W: RunningWheel>(on: &WheelPool<W>) {
    // Due in 50 ms, and held once it runs until the test lets it go.
    let gate = Gate::new();
    let (held, started) = gate.held_job();
    on.schedule(ms(50), Box::new(held)).unwrap();
    on.shutdown();
    assert!(!on.is_terminated(), "ended with a task still to run");
    started.wait(EVENTUALLY);
    assert!(!on.is_terminated(), "ended with a task still running");
    gate.open();
    assert!(on.await_termination(EVENTUALLY), "did not end");
    assert!(on.is_terminated());
}

#[test]
fn executor_shutdown_lets_a_delayed_task_run_first() {
    on_both!("wx-delay", shutdown_lets_a_delayed_task_run_first);
}

fn terminates_without_await_once_drained<W: RunningWheel>(on: &WheelPool<W>) {
    let value = on.submit(|| 42).unwrap();
    assert_eq!(value.get(), Ok(42));
    on.shutdown();
    assert!(
        kit::eventually(EVENTUALLY, || on.is_terminated()),
        "is_terminated never said so"
    );
}

#[test]
fn executor_terminates_without_await_once_drained() {
    on_both!("wx-drain", terminates_without_await_once_drained);
}

fn shutdown_now_hands_back_what_never_started<W: RunningWheel>(on: &WheelPool<W>) {
    // The pool's one thread held by a job: what comes due waits in
    // the pool's queue.
    let gate = Gate::new();
    let (held, started) = gate.held_job();
    on.execute(Box::new(held)).unwrap();
    started.wait(EVENTUALLY);
    let (ran, came) = mpsc::channel();
    // Five due now (queued in the pool, or still in the wheel), three
    // an hour away (in the wheel).
    for n in 0..5 {
        let ran = ran.clone();
        on.execute(Box::new(move || ran.send(n).unwrap())).unwrap();
    }
    for n in 5..8 {
        let ran = ran.clone();
        on.schedule(
            Duration::from_secs(3600),
            Box::new(move || ran.send(n).unwrap()),
        )
        .unwrap();
    }
    let pending = on.shutdown_now();
    assert!(on.is_shutdown());
    assert_refused_stopped(on);
    gate.open();
    assert!(on.await_termination(EVENTUALLY), "did not end");
    assert!(on.is_terminated());
    assert_eq!(came.try_recv(), Err(mpsc::TryRecvError::Empty), "one ran");
    assert_eq!(pending.len(), 8, "not every task that never started");
    for job in pending {
        job();
    }
    let mut handed_back: Vec<u32> = came.try_iter().collect();
    handed_back.sort_unstable();
    assert_eq!(handed_back, (0..8).collect::<Vec<_>>());
}

#[test]
fn executor_shutdown_now_hands_back_what_never_started() {
    on_both!("wx-now", shutdown_now_hands_back_what_never_started);
}

fn a_delay_beyond_range_is_refused_and_holds_nothing_up<W: RunningWheel>(on: &WheelPool<W>) {
    let (ran, came) = mpsc::channel();
    let refused = on
        .schedule(Duration::MAX, Box::new(move || ran.send(()).unwrap()))
        .expect_err("a delay of Duration::MAX taken");
    assert!(matches!(refused.reason(), Reason::BeyondRange { .. }));
    // Kept unrun through the shutdown: it is the caller's, and the
    // shutdown does not wait for it.
    on.shutdown();
    assert!(on.await_termination(EVENTUALLY), "waited for a refused job");
    refused.into_job()();
    assert_eq!(came.try_recv(), Ok(()), "not the job given");
}

#[test]
fn executor_a_delay_beyond_range_is_refused_and_holds_nothing_up() {
    on_both!(
        "wx-range",
        a_delay_beyond_range_is_refused_and_holds_nothing_up
    );
}
