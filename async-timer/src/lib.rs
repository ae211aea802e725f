//! Stage 8: a timer for futures.
//!
//! Rust's timers mostly live behind `async`: `tokio::time::sleep` is a
//! future, and what makes it ready is a driver thread holding the waiting
//! tasks' `Waker`s in a hierarchical wheel. This stage builds that: a
//! [`Sleep`] future, [`timeout`](Handle::timeout) and [`Interval`] on
//! it, and a driver on stage 7's wheel ([`wheel::levels`]). It works
//! with any executor, since all it asks of one is a `Waker`: its tests
//! run it on the crate's own [`block_on`] and on the `futures` crate's
//! executors.
//!
//! ```text
//! let driver = Driver::start("timer")?;           // the driver thread
//! let handle = driver.handle();                    // makes timers, from any thread
//! block_on(handle.sleep(Duration::from_millis(50)))?;
//! let out = block_on(handle.timeout(Duration::from_secs(1), some_future));
//! let mut every = handle.interval(Duration::from_millis(10))?;
//! every.tick().await?;                             // inside a task
//! ```
//!
//! (A user's program would start one driver and hand its `Handle`
//! around; tokio finds its handle in the runtime's context instead. There
//! is no global driver here, since every thread this workspace starts is
//! joined, and each test wants a driver of its own.)
//!
//! Every earlier lesson comes back in a new form, one bug at a time (A1
//! to A7), and each buggy version is a file of its own, named for what it
//! is, chosen with `Builder::variant`; the buggy files and the switch are
//! public for the tests and the exercises, and hidden from these docs.
//! Read the files in this order, as the book does:
//!
//! 1. [`error`]: what a timer refuses with, and why a `Sleep` resolves to
//!    a `Result`.
//! 2. `clock.rs`: instants turned into tick numbers, rounded so that a
//!    timer is never early; the real clock, or a [`ManualClock`].
//! 3. `entry.rs`: the state a `Sleep` and the driver share, a status and
//!    a waker under one lock. Its poll looks and stores under that lock;
//!    `racy_poll.rs` lets go in between and loses the waker (A1, stage 3's
//!    C1 again); `first_waker_only.rs` keeps a stale one (A2).
//! 4. `handle.rs`: the driver's lock, and filing a timer: into the wheel,
//!    waking the driver if the timer is due before the driver's plan, or
//!    fired at once if already due. `unparks_idle_only.rs` wakes the
//!    driver only when it has no timer at all (A5, stage 2's S1 again).
//! 5. `sleep.rs`: the [`Sleep`] future; `reset`, and
//!    `reset_without_wake.rs` (A6); `Drop`, which takes the entry out by
//!    key, and `leaky_drop.rs`, which leaves it (A3, stage 6's T14 again).
//! 6. `driver.rs`: the driver thread: park until the next deadline, fire
//!    what is due, wake outside the lock; `wake_under_lock.rs` (A7).
//! 7. `timeout.rs` and `interval.rs`: a future raced against a `Sleep`,
//!    and an interval with three ways to handle missed ticks
//!    ([`MissedTickBehavior`], A8, stage 5's I5 again).
//! 8. [`block_on`]: the smallest executor, park and unpark; and
//!    [`blocking_wait`]: what a blocking call in a task does to the other
//!    tasks of a single-threaded executor (A4, stage 5's I4 again).
//!
//! The race windows carry `kit` pause points, named by the constants the
//! tests arm: [`POLL_WINDOW`] and `racy_poll::WINDOW`, a poll between
//! its look at the entry and the store of its waker (A1);
//! [`FIRE_WINDOW`] and `wake_under_lock::WINDOW`, the driver between
//! taking the due entries out of the wheel and firing them (A2, A7);
//! [`PARK_WINDOW`], the driver between choosing when to wake and parking
//! (A5). They compile to nothing outside test builds.
//!
//! Around them: `builder.rs` sets a driver up, `variant.rs` lists the
//! versions and is the one place the fixed code hands over to a buggy
//! one, `stats.rs` is what a driver reports, and `sync.rs` lets loom
//! check the driver, the entries and `block_on` (tests/loom_*.rs).

pub mod error;

mod clock;
mod entry;
mod handle;
mod sync;

mod sleep;

mod builder;
mod driver;
mod stats;
mod variant;

mod interval;
mod timeout;

mod block_on;
pub mod blocking_wait;

// The buggy versions: public for the tests, the examples and the
// exercises, hidden from the finished timer's docs (see `variant.rs`).
#[doc(hidden)]
pub mod first_waker_only;
#[doc(hidden)]
pub mod leaky_drop;
#[doc(hidden)]
pub mod racy_poll;
#[doc(hidden)]
pub mod reset_without_wake;
#[doc(hidden)]
pub mod unparks_idle_only;
#[doc(hidden)]
pub mod wake_under_lock;

pub use block_on::block_on;
pub use builder::Builder;
pub use clock::ManualClock;
pub use driver::{Driver, FIRE_WINDOW, PARK_WINDOW};
pub use entry::POLL_WINDOW;
pub use error::{StartError, TimeoutError, TimerError};
pub use handle::Handle;
pub use interval::{Interval, MissedTickBehavior};
pub use sleep::Sleep;
pub use stats::{Plan, Stats};
#[doc(hidden)]
pub use variant::Variant;
