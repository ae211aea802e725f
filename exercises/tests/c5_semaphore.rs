//! The check of exercise C5: the semaphore remembers a notify that came
//! before the wait, one permit per notify, and still waits when there is
//! none.
//!
//! `cargo xtask exercise check c5` runs it against your file.

use std::sync::Arc;
use std::time::Instant;

use exercises::c5_semaphore::Semaphore;
use kit::ms;
use kit::scale::in_ms;

#[test]
fn c5_semaphore_remembers_a_notify_before_the_wait() {
    let semaphore = Semaphore::new();
    semaphore.notify();
    // Nobody was waiting when the notify came. A far deadline, which a
    // semaphore that forgot the notify has to sit out:
    let start = Instant::now();
    let took = semaphore.wait_until(start + ms(1000));
    let waited = start.elapsed();
    assert!(
        took && waited < ms(500),
        "C5 something_changed: a notify sent before the wait was lost: \
         wait_until waited {} ms and returned {took}",
        in_ms(waited)
    );
}

#[test]
fn c5_semaphore_gives_one_permit_per_notify() {
    let semaphore = Semaphore::new();
    semaphore.notify();
    semaphore.notify();
    let now = Instant::now();
    let permits = (0..3).filter(|_| semaphore.wait_until(now)).count();
    assert_eq!(
        permits, 2,
        "C5 something_changed: two notifies gave {permits} permit(s)"
    );
}

#[test]
fn c5_semaphore_times_out_when_nobody_notifies() {
    let semaphore = Semaphore::new();
    let start = Instant::now();
    let took = semaphore.wait_until(start + ms(30));
    assert!(
        !took && start.elapsed() >= ms(30),
        "C5: with no notify, wait_until returned {took} after {} ms",
        in_ms(start.elapsed())
    );
}

#[test]
fn c5_semaphore_wakes_a_thread_already_waiting() {
    let semaphore = Arc::new(Semaphore::new());
    let waiter = {
        let semaphore = Arc::clone(&semaphore);
        std::thread::spawn(move || {
            semaphore.wait();
        })
    };
    // Whether the waiter is already asleep or not yet there, one notify is
    // enough for a semaphore: that is its point.
    semaphore.notify();
    let start = Instant::now();
    while !waiter.is_finished() && start.elapsed() < ms(2000) {
        std::thread::sleep(ms(1));
    }
    let woke = waiter.is_finished();
    if !woke {
        // The notify was lost; the waiter is asleep by now, so another one
        // reaches it: wake it, so that no thread outlives the check.
        semaphore.notify();
    }
    waiter.join().expect("the waiter");
    assert!(
        woke,
        "C5 something_changed: wait() was still asleep 2000 ms after a notify"
    );
}
