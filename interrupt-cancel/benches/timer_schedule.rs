//! The cost of one `schedule` call on the finished Timer, next to two peers
//! in the same run: `scheduled-thread-pool`'s `execute_after` (crates.io,
//! one worker) and stage 3's `condvar_timer::timer_style::Timer`; and a
//! floor, what any timer of this shape must pay: a clock read, an
//! uncontended lock, the closure's box and a heap push of an entry of our
//! size (32 bytes), with no handle and no thread.
//!
//! One group per queue size, `timer_schedule/pending_<n>`: every timed call
//! finds between `n` and `2n - 1` tasks pending (due hours away, never
//! run), with `n` = 2^10 + 1, 2^17 + 1 and 2^20 + 1 (about 10^3, 10^5 and
//! 10^6). Each timed call adds a task due later than the head, so no call
//! wakes the timer thread: what is measured is the clock read, the
//! allocation (if any), the lock and the heap push.
//!
//! A timer is filled with `n` tasks (not timed), takes timed calls until it
//! holds `2n - 1`, and is then replaced by a freshly filled one (dropping it
//! is not timed either). All three queues keep their tasks in `Vec`s that
//! double from empty, so after `2^k + 1` pushes they have room for `2^(k+1)`:
//! no timed call pays for a `Vec`'s growth, a cost a long-lived timer at a
//! steady size never pays either.
//!
//! Nor should a timed call pay for memory the kernel must hand out afresh:
//! glibc gives large freed blocks back to the kernel, so every freshly
//! filled timer would touch new pages (a page fault and a zeroed page per
//! 4 KiB) where a long-lived one reuses its own. The bench therefore runs
//! itself again with `GLIBC_TUNABLES` asking glibc to keep what is freed
//! (no `mmap`, no trimming), unless that variable is set already. The same
//! for all four; the numbers then say what a `schedule` costs a timer that
//! has been running for a while. It is fair to every side: all run in this
//! one process under the same allocator setting, and it only takes away
//! the page faults of refilling a fresh timer, which a long-lived one of
//! any kind never pays.
//!
//! ```text
//! cargo bench -p interrupt-cancel --bench timer_schedule
//! ```

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group};
use interrupt_cancel::timer::{TaskHandle, Timer};
use scheduled_thread_pool::{JobHandle, OnPoolDropBehavior, ScheduledThreadPool};

/// Far enough that no task comes due during a run.
const FAR: Duration = Duration::from_secs(100 * 3600);

/// `2^k + 1`: see the module docs.
const SIZES: [usize; 3] = [(1 << 10) + 1, (1 << 17) + 1, (1 << 20) + 1];

/// A timer filled with `n` pending tasks, and the handles of every task
/// scheduled on it so far (kept, as a caller that may cancel keeps them).
struct Filled<T, H> {
    timer: T,
    handles: Vec<H>,
}

/// Times `iters` calls of `schedule`. The calls go to the current filled
/// timer until it holds `2n - 1` tasks; then it is replaced by a fresh one
/// filled with `n` (not timed). So every call finds between `n` and
/// `2n - 2` tasks pending, and there is one fill per `n - 1` calls, whatever
/// the batches criterion asks for.
fn time_calls<T, H>(
    current: &mut Option<Filled<T, H>>,
    iters: u64,
    n: usize,
    make: &impl Fn() -> T,
    schedule: &impl Fn(&T) -> H,
) -> Duration {
    let mut total = Duration::ZERO;
    let mut left = iters as usize;
    while left > 0 {
        if current
            .as_ref()
            .is_none_or(|f| f.handles.len() >= 2 * n - 1)
        {
            *current = None; // drop the full one first: memory
            let timer = make();
            let mut handles = Vec::with_capacity(2 * n);
            handles.extend((0..n).map(|_| schedule(&timer)));
            *current = Some(Filled { timer, handles });
        }
        let filled = current.as_mut().expect("just filled");
        let batch = left.min(2 * n - 1 - filled.handles.len());
        let start = Instant::now();
        for _ in 0..batch {
            filled.handles.push(schedule(black_box(&filled.timer)));
        }
        total += start.elapsed();
        left -= batch;
    }
    total
}

/// A one-worker pool that discards its pending jobs when dropped. Its drop
/// does not join the worker, so ours waits for the worker to be gone: the
/// next batch is then timed on a quiet machine, as for the two timers
/// (whose drops join).
struct Pool {
    pool: Option<ScheduledThreadPool>,
    name: String,
}

impl Pool {
    fn new() -> Pool {
        let prefix = kit::threads::unique_name("bstp");
        let pattern = format!("{prefix}-{{}}");
        let pool = ScheduledThreadPool::builder()
            .num_threads(1)
            .thread_name_pattern(&pattern)
            .on_drop_behavior(OnPoolDropBehavior::DiscardPendingScheduled)
            .build();
        Pool {
            pool: Some(pool),
            name: format!("{prefix}-0"),
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        drop(self.pool.take()); // tells the worker to stop
        assert!(
            kit::threads::gone_within(&self.name, Duration::from_secs(30)),
            "the pool's worker {} did not stop",
            self.name
        );
    }
}

/// The floor: see the module docs. Its entry is our `Entry`'s size, with
/// the closure's box in place of `seq` and the slot number.
struct Floor {
    heap: parking_lot::Mutex<BinaryHeap<FloorEntry>>,
}

struct FloorEntry {
    deadline: Instant,
    #[expect(dead_code, reason = "held to be dropped with the heap, never run")]
    task: Box<dyn FnOnce() + Send>,
}

impl Ord for FloorEntry {
    fn cmp(&self, other: &Self) -> Ordering {
        other.deadline.cmp(&self.deadline)
    }
}

impl PartialOrd for FloorEntry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for FloorEntry {
    fn eq(&self, other: &Self) -> bool {
        self.deadline == other.deadline
    }
}

impl Eq for FloorEntry {}

impl Floor {
    fn schedule(&self, delay: Duration, task: impl FnOnce() + Send + 'static) {
        let deadline = Instant::now() + delay;
        self.heap.lock().push(FloorEntry {
            deadline,
            task: Box::new(task),
        });
    }
}

fn benches(c: &mut Criterion) {
    const _: () = assert!(size_of::<FloorEntry>() == 32);
    for pending in SIZES {
        let mut g = c.benchmark_group(format!("timer_schedule/pending_{pending}"));
        g.sample_size(10)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(1));
        let mut current = None;
        g.bench_function("interrupt_cancel_timer", move |b| {
            b.iter_custom(|iters| {
                time_calls(
                    &mut current,
                    iters,
                    pending,
                    &|| Timer::new("bench-ic").unwrap(),
                    &|t: &Timer| -> TaskHandle { t.schedule(FAR, || {}).expect("fits") },
                )
            })
        });
        let mut current = None;
        g.bench_function("scheduled_thread_pool", move |b| {
            b.iter_custom(|iters| {
                time_calls(
                    &mut current,
                    iters,
                    pending,
                    &Pool::new,
                    &|p: &Pool| -> JobHandle {
                        p.pool
                            .as_ref()
                            .expect("not dropped yet")
                            .execute_after(FAR, || {})
                    },
                )
            })
        });
        let mut current = None;
        g.bench_function("condvar_timer_style", move |b| {
            b.iter_custom(|iters| {
                time_calls(
                    &mut current,
                    iters,
                    pending,
                    &|| condvar_timer::timer_style::Timer::new("bench-c4").unwrap(),
                    &|t: &condvar_timer::timer_style::Timer| t.schedule(FAR, || {}).expect("fits"),
                )
            })
        });
        let mut current = None;
        g.bench_function("floor", move |b| {
            b.iter_custom(|iters| {
                time_calls(
                    &mut current,
                    iters,
                    pending,
                    &|| Floor {
                        heap: parking_lot::Mutex::new(BinaryHeap::new()),
                    },
                    &|f: &Floor| f.schedule(FAR, || {}),
                )
            })
        });
        g.finish();
    }
}

criterion_group!(timer_schedule, benches);

/// Keep freed memory in the process: see the module docs.
const TUNABLES: &str = "glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=18446744073709551615";

fn main() {
    if std::env::var_os("GLIBC_TUNABLES").is_none()
        && let Ok(me) = std::env::current_exe()
        && let Ok(status) = std::process::Command::new(me)
            .args(std::env::args_os().skip(1))
            .env("GLIBC_TUNABLES", TUNABLES)
            .status()
    {
        std::process::exit(status.code().unwrap_or(1));
    }
    timer_schedule();
    Criterion::default().configure_from_args().final_summary();
}
