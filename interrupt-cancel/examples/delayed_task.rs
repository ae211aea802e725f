//! I4 as a timeline of a real run: the Java Timer article's long task on the
//! finished Timer (timer.rs), which has one thread, as java.util.Timer has.
//!
//! Task 1 is due at 10 s and spins for 70 s; task 2 is due at 30 s and spins
//! for 20 s. The one thread is busy with task 1 from 10 s to 80 s, so task 2
//! starts at 80 s, 50 s late. Replayed with one second of the story as
//! `kit::ms(10)`, as in the earlier chapters' demos.
//!
//! ```text
//! cargo run -p interrupt-cancel --example delayed_task
//! cargo run -p interrupt-cancel --example delayed_task -- \
//!     --text book/src/generated/i4-delayed-tasks.txt \
//!     --svg book/src/generated/i4-delayed-tasks.svg
//! ```

use std::error::Error;
use std::time::Duration;

use interrupt_cancel::timer::Timer;
use kit::Recorder;
use kit::timeline::{Chart, Lane, Mark, Sampler, sleep_until, spinning_task};

/// One second of the article's demo.
fn second() -> Duration {
    kit::ms(10)
}

fn main() -> Result<(), Box<dyn Error>> {
    let outputs = kit::timeline::Outputs::from_args()?;

    let name = "i4-timer";
    let rec = Recorder::new();
    let timer = Timer::new(name)?;
    let sampler = Sampler::start(name, &rec, second() * 2)?;

    rec.record("task 1 scheduled");
    timer.schedule(second() * 10, spinning_task(&rec, "task 1", second() * 70))?;
    rec.record("task 2 scheduled");
    timer.schedule(second() * 30, spinning_task(&rec, "task 2", second() * 20))?;

    sleep_until(&rec, second() * 110);
    let samples = sampler.finish();
    drop(timer);

    let mut lane = Lane::from_events("timer.rs", name, samples, &rec.events());
    // Short labels: the marks of two deadlines 20 s apart share a row.
    lane.marks = vec![
        Mark {
            at: second() * 10,
            label: "1 due".into(),
        },
        Mark {
            at: second() * 30,
            label: "2 due".into(),
        },
    ];
    let chart = Chart::in_story_seconds(second(), vec![lane]);

    let seconds = |d: Duration| d.as_secs_f64() / second().as_secs_f64();
    let mut text = chart.text();
    text.push('\n');
    for (task, due) in [("task 1", 10), ("task 2", 30)] {
        let line = match (
            rec.at(&format!("{task} start")),
            rec.at(&format!("{task} end")),
        ) {
            (Some(start), Some(end)) => format!(
                "{task}: due at {due} s, started at {:.0} s ({:.0} s late), ended at {:.0} s\n",
                seconds(start),
                seconds(start) - f64::from(due),
                seconds(end)
            ),
            _ => format!("{task}: due at {due} s, did not run to its end\n"),
        };
        text.push_str(&line);
    }
    outputs.write(&text, || chart.svg())?;
    Ok(())
}
