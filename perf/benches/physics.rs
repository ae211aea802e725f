//! `physics`: the machine's floors, measured in every run, so that every
//! other figure can be read as a multiple of them: reading the clock,
//! locking and unlocking an uncontended mutex (std's, parking_lot's), one
//! compare-and-swap, `notify_one` on a condition variable nobody waits on
//! (std's makes a futex system call; parking_lot's does not), and one
//! park-to-unpark hand-off between two threads. The timed-wait overshoot
//! floor is in `fire_latency`, beside the timers it bounds.
//!
//! ```text
//! cargo bench -p perf --bench physics
//! ```

use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::SeqCst};
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group};

fn floors(c: &mut Criterion) {
    let mut g = c.benchmark_group("physics");
    g.bench_function("Instant::now", |b| b.iter(Instant::now));
    let std_mutex = std::sync::Mutex::new(0u64);
    g.bench_function("std Mutex lock+unlock", |b| {
        b.iter(|| *black_box(&std_mutex).lock().unwrap() += 1)
    });
    let pl_mutex = parking_lot::Mutex::new(0u64);
    g.bench_function("parking_lot Mutex lock+unlock", |b| {
        b.iter(|| *black_box(&pl_mutex).lock() += 1)
    });
    let word = AtomicU64::new(0);
    g.bench_function("compare_exchange", |b| {
        b.iter(|| {
            let w = black_box(&word);
            let v = w.load(SeqCst);
            w.compare_exchange(v, v + 1, SeqCst, SeqCst)
        })
    });
    let std_cv = std::sync::Condvar::new();
    g.bench_function("std Condvar notify_one, no waiter", |b| {
        b.iter(|| black_box(&std_cv).notify_one())
    });
    let pl_cv = parking_lot::Condvar::new();
    g.bench_function("parking_lot Condvar notify_one, no waiter", |b| {
        b.iter(|| black_box(&pl_cv).notify_one())
    });
    g.finish();
    // Each hand-off also waits 50 µs (untimed) for the peer to park:
    // criterion, which sees only the timed part, would run many more than it
    // plans, so this group takes few samples.
    let mut g = c.benchmark_group("physics_handoff");
    g.sample_size(10);
    g.bench_function("park/unpark, one way", |b| b.iter_custom(park_unpark));
    g.finish();
}

/// `iters` hand-offs: this thread unparks a parked peer, which reads the
/// clock as it wakes; the time from `unpark` to that read, summed. The
/// peer parks again before the next round (not timed).
fn park_unpark(iters: u64) -> Duration {
    let parked = Arc::new(AtomicBool::new(false));
    let woke_at = Arc::new(parking_lot::Mutex::new(None::<Instant>));
    let start = Arc::new(Barrier::new(2));
    let (p, w, s) = (
        Arc::clone(&parked),
        Arc::clone(&woke_at),
        Arc::clone(&start),
    );
    let peer = thread::spawn(move || {
        s.wait();
        for _ in 0..iters {
            p.store(true, SeqCst);
            while p.load(SeqCst) {
                thread::park();
            }
            *w.lock() = Some(Instant::now());
        }
    });
    start.wait();
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        while !parked.load(SeqCst) {
            std::hint::spin_loop();
        }
        // Let the peer reach `park` (it set the flag just before).
        thread::sleep(Duration::from_micros(50));
        let at = Instant::now();
        parked.store(false, SeqCst);
        peer.thread().unpark();
        let woke = loop {
            if let Some(t) = woke_at.lock().take() {
                break t;
            }
            std::hint::spin_loop();
        };
        total += woke.saturating_duration_since(at);
    }
    peer.join().expect("the peer");
    total
}

fn config() -> Criterion {
    let c = Criterion::default();
    match perf::quick_criterion() {
        Some((samples, warm_up, measure)) => c
            .sample_size(samples)
            .warm_up_time(warm_up)
            .measurement_time(measure),
        None => c.measurement_time(Duration::from_secs(2)),
    }
}

criterion_group! {
    name = benches;
    config = config();
    targets = floors
}
fn main() {
    perf::require_shipped_build();
    benches();
    Criterion::default().configure_from_args().final_summary();
}
