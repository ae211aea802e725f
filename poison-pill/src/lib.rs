//! Stage 4: cancellation. How to stop a timer whose thread is blocked.
//!
//! Read the files in this order, as the book does:
//!
//! 1. [`cancel_flag`]: the Java Timer article's first try, a flag the thread
//!    reads at the top of its loop; it never ends when idle (P1) and ends
//!    only at the head's deadline when a task is queued (P2).
//! 2. [`notify_on_cancel`]: fix 1, `cancel` also notifies the monitor; it
//!    wakes a thread already waiting, and is lost on one that is about to
//!    wait (P3). P1 stays.
//! 3. [`poison_pill`]: fix 2, a pill that sorts first in a queue the thread
//!    does all its waiting in (P4).
//! 4. [`disconnect`]: the Rust idiom, a pill the type system delivers:
//!    dropping the last `Sender` wakes the receiver with an error.
//! 5. [`timer_style`]: java.util.Timer's way, one lock over the queue and the
//!    cancelled flag, and no pill (P5).
//!
//! Every fixed version behaves as java.util.Timer after a cancel (P6): see
//! [`error::ScheduleError::Cancelled`] and each `Timer::cancel`.
//!
//! [`error`] is what scheduling refuses with; `sync.rs` is std's `Mutex`
//! and `Condvar`, or loom's under `--cfg loom`, with a clock loom can
//! freeze, so that the loom models check the code that ships.

pub mod cancel_flag;
pub mod disconnect;
pub mod notify_on_cancel;
pub mod poison_pill;
pub mod timer_style;

pub mod error;

mod sync;
