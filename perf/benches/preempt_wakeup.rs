//! `preempt_wakeup`: a timer's thread is asleep until a task an hour away;
//! another thread schedules a task due now. How long from the `schedule`
//! call to the task's first instruction? The floors beside it: one thread
//! unparking another that is parked, to the moment the other runs; and the
//! same when the other is in a *timed* park, as a timer's thread is (the
//! kernel must also cancel its timer).
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
use perf::{stats, subjects};

/// Time for a woken thread to go back to sleep between two samples.
const SETTLE: Duration = Duration::from_millis(2);

fn main() {
    let mut report = Report::new("preempt_wakeup");
    let n = perf::size(300, 30);
    add(&mut report, "park/unpark (floor)", &handoffs(n, false));
    add(
        &mut report,
        "park_timeout/unpark (floor)",
        &handoffs(n, true),
    );
    for subject in subjects::all().iter().filter(|s| s.pooled) {
        let timer = (subject.start)("pw", 1);
        timer.schedule(Duration::from_secs(3600), Box::new(|| ()));
        thread::sleep(SETTLE * 10);
        let sample: Vec<Duration> = (0..n)
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
            .collect();
        add(&mut report, subject.name, &sample);
    }
    report.write();
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
