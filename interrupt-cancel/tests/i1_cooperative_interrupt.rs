//! I1 `cooperative_interrupt`: one interrupt ends a timer thread wherever it
//! blocks, on an empty queue (stage 4's P1) or waiting for a far deadline
//! (P2), and an interrupt raised at any step of the take/wait cycle is
//! never lost.
//!
//! The scenario, for every pause point of interruptible_queue.rs's `take`
//! and of interrupted_only.rs's loop: hold the timer thread at the point,
//! `cancel` (which interrupts) from a client thread, release the thread,
//! and wait for the thread to be gone. With a task due in 10 s queued (P2)
//! or nothing queued (P1), a thread that lost the interrupt would still be
//! there 10 s later, or forever.
//!
//! Where the point is inside the queue's lock, the client's interrupt
//! blocks in the queue's waker until the thread waits; its notify then
//! wakes it. Where the point is outside, the thread finds the flag raised
//! when it takes the lock (or when it registers). Either way it ends.
#![cfg(not(loom))]

use std::sync::Arc;
use std::time::Duration;

use interrupt_cancel::interrupt::{self, InterruptToken, Interrupted};
use interrupt_cancel::interrupted_only::Timer;
use interrupt_cancel::interruptible_queue::InterruptibleQueue;
use kit::pause::Pause;
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

const REGISTERED: &str =
    "interrupt-cancel::interruptible_queue: registered the waker, not yet locked";
const EMPTY: &str = "interrupt-cancel::interruptible_queue: queue empty, not yet waiting";
const NOT_DUE: &str = "interrupt-cancel::interruptible_queue: head not due, not yet waiting";
const WOKE: &str = "interrupt-cancel::interruptible_queue: woke up, not yet looked again";
const TOOK: &str = "interrupt-cancel::interrupted_only: took a task, not yet running it";

/// The far task's deadline: a thread that lost the interrupt would wait
/// this long (P2).
const FAR_MS: u64 = 10_000;
/// How long a thread may take to end after it is released.
const END_BOUND_MS: u64 = 1_000;

/// What is queued when the interrupt comes.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Queue {
    /// Nothing (P1).
    Empty,
    /// One task due in `FAR_MS` (P2).
    Far,
}

/// Starts a timer whose thread is named `name` and drives its thread to
/// `point`, where it is held when this returns.
fn start_held_at(
    name: &str,
    queue: Queue,
    point: &'static str,
    rec: &Recorder,
) -> (Arc<Timer>, Pause) {
    // To reach WOKE, the thread must be waiting when a new head comes:
    // hold it just before its wait first, and arm WOKE only then (an
    // earlier wake-up would stop there too soon). The new head's push
    // needs the lock the thread holds until it waits, so its notify comes
    // after the wait began.
    let first = if point == WOKE {
        if queue == Queue::Empty {
            EMPTY
        } else {
            NOT_DUE
        }
    } else {
        point
    };
    let pause = Pause::arm(first, name);
    let timer = Arc::new(Timer::new(name).unwrap());
    if queue == Queue::Far {
        let r = rec.clone();
        timer
            .schedule(ms(FAR_MS), move || {
                r.record("far task ran");
            })
            .unwrap();
    }
    if point == TOOK {
        timer.schedule(Duration::ZERO, || {}).unwrap();
    }
    pause.wait_reached();
    if point != WOKE {
        return (timer, pause);
    }
    let woke = Pause::arm(WOKE, name);
    pause.release();
    // A new head, far too but earlier than the far task: it notifies.
    timer.schedule(ms(FAR_MS / 2), || {}).unwrap();
    woke.wait_reached();
    (timer, woke)
}

/// Holds the thread at `point`, cancels from a client, releases the
/// thread; returns when the thread was gone, or `None` if it was still
/// there `END_BOUND_MS` after the release.
fn interrupt_at(queue: Queue, point: &'static str) -> (Option<Duration>, Recorder) {
    let name = threads::unique_name("i1");
    let rec = Recorder::new();
    let (timer, pause) = start_held_at(&name, queue, point, &rec);
    rec.record_as(&name, format!("held at {point:?}"));
    let client = {
        let (timer, rec) = (Arc::clone(&timer), rec.clone());
        std::thread::spawn(move || {
            rec.record_as("client", "cancel (interrupt)");
            timer.cancel();
            rec.record_as("client", "cancel returned");
        })
    };
    rec.eventually("cancel (interrupt)", ms(5000))
        .expect("the client called cancel");
    // Inside the queue's lock the client blocks in the waker; outside it
    // returns at once. Give it a moment either way, then release.
    let _ = rec.eventually("cancel returned", ms(50));
    rec.record_as("test", "release the timer thread");
    pause.release();
    let gone = threads::gone_within(&name, ms(END_BOUND_MS)).then(|| rec.elapsed());
    client.join().unwrap();
    drop(timer);
    threads::assert_gone(&name);
    (gone, rec)
}

fn assert_ends_at_every_point(queue: Queue, points: &[&'static str]) {
    for &point in points {
        let (gone, rec) = interrupt_at(queue, point);
        let cancelled = rec.at("cancel (interrupt)").unwrap();
        assert!(
            gone.is_some(),
            "queue {queue:?}, interrupt at {point:?} (at {} ms): the thread was still there {END_BOUND_MS} ms after its release\n{}",
            in_ms(cancelled),
            rec.log()
        );
        assert!(
            rec.at("far task ran").is_none(),
            "the far task ran: the thread waited for it\n{}",
            rec.log()
        );
    }
}

#[test]
fn i1_cooperative_interrupt_ends_an_idle_thread() {
    // P1: nothing queued. The thread registers, finds the queue empty,
    // waits; a new head wakes it.
    assert_ends_at_every_point(Queue::Empty, &[REGISTERED, EMPTY, WOKE]);
}

#[test]
fn i1_cooperative_interrupt_ends_a_wait_for_a_far_deadline() {
    // P2: a task due in 10 s. The thread registers, finds the head not
    // due, waits for it; an earlier head wakes it; or it has just taken a
    // due task (which runs: it was taken) and goes back to `take`.
    assert_ends_at_every_point(Queue::Far, &[REGISTERED, NOT_DUE, WOKE, TOOK]);
}

#[test]
fn i1_cooperative_interrupt_take_answers_with_interrupted() {
    let queue: InterruptibleQueue<u32> = InterruptibleQueue::new();
    let token = InterruptToken::new();
    let handle = token.handle();
    let taker = {
        let (queue, token) = (queue.clone(), token.clone());
        std::thread::spawn(move || queue.take(&token))
    };
    // Before the taker blocks or after: either way it ends.
    handle.interrupt();
    assert_eq!(taker.join().unwrap(), Err(Interrupted));
    // Sticky: the next take fails at once, until the thread clears it.
    assert_eq!(queue.take(&token), Err(Interrupted));
    assert!(token.clear());
    queue.push(std::time::Instant::now(), 7).unwrap();
    assert_eq!(queue.take(&token), Ok(7));
}

#[test]
fn i1_cooperative_interrupt_sleep_check_and_clear() {
    let token = InterruptToken::new();
    let handle = token.handle();
    assert_eq!(token.sleep(ms(1)), Ok(()));
    let sleeper = {
        let token = token.clone();
        std::thread::spawn(move || {
            token.set_current();
            let slept = token.sleep(ms(60_000));
            (slept, interrupt::check(), interrupt::is_interrupted())
        })
    };
    handle.interrupt();
    assert_eq!(
        sleeper.join().unwrap(),
        (Err(Interrupted), Err(Interrupted), true)
    );
    assert!(handle.is_interrupted());
    assert!(token.clear(), "it was raised");
    assert!(!token.clear(), "and is lowered now");
    assert_eq!(token.check(), Ok(()));
    assert_eq!(Interrupted.to_string(), "interrupted");
}
