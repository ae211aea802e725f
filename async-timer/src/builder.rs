//! How a [`Driver`] is set up: its thread's name, its tick, its clock,
//! and which version of the timer it runs.

use std::sync::Arc;
use std::time::Duration;

use wheel::levels::Levels;

use crate::clock::Clock;
use crate::driver::Driver;
use crate::error::StartError;
use crate::handle::{AWAKE, Shared, State};
use crate::sync::Mutex;
use crate::variant::Variant;

/// Sets up a [`Driver`]; from [`Driver::builder`].
#[derive(Debug, Clone)]
pub struct Builder {
    name: String,
    tick: Duration,
    manual: bool,
    variant: Variant,
}

impl Builder {
    /// A driver on a thread named `name`, with a 1 ms tick (tokio's) and
    /// the real clock.
    pub fn new(name: &str) -> Builder {
        Builder {
            name: name.to_owned(),
            tick: Duration::from_millis(1),
            manual: false,
            variant: Variant::Fixed,
        }
    }

    /// The tick: deadlines are rounded up to whole ticks, and six levels
    /// of 64 slots reach `tick * 2^36` ahead.
    pub fn tick(mut self, tick: Duration) -> Builder {
        self.tick = tick;
        self
    }

    /// A manual clock instead of the real one: time stands still until
    /// [`ManualClock::advance`](crate::ManualClock::advance) moves it.
    pub fn manual_clock(mut self) -> Builder {
        self.manual = true;
        self
    }

    /// Which version of the timer to run: [`Variant::Fixed`] unless a
    /// lesson asks for one of the buggy ones. Hidden from the docs, as the
    /// buggy versions are: it is for the tests and the exercises.
    #[doc(hidden)]
    pub fn variant(mut self, variant: Variant) -> Builder {
        self.variant = variant;
        self
    }

    /// Starts the driver thread.
    ///
    /// # Errors
    /// [`StartError::ZeroTick`] for a tick of zero; [`StartError::Spawn`]
    /// if the thread cannot be started (a name with a NUL byte in it).
    pub fn start(self) -> Result<Driver, StartError> {
        if self.tick.is_zero() {
            return Err(StartError::ZeroTick);
        }
        if self.name.contains('\0') {
            return Err(StartError::Spawn(format!(
                "the thread name {:?} contains a NUL byte",
                self.name
            )));
        }
        let shared = Arc::new(Shared {
            clock: Clock::new(self.tick, self.manual),
            variant: self.variant,
            state: Mutex::new(State {
                wheel: Levels::new(),
                plan: AWAKE,
                shut_down: false,
                driver: None,
                fired: 0,
                wakeups: 0,
            }),
        });
        Driver::spawn(shared, &self.name)
    }
}
