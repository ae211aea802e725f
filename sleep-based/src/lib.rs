//! Stage 2: a timer thread that sleeps until the next task is due.
//!
//! Read the files in this order, as the book's *A timer that oversleeps* does:
//!
//! 1. [`error`]: the one way scheduling can fail here (as in stage 1).
//! 2. [`sleep_until`]: the timer: a priority queue, and a thread that takes
//!    the earliest task and sleeps until it is due. No CPU while it waits (S2,
//!    stage 1's N1 fixed), but blind while it sleeps: a task submitted
//!    meanwhile, due sooner, waits for the sleep to end (S1).

pub mod error;
pub mod sleep_until;

pub use error::ScheduleError;
pub use sleep_until::Timer;
