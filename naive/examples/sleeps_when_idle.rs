//! The Java Timer article's first demo (the timer thread waits while its
//! queue is empty), on the naive timer.
//!
//! The client spins for a minute, then schedules a task due 30 s later that
//! spins for 20 s. Scaled: one second of the story is `kit::ms(10)`, so the
//! run takes 1.3 s (13 s with `KIT_TIME_SCALE=10`). The chart shows the thread waiting for free while the queue is
//! empty (N2), then burning a core while the task is pending (N1).
//!
//! ```text
//! cargo run -p naive --example sleeps_when_idle
//! ```

use std::time::Duration;

use kit::Recorder;
use kit::timeline::{Chart, Lane, Sampler, sleep_until, spin, spinning_task};
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

    // This spin is the client's (the main thread's), not the timer's.
    spin(second() * 60);
    rec.record("task 1 scheduled");
    timer.schedule(second() * 30, spinning_task(&rec, "task 1", second() * 20))?;

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
