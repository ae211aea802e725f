//! Another bug, T14 `cancelled_tasks_retained`'s kind: a cancelled task
//! that keeps what its job captured.
//!
//! The stage's future, with a second handle on its job kept beside it, as
//! a task that means to run its job again would keep one. A cancel drops
//! the future's own copy, as the stage's does; the second handle keeps the
//! job alive, and with it whatever the job captured, for as long as the
//! task itself lives. In the scheduled pool that is T14: cancelled tasks,
//! and all they hold, kept until their deadline comes.

use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use threadpool_executor::future::{FutureError, FutureTask};

use super::{Job, TaskOf, Version};

/// The version.
pub(super) enum KeepsJob {}

impl Version for KeepsJob {
    const WINDOW: &'static str = "threadpool-executor::future: claimed the run, job not started";
    type Of<V: Clone + Send + 'static> = Task<V>;
}

/// Its task.
pub(super) struct Task<V> {
    future: FutureTask<V>,
    /// BUG (T14): a second handle on the job, kept as long as the task. A
    /// cancel that drops the future's copy frees nothing.
    _job: Arc<Mutex<Job<V>>>,
}

impl<V: Clone + Send + 'static> TaskOf<V> for Task<V> {
    fn new(job: Job<V>) -> Self {
        let job = Arc::new(Mutex::new(job));
        let future = FutureTask::new({
            let job = Arc::clone(&job);
            move || (*job.lock())()
        });
        Task { future, _job: job }
    }

    fn run(&self) {
        self.future.run();
    }

    fn cancel(&self) -> bool {
        self.future.cancel(false)
    }

    fn is_done(&self) -> bool {
        self.future.is_done()
    }

    fn get_timeout(&self, timeout: Duration) -> Result<V, FutureError> {
        self.future.get_timeout(timeout)
    }
}
