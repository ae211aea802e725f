//! The C++ TimerQueue post's demo, with one second scaled to 100 ms: two
//! timers far away and `cancel_all`, a timer that runs, a timer cancelled on
//! its own, and a drop that finds nothing left to cancel.
//!
//! ```text
//! cargo run -p condvar-timer --example something_changed
//! ```

use std::thread;
use std::time::{Duration, Instant};

use condvar_timer::something_changed::TimerQueue;

/// One second of the post's demo.
const SECOND: Duration = Duration::from_millis(100);

fn main() {
    let start = Instant::now();
    let at = move || start.elapsed().as_millis();
    let queue = TimerQueue::new("sc-demo").expect("start the timer thread");

    // Each handler prints its label, whether it was aborted, and when.
    let add = |label: &'static str, delay: Duration| {
        println!(
            "{:>4} ms  main     add {label}, due in {} ms",
            at(),
            delay.as_millis()
        );
        queue
            .add(delay, move |aborted| {
                let thread = thread::current();
                let name = thread.name().unwrap_or("?");
                println!("{:>4} ms  {name}  {label}: aborted={aborted}", at());
            })
            .expect("a small delay fits the clock")
    };

    add("id 1", SECOND * 10);
    add("id 2", SECOND * 10);
    println!(
        "{:>4} ms  main     cancel_all() = {}",
        at(),
        queue.cancel_all()
    );
    add("id 3", SECOND);
    let id4 = add("id 4", SECOND * 2);
    println!(
        "{:>4} ms  main     cancel(id 4) = {}",
        at(),
        queue.cancel(id4)
    );

    // Long enough for id 3 to run, not for id 4's old deadline.
    thread::sleep(SECOND * 3 / 2);
    println!("{:>4} ms  main     shutdown", at());
    let left = queue.shutdown().map_or("?".to_owned(), |n| n.to_string());
    println!(
        "{:>4} ms  main     joined the thread; {left} item(s) were left",
        at()
    );
}
