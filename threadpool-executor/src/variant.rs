//! Which version of a pool to build, and the switchboard: every hand-over
//! to a buggy version is here, in `impl Variant` and `impl
//! ScheduledVariant`, and nowhere else.
//!
//! The buggy versions exist for the lessons. Each lives in a file of its
//! own, named for what it does wrong (`no_recheck.rs`), and holds only the
//! function that differs. The fixed code calls the switchboard at the one
//! place a version differs, by a plain call that names no bug (a worker
//! runs its task with `core.variant.run_task(..)`), and the switchboard
//! hands over to the fixed function or to the bug's. So the fixed
//! functions the book shows, and the fix diffs made from them, hold only
//! the fix. Both enums, the switch methods and the buggy files are public
//! for the tests, the examples and the exercises, and hidden from the
//! finished pool's docs.

use std::time::Duration;

use crate::builder::Execution;
use crate::deadline::Deadline;
use crate::error::Reason;
use crate::pool::Core;
use crate::queue::Ticket;
use crate::scheduled::{self, DEFAULT_KEEP_ALIVE, Period, ScheduledTask};
use crate::sync::Arc;
use crate::task::Runnable;
use crate::worker::{self, Worker};
use crate::{
    after_hook_always, no_recheck, no_replacement, prestart_core_only, wrapping_delay,
    zero_keep_alive,
};

/// Which version of the pool to build. The buggy ones exist for the
/// lessons; each lives in a file of its own, next to the fixed code it
/// differs from.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Variant {
    /// The pool as it should be.
    #[default]
    Fixed,
    /// `execute` does not look at the pool again after queuing a task
    /// (no_recheck.rs): a task queued while `shutdown` finishes is
    /// stranded (T7).
    NoRecheck,
    /// A worker that dies of a panic is not replaced (no_replacement.rs):
    /// as many panics as workers strand every queued task (T6).
    NoReplacement,
    /// The before hook and the task are caught as one
    /// (after_hook_always.rs): a before hook's panic reaches the after
    /// hook as if the task had run and panicked.
    AfterHookAlways,
}

/// The pool's switch points, one per place a buggy version differs.
impl Variant {
    /// `execute`'s three steps (T7).
    pub(crate) fn execute<T: Runnable>(
        self,
        core: &Arc<Core<T>>,
        task: T,
    ) -> Result<Option<Ticket>, (T, Reason)> {
        match self {
            Variant::NoRecheck => no_recheck::execute(core, task),
            _ => core.execute(task),
        }
    }

    /// The end of a worker's life: the JDK's `processWorkerExit` (T6).
    pub(crate) fn worker_exited<T: Runnable>(
        self,
        core: &Arc<Core<T>>,
        worker: &Arc<Worker<T>>,
        abruptly: bool,
    ) {
        match self {
            Variant::NoReplacement => no_replacement::process_worker_exit(core, worker, abruptly),
            _ => worker::process_worker_exit(core, worker, abruptly),
        }
    }

    /// One task between its hooks (T17).
    pub(crate) fn run_task<T: Runnable>(self, core: &Core<T>, run: &Execution<'_>, task: T) {
        match self {
            Variant::AfterHookAlways => after_hook_always::run_task(core, run, task),
            _ => worker::run_task(core, run, task),
        }
    }
}

/// Which version of the scheduled pool to build: [`ScheduledVariant::Fixed`]
/// unless a lesson asks for a buggy one. Each lives in a file of its own.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ScheduledVariant {
    /// The scheduled pool as it should be.
    #[default]
    Fixed,
    /// A periodic task's next deadline wraps around instead of saturating
    /// (wrapping_delay.rs): an enormous delay makes it due before
    /// everything, forever (T15, JDK-8051859).
    WrappingDelay,
    /// Queuing a task starts a worker only below core size
    /// (prestart_core_only.rs): with zero core threads, none ever starts
    /// (T16, JDK-7091003).
    PrestartCoreOnly,
    /// The first fix of T16 with its keep-alive of zero
    /// (zero_keep_alive.rs): the one worker spins while it waits
    /// (JDK-8022642).
    ZeroKeepAlive,
}

/// The scheduled pool's switch points.
impl ScheduledVariant {
    /// A worker for a task just queued: Java's `ensurePrestart` (T16).
    pub(crate) fn ensure_prestart(self, core: &Arc<Core<Arc<ScheduledTask>>>) {
        match self {
            ScheduledVariant::PrestartCoreOnly => prestart_core_only::ensure_prestart(core),
            _ => scheduled::ensure_prestart(core),
        }
    }

    /// When a periodic task runs next (T15).
    pub(crate) fn next_deadline(self, period: Period, due: Deadline, ended: Deadline) -> Deadline {
        match self {
            ScheduledVariant::WrappingDelay => wrapping_delay::next_deadline(period, due, ended),
            _ => period.next_deadline(due, ended),
        }
    }

    /// How long a worker above core size waits for a task (T16's second
    /// bug).
    pub(crate) fn keep_alive(self) -> Duration {
        match self {
            ScheduledVariant::ZeroKeepAlive => zero_keep_alive::KEEP_ALIVE,
            _ => DEFAULT_KEEP_ALIVE,
        }
    }
}
