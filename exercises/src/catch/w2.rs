//! Catch it, W2 `cursor_race`: a timing wheel where a task can miss its
//! slot and wait a whole revolution.
//!
//! One of two versions runs behind this API, and your test cannot tell which
//! except by what the wheel does:
//!
//! - the buggy one, the CAS hashed wheel timer post's wheel of *A wheel of
//!   slots* (`wheel/src/lockfree.rs`): `schedule` reads the cursor,
//!   computes the task's slot, and only then puts the task there. If the
//!   ticker drains that slot in between, the task lands in a slot that was
//!   just emptied, and waits until the ticker comes round again;
//! - the fixed one, the chapter's hashed wheel (`wheel/src/hashed.rs`):
//!   `schedule` computes the tick the task is due at, from the wheel's
//!   start, and sends it to the ticker, which alone files it. A task sent
//!   late is filed late, and fires at the next tick.
//!
//! Both have [`SLOTS`] slots of [`tick`] each, and run tasks on the ticker
//! thread. Write a test that fails on the first every time, naming W2, and
//! passes on the second every time.

use std::time::Duration;

use wheel::hashed::{HashedConfig, HashedWheel, SEND_WINDOW};
use wheel::lockfree::{LockFreeConfig, LockFreeWheel};
use wheel::{Job, OnTicker};

use super::{Side, side};

pub use super::{Pause, Point};
pub use wheel::{ConfigError, Refused};

/// How many slots the ring has.
pub const SLOTS: usize = 32;
/// How long one slot lasts, in unscaled milliseconds.
const TICK_MS: u64 = 10;
/// How many tasks one slot of the buggy wheel holds.
const CAPACITY: usize = 16;

/// How long one slot lasts: 10 ms (`kit::ms(10)`).
pub fn tick() -> Duration {
    kit::ms(TICK_MS)
}

/// One turn of the ring: [`SLOTS`] ticks.
pub fn revolution() -> Duration {
    tick() * SLOTS as u32
}

/// The race window: `schedule` has worked out where its task goes (in one
/// version the slot, from the cursor; in the other the tick it is due at)
/// and has not handed it over yet. The thread held here is the one that
/// calls `schedule`: name it, and arm the pause with that name.
///
/// In neither version does the held thread hold a lock here: the ticker
/// goes on ticking. Held once per arm; later passes go through.
pub const WINDOW: Point = Point::new(
    "WINDOW (w2: worked out where the task goes, not yet handed it over)",
    "wheel::lockfree: slot computed, not yet claimed",
    SEND_WINDOW,
);

enum Version {
    Buggy(LockFreeWheel),
    Fixed(HashedWheel),
}

/// A timing wheel with one ticker thread, which runs each task (on itself)
/// once its delay has passed, give or take a tick. Dropping it stops the
/// ticker and waits for it; tasks not yet run are dropped unrun.
pub struct Wheel(Version);

impl Wheel {
    /// Starts a wheel whose ticker thread is named `name`.
    ///
    /// # Errors
    /// If the ticker cannot be started (a name with a NUL byte in it).
    pub fn new(name: &str) -> Result<Wheel, ConfigError> {
        Ok(Wheel(match side() {
            Side::Buggy => Version::Buggy(LockFreeWheel::start(
                LockFreeConfig::new(tick(), SLOTS, CAPACITY),
                std::sync::Arc::new(OnTicker),
                name,
            )?),
            Side::Fixed => Version::Fixed(HashedWheel::start(
                HashedConfig {
                    tick: tick(),
                    slots: SLOTS,
                },
                std::sync::Arc::new(OnTicker),
                name,
            )?),
        }))
    }

    /// Runs `task` on the ticker once `delay` has passed.
    ///
    /// # Errors
    /// A [`Refused`] holding the task, if the wheel cannot take it (a slot
    /// full, a delay beyond its range).
    pub fn schedule(
        &self,
        delay: Duration,
        task: impl FnOnce() + Send + 'static,
    ) -> Result<(), Refused> {
        super::calling("schedule");
        match &self.0 {
            Version::Buggy(wheel) => wheel.add(delay, task),
            Version::Fixed(wheel) => {
                let job: Job = Box::new(task);
                wheel.schedule(delay, job).map(drop)
            }
        }
    }

    /// How many ticks the ticker has done so far: one per [`tick`], each
    /// one a slot drained.
    pub fn ticks(&self) -> u64 {
        super::calling("ticks");
        match &self.0 {
            Version::Buggy(wheel) => wheel.stats().ticks,
            Version::Fixed(wheel) => wheel.ticks(),
        }
    }
}
