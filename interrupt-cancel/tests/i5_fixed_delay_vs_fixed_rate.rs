//! I5 `fixed_delay_vs_fixed_rate`: a periodic task stalled by a long task.
//!
//! The Java Timer article: a task runs every minute, and the thread is busy
//! for an hour with another task. Afterwards, with fixed delay it runs once
//! (and every minute from then on); with fixed rate it runs the 60 missed
//! minutes back to back. Here one article minute is 10 ms, so the hour is
//! 600 ms.
//!
//! java.util.Timer's rules (TimerThread.mainLoop), which timer.rs follows:
//! fixed rate's next run is due one period after the previous one was
//! *due*; fixed delay's is due one period after the previous one *started*.
//! So after the stall, fixed rate finds every missed run already due;
//! fixed delay has one run due, and the next a period after it starts.
//!
//! The counts, over the window of 5 periods that begins when the stall
//! ends (`E`):
//! - fixed rate: at least the runs due by `E` (60 or 61: `first + k *
//!   period <= E`), back to back;
//! - fixed delay: at least 1 and at most 5, exactly: no two of its runs
//!   start less than a period apart.
//! - neither runs before `E`: the thread was busy. Exact too.
//!
//! The same rules with a first run in the past: fixed rate catches up on
//! every run due since then; fixed delay runs once, then every period.
#![cfg(not(loom))]

use std::time::{Duration, Instant};

use interrupt_cancel::timer::{TaskHandle, Timer};
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

/// One article minute.
const PERIOD_MS: u64 = 10;
/// One article hour.
const STALL_MS: u64 = 60 * PERIOD_MS;
/// The window after the stall, in periods.
const WINDOW: u32 = 5;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    FixedDelay,
    FixedRate,
}

fn periodic(timer: &Timer, kind: Kind, first: Instant, rec: &Recorder) -> TaskHandle {
    let r = rec.clone();
    let run = move || {
        r.record("run");
    };
    match kind {
        Kind::FixedDelay => timer.schedule_with_fixed_delay_from(first, ms(PERIOD_MS), run),
        Kind::FixedRate => timer.schedule_at_fixed_rate_from(first, ms(PERIOD_MS), run),
    }
    .unwrap()
}

/// When each run was recorded (never before it started).
fn runs(rec: &Recorder) -> Vec<Instant> {
    rec.events()
        .iter()
        .filter(|e| e.what == "run")
        .map(|e| rec.start() + e.at)
        .collect()
}

fn count_in(runs: &[Instant], from: Instant, to: Instant) -> usize {
    runs.iter().filter(|&&t| from <= t && t < to).count()
}

/// How many runs of a periodic task starting at `first` are due by `at`.
fn due_by(first: Instant, at: Instant) -> usize {
    match at.checked_duration_since(first) {
        Some(since) => (since.as_nanos() / ms(PERIOD_MS).as_nanos()) as usize + 1,
        None => 0,
    }
}

struct Stalled {
    kind: Kind,
    rec: Recorder,
    first: Instant,
    stall_end: Instant,
    runs: Vec<Instant>,
}

/// A stall of STALL_MS at once, and a periodic task due from one period
/// on; returns once the window after the stall is complete.
fn stalled(kind: Kind) -> Stalled {
    let name = threads::unique_name("i5");
    let timer = Timer::new(&name).unwrap();
    let rec = Recorder::new();
    let r = rec.clone();
    timer
        .schedule(Duration::ZERO, move || {
            std::thread::sleep(ms(STALL_MS)); // the long task holds the one thread
            r.record("stall ended");
        })
        .unwrap();
    let first = rec.start() + ms(PERIOD_MS);
    let task = periodic(&timer, kind, first, &rec);
    let stall_end = rec.start()
        + rec
            .eventually("stall ended", ms(STALL_MS + 5000))
            .expect("the stall ended");
    // Complete the window: wait for a run due after it (no run starts
    // before it is due).
    let window_end = stall_end + ms(PERIOD_MS) * WINDOW;
    let needed = due_by(first, window_end) + 1;
    let wanted = match kind {
        Kind::FixedRate => needed,
        // After E: one run at once, then one per period.
        Kind::FixedDelay => WINDOW as usize + 1,
    };
    rec.wait_until_count("run", wanted, ms(5000))
        .unwrap_or_else(|| panic!("{kind:?}: fewer than {wanted} runs\n{}", rec.log()));
    assert!(task.cancel(), "a periodic task cancelled between runs");
    drop(timer);
    threads::assert_gone(&name);
    let runs = runs(&rec);
    Stalled {
        kind,
        rec,
        first,
        stall_end,
        runs,
    }
}

impl Stalled {
    fn in_window(&self) -> usize {
        count_in(
            &self.runs,
            self.stall_end,
            self.stall_end + ms(PERIOD_MS) * WINDOW,
        )
    }

    fn before_stall_end(&self) -> usize {
        self.runs.iter().filter(|&&t| t < self.stall_end).count()
    }

    fn describe(&self) -> String {
        format!(
            "{:?}, period {PERIOD_MS} ms, stalled until {} ms: {} runs due by then, {} runs in the {WINDOW} periods after, {} before\n{}",
            self.kind,
            in_ms(self.stall_end - self.rec.start()),
            due_by(self.first, self.stall_end),
            self.in_window(),
            self.before_stall_end(),
            self.rec.log()
        )
    }
}

#[test]
fn i5_fixed_delay_vs_fixed_rate() {
    let (rate, delay) = std::thread::scope(|s| {
        let rate = s.spawn(|| stalled(Kind::FixedRate));
        let delay = s.spawn(|| stalled(Kind::FixedDelay));
        (rate.join().unwrap(), delay.join().unwrap())
    });
    for run in [&rate, &delay] {
        println!("{}", run.describe().lines().next().unwrap_or_default());
        assert_eq!(run.before_stall_end(), 0, "{}", run.describe());
    }
    let missed = due_by(rate.first, rate.stall_end);
    assert!(missed >= 60, "{}", rate.describe());
    // Fixed rate: every missed run, back to back.
    assert!(rate.in_window() >= missed, "{}", rate.describe());
    // Fixed delay: one run after the stall, then one per period.
    assert!(
        (1..=WINDOW as usize).contains(&delay.in_window()),
        "{}",
        delay.describe()
    );
}

/// A periodic task whose first run was due 10 periods ago.
fn from_the_past(kind: Kind) -> (usize, usize, Recorder) {
    let name = threads::unique_name("i5-past");
    let timer = Timer::new(&name).unwrap();
    let rec = Recorder::new();
    let now = Instant::now();
    let first = now
        .checked_sub(ms(PERIOD_MS) * 10)
        .expect("a machine up for more than 100 ms");
    let due_now = due_by(first, now);
    let task = periodic(&timer, kind, first, &rec);
    let window_end = now + ms(PERIOD_MS) * WINDOW;
    let wanted = match kind {
        Kind::FixedRate => due_by(first, window_end) + 1,
        Kind::FixedDelay => WINDOW as usize + 1,
    };
    rec.wait_until_count("run", wanted, ms(5000))
        .unwrap_or_else(|| panic!("{kind:?}: fewer than {wanted} runs\n{}", rec.log()));
    task.cancel();
    drop(timer);
    threads::assert_gone(&name);
    (due_now, count_in(&runs(&rec), now, window_end), rec)
}

#[test]
fn i5_fixed_delay_vs_fixed_rate_first_run_in_the_past() {
    let (due, in_window, rec) = from_the_past(Kind::FixedRate);
    assert!(due >= 11, "runs 0..=10 were due");
    assert!(
        in_window >= due,
        "fixed rate from the past: {due} runs due at the start, {in_window} in the next {WINDOW} periods\n{}",
        rec.log()
    );
    let (_, in_window, rec) = from_the_past(Kind::FixedDelay);
    assert!(
        (1..=WINDOW as usize).contains(&in_window),
        "fixed delay from the past: {in_window} runs in the first {WINDOW} periods\n{}",
        rec.log()
    );
}
