//! The cost of one `schedule` call, racy.rs vs timer_style.rs vs the
//! "something changed" TimerQueue's `add`, side by side.
//!
//! Two cases, each a group:
//! - `schedule/later`: every new task is due after the head. racy.rs and
//!   timer_style.rs then send no notify; the TimerQueue always releases
//!   its semaphore (its thread wakes and looks again).
//! - `schedule/new_head`: every new task is due before the head, so every
//!   call notifies and wakes the timer thread. racy.rs's thread then takes
//!   the head out and puts it back (C3) while the client inserts.
//!
//! Each sample gets a fresh timer; tasks are due hours away and never run;
//! only the calls are timed (the timer's drop is not).
//!
//! ```text
//! cargo bench -p condvar-timer --bench schedule
//! ```

use std::hint::black_box;
use std::time::{Duration, Instant};

use condvar_timer::something_changed::TimerQueue;
use condvar_timer::{racy, timer_style};
use criterion::{
    BenchmarkGroup, Criterion, criterion_group, criterion_main, measurement::WallTime,
};

/// Far enough that no task comes due during a run of a few seconds.
const FAR: Duration = Duration::from_secs(100 * 3600);

/// The delay of the `i`th call: constant (each new task due after the
/// head, as time moves on) or shrinking by a millisecond a call (each new
/// task due first).
fn delay(new_head: bool, i: u64) -> Duration {
    if new_head {
        FAR - Duration::from_millis(i)
    } else {
        FAR
    }
}

/// Times `iters` calls of `schedule` on a fresh timer made by `make`.
fn time_calls<T>(
    iters: u64,
    new_head: bool,
    make: impl Fn() -> T,
    schedule: impl Fn(&T, Duration),
) -> Duration {
    let timer = make();
    let start = Instant::now();
    for i in 0..iters {
        schedule(&timer, black_box(delay(new_head, i)));
    }
    let elapsed = start.elapsed();
    drop(timer);
    elapsed
}

fn group(c: &mut Criterion, name: &str, new_head: bool) {
    let mut g: BenchmarkGroup<'_, WallTime> = c.benchmark_group(name);
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    g.bench_function("racy", |b| {
        b.iter_custom(|iters| {
            time_calls(
                iters,
                new_head,
                || racy::Timer::new("bench-racy").unwrap(),
                |t, d| t.schedule(d, || {}).expect("fits"),
            )
        })
    });
    g.bench_function("timer_style", |b| {
        b.iter_custom(|iters| {
            time_calls(
                iters,
                new_head,
                || timer_style::Timer::new("bench-tstyle").unwrap(),
                |t, d| t.schedule(d, || {}).expect("fits"),
            )
        })
    });
    g.bench_function("something_changed_add", |b| {
        b.iter_custom(|iters| {
            time_calls(
                iters,
                new_head,
                || TimerQueue::new("bench-sc").expect("start the queue"),
                |q, d| {
                    q.add(d, |_aborted| {}).expect("fits");
                },
            )
        })
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    group(c, "schedule/later", false);
    group(c, "schedule/new_head", true);
}

criterion_group!(schedule, benches);
criterion_main!(schedule);
