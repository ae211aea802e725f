//! T10 in numbers: wake-ups per fired deadline for 1, 2, 4 and 8 takers,
//! the herd (herd.rs) beside the JDK's leader-follower (delayed_queue.rs)
//! and ours, leader-successor (successor.rs, the scheduled pool's default),
//! measured the way tests/t10_thundering_herd.rs measures them.
//!
//! N taker threads loop on `take()` of one delayed queue. Once all of them
//! wait, 24 items are offered, due 5 ms apart; when every item has been
//! taken and every taker waits again, the queue's own count of wake-ups
//! (every return from a wait: timed out, notified, or spurious) is divided
//! by the 24 deadlines.
//!
//! ```text
//! cargo run -p threadpool-executor --example wakeups_per_deadline
//! ```

use std::error::Error;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::SeqCst};
use std::thread;
use std::time::{Duration, Instant};

use interrupt_cancel::interrupt::InterruptToken;
use kit::ms;
use threadpool_executor::deadline::Deadline;
use threadpool_executor::delayed_queue::{DelayedQueue, Plain, Wait};
use threadpool_executor::queue::WorkQueue;

const DEADLINES: u64 = 24;
const GAP_MS: u64 = 5;
const FIRST_MS: u64 = 5;
const TAKERS: [usize; 4] = [1, 2, 4, 8];

type Item = Plain;

/// Polls until `n` takers wait, for at most two seconds.
fn wait_idle(queue: &DelayedQueue<Item>, n: usize) -> Result<(), Box<dyn Error>> {
    let until = Instant::now() + ms(2000);
    while queue.waiting() != n {
        if Instant::now() > until {
            return Err(format!("{} takers waiting, expected {n}", queue.waiting()).into());
        }
        thread::sleep(Duration::from_millis(1));
    }
    Ok(())
}

/// Wake-ups per fired deadline with `takers` threads.
fn measure(wait: Wait, takers: usize) -> Result<f64, Box<dyn Error>> {
    let queue = DelayedQueue::with_wait(wait);
    let taken = Arc::new(AtomicU64::new(0));
    let mut handles = Vec::new();
    let mut threads = Vec::new();
    for i in 0..takers {
        let token = InterruptToken::new();
        handles.push(token.handle());
        let (queue, taken) = (queue.clone(), Arc::clone(&taken));
        threads.push(
            thread::Builder::new()
                .name(format!("t10w-{i}"))
                .spawn(move || {
                    while queue.take(&token).is_ok() {
                        taken.fetch_add(1, SeqCst);
                    }
                })?,
        );
    }
    wait_idle(&queue, takers)?;
    let before = queue.wakeups();
    let start = Deadline::now();
    for i in 0..DEADLINES {
        queue
            .offer(Arc::new(Item::new(
                start.after(ms(FIRST_MS + i * GAP_MS)),
                i,
                (),
            )))
            .map_err(|_| "offer refused")?;
    }
    let until = Instant::now() + ms(FIRST_MS + DEADLINES * GAP_MS + 2000);
    while taken.load(SeqCst) < DEADLINES && Instant::now() < until {
        thread::sleep(Duration::from_millis(1));
    }
    wait_idle(&queue, takers)?;
    let wakeups = queue.wakeups() - before;
    for handle in &handles {
        handle.interrupt();
    }
    for thread in threads {
        thread.join().map_err(|_| "a taker panicked")?;
    }
    Ok(wakeups as f64 / DEADLINES as f64)
}

fn main() -> Result<(), Box<dyn Error>> {
    println!("wake-ups per fired deadline ({DEADLINES} deadlines {GAP_MS} ms apart)");
    println!("takers   herd.rs   delayed_queue.rs        successor.rs");
    println!("                  (leader-follower)  (leader-successor)");
    for takers in TAKERS {
        let herd = measure(Wait::Herd, takers)?;
        let leader = measure(Wait::LeaderFollower, takers)?;
        let successor = measure(Wait::LeaderSuccessor, takers)?;
        println!("{takers:>6} {herd:>9.2} {leader:>18.2} {successor:>19.2}");
    }
    Ok(())
}
