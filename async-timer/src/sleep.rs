//! `Sleep`: a future that is ready once its deadline has passed.
//!
//! Made by [`Handle::sleep`](crate::Handle::sleep) or
//! [`Handle::sleep_until`](crate::Handle::sleep_until), it has its deadline
//! fixed and its entry filed in the driver's wheel at once, so that a poll
//! only looks at the entry (filing at the first poll, as tokio does, would
//! count the deadline from the call all the same).
//! Polling it looks at the entry; `reset` moves it; dropping it takes the
//! entry out of the wheel (A3).
//!
//! Who touches what: the fields are the `Sleep`'s own, changed only
//! through `&mut self` by whoever owns it. The entry it points to is
//! shared with the driver, under the entry's lock (`entry.rs`).

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Instant;

use wheel::levels::Key;

use crate::entry::{Entry, Status};
use crate::error::TimerError;
use crate::handle::Handle;

/// A future that is ready at its deadline: `Ok(())`, or the error that
/// kept it from firing (see [`TimerError`]). Polled again after that, it
/// gives the same answer.
///
/// Executor-agnostic: it knows nothing of the task polling it but the
/// task's [`Waker`](std::task::Waker), which the driver calls when the
/// deadline comes.
#[must_use = "a Sleep does nothing unless polled or awaited"]
pub struct Sleep {
    pub(crate) handle: Handle,
    pub(crate) deadline: Instant,
    /// Shared with the driver while it waits in the wheel.
    pub(crate) entry: Arc<Entry>,
    /// The entry's place in the wheel, to take it out in O(1); `None`
    /// once it has fired (or was never filed: due at once, or refused).
    pub(crate) key: Option<Key>,
}

impl Sleep {
    /// A `Sleep` with a waiting entry that is not in the wheel yet.
    pub(crate) fn unregistered(handle: Handle, deadline: Instant) -> Sleep {
        Sleep {
            handle,
            deadline,
            entry: Arc::new(Entry::new(None)),
            key: None,
        }
    }

    /// Ends this `Sleep` with `error` before it was ever filed.
    pub(crate) fn refuse(&mut self, error: TimerError) {
        drop(self.entry.complete(Status::Failed(error)));
    }

    /// The instant this `Sleep` is ready at; for a delay too long for an
    /// `Instant` to hold, the instant it was made (it is refused anyway).
    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    /// Whether it has fired, or failed: the next poll is ready.
    pub fn is_elapsed(&self) -> bool {
        self.entry.status() != Status::Waiting
    }

    /// Moves the deadline to `deadline`, fired or not. A deadline already
    /// past fires at once, and wakes the task that polled it (A6); one due
    /// sooner than the driver's plan wakes the driver (A5).
    pub fn reset(&mut self, deadline: Instant) {
        self.handle.shared.variant.reset(self, deadline);
    }

    // ANCHOR: reset
    /// `reset`: the entry out of the wheel, a new one filed through
    /// `register`, the one place a deadline enters the wheel, which fires
    /// it at once if it is due (A6) and wakes the driver if it is due
    /// before the driver's plan (A5).
    pub(crate) fn refile(&mut self, deadline: Instant) {
        let waker = self.unfile();
        self.deadline = deadline;
        self.entry = Arc::new(Entry::new(waker));
        self.key = self.handle.register(deadline, &self.entry);
    }
    // ANCHOR_END: reset

    /// Takes the entry out of the wheel if it is still there, and its
    /// waker out of it: a reset moves the waker to a new entry. If the
    /// driver took the entry first, it fires it: at worst the task is
    /// woken once for nothing, and polls the new entry.
    pub(crate) fn unfile(&mut self) -> Option<std::task::Waker> {
        if let Some(key) = self.key.take() {
            self.handle.deregister(key);
        }
        self.entry.take_waker()
    }
}

impl Future for Sleep {
    type Output = Result<(), TimerError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        let waker = cx.waker();
        let polled = this.handle.shared.variant.poll(&this.entry, waker);
        if polled.is_ready() {
            // Fired or failed: out of the wheel (or never in it).
            this.key = None;
        }
        polled
    }
}

impl Drop for Sleep {
    fn drop(&mut self) {
        self.handle.shared.variant.drop_sleep(self);
    }
}

impl Sleep {
    // ANCHOR: drop
    /// The `Sleep`'s drop: takes the entry out of the wheel by key, in
    /// O(1), so that a timeout whose future won leaves nothing behind (A3).
    pub(crate) fn take_out_of_wheel(&mut self) {
        if let Some(key) = self.key.take() {
            self.handle.deregister(key);
        }
    }
    // ANCHOR_END: drop
}

impl std::fmt::Debug for Sleep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sleep")
            .field("deadline", &self.deadline)
            .field("elapsed", &self.is_elapsed())
            .finish_non_exhaustive()
    }
}
