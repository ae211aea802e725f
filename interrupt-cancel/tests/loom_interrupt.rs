//! loom models of the interrupt handshake (I1): an interrupt raised at any
//! point of a blocking call is never lost.
//!
//! Under loom the stage's clock is frozen (`sync::now`) and a timed wait
//! never times out: a head due in an hour is never due, a sleep of an hour
//! never ends. Only the interrupt can end those waits, so an interleaving
//! that loses it shows as a deadlock.
//!
//! ```text
//! cargo xtask loom interrupt-cancel loom_interrupt
//! ```
//!
//! runs its models, which must pass, as the book shows it: the same as
//! `LOOM_LOCATION=1 RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=3 cargo test
//! -p interrupt-cancel --release --target-dir target/loom --test loom_interrupt -- --include-ignored`,
//! cut to the lines that matter (`--full` prints all of it).
#![cfg(loom)]

use std::time::Duration;

use interrupt_cancel::interrupt::{InterruptToken, Interrupted};
use interrupt_cancel::interruptible_queue::InterruptibleQueue;
use loom::thread;

const HOUR: Duration = Duration::from_secs(3600);

/// P1: a take on an empty queue, and an interrupt from another thread.
#[test]
fn i1_loom_interrupt_ends_an_empty_take() {
    loom::model(|| {
        let queue: InterruptibleQueue<u8> = InterruptibleQueue::new();
        let token = InterruptToken::new();
        let handle = token.handle();
        let taker = {
            let queue = queue.clone();
            thread::spawn(move || queue.take(&token))
        };
        handle.interrupt();
        assert_eq!(taker.join().unwrap(), Err(Interrupted));
    });
}

/// P2: a take waiting for a head due in an hour (never, here).
#[test]
fn i1_loom_interrupt_ends_a_wait_for_a_far_head() {
    loom::model(|| {
        let queue: InterruptibleQueue<u8> = InterruptibleQueue::new();
        queue.push_after(HOUR, 1).unwrap();
        let token = InterruptToken::new();
        let handle = token.handle();
        let taker = {
            let queue = queue.clone();
            thread::spawn(move || queue.take(&token))
        };
        handle.interrupt();
        assert_eq!(taker.join().unwrap(), Err(Interrupted));
    });
}

/// The token's own interruptible sleep.
#[test]
fn i1_loom_interrupt_ends_a_sleep() {
    loom::model(|| {
        let token = InterruptToken::new();
        let handle = token.handle();
        let sleeper = thread::spawn(move || token.sleep(HOUR));
        handle.interrupt();
        assert_eq!(sleeper.join().unwrap(), Err(Interrupted));
    });
}

/// The queue's own wake-up: a due item pushed while the taker waits (or
/// before it looks) is taken.
#[test]
fn i1_loom_a_push_reaches_a_take() {
    loom::model(|| {
        let queue: InterruptibleQueue<u8> = InterruptibleQueue::new();
        let token = InterruptToken::new();
        let taker = {
            let queue = queue.clone();
            thread::spawn(move || queue.take(&token))
        };
        queue.push_after(Duration::ZERO, 7).unwrap(); // due on the frozen clock
        assert_eq!(taker.join().unwrap(), Ok(7));
    });
}
