//! The Java Timer article's three-task demo (a task due sooner arrives while
//! the thread waits), on the sleep-based timer.
//!
//! Tasks 1 and 2 are due at 30 s and 90 s and spin for 20 s each. At 60 s the
//! client submits task 3, due 10 s later (at 70 s), spinning for 10 s. The
//! thread is asleep toward task 2 by then and cannot see it: task 3 runs only
//! after task 2, at 110 s (S1). Scaled: one second of the story is
//! `kit::ms(10)`.
//!
//! ```text
//! cargo run -p sleep-based --example task_due_sooner
//! ```

use std::time::Duration;

use kit::Recorder;
use kit::timeline::{Chart, Lane, Sampler, sleep_until, spinning_task};
use sleep_based::Timer;

/// One second of the demo's story.
fn second() -> Duration {
    kit::ms(10)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let name = "sleep-timer";
    let rec = Recorder::new();
    let timer = Timer::new(name)?;
    let sampler = Sampler::start(name, &rec, second() * 2)?;

    timer.schedule(second() * 30, spinning_task(&rec, "task 1", second() * 20))?;
    timer.schedule(second() * 90, spinning_task(&rec, "task 2", second() * 20))?;

    sleep_until(&rec, second() * 60);
    rec.record("task 3 scheduled");
    timer.schedule(second() * 10, spinning_task(&rec, "task 3", second() * 10))?;

    sleep_until(&rec, second() * 130);
    let samples = sampler.finish();
    drop(timer);
    let chart = Chart::in_story_seconds(
        second(),
        vec![Lane::from_events(
            "sleep-based",
            name,
            samples,
            &rec.events(),
        )],
    );
    print!("{}", chart.text());
    let ran = |task: &str| {
        rec.at(&format!("{task} start"))
            .map(|t| t.as_secs_f64() / second().as_secs_f64())
    };
    if let (Some(t2), Some(t3)) = (ran("task 2"), ran("task 3")) {
        println!(
            "task 3 was due at 70 s; it started at {t3:.0} s, after task 2 (started at {t2:.0} s)"
        );
    }
    Ok(())
}
