//! The chapter's timer on a finer tick, whose `Sleep` wakes its task once
//! for nothing: the first time a poll finds it waiting, it wakes the task
//! at once as well, as a `Sleep` polled inside an executor's cooperative
//! budget may (tokio's does, when the budget is spent). A spurious wake-up
//! is allowed: the task polls again and finds the `Sleep` still waiting.
//! Nothing else differs from the chapter's timer: its driver, its entry,
//! and its poll, which looks and stores under the entry's lock.
//!
//! Its tick is a quarter of [`tick`](super::tick): a `Sleep` is due once
//! the clock has passed its deadline, rounded up to a quarter tick rather
//! than a whole one. It never fires early on any of the versions; on this
//! one it may fire sooner after its deadline than on the others.

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use async_timer::{POLL_WINDOW, StartError, TimerError};

use super::Chapter;

/// The pause point in the poll: the chapter's.
pub(super) const WINDOW: &str = POLL_WINDOW;

/// The chapter's timer on a quarter tick, with a spurious wake-up.
pub(super) struct SpuriousWake {
    chapter: Chapter,
}

/// The chapter's `Sleep`, and whether it has woken its task for nothing.
pub(super) struct Sleep {
    inner: async_timer::Sleep,
    woke: bool,
}

impl SpuriousWake {
    /// Starts the chapter's driver on a quarter tick and a manual clock,
    /// its thread named `name`.
    pub(super) fn start(name: &str) -> Result<Self, StartError> {
        let tick = super::tick() / 4;
        let chapter = Chapter::start(name, async_timer::Variant::Fixed, tick)?;
        Ok(SpuriousWake { chapter })
    }

    /// A `Sleep` due `delay` from the clock's time now.
    pub(super) fn sleep(&self, delay: Duration) -> Sleep {
        Sleep {
            inner: self.chapter.sleep(delay),
            woke: false,
        }
    }

    /// Polls `sleep` as the chapter does; the first time it is pending,
    /// wakes the task at once too.
    pub(super) fn poll(sleep: &mut Sleep, cx: &mut Context<'_>) -> Poll<Result<(), TimerError>> {
        let polled = Pin::new(&mut sleep.inner).poll(cx);
        if polled.is_pending() && !sleep.woke {
            sleep.woke = true;
            cx.waker().wake_by_ref();
        }
        polled
    }

    /// The chapter's timer under it.
    pub(super) fn chapter(&self) -> &Chapter {
        &self.chapter
    }
}

impl Sleep {
    /// When it is due.
    pub(super) fn deadline(&self) -> Instant {
        self.inner.deadline()
    }

    /// Whether it has fired, or failed.
    pub(super) fn is_elapsed(&self) -> bool {
        self.inner.is_elapsed()
    }
}
