//! The Java Timer article closes with a table comparing java.util.Timer with
//! the timer it built. This prints that table for java.util.Timer and the
//! finished Timer of this stage (timer.rs), plus rows for this chapter: one
//! Markdown row per property.
//!
//! The java.util.Timer column is typed: each cell says where in OpenJDK's
//! `java/util/Timer.java` (or `TimerTask.java`) the fact can be read. Every
//! cell of our column is measured by this run, and says how. A second table
//! says what the real JDK did in the same situations, read from the last
//! `cargo xtask jdk` run (`kit::jdk_run`), never typed.
//!
//! ```text
//! cargo run -p interrupt-cancel --example java_timer_table
//! ```

use std::error::Error;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use interrupt_cancel::interrupt;
use interrupt_cancel::timer::Timer;
use kit::cpu::ThreadCpu;
use kit::pause::Pause;
use kit::timeline::spin;
use kit::{Recorder, ms, threads};

type Checked = Result<String, Box<dyn Error>>;

/// A row: the property, java.util.Timer's cell, and the check that fills
/// ours.
type Row = (&'static str, &'static str, fn() -> Checked);

/// How many threads this process has.
fn thread_count() -> Result<usize, Box<dyn Error>> {
    Ok(std::fs::read_dir("/proc/self/task")?.count())
}

/// A thread's scheduler state, from `/proc/self/task/<tid>/stat`: `S` is
/// asleep (blocked), `R` running.
fn thread_state(tid: i32) -> Result<char, Box<dyn Error>> {
    let stat = std::fs::read_to_string(format!("/proc/self/task/{tid}/stat"))?;
    let after_name = stat.rsplit_once(')').ok_or("a stat line")?.1;
    Ok(after_name.trim_start().chars().next().ok_or("a state")?)
}

fn threads_row() -> Checked {
    let before = thread_count()?;
    let name = threads::unique_name("cmp-threads");
    let timer = Timer::new(&name)?;
    let created = thread_count()? - before;
    let (tx, rx) = mpsc::channel();
    for _ in 0..1000 {
        let tx = tx.clone();
        timer.schedule(Duration::ZERO, move || {
            let _ = tx.send(std::thread::current().name().map(str::to_owned));
        })?;
    }
    drop(tx);
    let names: Vec<Option<String>> = rx.iter().collect();
    let on_the_timer = names
        .iter()
        .filter(|n| n.as_deref() == Some(name.as_str()))
        .count();
    let after = thread_count()? - before;
    drop(timer);
    Ok(format!(
        "{created}: `Timer::new` added {created} thread to the process; after 1000 tasks ran, still {after}, \
         and {on_the_timer} of the 1000 ran on the thread named after the timer"
    ))
}

fn created_row() -> Checked {
    let before = thread_count()?;
    let timer = Timer::new(&threads::unique_name("cmp-created"))?;
    let added = thread_count()? - before;
    drop(timer);
    Ok(format!(
        "Yes: right after `Timer::new` returned, before any call, the process had {added} more thread"
    ))
}

fn started_row() -> Checked {
    let name = threads::unique_name("cmp-started");
    let timer = Timer::new(&name)?;
    // It names itself when it starts running: wait for that.
    let cpu = ThreadCpu::named(&name)?;
    std::thread::sleep(ms(20));
    let used = cpu.used()?;
    let state = thread_state(cpu.tid())?;
    drop(timer);
    Ok(format!(
        "Yes: with no task scheduled, the new thread had run ({} us of CPU) and was asleep (`{state}` in `/proc`)",
        used.as_micros()
    ))
}

fn heap_row() -> Checked {
    let timer = Timer::new(&threads::unique_name("cmp-heap"))?;
    let start = Instant::now() + ms(50);
    let (tx, rx) = mpsc::channel();
    // 1000 deadlines in a scrambled order, 10 us apart once sorted.
    let order: Vec<u64> = (0..1000u64).map(|i| i * 7919 % 1000).collect();
    for &k in &order {
        let tx = tx.clone();
        timer.schedule_at(start + Duration::from_micros(10 * k), move || {
            let _ = tx.send(k);
        })?;
    }
    // 100 tasks with one deadline, after all of those.
    let tie = start + ms(20);
    for k in 1000..1100u64 {
        let tx = tx.clone();
        timer.schedule_at(tie, move || {
            let _ = tx.send(k);
        })?;
    }
    drop(tx);
    let ran: Vec<u64> = rx.iter().collect();
    let sorted = ran.windows(2).all(|w| w[0] < w[1]);
    drop(timer);
    Ok(format!(
        "std's `BinaryHeap` of (deadline, sequence number, slot), beside a table of task slots: 1100 tasks scheduled \
         in a scrambled order ran {} (100 of them with one deadline, in the order they were scheduled)",
        if sorted && ran.len() == 1100 {
            "in deadline order"
        } else {
            "OUT OF ORDER"
        }
    ))
}

fn timed_wait_row() -> Checked {
    let name = threads::unique_name("cmp-wait");
    let timer = Timer::new(&name)?;
    timer.schedule(Duration::from_secs(3600), || {})?;
    let share = ThreadCpu::named(&name)?.share_over(ms(200))?;
    let rec = Recorder::new();
    let r = rec.clone();
    timer.schedule(ms(20), move || {
        r.record("ran");
    })?;
    let ran = rec
        .eventually("ran", ms(5000))
        .ok_or("the task did not run")?;
    drop(timer);
    Ok(format!(
        "Yes, a timed wait on a condition variable (parking_lot's `Condvar::wait_until`): waiting for a task an hour \
         away, the thread used {} us of CPU in 200 ms; a task due in 20 ms, scheduled meanwhile, ran {} ms after it \
         was scheduled: the notify woke the wait",
        share.cpu.as_micros(),
        ran.as_millis()
    ))
}

fn lock_row() -> Checked {
    const PEEKED: &str = "interrupt-cancel::timer: peeked the head, not yet waiting";
    let name = threads::unique_name("cmp-lock");
    let pause = Pause::arm(PEEKED, &name);
    let timer = Arc::new(Timer::new(&name)?);
    timer.schedule(Duration::from_secs(3600), || {})?;
    pause.wait_reached(); // the thread holds the queue's lock here
    let rec = Recorder::new();
    let client = {
        let (timer, rec) = (Arc::clone(&timer), rec.clone());
        std::thread::spawn(move || {
            rec.record("schedule called");
            let _ = timer.schedule(ms(10), || {});
            rec.record("schedule returned");
        })
    };
    let called = rec
        .eventually("schedule called", ms(5000))
        .ok_or("the client did not start")?;
    std::thread::sleep(ms(100));
    let released = rec.record("thread released");
    pause.release();
    client.join().map_err(|_| "the client panicked")?;
    let returned = rec
        .at("schedule returned")
        .ok_or("schedule did not return")?;
    drop(timer);
    Ok(format!(
        "The queue's own lock, which the thread holds while it looks at the head: with the thread held there, a \
         client's `schedule` waited {} ms, and returned {} ms after the thread was let go",
        returned.saturating_sub(called).as_millis(),
        returned.saturating_sub(released).as_millis()
    ))
}

fn clock_row() -> Checked {
    let timer = Timer::new(&threads::unique_name("cmp-clock"))?;
    // This line is the check: it compiles because a deadline is an Instant.
    let at: Instant = Instant::now() + ms(1);
    let (tx, rx) = mpsc::channel();
    timer.schedule_at(at, move || {
        let _ = tx.send(Instant::now());
    })?;
    let ran = rx.recv_timeout(ms(5000))?;
    drop(timer);
    Ok(format!(
        "No: deadlines are `std::time::Instant`s, the monotonic clock that cannot be set back (`schedule_at` takes \
         one; this example compiles only because it does); the task due at that `Instant` ran {} us after it",
        ran.saturating_duration_since(at).as_micros()
    ))
}

fn panic_row() -> Checked {
    let name = threads::unique_name("cmp-panic");
    let (tx, rx) = mpsc::channel();
    let timer = Timer::with_panic_hook(&name, move |message| {
        let _ = tx.send(message.to_owned());
    })?;
    let tid = ThreadCpu::named(&name)?.tid();
    let task = timer.schedule(Duration::ZERO, || panic!("a task panics, on purpose"))?;
    let reported = rx.recv_timeout(ms(5000))?;
    let (done_tx, done) = mpsc::channel();
    timer.schedule(Duration::ZERO, move || {
        let _ = done_tx.send(());
    })?;
    let next_ran = done.recv_timeout(ms(5000)).is_ok();
    let same_thread = threads::tids_named(&name)? == vec![tid];
    let state = task.state();
    drop(timer);
    Ok(format!(
        "The panic is caught: the hook got {reported:?}, the task's handle says `{state:?}`; the next task \
         {}, {}",
        if next_ran { "ran" } else { "DID NOT run" },
        if same_thread {
            "on the same thread (same thread id)"
        } else {
            "on ANOTHER thread"
        }
    ))
}

fn cancel_row() -> Checked {
    let name = threads::unique_name("cmp-cancel");
    let timer = Timer::new(&name)?;
    let rec = Recorder::new();
    let r = rec.clone();
    let running = timer.schedule(Duration::ZERO, move || {
        r.record("long task started");
        std::thread::sleep(ms(100));
        r.record("long task ended");
    })?;
    let queued = timer.schedule(Duration::from_secs(3600), || {})?;
    rec.eventually("long task started", ms(5000))
        .ok_or("the task did not start")?;
    timer.cancel();
    let refused = timer
        .schedule(Duration::ZERO, || {})
        .err()
        .map_or("accepted".to_owned(), |e| format!("\"{e}\""));
    rec.eventually("long task ended", ms(5000))
        .ok_or("the running task did not end")?;
    let gone = threads::gone_within(&name, ms(1000));
    Ok(format!(
        "`cancel` discarded the queued task (its handle: `{:?}`), let the running one finish (`{:?}`), and then \
         `schedule` said {refused}; the thread {} once the running task was over",
        queued.state(),
        running.state(),
        if gone { "ended" } else { "was STILL THERE" }
    ))
}

fn fixed_delay_row() -> Checked {
    let timer = Timer::new(&threads::unique_name("cmp-delay"))?;
    let rec = Recorder::new();
    let r = rec.clone();
    let period = ms(20);
    let task = timer.schedule_with_fixed_delay(Duration::ZERO, period, move || {
        r.record("run");
        spin(period / 2); // each run takes half a period
    })?;
    rec.wait_until_count("run", 6, ms(5000))
        .ok_or("fewer than 6 runs")?;
    task.cancel();
    drop(timer);
    let starts: Vec<Duration> = rec
        .events()
        .iter()
        .filter(|e| e.what == "run")
        .map(|e| e.at)
        .collect();
    let gaps = starts.len().min(6) - 1;
    let mean = (starts[gaps] - starts[0]) / gaps as u32;
    Ok(format!(
        "From the start of the last run: with a period of 20 ms and runs of 10 ms, runs started {:.1} ms apart on \
         average (from their ends, it would be 30)",
        mean.as_secs_f64() * 1000.0
    ))
}

fn stop_a_task_row() -> Checked {
    let timer = Timer::new(&threads::unique_name("cmp-stop"))?;
    let (started_tx, started) = mpsc::channel();
    let (ended_tx, ended) = mpsc::channel();
    let task = timer.schedule(Duration::ZERO, move || {
        let _ = started_tx.send(());
        let token = interrupt::current().expect("a timer thread has a token");
        let slept = token.sleep(Duration::from_secs(3600));
        let _ = ended_tx.send((Instant::now(), slept));
    })?;
    started.recv_timeout(ms(5000))?;
    let asked = Instant::now();
    let delivered = task.interrupt();
    let (at, slept) = ended.recv_timeout(ms(5000))?;
    drop(timer);
    Ok(format!(
        "`TaskHandle::interrupt` (it said {delivered}): a task in an hour-long interruptible sleep got {slept:?} \
         {} us after it; a task that never checks runs to its end (I3)",
        at.saturating_duration_since(asked).as_micros()
    ))
}

fn main() -> Result<(), Box<dyn Error>> {
    // One row's task panics on purpose: keep the console quiet about it.
    std::panic::set_hook(Box::new(|_| {}));
    let rows: [Row; 11] = [
        (
            "Number of threads",
            "1: one `TimerThread`, the field `thread` of each `Timer`",
            threads_row,
        ),
        (
            "Thread created with the timer",
            "Yes: the field's initializer, `new TimerThread(queue)`",
            created_row,
        ),
        (
            "Thread started with the timer",
            "Yes: every constructor calls `thread.start()` (\"All constructors start a timer thread\", says the class's documentation)",
            started_row,
        ),
        (
            "Shared data structure",
            "`TaskQueue`, a binary heap in an array of `TimerTask`s (128 slots to start with, doubled when full)",
            heap_row,
        ),
        (
            "Waits with a timeout?",
            "Yes: `queue.wait(executionTime - currentTime)` in `TimerThread.mainLoop`",
            timed_wait_row,
        ),
        (
            "Lock",
            "The queue itself: `synchronized(queue)` in `sched`, `cancel`, `purge` and `mainLoop`",
            lock_row,
        ),
        (
            "Reads the wall clock for deadlines?",
            "Yes: `sched` and `mainLoop` read `System.currentTimeMillis()`",
            clock_row,
        ),
        (
            "A task throws (panics)",
            "The thread dies (`mainLoop` catches only `InterruptedException`); `TimerThread.run`'s `finally` marks the timer cancelled and clears the queue; `sched` then throws `IllegalStateException(\"Timer already cancelled.\")`",
            panic_row,
        ),
        (
            "`cancel()`",
            "Clears the queue and does not interfere with a running task; `sched` then throws `IllegalStateException(\"Timer already cancelled.\")`",
            cancel_row,
        ),
        (
            "Fixed delay counts the period",
            "From the start of the last run: `mainLoop` reschedules at `currentTime - period` (the period is negative for fixed delay), with `currentTime` read before the run",
            fixed_delay_row,
        ),
        (
            "Asking a running task to stop",
            "No API for it: `TimerTask.cancel()` lets a running task run to completion (its documentation), and the timer's thread is a private field",
            stop_a_task_row,
        ),
    ];
    println!(
        "| | `java.util.Timer` (read in OpenJDK's source) | Our `Timer` (timer.rs), measured by this run |"
    );
    println!("|---|---|---|");
    for (property, java, check) in rows {
        let ours = check().unwrap_or_else(|e| format!("CHECK FAILED: {e}"));
        println!("| {property} | {java} | {ours} |");
    }
    // The behaviour the source reading claims, as the JDK showed it.
    let jdk = kit::jdk_run::JdkRun::load()?;
    let run: [(&str, &[&str]); 4] = [
        (
            "Number of threads, started with the timer",
            &["timer: its threads"],
        ),
        ("A task throws", &["timer: schedule after a task threw"]),
        (
            "`cancel()`",
            &[
                "timer: cancel while a task runs and 3 are due",
                "timer: schedule after cancel",
            ],
        ),
        (
            "Fixed delay counts the period",
            &["timer: fixed delay, the first run 2 periods long"],
        ),
    ];
    println!();
    println!(
        "**`java.util.Timer` run on the JDK {} by `cargo xtask jdk`** (the same situations \
         on ours are in [the JDK page](jdk.md))",
        jdk.version
    );
    println!();
    println!("| | What the JDK did |");
    println!("|---|---|");
    for (property, scenarios) in run {
        println!("| {property} | {} |", jdk.cell(scenarios)?);
    }
    Ok(())
}
