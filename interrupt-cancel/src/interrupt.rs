//! Cooperative interruption (I1): Rust's answer to `Thread.interrupt()`.
//!
//! Java can interrupt a thread: a flag on the thread, and every blocking
//! call (`Object.wait`, `BlockingQueue.take`, `Thread.sleep`) that sees it
//! throws `InterruptedException`. One call wakes a thread blocked on an
//! empty queue (P1) and one waiting for a far deadline (P2). Rust threads
//! have no such flag, so this module builds it:
//!
//! - an [`InterruptHandle`] raises the interrupt (`Thread.interrupt()`);
//! - the thread's [`InterruptToken`] polls it ([`InterruptToken::check`],
//!   the `?`-friendly `isInterrupted()`), clears it
//!   ([`InterruptToken::clear`], `Thread.interrupted()`), sleeps
//!   interruptibly ([`InterruptToken::sleep`]), and lets a blocking
//!   operation register how to wake it ([`InterruptToken::block_on`]);
//! - a blocking operation answers an interrupt with `Err(`[`Interrupted`]`)`,
//!   the analogue of `InterruptedException`;
//! - [`current`] and [`check`] read the token a thread was given with
//!   [`InterruptToken::set_current`], as a task reads
//!   `Thread.currentThread().isInterrupted()`.
//!
//! # The contract
//!
//! - An interrupt raised at any moment is never lost: if the thread is
//!   blocked in an operation that registered with [`InterruptToken::block_on`]
//!   (or in [`InterruptToken::sleep`]), it wakes and that operation returns
//!   `Err(Interrupted)`; if it is not blocked yet, its next check, sleep or
//!   registration fails.
//! - The interrupt is sticky: it stays raised until the thread clears it.
//!   Unlike Java, failing with `Err(Interrupted)` does not clear it, so
//!   every later blocking call fails too until someone decides otherwise.
//!   The thread that owns the token decides (a pool clears it between
//!   tasks, so an interrupt meant for one task cannot reach the next).
//! - It is a request. Nothing stops a thread that never checks.
//!
//! # Why a flag and a registered waker
//!
//! Java's JVM unparks an interrupted thread wherever it is parked. Here the
//! thread tells the token, before it blocks, how to wake it: a blocking
//! operation hands [`InterruptToken::block_on`] its own [`Wake`] (for a
//! queue: lock the queue's mutex and notify its condvar), and then, under
//! its own lock, checks the flag before every wait. [`InterruptHandle::interrupt`]
//! sets the flag first and then calls that waker. Either the waiter's check
//! under its lock comes after the flag was set (it sees it), or the waiter
//! already waits (the waker's notify, which needs that same lock, reaches
//! it). That is java.nio's `blockedOn(Interruptible)`, which makes its
//! channels interruptible. What it costs: one uncontended lock of the token
//! per blocking call to register, one load of the flag per wait, nothing on
//! the side that schedules work.
//!
//! What the others would cost:
//!
//! - **A flag and park/unpark**, what the JVM does: `interrupt` sets the
//!   flag and unparks the thread. But `Thread::unpark` wakes only
//!   `thread::park`, not a thread waiting on a `Condvar` (std's or
//!   parking_lot's), so every blocking operation would have to be rebuilt
//!   on `park`: a queue keeping its own list of parked waiters, which is a
//!   condition variable written again (what `AbstractQueuedSynchronizer`
//!   is in Java).
//! - **A condvar shared with the queue**: the flag lives under the queue's
//!   mutex, and interrupting means "lock the queue, set, notify_all". No
//!   registration at all, and no window (it is stage 4's java.util.Timer
//!   fix, P5). But the interrupt then belongs to the queue, not to the
//!   thread: whoever interrupts must know what the thread is blocked on,
//!   and a task sleeping anywhere else cannot be reached.
//! - **crossbeam's `select!` on a cancel channel**: the take becomes
//!   `select! { recv(tasks), recv(cancel) }`, the timed wait
//!   `cancel.recv_timeout`. No window: a sent message is remembered. But
//!   the queue must then be a channel (FIFO, not ordered by deadline), a
//!   message is consumed by whoever receives it (a second check sees
//!   nothing, so a sticky flag is needed anyway), clearing means draining,
//!   and loom cannot see inside the channel.

use std::cell::RefCell;
use std::fmt;
use std::time::Duration;

use crate::sync::{self, Arc, AtomicBool, Condvar, Mutex, thread_local};
use std::sync::atomic::Ordering::SeqCst;

/// A blocking operation gave up because its thread was interrupted: the
/// analogue of `InterruptedException`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interrupted;

impl fmt::Display for Interrupted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("interrupted")
    }
}

impl std::error::Error for Interrupted {}

/// How to wake a thread blocked in some operation; see
/// [`InterruptToken::block_on`].
///
/// `wake` must take the lock the blocked thread waits with, then notify:
/// that is what makes an interrupt that lands just before the wait reach it.
pub trait Wake: Send + Sync {
    /// Wakes the blocked thread, which then checks its interrupt.
    fn wake(&self);
}

// ANCHOR: inner
struct Inner {
    /// Written under `blocker`'s lock; read without it by `is_interrupted`.
    interrupted: AtomicBool,
    /// How to wake the thread from the operation it is blocked in, if any.
    blocker: Mutex<Option<Arc<dyn Wake>>>,
    /// What [`InterruptToken::sleep`] waits on (with `blocker`'s lock).
    slept: Condvar,
}
// ANCHOR_END: inner

/// Raises the interrupt of one thread. Clone it freely and send it
/// anywhere.
#[derive(Clone)]
pub struct InterruptHandle {
    inner: Arc<Inner>,
}

/// One thread's side of its interrupt: check it, clear it, sleep or block
/// in a way that it can end.
///
/// It belongs to one thread at a time; clones exist so that it can be
/// moved into that thread and installed with [`InterruptToken::set_current`].
///
/// ```
/// use interrupt_cancel::interrupt::{self, InterruptToken, Interrupted};
/// use std::time::Duration;
///
/// let token = InterruptToken::new();
/// let handle = token.handle();
/// let worker = std::thread::spawn(move || {
///     token.set_current();
///     // Some work in steps, asking between them; then a long sleep.
///     for _ in 0..3 {
///         interrupt::check()?;
///     }
///     token.sleep(Duration::from_secs(3600))
/// });
/// handle.interrupt();
/// assert_eq!(worker.join().unwrap(), Err(Interrupted));
/// ```
#[derive(Clone)]
pub struct InterruptToken {
    inner: Arc<Inner>,
}

impl InterruptHandle {
    /// Raises the interrupt: the thread's next check fails, and a blocking
    /// operation it is in (or about to enter) returns `Err(Interrupted)`.
    ///
    /// ```
    /// use interrupt_cancel::interrupt::{InterruptToken, Interrupted};
    ///
    /// let token = InterruptToken::new();
    /// token.handle().interrupt();
    /// assert_eq!(token.check(), Err(Interrupted));
    /// ```
    // ANCHOR: interrupt
    pub fn interrupt(&self) {
        let blocker = {
            let blocker = self.inner.blocker.lock();
            self.inner.interrupted.store(true, SeqCst);
            // A sleeping thread checks the flag under this same lock.
            self.inner.slept.notify_all();
            blocker.clone()
        };
        // Outside the token's lock: the waker takes the blocked operation's
        // lock, and that thread may be registering with us meanwhile.
        if let Some(blocker) = blocker {
            blocker.wake();
        }
    }
    // ANCHOR_END: interrupt

    /// Whether the interrupt is raised (and not cleared yet).
    pub fn is_interrupted(&self) -> bool {
        self.inner.interrupted.load(SeqCst)
    }
}

impl Default for InterruptToken {
    fn default() -> Self {
        InterruptToken::new()
    }
}

impl InterruptToken {
    /// A token whose interrupt is not raised. Give its [`handle`] to
    /// whoever may interrupt, and the token to the thread.
    ///
    /// [`handle`]: InterruptToken::handle
    pub fn new() -> InterruptToken {
        InterruptToken {
            inner: Arc::new(Inner {
                interrupted: AtomicBool::new(false),
                blocker: Mutex::new(None),
                slept: Condvar::new(),
            }),
        }
    }

    /// A handle that raises this token's interrupt.
    pub fn handle(&self) -> InterruptHandle {
        InterruptHandle {
            inner: Arc::clone(&self.inner),
        }
    }

    /// Whether the interrupt is raised: `isInterrupted()`.
    pub fn is_interrupted(&self) -> bool {
        self.inner.interrupted.load(SeqCst)
    }

    /// `Err(Interrupted)` if the interrupt is raised, for `?`. It stays
    /// raised.
    pub fn check(&self) -> Result<(), Interrupted> {
        if self.is_interrupted() {
            Err(Interrupted)
        } else {
            Ok(())
        }
    }

    /// Lowers the interrupt and says whether it was raised:
    /// `Thread.interrupted()`.
    ///
    /// ```
    /// let token = interrupt_cancel::interrupt::InterruptToken::new();
    /// token.handle().interrupt();
    /// assert!(token.clear());
    /// assert!(!token.is_interrupted());
    /// ```
    pub fn clear(&self) -> bool {
        self.inner.interrupted.swap(false, SeqCst)
    }

    /// Sleeps for `duration`, or until interrupted: `Thread.sleep`.
    ///
    /// ```
    /// use interrupt_cancel::interrupt::InterruptToken;
    /// use std::time::Duration;
    ///
    /// let token = InterruptToken::new();
    /// assert_eq!(token.sleep(Duration::from_millis(1)), Ok(()));
    /// token.handle().interrupt();
    /// assert!(token.sleep(Duration::from_secs(3600)).is_err(), "at once");
    /// ```
    ///
    /// # Errors
    /// [`Interrupted`] if the interrupt is raised before or while it
    /// sleeps.
    pub fn sleep(&self, duration: Duration) -> Result<(), Interrupted> {
        let deadline = sync::now().checked_add(duration);
        let mut blocker = self.inner.blocker.lock();
        loop {
            // The flag is set under this lock, so it cannot be set between
            // this check and the wait: the notify would come after.
            self.check()?;
            match deadline {
                Some(deadline) if deadline <= sync::now() => return Ok(()),
                Some(deadline) => self.inner.slept.wait_until(&mut blocker, deadline),
                None => self.inner.slept.wait(&mut blocker),
            }
        }
    }

    /// Registers `waker` as the way to wake this thread until the returned
    /// guard is dropped. A blocking operation calls this before it takes its
    /// own lock, and checks [`InterruptToken::check`] under that lock before
    /// every wait.
    ///
    /// ```
    /// use interrupt_cancel::interrupt::{InterruptToken, Wake};
    /// use std::sync::{Arc, Condvar, Mutex};
    ///
    /// /// A one-shot gate: `wait` blocks until opened, or interrupted.
    /// struct Gate {
    ///     open: Mutex<bool>,
    ///     changed: Condvar,
    /// }
    ///
    /// impl Wake for Gate {
    ///     fn wake(&self) {
    ///         let _open = self.open.lock().unwrap(); // the waiter's lock
    ///         self.changed.notify_all();
    ///     }
    /// }
    ///
    /// fn wait(gate: &Arc<Gate>, token: &InterruptToken) -> Result<(), interrupt_cancel::interrupt::Interrupted> {
    ///     let _blocked = token.block_on(gate.clone())?;
    ///     let mut open = gate.open.lock().unwrap();
    ///     while !*open {
    ///         token.check()?; // under the lock, before every wait
    ///         open = gate.changed.wait(open).unwrap();
    ///     }
    ///     Ok(())
    /// }
    ///
    /// let gate = Arc::new(Gate { open: Mutex::new(false), changed: Condvar::new() });
    /// let token = InterruptToken::new();
    /// let handle = token.handle();
    /// let waiter = std::thread::spawn({
    ///     let gate = Arc::clone(&gate);
    ///     move || wait(&gate, &token)
    /// });
    /// handle.interrupt();
    /// assert!(waiter.join().unwrap().is_err());
    /// ```
    ///
    /// # Errors
    /// [`Interrupted`] if the interrupt is already raised.
    // ANCHOR: block_on
    pub fn block_on(&self, waker: Arc<dyn Wake>) -> Result<Blocked<'_>, Interrupted> {
        let mut blocker = self.inner.blocker.lock();
        // Under the lock `interrupt` sets the flag with: either it sees our
        // waker, or we see its flag.
        self.check()?;
        *blocker = Some(waker);
        Ok(Blocked { token: self })
    }
    // ANCHOR_END: block_on

    /// Makes this the calling thread's token: [`current`], [`check`] and
    /// [`is_interrupted`] on this thread read it from now on.
    pub fn set_current(&self) {
        CURRENT.with(|current| *current.borrow_mut() = Some(self.clone()));
    }
}

/// Proof of a registration with [`InterruptToken::block_on`]; dropping it
/// unregisters the waker.
#[must_use = "dropping it unregisters the waker at once"]
pub struct Blocked<'a> {
    token: &'a InterruptToken,
}

impl Drop for Blocked<'_> {
    fn drop(&mut self) {
        *self.token.inner.blocker.lock() = None;
    }
}

thread_local! {
    // No `const { }` block: loom's `thread_local!` does not take one.
    #[allow(clippy::missing_const_for_thread_local)]
    static CURRENT: RefCell<Option<InterruptToken>> = RefCell::new(None);
}

/// The calling thread's token, if it was given one with
/// [`InterruptToken::set_current`]. A timer's tasks find their thread's
/// token here.
///
/// ```
/// use interrupt_cancel::interrupt::{self, InterruptToken};
///
/// assert!(interrupt::current().is_none());
/// InterruptToken::new().set_current();
/// assert!(!interrupt::current().unwrap().is_interrupted());
/// ```
pub fn current() -> Option<InterruptToken> {
    CURRENT.with(|current| current.borrow().clone())
}

/// `Err(Interrupted)` if the calling thread's interrupt is raised. A thread
/// without a token is never interrupted.
///
/// ```
/// // This thread was never given a token.
/// assert!(interrupt_cancel::interrupt::check().is_ok());
/// ```
pub fn check() -> Result<(), Interrupted> {
    CURRENT.with(|current| match &*current.borrow() {
        Some(token) => token.check(),
        None => Ok(()),
    })
}

/// Whether the calling thread's interrupt is raised.
pub fn is_interrupted() -> bool {
    check().is_err()
}
