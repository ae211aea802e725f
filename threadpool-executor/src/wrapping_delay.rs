//! T15 `fixed_delay_overflow` (JDK-8051859), the buggy version: a periodic
//! task's next deadline computed as Java computes it, `time = now + delay`
//! on a signed 64-bit `long` that wraps around.
//!
//! Java counts `System.nanoTime()` in a `long`. A fixed delay of
//! `Long.MAX_VALUE` nanoseconds (292 years) added to any positive "now"
//! wraps past the top into the negative numbers: a time far *before* any
//! real deadline. The task is then due before everything else in the
//! queue, and stays so: after each run its next deadline wraps again. On
//! a pool of one thread it runs back to back, forever, and a one-shot task
//! due in 50 ms never gets the thread.
//!
//! Java's `triggerTime` already guarded a task's *first* deadline against
//! overflow (`overflowFree`); the periodic path did not. Our deadlines
//! count from an origin and cannot be negative, so this file maps a
//! negative Java time to the origin itself: the earliest deadline there
//! is, which is where Java's comparison put it.
//!
//! The fix, [`Period::next_deadline`] in scheduled.rs, computes with
//! [`Deadline::after`], which saturates at [`Deadline::FOREVER`]: a delay
//! too long for the clock means "never again", and deadlines are
//! compared, never subtracted.

use crate::deadline::Deadline;
use crate::scheduled::Period;

// ANCHOR: wrapping_next_deadline
/// The next deadline, with Java's wrapping `long` arithmetic.
pub(crate) fn next_deadline(period: Period, due: Deadline, ended: Deadline) -> Deadline {
    let (from, by) = match period {
        Period::FixedRate(period) => (due, period),
        Period::FixedDelay(delay) => (ended, delay),
    };
    // Java's times and `unit.toNanos`: signed, saturating at Long.MAX_VALUE...
    let time = i64::try_from(from.as_nanos()).unwrap_or(i64::MAX);
    let delay = i64::try_from(by.as_nanos()).unwrap_or(i64::MAX);
    // ...and then Java's `+` on a `long`: it wraps, here to a negative time.
    let next = time.wrapping_add(delay);
    // Before the origin: the earliest deadline of all.
    Deadline::from_nanos(u64::try_from(next).unwrap_or(0))
}
// ANCHOR_END: wrapping_next_deadline
