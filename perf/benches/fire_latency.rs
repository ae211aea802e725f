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
//! (computed just before `schedule`, so the call's own cost counts). The
//! sides take turns, in interleaved rounds (10 rounds of 20 tasks each, 2
//! of 10 in quick mode, the order turned by one every round), each
//! starting its timer afresh and stopping it after its turn, so that the
//! floor and every timer see the same machine and no timer's thread runs
//! beside another's. Each side's p50, p99 and max are over all its rounds.
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
    perf::require_shipped_build();
    let mut report = Report::new("fire_latency");
    let rounds = perf::size(10, 2);
    let per_round = perf::size(20, 10);
    for (delay, label) in DELAYS {
        let group = format!("one at a time {label}");
        // Every side's sample, gathered over interleaved rounds.
        let mut sides = sides();
        let mut samples: Vec<Vec<Duration>> = vec![Vec::new(); sides.len()];
        for r in 0..rounds {
            for i in 0..sides.len() {
                let at = (r + i) % sides.len();
                samples[at].extend((sides[at].1)(delay, per_round));
            }
        }
        for ((name, _), sample) in sides.iter_mut().zip(&samples) {
            add(&mut report, &group, name, sample);
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

/// One side of the one-at-a-time comparison: its name, and what takes
/// `count` samples at a delay, starting the timer afresh and stopping it
/// after, so that no other side's timer runs beside it.
type Side = (String, Box<dyn FnMut(Duration, usize) -> Vec<Duration>>);

/// The bare timed wait, with the default slack and lowered; then every
/// subject, and ours again with their threads' slack lowered.
fn sides() -> Vec<Side> {
    let mut out: Vec<Side> = vec![
        (
            "park_timeout".to_owned(),
            Box::new(|delay, n| floor(delay, n, false)),
        ),
        (
            "park_timeout, slack 1 ns".to_owned(),
            Box::new(|delay, n| floor(delay, n, true)),
        ),
    ];
    for (i, subject) in subjects::all().into_iter().enumerate() {
        let start = subject.start;
        let prefix = format!("fl{i}");
        out.push((
            subject.name.to_owned(),
            Box::new(move |delay, n| one_at_a_time(&*start(&prefix, 1), delay, n)),
        ));
        if subject.ours {
            let prefix = format!("fl-low{i}");
            let name = subject.name;
            out.push((
                format!("{name}, slack 1 ns"),
                Box::new(move |delay, n| {
                    let timer = start(&prefix, 1);
                    // One task first: a pool starts its worker with its
                    // first task.
                    one_at_a_time(&*timer, Duration::ZERO, 1);
                    let lowered = threads::with_prefix(&prefix);
                    assert!(!lowered.is_empty(), "{name}: its threads are named");
                    for t in lowered {
                        slack::set_for(t.tid(), Duration::from_nanos(1)).expect("lower the slack");
                    }
                    one_at_a_time(&*timer, delay, n)
                }),
            ));
        }
    }
    out
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
