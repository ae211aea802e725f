//! T16 `zero_core_threads`, the second bug (JDK-8022642): the fix of the
//! first one spins a core while it waits.
//!
//! With zero core threads, the worker that `ensure_prestart` starts is
//! above core size, so it waits for a task at most the keep-alive
//! (worker.rs, `get_task`: a timed `poll`). The JDK's scheduled pool had a
//! keep-alive of **zero**, which made sense while every worker was a core
//! worker and never timed out. Now the one worker polls with a timeout of
//! zero; the head is not due, so the poll returns at once, empty. The
//! worker has "timed out" but may not leave: it is the last worker and a
//! task is queued. So it polls again, at once, and again: one core at
//! 100% until the task is due.
//!
//! The fix (scheduled.rs) is the JDK's: a small keep-alive,
//! [`DEFAULT_KEEP_ALIVE`](crate::scheduled::DEFAULT_KEEP_ALIVE) (10 ms),
//! so the worker sleeps between looks: 100 wake-ups a second, near zero
//! CPU, and the task still runs on time (the worker wakes at once when a
//! new head is queued, and takes a due head within one keep-alive).

use std::time::Duration;

// ANCHOR: zero_keep_alive
/// The keep-alive of the JDK's scheduled pool before JDK-8022642.
pub(crate) const KEEP_ALIVE: Duration = Duration::ZERO;
// ANCHOR_END: zero_keep_alive
