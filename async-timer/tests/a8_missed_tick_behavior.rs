//! A8 `missed_tick_behavior`: what an interval hands out after its
//! consumer stalls (stage 5's I5, fixed rate and fixed delay, again).
//!
//! Counted, not timed: the driver runs on a manual clock, which moves
//! only when the test moves it, so "the consumer stalls for 3.5 periods"
//! is exact. After each move the test waits for the driver to finish its
//! turn, then takes every tick that is ready without time moving.
//!
//! With a period P, the first tick at 0, and a stall until 3.5 P:
//!
//! | now    | Burst          | Delay  | Skip  |
//! |--------|----------------|--------|-------|
//! | 0      | 0              | 0      | 0     |
//! | 3.5 P  | P, 2 P, 3 P    | P      | P     |
//! | 4 P    | 4 P            | —      | 4 P   |
//! | 4.5 P  | —              | 4.5 P  | —     |
//!
//! Burst makes up every missed tick (fixed rate); Delay starts again one
//! period after the late tick (fixed delay); Skip drops the missed ticks
//! and keeps the rhythm.
#![cfg(not(loom))]

mod support;

use std::time::{Duration, Instant};

use async_timer::{Handle, Interval, ManualClock, MissedTickBehavior, Plan, Variant};
use kit::eventually;
use support::TaskWaker;

/// The period, in ticks of the manual clock (1 ms each).
const PERIOD: Duration = Duration::from_millis(10);
/// Whole periods missed by the stall (then half of one more).
const STALLED: u32 = 3;

/// Every tick the interval has ready now, as periods since `t0` (in
/// tenths, so 3.5 periods is 35).
fn ready_now(interval: &mut Interval, task: &TaskWaker, t0: Instant) -> Vec<u128> {
    let waker = task.waker();
    let mut ticks = Vec::new();
    let mut cx = std::task::Context::from_waker(&waker);
    while let std::task::Poll::Ready(tick) = interval.poll_tick(&mut cx) {
        let tick = tick.expect("the driver runs");
        ticks.push((tick - t0).as_micros() * 10 / PERIOD.as_micros());
        assert!(ticks.len() < 100, "an interval that never stops ticking");
    }
    ticks
}

/// Moves the clock by `by`, then waits until the driver has done
/// everything due: it is not in the middle of a turn, and nothing in the
/// wheel is due.
fn advance(clock: &ManualClock, handle: &Handle, by: Duration) {
    clock.advance(by);
    let settled = eventually(kit::ms(2000), || {
        let stats = handle.stats();
        stats.plan != Plan::Working && stats.next.is_none_or(|next| next > clock.now())
    });
    assert!(settled, "the driver never caught up with the clock");
}

/// The ticks handed out at 0, 3.5 P, 4 P and 4.5 P.
fn ticks_after_stall(behavior: MissedTickBehavior) -> [Vec<u128>; 4] {
    let driver = support::manual_driver("a8", Variant::Fixed);
    let (handle, clock) = (driver.handle(), driver.manual_clock().expect("manual"));
    let rec = kit::Recorder::new();
    let task = TaskWaker::new(&rec, "consumer");
    let t0 = handle.now();
    let mut interval = handle.interval(PERIOD).expect("a valid period");
    interval.set_missed_tick_behavior(behavior);

    let at_start = ready_now(&mut interval, &task, t0);
    advance(&clock, &handle, PERIOD * STALLED + PERIOD / 2);
    let after_stall = ready_now(&mut interval, &task, t0);
    advance(&clock, &handle, PERIOD / 2);
    let next = ready_now(&mut interval, &task, t0);
    advance(&clock, &handle, PERIOD / 2);
    let after_that = ready_now(&mut interval, &task, t0);
    [at_start, after_stall, next, after_that]
}

#[test]
fn a8_missed_tick_behavior() {
    use MissedTickBehavior::{Burst, Delay, Skip};
    let want: [(MissedTickBehavior, [&[u128]; 4]); 3] = [
        (Burst, [&[0], &[10, 20, 30], &[40], &[]]),
        (Delay, [&[0], &[10], &[], &[45]]),
        (Skip, [&[0], &[10], &[40], &[]]),
    ];
    for (behavior, want) in want {
        let got = ticks_after_stall(behavior);
        let counts = got.each_ref().map(Vec::len);
        assert_eq!(
            got,
            want.map(<[u128]>::to_vec),
            "A8 missed_tick_behavior: {behavior:?} after a stall of {STALLED}.5 periods handed \
             out {counts:?} ticks at 0, 3.5, 4 and 4.5 periods (the ticks, in tenths of a period)"
        );
    }
}
