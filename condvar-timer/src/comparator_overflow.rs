//! The Java Timer article's comparator, ported faithfully, and the order it
//! induces (C2).
//!
//! The article orders its queue by `(o1._2 - o2._2).toInt`: the difference
//! of two deadlines in milliseconds (a `Long`), cut down to an `Int`.
//! Scala's `toInt` keeps the low 32 bits. A difference from 2^31 to 2^32 ms
//! (about 24.8 to 49.7 days) always comes out negative, so the later
//! deadline compares as the earlier one and is taken first; beyond that the
//! sign is whatever bit 31 of the difference happens to be.
//!
//! The timers of this stage order by [`Instant`]'s own `Ord`: no
//! subtraction, nothing to overflow.

use std::cmp::Ordering;
use std::time::Instant;

/// Differences of this many milliseconds and more wrap in the article's
/// comparator: 2^31 ms, 24 days 20 h 31 min 23.648 s.
pub const WRAPS_AT_MS: i64 = 1 << 31;

// ANCHOR: article_compare
/// The article's comparator on two deadlines in milliseconds since the
/// epoch: `(a - b).toInt`, then its sign.
pub fn article_compare(a_ms: i64, b_ms: i64) -> Ordering {
    // Long arithmetic wraps in the JVM, and `toInt` keeps the low 32 bits:
    // `wrapping_sub` and `as i32` do exactly that.
    let difference = a_ms.wrapping_sub(b_ms) as i32;
    difference.cmp(&0)
}
// ANCHOR_END: article_compare

/// The fixed comparator: [`Instant`]'s `Ord`.
pub fn compare(a: &Instant, b: &Instant) -> Ordering {
    a.cmp(b)
}

/// The order in which a priority queue ordered by `cmp` hands out
/// `deadlines`: each time, the one that no other compares below (the
/// first such on a tie), as `take` would.
///
/// A plain selection, not `sort_by`: the article's comparator is not a total
/// order, and the standard sorts may panic when given one.
pub fn take_order<T: Clone>(deadlines: &[T], cmp: impl Fn(&T, &T) -> Ordering) -> Vec<T> {
    let mut left = deadlines.to_vec();
    let mut order = Vec::with_capacity(left.len());
    while !left.is_empty() {
        let mut head = 0;
        for i in 1..left.len() {
            if cmp(&left[i], &left[head]) == Ordering::Less {
                head = i;
            }
        }
        order.push(left.remove(head));
    }
    order
}

/// The order the article's queue takes deadlines given in milliseconds.
pub fn article_take_order(deadlines_ms: &[i64]) -> Vec<i64> {
    take_order(deadlines_ms, |a, b| article_compare(*a, *b))
}

/// The order the fixed queue takes deadlines: earliest first.
pub fn fixed_take_order(deadlines: &[Instant]) -> Vec<Instant> {
    take_order(deadlines, compare)
}
