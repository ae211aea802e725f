//! The seed's comparator, ported faithfully, and the order it induces (C2).
//!
//! The seed orders its queue by `(o1._2 - o2._2).toInt`: the difference of
//! two deadlines in milliseconds (a `Long`), cut down to an `Int`. Scala's
//! `toInt` keeps the low 32 bits, so a difference beyond `i32::MAX` ms
//! (about 24.8 days) wraps around and changes sign: the later deadline then
//! compares as the earlier one and is taken first.
//!
//! The timers of this stage order by [`Instant`]'s own `Ord`: no
//! subtraction, nothing to overflow.

use std::cmp::Ordering;
use std::time::Instant;

/// Differences of this many milliseconds and more wrap in the seed's
/// comparator: 2^31 ms, 24 days 20 h 31 min 23.648 s.
pub const WRAPS_AT_MS: i64 = 1 << 31;

// ANCHOR: seed_compare
/// The seed's comparator on two deadlines in milliseconds since the epoch:
/// `(a - b).toInt`, then its sign.
pub fn seed_compare(a_ms: i64, b_ms: i64) -> Ordering {
    // Long arithmetic wraps in the JVM, and `toInt` keeps the low 32 bits:
    // `wrapping_sub` and `as i32` do exactly that.
    let difference = a_ms.wrapping_sub(b_ms) as i32;
    difference.cmp(&0)
}
// ANCHOR_END: seed_compare

/// The fixed comparator: [`Instant`]'s `Ord`.
pub fn compare(a: &Instant, b: &Instant) -> Ordering {
    a.cmp(b)
}

/// The order in which a priority queue ordered by `cmp` hands out
/// `deadlines`: each time, the one that no other compares below (the
/// first such on a tie), as `take` would.
///
/// A plain selection, not `sort_by`: the seed's comparator is not a total
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

/// The order the seed's queue takes deadlines given in milliseconds.
pub fn seed_take_order(deadlines_ms: &[i64]) -> Vec<i64> {
    take_order(deadlines_ms, |a, b| seed_compare(*a, *b))
}

/// The order the fixed queue takes deadlines: earliest first.
pub fn fixed_take_order(deadlines: &[Instant]) -> Vec<Instant> {
    take_order(deadlines, compare)
}
