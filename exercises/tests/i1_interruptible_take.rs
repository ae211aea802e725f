//! The check of exercise I1: interrupt a thread blocked in `take`, on an
//! empty queue (P1's place) and before a far deadline (P2's place), at the
//! last moment before it waits; `take` must return `Err(Interrupted)` at
//! once. An interrupt raised before the call must be seen too.
//!
//! `cargo xtask exercise check i1` runs it against your file.

use std::time::{Duration, Instant};

use exercises::i1_interruptible_take::{IDLE, InterruptibleQueue, WAIT};
use interrupt_cancel::interrupt::{InterruptToken, Interrupted};
use kit::pause::Pause;
use kit::scale::in_ms;
use kit::{ms, threads};

/// How soon after the interrupt `take` must have returned.
const WITHIN_MS: u64 = 300;

/// Starts a taker, holds it at `point`, interrupts it, lets it go, and
/// checks that its `take` ended with `Err(Interrupted)`.
fn interrupt_at(point: &'static str, far_head: bool, bug: &str) {
    let name = threads::unique_name("ex-i1");
    let queue = InterruptibleQueue::new();
    if far_head {
        queue
            .push(Instant::now() + Duration::from_secs(10), "far")
            .expect("an open queue");
    }
    let pause = Pause::arm(point, &name);
    let token = InterruptToken::new();
    let (handle, raised) = (token.handle(), token.handle());
    let taker = {
        let queue = queue.clone();
        std::thread::Builder::new()
            .name(name.clone())
            .spawn(move || queue.take(&token))
            .expect("spawn the taker")
    };
    assert!(
        pause.reached_within(ms(5000)),
        "the taker never reached its pause point: keep the `kit::pause_point` calls where they are"
    );
    let start = Instant::now();
    // The interrupt may wait for the lock the held taker has in hand: raise
    // it from another thread.
    let interrupter = std::thread::spawn(move || handle.interrupt());
    // `interrupt` raises the flag first, then wakes the blocked call: let
    // the taker go only once the interrupt is raised.
    while !raised.is_interrupted() {
        assert!(start.elapsed() < ms(5000), "the interrupt was never raised");
        std::thread::yield_now();
    }
    pause.release();
    let ended = threads::gone_within(&name, ms(WITHIN_MS));
    let took = start.elapsed();
    if !ended {
        // The interrupt was lost: free the taker with an item due now.
        queue.push(Instant::now(), "rescue").expect("an open queue");
    }
    let result = taker.join().expect("the taker");
    interrupter.join().expect("the interrupter");
    assert!(
        ended && result == Err(Interrupted),
        "{bug}: interrupted at 0 ms, take {} (it returned {result:?})",
        if ended {
            format!("returned at {} ms", in_ms(took))
        } else {
            format!("was still waiting at {} ms", in_ms(took))
        }
    );
}

#[test]
fn i1_interruptible_take_ends_on_an_empty_queue() {
    interrupt_at(IDLE, false, "P1 cancel_hangs_idle");
}

#[test]
fn i1_interruptible_take_ends_before_a_far_deadline() {
    interrupt_at(WAIT, true, "P2 cancel_waits_for_deadline");
}

#[test]
fn i1_interruptible_take_sees_an_interrupt_raised_before() {
    let queue: InterruptibleQueue<&str> = InterruptibleQueue::new();
    let token = InterruptToken::new();
    token.handle().interrupt();
    assert_eq!(
        queue.take(&token),
        Err(Interrupted),
        "I1: the interrupt came first"
    );
}
