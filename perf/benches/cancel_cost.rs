//! `cancel_cost`: cancelling a random live task with 10^5 and 10^6 pending,
//! beside a schedule on the same timer; then how many cancelled entries
//! each timer still holds after a tenth of its tasks were cancelled. Ours:
//! the scheduled pool's indexed heap with remove-on-cancel (T14's fix) and
//! without it (the JDK's default), stage 5's `Timer` (lazy, like
//! `java.util.Timer`), the two wheels; the peer: `scheduled-thread-pool`.
//!
//! Each timed batch cancels up to 1000 tasks picked at random from the live
//! ones; the batch's replacements are scheduled untimed, so the count
//! pending stays the same.
//!
//! ```text
//! cargo bench -p perf --bench cancel_cost
//! ```

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, criterion_group};
use interrupt_cancel::timer::{TaskHandle, Timer};
use perf::report::Report;
use threadpool_executor::queue::WorkQueue;
use threadpool_executor::scheduled::{ScheduledFuture, ScheduledThreadPool};
use wheel::hashed::{HashedConfig, HashedWheel};
use wheel::hierarchical::{HierarchicalConfig, HierarchicalWheel};
use wheel::{Executor, OnTicker};

/// Far enough that nothing comes due during a run.
const FAR: Duration = Duration::from_secs(100 * 3600);

/// A timer the bench fills and cancels on.
trait Cancels {
    type Handle;
    fn schedule(&self) -> Self::Handle;
    fn cancel(&self, handle: &Self::Handle);
    /// Entries the timer still holds, live or cancelled; `None` if it
    /// cannot say.
    fn held(&self) -> Option<usize>;
}

struct Pool(ScheduledThreadPool);
impl Cancels for Pool {
    type Handle = ScheduledFuture<()>;
    fn schedule(&self) -> Self::Handle {
        self.0.schedule(FAR, || ()).expect("a running pool")
    }
    fn cancel(&self, h: &Self::Handle) {
        h.cancel(false);
    }
    fn held(&self) -> Option<usize> {
        Some(self.0.queue().len())
    }
}

impl Cancels for Timer {
    type Handle = TaskHandle;
    fn schedule(&self) -> TaskHandle {
        Timer::schedule(self, FAR, || ()).expect("a running timer")
    }
    fn cancel(&self, h: &TaskHandle) {
        h.cancel();
    }
    fn held(&self) -> Option<usize> {
        Some(self.queued())
    }
}

impl Cancels for HashedWheel {
    type Handle = wheel::hashed::Handle;
    fn schedule(&self) -> Self::Handle {
        HashedWheel::schedule(self, FAR, Box::new(|| ())).expect("a running wheel")
    }
    fn cancel(&self, h: &Self::Handle) {
        h.cancel();
    }
    fn held(&self) -> Option<usize> {
        None
    }
}

impl Cancels for HierarchicalWheel {
    type Handle = wheel::hierarchical::Handle;
    fn schedule(&self) -> Self::Handle {
        HierarchicalWheel::schedule(self, FAR, Box::new(|| ())).expect("a running wheel")
    }
    fn cancel(&self, h: &Self::Handle) {
        h.cancel();
    }
    fn held(&self) -> Option<usize> {
        None
    }
}

struct Peer(scheduled_thread_pool::ScheduledThreadPool);
impl Cancels for Peer {
    type Handle = scheduled_thread_pool::JobHandle;
    fn schedule(&self) -> Self::Handle {
        self.0.execute_after(FAR, || ())
    }
    fn cancel(&self, h: &Self::Handle) {
        h.cancel();
    }
    fn held(&self) -> Option<usize> {
        None
    }
}

fn pool(remove_on_cancel: bool) -> Pool {
    Pool(
        threadpool_executor::presets::scheduled(1)
            .remove_on_cancel(remove_on_cancel)
            .build()
            .expect("a pool"),
    )
}

fn on_ticker() -> Arc<dyn Executor> {
    Arc::new(OnTicker)
}

/// A timer filled with `n` tasks, and their handles.
struct Filled<T: Cancels> {
    timer: T,
    handles: Vec<T::Handle>,
    rng: u64,
}

impl<T: Cancels> Filled<T> {
    fn new(timer: T, n: usize) -> Self {
        let handles = (0..n).map(|_| timer.schedule()).collect();
        Filled {
            timer,
            handles,
            rng: 0x9E37_79B9_7F4A_7C15,
        }
    }

    /// A random index into the handles (xorshift: cheap, and the same
    /// sequence on every run).
    fn pick(&mut self) -> usize {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        (self.rng % self.handles.len() as u64) as usize
    }

    /// Schedules `iters` tasks; only the schedules are timed. Each batch is
    /// cancelled again, untimed (a lazy timer keeps those entries, as it
    /// keeps any it is asked to cancel).
    fn schedule_batches(&mut self, iters: u64) -> Duration {
        let mut total = Duration::ZERO;
        let mut left = iters;
        let mut batch_handles = Vec::with_capacity(1000);
        while left > 0 {
            let batch = left.min(1000) as usize;
            let start = Instant::now();
            for _ in 0..batch {
                batch_handles.push(self.timer.schedule());
            }
            total += start.elapsed();
            for h in batch_handles.drain(..) {
                self.timer.cancel(&h);
            }
            left -= batch as u64;
        }
        total
    }

    /// Cancels `iters` random live tasks; only the cancels are timed.
    fn cancel_batches(&mut self, iters: u64) -> Duration {
        let mut total = Duration::ZERO;
        let mut left = iters;
        while left > 0 {
            let batch = left.min(1000) as usize;
            let picks: Vec<usize> = (0..batch).map(|_| self.pick()).collect();
            let start = Instant::now();
            for &i in &picks {
                self.timer.cancel(black_box(&self.handles[i]));
            }
            total += start.elapsed();
            // Untimed: every picked slot gets a live task again.
            for &i in &picks {
                self.handles[i] = self.timer.schedule();
            }
            left -= batch as u64;
        }
        total
    }
}

fn sizes() -> Vec<usize> {
    perf::size(vec![100_000, 1_000_000], vec![100_000])
}

fn bench<T: Cancels>(c: &mut Criterion, name: &str, make: impl Fn() -> T) {
    let mut g = c.benchmark_group("cancel_cost");
    for n in sizes() {
        let mut filled = Filled::new(make(), n);
        g.bench_with_input(
            BenchmarkId::new(format!("cancel, {name}"), n),
            &n,
            |b, _| b.iter_custom(|iters| filled.cancel_batches(iters)),
        );
        g.bench_with_input(
            BenchmarkId::new(format!("schedule, {name}"), n),
            &n,
            |b, _| b.iter_custom(|iters| filled.schedule_batches(iters)),
        );
    }
    g.finish();
}

fn cancel_cost(c: &mut Criterion) {
    bench(c, "scheduled pool, remove on cancel", || pool(true));
    bench(c, "scheduled pool, lazy", || pool(false));
    bench(c, "Timer", || Timer::new("cc-timer").expect("a timer"));
    bench(c, "HashedWheel", || {
        let config = HashedConfig {
            tick: Duration::from_millis(1),
            slots: 512,
        };
        HashedWheel::start(config, on_ticker(), "cc-hashed").expect("a wheel")
    });
    bench(c, "HierarchicalWheel", || {
        let config = HierarchicalConfig {
            tick: Duration::from_millis(1),
        };
        HierarchicalWheel::start(config, on_ticker(), "cc-levels").expect("a wheel")
    });
    bench(c, "scheduled-thread-pool", || {
        Peer(scheduled_thread_pool::ScheduledThreadPool::new(1))
    });
}

/// After a tenth of `n` tasks are cancelled: how many entries does each
/// timer still hold beyond the live ones?
fn held() {
    let mut report = Report::new("cancel_cost");
    let n = perf::size(100_000, 10_000);
    let mut count = |name: &str, timer: &dyn HeldAfter| {
        if let Some(extra) = timer.held_after(n) {
            report.add(
                "held after cancelling a tenth",
                name,
                "entries",
                extra as f64,
                "",
            );
        }
    };
    count("scheduled pool, remove on cancel", &Wrap(|| pool(true)));
    count("scheduled pool, lazy", &Wrap(|| pool(false)));
    count("Timer", &Wrap(|| Timer::new("cc-held").expect("a timer")));
    report.write();
}

/// Fills a fresh timer with `n`, cancels every tenth, and counts the
/// entries held beyond the live ones.
trait HeldAfter {
    fn held_after(&self, n: usize) -> Option<usize>;
}

struct Wrap<F>(F);

impl<T: Cancels, F: Fn() -> T> HeldAfter for Wrap<F> {
    fn held_after(&self, n: usize) -> Option<usize> {
        let timer = (self.0)();
        let handles: Vec<_> = (0..n).map(|_| timer.schedule()).collect();
        for h in handles.iter().step_by(10) {
            timer.cancel(h);
        }
        let live = n - n.div_ceil(10);
        timer.held().map(|held| held - live)
    }
}

fn config() -> Criterion {
    let c = Criterion::default();
    match perf::quick_criterion() {
        Some((samples, warm_up, measure)) => c
            .sample_size(samples)
            .warm_up_time(warm_up)
            .measurement_time(measure),
        None => c
            .sample_size(30)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2)),
    }
}

criterion_group! {
    name = benches;
    config = config();
    targets = cancel_cost
}

fn main() {
    held();
    benches();
    Criterion::default().configure_from_args().final_summary();
}
