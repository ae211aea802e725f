//! What scheduling and cancelling cost with many tasks pending: the
//! pattern of a server that schedules a timeout for every request and
//! cancels it when the answer comes first (T14).
//!
//! For N = 10^3, 10^4, 10^5 and 10^6 pending tasks (deadlines spread over
//! one to two hours, so nothing ever comes due), two operations:
//!
//! - `schedule`: one more far task;
//! - `cancel`: cancelling one of them.
//!
//! Two pools, in the same run, each with one worker (idle: nothing is
//! due):
//!
//! - `threadpool_executor`: ours, [`ScheduledThreadPool`]: a heap whose
//!   tasks know their index, so a cancel removes its task in O(log n);
//! - `scheduled_thread_pool`: the crates.io `scheduled-thread-pool`, a
//!   `BinaryHeap` of jobs under a mutex, where a cancel only sets the
//!   job's flag: the job stays in the heap until its time. So its heap
//!   also holds every task the bench cancelled; ours holds N.
//!
//! Work goes in rounds of `ROUND` operations, timed together, so that the
//! tasks a round adds (and the next round cancels, untimed in `schedule`)
//! never push the pending count far from N.
//!
//! ```text
//! cargo bench -p threadpool-executor --bench scheduled_pool
//! ```

use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use scheduled_thread_pool::{JobHandle, OnPoolDropBehavior};
use threadpool_executor::factory::NamedThreads;
use threadpool_executor::scheduled::{ScheduledFuture, ScheduledThreadPool};

const SIZES: [usize; 4] = [1_000, 10_000, 100_000, 1_000_000];
/// Operations timed together.
const ROUND: u64 = 100;

/// Far delays in [1 h, 2 h), from a linear congruential generator with a fixed start
/// (Knuth's MMIX constants): the same on every run, no dependency.
struct Delays(u64);

impl Delays {
    fn next(&mut self) -> Duration {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        Duration::from_secs(3600) + Duration::from_nanos((self.0 >> 33) % 3_600_000_000_000)
    }
}

/// What the bench needs of a scheduled pool.
trait Pool {
    type Handle;
    fn schedule(&self, delay: Duration) -> Self::Handle;
    fn cancel(handle: &Self::Handle);
}

impl Pool for ScheduledThreadPool {
    type Handle = ScheduledFuture<()>;

    fn schedule(&self, delay: Duration) -> Self::Handle {
        ScheduledThreadPool::schedule(self, delay, || ()).unwrap()
    }

    fn cancel(handle: &Self::Handle) {
        handle.cancel(false);
    }
}

impl Pool for scheduled_thread_pool::ScheduledThreadPool {
    type Handle = JobHandle;

    fn schedule(&self, delay: Duration) -> Self::Handle {
        self.execute_after(delay, || ())
    }

    fn cancel(handle: &Self::Handle) {
        handle.cancel();
    }
}

fn ours() -> ScheduledThreadPool {
    ScheduledThreadPool::builder()
        .thread_factory(NamedThreads::with_prefix("ours-"))
        .build()
        .unwrap()
}

fn peer() -> scheduled_thread_pool::ScheduledThreadPool {
    scheduled_thread_pool::ScheduledThreadPool::builder()
        .num_threads(1)
        .thread_name_pattern("peer-{}")
        // Otherwise its worker would wait for the last pending task, an
        // hour away, after the pool is dropped.
        .on_drop_behavior(OnPoolDropBehavior::DiscardPendingScheduled)
        .build()
}

/// Times `iters` schedules, in rounds; each round's tasks are cancelled
/// after it, untimed.
fn time_schedule<P: Pool>(pool: &P, delays: &mut Delays, iters: u64) -> Duration {
    let mut total = Duration::ZERO;
    let mut done = 0;
    let mut handles = Vec::with_capacity(ROUND as usize);
    while done < iters {
        let n = ROUND.min(iters - done);
        let start = Instant::now();
        for _ in 0..n {
            handles.push(pool.schedule(delays.next()));
        }
        total += start.elapsed();
        for handle in handles.drain(..) {
            P::cancel(&handle);
        }
        done += n;
    }
    total
}

/// Times `iters` cancels, in rounds; each round's tasks are scheduled
/// before it, untimed.
fn time_cancel<P: Pool>(pool: &P, delays: &mut Delays, iters: u64) -> Duration {
    let mut total = Duration::ZERO;
    let mut done = 0;
    let mut handles = Vec::with_capacity(ROUND as usize);
    while done < iters {
        let n = ROUND.min(iters - done);
        for _ in 0..n {
            handles.push(pool.schedule(delays.next()));
        }
        let start = Instant::now();
        for handle in &handles {
            P::cancel(handle);
        }
        total += start.elapsed();
        handles.clear();
        done += n;
    }
    total
}

/// A pool of one kind, with `pending` far tasks in it (their handles kept:
/// a dropped handle does not cancel).
struct Loaded<P: Pool> {
    pool: P,
    delays: Delays,
    _standing: Vec<P::Handle>,
}

fn loaded<P: Pool>(pool: P, pending: usize) -> Loaded<P> {
    let mut delays = Delays(pending as u64);
    let standing = (0..pending).map(|_| pool.schedule(delays.next())).collect();
    Loaded {
        pool,
        delays,
        _standing: standing,
    }
}

/// Both operations on both pools at one size, side by side.
fn scheduled_pools(c: &mut Criterion) {
    for &pending in &SIZES {
        let mut ours = loaded(ours(), pending);
        let mut peer = loaded(peer(), pending);
        let mut group = c.benchmark_group("schedule");
        group.bench_function(BenchmarkId::new("threadpool_executor", pending), |b| {
            b.iter_custom(|iters| time_schedule(&ours.pool, &mut ours.delays, iters));
        });
        group.bench_function(BenchmarkId::new("scheduled_thread_pool", pending), |b| {
            b.iter_custom(|iters| time_schedule(&peer.pool, &mut peer.delays, iters));
        });
        group.finish();
        let mut group = c.benchmark_group("cancel");
        group.bench_function(BenchmarkId::new("threadpool_executor", pending), |b| {
            b.iter_custom(|iters| time_cancel(&ours.pool, &mut ours.delays, iters));
        });
        group.bench_function(BenchmarkId::new("scheduled_thread_pool", pending), |b| {
            b.iter_custom(|iters| time_cancel(&peer.pool, &mut peer.delays, iters));
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(800));
    targets = scheduled_pools
}
criterion_main!(benches);
