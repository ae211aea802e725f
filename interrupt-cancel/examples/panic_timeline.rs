//! I2 and I6 as timelines of real runs: a task panics, on each of the
//! stage's four timers, and the timer thread is sampled from its start.
//!
//! The scenario of `tests/i6_panic_kills_timer.rs`, stretched so that a
//! chart can show it: task 2 is queued first, due at 100 ms; task 1, due at
//! 50 ms, panics. At 150 ms a client schedules task 3, due 20 ms later.
//! Tasks 2 and 3 spin for 30 ms each, so that a run shows. Task 2's closure
//! holds a probe (an `Arc`), so that the run can tell whether the timer
//! still keeps that closure. Unlike the test, task 1 is due at 50 ms, so
//! that the chart shows the thread alive before the panic.
//!
//! A thread that died leaves its lane blank from then on.
//!
//! ```text
//! cargo run -p interrupt-cancel --example panic_timeline
//! cargo run -p interrupt-cancel --example panic_timeline -- \
//!     --text book/src/generated/i6-panic-kills-timer.txt \
//!     --svg book/src/generated/i6-panic-kills-timer.svg
//! ```

use std::error::Error;
use std::sync::Arc;
use std::time::Duration;

use interrupt_cancel::error::ScheduleError;
use interrupt_cancel::{interrupted_only, interrupted_or_dead, refuses_when_dead, timer};
use kit::timeline::{Chart, Lane, Mark, Sampler, sleep_until, spinning_task};
use kit::{Recorder, ms, threads};

const TASK1_DUE_MS: u64 = 50;
const TASK2_DUE_MS: u64 = 100;
const TASK3_AT_MS: u64 = 150;
const TASK3_DELAY_MS: u64 = 20;
const RUN_MS: u64 = 30;
const END_MS: u64 = 300;
/// One column of the chart.
const TICK: Duration = Duration::from_millis(5);

/// The four timers, seen the same way.
trait Version: Sized {
    const FILE: &'static str;
    fn start(name: &str, rec: &Recorder) -> Result<Self, Box<dyn Error>>;
    fn schedule_task(
        &self,
        delay: Duration,
        task: impl FnOnce() + Send + 'static,
    ) -> Result<(), ScheduleError>;
}

impl Version for interrupted_only::Timer {
    const FILE: &'static str = "interrupted_only";
    fn start(name: &str, _: &Recorder) -> Result<Self, Box<dyn Error>> {
        Ok(interrupted_only::Timer::new(name)?)
    }
    fn schedule_task(
        &self,
        delay: Duration,
        task: impl FnOnce() + Send + 'static,
    ) -> Result<(), ScheduleError> {
        self.schedule(delay, task)
    }
}

impl Version for interrupted_or_dead::Timer {
    const FILE: &'static str = "interrupted_or_dead";
    fn start(name: &str, _: &Recorder) -> Result<Self, Box<dyn Error>> {
        Ok(interrupted_or_dead::Timer::new(name)?)
    }
    fn schedule_task(
        &self,
        delay: Duration,
        task: impl FnOnce() + Send + 'static,
    ) -> Result<(), ScheduleError> {
        self.schedule(delay, task)
    }
}

impl Version for refuses_when_dead::Timer {
    const FILE: &'static str = "refuses_when_dead";
    fn start(name: &str, _: &Recorder) -> Result<Self, Box<dyn Error>> {
        Ok(refuses_when_dead::Timer::new(name)?)
    }
    fn schedule_task(
        &self,
        delay: Duration,
        task: impl FnOnce() + Send + 'static,
    ) -> Result<(), ScheduleError> {
        self.schedule(delay, task)
    }
}

impl Version for timer::Timer {
    const FILE: &'static str = "timer";
    fn start(name: &str, rec: &Recorder) -> Result<Self, Box<dyn Error>> {
        let rec = rec.clone();
        Ok(timer::Timer::with_panic_hook(name, move |message| {
            rec.record(format!("panic reported: {message}"));
        })?)
    }
    fn schedule_task(
        &self,
        delay: Duration,
        task: impl FnOnce() + Send + 'static,
    ) -> Result<(), ScheduleError> {
        self.schedule(delay, task).map(drop)
    }
}

/// One version's run: its lane, its log, and what happened, in words.
struct Run {
    lane: Lane,
    rec: Recorder,
    summary: String,
}

fn run<T: Version>(name: &str) -> Result<Run, Box<dyn Error>> {
    let rec = Recorder::new();
    let timer = T::start(name, &rec)?;
    let sampler = Sampler::start(name, &rec, TICK)?;
    let probe = Arc::new(());
    let held = Arc::clone(&probe);
    let task2 = spinning_task(&rec, "task 2", ms(RUN_MS));
    timer.schedule_task(ms(TASK2_DUE_MS), move || {
        let _held = held;
        task2();
    })?;
    let r = rec.clone();
    timer.schedule_task(ms(TASK1_DUE_MS), move || {
        r.record("task 1 panics");
        panic!("task 1 panics, on purpose");
    })?;
    let panicked = rec
        .eventually("task 1 panics", ms(5000))
        .ok_or("task 1 did not run")?;
    if threads::gone_within(name, ms(100)) {
        rec.record_as("main", "the timer thread is gone");
    }
    sleep_until(&rec, ms(TASK3_AT_MS));
    rec.record_as("main", "schedule task 3");
    let task3 = timer.schedule_task(
        ms(TASK3_DELAY_MS),
        spinning_task(&rec, "task 3", ms(RUN_MS)),
    );
    rec.record_as("main", format!("schedule returned {task3:?}"));
    sleep_until(&rec, ms(END_MS));
    let samples = sampler.finish();
    // Still referred to by the timer: the closure of task 2, never run and
    // never dropped.
    let still_held = Arc::strong_count(&probe) > 1;
    drop(timer);

    let mut lane = Lane::from_events(T::FILE, name, samples, &rec.events());
    lane.marks = vec![
        Mark {
            at: panicked,
            label: "panic".into(),
        },
        Mark {
            at: ms(TASK3_AT_MS),
            label: match &task3 {
                Ok(()) => "task 3: Ok".into(),
                Err(_) => "task 3: Err".into(),
            },
        },
    ];
    let ran = |task: &str| match rec.at(&format!("{task} start")) {
        Some(at) => format!("ran at {} ms", at.as_millis()),
        None => "never ran".into(),
    };
    let thread = if rec.at("the timer thread is gone").is_some() {
        "died with it"
    } else {
        "lives on"
    };
    let task3_said = match &task3 {
        Ok(()) => "Ok(())".to_owned(),
        Err(e) => format!("Err: \"{e}\""),
    };
    let closure = if still_held {
        "still held by the timer's queue"
    } else {
        "dropped"
    };
    let summary = format!(
        "=> the thread {thread}\n   \
         schedule(task 3) at {TASK3_AT_MS} ms: {task3_said}\n   \
         task 2 {}; task 3 {}\n   \
         task 2's closure at {END_MS} ms: {closure}",
        ran("task 2"),
        ran("task 3")
    );
    Ok(Run { lane, rec, summary })
}

fn main() -> Result<(), Box<dyn Error>> {
    let outputs = kit::timeline::Outputs::from_args()?;
    // The panics are the point of the demo: say so once, not with a
    // message and a backtrace per panic.
    std::panic::set_hook(Box::new(|_| {}));

    let runs = [
        run::<interrupted_only::Timer>("i6-only")?,
        run::<interrupted_or_dead::Timer>("i6-or-dead")?,
        run::<refuses_when_dead::Timer>("i6-refuses")?,
        run::<timer::Timer>("i6-timer")?,
    ];
    let chart = Chart {
        tick: TICK,
        unit: Duration::from_millis(1),
        unit_name: "ms".into(),
        lanes: runs.iter().map(|r| r.lane.clone()).collect(),
    };
    let mut text = chart.text();
    for r in &runs {
        text += &format!("\n{}.rs:\n{}{}\n", r.lane.title, r.rec.log(), r.summary);
    }
    outputs.write(&text, || chart.svg())?;
    Ok(())
}
