//! I1 from real runs, as a Markdown table: interrupted_only.rs's thread is
//! held at each pause point of its take/wait cycle, a client cancels (which
//! interrupts), the thread is let go, and the run measures when it ended.
//!
//! The scenario of `tests/i1_cooperative_interrupt.rs`: with nothing queued
//! (stage 4's P1) or with one task due in 10 s (P2). A thread that lost the
//! interrupt would wait for that task, or forever.
//!
//! ```text
//! cargo run -p interrupt-cancel --example interrupt_every_point
//! ```

use std::error::Error;
use std::sync::Arc;
use std::time::Duration;

use interrupt_cancel::interrupted_only::Timer;
use kit::pause::Pause;
use kit::{Recorder, ms, threads};

const REGISTERED: &str =
    "interrupt-cancel::interruptible_queue: registered the waker, not yet locked";
const EMPTY: &str = "interrupt-cancel::interruptible_queue: queue empty, not yet waiting";
const NOT_DUE: &str = "interrupt-cancel::interruptible_queue: head not due, not yet waiting";
const WOKE: &str = "interrupt-cancel::interruptible_queue: woke up, not yet looked again";
const TOOK: &str = "interrupt-cancel::interrupted_only: took a task, not yet running it";

/// The far task's deadline.
const FAR_MS: u64 = 10_000;
/// How long the thread stays held once the client has called `cancel`.
const HOLD_MS: u64 = 100;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Queue {
    Empty,
    Far,
}

/// What one run measured.
struct Measured {
    /// `cancel` returned while the thread was still held.
    returned_while_held: bool,
    /// From the release to the thread's end; `None` if it was still there
    /// after a second.
    ended_after: Option<Duration>,
    far_task_ran: bool,
}

/// Holds a fresh timer's thread at `point`, cancels from a client thread,
/// releases the thread after `HOLD_MS`, and measures.
fn interrupt_at(queue: Queue, point: &'static str) -> Result<Measured, Box<dyn Error>> {
    let name = threads::unique_name("i1-ex");
    let rec = Recorder::new();
    // To be held at WOKE, the thread must first be waiting, then be woken
    // by a new head: hold it before its wait, arm WOKE, let it wait.
    let first = match (point, queue) {
        (WOKE, Queue::Empty) => EMPTY,
        (WOKE, Queue::Far) => NOT_DUE,
        _ => point,
    };
    let pause = Pause::arm(first, &name);
    let timer = Arc::new(Timer::new(&name)?);
    if queue == Queue::Far {
        let r = rec.clone();
        timer.schedule(ms(FAR_MS), move || {
            r.record("far task ran");
        })?;
    }
    if point == TOOK {
        timer.schedule(Duration::ZERO, || {})?;
    }
    pause.wait_reached();
    let pause = if point == WOKE {
        let woke = Pause::arm(WOKE, &name);
        pause.release();
        // A new head (earlier than the far task) notifies the waiting thread.
        timer.schedule(ms(FAR_MS / 2), || {})?;
        woke.wait_reached();
        woke
    } else {
        pause
    };

    let client = {
        let (timer, rec) = (Arc::clone(&timer), rec.clone());
        std::thread::spawn(move || {
            timer.cancel();
            rec.record("cancel returned");
        })
    };
    std::thread::sleep(ms(HOLD_MS));
    let returned_while_held = rec.at("cancel returned").is_some();
    let released = rec.record("release");
    pause.release();
    let ended_after =
        threads::gone_within(&name, ms(1000)).then(|| rec.elapsed().saturating_sub(released));
    client.join().map_err(|_| "the client panicked")?;
    drop(timer);
    Ok(Measured {
        returned_while_held,
        ended_after,
        far_task_ran: rec.at("far task ran").is_some(),
    })
}

fn main() -> Result<(), Box<dyn Error>> {
    println!(
        "| queue | the thread, held at its pause point | `cancel` returned | the thread ended |"
    );
    println!("|---|---|---|---|");
    let cases = [
        (Queue::Empty, REGISTERED),
        (Queue::Empty, EMPTY),
        (Queue::Empty, WOKE),
        (Queue::Far, REGISTERED),
        (Queue::Far, NOT_DUE),
        (Queue::Far, WOKE),
        (Queue::Far, TOOK),
    ];
    let mut ran = 0;
    for (queue, point) in cases {
        let m = interrupt_at(queue, point)?;
        let queue = match queue {
            Queue::Empty => "empty (P1)".to_owned(),
            Queue::Far => format!("a task due in {} s (P2)", FAR_MS / 1000),
        };
        let what = point.split_once(": ").map_or(point, |(_, what)| what);
        let returned = if m.returned_while_held {
            "at once: the thread held no lock"
        } else {
            // The interrupt's waker takes the queue's lock, which the held
            // thread holds until it waits (or ends).
            "only once the thread let go of the queue's lock"
        };
        let ended = match m.ended_after {
            Some(after) => format!("{} ms after it was let go", after.as_millis()),
            None => "still there a second after it was let go".to_owned(),
        };
        if m.far_task_ran {
            ran += 1;
        }
        println!("| {queue} | {what} | {returned} | {ended} |");
    }
    println!();
    println!("The far task ran in {ran} of these runs: no thread waited for its deadline.");
    Ok(())
}
