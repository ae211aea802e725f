//! `instructions`: the schedule, cancel and insert paths counted in
//! instructions with callgrind, where wall time is too noisy on a shared
//! two-core machine to tell apart differences of less than about 15 %:
//! a ratio of instructions is the same on every run of the same build.
//!
//! Each case makes the very call its time bench makes, through the same
//! function (`perf::sides`, `perf::peer`), on a structure filled the same
//! way: a fresh one filled with `2^13 + 1` entries (`2^11 + 1` in quick
//! mode), then 1000 counted calls, which stay within the room the fill
//! left. Schedules are counted for both inputs (`perf::workload`):
//!
//! - `schedule, best case` and `schedule, random`: stage 5's `Timer`,
//!   stage 6's scheduled pool, `scheduled-thread-pool`, and the two
//!   floors (see `timer_schedule` and `scheduled_pool` for what each does
//!   per call);
//! - `cancel, random standing task`: stage 6's pool (remove on cancel)
//!   and its indexed heap alone, cancelling 1000 distinct tasks picked at
//!   random (see `cancel_cost`);
//! - `insert`: the hierarchical wheel's levels, the peer's plain wheel
//!   and a bare heap push, an empty job each (see `wheel_schedule`).
//!
//! The bench runs itself once per case under `valgrind --tool=callgrind`,
//! collecting only inside the case's `counted_*` function (filling is not
//! counted), and divides the total by the calls made. Not gungraun
//! (formerly iai-callgrind), the well-kept harness for this: it needs its
//! runner binary installed at the library's exact version, a second
//! install for every machine and for CI, for what is here one valgrind
//! command per case and one line of its output read.
//!
//! ```text
//! cargo bench -p perf --bench instructions
//! ```

use std::collections::BinaryHeap;
use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use hierarchical_hash_wheel_timer::wheels::quad_wheel::QuadWheelWithOverflow;
use interrupt_cancel::timer::{TaskHandle, Timer};
use perf::peer::Peer;
use perf::report::Report;
use perf::sides::{self, ARC_FLOOR, ArcFloor, HEAP_FLOOR, HeapFloor, HeapItem, SharedTask};
use perf::workload::{Call, Calls, Draws, Input};
use threadpool_executor::deadline::Deadline;
use threadpool_executor::delayed_queue::DelayedQueue;
use threadpool_executor::queue::WorkQueue;
use threadpool_executor::scheduled::{ScheduledFuture, ScheduledThreadPool};
use wheel::Job;
use wheel::levels::Levels;

/// Entries filled before the counted calls: `2^j + 1`, see
/// `perf::workload`.
fn pending() -> usize {
    perf::size((1 << 13) + 1, (1 << 11) + 1)
}

/// Counted calls per case.
const CALLS: usize = 1000;

/// A case: its group and name in the report, the function callgrind counts
/// in (by name), and what sets it up and calls that function.
struct Case {
    group: &'static str,
    name: &'static str,
    counted: &'static str,
    run: fn(Input),
    input: Input,
}

const TIMER: &str = "Timer (stage 5)";
const POOL: &str = "ScheduledThreadPool (stage 6)";
const PEER: &str = "scheduled-thread-pool";

/// The schedule cases, for one input.
macro_rules! schedules {
    ($group:expr, $input:expr) => {
        [
            Case {
                group: $group,
                name: TIMER,
                counted: "counted_timer_schedule",
                run: case_timer_schedule,
                input: $input,
            },
            Case {
                group: $group,
                name: POOL,
                counted: "counted_pool_schedule",
                run: case_pool_schedule,
                input: $input,
            },
            Case {
                group: $group,
                name: PEER,
                counted: "counted_peer_schedule",
                run: case_peer_schedule,
                input: $input,
            },
            Case {
                group: $group,
                name: HEAP_FLOOR,
                counted: "counted_heap_floor",
                run: case_heap_floor,
                input: $input,
            },
            Case {
                group: $group,
                name: ARC_FLOOR,
                counted: "counted_arc_floor",
                run: case_arc_floor,
                input: $input,
            },
        ]
    };
}

fn cases() -> Vec<Case> {
    let mut all = Vec::new();
    all.extend(schedules!("schedule, best case", Input::Best));
    all.extend(schedules!("schedule, random", Input::Random));
    all.extend([
        Case {
            group: "cancel, random standing task",
            name: "scheduled pool, remove on cancel",
            counted: "counted_pool_cancel",
            run: case_pool_cancel,
            input: Input::Random,
        },
        Case {
            group: "cancel, random standing task",
            name: "indexed heap",
            counted: "counted_indexed_cancel",
            run: case_indexed_cancel,
            input: Input::Random,
        },
        Case {
            group: "insert",
            name: "HierarchicalWheel's levels (stage 7)",
            counted: "counted_levels_insert",
            run: case_levels_insert,
            input: Input::Random,
        },
        Case {
            group: "insert",
            name: "hierarchical_hash_wheel_timer's quad wheel",
            counted: "counted_peer_wheel_insert",
            run: case_peer_wheel_insert,
            input: Input::Random,
        },
        Case {
            group: "insert",
            name: "bare heap push",
            counted: "counted_heap_push",
            run: case_heap_push,
            input: Input::Random,
        },
    ]);
    all
}

/// The `--case=` argument of one case: its function and its input.
fn case_arg(case: &Case) -> String {
    format!("{}:{}", case.counted, case.input.label())
}

fn main() {
    perf::require_shipped_build();
    let cases = cases();
    if let Some(arg) = perf::under::case() {
        let case = cases
            .iter()
            .find(|c| case_arg(c) == arg)
            .expect("a known case");
        (case.run)(case.input);
        return;
    }
    let mut report = Report::new("instructions");
    for case in &cases {
        let args = [
            "--tool=callgrind".to_owned(),
            "--collect-atstart=no".to_owned(),
            format!("--toggle-collect=*{}*", case.counted),
            "--callgrind-out-file={out}".to_owned(),
        ];
        let Some(text) = perf::under::run("valgrind", &args, "callgrind.out", &case_arg(case))
        else {
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

/// A subject filled with `pending()` calls of `schedule`, the next
/// `CALLS` calls drawn, and room for their handles.
fn filled<T, H>(
    input: Input,
    subject: T,
    schedule: impl Fn(&T, Call) -> H,
) -> (T, Vec<H>, Vec<Call>) {
    let mut calls = Calls::new(input);
    let mut handles = Vec::with_capacity(pending() + CALLS);
    for _ in 0..pending() {
        handles.push(schedule(&subject, calls.next_call()));
    }
    let counted = (0..CALLS).map(|_| calls.next_call()).collect();
    (subject, handles, counted)
}

fn case_timer_schedule(input: Input) {
    let (timer, mut handles, calls) = filled(
        input,
        Timer::new("in-timer").expect("a timer"),
        sides::timer_schedule,
    );
    counted_timer_schedule(&timer, &calls, &mut handles);
}

#[inline(never)]
fn counted_timer_schedule(timer: &Timer, calls: &[Call], handles: &mut Vec<TaskHandle>) {
    for &c in calls {
        handles.push(sides::timer_schedule(black_box(timer), c));
    }
}

fn case_pool_schedule(input: Input) {
    let (pool, mut handles, calls) = filled(
        input,
        ScheduledThreadPool::new(1).expect("a pool"),
        sides::pool_schedule,
    );
    counted_pool_schedule(&pool, &calls, &mut handles);
}

#[inline(never)]
fn counted_pool_schedule(
    pool: &ScheduledThreadPool,
    calls: &[Call],
    handles: &mut Vec<ScheduledFuture<()>>,
) {
    for &c in calls {
        handles.push(sides::pool_schedule(black_box(pool), c));
    }
}

fn case_peer_schedule(input: Input) {
    let (peer, mut handles, calls) = filled(input, Peer::new(), |p: &Peer, c: Call| {
        p.schedule(c.delay, c.capture)
    });
    counted_peer_schedule(&peer, &calls, &mut handles);
}

#[inline(never)]
fn counted_peer_schedule(
    peer: &Peer,
    calls: &[Call],
    handles: &mut Vec<scheduled_thread_pool::JobHandle>,
) {
    for &c in calls {
        handles.push(black_box(peer).schedule(c.delay, c.capture));
    }
}

fn case_heap_floor(input: Input) {
    // The floor hands back no handle.
    let (floor, _, calls) = filled(input, HeapFloor::default(), HeapFloor::schedule);
    counted_heap_floor(&floor, &calls);
}

#[inline(never)]
fn counted_heap_floor(floor: &HeapFloor, calls: &[Call]) {
    for &c in calls {
        black_box(floor).schedule(c);
    }
}

fn case_arc_floor(input: Input) {
    let (floor, mut handles, calls) = filled(input, ArcFloor::default(), ArcFloor::schedule);
    counted_arc_floor(&floor, &calls, &mut handles);
}

#[inline(never)]
fn counted_arc_floor(floor: &ArcFloor, calls: &[Call], handles: &mut Vec<Arc<SharedTask>>) {
    for &c in calls {
        handles.push(black_box(floor).schedule(c));
    }
}

/// `CALLS` distinct indices below `n`, in random order.
fn picks(n: usize) -> Vec<usize> {
    let mut all: Vec<usize> = (0..n).collect();
    let mut draws = Draws::new(0x1357_9BDF_2468_ACE0);
    for i in 0..CALLS {
        let j = i + draws.below((n - i) as u64) as usize;
        all.swap(i, j);
    }
    all.truncate(CALLS);
    all
}

fn case_pool_cancel(input: Input) {
    // The pool stays alive while its futures are cancelled.
    let (_pool, futures, _) = filled(
        input,
        ScheduledThreadPool::new(1).expect("a pool"),
        sides::pool_schedule,
    );
    let picked: Vec<&ScheduledFuture<()>> = picks(futures.len())
        .into_iter()
        .map(|i| &futures[i])
        .collect();
    counted_pool_cancel(&picked);
}

#[inline(never)]
fn counted_pool_cancel(picked: &[&ScheduledFuture<()>]) {
    for f in picked {
        black_box(f.cancel(false));
    }
}

fn case_indexed_cancel(input: Input) {
    let queue = DelayedQueue::<HeapItem>::new();
    let mut calls = Calls::new(input);
    let items: Vec<Arc<HeapItem>> = (0..pending() as u64)
        .map(|sequence| {
            let item = Arc::new(HeapItem::new(
                Deadline::now().after(calls.next_call().delay),
                sequence,
                (),
            ));
            assert!(queue.offer(Arc::clone(&item)).is_ok());
            item
        })
        .collect();
    let picked: Vec<&Arc<HeapItem>> = picks(items.len()).into_iter().map(|i| &items[i]).collect();
    counted_indexed_cancel(&queue, &picked);
}

#[inline(never)]
fn counted_indexed_cancel(queue: &DelayedQueue<HeapItem>, picked: &[&Arc<HeapItem>]) {
    for item in picked {
        black_box(queue.remove_item(item));
    }
}

/// Ticks for the inserts: 1 to 10,000, uniform, as `wheel_schedule` draws.
fn ticks(count: usize, draws: &mut Draws) -> Vec<u64> {
    (0..count).map(|_| 1 + draws.below(10_000)).collect()
}

fn empty_job() -> Job {
    Box::new(|| ())
}

fn case_levels_insert(_: Input) {
    let mut draws = Draws::new(0x243F_6A88_85A3_08D3);
    let mut levels: Levels<Job> = Levels::new();
    for t in ticks(pending(), &mut draws) {
        levels.insert(t, empty_job());
    }
    counted_levels_insert(&mut levels, &ticks(CALLS, &mut draws));
}

#[inline(never)]
fn counted_levels_insert(levels: &mut Levels<Job>, ticks: &[u64]) {
    for &t in ticks {
        black_box(levels.insert(t, empty_job()));
    }
}

/// The peer's plain wheel wants `Debug` entries.
struct PeerJob(#[expect(dead_code, reason = "held to be dropped, never run")] Job);

impl std::fmt::Debug for PeerJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PeerJob")
    }
}

fn case_peer_wheel_insert(_: Input) {
    let mut draws = Draws::new(0x243F_6A88_85A3_08D3);
    let mut wheel = QuadWheelWithOverflow::<PeerJob>::default();
    for t in ticks(pending(), &mut draws) {
        wheel
            .insert_with_delay(PeerJob(empty_job()), Duration::from_millis(t))
            .expect("ahead");
    }
    counted_peer_wheel_insert(&mut wheel, &ticks(CALLS, &mut draws));
}

#[inline(never)]
fn counted_peer_wheel_insert(wheel: &mut QuadWheelWithOverflow<PeerJob>, ticks: &[u64]) {
    for &t in ticks {
        wheel
            .insert_with_delay(PeerJob(empty_job()), Duration::from_millis(t))
            .expect("ahead");
    }
}

/// The bare heap's entry, as `wheel_schedule`'s: deadline and job.
struct HeapEntry(
    std::cmp::Reverse<Instant>,
    #[expect(dead_code, reason = "held to be dropped, never run")] Job,
);

impl PartialEq for HeapEntry {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl Eq for HeapEntry {}
impl PartialOrd for HeapEntry {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for HeapEntry {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.cmp(&other.0)
    }
}

fn case_heap_push(_: Input) {
    let mut draws = Draws::new(0x243F_6A88_85A3_08D3);
    let base = Instant::now();
    let mut heap = BinaryHeap::new();
    for t in ticks(pending(), &mut draws) {
        heap.push(HeapEntry(
            std::cmp::Reverse(base + Duration::from_millis(t)),
            empty_job(),
        ));
    }
    counted_heap_push(&mut heap, base, &ticks(CALLS, &mut draws));
}

#[inline(never)]
fn counted_heap_push(heap: &mut BinaryHeap<HeapEntry>, base: Instant, ticks: &[u64]) {
    for &t in ticks {
        heap.push(HeapEntry(
            std::cmp::Reverse(base + Duration::from_millis(t)),
            empty_job(),
        ));
    }
}
