//! Stage 6: ThreadPoolExecutor, rebuilt.
//!
//! A timer with one thread makes every task wait for the one before it
//! (stage 5's I4). A pool runs tasks on several threads, and
//! java.util.concurrent's ThreadPoolExecutor is the pool most others copy:
//! a core size, a maximum size, a work queue, a keep-alive, a thread
//! factory, a rejection policy, and one atomic word that holds the run
//! state and the worker count. Read the files in this order, as the book
//! does:
//!
//! 1. [`task`]: what a pool runs.
//! 2. [`ctl`]: the run state and the worker count in one atomic word,
//!    changed by CAS, and the states RUNNING < SHUTDOWN < STOP < TIDYING <
//!    TERMINATED (T4).
//! 3. [`queue`]: the work queue the caller chooses: bounded, unbounded, or
//!    a hand-off that holds nothing. Its capacity decides how the pool
//!    grows (T2).
//! 4. [`pool`]: `execute`'s three steps (T1), the look after queuing
//!    (T7), `shutdown` and `shutdown_now` (T8), the counters and setters,
//!    `remove` and `purge`, and the drop rule.
//! 5. [`worker`]: a worker's loop: its first task, then `get_task`, which
//!    waits at most the keep-alive when the worker may time out (T5); a
//!    worker that dies of a panic is replaced (T6).
//! 6. `no_recheck.rs`: `execute` without the look after queuing: a task
//!    queued while `shutdown` finishes is stranded (T7).
//! 7. `no_replacement.rs`: a worker's exit without the replacement: N
//!    panics strand every queued task (T6). `after_hook_always.rs`: the
//!    hooks around a task caught as one, so the after hook hears of a
//!    task that never ran.
//! 8. [`reject`]: Abort, CallerRuns, Discard, DiscardOldest, and your own
//!    (T3); no rejected task is ever lost without a trace.
//! 9. [`factory`]: where threads come from, `pool-N-thread-M`, and a
//!    factory that fails (T9).
//! 10. [`presets`]: fixed, single and cached pools (T9).
//! 11. [`future`]: a task whose result someone waits for, its seven
//!     states changed by CAS, and a claim that runs it at most once (T11);
//!     [`submit`]: the pool's `submit`, `invoke_all` and `invoke_any` on
//!     top of it.
//! 12. [`deadline`]: a point on the pool's clock, compared and never
//!     subtracted, saturating instead of overflowing (T15's fix).
//! 13. [`delayed_queue`]: the scheduled pool's queue: a heap whose items
//!     know their index (O(log n) removal, T14's fix) and whose takers
//!     wait leader-follower (T10).
//! 14. [`herd`]: the same queue where every idle taker waits timed for the
//!     head: the thundering herd (T10).
//! 15. [`successor`]: leader-follower one step further: a second taker
//!     waits timed for the next deadline and leads without a wake-up.
//! 16. [`scheduled`]: the scheduled pool on the same core: `schedule`,
//!     fixed rate and fixed delay (T12), the shutdown policies (T13),
//!     remove-on-cancel (T14's fix).
//! 17. `wrapping_delay.rs`: a periodic task's next deadline that wraps
//!     around: T15 `fixed_delay_overflow`.
//! 18. `prestart_core_only.rs` and `zero_keep_alive.rs`: zero core
//!     threads, a delayed task that never runs, then a worker that spins
//!     (T16).
//! 19. [`executor`]: one trait, the common part of Java's
//!     `ExecutorService`, answered by every finished version: stage 5's
//!     timer, the pool and the scheduled pool.
//!
//! The buggy versions (6, 7, 17, 18) are chosen with `Builder::variant`
//! and `ScheduledBuilder::variant`; `variant.rs` lists them and is the one
//! place the fixed code hands over to one. They are public for the tests
//! and the exercises, and hidden from these docs.
//!
//! [`builder`] checks a configuration; [`error`] is what the pool refuses
//! with; `sync.rs` lets loom check the state word, the pool and the
//! queues (tests/loom_*.rs). [`interrupt`] is stage 5's cooperative interrupt, re-exported:
//! a task calls [`interrupt::check`] to see whether `shutdown_now` asked
//! it to stop.

pub mod task;

pub mod ctl;
pub mod queue;

pub mod pool;
pub mod worker;

#[doc(hidden)]
pub mod after_hook_always;
#[doc(hidden)]
pub mod no_recheck;
#[doc(hidden)]
pub mod no_replacement;

pub mod factory;
pub mod presets;
pub mod reject;

pub mod deadline;
pub mod delayed_queue;
pub mod herd;
pub mod successor;

pub mod future;
pub mod submit;

pub mod scheduled;

#[doc(hidden)]
pub mod prestart_core_only;
#[doc(hidden)]
pub mod wrapping_delay;
#[doc(hidden)]
pub mod zero_keep_alive;

pub mod executor;

pub mod builder;
pub mod error;

pub use interrupt_cancel::interrupt;
pub use pool::ThreadPool;
pub use task::{Runnable, Task, TaskId};

mod sync;
mod variant;
