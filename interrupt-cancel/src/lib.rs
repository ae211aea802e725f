//! Stage 5: cooperative interruption, and a Timer to use.
//!
//! Read the files in this order, as the book does:
//!
//! 1. [`interrupt`]: Rust threads cannot be interrupted, so we build it: a
//!    handle raises, the thread's token checks, and every blocking
//!    operation answers with `Err(Interrupted)` (I1).
//! 2. [`interruptible_queue`]: a delay queue whose `take` observes the
//!    interrupt while the queue is empty and while the head is not due:
//!    stage 4's P1 and P2, both gone (I1).
//! 3. [`interrupted_only`]: the timer of I1, `cancel` interrupts its
//!    thread. It refuses work only when interrupted, so a thread killed by
//!    a panicking task leaves a timer that accepts tasks and never runs
//!    them (I2 `interrupted_or_dead`, I6 `panic_kills_timer`).
//! 4. [`interrupted_or_dead`]: the Java Timer article's check, interrupted
//!    *or* finished (I2 fixed).
//! 5. [`refuses_when_dead`]: java.util.Timer's answer to a dying thread: it
//!    closes its queue on the way out; `schedule` is refused under the
//!    queue's lock (I6, the first fix).
//! 6. [`timer`]: the finished Timer: the panic is caught and reported and
//!    the thread goes on (I6 fixed), tasks can be asked to stop (I3), one
//!    thread delays tasks (I4), fixed delay vs fixed rate (I5), and the
//!    whole java.util.Timer API (I7).
//!
//! [`error`] is what `schedule` refuses with; `sync.rs` is parking_lot's
//! `Mutex` and `Condvar`, or loom's under `--cfg loom`, with a clock loom
//! can freeze, so that the loom models check the code that ships.

pub mod interrupt;
pub mod interrupted_only;
pub mod interrupted_or_dead;
pub mod interruptible_queue;
pub mod refuses_when_dead;
pub mod timer;

pub mod error;

mod sync;
