//! C2 `comparator_overflow`: the Java Timer article orders deadlines with
//! `(a - b).toInt`. For two deadlines 2^31 to 2^32 ms apart (about 24.8 to
//! 49.7 days) the difference wraps to a negative `Int`, and the later one is
//! taken first.
#![cfg(not(loom))]

use std::time::{Duration, Instant};

use condvar_timer::comparator_overflow::{
    WRAPS_AT_MS, article_compare, article_take_order, fixed_take_order,
};
use condvar_timer::timer_style::Timer;
use kit::{Recorder, ms, threads};

/// A wall-clock reading in milliseconds, as `System.currentTimeMillis`
/// returns (any value shows the bug; this one is in November 2023).
const NOW_MS: i64 = 1_700_000_000_000;
const SOON_MS: i64 = 1_000;
const DAY_MS: i64 = 24 * 60 * 60 * 1000;
const LATER_MS: i64 = 25 * DAY_MS;

/// The correctness check, on deadlines in milliseconds: the queue hands
/// them out earliest first.
fn assert_earliest_first(order: &[i64]) {
    let soon = NOW_MS + SOON_MS;
    let later = NOW_MS + LATER_MS;
    assert_eq!(
        order,
        [soon, later],
        "C2 comparator_overflow: the task due in 25 days ({later} ms, now + {LATER_MS} ms) \
         is taken before the task due in 1 s ({soon} ms, now + {SOON_MS} ms): \
         their difference ({} ms) is beyond i32::MAX and wrapped",
        later - soon
    );
}

#[test]
fn c2_comparator_overflow_reproduces() {
    let soon = NOW_MS + SOON_MS;
    let later = NOW_MS + LATER_MS;
    assert!(
        later - soon >= WRAPS_AT_MS,
        "the scenario needs a gap beyond 2^31 ms"
    );
    // The article's comparator says the later deadline is the smaller one...
    assert_eq!(article_compare(later, soon), std::cmp::Ordering::Less);
    assert_eq!(article_compare(soon, later), std::cmp::Ordering::Greater);
    // ...so its queue hands out the task due in 25 days first.
    assert_eq!(article_take_order(&[soon, later]), [later, soon]);
    assert_eq!(article_take_order(&[later, soon]), [later, soon]);
    // Below the wrap, the article's comparator is right.
    let near = NOW_MS + 24 * DAY_MS;
    assert_eq!(article_take_order(&[near, soon]), [soon, near]);
}

#[test]
fn c2_comparator_overflow_fixed() {
    let now = Instant::now();
    let soon = now + Duration::from_millis(SOON_MS as u64);
    let later = now + Duration::from_millis(LATER_MS as u64);
    assert_eq!(fixed_take_order(&[soon, later]), [soon, later]);
    // The same check as the ignored test, with the deadlines in ms.
    let as_ms = |deadline: Instant| NOW_MS + (deadline - now).as_millis() as i64;
    let order: Vec<i64> = fixed_take_order(&[later, soon])
        .into_iter()
        .map(as_ms)
        .collect();
    assert_earliest_first(&order);

    // And a real timer ordered by Instant: a task due in 25 days does not
    // get in the way of one due in 50 ms.
    let name = threads::unique_name("c2-tstyle");
    let timer = Timer::new(&name).unwrap();
    let rec = Recorder::new();
    let r = rec.clone();
    timer
        .schedule(Duration::from_millis(LATER_MS as u64), move || {
            r.record("task due in 25 days ran");
        })
        .unwrap();
    let due = rec.record_as("test", "schedule task due in 50 ms") + ms(50);
    let r = rec.clone();
    timer
        .schedule(ms(50), move || {
            r.record("task due in 50 ms ran");
        })
        .unwrap();
    let ran = rec
        .eventually("task due in 50 ms ran", ms(5000))
        .expect("the task due in 50 ms never ran");
    assert!(
        ran <= due + ms(300),
        "ran at {} ms\n{}",
        ran.as_millis(),
        rec.log()
    );
    assert_eq!(rec.count("task due in 25 days ran"), 0);
    drop(timer);
    threads::assert_gone(&name);
}

#[test]
#[ignore = "C2 comparator_overflow: shows the bug in comparator_overflow.rs"]
fn c2_comparator_overflow_on_article_comparator() {
    assert_earliest_first(&article_take_order(&[NOW_MS + SOON_MS, NOW_MS + LATER_MS]));
}
