//! Stage 1: a timer thread looping over a blocking queue.
//!
//! Read the files in this order, as the book's *A timer that burns a core* does:
//!
//! 1. [`clock`]: where a deadline's "now" comes from: the wall clock (as
//!    java.util.Timer's `System.currentTimeMillis`), the monotonic clock, and
//!    a wall clock an administrator can set back (N3).
//! 2. [`error`]: the one way scheduling can fail here.
//! 3. [`busy_loop`]: the timer: take a task, run it if due, else put it back.
//!    With a task pending it burns a core (N1); with nothing queued it costs
//!    nothing (N2). Stage 2 (`sleep-based`) removes the burn.

pub mod busy_loop;
pub mod clock;
pub mod error;

pub use busy_loop::Timer;
pub use clock::{Clock, MonotonicClock, SettableWallClock, WallClock};
pub use error::ScheduleError;
