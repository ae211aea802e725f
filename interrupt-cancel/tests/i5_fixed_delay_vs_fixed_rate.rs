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
//! The counts, from the moment the stall ends (`E`):
//! - neither task runs before `E`: the thread was busy. Exact.
//! - fixed rate: every run due by `E` (60 or 61: `first + k * period <=
//!   E`) runs after it, back to back: all of them start within
//!   `BURST_BOUND_MS` of `E` (about a millisecond on a quiet machine, up
//!   to 130 ms on two loaded cores; a fixed rate that did not catch up
//!   would start its 60th run 600 ms after `E`: the bound, 30 periods, sits
//!   in the middle of that gap).
//! - fixed delay: at most 5 runs in the 5 periods after `E`, exactly: no
//!   two of its runs start less than a period apart. The 60 stalled
//!   periods are simply lost.
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
/// How soon after the stall the catch-up runs must all have started. The
/// only bound here that is not exact: a loaded machine may keep the timer
/// thread off a core for tens of milliseconds (130 ms seen beside busy
/// loops), and a rate that did not catch up would take the whole stall,
/// 600 ms: half of it.
const BURST_BOUND_MS: u64 = 30 * PERIOD_MS;

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

    /// How long after the stall the `n`th run started.
    fn nth_after_stall(&self, n: usize) -> Duration {
        self.runs[n - 1].saturating_duration_since(self.stall_end)
    }

    fn describe(&self) -> String {
        let missed = match self.kind {
            Kind::FixedRate => format!(
                "{} runs were due by then; ",
                due_by(self.first, self.stall_end)
            ),
            Kind::FixedDelay => String::new(),
        };
        format!(
            "{:?}, period {PERIOD_MS} ms, stalled until {} ms: {missed}{} runs in the {WINDOW} periods after, {} before\n{}",
            self.kind,
            in_ms(self.stall_end - self.rec.start()),
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
    let burst = rate.nth_after_stall(missed);
    println!(
        "fixed rate: the {missed} missed runs all started within {} us of the stall's end",
        burst.as_micros()
    );
    assert!(
        burst < ms(BURST_BOUND_MS),
        "the {missed}th run started {} ms after the stall\n{}",
        in_ms(burst),
        rate.describe()
    );
    // Fixed delay: one run after the stall, then one per period.
    assert!(delay.in_window() <= WINDOW as usize, "{}", delay.describe());
    assert!(
        delay.nth_after_stall(1) < ms(BURST_BOUND_MS),
        "{}",
        delay.describe()
    );
}

/// A periodic task whose first run was due 10 periods ago: how many runs
/// were due when it was scheduled, when (after that) the last of those
/// started, and how many started in the next WINDOW periods.
fn from_the_past(kind: Kind) -> (usize, Duration, usize, Recorder) {
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
    let runs = runs(&rec);
    let last_due = match kind {
        Kind::FixedRate => runs[due_now - 1].saturating_duration_since(now),
        Kind::FixedDelay => runs[0].saturating_duration_since(now),
    };
    (due_now, last_due, count_in(&runs, now, window_end), rec)
}

#[test]
fn i5_fixed_delay_vs_fixed_rate_first_run_in_the_past() {
    // Fixed rate catches up: every run due since `first`, at once.
    let (due, caught_up, _, rec) = from_the_past(Kind::FixedRate);
    assert!(due >= 11, "runs 0..=10 were due");
    assert!(
        caught_up < ms(BURST_BOUND_MS),
        "fixed rate from the past: {due} runs due at the start, the last of them {} ms later\n{}",
        in_ms(caught_up),
        rec.log()
    );
    // Fixed delay does not: one run now, then one per period.
    let (_, first_run, in_window, rec) = from_the_past(Kind::FixedDelay);
    assert!(first_run < ms(BURST_BOUND_MS), "{}", rec.log());
    assert!(
        in_window <= WINDOW as usize,
        "fixed delay from the past: {in_window} runs in the first {WINDOW} periods\n{}",
        rec.log()
    );
}
