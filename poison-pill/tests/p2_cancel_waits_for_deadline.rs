//! P2 `cancel_waits_for_deadline`: one task is queued, due in 800 ms (the
//! Java Timer article's "10 hours", scaled), and the timer thread is waiting
//! for it. After `cancel` the thread stays in that timed wait until the
//! deadline, then reads the flag and ends without running the task.
//!
//! The scenario (tests/support): schedule the task, hold the thread at the
//! last point before its timed wait, cancel from a client thread, release
//! the thread, then drop the timer (which joins the thread) and see when
//! that join returns.
//!
//! - cancel_flag.rs: the point is inside the monitor, just before the wait.
//!   The cancel only sets the flag, and nothing between that point and the
//!   wait reads it; so whether the flag is set just before the wait or
//!   during it, the wait runs to the deadline.
//! - notify_on_cancel.rs (fix 1): its cancel needs the monitor the thread
//!   holds there, so it waits until the thread is waiting, and its notify
//!   wakes it: P2 is fixed when the thread is already waiting (P3 is what
//!   happens when it is not).
//! - poison_pill.rs, timer_style.rs: the point is inside the lock the
//!   cancel needs: the pill or the flag arrives during the wait, with a
//!   notify. disconnect.rs: `recv_deadline` returns the disconnect at once.
#![cfg(not(loom))]

mod support;

use poison_pill::{cancel_flag, disconnect, notify_on_cancel, poison_pill as pill, timer_style};
use support::{Look, Run, Version, cancel_at, cancel_looking};

const LABEL: &str = "P2 cancel_waits_for_deadline";

fn waiting_run<T: Version>(prefix: &str) -> Run {
    cancel_at::<T>(prefix, T::WAIT, true)
}

#[test]
fn p2_cancel_waits_for_deadline_reproduces() {
    // Looked at until the correctness check's bound, not the deadline.
    let run = cancel_looking::<cancel_flag::Timer>(
        "p2-flag",
        cancel_flag::Timer::WAIT,
        true,
        Look::ToTheBound,
    );
    run.assert_waits_for_deadline();
}

#[test]
fn p2_cancel_waits_for_deadline_fixed() {
    let run = waiting_run::<pill::Timer>("p2-pill");
    assert!(
        !run.cancel_got_in,
        "the cancel got past the queue's lock\n{}",
        run.rec.log()
    );
    run.assert_ends_soon(LABEL);
}

#[test]
fn p2_cancel_waits_for_deadline_fixed_by_notify_when_waiting() {
    let run = waiting_run::<notify_on_cancel::Timer>("p2-notify");
    assert!(
        !run.cancel_got_in,
        "the cancel got past the monitor the thread held\n{}",
        run.rec.log()
    );
    run.assert_ends_soon(LABEL);
}

#[test]
fn p2_cancel_waits_for_deadline_fixed_in_disconnect() {
    let run = waiting_run::<disconnect::Timer>("p2-disc");
    run.assert_ends_soon(LABEL);
}

#[test]
fn p2_cancel_waits_for_deadline_fixed_in_timer_style() {
    let run = waiting_run::<timer_style::Timer>("p2-tstyle");
    assert!(
        !run.cancel_got_in,
        "the cancel got past the timer's lock\n{}",
        run.rec.log()
    );
    run.assert_ends_soon(LABEL);
}

#[test]
#[ignore = "P2 cancel_waits_for_deadline: shows the bug in cancel_flag.rs"]
fn p2_cancel_waits_for_deadline_on_cancel_flag() {
    waiting_run::<cancel_flag::Timer>("p2-flag").assert_ends_soon(LABEL);
}
