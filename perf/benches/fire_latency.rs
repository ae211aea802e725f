//! `fire_latency`: how late one-shot tasks fire, at delays of 100 µs, 1 ms
//! and 10 ms (p50, p99, max), for our finished versions and the peers, next
//! to the floor: how late a bare timed wait (`thread::park_timeout`) ends,
//! with the thread's default timer slack and with it lowered to 1 ns. Then
//! the same for our timers with their threads' slack lowered (through
//! `/proc`, no change to their code). Then under load: 100 000 tasks due
//! evenly over one second, on two worker threads.
//!
//! One task at a time in the first part: each is scheduled, runs, and says
//! when; its lateness is that instant minus the instant it was due
//! (computed just before `schedule`, so the call's own cost counts).
//!
//! ```text
//! cargo bench -p perf --bench fire_latency
//! ```

use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use perf::report::Report;
use perf::subjects::{self, OneShot};
use perf::{slack, stats, threads};

const DELAYS: [(Duration, &str); 3] = [
    (Duration::from_micros(100), "100us"),
    (Duration::from_millis(1), "1ms"),
    (Duration::from_millis(10), "10ms"),
];

fn main() {
    let mut report = Report::new("fire_latency");
    let n = perf::size(200, 20);
    for (delay, label) in DELAYS {
        for (lowered, name) in [(false, "park_timeout"), (true, "park_timeout, slack 1 ns")] {
            let sample = floor(delay, n, lowered);
            add(
                &mut report,
                &format!("one at a time {label}"),
                name,
                &sample,
            );
        }
    }
    for subject in subjects::all() {
        let timer = (subject.start)("fl-one", 1);
        for (delay, label) in DELAYS {
            let sample = one_at_a_time(&*timer, delay, n);
            add(
                &mut report,
                &format!("one at a time {label}"),
                subject.name,
                &sample,
            );
        }
        drop(timer);
        if subject.ours {
            let timer = (subject.start)("fl-low", 1);
            // One task first: a pool starts its worker with its first task.
            one_at_a_time(&*timer, Duration::ZERO, 1);
            let lowered = threads::with_prefix("fl-low");
            assert!(
                !lowered.is_empty(),
                "{}: its threads are named",
                subject.name
            );
            for t in lowered {
                slack::set_for(t.tid(), Duration::from_nanos(1)).expect("lower the slack");
            }
            for (delay, label) in DELAYS {
                let sample = one_at_a_time(&*timer, delay, n);
                let name = format!("{}, slack 1 ns", subject.name);
                add(
                    &mut report,
                    &format!("one at a time {label}"),
                    &name,
                    &sample,
                );
            }
        }
    }
    let (tasks, over) = perf::size(
        (100_000, Duration::from_secs(1)),
        (10_000, Duration::from_millis(100)),
    );
    for subject in subjects::all().iter().filter(|s| s.pooled) {
        let timer = (subject.start)("fl-load", 2);
        let sample = perf::load::lateness(&*timer, tasks, Duration::ZERO, over);
        add(&mut report, "under load", subject.name, &sample);
    }
    report.write();
}

fn add(report: &mut Report, group: &str, subject: &str, sample: &[Duration]) {
    for (stat, value) in stats::summary(sample) {
        report.add(group, subject, stat, value, "us");
    }
}

/// How late `park_timeout(delay)` returns, `n` times, on a fresh thread
/// (with its slack lowered, or not).
fn floor(delay: Duration, n: usize, lowered: bool) -> Vec<Duration> {
    thread::spawn(move || {
        if lowered {
            slack::lower().expect("prctl(PR_SET_TIMERSLACK)");
        }
        (0..n)
            .map(|_| {
                let due = Instant::now() + delay;
                // A spurious unpark ends the wait early: wait again.
                while Instant::now() < due {
                    thread::park_timeout(due.saturating_duration_since(Instant::now()));
                }
                Instant::now() - due
            })
            .collect()
    })
    .join()
    .expect("the floor's thread")
}

/// `n` tasks, one at a time: each one's lateness.
fn one_at_a_time(timer: &dyn OneShot, delay: Duration, n: usize) -> Vec<Duration> {
    (0..n)
        .map(|_| {
            let (tx, rx) = mpsc::channel();
            let due = Instant::now() + delay;
            timer.schedule(
                delay,
                Box::new(move || tx.send(Instant::now()).expect("waited")),
            );
            let ran = rx
                .recv_timeout(Duration::from_secs(10))
                .expect("the task ran");
            ran.saturating_duration_since(due)
        })
        .collect()
}
