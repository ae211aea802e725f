//! The retry timers that are one periodic task: a correct one, and the
//! same on the pool with T15's bug.

use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use threadpool_executor::scheduled::{ScheduledFuture, ScheduledThreadPool, ScheduledVariant};

use super::super::f4::{ASKED_AT, QUEUED_AT, TRIED_AT};
use super::{Op, Pool, Version};

/// A retry timer whose retries are one fixed-delay periodic task. Correct
/// on the stage's pool (`WRAPPING` false). With `WRAPPING`, on the pool
/// whose next deadline wraps around (T15): a backoff of 292 years or more
/// makes the next attempt due at once.
pub(in super::super) struct Retrier<const WRAPPING: bool> {
    pool: Pool,
}

/// One operation's retries: the periodic task's future, and what its runs
/// and `cancel` tell each other.
pub(in super::super) struct Retry {
    state: Arc<Mutex<State>>,
}

#[derive(Default)]
struct State {
    cancelled: bool,
    succeeded: bool,
    /// The periodic task's future, once `retry` has it.
    future: Option<ScheduledFuture<()>>,
}

impl State {
    /// Cancels the periodic task, if `retry` has its future yet (if not,
    /// `retry` cancels it once it has).
    fn stop(&self) {
        if let Some(future) = &self.future {
            future.cancel(false);
        }
    }
}

impl<const WRAPPING: bool> Version for Retrier<WRAPPING> {
    type Retry = Retry;

    fn start(name: &str) -> std::io::Result<Self> {
        let variant = if WRAPPING {
            ScheduledVariant::WrappingDelay
        } else {
            ScheduledVariant::Fixed
        };
        let builder = ScheduledThreadPool::builder().variant(variant);
        Ok(Retrier {
            pool: Pool::start(name, builder)?,
        })
    }

    fn retry(&self, backoff: Duration, mut op: Op) -> Retry {
        let state = Arc::new(Mutex::new(State::default()));
        let shared = Arc::clone(&state);
        let run = move || {
            // A run before `retry` had the future to cancel.
            if shared.lock().succeeded {
                return;
            }
            // 1. Try.
            let succeeded = op();
            kit::pause_point(TRIED_AT);
            let mut state = shared.lock();
            if succeeded {
                state.succeeded = true;
                state.stop();
                return;
            }
            // 2. Ask whether the retries were cancelled (`cancel` has
            // cancelled the task too, so it runs no more).
            if state.cancelled {
                return;
            }
            drop(state);
            kit::pause_point(ASKED_AT);
            // 3. Nothing to queue: when this run ends the pool queues the
            // next, `backoff` later, unless the task was cancelled.
            kit::pause_point(QUEUED_AT);
        };
        // The pool takes no period of zero.
        let delay = backoff.max(Duration::from_nanos(1));
        let future = self
            .pool
            .0
            .schedule_with_fixed_delay(Duration::ZERO, delay, run)
            .ok();
        let mut held = state.lock();
        held.future = future;
        if held.succeeded || held.cancelled {
            held.stop();
        }
        drop(held);
        Retry { state }
    }

    fn cancel(retry: &Retry) {
        let mut state = retry.state.lock();
        state.cancelled = true;
        state.stop();
    }
}
