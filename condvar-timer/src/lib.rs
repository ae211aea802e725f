//! Stage 3: a timer built on wait/notify (`Mutex` + `Condvar`).
//!
//! Read the files in this order, as the book does:
//!
//! 1. [`racy`]: the Java Timer article's "serious solution", with its lost
//!    wake-up (C1) and its take-then-put-back churn (C3).
//! 2. [`comparator_overflow`]: that article's `(a - b).toInt` ordering (C2).
//! 3. [`timer_style`]: java.util.Timer's way: one lock guards the queue and
//!    the wait (C4).
//! 4. [`semaphore`] and [`something_changed`]: the C++ TimerQueue post's
//!    queue, with a counting semaphore that remembers a notify (C5–C8).
//! 5. [`cancel_all_skips_cancelled`]: that TimerQueue's historical
//!    `cancel_all` bug, kept so a test can show it (C7).
//!
//! [`error`] is what scheduling refuses with; `sync.rs` is std's `Mutex`
//! and `Condvar`, or loom's under `--cfg loom`, with a clock loom can
//! freeze, so that the loom models check the code that ships.

pub mod cancel_all_skips_cancelled;
pub mod comparator_overflow;
pub mod racy;
pub mod semaphore;
pub mod something_changed;
pub mod timer_style;

pub mod error;

mod sync;
