//! The Java Timer article's two-task demo on stage 1 and on stage 2, side by
//! side: two tasks due at 30 s and 90 s, each spinning for 20 s, one second
//! of the story scaled to `kit::ms(10)`. The naive timer burns a core before and
//! between the tasks (N1); the sleep-based one waits for free (S2).
//!
//! ```text
//! cargo run -p progression --example naive_vs_sleep
//! cargo run -p progression --example naive_vs_sleep -- \
//!     --svg book/src/generated/naive-vs-sleep.svg \
//!     --text book/src/generated/naive-vs-sleep.txt
//! ```
//!
//! The two runs happen one after the other, so neither steals the other's
//! core; each lane's times count from its own run's start.

use std::error::Error;
use std::time::Duration;

use kit::Recorder;
use kit::timeline::{Chart, Lane, Sample, Sampler, sleep_until, spinning_task};

/// One second of the demo's story.
fn second() -> Duration {
    kit::ms(10)
}

/// How a timer takes the demo's tasks.
type Schedule<'a> = &'a dyn Fn(Duration, Box<dyn FnOnce() + Send>);

/// Runs the two-task program through `schedule` on the timer whose thread is
/// `thread`, sampling that thread for 130 seconds of the story.
fn two_tasks(
    thread: &str,
    rec: &Recorder,
    schedule: Schedule<'_>,
) -> Result<Vec<Sample>, Box<dyn Error>> {
    let sampler = Sampler::start(thread, rec, second() * 2)?;
    schedule(
        second() * 30,
        Box::new(spinning_task(rec, "task 1", second() * 20)),
    );
    schedule(
        second() * 90,
        Box::new(spinning_task(rec, "task 2", second() * 20)),
    );
    sleep_until(rec, second() * 130);
    Ok(sampler.finish())
}

fn main() -> Result<(), Box<dyn Error>> {
    let outputs = kit::timeline::Outputs::from_args()?;

    let naive_lane = {
        let (name, rec) = ("naive-timer", Recorder::new());
        let timer = naive::Timer::new(name)?;
        let samples = two_tasks(name, &rec, &|delay, task| {
            timer
                .schedule(delay, task)
                .expect("a short delay fits the clock");
        })?;
        drop(timer);
        Lane::from_events("naive", name, samples, &rec.events())
    };
    let sleep_lane = {
        let (name, rec) = ("sleep-timer", Recorder::new());
        let timer = sleep_based::Timer::new(name)?;
        let samples = two_tasks(name, &rec, &|delay, task| {
            timer
                .schedule(delay, task)
                .expect("a short delay fits the clock");
        })?;
        drop(timer);
        Lane::from_events("sleep-based", name, samples, &rec.events())
    };

    let chart = Chart::in_story_seconds(second(), vec![naive_lane, sleep_lane]);
    // Printed once: `write` prints the chart when no `--text` path is given.
    outputs.write(&chart.text(), || chart.svg())?;
    Ok(())
}
