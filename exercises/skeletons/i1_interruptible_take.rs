//! Exercise I1: a `take` an interrupt can end.
//!
//! The delay queue of *A timer you can interrupt*, with the interrupt handled
//! the naive way: `take` checks the caller's token once, at the start, and
//! then blocks. An interrupt raised while it waits on an empty queue, or for
//! a far deadline, reaches nobody: stage 4's P1 and P2, back again.
//!
//! Your job: make `take` return `Err(Interrupted)` whenever the caller's
//! interrupt is raised, before the call or while it waits, and lose none,
//! however the interrupt and the wait interleave. Keep the public API and
//! the two `kit::pause_point` calls where they are: the check holds the
//! taking thread there while it interrupts.
//!
//! Check: `cargo xtask exercise check i1`. Hints: `cargo xtask exercise hint i1`.

use std::collections::BinaryHeap;
use std::sync::Arc;
use std::time::Instant;

use parking_lot::{Condvar, Mutex};

pub use interrupt_cancel::interrupt::{InterruptToken, Interrupted, Wake};

/// Where the check holds the taker on an empty queue, lock in hand.
pub const IDLE: &str = "exercise i1: queue empty, not yet waiting";
/// Where the check holds the taker before it waits for a far head.
pub const WAIT: &str = "exercise i1: head not due, not yet waiting";

/// An item and when it is due; the heap's order is earliest first.
struct Entry<T> {
    deadline: Instant,
    seq: u64,
    item: T,
}

impl<T> Ord for Entry<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (other.deadline, other.seq).cmp(&(self.deadline, self.seq))
    }
}

impl<T> PartialOrd for Entry<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<T> PartialEq for Entry<T> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl<T> Eq for Entry<T> {}

struct Shared<T> {
    state: Mutex<(BinaryHeap<Entry<T>>, u64)>,
    /// Notified when a new head arrives.
    changed: Condvar,
}

/// A blocking queue ordered by deadline. Clones share one queue.
pub struct InterruptibleQueue<T> {
    shared: Arc<Shared<T>>,
}

impl<T> Clone for InterruptibleQueue<T> {
    fn clone(&self) -> Self {
        InterruptibleQueue {
            shared: Arc::clone(&self.shared),
        }
    }
}

impl<T: Send + 'static> Default for InterruptibleQueue<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Send + 'static> InterruptibleQueue<T> {
    /// An empty queue.
    pub fn new() -> InterruptibleQueue<T> {
        InterruptibleQueue {
            shared: Arc::new(Shared {
                state: Mutex::new((BinaryHeap::new(), 0)),
                changed: Condvar::new(),
            }),
        }
    }

    /// Adds `item`, due at `deadline`, and wakes a taker if it is the new
    /// head.
    ///
    /// # Errors
    /// Never here (the solution's queue can be closed); the item comes
    /// back in the error if it is refused.
    pub fn push(&self, deadline: Instant, item: T) -> Result<(), T> {
        let mut state = self.shared.state.lock();
        let seq = state.1;
        state.1 += 1;
        state.0.push(Entry {
            deadline,
            seq,
            item,
        });
        if state.0.peek().is_some_and(|head| head.seq == seq) {
            self.shared.changed.notify_all();
        }
        Ok(())
    }

    /// Waits until the head is due and takes it.
    ///
    /// # Errors
    /// [`Interrupted`] if `token`'s interrupt is raised before the call or
    /// while it waits.
    pub fn take(&self, token: &InterruptToken) -> Result<T, Interrupted> {
        // TODO(I1): this looks at the interrupt once, before blocking. An
        // interrupt raised while the thread waits below wakes nobody, and
        // nothing here looks at the token again. The token can knock:
        // `InterruptToken::block_on` registers a `Wake` that `interrupt`
        // calls after it raises the flag (*A timer you can interrupt*, "A
        // flag and a registered waker").
        token.check()?;
        let mut state = self.shared.state.lock();
        loop {
            match state.0.peek().map(|head| head.deadline) {
                None => {
                    kit::pause_point(IDLE);
                    self.shared.changed.wait(&mut state);
                }
                Some(deadline) if deadline <= Instant::now() => {
                    return Ok(state.0.pop().expect("the head we just peeked").item);
                }
                Some(deadline) => {
                    kit::pause_point(WAIT);
                    self.shared.changed.wait_until(&mut state, deadline);
                }
            }
        }
    }
}
