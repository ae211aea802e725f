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
//!   real wheel (10 ms tick, 8 slots), on and off the tick grid. Each task
//!   runs on the ticker and notes the time and the tick that fired it.
//!   Lateness has two parts, and the test tells them apart: the wheel's
//!   (the task's tick comes after its deadline: under one tick, checked
//!   exactly against the tick grid) and the OS's (the ticker wakes after
//!   its tick's instant: reported, and held to a bound no passing run
//!   reaches). None ran before its delay, by the wall clock.
//! - `w6_late_never_early_rounds_up`: the rounding itself, exact, on the
//!   core with no clock: the due tick of a deadline, and the tick the core
//!   fires it at.
#![cfg(not(loom))]

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use wheel::OnTicker;
use wheel::hashed::{HashedConfig, HashedWheel};
use wheel::hashed_core::{HashedCore, ticks_for};

use kit::scale::in_ms;

const SLOTS: usize = 8;
const TASKS: usize = 50;
/// How long after its tick's instant the ticker may run a task: the OS's
/// part of the lateness, not the wheel's. A quiet run stays under a
/// millisecond; a loaded VM has been seen to hold the ticker back 90 ms.
/// An upper bound no passing run reaches, as the book's tests use.
const OS_BOUND_MS: u64 = 250;

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
    let start = wheel.started_at();
    // Each task's (wall time, tick) when it ran.
    let ran: Arc<Mutex<Vec<Option<Ran>>>> = Arc::new(Mutex::new(vec![None; TASKS]));
    let mut asked = Vec::with_capacity(TASKS);
    for i in 0..TASKS {
        let delay = tick.mul_f64(delay_in_ticks(i));
        let (ran, ticker) = (Arc::clone(&ran), wheel.scheduler());
        let job = move || {
            // On the ticker (OnTicker): the tick being processed.
            let fired_at = ticker.ticks();
            ran.lock().unwrap()[i] = Some((Instant::now(), fired_at));
        };
        // The wheel reads its clock, and sends, between these two instants:
        // its deadline lies in [before + delay, after + delay]. A test
        // thread preempted inside `schedule` widens the interval; it does
        // not make the wheel look late.
        let before = Instant::now();
        wheel.schedule(delay, Box::new(job)).unwrap();
        let after = Instant::now();
        asked.push(Asked {
            delay,
            earliest: before + delay,
            latest: after + delay,
        });
    }
    let last = asked.iter().map(|a| a.delay).max().unwrap();
    let all_ran = kit::eventually(last + kit::ms(1000), || {
        ran.lock().unwrap().iter().all(Option::is_some)
    });
    let ran = ran.lock().unwrap().clone();
    assert!(all_ran, "W6: not every task ran: {ran:?}");
    assert!(wheel.stop().is_empty());

    let tick_at = |k: u64| start + tick * u32::try_from(k).unwrap();
    let due_tick = |at: Instant| ticks_for(at - start, tick).unwrap();
    let mut wrong = Vec::new();
    let (mut wheel_late, mut os_late) = (Duration::ZERO, Duration::ZERO);
    for (i, (a, ran)) in asked.iter().zip(&ran).enumerate() {
        let (ran, fired_at) = ran.expect("checked above");
        let delay = a.delay;
        // Never early, by the wall clock.
        if ran < a.earliest {
            wrong.push(format!(
                "task {i}: delay {delay:?}, ran {:?} early",
                a.earliest - ran
            ));
        }
        // Fired at the tick its deadline rounds up to: that tick's instant
        // is at or after the deadline and less than a tick after it. (A
        // task due before the first tick fires at the first.)
        let (lo, hi) = (due_tick(a.earliest), due_tick(a.latest).max(1));
        if !(lo..=hi).contains(&fired_at) {
            wrong.push(format!(
                "task {i}: delay {delay:?}, due at tick {lo}..={hi}, fired at tick {fired_at}"
            ));
        }
        wheel_late = wheel_late.max(tick_at(fired_at).saturating_duration_since(a.latest));
        // What the OS added: the ticker ran the task this long after the
        // tick's instant.
        let os = ran.saturating_duration_since(tick_at(fired_at));
        os_late = os_late.max(os);
        if os > kit::ms(OS_BOUND_MS) {
            wrong.push(format!(
                "task {i}: delay {delay:?}, ran {os:?} after its tick's instant"
            ));
        }
    }
    println!(
        "W6 late_never_early: {TASKS} delays from 0 to {} ms on a {} ms tick, {SLOTS} slots: \
         none early; each fired at its due tick, at most {:.1} ms after its deadline on the tick \
         grid; the ticker ran them at most {:.1} ms after their tick's instant (the OS)",
        in_ms(last),
        in_ms(tick),
        wheel_late.as_secs_f64() * 1000.0,
        os_late.as_secs_f64() * 1000.0
    );
    assert!(
        wrong.is_empty(),
        "W6 late_never_early: {} of {TASKS} tasks broke the bounds:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert!(wheel_late < tick, "late by {wheel_late:?} on the grid");
    kit::threads::assert_gone(&name);
}

/// When a task ran, and the tick that fired it.
type Ran = (Instant, u64);

/// A task as the test asked for it: its wheel deadline lies in
/// `earliest..=latest`.
struct Asked {
    delay: Duration,
    earliest: Instant,
    latest: Instant,
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
