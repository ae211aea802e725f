//! The check of exercise W7: the stage's checks of the hashed wheel, run
//! against `exercises::w7_single_owner_wheel`.
//!
//! 1. W2: an adder is held in its window (`kit::pause_point(WINDOW)`)
//!    while the ticker passes the task's slot, then let go. The task must
//!    run within two ticks (plus what a loaded machine adds) of when it
//!    was due, or of the release if that came later: a hold is no bug of
//!    the wheel's, a revolution is.
//! 2. W3, rounds: a delay of 2.5 revolutions must not run before it is
//!    over, nor a revolution after.
//! 3. W3, truncation: delays of k + 0.9 ticks must not run early. A task
//!    that runs on the ticker keeps it busy for a whole tick first (as a
//!    long task would), so the delays are added with the ticker a tick
//!    behind the clock: at the very end of its tick, every time.
//! 4. Nothing lost: `stop` hands back every task that has not run, those
//!    filed in a slot and those sent just before it.
//!
//! "Not before" is exact: a task's due time is taken before `schedule` is
//! called, its run time when it runs. `cargo xtask exercise check w7` runs
//! them against your file.

use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::Duration;

use exercises::w7_single_owner_wheel::{WINDOW, Wheel};
use kit::gate::Gate;
use kit::pause::Pause;
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};
use wheel::Job;

/// The tick of checks 1 and 2.
const TICK_MS: u64 = 10;
/// What a loaded machine may add before a task runs, beyond the ticks the
/// wheel itself may take. A revolution late is far more.
const SLACK_MS: u64 = 100;

fn wheel(tick: Duration, slots: usize, prefix: &str) -> (Wheel, String) {
    let name = threads::unique_name(prefix);
    let wheel = Wheel::start(tick, slots, &name).expect("a valid configuration");
    (wheel, name)
}

/// A job that records `what` when it runs.
fn note(rec: &Recorder, what: impl Into<String>) -> Job {
    let (rec, what) = (rec.clone(), what.into());
    Box::new(move || {
        rec.record(what);
    })
}

#[test]
fn w2_adder_held_in_its_window_runs_its_task_on_time() {
    const SLOTS: usize = 32;
    /// The task's slot is two ahead of the cursor.
    const DELAY_TICKS: u64 = 2;
    let tick = ms(TICK_MS);
    let revolution = tick * SLOTS as u32;
    let (wheel, name) = wheel(tick, SLOTS, "ex-w7-w2");
    let rec = Recorder::new();
    let adder = format!("{name}a");
    let pause = Pause::arm(WINDOW, &adder);
    let delay = tick * DELAY_TICKS as u32;
    let (due, released) = thread::scope(|s| {
        let handle = thread::Builder::new()
            .name(adder.clone())
            .spawn_scoped(s, || {
                let called = rec.record("schedule called");
                let scheduled = wheel.schedule(delay, note(&rec, "ran"));
                assert!(scheduled.is_ok(), "schedule refused a delay of 20 ms");
                called + delay
            })
            .expect("spawn the adder");
        assert!(
            pause.reached_within(ms(5000)),
            "schedule never reached `kit::pause_point(WINDOW)`: keep it between working out \
             where the task goes and handing it over"
        );
        rec.record_as("check", "adder held");
        // Whatever the adder read or computed, the ticker is now past the
        // tick the task is due at (one spare tick: a count bumped before
        // or after the slot is drained).
        let k = wheel.ticks();
        assert!(
            kit::eventually(ms(2000), || wheel.ticks() > k + DELAY_TICKS + 1),
            "the ticker did not move while the adder was held: {} ticks",
            wheel.ticks()
        );
        let released = rec.record_as("check", "the ticker passed the task's tick; adder let go");
        pause.release();
        (handle.join().expect("the adder"), released)
    });
    let ran = rec.eventually("ran", revolution * 2 + ms(1000));
    drop(wheel.stop());
    threads::assert_gone(&name);
    let from = due.max(released);
    let Some(ran) = ran else {
        panic!(
            "W2 cursor_race: the task due at {} ms, whose adder was let go at {} ms, never ran \
             (waited {} ms more)\n{}",
            in_ms(due),
            in_ms(released),
            in_ms(revolution * 2 + ms(1000)),
            rec.log()
        );
    };
    let bound = from + tick * 2 + ms(SLACK_MS);
    assert!(
        ran <= bound,
        "W2 cursor_race: the task due at {} ms, whose adder was let go at {} ms, ran at {} ms: \
         {} ms late, where 2 ticks ({} ms) + {} ms was allowed; a revolution is {} ms\n{}",
        in_ms(due),
        in_ms(released),
        in_ms(ran),
        in_ms(ran) - in_ms(from),
        in_ms(tick * 2),
        in_ms(ms(SLACK_MS)),
        in_ms(revolution),
        rec.log()
    );
    println!(
        "W2: due at {} ms, adder let go at {} ms, ran at {} ms",
        in_ms(due),
        in_ms(released),
        in_ms(ran)
    );
}

#[test]
fn w3_rounds_a_long_delay_waits_its_revolutions() {
    const SLOTS: usize = 16;
    let tick = ms(TICK_MS);
    let revolution = tick * SLOTS as u32;
    // 2.5 revolutions: 40 ticks, which is 8 slots on round a ring of 16.
    let delay = revolution * 5 / 2;
    let (wheel, name) = wheel(tick, SLOTS, "ex-w7-w3r");
    let rec = Recorder::new();
    let due = rec.elapsed() + delay;
    assert!(
        wheel.schedule(delay, note(&rec, "ran")).is_ok(),
        "schedule refused a delay of 2.5 revolutions"
    );
    let ran = rec.eventually("ran", delay + ms(1000));
    let left = wheel.stop();
    threads::assert_gone(&name);
    let Some(ran) = ran else {
        panic!(
            "W3 wraparound_fires_early: a delay of {} ms (2.5 revolutions of {} ms) never ran; \
             stop handed back {} task(s)\n{}",
            in_ms(delay),
            in_ms(revolution),
            left.len(),
            rec.log()
        );
    };
    assert!(
        ran >= due,
        "W3 wraparound_fires_early: a delay of {} ms (2.5 revolutions of {} ms) ran at {} ms, \
         {} ms early: its slot came round before its rounds were over\n{}",
        in_ms(delay),
        in_ms(revolution),
        in_ms(ran),
        in_ms(due) - in_ms(ran),
        rec.log()
    );
    assert!(
        ran <= due + tick + ms(SLACK_MS),
        "W7 single_owner_wheel: a delay of {} ms (2.5 revolutions of {} ms) ran at {} ms, \
         {} ms late, where a tick ({} ms) + {} ms was allowed: a round too many?\n{}",
        in_ms(delay),
        in_ms(revolution),
        in_ms(ran),
        in_ms(ran) - in_ms(due),
        in_ms(tick),
        in_ms(ms(SLACK_MS)),
        rec.log()
    );
    println!(
        "W3 rounds: a delay of {} ms (2.5 revolutions of {} ms) ran at {} ms",
        in_ms(delay),
        in_ms(revolution),
        in_ms(ran)
    );
}

#[test]
fn w3_truncation_fractions_of_a_tick_never_run_early() {
    const SLOTS: usize = 16;
    const TASKS: u32 = 4;
    // Coarse ticks: a fraction of one is easy to see.
    let tick = ms(40);
    let (wheel, name) = wheel(tick, SLOTS, "ex-w7-w3t");
    let rec = Recorder::new();
    // A task that keeps the ticker busy until the gate opens.
    let gate = Gate::new();
    let waiter = gate.waiter();
    let r = rec.clone();
    let hold: Job = Box::new(move || {
        r.record("ticker busy");
        waiter.wait();
    });
    assert!(wheel.schedule(Duration::ZERO, hold).is_ok());
    let busy = rec
        .eventually("ticker busy", ms(2000))
        .unwrap_or_else(|| panic!("a task due now never ran\n{}", rec.log()));
    // The scenario, not a margin: a whole tick with the ticker busy, so the
    // clock is past the next tick's instant and the ticker still behind it.
    thread::sleep(tick.saturating_sub(rec.elapsed() - busy));
    let mut due = Vec::new();
    for k in 0..TASKS {
        let delay = tick.mul_f64(f64::from(k) + 0.9);
        due.push((delay, rec.elapsed() + delay));
        assert!(
            wheel
                .schedule(delay, note(&rec, format!("task {k} ran")))
                .is_ok()
        );
    }
    rec.record_as("check", format!("{TASKS} tasks added; the ticker let go"));
    gate.open();
    let ran: Vec<Option<Duration>> = (0..TASKS)
        .map(|k| rec.eventually(&format!("task {k} ran"), tick * 5 + ms(1000)))
        .collect();
    drop(wheel.stop());
    threads::assert_gone(&name);
    let mut early = Vec::new();
    for (k, ((delay, due), ran)) in due.iter().zip(&ran).enumerate() {
        let Some(ran) = *ran else {
            panic!(
                "W3 wraparound_fires_early: task {k}, a delay of {:.1} ticks ({} ms), never ran\n{}",
                delay.as_secs_f64() / tick.as_secs_f64(),
                in_ms(*delay),
                rec.log()
            );
        };
        if ran < *due {
            early.push((k, *delay, *due, ran));
        }
        assert!(
            ran <= *due + tick + ms(SLACK_MS),
            "W7 single_owner_wheel: task {k}, a delay of {} ms, due at {} ms, ran at {} ms: more \
             than a tick ({} ms) + {SLACK_MS} ms late\n{}",
            in_ms(*delay),
            in_ms(*due),
            in_ms(ran),
            in_ms(tick),
            rec.log()
        );
    }
    if let Some(&(k, delay, due, ran)) = early.iter().max_by_key(|(_, _, due, ran)| *due - *ran) {
        panic!(
            "W3 wraparound_fires_early: {} of {TASKS} delays of k + 0.9 ticks ({} ms ticks) ran \
             early; the worst, task {k}, a delay of {} ms due at {} ms, ran at {} ms, {} ms \
             early: a deadline rounded down to a tick, or counted from a tick under way\n{}",
            early.len(),
            in_ms(tick),
            in_ms(delay),
            in_ms(due),
            in_ms(ran),
            in_ms(due) - in_ms(ran),
            rec.log()
        );
    }
    println!("W3 truncation: {TASKS} delays of k + 0.9 ticks, none early");
}

#[test]
fn w7_stop_hands_back_every_task_not_run() {
    const SLOTS: usize = 16;
    const SHORT: usize = 3;
    const FILED: usize = 10;
    const SENT_LAST: usize = 5;
    // Long ticks: the last tasks are scheduled right after a tick, and
    // `stop` comes long before the next.
    let tick = ms(100);
    let (wheel, name) = wheel(tick, SLOTS, "ex-w7-stop");
    let rec = Recorder::new();
    let ran = Arc::new(Mutex::new(Vec::new()));
    let job = |i: usize| -> Job {
        let (ran, rec) = (Arc::clone(&ran), rec.clone());
        Box::new(move || {
            ran.lock().unwrap_or_else(PoisonError::into_inner).push(i);
            rec.record("ran");
        })
    };
    let mut i = 0;
    let mut schedule = |delay: Duration| {
        assert!(wheel.schedule(delay, job(i)).is_ok());
        i += 1;
    };
    // Due at the first tick, and far away: 5 s and more, many rounds out.
    for _ in 0..SHORT {
        schedule(Duration::ZERO);
    }
    for n in 0..FILED {
        schedule(ms(5000) + tick * (7 * n as u32));
    }
    assert!(
        rec.wait_until_count("ran", SHORT, ms(2000)).is_some(),
        "W7 single_owner_wheel: {} of {SHORT} tasks due at once ran within 2 s\n{}",
        rec.count("ran"),
        rec.log()
    );
    // The ticker has been through its first tick: the far tasks are filed.
    assert!(kit::eventually(ms(2000), || wheel.ticks() >= 2));
    for n in 0..SENT_LAST {
        schedule(ms(5000) + tick * (3 * n as u32));
    }
    let total = SHORT + FILED + SENT_LAST;
    let left = wheel.stop();
    threads::assert_gone(&name);
    let returned = left.len();
    for job in left {
        job();
    }
    let mut seen = ran.lock().unwrap_or_else(PoisonError::into_inner).clone();
    seen.sort_unstable();
    let lost: Vec<usize> = (0..total).filter(|i| !seen.contains(i)).collect();
    let mut twice = seen.clone();
    twice.dedup();
    assert!(
        lost.is_empty() && twice.len() == seen.len(),
        "W7 single_owner_wheel: stop handed back {returned} tasks where {} were not run \
         ({FILED} filed in slots, {SENT_LAST} scheduled just before stop); lost: {lost:?}; \
         every task, run or handed back: {seen:?}",
        total - SHORT
    );
    println!("W7 stop: {SHORT} ran, {returned} handed back, none lost");
}
