//! `instructions`: the schedule and cancel paths counted in instructions
//! with callgrind, where wall time is too noisy on a shared two-core
//! machine: a ratio of instructions against the peer is the same on every
//! run.
//!
//! The bench runs itself once per case under `valgrind --tool=callgrind`,
//! collecting only inside the case's `counted_*` function (everything
//! before it, filling the timer, is not counted), and divides the total by
//! the calls made. Not gungraun (formerly iai-callgrind), the well-kept
//! harness for this: it needs its runner binary installed at the library's
//! exact version, a second install for every machine and for CI, for what
//! is here one valgrind command per case and one line of its output read.
//!
//! ```text
//! cargo bench -p perf --bench instructions
//! ```

use std::collections::BinaryHeap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use hierarchical_hash_wheel_timer::wheels::quad_wheel::QuadWheelWithOverflow;
use interrupt_cancel::timer::Timer;
use perf::report::Report;
use threadpool_executor::scheduled::ScheduledThreadPool;
use wheel::levels::Levels;

/// Far enough that nothing comes due during a run.
const FAR: Duration = Duration::from_secs(100 * 3600);
/// Tasks pending before the counted calls.
const PENDING: usize = 10_000;
/// Counted calls per case.
const CALLS: usize = 1000;

/// A case: its group and name in the report, the function callgrind counts
/// in (by name), and what sets it up and calls that function.
struct Case {
    group: &'static str,
    name: &'static str,
    counted: &'static str,
    run: fn(),
}

const CASES: [Case; 7] = [
    Case {
        group: "schedule",
        name: "Timer (stage 5)",
        counted: "counted_timer_schedule",
        run: case_timer_schedule,
    },
    Case {
        group: "schedule",
        name: "ScheduledThreadPool (stage 6)",
        counted: "counted_pool_schedule",
        run: case_pool_schedule,
    },
    Case {
        group: "schedule",
        name: "scheduled-thread-pool",
        counted: "counted_peer_schedule",
        run: case_peer_schedule,
    },
    Case {
        group: "schedule",
        name: "floor: clock, lock, box, heap push",
        counted: "counted_floor",
        run: case_floor,
    },
    Case {
        group: "cancel",
        name: "ScheduledThreadPool, remove on cancel (stage 6)",
        counted: "counted_pool_cancel",
        run: case_pool_cancel,
    },
    Case {
        group: "insert",
        name: "HierarchicalWheel's levels (stage 7)",
        counted: "counted_levels_insert",
        run: case_levels_insert,
    },
    Case {
        group: "insert",
        name: "hierarchical_hash_wheel_timer's quad wheel",
        counted: "counted_peer_wheel_insert",
        run: case_peer_wheel_insert,
    },
];

fn main() {
    let case = perf::under::case();
    if let Some(case) = case {
        let case = CASES
            .iter()
            .find(|c| c.counted == case)
            .expect("a known case");
        (case.run)();
        return;
    }
    let mut report = Report::new("instructions");
    for case in &CASES {
        let args = [
            "--tool=callgrind".to_owned(),
            "--collect-atstart=no".to_owned(),
            format!("--toggle-collect=*{}*", case.counted),
            "--callgrind-out-file={out}".to_owned(),
        ];
        let Some(text) = perf::under::run("valgrind", &args, "callgrind.out", case.counted) else {
            return;
        };
        let total: u64 = text
            .lines()
            .find_map(|l| {
                l.strip_prefix("totals: ")
                    .or_else(|| l.strip_prefix("summary: "))
            })
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .expect("a totals line");
        report.add(
            case.group,
            case.name,
            "instructions",
            total as f64 / CALLS as f64,
            "per call",
        );
    }
    report.write();
}

fn case_timer_schedule() {
    let timer = Timer::new("in-timer").expect("a timer");
    let mut handles: Vec<_> = (0..PENDING)
        .map(|_| timer.schedule(FAR, || ()).expect("ok"))
        .collect();
    handles.reserve(CALLS);
    counted_timer_schedule(&timer, &mut handles);
}

#[inline(never)]
fn counted_timer_schedule(timer: &Timer, handles: &mut Vec<interrupt_cancel::timer::TaskHandle>) {
    for _ in 0..CALLS {
        handles.push(timer.schedule(FAR, || ()).expect("ok"));
    }
}

fn case_pool_schedule() {
    let pool = ScheduledThreadPool::new(1).expect("a pool");
    let mut futures: Vec<_> = (0..PENDING)
        .map(|_| pool.schedule(FAR, || ()).expect("ok"))
        .collect();
    futures.reserve(CALLS);
    counted_pool_schedule(&pool, &mut futures);
    pool.shutdown_now();
}

#[inline(never)]
fn counted_pool_schedule(
    pool: &ScheduledThreadPool,
    futures: &mut Vec<threadpool_executor::scheduled::ScheduledFuture<()>>,
) {
    for _ in 0..CALLS {
        futures.push(pool.schedule(FAR, || ()).expect("ok"));
    }
}

fn case_pool_cancel() {
    let pool = ScheduledThreadPool::new(1).expect("a pool");
    let futures: Vec<_> = (0..PENDING)
        .map(|_| pool.schedule(FAR, || ()).expect("ok"))
        .collect();
    // Every tenth, spread over the heap.
    let picked: Vec<_> = futures.iter().step_by(PENDING / CALLS).collect();
    counted_pool_cancel(&picked);
    pool.shutdown_now();
}

#[inline(never)]
fn counted_pool_cancel(picked: &[&threadpool_executor::scheduled::ScheduledFuture<()>]) {
    for f in picked {
        black_box(f.cancel(false));
    }
}

fn case_peer_schedule() {
    let pool = scheduled_thread_pool::ScheduledThreadPool::new(1);
    let mut handles: Vec<_> = (0..PENDING)
        .map(|_| pool.execute_after(FAR, || ()))
        .collect();
    handles.reserve(CALLS);
    counted_peer_schedule(&pool, &mut handles);
}

#[inline(never)]
fn counted_peer_schedule(
    pool: &scheduled_thread_pool::ScheduledThreadPool,
    handles: &mut Vec<scheduled_thread_pool::JobHandle>,
) {
    for _ in 0..CALLS {
        handles.push(pool.execute_after(FAR, || ()));
    }
}

/// What any timer of this shape pays: the clock, a lock, the closure's
/// box and a heap push.
fn case_floor() {
    let heap = parking_lot::Mutex::new(BinaryHeap::new());
    let base = Instant::now() + FAR;
    for i in 0..PENDING as u64 {
        heap.lock().push(FloorKey(std::cmp::Reverse(base), i));
    }
    heap.lock().reserve(CALLS);
    let mut boxes: Vec<Box<dyn FnOnce() + Send>> = Vec::with_capacity(CALLS);
    counted_floor(&heap, &mut boxes);
}

/// Earliest first, as a timer's heap orders (std's heap is a max-heap):
/// a task due later than the others stays at the bottom.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct FloorKey(std::cmp::Reverse<Instant>, u64);

#[inline(never)]
fn counted_floor(
    heap: &parking_lot::Mutex<BinaryHeap<FloorKey>>,
    boxes: &mut Vec<Box<dyn FnOnce() + Send>>,
) {
    for i in 0..CALLS as u64 {
        let at = Instant::now() + FAR;
        boxes.push(Box::new(|| ()));
        heap.lock()
            .push(FloorKey(std::cmp::Reverse(at), i + PENDING as u64));
    }
}

fn case_levels_insert() {
    let mut levels: Levels<Box<dyn FnOnce() + Send>> = Levels::new();
    for i in 0..PENDING as u64 {
        levels.insert(1 + i * 7919 % 1_000_000, Box::new(|| ()));
    }
    counted_levels_insert(&mut levels);
}

#[inline(never)]
fn counted_levels_insert(levels: &mut Levels<Box<dyn FnOnce() + Send>>) {
    for i in 0..CALLS as u64 {
        black_box(levels.insert(1 + i * 104_729 % 1_000_000, Box::new(|| ())));
    }
}

/// The peer's plain wheel wants `Debug` entries.
struct PeerJob(
    #[expect(dead_code, reason = "held to be dropped, never run")] Box<dyn FnOnce() + Send>,
);

impl std::fmt::Debug for PeerJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PeerJob")
    }
}

fn case_peer_wheel_insert() {
    let mut wheel = QuadWheelWithOverflow::<PeerJob>::default();
    for i in 0..PENDING as u32 {
        wheel
            .insert_with_delay(
                PeerJob(Box::new(|| ())),
                Duration::from_millis(u64::from(1 + i * 7919 % 1_000_000)),
            )
            .expect("ahead");
    }
    counted_peer_wheel_insert(&mut wheel);
}

#[inline(never)]
fn counted_peer_wheel_insert(wheel: &mut QuadWheelWithOverflow<PeerJob>) {
    for i in 0..CALLS as u32 {
        wheel
            .insert_with_delay(
                PeerJob(Box::new(|| ())),
                Duration::from_millis(u64::from(1 + i * 104_729 % 1_000_000)),
            )
            .expect("ahead");
    }
}
