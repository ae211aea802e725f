//! I5 as two timelines of real runs: a task that runs every minute, on the
//! finished Timer (timer.rs), while a long task holds the timer's one
//! thread; once with fixed delay, once with fixed rate.
//!
//! The chart's story: the periodic task's first run is due at 1 min, and
//! each run spins for a quarter of a minute (long enough to show as one
//! column). The long task is due at 3.5 min and spins for 10 min. One minute
//! is `kit::ms(20)` of real time.
//!
//! Then the counts in the Java Timer article's own numbers, without a chart:
//! a task every minute, a long task of an hour (one minute is `kit::ms(10)`,
//! each run is over in microseconds); and a periodic task whose first run
//! was due ten minutes before it was scheduled.
//!
//! ```text
//! cargo run -p interrupt-cancel --example fixed_delay_vs_fixed_rate
//! cargo run -p interrupt-cancel --example fixed_delay_vs_fixed_rate -- \
//!     --text book/src/generated/i5-fixed-delay-vs-fixed-rate.txt \
//!     --svg book/src/generated/i5-fixed-delay-vs-fixed-rate.svg
//! ```

use std::error::Error;
use std::time::{Duration, Instant};

use interrupt_cancel::error::ScheduleError;
use interrupt_cancel::timer::{TaskHandle, Timer};
use kit::Recorder;
use kit::timeline::{Chart, Lane, Mark, Sampler, sleep_until, spin, spinning_task};

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    FixedDelay,
    FixedRate,
}

impl Kind {
    fn title(self) -> &'static str {
        match self {
            Kind::FixedDelay => "fixed delay",
            Kind::FixedRate => "fixed rate",
        }
    }
}

/// Schedules `run` every `period` from `first`, the `kind` way.
fn periodic(
    timer: &Timer,
    kind: Kind,
    first: Instant,
    period: Duration,
    run: impl FnMut() + Send + 'static,
) -> Result<TaskHandle, ScheduleError> {
    match kind {
        Kind::FixedDelay => timer.schedule_with_fixed_delay_from(first, period, run),
        Kind::FixedRate => timer.schedule_at_fixed_rate_from(first, period, run),
    }
}

/// When each `what` was recorded, since the recorder's start.
fn times_of(rec: &Recorder, what: &str) -> Vec<Duration> {
    rec.events()
        .iter()
        .filter(|e| e.what == what)
        .map(|e| e.at)
        .collect()
}

/// "1 run", "3 runs".
fn runs(n: usize) -> String {
    if n == 1 {
        "1 run".into()
    } else {
        format!("{n} runs")
    }
}

// --- The chart -------------------------------------------------------------

/// One minute of the chart's story.
fn minute() -> Duration {
    kit::ms(20)
}

/// One column, and one run of the periodic task.
fn quarter() -> Duration {
    minute() / 4
}

/// The long task is due at 3.5 min, after the runs at 1, 2 and 3 min.
const STALL_FROM_QUARTERS: u32 = 14;
const STALL_MINUTES: u32 = 10;
const END_MINUTES: u32 = 20;

/// One run of the chart's story: its lane, and what it says in words.
struct Charted {
    lane: Lane,
    summary: String,
}

fn charted(kind: Kind, name: &str) -> Result<Charted, Box<dyn Error>> {
    let rec = Recorder::new();
    let timer = Timer::new(name)?;
    let sampler = Sampler::start(name, &rec, quarter())?;
    let r = rec.clone();
    let task = periodic(&timer, kind, rec.start() + minute(), minute(), move || {
        r.record("run start");
        spin(quarter());
        r.record("run end");
    })?;
    let stall_from = quarter() * STALL_FROM_QUARTERS;
    timer.schedule_at(
        rec.start() + stall_from,
        spinning_task(&rec, "long task", minute() * STALL_MINUTES),
    )?;
    sleep_until(&rec, minute() * END_MINUTES);
    task.cancel();
    let samples = sampler.finish();
    drop(timer);

    let mins = |d: Duration| d.as_secs_f64() / minute().as_secs_f64();
    let starts = times_of(&rec, "run start");
    let ends = times_of(&rec, "run end");
    let stall_start = rec.at("long task start").ok_or("the long task ran")?;
    let stall_end = rec.at("long task end").ok_or("the long task ended")?;
    let before = starts.iter().filter(|&&t| t < stall_start).count();
    let during = starts
        .iter()
        .filter(|&&t| stall_start <= t && t < stall_end)
        .count();
    // The runs after the stall that each started (within 1 ms) as the one
    // before ended: back to back.
    let first_after = starts
        .iter()
        .position(|&t| t >= stall_end)
        .ok_or("no run after the stall")?;
    let mut burst = 1;
    while first_after + burst < starts.len()
        && starts[first_after + burst] <= ends[first_after + burst - 1] + Duration::from_millis(1)
    {
        burst += 1;
    }
    let caught_up = ends[first_after + burst - 1];
    let next: Vec<String> = starts[first_after + burst..]
        .iter()
        .take(3)
        .map(|&t| format!("{:.1}", mins(t)))
        .collect();

    let mut lane = Lane::from_events(kind.title(), name, samples, &rec.events());
    // One column per run: no room for a word on each.
    for span in lane.spans.iter_mut().filter(|s| s.label == "run") {
        span.label.clear();
    }
    lane.marks = vec![Mark {
        at: stall_end,
        label: "stall ends".into(),
    }];
    let summary = match kind {
        Kind::FixedDelay => format!(
            "fixed delay: {} before the stall, {during} during it.\n  \
             The stall ended at {:.1} min: {burst} run then, the next ones at {} min,\n  \
             a minute apart, counted from the run after the stall.",
            runs(before),
            mins(stall_end),
            next.join(", ")
        ),
        Kind::FixedRate => {
            // The runs due at 1, 2, 3... min that came due while the long
            // task ran.
            let due_during = (1..)
                .map(|k| minute() * k)
                .skip_while(|&t| t < stall_start)
                .take_while(|&t| t <= stall_end)
                .count();
            lane.marks.push(Mark {
                at: caught_up,
                label: "caught up".into(),
            });
            format!(
                "fixed rate: {} before the stall, {during} during it; {due_during} came due while it ran.\n  \
                 The stall ended at {:.1} min: then {burst} runs back to back until {:.1} min\n  \
                 (the {due_during} missed ones, and {} that came due while they ran),\n  \
                 and the next ones at {} min: on the minute again.",
                runs(before),
                mins(stall_end),
                mins(caught_up),
                burst.saturating_sub(due_during),
                next.join(", ")
            )
        }
    };
    Ok(Charted { lane, summary })
}

// --- The article's numbers -------------------------------------------------

/// One minute of the article's story.
fn article_minute() -> Duration {
    kit::ms(10)
}

/// A task every minute, stalled for an hour: how many runs came due during
/// the hour, and what happened in the five minutes after it.
fn an_hour(kind: Kind, name: &str) -> Result<String, Box<dyn Error>> {
    let rec = Recorder::new();
    let timer = Timer::new(name)?;
    let r = rec.clone();
    timer.schedule(Duration::ZERO, move || {
        spin(article_minute() * 60); // the hour
        r.record("hour over");
    })?;
    let r = rec.clone();
    let task = periodic(
        &timer,
        kind,
        rec.start() + article_minute(),
        article_minute(),
        move || {
            r.record("run start");
        },
    )?;
    let hour_over = rec
        .eventually("hour over", article_minute() * 120)
        .ok_or("the hour did not end")?;
    sleep_until(&rec, hour_over + article_minute() * 5);
    task.cancel();
    drop(timer);
    let starts = times_of(&rec, "run start");
    let during = starts.iter().filter(|&&t| t < hour_over).count();
    let after: Vec<Duration> = starts
        .iter()
        .filter(|&&t| t >= hour_over && t < hour_over + article_minute() * 5)
        .map(|&t| t - hour_over)
        .collect();
    Ok(match kind {
        Kind::FixedRate => {
            // Runs are due at 1, 2, 3... min.
            let missed = (hour_over.as_nanos() / article_minute().as_nanos()) as usize;
            let last = after
                .get(missed.saturating_sub(1))
                .copied()
                .unwrap_or_default();
            format!(
                "fixed rate: {during} during the hour, {missed} came due in it.\n  \
                 In the 5 minutes after it, {}: the {missed} missed ones back to back\n  \
                 (the last of them {} us after the hour), then one a minute.",
                runs(after.len()),
                last.as_micros()
            )
        }
        Kind::FixedDelay => format!(
            "fixed delay: {during} during the hour.\n  \
             In the 5 minutes after it, {}: the first {} us after it, then 1 a minute.",
            runs(after.len()),
            after.first().copied().unwrap_or_default().as_micros()
        ),
    })
}

/// A periodic task whose first run was due ten minutes before it was
/// scheduled: how many runs started in the first half minute.
fn from_the_past(kind: Kind, name: &str) -> Result<String, Box<dyn Error>> {
    let rec = Recorder::new();
    let timer = Timer::new(name)?;
    let first = rec
        .start()
        .checked_sub(article_minute() * 10)
        .ok_or("a machine up for less than 100 ms")?;
    let r = rec.clone();
    let task = periodic(&timer, kind, first, article_minute(), move || {
        r.record("run start");
    })?;
    sleep_until(&rec, article_minute() / 2);
    task.cancel();
    drop(timer);
    let n = times_of(&rec, "run start")
        .iter()
        .filter(|&&t| t < article_minute() / 2)
        .count();
    Ok(format!(
        "{}: first run due 10 min ago; {} in the first half minute.",
        kind.title(),
        runs(n)
    ))
}

fn main() -> Result<(), Box<dyn Error>> {
    let outputs = kit::timeline::Outputs::from_args()?;

    // One run at a time, so that each has a core to itself.
    let runs = [
        charted(Kind::FixedDelay, "i5-delay")?,
        charted(Kind::FixedRate, "i5-rate")?,
    ];
    let chart = Chart {
        tick: quarter(),
        unit: minute(),
        unit_name: "min".into(),
        lanes: runs.iter().map(|r| r.lane.clone()).collect(),
    };
    let mut text = chart.text();
    text.push('\n');
    for run in &runs {
        text += &format!("{}\n", run.summary);
    }
    text += "\nThe article's numbers: a run a minute, a stall of an hour (1 min = 10 ms):\n";
    text += &format!("{}\n", an_hour(Kind::FixedDelay, "i5-hour-delay")?);
    text += &format!("{}\n", an_hour(Kind::FixedRate, "i5-hour-rate")?);
    text += "\nA first run in the past (1 min = 10 ms):\n";
    text += &format!("{}\n", from_the_past(Kind::FixedDelay, "i5-past-delay")?);
    text += &format!("{}\n", from_the_past(Kind::FixedRate, "i5-past-rate")?);

    outputs.write(&text, || chart.svg())?;
    Ok(())
}
