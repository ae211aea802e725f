//! A small executor for stage 8's futures: a run queue and a few worker
//! threads, as the battery and the stress need one.
//!
//! Stage 8's timer asks nothing of an executor but a `Waker` to call. This
//! one is the textbook shape: each spawned future is a task behind a lock;
//! its waker puts the task on the run queue (once, however often it is
//! woken before a worker takes it); a worker takes it and polls it, and a
//! future that is ready is dropped. Every worker thread is joined when the
//! executor is dropped, after the queue has run dry.
//!
//! A future that is never woken stays pending for ever, and is dropped
//! with the last waker that points to it: that is how a lost wake-up shows
//! (the stress counts it lost; the battery's task never runs).

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::task::{Context, Wake, Waker};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};

/// A spawned future.
type Boxed = Pin<Box<dyn Future<Output = ()> + Send>>;

/// Runs futures on its worker threads. Dropping it lets the workers run
/// what is queued, then joins them.
pub struct Executor {
    shared: Arc<Shared>,
    workers: Vec<JoinHandle<()>>,
}

/// What the workers and every task's waker share.
struct Shared {
    queue: Mutex<Queue>,
    /// A task was queued, or the executor is closing.
    ready: Condvar,
    /// The queue ran dry with no worker polling.
    idle: Condvar,
}

/// The run queue, under `Shared::queue`.
#[derive(Default)]
struct Queue {
    tasks: VecDeque<Arc<Task>>,
    /// Workers polling a task right now.
    busy: usize,
    /// Set by the executor's drop: the workers end once the queue is dry.
    closed: bool,
}

/// One spawned future, and whether it sits on the run queue.
struct Task {
    future: Mutex<Option<Boxed>>,
    queued: AtomicBool,
    shared: Arc<Shared>,
}

impl Wake for Task {
    fn wake(self: Arc<Self>) {
        Task::queue(self);
    }

    fn wake_by_ref(self: &Arc<Self>) {
        Task::queue(Arc::clone(self));
    }
}

impl Task {
    /// Puts the task on the run queue, unless it is there already.
    fn queue(task: Arc<Task>) {
        // ORDERING: SeqCst, paired with the worker's store of false before
        // it polls: a wake during the poll queues the task again.
        if task.queued.swap(true, SeqCst) {
            return;
        }
        let shared = Arc::clone(&task.shared);
        shared.queue.lock().tasks.push_back(task);
        shared.ready.notify_one();
    }
}

impl Executor {
    /// An executor of `workers` threads, named `<prefix>-0`, `<prefix>-1`,
    /// ... (a prefix from `kit::threads::unique_name` keeps them apart
    /// from every other test's threads).
    ///
    /// # Panics
    /// If a thread cannot be started.
    pub fn new(prefix: &str, workers: usize) -> Executor {
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue::default()),
            ready: Condvar::new(),
            idle: Condvar::new(),
        });
        let workers = (0..workers)
            .map(|i| {
                let shared = Arc::clone(&shared);
                thread::Builder::new()
                    .name(format!("{prefix}-{i}"))
                    .spawn(move || work(&shared))
                    .expect("start an executor's worker")
            })
            .collect();
        Executor { shared, workers }
    }

    /// Queues `future` to be polled on a worker.
    pub fn spawn(&self, future: impl Future<Output = ()> + Send + 'static) {
        Task::queue(Arc::new(Task {
            future: Mutex::new(Some(Box::pin(future))),
            queued: AtomicBool::new(false),
            shared: Arc::clone(&self.shared),
        }));
    }

    /// Waits at most `within` until no task is queued and no worker is
    /// polling one; whether that came. Tasks still pending then wait for
    /// a wake that has not come.
    pub fn wait_idle(&self, within: Duration) -> bool {
        let deadline = Instant::now() + within;
        let mut queue = self.shared.queue.lock();
        while !queue.tasks.is_empty() || queue.busy > 0 {
            if self
                .shared
                .idle
                .wait_until(&mut queue, deadline)
                .timed_out()
            {
                return false;
            }
        }
        true
    }
}

/// A worker's loop: take a task, poll it, drop it once it is ready.
fn work(shared: &Shared) {
    loop {
        let task = {
            let mut queue = shared.queue.lock();
            loop {
                if let Some(task) = queue.tasks.pop_front() {
                    queue.busy += 1;
                    break task;
                }
                if queue.closed {
                    return;
                }
                shared.ready.wait(&mut queue);
            }
        };
        // ORDERING: see `Task::queue`.
        task.queued.store(false, SeqCst);
        let waker = Waker::from(Arc::clone(&task));
        let mut slot = task.future.lock();
        if let Some(future) = slot.as_mut()
            && future
                .as_mut()
                .poll(&mut Context::from_waker(&waker))
                .is_ready()
        {
            *slot = None;
        }
        drop(slot);
        let mut queue = shared.queue.lock();
        queue.busy -= 1;
        if queue.busy == 0 && queue.tasks.is_empty() {
            shared.idle.notify_all();
        }
    }
}

impl Drop for Executor {
    fn drop(&mut self) {
        self.shared.queue.lock().closed = true;
        self.shared.ready.notify_all();
        for worker in self.workers.drain(..) {
            if let Err(panic) = worker.join()
                && !thread::panicking()
            {
                std::panic::resume_unwind(panic);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::task::Poll;

    /// Pending on its first poll, after waking itself from another thread.
    struct WakesItselfLater(bool);

    impl Future for WakesItselfLater {
        type Output = ();
        fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
            if self.0 {
                return Poll::Ready(());
            }
            self.0 = true;
            let waker = cx.waker().clone();
            thread::spawn(move || waker.wake()).join().expect("waker");
            Poll::Pending
        }
    }

    #[test]
    fn runs_what_is_spawned_and_what_is_woken() {
        let done = Arc::new(AtomicUsize::new(0));
        let executor = Executor::new(&kit::threads::unique_name("ex-t"), 2);
        for _ in 0..100 {
            let done = Arc::clone(&done);
            executor.spawn(async move {
                WakesItselfLater(false).await;
                done.fetch_add(1, SeqCst);
            });
        }
        assert!(executor.wait_idle(Duration::from_secs(5)));
        assert_eq!(done.load(SeqCst), 100);
    }

    #[test]
    fn a_task_never_woken_stays_pending() {
        let done = Arc::new(AtomicBool::new(false));
        let executor = Executor::new(&kit::threads::unique_name("ex-p"), 1);
        let flag = Arc::clone(&done);
        executor.spawn(async move {
            std::future::pending::<()>().await;
            flag.store(true, SeqCst);
        });
        assert!(executor.wait_idle(Duration::from_secs(5)));
        drop(executor);
        assert!(!done.load(SeqCst));
    }
}
