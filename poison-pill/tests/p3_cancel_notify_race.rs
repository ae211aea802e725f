//! P3 `cancel_notify_race`: fix 1 (notify on cancel) wakes a thread that is
//! already waiting for a deadline, but a cancel that lands between the
//! thread's flag check and its wait notifies nobody; the thread then waits
//! the full 800 ms for its task's deadline.
//!
//! The scenario (tests/support): schedule a task due in 800 ms, hold the
//! timer thread at its point in the window, cancel from a client thread,
//! release the thread, then drop the timer (which joins the thread) and see
//! when that join returns.
//!
//! - notify_on_cancel.rs: the point is after `take`, before the thread
//!   locks the monitor; it read the flag at the top of the loop. The cancel
//!   sets the flag and notifies a monitor nobody waits on, and returns
//!   while the thread is held. Released, the thread waits to the deadline.
//! - poison_pill.rs, timer_style.rs: there is no such window. The thread
//!   looks and waits under one lock, and the point sits inside it: the
//!   client's cancel blocks until the thread waits, and then wakes it. (A
//!   point before that lock would show nothing: the thread would find the
//!   pill, or the flag, when it looks.)
//! - disconnect.rs: the point is between draining the channel and
//!   `recv_deadline`, in no lock. The cancel gets in, and it does not
//!   matter: a disconnect is the channel's state, which `recv_deadline`
//!   reports whenever it is called, not a notify that must find a waiter.
#![cfg(not(loom))]

mod support;

use poison_pill::{disconnect, notify_on_cancel, poison_pill as pill, timer_style};
use support::{Look, Run, Version, cancel_at, cancel_looking};

const LABEL: &str = "P3 cancel_notify_race";

fn window_run<T: Version>(prefix: &str) -> Run {
    cancel_at::<T>(prefix, T::WINDOW, true)
}

#[test]
fn p3_cancel_notify_race_reproduces() {
    // Looked at until the correctness check's bound, not the deadline.
    let run = cancel_looking::<notify_on_cancel::Timer>(
        "p3-notify",
        notify_on_cancel::Timer::WINDOW,
        true,
        Look::ToTheBound,
    );
    assert!(
        run.cancel_got_in,
        "precondition: the cancel (and its notify) came while the thread was in the window\n{}",
        run.rec.log()
    );
    // The notify was lost: the thread waits for the deadline.
    run.assert_waits_for_deadline();
}

#[test]
fn p3_cancel_notify_race_fixed() {
    let run = window_run::<pill::Timer>("p3-pill");
    assert!(
        !run.cancel_got_in,
        "the cancel got past the queue's lock\n{}",
        run.rec.log()
    );
    run.assert_ends_soon(LABEL);
}

#[test]
fn p3_cancel_notify_race_fixed_in_disconnect() {
    let run = window_run::<disconnect::Timer>("p3-disc");
    assert!(
        run.cancel_got_in,
        "disconnect.rs's cancel takes no lock the thread holds\n{}",
        run.rec.log()
    );
    run.assert_ends_soon(LABEL);
}

#[test]
fn p3_cancel_notify_race_fixed_in_timer_style() {
    let run = window_run::<timer_style::Timer>("p3-tstyle");
    assert!(
        !run.cancel_got_in,
        "the cancel got past the timer's lock\n{}",
        run.rec.log()
    );
    run.assert_ends_soon(LABEL);
}

#[test]
#[ignore = "P3 cancel_notify_race: shows the bug in notify_on_cancel.rs"]
fn p3_cancel_notify_race_on_notify_on_cancel() {
    window_run::<notify_on_cancel::Timer>("p3-notify").assert_ends_soon(LABEL);
}
