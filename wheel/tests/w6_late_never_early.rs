//! W6 `late_never_early` (fact): on the fixed hashed wheel a task fires at
//! most one tick late, and never early.
//!
//! Why: the deadline is an instant (nanoseconds since the wheel started),
//! and the tick it is filed under is that instant divided by the tick
//! length, rounded **up** (`hashed_core::ticks_for`). The ticker expires
//! tick `k` no sooner than `start + k * tick`, so nothing fires before its
//! deadline; and rounding up adds less than one tick. Round down instead,
//! or truncate the delay as the CAS hashed wheel timer post does, and a
//! task fires up to a tick early.
//!
//! - `w6_late_never_early`: 50 delays spread over three revolutions of a
//!   real wheel (10 ms tick, 8 slots), on and off the tick grid; each task
//!   notes when it ran. None ran before its delay; none later than its
//!   delay plus one tick plus a little for the ticker to be scheduled.
//! - `w6_late_never_early_rounds_up`: the rounding itself, exact, on the
//!   core with no clock: the due tick of a deadline, and the tick the core
//!   fires it at.
#![cfg(not(loom))]

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use wheel::OnTicker;
use wheel::hashed::{HashedConfig, HashedWheel};
use wheel::hashed_core::{HashedCore, ticks_for};

const SLOTS: usize = 8;
const TASKS: usize = 50;
/// What the ticker may take, beyond the one tick, to wake and run the task
/// on a busy machine.
const SLACK_MS: u64 = 15;

fn tick() -> Duration {
    kit::ms(10)
}

/// The `i`th delay, in ticks: random-looking fractions spread over three
/// revolutions (a fixed sequence, so every run tries the same ones), with
/// the edges first: nothing, exactly one tick, exactly one revolution, and
/// a hair past it.
fn delay_in_ticks(i: usize) -> f64 {
    let revolution = SLOTS as f64;
    match i {
        0 => 0.0,
        1 => 1.0,
        2 => revolution,
        3 => revolution + 0.001,
        _ => {
            // Multiplicative hashing: i * (golden ratio), fractional part.
            let spread = (i as f64 * 0.618_033_988_75).fract();
            spread * 3.0 * revolution
        }
    }
}

#[test]
fn w6_late_never_early() {
    let name = kit::threads::unique_name("w6");
    let tick = tick();
    let wheel = HashedWheel::start(
        HashedConfig { tick, slots: SLOTS },
        Arc::new(OnTicker),
        &name,
    )
    .unwrap();
    let ran: Arc<Mutex<Vec<Option<Instant>>>> = Arc::new(Mutex::new(vec![None; TASKS]));
    let mut asked = Vec::with_capacity(TASKS);
    for i in 0..TASKS {
        let delay = tick.mul_f64(delay_in_ticks(i));
        let ran = Arc::clone(&ran);
        // The wheel reads its clock, and sends, between these two instants:
        // its deadline lies in [before + delay, after + delay]. "Not
        // before" is measured from the first, "at most a tick late" from
        // the second, so that a test thread preempted inside `schedule`
        // on a busy machine is not counted as the wheel's lateness.
        let before = Instant::now();
        wheel
            .schedule(
                delay,
                Box::new(move || ran.lock().unwrap()[i] = Some(Instant::now())),
            )
            .unwrap();
        let after = Instant::now();
        asked.push((delay, before + delay, after + delay));
    }
    let last = asked.iter().map(|(d, ..)| *d).max().unwrap();
    let all_ran = kit::eventually(last + kit::ms(1000), || {
        ran.lock().unwrap().iter().all(Option::is_some)
    });
    let ran = ran.lock().unwrap().clone();
    assert!(all_ran, "W6: not every task ran: {ran:?}");
    assert!(wheel.stop().is_empty());

    let slack = kit::ms(SLACK_MS);
    let (mut early, mut too_late) = (Vec::new(), Vec::new());
    let (mut latest, mut total) = (Duration::ZERO, Duration::ZERO);
    for (i, ((delay, earliest, due), ran)) in asked.iter().zip(&ran).enumerate() {
        let ran = ran.expect("checked above");
        if ran < *earliest {
            early.push(format!(
                "task {i}: delay {delay:?}, ran {:?} early",
                *earliest - ran
            ));
            continue;
        }
        let late = ran.saturating_duration_since(*due);
        latest = latest.max(late);
        total += late;
        if late > tick + slack {
            too_late.push(format!("task {i}: delay {delay:?}, ran {late:?} late"));
        }
    }
    println!(
        "W6 late_never_early: {TASKS} delays from 0 to {last:?} on a {tick:?} tick, {SLOTS} \
         slots: none early; {:.1} ms late on average, the latest {:.1} ms late (bound: one \
         tick + {SLACK_MS} ms)",
        total.as_secs_f64() * 1000.0 / TASKS as f64,
        latest.as_secs_f64() * 1000.0
    );
    assert!(
        early.is_empty(),
        "W6 late_never_early: {} of {TASKS} tasks fired before their delay:\n{}",
        early.len(),
        early.join("\n")
    );
    assert!(
        too_late.is_empty(),
        "W6 late_never_early: {} of {TASKS} tasks fired more than a tick ({tick:?}) + \
         {SLACK_MS} ms late:\n{}",
        too_late.len(),
        too_late.join("\n")
    );
    kit::threads::assert_gone(&name);
}

#[test]
fn w6_late_never_early_rounds_up() {
    let tick = Duration::from_millis(10);
    let ns = Duration::from_nanos;
    let ms = Duration::from_millis;
    // deadline -> the tick it is due at (ceil), and what truncation says.
    let cases = [
        (ms(0), 0),
        (ns(1), 1),
        (ms(10) - ns(1), 1),
        (ms(10), 1),
        (ms(10) + ns(1), 2),
        (ms(25), 3),
        (ms(30), 3),
        (ms(79), 8),
        (ms(81), 9),
    ];
    println!("W6 rounding on a 10 ms tick: deadline -> due tick (the truncated tick)");
    for (deadline, due) in cases {
        let truncated = deadline.as_nanos() / tick.as_nanos();
        println!(
            "  {deadline:>12?} -> tick {due} at {} ms (truncated: {truncated})",
            due * 10
        );
        assert_eq!(
            ticks_for(deadline, tick),
            Some(due),
            "deadline {deadline:?}"
        );
    }
    // Over a fine sweep: the due tick's instant is never before the
    // deadline, and less than one tick after it.
    let tick_ns = 7_000u64;
    for deadline_ns in 0..=200_000u64 {
        let due = ticks_for(ns(deadline_ns), ns(tick_ns)).unwrap();
        let at = due * tick_ns;
        assert!(
            at >= deadline_ns && at - deadline_ns < tick_ns,
            "deadline {deadline_ns} ns: tick {due} at {at} ns"
        );
    }
    // A tick count no u64 holds.
    assert_eq!(ticks_for(Duration::MAX, tick), None);

    // The core fires each at its due tick, and not one tick sooner.
    let mut core = HashedCore::new(8).unwrap();
    for (deadline, due) in cases {
        core.insert(ticks_for(deadline, tick).unwrap(), (deadline, due));
    }
    let mut fired = Vec::new();
    for _ in 0..10 {
        let now = core.advance(&mut fired);
        for (deadline, due) in fired.drain(..) {
            // Deadline 0 was already due at tick 0, before the first
            // advance: it fires at the first one, tick 1.
            assert_eq!(now, u64::max(due, 1), "deadline {deadline:?}");
            assert!(ms(now * 10) >= deadline);
        }
    }
    assert!(core.is_empty());
}
