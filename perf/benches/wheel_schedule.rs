//! `wheel_schedule`: what one insert costs a wheel that already holds `n`
//! timers, beside the peer's wheels and a bare heap push, at about 10^3,
//! 10^4, 10^5 and 10^6 pending, in interleaved rounds (see
//! `perf::rounds`). These are the data structures alone, with no thread
//! and no clock: what a wheel's ticker pays to file a timer.
//!
//! What each side does per timed insert (the deadline a tick count drawn
//! uniformly from 1 to 10,000 ticks of 1 ms, the same draws for all; the
//! job a boxed closure, the same for all):
//!
//! - **`HierarchicalWheel's levels (stage 7)`**: `Levels::insert`: picks
//!   the level and slot from the deadline's bits, takes a slab entry for
//!   the job (so that it can cancel by key), appends the key to the
//!   slot's list, sets the slot's bit; returns the key.
//! - **`HashedWheel's core (stage 7)`**: `HashedCore::insert`: the bucket
//!   of 512 and the rounds left, a slab entry, the bucket's list.
//! - **`hierarchical_hash_wheel_timer's quad wheel`**: the crates.io
//!   crate's plain wheel (`wheels::quad_wheel`, four byte wheels of 256
//!   slots): picks the wheel from the deadline's bytes and pushes the
//!   entry onto that slot's `Vec`. It cannot cancel: the like-for-like
//!   insert.
//! - **`hierarchical_hash_wheel_timer's cancellable wheel`**: the same
//!   crate's `wheels::cancellable` wheel, the one its timer thread runs:
//!   the plain wheel plus an `Rc` per entry and a hash map from id to
//!   entry, so that it can cancel (ours cancel by key): the like-for-like
//!   in what it offers.
//! - **`bare heap push`**: a `std::collections::BinaryHeap` push of a
//!   32-byte entry (deadline and job; the `Timer`'s entry is as big),
//!   no lock, no clock: the floor under any heap timer's insert.
//!
//! Every side gets a fresh structure filled with `n` (not timed), then
//! `k = (n - 1) / 8` timed inserts. The heap's `Vec` has room for them
//! all (see `perf::workload`). The wheels keep a list per slot, and
//! those lists *do* grow while timed (an amortised copy per insert), for
//! ours and the peer's alike: neither can be told to reserve per slot.
//! Two inputs: a job that captures nothing (its box allocates nothing)
//! and one that captures a `u64` (its box allocates, on every side).
//!
//! ```text
//! cargo bench -p perf --bench wheel_schedule
//! ```

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::fmt;
use std::hint::black_box;
use std::rc::Rc;
use std::time::{Duration, Instant};

use hierarchical_hash_wheel_timer::wheels::{cancellable, quad_wheel};
use perf::report::Report;
use perf::rounds::{Contest, Sample};
use perf::workload::{self, Draws, Plan};
use wheel::Job;
use wheel::hashed_core::HashedCore;
use wheel::levels::Levels;

/// Deadlines are drawn from 1 to this many ticks.
const SPAN_TICKS: u64 = 10_000;

/// One tick.
const TICK: Duration = Duration::from_millis(1);

/// The hashed wheel's buckets: Netty's default, and `HashedConfig`'s.
const HASHED_SLOTS: usize = 512;

/// The names the report gives the sides.
const LEVELS: &str = "HierarchicalWheel's levels (stage 7)";
const HASHED: &str = "HashedWheel's core (stage 7)";
const QUAD: &str = "hierarchical_hash_wheel_timer's quad wheel";
const CANCELLABLE: &str = "hierarchical_hash_wheel_timer's cancellable wheel";
const HEAP: &str = "bare heap push";

/// The sizes: `2^10 + 1`, `2^13 + 1`, `2^17 + 1`, `2^20 + 1`; the first
/// two in quick mode.
fn sizes() -> Vec<usize> {
    perf::size(
        vec![(1 << 10) + 1, (1 << 13) + 1, (1 << 17) + 1, (1 << 20) + 1],
        vec![(1 << 10) + 1, (1 << 13) + 1],
    )
}

/// One insert's arguments: a tick, and what the job captures.
#[derive(Clone, Copy)]
struct Insert {
    tick: u64,
    capture: Option<u64>,
}

impl Insert {
    fn job(self) -> Job {
        match self.capture {
            None => Box::new(|| ()),
            Some(x) => Box::new(move || {
                black_box(x);
            }),
        }
    }
}

/// One round: `plan.fills` fresh structures from `make`, each filled with
/// `plan.n` inserts (untimed), then `plan.k` timed; the same draws for
/// every side and fill, drawn before the clock starts.
fn round<S>(
    plan: Plan,
    capture: bool,
    make: impl Fn() -> S,
    insert: impl Fn(&mut S, Insert),
) -> Sample {
    let draw = |draws: &mut Draws| {
        let tick = 1 + draws.below(SPAN_TICKS);
        Insert {
            tick,
            capture: capture.then_some(tick),
        }
    };
    let mut total = Duration::ZERO;
    for _ in 0..plan.fills {
        let mut subject = make();
        let mut draws = Draws::new(0x243F_6A88_85A3_08D3);
        for _ in 0..plan.n {
            insert(&mut subject, draw(&mut draws));
        }
        let timed: Vec<Insert> = (0..plan.k).map(|_| draw(&mut draws)).collect();
        let start = Instant::now();
        for &i in &timed {
            insert(black_box(&mut subject), i);
        }
        total += start.elapsed();
        drop(subject);
    }
    Sample {
        elapsed: total,
        ops: plan.ops(),
    }
}

/// The bare heap's entry: when, and the job.
struct HeapEntry {
    deadline: Instant,
    #[expect(dead_code, reason = "held to be dropped, never run")]
    job: Job,
}

const _: () = assert!(size_of::<HeapEntry>() == 32);

impl Ord for HeapEntry {
    fn cmp(&self, other: &Self) -> Ordering {
        // Earliest on top, as a timer's.
        other.deadline.cmp(&self.deadline)
    }
}

impl PartialOrd for HeapEntry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for HeapEntry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for HeapEntry {}

/// The bare heap, with the instant its ticks count from.
struct BareHeap {
    heap: BinaryHeap<HeapEntry>,
    base: Instant,
}

/// The peer's plain wheel wants `Debug` entries; a job is not `Debug`.
struct PeerJob(#[expect(dead_code, reason = "held to be dropped, never run")] Job);

impl fmt::Debug for PeerJob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PeerJob")
    }
}

/// An entry of the peer's cancellable wheel: it cancels by an id the
/// caller picks.
struct PeerTimer {
    id: u64,
    #[expect(dead_code, reason = "held to be dropped, never run")]
    job: Job,
}

impl fmt::Debug for PeerTimer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PeerTimer({})", self.id)
    }
}

impl cancellable::CancellableTimerEntry for PeerTimer {
    type Id = u64;

    fn id(&self) -> &u64 {
        &self.id
    }
}

fn main() {
    perf::require_shipped_build();
    workload::keep_freed_memory();
    let mut report = Report::new("wheel_schedule");
    for n in sizes() {
        let plan = Plan::at(n, workload::min_ops());
        for capture in [false, true] {
            let what = if capture { "job captures" } else { "empty job" };
            let mut contest = Contest::new(format!("{what}, {} pending", workload::size_label(n)));
            contest.subject(LEVELS, || {
                round(plan, capture, Levels::<Job>::new, |levels, i| {
                    black_box(levels.insert(i.tick, i.job()));
                })
            });
            contest.subject(HASHED, || {
                round(
                    plan,
                    capture,
                    || HashedCore::<Job>::new(HASHED_SLOTS).expect("slots"),
                    |core, i| {
                        black_box(core.insert(i.tick, i.job()));
                    },
                )
            });
            contest.subject(QUAD, || {
                round(
                    plan,
                    capture,
                    quad_wheel::QuadWheelWithOverflow::<PeerJob>::default,
                    |wheel, i| {
                        wheel
                            .insert_with_delay(PeerJob(i.job()), TICK * i.tick as u32)
                            .expect("at least a tick ahead");
                    },
                )
            });
            contest.subject(CANCELLABLE, || {
                round(
                    plan,
                    capture,
                    || (cancellable::QuadWheelWithOverflow::<PeerTimer>::new(), 0u64),
                    |(wheel, next_id), i| {
                        *next_id += 1;
                        let entry = PeerTimer {
                            id: *next_id,
                            job: i.job(),
                        };
                        wheel
                            .insert_ref_with_delay(Rc::new(entry), TICK * i.tick as u32)
                            .expect("at least a tick ahead");
                    },
                )
            });
            contest.subject(HEAP, || {
                round(
                    plan,
                    capture,
                    || BareHeap {
                        heap: BinaryHeap::new(),
                        base: Instant::now(),
                    },
                    |h, i| {
                        h.heap.push(HeapEntry {
                            deadline: h.base + TICK * i.tick as u32,
                            job: i.job(),
                        });
                    },
                )
            });
            contest.ratio(LEVELS, QUAD);
            contest.ratio(LEVELS, CANCELLABLE);
            contest.ratio(LEVELS, HEAP);
            contest.run(&mut report);
        }
    }
    report.write();
}
