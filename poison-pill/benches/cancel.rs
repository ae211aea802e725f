//! What stopping costs, in the three fixed versions side by side: the poison
//! pill, the disconnected channel, and java.util.Timer's single lock.
//!
//! Each iteration starts a timer and lets it run one task, so its thread is
//! up and back at its queue (not timed); then it times `cancel` and the drop
//! that joins the thread: how long until the thread has really ended. Two
//! cases, each a group:
//! - `cancel/idle`: nothing queued, the thread blocked on its empty queue
//!   (P1's situation);
//! - `cancel/waiting`: one task scheduled (timed too), due hours away, the
//!   thread waiting for it (P2's situation).
//!
//! The buggy versions are not here: the first never stops, and both stop
//! at the head's deadline.
//!
//! ```text
//! cargo bench -p poison-pill --bench cancel
//! ```

use std::hint::black_box;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use criterion::{
    BenchmarkGroup, Criterion, criterion_group, criterion_main, measurement::WallTime,
};
use poison_pill::error::ScheduleError;
use poison_pill::{disconnect, poison_pill as pill, timer_style};

type Task = Box<dyn FnOnce() + Send>;

/// Far enough that no task comes due during a run.
const FAR: Duration = Duration::from_secs(100 * 3600);

/// Times `iters` rounds of: (schedule a far task,) cancel, drop.
fn time_stops<T>(
    iters: u64,
    with_task: bool,
    make: impl Fn() -> T,
    schedule: impl Fn(&T, Duration, Task) -> Result<(), ScheduleError>,
    cancel: impl Fn(&T),
) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        let timer = make();
        let (ran, has_run) = mpsc::channel();
        schedule(
            &timer,
            Duration::ZERO,
            Box::new(move || ran.send(()).unwrap()),
        )
        .expect("fits");
        has_run.recv().expect("the first task ran");
        let start = Instant::now();
        if with_task {
            schedule(&timer, black_box(FAR), Box::new(|| {})).expect("fits");
        }
        cancel(&timer);
        drop(timer);
        total += start.elapsed();
    }
    total
}

fn group(c: &mut Criterion, name: &str, with_task: bool) {
    let mut g: BenchmarkGroup<'_, WallTime> = c.benchmark_group(name);
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    g.bench_function("poison_pill", |b| {
        b.iter_custom(|iters| {
            time_stops(
                iters,
                with_task,
                || pill::Timer::new("bench-pill").unwrap(),
                |t, d, task| t.schedule(d, task),
                pill::Timer::cancel,
            )
        })
    });
    g.bench_function("disconnect", |b| {
        b.iter_custom(|iters| {
            time_stops(
                iters,
                with_task,
                || disconnect::Timer::new("bench-disc").unwrap(),
                |t, d, task| t.schedule(d, task),
                disconnect::Timer::cancel,
            )
        })
    });
    g.bench_function("timer_style", |b| {
        b.iter_custom(|iters| {
            time_stops(
                iters,
                with_task,
                || timer_style::Timer::new("bench-tstyle").unwrap(),
                |t, d, task| t.schedule(d, task),
                timer_style::Timer::cancel,
            )
        })
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    group(c, "cancel/idle", false);
    group(c, "cancel/waiting", true);
}

criterion_group!(cancel, benches);
criterion_main!(cancel);
