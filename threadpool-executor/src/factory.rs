//! Where workers' threads come from (T9): a [`ThreadFactory`], and the
//! default one, [`NamedThreads`], which names them as Java's
//! `Executors.defaultThreadFactory()` does: `pool-N-thread-M`, N counting
//! pools in the process and M threads in the pool.
//!
//! A factory can fail (`std::thread::Builder::spawn` returns an error when
//! the system has no thread to give), and the pool must survive that: the
//! worker it wanted is rolled back and the task it carried goes to the
//! queue or back to the caller, never away (T9).

use std::io;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use crate::sync::thread;

/// A worker thread, as the factory returns it: the pool joins it.
pub type JoinHandle = thread::JoinHandle<()>;

/// What a worker thread runs: the factory must run it on the new thread.
pub type Body = Box<dyn FnOnce() + Send + 'static>;

/// Makes the pool's threads: Java's `ThreadFactory`. Name them, size their
/// stacks, or refuse.
///
/// A closure `Fn(Body) -> io::Result<JoinHandle>` is one:
///
/// ```
/// use std::io;
/// use threadpool_executor::factory::Body;
/// use threadpool_executor::pool::ThreadPool;
///
/// let pool = ThreadPool::builder()
///     .thread_factory(|body: Body| {
///         std::thread::Builder::new().name("doc-factory".into()).spawn(body)
///     })
///     .build()?;
/// let (tx, rx) = std::sync::mpsc::channel();
/// pool.execute(move || tx.send(std::thread::current().name().map(str::to_owned)).unwrap())
///     .unwrap();
/// assert_eq!(rx.recv().unwrap().as_deref(), Some("doc-factory"));
/// # Ok::<(), threadpool_executor::error::ConfigError>(())
/// ```
pub trait ThreadFactory: Send + Sync + 'static {
    /// Starts a thread that runs `body`.
    ///
    /// # Errors
    /// If no thread can be started. The pool then goes on without it.
    fn new_thread(&self, body: Body) -> io::Result<JoinHandle>;
}

impl<F> ThreadFactory for F
where
    F: Fn(Body) -> io::Result<JoinHandle> + Send + Sync + 'static,
{
    fn new_thread(&self, body: Body) -> io::Result<JoinHandle> {
        self(body)
    }
}

/// The default factory: threads named `<prefix><M>`, M = 1, 2, 3, ... for
/// this factory. [`NamedThreads::new`] uses the prefix `pool-N-thread-`.
///
/// ```
/// use threadpool_executor::factory::{NamedThreads, ThreadFactory};
///
/// let factory = NamedThreads::with_prefix("doc-");
/// let thread = factory.new_thread(Box::new(|| {
///     assert_eq!(std::thread::current().name(), Some("doc-1"));
/// }))?;
/// thread.join().unwrap();
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct NamedThreads {
    prefix: String,
    made: AtomicUsize,
}

impl Default for NamedThreads {
    fn default() -> Self {
        NamedThreads::new()
    }
}

impl NamedThreads {
    /// Names threads `pool-N-thread-M`, with N one more than the last
    /// `NamedThreads::new` in this process.
    pub fn new() -> NamedThreads {
        static POOLS: AtomicUsize = AtomicUsize::new(1);
        // ORDERING: only the number's uniqueness matters; the RMW gives it.
        let pool = POOLS.fetch_add(1, Relaxed);
        NamedThreads::with_prefix(format!("pool-{pool}-thread-"))
    }

    /// Names threads `<prefix>1`, `<prefix>2`, ... Linux keeps 15 bytes of
    /// a name, so a short prefix keeps them apart.
    pub fn with_prefix(prefix: impl Into<String>) -> NamedThreads {
        NamedThreads {
            prefix: prefix.into(),
            made: AtomicUsize::new(0),
        }
    }

    /// The prefix of every name.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }
}

impl ThreadFactory for NamedThreads {
    fn new_thread(&self, body: Body) -> io::Result<JoinHandle> {
        // ORDERING: as above, a unique number is all that is asked.
        let number = self.made.fetch_add(1, Relaxed) + 1;
        let name = format!("{}{number}", self.prefix);
        if name.contains('\0') {
            // std would panic on it; a factory answers with an error.
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("thread name {name:?} contains a NUL byte"),
            ));
        }
        thread::Builder::new().name(name).spawn(body)
    }
}
