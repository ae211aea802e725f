//! The retry timers that chain one-shot attempts, as the scheduler as
//! written does: three correct ones and a buggy one, which differ from it
//! in a few places, each a choice below.

use std::marker::PhantomData;
use std::sync::{Arc, Weak};
use std::time::Duration;

use parking_lot::{Mutex, MutexGuard};
use threadpool_executor::delayed_queue::Wait;
use threadpool_executor::scheduled::{ScheduledFuture, ScheduledThreadPool};

use super::super::f4::{ASKED_AT, QUEUED_AT, TRIED_AT};
use super::{Op, Pool, Version};

/// Mended: steps 2 to 4 under the lock `cancel` takes. A cancel comes
/// before the question, and is seen, or after the future is kept, and
/// cancels it.
pub(in super::super) struct Mended;
/// Correct: the lock let go while queuing, as written, and a second
/// question once the future is kept.
pub(in super::super) struct Recheck;
/// Correct: as written, and a question before every try.
pub(in super::super) struct AsksFirst;
/// P1: `cancel` raises the flag and leaves the waiting attempt in the pool.
pub(in super::super) struct FlagOnly;

/// Where the versions here differ from the scheduler as written.
#[derive(Clone, Copy)]
struct Choices {
    /// Steps 2 to 4 under one lock, the one `cancel` takes.
    one_lock: bool,
    /// After step 4, ask again, and cancel the future just kept if the
    /// retries were cancelled meanwhile.
    recheck: bool,
    /// Ask before trying, and end without trying if cancelled.
    asks_first: bool,
    /// `cancel` cancels the attempt waiting in the pool.
    cancels_waiting: bool,
    /// The pool's layout: the JDK's defaults (leader-follower, a cancelled
    /// task left in the queue until due) rather than the stage's.
    jdk_pool: bool,
}

/// The scheduler as written.
const AS_WRITTEN: Choices = Choices {
    one_lock: false,
    recheck: false,
    asks_first: false,
    cancels_waiting: true,
    jdk_pool: false,
};

/// A version here: its choices.
trait Way {
    /// What it does differently from the scheduler as written.
    const CHOICES: Choices;
}

impl Way for Mended {
    const CHOICES: Choices = Choices {
        one_lock: true,
        ..AS_WRITTEN
    };
}

impl Way for Recheck {
    const CHOICES: Choices = Choices {
        recheck: true,
        jdk_pool: true,
        ..AS_WRITTEN
    };
}

impl Way for AsksFirst {
    const CHOICES: Choices = Choices {
        asks_first: true,
        ..AS_WRITTEN
    };
}

impl Way for FlagOnly {
    const CHOICES: Choices = Choices {
        cancels_waiting: false,
        ..AS_WRITTEN
    };
}

/// A retry timer of the way `W`.
pub(in super::super) struct Retrier<W> {
    pool: Pool,
    way: PhantomData<fn() -> W>,
}

/// One operation's retries, shared by its handle and its attempts.
struct Attempts {
    op: Mutex<Op>,
    backoff: Duration,
    pool: Weak<ScheduledThreadPool>,
    state: Mutex<State>,
    choices: Choices,
}

struct State {
    cancelled: bool,
    /// The attempt waiting in the pool, if one is.
    waiting: Option<ScheduledFuture<()>>,
}

/// One operation's retries, on any of the versions here.
pub(in super::super) struct Retry {
    attempts: Arc<Attempts>,
}

impl<W: Way> Version for Retrier<W> {
    type Retry = Retry;

    fn start(name: &str) -> std::io::Result<Self> {
        let mut builder = ScheduledThreadPool::builder();
        if W::CHOICES.jdk_pool {
            builder = builder
                .queue_wait(Wait::LeaderFollower)
                .remove_on_cancel(false);
        }
        Ok(Retrier {
            pool: Pool::start(name, builder)?,
            way: PhantomData,
        })
    }

    fn retry(&self, backoff: Duration, op: Op) -> Retry {
        let attempts = Arc::new(Attempts {
            op: Mutex::new(op),
            backoff,
            pool: Arc::downgrade(&self.pool.0),
            state: Mutex::new(State {
                cancelled: false,
                waiting: None,
            }),
            choices: W::CHOICES,
        });
        let mut state = attempts.state.lock();
        let first = Arc::clone(&attempts);
        state.waiting = self
            .pool
            .0
            .schedule(Duration::ZERO, move || attempt(first))
            .ok();
        drop(state);
        Retry { attempts }
    }

    fn cancel(retry: &Retry) {
        let mut state = retry.attempts.state.lock();
        state.cancelled = true;
        if retry.attempts.choices.cancels_waiting
            && let Some(waiting) = state.waiting.take()
        {
            waiting.cancel(false);
        }
    }
}

fn attempt(attempts: Arc<Attempts>) {
    let choices = attempts.choices;
    // 1. Try: this attempt is no longer waiting in the pool.
    {
        let mut state = attempts.state.lock();
        state.waiting = None;
        if choices.asks_first && state.cancelled {
            return;
        }
    }
    let succeeded = (attempts.op.lock())();
    kit::pause_point(TRIED_AT);
    if succeeded {
        return;
    }
    // 2. Ask whether the retries were cancelled.
    let mut state = attempts.state.lock();
    if state.cancelled {
        return;
    }
    // 3. Put the next attempt in the pool, a backoff from now.
    let queue = || {
        kit::pause_point(ASKED_AT);
        let pool = attempts.pool.upgrade()?; // `None`: the retrier is gone
        let again = Arc::clone(&attempts);
        let next = pool.schedule(attempts.backoff, move || attempt(again)).ok();
        drop(pool);
        kit::pause_point(QUEUED_AT);
        next
    };
    let next = if choices.one_lock {
        queue()
    } else {
        MutexGuard::unlocked(&mut state, queue)
    };
    // 4. Keep its future, so that `cancel` can reach it.
    state.waiting = next;
    if choices.recheck
        && state.cancelled
        && let Some(next) = state.waiting.take()
    {
        next.cancel(false);
    }
}
