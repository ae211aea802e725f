//! `idle_cost`: every version of every stage, and the peer, with one task
//! pending just past the measuring window and nothing else: how much CPU
//! do its threads use, and how often do they wake, per second? The busy
//! loop of *A timer that burns a core* should burn about a core; a ticking
//! wheel pays for every tick; a heap timer or the hierarchical wheel,
//! asleep until its one deadline, should pay nothing.
//!
//! The task is due just after the window, not hours away, only so that the
//! versions whose stop waits out their sleep (the one of *A timer that
//! oversleeps*, the buggy ones of *A timer that will not stop*) stop soon
//! after: during the window every version sees the same thing, one task
//! not yet due.
//!
//! ```text
//! cargo bench -p perf --bench idle_cost
//! ```

use std::sync::Arc;
use std::thread;
use std::time::Duration;

use perf::report::Report;
use perf::threads;
use threadpool_executor::delayed_queue::Wait;
use threadpool_executor::factory::NamedThreads;
use wheel::{Executor, OnTicker};

/// Starts a version with its threads named from the prefix and schedules
/// one task `delay` away; what it returns keeps it running.
type Start = fn(&str, Duration) -> Box<dyn Send>;

/// A [`Start`] that may capture (the scheduled pool's wait policy).
type Starter = Box<dyn Fn(&str, Duration) -> Box<dyn Send>>;

/// A version whose `new(name)` starts it and whose
/// `schedule(delay, task)` takes a closure.
macro_rules! timer {
    ($ty:ty) => {
        (|name: &str, delay: Duration| {
            let t = <$ty>::new(name).expect("a timer");
            assert!(t.schedule(delay, || ()).is_ok());
            Box::new(t) as Box<dyn Send>
        }) as Start
    };
}

fn scheduled(wait: Wait) -> impl Fn(&str, Duration) -> Box<dyn Send> {
    move |name, delay| {
        let p = threadpool_executor::presets::scheduled(2)
            .queue_wait(wait)
            .thread_factory(NamedThreads::with_prefix(format!("{name}-")))
            .build()
            .expect("a pool");
        // Both workers started, as a pool in use has them.
        p.prestart_all_core_threads();
        p.schedule(delay, || ()).expect("accepted");
        Box::new(p)
    }
}

fn on_ticker() -> Arc<dyn Executor> {
    Arc::new(OnTicker)
}

fn versions() -> Vec<(&'static str, Starter)> {
    vec![
        (
            "naive::busy_loop",
            Box::new(timer!(naive::busy_loop::Timer)),
        ),
        (
            "sleep-based::sleep_until",
            Box::new(timer!(sleep_based::sleep_until::Timer)),
        ),
        (
            "condvar-timer::racy",
            Box::new(timer!(condvar_timer::racy::Timer)),
        ),
        (
            "condvar-timer::timer_style",
            Box::new(timer!(condvar_timer::timer_style::Timer)),
        ),
        (
            "condvar-timer::something_changed",
            Box::new(|name, delay| {
                let q = condvar_timer::something_changed::TimerQueue::new(name).expect("a queue");
                q.add(delay, |_| ()).expect("accepted");
                Box::new(q)
            }),
        ),
        (
            "poison-pill::cancel_flag",
            Box::new(timer!(poison_pill::cancel_flag::Timer)),
        ),
        (
            "poison-pill::notify_on_cancel",
            Box::new(timer!(poison_pill::notify_on_cancel::Timer)),
        ),
        (
            "poison-pill::poison_pill",
            Box::new(timer!(poison_pill::poison_pill::Timer)),
        ),
        (
            "poison-pill::disconnect",
            Box::new(timer!(poison_pill::disconnect::Timer)),
        ),
        (
            "poison-pill::timer_style",
            Box::new(timer!(poison_pill::timer_style::Timer)),
        ),
        (
            "interrupt-cancel::interrupted_only",
            Box::new(timer!(interrupt_cancel::interrupted_only::Timer)),
        ),
        (
            "interrupt-cancel::interrupted_or_dead",
            Box::new(timer!(interrupt_cancel::interrupted_or_dead::Timer)),
        ),
        (
            "interrupt-cancel::refuses_when_dead",
            Box::new(timer!(interrupt_cancel::refuses_when_dead::Timer)),
        ),
        (
            "interrupt-cancel::timer",
            Box::new(timer!(interrupt_cancel::timer::Timer)),
        ),
        (
            "threadpool-executor::scheduled, herd",
            Box::new(scheduled(Wait::Herd)),
        ),
        (
            "threadpool-executor::scheduled, leader-follower",
            Box::new(scheduled(Wait::LeaderFollower)),
        ),
        (
            "threadpool-executor::scheduled",
            Box::new(scheduled(Wait::LeaderSuccessor)),
        ),
        (
            "wheel::lockfree, 10 ms x 64",
            Box::new(|name, delay| {
                let config =
                    wheel::lockfree::LockFreeConfig::new(Duration::from_millis(10), 64, 64);
                let w = wheel::lockfree::LockFreeWheel::start(config, on_ticker(), name)
                    .expect("a wheel");
                assert!(w.add(delay, || ()).is_ok());
                Box::new(w)
            }),
        ),
        (
            "wheel::hashed, 1 ms",
            Box::new(|name, delay| {
                let config = wheel::hashed::HashedConfig {
                    tick: Duration::from_millis(1),
                    slots: 512,
                };
                let w =
                    wheel::hashed::HashedWheel::start(config, on_ticker(), name).expect("a wheel");
                assert!(w.schedule(delay, Box::new(|| ())).is_ok());
                Box::new(w)
            }),
        ),
        (
            "wheel::hierarchical, 1 ms",
            Box::new(|name, delay| {
                let config = wheel::hierarchical::HierarchicalConfig {
                    tick: Duration::from_millis(1),
                };
                let w = wheel::hierarchical::HierarchicalWheel::start(config, on_ticker(), name)
                    .expect("a wheel");
                assert!(w.schedule(delay, Box::new(|| ())).is_ok());
                Box::new(w)
            }),
        ),
        (
            "scheduled-thread-pool (peer)",
            Box::new(|name, delay| {
                let p = scheduled_thread_pool::ScheduledThreadPool::builder()
                    .num_threads(2)
                    .thread_name_pattern(&format!("{name}-{{}}"))
                    .build();
                p.execute_after(delay, || ());
                Box::new(p)
            }),
        ),
    ]
}

fn main() {
    perf::require_shipped_build();
    let mut report = Report::new("idle_cost");
    let window = perf::size(Duration::from_secs(1), Duration::from_millis(200));
    let settle = Duration::from_millis(50);
    for (i, (name, start)) in versions().into_iter().enumerate() {
        let prefix = format!("ic{i}");
        let running = start(&prefix, settle + window + Duration::from_millis(100));
        thread::sleep(settle);
        let threads = threads::with_prefix(&prefix);
        let (cpu0, wakes0) = threads::totals(&threads);
        thread::sleep(window);
        let (cpu1, wakes1) = threads::totals(&threads);
        drop(running);
        let per_second = 1.0 / window.as_secs_f64();
        let cpu_ms = (cpu1 - cpu0).as_secs_f64() * 1e3 * per_second;
        let wakes = (wakes1 - wakes0) as f64 * per_second;
        report.add("one task pending", name, "cpu", cpu_ms, "ms/s");
        report.add("one task pending", name, "wakeups", wakes, "/s");
    }
    report.write();
}
