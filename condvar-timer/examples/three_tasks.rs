//! The Java Timer article's three-task demo on timer_style.rs, the version
//! that cannot lose a wake-up.
//!
//! Tasks 1 and 2 are due at 30 s and 90 s and spin for 20 s each. At 60 s
//! the client submits task 3, due 10 s later (at 70 s), spinning for 10 s.
//! The thread is waiting toward task 2; the insert makes task 3 the head and
//! notifies it, so task 3 runs at 70 s, and task 2 still at 90 s. (On the
//! sleep-based timer task 3 waited until 110 s: S1.) Scaled: one second of
//! the article's demo is `kit::ms(10)`.
//!
//! ```text
//! cargo run -p condvar-timer --example three_tasks
//! ```

use std::time::Duration;

use condvar_timer::timer_style::Timer;
use kit::Recorder;
use kit::timeline::{Chart, Lane, Sampler, sleep_until, spinning_task};

/// One second of the article's demo.
fn second() -> Duration {
    kit::ms(10)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let name = "demo-timer";
    let rec = Recorder::new();
    let timer = Timer::new(name)?;
    let sampler = Sampler::start(name, &rec, second() * 2)?;

    rec.record("task 1 scheduled");
    timer.schedule(second() * 30, spinning_task(&rec, "task 1", second() * 20))?;
    rec.record("task 2 scheduled");
    timer.schedule(second() * 90, spinning_task(&rec, "task 2", second() * 20))?;

    sleep_until(&rec, second() * 60);
    rec.record("task 3 scheduled");
    timer.schedule(second() * 10, spinning_task(&rec, "task 3", second() * 10))?;

    sleep_until(&rec, second() * 120);
    let samples = sampler.finish();
    drop(timer);
    let chart = Chart::in_story_seconds(
        second(),
        vec![Lane::from_events(
            "timer_style",
            name,
            samples,
            &rec.events(),
        )],
    );
    print!("{}", chart.text());
    println!();
    let seconds = |d: Duration| d.as_secs_f64() / second().as_secs_f64();
    for (task, due) in [("task 1", 30), ("task 3", 70), ("task 2", 90)] {
        match rec.at(&format!("{task} start")) {
            Some(t) => println!("{task}: due at {due} s, started at {:.0} s", seconds(t)),
            None => println!("{task}: due at {due} s, did not run"),
        }
    }
    Ok(())
}
