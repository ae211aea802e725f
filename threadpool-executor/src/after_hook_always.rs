//! The hooks around a task with one catch for both the before hook and the
//! task: the after hook hears of a task that never ran.
//!
//! Java's worker calls `beforeExecute`, then the task, then `afterExecute`
//! with whatever the task threw; if `beforeExecute` throws, the task is
//! skipped and so is `afterExecute` (the worker ends with the exception).
//! Catching the before hook's panic and the task's in one place loses
//! that difference: the after hook is called with the before hook's panic
//! as if the task had run and panicked, and a hook that counts the tasks
//! it saw end counts tasks that never started.

use std::panic::{self, AssertUnwindSafe};

use crate::builder::{Execution, panic_message};
use crate::pool::Core;
use crate::task::Runnable;

// ANCHOR: run_task
/// One task between its hooks, both under one `catch_unwind`.
pub(crate) fn run_task<T: Runnable>(core: &Core<T>, run: &Execution<'_>, task: T) {
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        if let Some(before) = &core.hooks.before_execute {
            before(run, &task);
        }
        task.run();
    }));
    if let Some(after) = &core.hooks.after_execute {
        after(
            run,
            outcome.as_ref().err().map(|panic| panic_message(&**panic)),
        );
    }
    if let Err(panic) = outcome {
        panic::resume_unwind(panic);
    }
}
// ANCHOR_END: run_task
