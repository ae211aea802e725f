//! `preempt_wakeup`: a timer's thread is asleep until a task an hour away;
//! another thread schedules a task due now. How long from the `schedule`
//! call to the task's first instruction? The floors beside it: one thread
//! unparking another that is parked, to the moment the other runs; and the
//! same when the other is in a *timed* park, as a timer's thread is (the
//! kernel must also cancel its timer).
//!
//! The floors and the timers take turns, in interleaved rounds (10 rounds
//! of 30 samples each, 2 of 15 in quick mode, the order turned by one
//! every round), each timer started afresh for its turn and stopped after.
//!
//! ```text
//! cargo bench -p perf --bench preempt_wakeup
//! ```

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use perf::report::Report;
use perf::stats;
use perf::subjects::{self, OneShot};

/// Time for a woken thread to go back to sleep between two samples.
const SETTLE: Duration = Duration::from_millis(2);

fn main() {
    perf::require_shipped_build();
    let mut report = Report::new("preempt_wakeup");
    let (rounds, per_round) = perf::size((10, 30), (2, 15));
    let mut sides = sides();
    let mut samples: Vec<Vec<Duration>> = vec![Vec::new(); sides.len()];
    for r in 0..rounds {
        for i in 0..sides.len() {
            let at = (r + i) % sides.len();
            samples[at].extend((sides[at].1)(per_round));
        }
    }
    for ((name, _), sample) in sides.iter_mut().zip(&samples) {
        add(&mut report, name, sample);
    }
    report.write();
}

/// One side: its name, and what takes `count` samples, starting its timer
/// afresh and stopping it after, so that no other side's runs beside it.
type Side = (String, Box<dyn FnMut(usize) -> Vec<Duration>>);

/// The two floors, then every pooled subject.
fn sides() -> Vec<Side> {
    let mut out: Vec<Side> = vec![
        (
            "park/unpark (floor)".to_owned(),
            Box::new(|n| handoffs(n, false)),
        ),
        (
            "park_timeout/unpark (floor)".to_owned(),
            Box::new(|n| handoffs(n, true)),
        ),
    ];
    for subject in subjects::all().into_iter().filter(|s| s.pooled) {
        let start = subject.start;
        out.push((
            subject.name.to_owned(),
            Box::new(move |n| preempts(&*start("pw", 1), n)),
        ));
    }
    out
}

/// `n` preempting schedules on `timer`, asleep until a task an hour away:
/// from each `schedule` call to the task's first instruction.
fn preempts(timer: &dyn OneShot, n: usize) -> Vec<Duration> {
    timer.schedule(Duration::from_secs(3600), Box::new(|| ()));
    thread::sleep(SETTLE * 10);
    (0..n)
        .map(|_| {
            thread::sleep(SETTLE);
            let (tx, rx) = mpsc::channel();
            let at = Instant::now();
            timer.schedule(
                Duration::ZERO,
                Box::new(move || tx.send(Instant::now()).expect("waited")),
            );
            let ran = rx.recv_timeout(Duration::from_secs(10)).expect("it ran");
            ran.saturating_duration_since(at)
        })
        .collect()
}

fn add(report: &mut Report, subject: &str, sample: &[Duration]) {
    for (stat, value) in stats::summary(sample) {
        report.add("schedule to run", subject, stat, value, "us");
    }
}

/// `n` hand-offs to a parked thread: from `unpark` to the peer's first
/// instruction after `park` (or `park_timeout` of an hour, if `timed`).
fn handoffs(n: usize, timed: bool) -> Vec<Duration> {
    let parked = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<Instant>();
    let p = Arc::clone(&parked);
    let peer = thread::spawn(move || {
        for _ in 0..n {
            p.store(true, SeqCst);
            while p.load(SeqCst) {
                if timed {
                    thread::park_timeout(Duration::from_secs(3600));
                } else {
                    thread::park();
                }
            }
            tx.send(Instant::now()).expect("waited");
        }
    });
    let sample = (0..n)
        .map(|_| {
            while !parked.load(SeqCst) {
                thread::yield_now();
            }
            thread::sleep(SETTLE);
            let at = Instant::now();
            parked.store(false, SeqCst);
            peer.thread().unpark();
            rx.recv().expect("the peer").saturating_duration_since(at)
        })
        .collect();
    peer.join().expect("the peer");
    sample
}
