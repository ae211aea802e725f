//! `cancel_cost`: one cancel, on every timer that can cancel, in
//! interleaved rounds (see `perf::rounds`), at about 10^3, 10^5 and 10^6
//! pending; then how many cancelled entries each still holds.
//!
//! Two cases, each its own contest:
//!
//! - **a random standing task** (the realistic case): every side gets a
//!   fresh timer filled with `n` tasks (random deadlines over an hour,
//!   closures that capture), then cancels `k = (n - 1) / 8` of them,
//!   distinct, picked at random beforehand, in random order; only the
//!   cancels are timed. A random task sits at a random place in a big
//!   heap: its cancel pays the cache misses of getting there.
//! - **the newest task** (the best case, what a bench that cancels the
//!   task it just scheduled measures): a fresh timer filled with `n` tasks,
//!   each due after all before it, and `k` more the same way; then the `k`
//!   newest are cancelled, newest first, timed. On a heap the newest sits
//!   at the end of its array, so removing it moves nothing.
//!
//! What each side does per timed cancel:
//!
//! - **`indexed heap`**: stage 6's `DelayedQueue` on its own, items of a
//!   deadline, a sequence number and a heap index: `remove_item` locks,
//!   reads the item's index, swaps the last item into its place and sifts
//!   it (writing the moved items' indices). Nothing is retained.
//! - **`scheduled pool, remove on cancel`**: stage 6's pool (T14's fix,
//!   the default): `ScheduledFuture::cancel` moves the future's state to
//!   cancelled, drops the job, and removes the task from the indexed heap
//!   as above. Nothing is retained.
//! - **`scheduled pool, lazy`**: the same pool with remove-on-cancel off
//!   (the JDK's default): the state changes, the task stays queued until
//!   its deadline.
//! - **`Timer`**: stage 5's handle's `cancel`: locks, marks the slot
//!   cancelled and drops its closure; the heap entry stays until it
//!   surfaces (as `java.util.Timer` does, until a `purge`).
//! - **`HashedWheel`**, **`HierarchicalWheel`** (stage 7; the random case
//!   only): the handle claims the timer (one compare-and-swap), drops the
//!   job, and sends the ticker a command to unlink it, which it does on
//!   its own thread later: the caller's share only.
//! - **`scheduled-thread-pool`**: its handle sets the job's flag (one
//!   atomic store); the job stays in the heap until its time.
//!
//! So the lazy sides keep `n` entries while the removing ones go down to
//! `n - k`; the `held` rows say what each keeps.
//!
//! ```text
//! cargo bench -p perf --bench cancel_cost
//! ```

use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::time::{Duration, Instant};

use interrupt_cancel::timer::{TaskHandle, Timer};
use perf::peer::Peer;
use perf::report::Report;
use perf::rounds::{Contest, Sample};
use perf::sides::HeapItem;
use perf::workload::{self, Call, Calls, Draws, Input, Plan};
use threadpool_executor::deadline::Deadline;
use threadpool_executor::delayed_queue::DelayedQueue;
use threadpool_executor::queue::WorkQueue;
use threadpool_executor::scheduled::{ScheduledFuture, ScheduledThreadPool};
use wheel::hashed::{HashedConfig, HashedWheel};
use wheel::hierarchical::{HierarchicalConfig, HierarchicalWheel};
use wheel::{Executor, Job, OnTicker};

/// A timer the bench fills and cancels on.
trait Cancels {
    type Handle;
    fn schedule(&self, call: Call) -> Self::Handle;
    fn cancel(&self, handle: &Self::Handle);
    /// Entries the timer still holds, live or cancelled; `None` if it
    /// cannot say.
    fn held(&self) -> Option<usize>;
}

/// The bare indexed heap, numbering its items.
struct Indexed {
    queue: DelayedQueue<HeapItem>,
    next: AtomicUsize,
}

impl Indexed {
    fn new() -> Indexed {
        Indexed {
            queue: DelayedQueue::new(),
            next: AtomicUsize::new(0),
        }
    }
}

impl Cancels for Indexed {
    type Handle = Arc<HeapItem>;
    fn schedule(&self, call: Call) -> Arc<HeapItem> {
        let sequence = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed) as u64;
        let item = Arc::new(HeapItem::new(
            Deadline::now().after(call.delay),
            sequence,
            (),
        ));
        assert!(self.queue.offer(Arc::clone(&item)).is_ok(), "queued once");
        item
    }
    fn cancel(&self, item: &Arc<HeapItem>) {
        black_box(self.queue.remove_item(item));
    }
    fn held(&self) -> Option<usize> {
        Some(self.queue.len())
    }
}

/// Stage 6's pool.
struct Pool(ScheduledThreadPool);

impl Cancels for Pool {
    type Handle = ScheduledFuture<()>;
    fn schedule(&self, call: Call) -> Self::Handle {
        match call.capture {
            None => self.0.schedule(call.delay, || ()),
            Some(x) => self.0.schedule(call.delay, move || {
                black_box(x);
            }),
        }
        .expect("a running pool")
    }
    fn cancel(&self, h: &Self::Handle) {
        black_box(h.cancel(false));
    }
    fn held(&self) -> Option<usize> {
        Some(self.0.queue().len())
    }
}

impl Cancels for Timer {
    type Handle = TaskHandle;
    fn schedule(&self, call: Call) -> TaskHandle {
        match call.capture {
            None => Timer::schedule(self, call.delay, || ()),
            Some(x) => Timer::schedule(self, call.delay, move || {
                black_box(x);
            }),
        }
        .expect("a running timer")
    }
    fn cancel(&self, h: &TaskHandle) {
        black_box(h.cancel());
    }
    fn held(&self) -> Option<usize> {
        Some(self.queued())
    }
}

fn job(call: Call) -> Job {
    match call.capture {
        None => Box::new(|| ()),
        Some(x) => Box::new(move || {
            black_box(x);
        }),
    }
}

impl Cancels for HashedWheel {
    type Handle = wheel::hashed::Handle;
    fn schedule(&self, call: Call) -> Self::Handle {
        HashedWheel::schedule(self, call.delay, job(call)).expect("a running wheel")
    }
    fn cancel(&self, h: &Self::Handle) {
        black_box(h.cancel());
    }
    fn held(&self) -> Option<usize> {
        None
    }
}

impl Cancels for HierarchicalWheel {
    type Handle = wheel::hierarchical::Handle;
    fn schedule(&self, call: Call) -> Self::Handle {
        HierarchicalWheel::schedule(self, call.delay, job(call)).expect("a running wheel")
    }
    fn cancel(&self, h: &Self::Handle) {
        black_box(h.cancel());
    }
    fn held(&self) -> Option<usize> {
        None
    }
}

impl Cancels for Peer {
    type Handle = scheduled_thread_pool::JobHandle;
    fn schedule(&self, call: Call) -> Self::Handle {
        Peer::schedule(self, call.delay, call.capture)
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

fn hashed() -> HashedWheel {
    let config = HashedConfig {
        tick: Duration::from_millis(1),
        slots: 512,
    };
    HashedWheel::start(config, on_ticker(), "cc-hashed").expect("a wheel")
}

fn hierarchical() -> HierarchicalWheel {
    let config = HierarchicalConfig {
        tick: Duration::from_millis(1),
    };
    HierarchicalWheel::start(config, on_ticker(), "cc-levels").expect("a wheel")
}

/// `k` distinct indices below `n`, in random order (a partial
/// Fisher-Yates shuffle), the same on every call.
fn picks(n: usize, k: usize) -> Vec<usize> {
    let mut all: Vec<usize> = (0..n).collect();
    let mut draws = Draws::new(0x1357_9BDF_2468_ACE0);
    for i in 0..k {
        let j = i + draws.below((n - i) as u64) as usize;
        all.swap(i, j);
    }
    all.truncate(k);
    all
}

/// One round of the random case: see the module docs.
fn random_round<T: Cancels>(plan: Plan, picks: &[usize], make: impl Fn() -> T) -> Sample {
    let mut total = Duration::ZERO;
    for _ in 0..plan.fills {
        let timer = make();
        let mut calls = Calls::new(Input::Random);
        let handles: Vec<T::Handle> = (0..plan.n)
            .map(|_| timer.schedule(calls.next_call()))
            .collect();
        workload::settle();
        let start = Instant::now();
        for &i in picks {
            timer.cancel(black_box(&handles[i]));
        }
        total += start.elapsed();
        drop(handles);
        drop(timer);
    }
    Sample {
        elapsed: total,
        ops: plan.ops(),
    }
}

/// One round of the best case: see the module docs.
fn newest_round<T: Cancels>(plan: Plan, make: impl Fn() -> T) -> Sample {
    let mut total = Duration::ZERO;
    for _ in 0..plan.fills {
        let timer = make();
        let mut calls = Calls::new(Input::Best);
        let handles: Vec<T::Handle> = (0..plan.n + plan.k)
            .map(|_| timer.schedule(calls.next_call()))
            .collect();
        workload::settle();
        let start = Instant::now();
        for h in handles[plan.n..].iter().rev() {
            timer.cancel(black_box(h));
        }
        total += start.elapsed();
        drop(handles);
        drop(timer);
    }
    Sample {
        elapsed: total,
        ops: plan.ops(),
    }
}

fn main() {
    perf::require_shipped_build();
    workload::keep_freed_memory();
    let mut report = Report::new("cancel_cost");
    held(&mut report);
    for n in workload::sizes() {
        let plan = Plan::at(n, workload::min_ops());
        let picks = picks(plan.n, plan.k);
        let picks = &picks;
        let size = workload::size_label(n);

        let mut contest = Contest::new(format!("random standing task, {size} pending"));
        contest.subject("indexed heap", || random_round(plan, picks, Indexed::new));
        contest.subject("scheduled pool, remove on cancel", || {
            random_round(plan, picks, || pool(true))
        });
        contest.subject("scheduled pool, lazy", || {
            random_round(plan, picks, || pool(false))
        });
        contest.subject("Timer", || {
            random_round(plan, picks, || Timer::new("cc-timer").expect("a timer"))
        });
        contest.subject("HashedWheel", || random_round(plan, picks, hashed));
        contest.subject("HierarchicalWheel", || {
            random_round(plan, picks, hierarchical)
        });
        contest.subject("scheduled-thread-pool", || {
            random_round(plan, picks, Peer::new)
        });
        contest.run(&mut report);

        let mut contest = Contest::new(format!("newest task, {size} pending"));
        contest.subject("indexed heap", || newest_round(plan, Indexed::new));
        contest.subject("scheduled pool, remove on cancel", || {
            newest_round(plan, || pool(true))
        });
        contest.subject("scheduled pool, lazy", || {
            newest_round(plan, || pool(false))
        });
        contest.subject("Timer", || {
            newest_round(plan, || Timer::new("cc-timer").expect("a timer"))
        });
        contest.subject("scheduled-thread-pool", || newest_round(plan, Peer::new));
        contest.run(&mut report);
    }
    report.write();
}

/// After a tenth of `n` random tasks are cancelled: how many entries does
/// each timer still hold beyond the live ones? (Not timed.)
fn held(report: &mut Report) {
    let n = perf::size(100_000, 10_000);
    let cancelled = picks(n, n / 10);
    let mut count = |name: &str, extra: Option<usize>| {
        if let Some(extra) = extra {
            report.add(
                "held after cancelling a tenth",
                name,
                "entries",
                extra as f64,
                "",
            );
        }
    };
    count("indexed heap", held_after(Indexed::new(), n, &cancelled));
    count(
        "scheduled pool, remove on cancel",
        held_after(pool(true), n, &cancelled),
    );
    count(
        "scheduled pool, lazy",
        held_after(pool(false), n, &cancelled),
    );
    count(
        "Timer",
        held_after(Timer::new("cc-held").expect("a timer"), n, &cancelled),
    );
}

/// Fills `timer` with `n`, cancels those at `cancelled`, and counts the
/// entries it holds beyond the live ones.
fn held_after<T: Cancels>(timer: T, n: usize, cancelled: &[usize]) -> Option<usize> {
    let mut calls = Calls::new(Input::Random);
    let handles: Vec<_> = (0..n).map(|_| timer.schedule(calls.next_call())).collect();
    for &i in cancelled {
        timer.cancel(&handles[i]);
    }
    let live = n - cancelled.len();
    timer.held().map(|held| held - live)
}
