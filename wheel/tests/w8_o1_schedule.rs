//! W8 `o1_schedule` (fact): scheduling into the levels costs the same at
//! 10^3, 10^5 and 10^6 pending timers, while a heap's cost grows as log n.
//!
//! Counted, not timed: a timing depends on the machine, its caches and
//! its load; a count depends only on the algorithm. The levels count their
//! own work in steps (a slot written, emptied or cascaded; a timer moved);
//! the heap's keys count every comparison `std::collections::BinaryHeap`
//! makes.
//!
//! The heap's numbers need reading with care, and the test prints them
//! all. A push sifts the new key up only as far as it is earlier than its
//! parents: a random deadline stops after a step or two on average, at any
//! size. The log n is in the worst push (a deadline earlier than every
//! pending one climbs to the root) and in every pop (the last leaf sinks
//! from the root to the bottom): each timer a heap holds is popped once,
//! so each pays log n there. The levels pay one step to insert whatever
//! the deadline, and at most two steps a level, six levels at most, over
//! a timer's whole life.
#![cfg(not(loom))]

use std::cell::Cell;
use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use wheel::levels::Levels;

thread_local! {
    /// Comparisons made by this thread's heap (tests run on threads of
    /// their own, so each counts only its own).
    static COMPARISONS: Cell<u64> = const { Cell::new(0) };
}

/// A deadline that counts how often it is compared.
#[derive(PartialEq, Eq)]
struct Deadline(u64);

impl Ord for Deadline {
    fn cmp(&self, other: &Self) -> Ordering {
        COMPARISONS.with(|n| n.set(n.get() + 1));
        self.0.cmp(&other.0)
    }
}

impl PartialOrd for Deadline {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

fn comparisons() -> u64 {
    COMPARISONS.with(Cell::get)
}

/// A fixed pseudo-random sequence (xorshift64): the same deadlines on
/// every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, bound: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % bound
    }
}

/// Operations measured at each size, after filling to it.
const MEASURED: u64 = 1_000;
/// Random deadlines fall after this tick, so that the ticks before it are
/// free for the heap's earliest pushes.
const FIRST: u64 = MEASURED + 1;
/// Random deadlines spread over 2^24 ticks (4.7 hours of 1 ms ticks):
/// timers in levels 0 to 4.
const SPAN: u64 = 1 << 24;

/// The fill's deadlines, filed about in the order they fall due (by
/// blocks of 4,096 ticks, in their random order within a block). What the
/// levels count does not depend on the order of filing: where a timer
/// sits, and when it moves, depends on its deadline and the time only. But
/// the run to the end of the span reads each timer's slab entry as it fires
/// or moves, and filed at random those reads go at random through a slab of
/// 40 MB: half a second of cache misses, more on a busy machine. Filed
/// like this, they go through it about in order. (The counts printed are
/// the same either way, to the last digit.)
fn nearly_in_order(deadlines: impl Iterator<Item = u64>) -> impl Iterator<Item = u64> {
    let mut blocks = vec![Vec::new(); (SPAN >> 12) as usize];
    for deadline in deadlines {
        blocks[((deadline - FIRST) >> 12) as usize].push(deadline);
    }
    blocks.into_iter().flatten()
}

struct Counts {
    pending: u64,
    levels_insert: f64,
    levels_life: f64,
    heap_random_push: f64,
    heap_earliest_push: f64,
    heap_pop: f64,
}

fn measure(pending: u64) -> Counts {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D ^ pending);

    // The levels: fill to `pending`, then count MEASURED more inserts.
    let mut levels = Levels::new();
    for deadline in nearly_in_order((0..pending).map(|_| FIRST + rng.below(SPAN))) {
        levels.insert(deadline, ());
    }
    let before = levels.steps();
    for _ in 0..MEASURED {
        levels.insert(FIRST + rng.below(SPAN), ());
    }
    let levels_insert = (levels.steps() - before) as f64 / MEASURED as f64;
    // Then every timer's whole life: run the levels to the end of the span,
    // as a ticker would, firing every one of them.
    let mut fired = Vec::new();
    levels.advance_to(FIRST + SPAN, &mut fired);
    assert_eq!(fired.len() as u64, pending + MEASURED);
    let levels_life = levels.steps() as f64 / (pending + MEASURED) as f64;

    // The heap (a min-heap of deadlines, as stage 6's delayed queue is).
    let mut heap = BinaryHeap::with_capacity((pending + 2 * MEASURED) as usize);
    for _ in 0..pending {
        heap.push(Reverse(Deadline(FIRST + rng.below(SPAN))));
    }
    let per_op = |from: u64| (comparisons() - from) as f64 / MEASURED as f64;
    let from = comparisons();
    for _ in 0..MEASURED {
        heap.push(Reverse(Deadline(FIRST + rng.below(SPAN))));
    }
    let heap_random_push = per_op(from);
    // Deadlines each earlier than every one pending (1000, 999, ..., 1):
    // each climbs to the root. (An equal key would stop below its twin.)
    let from = comparisons();
    for earliest in (1..=MEASURED).rev() {
        heap.push(Reverse(Deadline(earliest)));
    }
    let heap_earliest_push = per_op(from);
    let from = comparisons();
    for _ in 0..MEASURED {
        heap.pop();
    }
    let heap_pop = per_op(from);

    Counts {
        pending,
        levels_insert,
        levels_life,
        heap_random_push,
        heap_earliest_push,
        heap_pop,
    }
}

#[test]
fn w8_o1_schedule() {
    let sizes = [1_000, 100_000, 1_000_000];
    let counts: Vec<Counts> = sizes.iter().map(|&n| measure(n)).collect();
    let row = |name: &str, f: fn(&Counts) -> f64| {
        let cells: Vec<String> = counts
            .iter()
            .map(|c| format!("{:>6.2} at 10^{}", f(c), c.pending.ilog10()))
            .collect();
        println!("{name:<38}{}", cells.join(", "));
    };
    row("levels: steps per insert", |c| c.levels_insert);
    row("levels: steps per timer, whole life", |c| c.levels_life);
    row("heap: comparisons per push (random)", |c| {
        c.heap_random_push
    });
    row("heap: comparisons per push (earliest)", |c| {
        c.heap_earliest_push
    });
    row("heap: comparisons per pop", |c| c.heap_pop);

    let (small, large) = (&counts[0], &counts[counts.len() - 1]);
    // The fact: the levels' insert is flat, exactly.
    for c in &counts {
        assert_eq!(
            c.levels_insert, small.levels_insert,
            "W8 o1_schedule: {} steps per insert at {} pending, {} at {}",
            c.levels_insert, c.pending, small.levels_insert, small.pending
        );
        // A whole life: at most a cascade per level (a slot and a move).
        assert!(
            c.levels_life <= 1.0 + 2.0 * wheel::levels::LEVELS as f64,
            "W8 o1_schedule: {} steps per timer at {} pending",
            c.levels_life,
            c.pending
        );
    }
    // The heap's grows with log n: from 10^3 to 10^6 the heap is log2 of
    // 1000, about 10 levels deeper, for the earliest push to climb and
    // the pop to sink through.
    assert!(
        large.heap_earliest_push >= small.heap_earliest_push + 8.0,
        "W8 o1_schedule: heap push of the earliest deadline {:.1} at 10^3, {:.1} at 10^6",
        small.heap_earliest_push,
        large.heap_earliest_push
    );
    assert!(
        large.heap_pop >= small.heap_pop + 6.0,
        "W8 o1_schedule: heap pop {:.1} at 10^3, {:.1} at 10^6",
        small.heap_pop,
        large.heap_pop
    );
}
