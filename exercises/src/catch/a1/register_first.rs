//! A `Sleep` that leaves its task's waker first and looks second, as
//! `futures`' `AtomicWaker` is used: the other known fix of A1, which
//! `racy_poll.rs` names. Built on the chapter's timer (its driver, and
//! its `Sleep` inside this one), so only the poll differs.
//!
//! Each `Sleep` here keeps its task's waker in a slot of its own, and
//! hands the chapter's `Sleep` a waker that wakes whatever the slot holds
//! (the same waker every time, so the chapter's entry keeps it). A poll
//! stores its task's waker in the slot, lets go of the slot's lock, and
//! only then looks at the entry, through the chapter's poll. The window,
//! between the two, holds no lock: the driver can fire the entry while a
//! poll is held there. If it does, it wakes whatever waker the slot holds
//! (or finds none in the entry yet, on a first poll), and the poll, let
//! go, sees the entry fired and returns `Ready`. Either way nobody waits
//! for a wake that will not come.
//!
//! With `KEEP_FIRST`, the slot keeps the first waker it was given: A2
//! `stale_waker`, in this form. A `Sleep` polled by a second task wakes
//! the first one, and the second waits for ever.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::time::{Duration, Instant};

use async_timer::{StartError, TimerError};
use parking_lot::Mutex;

use super::Chapter;

/// The pause point in the poll: the task's waker is in the slot, the
/// entry not looked at yet.
pub(super) const WINDOW: &str =
    "exercises::a1::register_first: waker stored, entry not yet looked at";

/// The chapter's timer, whose `Sleep`s leave their waker first.
pub(super) struct RegisterFirst<const KEEP_FIRST: bool> {
    chapter: Chapter,
}

/// A `Sleep` that leaves its task's waker first, then looks.
pub(super) struct Sleep {
    inner: async_timer::Sleep,
    slot: Arc<Slot>,
}

/// Where a `Sleep` keeps its task's waker; as a waker itself, it wakes
/// that one.
#[derive(Default)]
struct Slot {
    waker: Mutex<Option<Waker>>,
}

impl Wake for Slot {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        // Cloned under the lock, woken after it: a waker may poll at once.
        let waker = self.waker.lock().clone();
        if let Some(waker) = waker {
            waker.wake();
        }
    }
}

impl<const KEEP_FIRST: bool> RegisterFirst<KEEP_FIRST> {
    /// Starts the chapter's driver on a manual clock, its thread named
    /// `name`.
    pub(super) fn start(name: &str) -> Result<Self, StartError> {
        let chapter = Chapter::start(name, async_timer::Variant::Fixed, super::tick())?;
        Ok(RegisterFirst { chapter })
    }

    /// A `Sleep` due `delay` from the clock's time now.
    pub(super) fn sleep(&self, delay: Duration) -> Sleep {
        Sleep {
            inner: self.chapter.sleep(delay),
            slot: Arc::default(),
        }
    }

    /// Polls `sleep`: the waker first, then the look.
    pub(super) fn poll(sleep: &mut Sleep, cx: &mut Context<'_>) -> Poll<Result<(), TimerError>> {
        {
            let mut slot = sleep.slot.waker.lock();
            let keep = if KEEP_FIRST {
                // BUG (A2): a later poll, from another task, is not heard.
                slot.is_some()
            } else {
                slot.as_ref().is_some_and(|w| w.will_wake(cx.waker()))
            };
            if !keep {
                *slot = Some(cx.waker().clone());
            }
        }
        // The driver may fire the entry now: it wakes the slot's waker, or
        // (before the first look) finds no waker, and the look sees it fired.
        kit::pause_point(WINDOW);
        let forward = Waker::from(Arc::clone(&sleep.slot));
        Pin::new(&mut sleep.inner).poll(&mut Context::from_waker(&forward))
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
