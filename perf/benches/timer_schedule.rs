//! `timer_schedule`: one `schedule` on stage 5's finished `Timer`, beside
//! its peer and its floor, in interleaved rounds (see `perf::rounds`), at
//! about 10^3, 10^5 and 10^6 pending (see `perf::workload` for the fill,
//! the room and the inputs).
//!
//! What each side does per timed call:
//!
//! - **`Timer (stage 5)`**: `Timer::schedule(delay, task)`: reads the
//!   clock, boxes the closure, locks the timer's state, takes a table
//!   slot, pushes a 32-byte entry (deadline, sequence, slot) onto its
//!   `BinaryHeap`, notifies its thread only if the entry is the new head
//!   (never, here), and returns a handle, which the bench keeps.
//! - **`scheduled-thread-pool`**: `execute_after(delay, task)` on a
//!   one-worker pool: reads the clock, allocates the shared cancel flag,
//!   boxes the closure, locks, pushes its job onto its `BinaryHeap`,
//!   notifies only for a new head; returns a handle, kept.
//! - **the floor**: what any timer of this shape must do, and no more: a
//!   clock read, the closure's box, an uncontended `parking_lot` lock and
//!   a heap push of a 32-byte entry (deadline and box); no handle.
//!
//! Each side gets a fresh structure filled to `n` and then `k = (n - 1) /
//! 8` timed calls, so every timed call finds the same count pending on
//! every side and no heap grows while timed. Two inputs: the best case
//! (every task due later than all others, a closure that captures
//! nothing) and a random one (deadlines over an hour, a closure that
//! captures a `u64`, so its box allocates on every side).
//!
//! ```text
//! cargo bench -p perf --bench timer_schedule
//! ```

use interrupt_cancel::timer::Timer;
use perf::peer::Peer;
use perf::report::Report;
use perf::rounds::Contest;
use perf::sides::{self, HEAP_FLOOR, HeapFloor};
use perf::workload::{self, Call, Input, Plan};

/// The names the report gives ours and the peer.
const TIMER: &str = "Timer (stage 5)";
const PEER: &str = "scheduled-thread-pool";

fn main() {
    perf::require_shipped_build();
    workload::keep_freed_memory();
    let mut report = Report::new("timer_schedule");
    for n in workload::sizes() {
        let plan = Plan::at(n, workload::min_ops());
        for input in Input::BOTH {
            let group = format!("{}, {} pending", input.label(), workload::size_label(n));
            let mut contest = Contest::new(group);
            contest.subject(TIMER, || {
                workload::schedule_round(
                    plan,
                    input,
                    || Timer::new("ts-timer").expect("a timer"),
                    sides::timer_schedule,
                )
            });
            contest.subject(PEER, || {
                workload::schedule_round(plan, input, Peer::new, |p: &Peer, c: Call| {
                    p.schedule(c.delay, c.capture)
                })
            });
            contest.subject(HEAP_FLOOR, || {
                workload::schedule_round(plan, input, HeapFloor::default, HeapFloor::schedule)
            });
            contest.ratio(TIMER, HEAP_FLOOR);
            contest.ratio(TIMER, PEER);
            contest.run(&mut report);
        }
    }
    report.write();
}
