//! Model it: T7 `execute_shutdown_race`, from *A pool of workers*.
//!
//! Write a loom model that finds a task the pool took and never ran: the
//! threads, what they do, and the check. `cargo xtask model-check
//! t7_model_execute_shutdown_race` runs your `model` twice, each time in a
//! process of its own:
//!
//! - on the pool whose `execute` queues a task and does not look at the
//!   pool again (no_recheck.rs): loom must find an execution that fails
//!   your assertion;
//! - on the pool that looks again after queuing and takes the task back if
//!   no worker is left to run it: every execution must pass, with up to 3
//!   preemptions.
//!
//! Your model cannot tell which one it got: both are `Pool`, with the same
//! methods. What you have (`exercise_models::t7`):
//!
//! - `Pool::new()`: a pool of core size 1 and maximum 1, with no worker
//!   yet; `pool.prestart_core_thread()` starts its worker now;
//! - `pool.execute(task)`: `Ok` means the pool took the task and will run
//!   it; `Err` hands it back (the pool is shut down). Below core size it
//!   starts a worker for the task; at core size it queues it;
//! - `pool.shutdown()`: no new task from now on; queued tasks still run,
//!   then the workers leave. It does not wait;
//! - `pool.await_termination(timeout)`: waits until every task is over and
//!   every worker gone. Under loom the clock is frozen: it returns only once
//!   the pool has terminated, whatever the timeout (zero only looks);
//! - dropping the last `Pool` joins every worker thread: whatever will run
//!   has run by then. Share the pool between threads with `loom::sync::Arc`.
//!
//! Keep `#[test] fn model()` and `loom::model(..)`: the grader runs that
//! test, and sets loom's preemption bound itself.

// What the model will want; the skeleton uses none of it yet.
#[allow(unused_imports)]
use exercise_models::t7::Pool;
#[allow(unused_imports)]
use loom::sync::Arc;
#[allow(unused_imports)]
use loom::sync::atomic::{AtomicBool, Ordering::SeqCst};
#[allow(unused_imports)]
use std::time::Duration;

#[test]
fn model() {
    loom::model(|| {
        let pool = Pool::new();
        // TODO(T7): a client that executes a task while the pool shuts down,
        // and a check that a task the pool took has run.
        drop(pool);
    });
}
