//! T15 `fixed_delay_overflow` (JDK-8051859), the buggy version: a periodic
//! task's next deadline computed on a signed 64-bit `long` that wraps
//! around, as Java's time arithmetic does.
//!
//! This is a model of the bug's outcome, not a replay of the JDK's steps.
//! In Java 8, `scheduleWithFixedDelay` stored the period as
//! `unit.toNanos(-delay)`; a delay of `Long.MAX_VALUE` seconds saturated to
//! `Long.MIN_VALUE`, whose negation overflows back to itself, and the next
//! time, now plus a negative delay, ordered (by the sign of a difference)
//! before a one-shot task submitted later. The task sat at the head, not
//! due, and the one-shot task behind it never ran on a pool of one thread.
//! (JDK-6725789 was the same outcome reached through the comparison
//! itself: `a - b` overflowing when two times are more than
//! `Long.MAX_VALUE` apart.)
//!
//! Here a fixed delay of `Long.MAX_VALUE` nanoseconds (292 years) is added
//! to "now" with the `long`'s wrapping `+`: the sum wraps into the
//! negative numbers, a time before every real deadline. Our deadlines
//! count from an origin and cannot be negative, so this file maps a
//! negative time to the origin itself: the earliest deadline there is.
//! In ours that is also *due*, so the task runs back to back where the
//! JDK's sat at the head; either way, a one-shot task due in 50 ms never
//! gets the pool's one thread.
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
