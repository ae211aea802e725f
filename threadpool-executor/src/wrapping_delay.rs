//! T15 `fixed_delay_overflow` (JDK-8051859), the buggy version: a periodic
//! task's next deadline computed as Java computes it, `time = now + delay`
//! on a 64-bit integer that wraps around.
//!
//! A fixed delay of about 584 years (`u64::MAX` nanoseconds; Java's case
//! was `Long.MAX_VALUE`, 292 years) added to "now" wraps past the top of
//! the clock and lands just *before* now. The task is then due before
//! everything else in the queue, and stays so: after each run its next
//! deadline wraps again. On a pool of one thread it runs back to back,
//! forever, and a one-shot task due in 50 ms never gets the thread.
//!
//! Java's `triggerTime` already guarded the *first* deadline against
//! overflow (`overflowFree`); the periodic path, `setNextRunTime`, did not.
//! The fix, [`Period::next_deadline`] in scheduled.rs, computes with
//! [`Deadline::after`], which saturates at [`Deadline::FOREVER`]: a delay
//! too long for the clock means "never again", and deadlines are
//! compared, never subtracted.

use crate::deadline::Deadline;
use crate::scheduled::Period;

// ANCHOR: wrapping_next_deadline
/// The next deadline, with wrapping arithmetic.
pub(crate) fn next_deadline(period: Period, due: Deadline, ended: Deadline) -> Deadline {
    let (from, by) = match period {
        Period::FixedRate(period) => (due, period),
        Period::FixedDelay(delay) => (ended, delay),
    };
    // As Java's `unit.toNanos`, saturating at the top of the type...
    let nanos = u64::try_from(by.as_nanos()).unwrap_or(u64::MAX);
    // ...and then Java's `+` on a `long`: it wraps.
    Deadline::from_nanos(from.as_nanos().wrapping_add(nanos))
}
// ANCHOR_END: wrapping_next_deadline
