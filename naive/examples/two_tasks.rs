//! The Java Timer article's two-task demo, on the naive timer.
//!
//! Two tasks, due at 30 s and 90 s, each spinning for 20 s. Scaled: one
//! second of the story is `kit::ms(10)`, so the run takes 1.3 s (13 s with
//! `KIT_TIME_SCALE=10`, long enough to watch in `top -H`). java.util.Timer's
//! thread would wait before and between the tasks; the naive one burns a core
//! there (N1).
//!
//! ```text
//! cargo run -p naive --example two_tasks
//! ```

use std::time::Duration;

use kit::Recorder;
use kit::timeline::{Chart, Lane, Sampler, sleep_until, spinning_task};
use naive::Timer;

/// One second of the demo's story.
fn second() -> Duration {
    kit::ms(10)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let name = "naive-timer";
    let rec = Recorder::new();
    let timer = Timer::new(name)?;
    let sampler = Sampler::start(name, &rec, second() * 2)?;

    timer.schedule(second() * 30, spinning_task(&rec, "task 1", second() * 20))?;
    timer.schedule(second() * 90, spinning_task(&rec, "task 2", second() * 20))?;

    sleep_until(&rec, second() * 130);
    let samples = sampler.finish();
    drop(timer);
    let chart = Chart::in_story_seconds(
        second(),
        vec![Lane::from_events("naive", name, samples, &rec.events())],
    );
    print!("{}", chart.text());
    Ok(())
}
