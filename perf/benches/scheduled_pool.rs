//! `scheduled_pool`: one `schedule` on stage 6's scheduled pool, beside
//! `scheduled-thread-pool` and a floor, in interleaved rounds (see
//! `perf::rounds`), at about 10^3, 10^5 and 10^6 pending (see
//! `perf::workload` for the fill, the room and the inputs).
//!
//! What each side does per timed call:
//!
//! - **`ScheduledThreadPool (stage 6)`**, one worker, remove-on-cancel
//!   (the default): `schedule(delay, job)`: boxes the job into a future,
//!   reads the clock into a T15-safe deadline, allocates the task (one
//!   `Arc` that the queue, the worker and the returned future share),
//!   locks the delayed queue, pushes it onto the indexed heap (each moved
//!   task's index written), wakes a taker only for a new head or a new
//!   second (never, here), makes sure a worker exists, and returns the
//!   future, which the bench keeps.
//! - **`scheduled-thread-pool`**: `execute_after(delay, job)` on a
//!   one-worker pool: reads the clock, allocates the cancel flag its job
//!   and handle share, boxes the closure, locks, pushes its job, notifies
//!   only for a new head; returns a handle, kept.
//! - **the floor**: a clock read, the closure's box, one shared allocation
//!   (an `Arc` holding deadline and box), an uncontended `parking_lot`
//!   lock, a push of the `Arc` onto a `BinaryHeap` ordered through it, and
//!   a clone of the `Arc` handed back and kept: what any pool pays that
//!   hands out a handle sharing the task with its queue.
//!
//! Three ratios per group: ours over the peer, ours over the floor, and
//! the floor over the peer (how close to the peer a pool that does no
//! more than the floor can come).
//!
//! Every side gets a fresh pool filled to `n`, then `k = (n - 1) / 8`
//! timed calls: the same count pending on every side, nothing cancelled
//! anywhere, no heap growing while timed. Two inputs: the best case (every
//! task due later than all others, a closure that captures nothing) and a
//! random one (deadlines over an hour, a closure that captures a `u64`).
//!
//! ```text
//! cargo bench -p perf --bench scheduled_pool
//! ```

use perf::peer::Peer;
use perf::report::Report;
use perf::rounds::Contest;
use perf::sides::{self, ARC_FLOOR, ArcFloor};
use perf::workload::{self, Call, Input, Plan};
use threadpool_executor::scheduled::ScheduledThreadPool;

/// The names the report gives ours and the peer.
const POOL: &str = "ScheduledThreadPool (stage 6)";
const PEER: &str = "scheduled-thread-pool";

fn main() {
    perf::require_shipped_build();
    workload::keep_freed_memory();
    let mut report = Report::new("scheduled_pool");
    for n in workload::sizes() {
        let plan = Plan::at(n, workload::min_ops());
        for input in Input::BOTH {
            let group = format!("{}, {} pending", input.label(), workload::size_label(n));
            let mut contest = Contest::new(group);
            contest.subject(POOL, || {
                workload::schedule_round(
                    plan,
                    input,
                    || ScheduledThreadPool::new(1).expect("a pool"),
                    sides::pool_schedule,
                )
            });
            contest.subject(PEER, || {
                workload::schedule_round(plan, input, Peer::new, |p: &Peer, c: Call| {
                    p.schedule(c.delay, c.capture)
                })
            });
            contest.subject(ARC_FLOOR, || {
                workload::schedule_round(plan, input, ArcFloor::default, ArcFloor::schedule)
            });
            contest.ratio(POOL, PEER);
            contest.ratio(POOL, ARC_FLOOR);
            // The floor against the peer: how far below the peer any
            // pool that shares its task with the handle can go.
            contest.ratio(ARC_FLOOR, PEER);
            contest.run(&mut report);
        }
    }
    report.write();
}
