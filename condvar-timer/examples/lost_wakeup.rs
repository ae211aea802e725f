//! C1 forced on both versions: task 1 due at 1000 ms; while the timer
//! thread has looked at it and is not waiting yet, a client submits task 2,
//! due at 50 ms.
//!
//! racy.rs: the client's notify reaches nobody; the thread waits for task 1
//! and task 2 starts at about 1000 ms. timer_style.rs: the client cannot
//! insert until the thread waits (one lock); its notify wakes the thread
//! and task 2 starts as soon as the thread is released.
//!
//! The race is forced with a pause point, as in the tests: this example is
//! built with kit's `pause-points` feature, as tests are.
//!
//! ```text
//! cargo run -p condvar-timer --example lost_wakeup
//! ```

use std::sync::Arc;
use std::time::Duration;

use condvar_timer::{racy, timer_style};
use kit::Recorder;
use kit::pause::Pause;
use kit::timeline::{Chart, Lane, Sampler, sleep_until, spinning_task};

const TASK1_DUE_MS: u64 = 1000;
const TASK2_DUE_MS: u64 = 50;
/// How long the timer thread is held while the client tries to insert.
const HOLD_MS: u64 = 100;
/// How long each run is watched.
const RUN_MS: u64 = 1300;

/// Scheduling, seen the same way for both versions.
trait Schedule: Send + Sync + 'static {
    fn schedule_task(&self, delay: Duration, task: impl FnOnce() + Send + 'static);
}

impl Schedule for racy::Timer {
    fn schedule_task(&self, delay: Duration, task: impl FnOnce() + Send + 'static) {
        self.schedule(delay, task).expect("a small delay");
    }
}

impl Schedule for timer_style::Timer {
    fn schedule_task(&self, delay: Duration, task: impl FnOnce() + Send + 'static) {
        self.schedule(delay, task).expect("a small delay");
    }
}

/// Runs the forced race on one timer; returns its lane and its log.
fn run<T: Schedule>(title: &str, name: &str, timer: T, window: &'static str) -> (Lane, Recorder) {
    let timer = Arc::new(timer);
    let rec = Recorder::new();
    let sampler = Sampler::start(name, &rec, kit::ms(50)).expect("sample the timer thread");
    let pause = Pause::arm(window, name);

    rec.record("task 1 scheduled");
    timer.schedule_task(
        kit::ms(TASK1_DUE_MS),
        spinning_task(&rec, "task 1", kit::ms(100)),
    );
    pause.wait_reached();
    rec.record_as(name, "held: looked at task 1, not waiting yet");

    let client = {
        let (timer, rec) = (Arc::clone(&timer), rec.clone());
        std::thread::Builder::new()
            .name("client".into())
            .spawn(move || {
                rec.record("task 2 scheduled");
                timer.schedule_task(
                    kit::ms(TASK2_DUE_MS),
                    spinning_task(&rec, "task 2", kit::ms(100)),
                );
                rec.record("schedule returned");
            })
            .expect("spawn the client")
    };
    // racy: returns at once. timer_style: blocked by the lock until we
    // release the timer thread.
    let _ = rec.eventually("schedule returned", kit::ms(HOLD_MS));
    rec.record("release the timer thread");
    pause.release();
    client.join().expect("the client");

    sleep_until(&rec, kit::ms(RUN_MS));
    let samples = sampler.finish();
    drop(timer);
    let lane = Lane::from_events(title, name, samples, &rec.events());
    (lane, rec)
}

fn main() {
    let (racy_lane, racy_rec) = run(
        "racy",
        "racy-timer",
        racy::Timer::new("racy-timer").unwrap(),
        "condvar-timer::racy: took the head, not yet waiting",
    );
    let (style_lane, style_rec) = run(
        "timer_style",
        "tstyle-timer",
        timer_style::Timer::new("tstyle-timer").unwrap(),
        "condvar-timer::timer_style: peeked the head, not yet waiting",
    );

    let chart = Chart {
        tick: kit::ms(50),
        unit: kit::ms(1),
        unit_name: "ms".into(),
        lanes: vec![racy_lane, style_lane],
    };
    print!("{}", chart.text());
    for (title, rec) in [("racy.rs", &racy_rec), ("timer_style.rs", &style_rec)] {
        println!("\n{title}:");
        print!("{}", rec.log());
        let due = rec
            .at("task 2 scheduled")
            .map(|t| t + kit::ms(TASK2_DUE_MS));
        if let (Some(due), Some(ran)) = (due, rec.at("task 2 start")) {
            println!(
                "=> task 2 due at {} ms, started at {} ms",
                due.as_millis(),
                ran.as_millis()
            );
        }
    }
}
