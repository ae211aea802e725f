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

pub mod job;

pub mod error;

pub use error::{ConfigError, Reason, Refused};
pub use job::{Executor, Job, OnTicker};
