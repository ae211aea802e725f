//! The test kit shared by every stage of the workspace.
//!
//! A stage's own files teach timers; this crate holds what their tests need
//! so that no stage repeats test scaffolding:
//!
//! - [`pause`]: pause points that hold a named thread at a named point in the
//!   code (the race window) until the test releases it. They compile to an
//!   empty function unless the `pause-points` feature is on, which only test,
//!   example and bench builds turn on.
//! - [`cpu`]: the CPU time of one thread, read from Linux's per-thread clock.
//! - [`gate`]: a gate tasks wait at until the test opens it.
//! - `pg` (feature `pg`): a throwaway PostgreSQL server for tests, one per
//!   test binary, from the machine's installation.
//! - [`recorder`]: who did what, and when, relative to a start instant; with
//!   "eventually within" and "still not after" waits built on those events.
//! - [`scale`]: one delay factor, read from `KIT_TIME_SCALE`, that stretches
//!   every duration a test uses on a slow machine.
//! - [`table`]: Markdown tables shaped for a terminal (aligned columns, or
//!   a block per row), for a run a class reads on a projector.
//! - [`threads`]: unique thread names, and "this thread is gone".
//! - [`timeline`]: a thread's states over a real run (waiting, busy, running
//!   a task), sampled from its CPU clock and drawn as text or SVG.
//! - [`wait`]: "eventually, within": a condition polled up to a deadline.

pub mod cpu;
pub mod gate;
pub mod jdk_run;
pub mod pause;
#[cfg(feature = "pg")]
pub mod pg;
pub mod recorder;
pub mod scale;
pub mod table;
pub mod threads;
pub mod timeline;
pub mod wait;

pub use pause::{PAUSE_POINTS_COMPILED, pause_point};
pub use recorder::Recorder;
pub use scale::ms;
pub use wait::eventually;
