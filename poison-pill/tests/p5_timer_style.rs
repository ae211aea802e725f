//! P5 (fact): java.util.Timer needs no pill. Its flag lives under the
//! queue's lock, the lock its thread holds while it looks at the flag and
//! the head and waits, and `cancel` sets the flag and notifies under that
//! same lock. So a cancel lands before the thread looks (it sees the flag)
//! or while it waits (the notify wakes it), with an empty queue as with a
//! far task.
#![cfg(not(loom))]

mod support;

use poison_pill::timer_style;
use support::{Situation, Version, cancel_at, cancel_in};

#[test]
fn p5_timer_style_needs_no_pill() {
    // At both points where the thread is about to wait (nothing queued; a
    // task due far out), the thread holds the lock: the cancel waits for
    // the wait to begin, and its notify ends it.
    for (point, far_task) in [
        (timer_style::Timer::IDLE, false),
        (timer_style::Timer::WAIT, true),
    ] {
        let run = cancel_at::<timer_style::Timer>("p5-tstyle", point, far_task);
        assert!(
            !run.cancel_got_in,
            "the cancel got past the lock at {point:?}\n{}",
            run.rec.log()
        );
        run.assert_ends_soon(&format!("P5 timer_style at {point:?}"));
    }
}

#[test]
fn p5_timer_style_stops_in_every_situation() {
    for situation in [
        Situation::RunningQueueEmpty,
        Situation::RunningQueued,
        Situation::IdleQueueEmpty,
        Situation::IdleQueued,
    ] {
        cancel_in::<timer_style::Timer>("p5-sit", situation)
            .assert_clean_stop(&format!("P5 timer_style.rs, {situation:?}"));
    }
}
