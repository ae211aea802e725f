//! Catch it, W2 `cursor_race`: a timing wheel where a task can miss its
//! slot and wait a whole revolution.
//!
//! Behind this API runs one of several wheels, and your test cannot tell
//! which except by what the wheel does. Among them:
//!
//! - a wheel with the race of *A wheel of slots*: as in the CAS hashed
//!   wheel timer post's wheel (`wheel/src/lockfree.rs`), `schedule` reads
//!   the cursor, works out the task's slot from it, and only then puts the
//!   task there. If the ticker drains that slot in between, the task lands
//!   in a slot that was just emptied, and waits until the ticker comes
//!   round again;
//! - correct wheels that close the window in different ways: the
//!   chapter's hashed wheel, whose `schedule` sends the tick the task is
//!   due at to the ticker, which alone files it; its hierarchical wheel,
//!   which does the same, and whose ticker sleeps through ticks with
//!   nothing due; and a wheel whose `schedule` files the task itself, and
//!   files it by where the ticker is when it does, not where it was (a
//!   task whose tick has passed meanwhile runs at once, on the thread that
//!   schedules it);
//! - wheels with other bugs of the chapter.
//!
//! Each runs a task once its delay has passed, give or take a tick (and
//! however long a `schedule` call is held up), on its ticker thread or,
//! when the task is already due as it is filed, on the thread that
//! schedules it. Write a test that fails on the wheel with the race every
//! time, naming W2, and passes on every correct one every time.

// Built only where `select!` picks one of its versions.
#[cfg_attr(
    not(any(
        w2 = "recheck",
        w2 = "cursor_race",
        w2 = "wraparound",
        w2 = "slot_overflow"
    )),
    allow(dead_code)
)]
mod slotted;

use std::sync::Arc;
use std::time::{Duration, Instant};

use wheel::hashed::{HashedConfig, HashedWheel, SEND_WINDOW};
use wheel::hierarchical::{HierarchicalConfig, HierarchicalWheel};
use wheel::{Job, OnTicker};

use self::slotted::Slotted;

pub use super::{Pause, Point};
pub use wheel::{ConfigError, Refused};

/// How many slots a wheel's ring has (the hierarchical wheel's levels
/// have their own): one turn of it is a [`revolution`].
pub const SLOTS: usize = 32;
/// How long one slot lasts, in unscaled milliseconds.
const TICK_MS: u64 = 10;

/// How long one slot lasts: 10 ms (`kit::ms(10)`).
pub fn tick() -> Duration {
    kit::ms(TICK_MS)
}

/// One turn of the ring: [`SLOTS`] ticks.
pub fn revolution() -> Duration {
    tick() * SLOTS as u32
}

/// The race window: `schedule` has worked out where its task goes (in
/// some versions its slot, from the cursor; in others the tick it is due
/// at) and has not handed it over yet. The thread held here is the one
/// that calls `schedule`: name it, and arm the pause with that name.
///
/// In no version does the held thread hold a lock the ticker needs here:
/// the ticker goes on ticking. Held once per arm; later passes go through.
pub const WINDOW: Point = Point::new(
    "WINDOW (w2: worked out where the task goes, not yet handed it over)",
    <Imp as Version>::WINDOW,
);

/// What every wheel behind this API does.
trait Version: Sized {
    /// Its `kit::pause_point` where `schedule` has worked out where the
    /// task goes and has not handed it over.
    const WINDOW: &'static str;
    /// Starts it, its ticker named `name`.
    fn start(name: &str) -> Result<Self, ConfigError>;
    /// Runs `job` once `delay` has passed.
    fn schedule(&self, delay: Duration, job: Job) -> Result<(), Refused>;
    /// The ticks passed so far, by its count.
    fn ticks(&self) -> u64;
}

impl Version for HashedWheel {
    const WINDOW: &'static str = SEND_WINDOW;
    fn start(name: &str) -> Result<Self, ConfigError> {
        let config = HashedConfig {
            tick: tick(),
            slots: SLOTS,
        };
        HashedWheel::start(config, Arc::new(OnTicker), name)
    }
    fn schedule(&self, delay: Duration, job: Job) -> Result<(), Refused> {
        HashedWheel::schedule(self, delay, job).map(drop)
    }
    fn ticks(&self) -> u64 {
        HashedWheel::ticks(self)
    }
}

/// The hierarchical wheel, and the instant it started: its ticker sleeps
/// through ticks with nothing due, so the ticks are counted by the clock.
// Built only where `select!` picks it.
#[cfg_attr(not(w2 = "hierarchical"), allow(dead_code))]
struct Hierarchical {
    wheel: HierarchicalWheel,
    /// Taken just after the wheel's own start: never ahead of it.
    start: Instant,
}

impl Version for Hierarchical {
    const WINDOW: &'static str = "wheel::hierarchical: deadline computed, not yet sent";
    fn start(name: &str) -> Result<Self, ConfigError> {
        let config = HierarchicalConfig { tick: tick() };
        let wheel = HierarchicalWheel::start(config, Arc::new(OnTicker), name)?;
        Ok(Hierarchical {
            wheel,
            start: Instant::now(),
        })
    }
    fn schedule(&self, delay: Duration, job: Job) -> Result<(), Refused> {
        self.wheel.schedule(delay, job).map(drop)
    }
    fn ticks(&self) -> u64 {
        let passed = self.start.elapsed().as_nanos() / self.wheel.tick().as_nanos();
        u64::try_from(passed).unwrap_or(u64::MAX)
    }
}

impl<const RECHECK: bool, const ROUNDS: bool, const CAPACITY: usize> Version
    for Slotted<RECHECK, ROUNDS, CAPACITY>
{
    const WINDOW: &'static str = slotted::WINDOW;
    fn start(name: &str) -> Result<Self, ConfigError> {
        Slotted::start(tick(), SLOTS, name)
    }
    fn schedule(&self, delay: Duration, job: Job) -> Result<(), Refused> {
        Slotted::schedule(self, delay, job)
    }
    fn ticks(&self) -> u64 {
        Slotted::ticks(self)
    }
}

/// How many tasks a slot holds in the version that limits it (W4).
#[cfg_attr(not(w2 = "slot_overflow"), allow(dead_code))]
const CAPACITY: usize = 16;

select!(w2:
    "hashed" => HashedWheel,
    "hierarchical" => Hierarchical,
    "recheck" => Slotted<true, true, 0>,
    "cursor_race" => Slotted<false, true, 0>,
    "wraparound" => Slotted<true, false, 0>,
    "slot_overflow" => Slotted<true, true, CAPACITY>,
);

/// A timing wheel with one ticker thread, which runs each task once its
/// delay has passed, give or take a tick. Dropping it stops the ticker and
/// waits for it; tasks not yet run are dropped unrun.
// Boxed: the same size whichever version it holds.
pub struct Wheel(Box<Imp>);

impl Wheel {
    /// Starts a wheel whose ticker thread is named `name`.
    ///
    /// # Errors
    /// If the ticker cannot be started (a name with a NUL byte in it).
    pub fn new(name: &str) -> Result<Wheel, ConfigError> {
        Ok(Wheel(Box::new(<Imp as Version>::start(name)?)))
    }

    /// Runs `task` once `delay` has passed: on the ticker, or at once on
    /// this thread if the task is already due when it is filed.
    ///
    /// # Errors
    /// A [`Refused`] holding the task, if the wheel cannot take it (a
    /// delay beyond its range, a slot full).
    pub fn schedule(
        &self,
        delay: Duration,
        task: impl FnOnce() + Send + 'static,
    ) -> Result<(), Refused> {
        super::calling("schedule");
        Version::schedule(&*self.0, delay, Box::new(task))
    }

    /// How many ticks have passed so far by the wheel's count: one per
    /// [`tick`]. A ticker that wakes every tick counts one once it has
    /// taken that tick's slot; one that sleeps through ticks with nothing
    /// due counts them as they pass.
    pub fn ticks(&self) -> u64 {
        super::calling("ticks");
        Version::ticks(&*self.0)
    }
}
