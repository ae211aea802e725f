//! Stage 7: hashed timing wheels.
//!
//! A heap timer pays O(log n) to schedule (stage 5, stage 6). A timing
//! wheel pays O(1): time is cut into ticks, the ticks into a ring of
//! slots, and a task goes into the slot its deadline falls in. A ticker
//! walks the ring one slot per tick and hands each slot's tasks to a pool.
//! Read the files in this order, as the book does:
//!
//! 1. [`job`]: what a wheel runs, and [`Executor`], where it sends a task
//!    that comes due (stage 6's pool, or the ticker itself).
//! 2. [`error`]: what a wheel refuses with; a refused task always comes
//!    back to its caller.
//! 3. [`lockfree`]: the CAS hashed wheel timer post's wheel, lock-free
//!    and O(1) to add to (W1), with its races: the cursor moves under an
//!    adder (W2), long delays wrap round and short ones are truncated
//!    (W3), a full slot refuses (W4), a task published with Relaxed
//!    ordering (W5), and a ticker that spins on an adder (W9). Its slots
//!    are a [`ring`] of counts and atomic cells, where W5 and W9 live; its
//!    tasks live in `table.rs`; `sync.rs` lets loom check the ring.
//! 4. [`returns_false`]: the post's `add` that answers `false` and drops
//!    the task (W4).
//! 5. [`hashed_core`]: the fixed hashed wheel with no thread and no clock:
//!    deadlines rounded up to ticks (W6: late by at most a tick, never
//!    early), remaining rounds for long delays, O(1) cancel by key.
//! 6. [`hashed`]: the core run by a ticker thread that alone owns it; new
//!    timers and cancels reach it through MPSC queues (W7).
//! 7. [`levels`]: the hierarchical wheel with no thread and no clock: six
//!    levels of 64 slots (tokio's, Kafka's and Linux's layout), the level
//!    picked from the highest bit where deadline and now differ, the next
//!    occupied slot found by `trailing_zeros`, far timers cascading down
//!    once per level (W7, W8: one step per insert at any size).
//! 8. [`hierarchical`]: the levels run by a ticker that sleeps until the
//!    next occupied slot: an idle wheel does not wake at all (W7).
//! 9. [`executor`]: a finished wheel and its pool as one executor, stage
//!    6's trait, so that code written for the Timer and the pools runs on
//!    a wheel too.

pub mod job;

pub mod error;

pub mod lockfree;
pub mod returns_false;
pub mod ring;
mod sync;
mod table;

pub mod hierarchical;
pub mod levels;

pub mod executor;
pub mod hashed;
pub mod hashed_core;

pub use error::{ConfigError, Reason, Refused};
pub use job::{Executor, Job, OnTicker};
