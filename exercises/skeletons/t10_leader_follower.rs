//! Exercise T10: takers that wake together for every deadline.
//!
//! The scheduled pool's delayed queue, cut down: items ordered by deadline,
//! taken once due, by any number of taker threads (the pool's workers). An
//! idle taker must wait for the head to become due. Here every one of them
//! does, timed: when the deadline comes they all wake, one takes the head,
//! and the rest find the next head not due yet and go back to sleep. With 8
//! takers that is about 8 wake-ups per deadline where one would do: the
//! thundering herd (T10). Every item is still taken on time; the waste is
//! in threads woken for nothing.
//!
//! Your job: make it leader-follower. One taker, the *leader*, waits timed
//! for the head; every other taker, a *follower*, waits without a time
//! limit. Whoever leads must never be lost: at every moment a head exists,
//! someone is waiting timed for it, or is about to take it. Keep the public
//! API, the counting in `park` (the check reads `wakeups` and `waiting`),
//! and the `kit::pause_point(TOOK)` call. A taker reaches it once it has
//! taken an item and let go of the lock; the check holds it there and
//! expects another taker to take the next item on time.
//!
//! Check: `cargo xtask exercise check t10`. Hints: `cargo xtask exercise hint t10`.

use std::collections::BTreeMap;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

/// Where the check holds a taker: it took an item and let go of the lock.
pub const TOOK: &str = "exercise t10: took an item, lock released";

/// Everything the lock guards.
struct State<T> {
    /// The items, by (deadline, sequence): the first entry is the head,
    /// and among equal deadlines the one offered first.
    items: BTreeMap<(Instant, u64), T>,
    /// The number the next item gets.
    next_sequence: u64,
    /// Set by `close`: every `take` returns `None` from then on.
    closed: bool,
    /// Takers inside a wait right now.
    waiting: usize,
    /// Waits that have ended, for whatever reason.
    wakeups: u64,
}

impl<T> State<T> {
    /// The head's deadline, if there is a head.
    fn head(&self) -> Option<Instant> {
        self.items.first_key_value().map(|(&(due, _), _)| due)
    }
}

/// A queue of items, each taken once its deadline has passed, earliest
/// first.
pub struct DelayedQueue<T> {
    state: Mutex<State<T>>,
    /// Notified, under `state`, when a taker may have something to do.
    available: Condvar,
}

impl<T: Send + 'static> Default for DelayedQueue<T> {
    fn default() -> Self {
        DelayedQueue::new()
    }
}

impl<T: Send + 'static> DelayedQueue<T> {
    /// An empty queue.
    pub fn new() -> Self {
        DelayedQueue {
            state: Mutex::new(State {
                items: BTreeMap::new(),
                next_sequence: 0,
                closed: false,
                waiting: 0,
                wakeups: 0,
            }),
            available: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State<T>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits on `available` until notified, or until `until` (`None`: no
    /// time limit). Counts the wait and its end: keep every wait going
    /// through here.
    fn park<'a>(
        &self,
        mut state: MutexGuard<'a, State<T>>,
        until: Option<Instant>,
    ) -> MutexGuard<'a, State<T>> {
        state.waiting += 1;
        let mut state = match until {
            Some(until) => {
                let left = until.saturating_duration_since(Instant::now());
                self.available
                    .wait_timeout(state, left)
                    .unwrap_or_else(PoisonError::into_inner)
                    .0
            }
            None => self
                .available
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner),
        };
        state.waiting -= 1;
        state.wakeups += 1;
        state
    }

    /// Queues `item`, to be taken once `due` has passed.
    pub fn offer(&self, due: Instant, item: T) {
        let mut state = self.lock();
        let sequence = state.next_sequence;
        state.next_sequence += 1;
        state.items.insert((due, sequence), item);
        if state.items.keys().next() == Some(&(due, sequence)) {
            // Every idle taker timed its wait on the old head, which is
            // too late now: wake them all to time the new one.
            // TODO(T10): with a leader, a new head makes the leader's
            // deadline wrong. Who should wake, and who leads then?
            self.available.notify_all();
        }
    }

    /// Waits until the head is due and takes it; `None` once the queue is
    /// closed.
    pub fn take(&self) -> Option<T> {
        let mut state = self.lock();
        let item = loop {
            if state.closed {
                return None;
            }
            let head = state.head();
            if let Some(due) = head
                && due <= Instant::now()
            {
                break state.items.pop_first().map(|(_, item)| item);
            }
            // BUG (T10): every idle taker waits timed for the head. When
            // it is due they all wake, one takes it, the rest go back to
            // sleep.
            // TODO(T10): leader-follower. One leader waits timed for the
            // head, the others wait with no time limit; and whoever leaves
            // this loop makes sure a head is never left with nobody timing
            // it.
            state = self.park(state, head);
        };
        drop(state);
        kit::pause_point(TOOK);
        item
    }

    /// Ends every `take`, now and from now on, with `None`. Items still
    /// queued are never taken.
    pub fn close(&self) {
        self.lock().closed = true;
        self.available.notify_all();
    }

    /// How many times a taker came back from a wait: timed out, notified,
    /// or woken spuriously. What the thundering herd costs.
    pub fn wakeups(&self) -> u64 {
        self.lock().wakeups
    }

    /// How many takers are waiting right now.
    pub fn waiting(&self) -> usize {
        self.lock().waiting
    }
}
