//! The Java Timer article closes with a table that sets java.util.Timer
//! beside its own timer. This prints that table again for four timers:
//! java.util.Timer and our Timer (stage 5's timer.rs), then
//! ScheduledThreadPoolExecutor and our scheduled pool (scheduled.rs). One
//! Markdown row per property: the article's rows, then the ones these two
//! chapters add.
//!
//! Two tables, so that each fits a page. The first, the JDK's, is typed:
//! each cell says where in OpenJDK's `java/util/Timer.java` or
//! `java/util/concurrent/ScheduledThreadPoolExecutor.java` (and the
//! classes they build on) the fact can be read. Every cell of the second,
//! ours, is measured by this run, both timers put through the same check
//! for each row, and says what it saw; the one exception says so.
//!
//! ```text
//! cargo run -p threadpool-executor --example timer_vs_scheduled_pool
//! ```

use std::error::Error;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use interrupt_cancel::interrupt;
use interrupt_cancel::timer::Timer;
use kit::cpu::ThreadCpu;
use kit::pause::Pause;
use kit::timeline::spin;
use kit::{Recorder, ms, threads};
use threadpool_executor::deadline::Deadline;
use threadpool_executor::factory::NamedThreads;
use threadpool_executor::queue::WorkQueue;
use threadpool_executor::scheduled::{ScheduledThreadPool, ScheduledVariant};

type Checked = Result<String, Box<dyn Error>>;

/// A one-shot job, and a way to schedule one on either timer.
type Job = Box<dyn FnOnce() + Send>;
type Schedule<'a> = &'a mut dyn FnMut(Duration, Job) -> Result<(), Box<dyn Error>>;

/// A periodic job, and a way to schedule one with a fixed delay.
type Periodic = Box<dyn FnMut() + Send>;
type Repeat<'a> = &'a mut dyn FnMut(Periodic) -> Result<(), Box<dyn Error>>;

/// A row: the property; java.util.Timer's cell and the check that fills
/// ours; ScheduledThreadPoolExecutor's cell and the check that fills ours.
struct Row {
    property: &'static str,
    java_timer: &'static str,
    our_timer: fn() -> Checked,
    java_pool: &'static str,
    our_pool: fn() -> Checked,
}

/// Our scheduled pool with `core` threads named `<prefix>1`, `<prefix>2`...
fn pool(prefix: &str, core: usize) -> Result<ScheduledThreadPool, Box<dyn Error>> {
    Ok(ScheduledThreadPool::builder()
        .core_pool_size(core)
        .thread_factory(NamedThreads::with_prefix(prefix))
        .build()?)
}

/// How many threads this process has.
fn thread_count() -> Result<usize, Box<dyn Error>> {
    Ok(std::fs::read_dir("/proc/self/task")?.count())
}

/// The name of the thread running the caller.
fn me() -> String {
    std::thread::current().name().unwrap_or("?").to_owned()
}

fn us(d: Duration) -> u128 {
    d.as_micros()
}

// ---------------------------------------------------------------------
// Number of threads.

fn timer_threads() -> Checked {
    let before = thread_count()?;
    let timer = Timer::new(&threads::unique_name("cmp-thr"))?;
    let (tx, rx) = mpsc::channel();
    for _ in 0..100 {
        let tx = tx.clone();
        timer.schedule(Duration::ZERO, move || {
            let _ = tx.send(me());
        })?;
    }
    drop(tx);
    let mut names: Vec<String> = rx.iter().collect();
    names.sort();
    names.dedup();
    let after = thread_count()? - before;
    Ok(format!(
        "1: after 100 tasks the process had {after} more thread, and they ran on {} thread",
        names.len()
    ))
}

fn pool_threads() -> Checked {
    let before = thread_count()?;
    let pool = pool("cmp-pthr-", 4)?;
    let (tx, rx) = mpsc::channel();
    for _ in 0..100 {
        let tx = tx.clone();
        pool.schedule(Duration::ZERO, move || {
            spin(Duration::from_micros(200));
            let _ = tx.send(me());
        })?;
    }
    drop(tx);
    let mut names: Vec<String> = rx.iter().collect();
    names.sort();
    names.dedup();
    let after = thread_count()? - before;
    Ok(format!(
        "The core size: with core 4, after 100 tasks the process had {after} more threads \
         (`pool_size()` {}), and the tasks ran on {} of them",
        pool.pool_size(),
        names.len()
    ))
}

// ---------------------------------------------------------------------
// Threads started when it is built.

fn timer_started() -> Checked {
    let before = thread_count()?;
    let name = threads::unique_name("cmp-start");
    let timer = Timer::new(&name)?;
    let added = thread_count()? - before;
    // It names itself once it runs: finding it by name means it started.
    let started = ThreadCpu::named(&name).is_ok();
    drop(timer);
    Ok(format!(
        "Yes: right after `Timer::new`, {added} more thread, {}",
        if started {
            "which had started (it had named itself)"
        } else {
            "NOT STARTED"
        }
    ))
}

fn pool_started() -> Checked {
    let before = thread_count()?;
    let pool = pool("cmp-pst-", 4)?;
    let built = thread_count()? - before;
    pool.schedule(Duration::from_secs(3600), || ())?;
    let first = thread_count()? - before;
    pool.schedule(Duration::from_secs(3600), || ())?;
    let second = thread_count()? - before;
    Ok(format!(
        "No: right after `build`, {built} more threads; after the first `schedule`, {first}; \
         after the second, {second}"
    ))
}

// ---------------------------------------------------------------------
// Shared data structure: a heap ordered by deadline.

/// 1000 deadlines in a scrambled order, 10 us apart once sorted, then 100
/// with one deadline after all of those: the order they ran in.
fn order_check(schedule: Schedule<'_>) -> Result<bool, Box<dyn Error>> {
    let (tx, rx) = mpsc::channel();
    let start = Instant::now() + ms(50);
    let order: Vec<u64> = (0..1000u64).map(|i| i * 7919 % 1000).collect();
    for &k in &order {
        let tx = tx.clone();
        let at = start + Duration::from_micros(10 * k);
        schedule(
            at.saturating_duration_since(Instant::now()),
            Box::new(move || {
                let _ = tx.send(k);
            }),
        )?;
    }
    let tie = (start + ms(20)).saturating_duration_since(Instant::now());
    for k in 1000..1100u64 {
        let tx = tx.clone();
        schedule(
            tie,
            Box::new(move || {
                let _ = tx.send(k);
            }),
        )?;
    }
    drop(tx);
    let ran: Vec<u64> = rx.iter().collect();
    Ok(ran.len() == 1100 && ran.windows(2).all(|w| w[0] < w[1]))
}

fn in_order(sorted: bool) -> &'static str {
    if sorted {
        "in deadline order"
    } else {
        "OUT OF ORDER"
    }
}

fn timer_heap() -> Checked {
    let timer = Timer::new(&threads::unique_name("cmp-heap"))?;
    let sorted = order_check(&mut |delay, task| {
        timer.schedule(delay, task)?;
        Ok(())
    })?;
    drop(timer);
    Ok(format!(
        "std's `BinaryHeap` beside a table of task slots: 1100 tasks scheduled in a scrambled \
         order ran {} (100 with one deadline, in the order scheduled)",
        in_order(sorted)
    ))
}

fn pool_heap() -> Checked {
    let pool = pool("cmp-pheap-", 1)?;
    let sorted = order_check(&mut |delay, task| {
        pool.schedule(delay, task)?;
        Ok(())
    })?;
    let far: Vec<_> = (0..1000)
        .map(|_| pool.schedule(Duration::from_secs(3600), || ()))
        .collect::<Result<_, _>>()?;
    let before = pool.queue().len();
    far[500].cancel(false);
    let after = pool.queue().len();
    Ok(format!(
        "A heap in a `Vec` whose tasks keep their index: the same 1100 tasks ran {} on one \
         worker; cancelling one from the middle of 1000 took it out at once (queue length \
         {before}, then {after})",
        in_order(sorted)
    ))
}

// ---------------------------------------------------------------------
// Waits with a timeout.

fn timer_timed_wait() -> Checked {
    let name = threads::unique_name("cmp-wait");
    let timer = Timer::new(&name)?;
    timer.schedule(Duration::from_secs(3600), || {})?;
    let share = ThreadCpu::named(&name)?.share_over(ms(200))?;
    let rec = Recorder::new();
    let r = rec.clone();
    timer.schedule(ms(20), move || {
        r.record("ran");
    })?;
    let ran = rec.eventually("ran", ms(5000)).ok_or("it did not run")?;
    drop(timer);
    Ok(format!(
        "Yes, its one thread: waiting for a task an hour away it used {} us of CPU in 200 ms; \
         a task due in 20 ms, scheduled then, ran after {} ms",
        us(share.cpu),
        ran.as_millis()
    ))
}

fn pool_timed_wait() -> Checked {
    let prefix = "cmp-pwait-";
    let pool = pool(prefix, 4)?;
    pool.prestart_all_core_threads();
    pool.schedule(Duration::from_secs(3600), || ())?;
    let quiet = Instant::now() + ms(2000);
    while pool.queue().waiting() < 4 && Instant::now() < quiet {
        std::thread::sleep(Duration::from_millis(1));
    }
    let (waiting, leader) = (pool.queue().waiting(), pool.queue().has_leader());
    let cpus: Vec<ThreadCpu> = (1..=4)
        .map(|i| ThreadCpu::named(&format!("{prefix}{i}")))
        .collect::<Result<_, _>>()?;
    let before: Vec<Duration> = cpus.iter().map(ThreadCpu::used).collect::<Result<_, _>>()?;
    std::thread::sleep(ms(200));
    let used: Duration = cpus
        .iter()
        .zip(&before)
        .map(|(cpu, before)| cpu.used().map(|now| now.saturating_sub(*before)))
        .sum::<Result<_, _>>()?;
    let rec = Recorder::new();
    let r = rec.clone();
    pool.schedule(ms(20), move || {
        r.record("ran");
    })?;
    let ran = rec.eventually("ran", ms(5000)).ok_or("it did not run")?;
    Ok(format!(
        "One leader: of {waiting} idle workers, {} waited timed for the head an hour away; the \
         four used {} us of CPU in 200 ms; a task due in 20 ms, scheduled then, ran after {} ms",
        if leader { "one" } else { "NONE" },
        us(used),
        ran.as_millis()
    ))
}

// ---------------------------------------------------------------------
// Lock.

fn timer_lock() -> Checked {
    const PEEKED: &str = "interrupt-cancel::timer: peeked the head, not yet waiting";
    let name = threads::unique_name("cmp-lock");
    let pause = Pause::arm(PEEKED, &name);
    let timer = std::sync::Arc::new(Timer::new(&name)?);
    timer.schedule(Duration::from_secs(3600), || {})?;
    pause.wait_reached(); // the thread holds the queue's lock here
    let rec = Recorder::new();
    let client = {
        let (timer, rec) = (std::sync::Arc::clone(&timer), rec.clone());
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
    pause.release();
    client.join().map_err(|_| "the client panicked")?;
    let returned = rec.at("schedule returned").ok_or("no return")?;
    drop(timer);
    Ok(format!(
        "The queue's own lock, which the thread holds while it looks at the head: with the \
         thread held there, `schedule` waited {} ms",
        returned.saturating_sub(called).as_millis()
    ))
}

fn pool_lock() -> Checked {
    Ok(
        "The delayed queue's one `Mutex` and one `Condvar` (delayed_queue.rs), and the \
        pool's own lock for its set of workers. Read in the code, not measured: no pause \
        point sits inside the queue's lock"
            .to_owned(),
    )
}

// ---------------------------------------------------------------------
// The clock.

fn timer_clock() -> Checked {
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
        "No: `schedule_at` takes a monotonic `Instant` (this example compiles because it \
         does); the task ran {} us after it",
        us(ran.saturating_duration_since(at))
    ))
}

fn pool_clock() -> Checked {
    let pool = pool("cmp-pclk-", 1)?;
    let (tx, rx) = mpsc::channel();
    let future = pool.schedule(ms(1), move || {
        let _ = tx.send(Instant::now());
    })?;
    // The check again: a `Deadline` converts to a monotonic `Instant`.
    let due: Instant = future.deadline().to_instant().ok_or("no instant")?;
    let ran = rx.recv_timeout(ms(5000))?;
    Ok(format!(
        "No: a `Deadline` counts nanoseconds on the monotonic clock (`to_instant` gives an \
         `Instant`; this compiles because it does); the task ran {} us after it",
        us(ran.saturating_duration_since(due))
    ))
}

// ---------------------------------------------------------------------
// One long task and the next one (I4).

/// Task 1 is due at 10 ms and runs for 70 ms; task 2 is due at 30 ms.
/// Returns when task 2 ran.
fn long_task(schedule: Schedule<'_>) -> Result<Duration, Box<dyn Error>> {
    let rec = Recorder::new();
    schedule(ms(10), Box::new(|| spin(ms(70))))?;
    let r = rec.clone();
    schedule(
        ms(30),
        Box::new(move || {
            r.record("task 2");
        }),
    )?;
    Ok(rec
        .eventually("task 2", ms(5000))
        .ok_or("task 2 never ran")?)
}

fn timer_long_task() -> Checked {
    let timer = Timer::new(&threads::unique_name("cmp-long"))?;
    let ran = long_task(&mut |delay, task| {
        timer.schedule(delay, task)?;
        Ok(())
    })?;
    Ok(format!(
        "Yes: task 1 due at 10 ms runs 70 ms; task 2, due at 30 ms, ran at {} ms",
        ran.as_millis()
    ))
}

fn pool_long_task() -> Checked {
    let pool = pool("cmp-plong-", 2)?;
    let ran = long_task(&mut |delay, task| {
        pool.schedule(delay, task)?;
        Ok(())
    })?;
    Ok(format!(
        "Not while a worker is free: with core 2, the same task 2 ran at {} ms",
        ran.as_millis()
    ))
}

// ---------------------------------------------------------------------
// A task panics.

fn timer_panic() -> Checked {
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
    let next = done.recv_timeout(ms(5000)).is_ok();
    let same = threads::tids_named(&name)? == vec![tid];
    let state = task.state();
    drop(timer);
    Ok(format!(
        "Caught: the hook got {reported:?}, the handle says `{state:?}`; the next task {} {}",
        if next { "ran" } else { "DID NOT run" },
        if same {
            "on the same thread"
        } else {
            "on ANOTHER thread"
        }
    ))
}

fn pool_panic() -> Checked {
    let pool = pool("cmp-ppanic-", 1)?;
    let failing = pool.schedule(Duration::ZERO, || -> u32 {
        panic!("a task panics, on purpose")
    })?;
    let got = failing.get_timeout(ms(5000));
    let first = pool.schedule(Duration::ZERO, me)?.get_timeout(ms(5000))?;
    let periodic_runs = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let runs = std::sync::Arc::clone(&periodic_runs);
    let periodic = pool.schedule_at_fixed_rate(Duration::ZERO, ms(2), move || {
        if runs.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 1 {
            panic!("the second run panics");
        }
    })?;
    let stopped = periodic.get_timeout(ms(5000));
    std::thread::sleep(ms(20));
    let after = periodic_runs.load(std::sync::atomic::Ordering::SeqCst);
    Ok(format!(
        "Caught by the task's future: `get` returned `{got:?}`; the next task ran on {first}, \
         the same worker (pool size {}); a periodic task whose second run panicked stopped \
         after {after} runs, and its `get` returned `{stopped:?}`",
        pool.pool_size()
    ))
}

// ---------------------------------------------------------------------
// Stopping it.

fn timer_cancel() -> Checked {
    let name = threads::unique_name("cmp-cancel");
    let timer = Timer::new(&name)?;
    let rec = Recorder::new();
    let r = rec.clone();
    let running = timer.schedule(Duration::ZERO, move || {
        r.record("long task started");
        std::thread::sleep(ms(50));
    })?;
    let queued = timer.schedule(Duration::from_secs(3600), || {})?;
    rec.eventually("long task started", ms(5000))
        .ok_or("the task did not start")?;
    timer.cancel();
    let refused = timer.schedule(Duration::ZERO, || {}).is_err();
    let gone = threads::gone_within(&name, ms(1000));
    Ok(format!(
        "`cancel`: the queued task became `{:?}`, the running one finished (`{:?}`), \
         `schedule` then {}; the thread {}",
        queued.state(),
        running.state(),
        if refused { "failed" } else { "WAS ACCEPTED" },
        if gone { "ended" } else { "was STILL THERE" }
    ))
}

fn pool_shutdown() -> Checked {
    let pool = pool("cmp-pshut-", 1)?;
    let rec = Recorder::new();
    let r = rec.clone();
    let delayed = pool.schedule(ms(30), move || {
        r.record("delayed ran");
    })?;
    let periodic = pool.schedule_at_fixed_rate(Duration::ZERO, ms(5), || ())?;
    pool.shutdown();
    let refused = pool.schedule(Duration::ZERO, || ()).is_err();
    let ran = rec.eventually("delayed ran", ms(5000)).is_some();
    let ended = pool.await_termination(ms(5000));
    let other = pool_for_shutdown_now()?;
    Ok(format!(
        "`shutdown`: the task due in 30 ms {}, the periodic task was {}, `schedule` then {}, \
         and the pool {}; `shutdown_now` on a pool with 3 tasks queued handed back {}",
        if ran && delayed.is_done() {
            "still ran"
        } else {
            "DID NOT run"
        },
        if periodic.is_cancelled() {
            "cancelled"
        } else {
            "NOT cancelled"
        },
        if refused { "failed" } else { "WAS ACCEPTED" },
        if ended { "ended" } else { "DID NOT end" },
        other
    ))
}

fn pool_for_shutdown_now() -> Result<usize, Box<dyn Error>> {
    let pool = pool("cmp-pnow-", 1)?;
    pool.schedule(Duration::from_secs(3600), || ())?;
    pool.schedule(Duration::from_secs(7200), || ())?;
    pool.schedule_at_fixed_rate(Duration::from_secs(3600), ms(5), || ())?;
    let back = pool.shutdown_now();
    for task in &back {
        task.cancel(false);
    }
    Ok(back.len())
}

// ---------------------------------------------------------------------
// Fixed delay.

/// Period 20 ms, runs of 10 ms: the mean gap between starts.
fn fixed_delay(schedule: Repeat<'_>) -> Result<f64, Box<dyn Error>> {
    let rec = Recorder::new();
    let r = rec.clone();
    schedule(Box::new(move || {
        r.record("run");
        spin(ms(10));
    }))?;
    rec.wait_until_count("run", 6, ms(5000))
        .ok_or("fewer than 6 runs")?;
    let starts: Vec<Duration> = rec
        .events()
        .iter()
        .filter(|e| e.what == "run")
        .map(|e| e.at)
        .collect();
    Ok((starts[5] - starts[0]).as_secs_f64() * 1000.0 / 5.0)
}

fn timer_fixed_delay() -> Checked {
    let timer = Timer::new(&threads::unique_name("cmp-delay"))?;
    let mean = fixed_delay(&mut |job| {
        timer.schedule_with_fixed_delay(Duration::ZERO, ms(20), job)?;
        Ok(())
    })?;
    drop(timer);
    Ok(format!(
        "From the start of the last run: period 20 ms, runs of 10 ms, runs started {mean:.1} \
         ms apart"
    ))
}

fn pool_fixed_delay() -> Checked {
    let pool = pool("cmp-pdelay-", 1)?;
    let mean = fixed_delay(&mut |job| {
        pool.schedule_with_fixed_delay(Duration::ZERO, ms(20), job)?;
        Ok(())
    })?;
    Ok(format!(
        "From the end of the last run: the same task, runs started {mean:.1} ms apart"
    ))
}

// ---------------------------------------------------------------------
// Cancelled tasks in the queue.

fn timer_cancelled() -> Checked {
    let timer = Timer::new(&threads::unique_name("cmp-purge"))?;
    let tasks: Vec<_> = (0..1000)
        .map(|_| timer.schedule(Duration::from_secs(3600), || {}))
        .collect::<Result<_, _>>()?;
    for task in &tasks {
        task.cancel();
    }
    let queued = timer.queued();
    let purged = timer.purge();
    Ok(format!(
        "Kept: 1000 tasks cancelled, {queued} still queued; `purge()` removed {purged}"
    ))
}

fn pool_cancelled() -> Checked {
    let pool = pool("cmp-pcanc-", 1)?;
    let mut lengths = Vec::new();
    for remove in [true, false] {
        pool.set_remove_on_cancel(remove);
        let tasks: Vec<_> = (0..1000)
            .map(|_| pool.schedule(Duration::from_secs(3600), || ()))
            .collect::<Result<_, _>>()?;
        for task in &tasks {
            task.cancel(false);
        }
        lengths.push(pool.queue().len());
    }
    Ok(format!(
        "Removed at once (remove-on-cancel is on by default, T14): 1000 tasks cancelled, \
         {} left queued; with it off, as in the JDK, {}",
        lengths[0], lengths[1]
    ))
}

// ---------------------------------------------------------------------
// Asking a running task to stop.

fn sleeps_an_hour(
    tx: mpsc::Sender<(Instant, String)>,
    started: mpsc::Sender<()>,
) -> impl FnOnce() + Send + 'static {
    move || {
        let _ = started.send(());
        let token = interrupt::current().expect("a worker has an interrupt token");
        let slept = token.sleep(Duration::from_secs(3600));
        let _ = tx.send((Instant::now(), format!("{slept:?}")));
    }
}

fn timer_stop_task() -> Checked {
    let timer = Timer::new(&threads::unique_name("cmp-stop"))?;
    let (tx, ended) = mpsc::channel();
    let (started_tx, started) = mpsc::channel();
    let task = timer.schedule(Duration::ZERO, sleeps_an_hour(tx, started_tx))?;
    started.recv_timeout(ms(5000))?;
    let asked = Instant::now();
    let delivered = task.interrupt();
    let (at, slept) = ended.recv_timeout(ms(5000))?;
    drop(timer);
    Ok(format!(
        "`TaskHandle::interrupt` (it said {delivered}): an hour's interruptible sleep got \
         {slept} after {} us",
        us(at.saturating_duration_since(asked))
    ))
}

fn pool_stop_task() -> Checked {
    let pool = pool("cmp-pstop-", 1)?;
    let (tx, ended) = mpsc::channel();
    let (started_tx, started) = mpsc::channel();
    let future = pool.schedule(Duration::ZERO, sleeps_an_hour(tx, started_tx))?;
    started.recv_timeout(ms(5000))?;
    let asked = Instant::now();
    let cancelled = future.cancel(true);
    let (at, slept) = ended.recv_timeout(ms(5000))?;
    Ok(format!(
        "`cancel(true)` (it said {cancelled}): the same sleep got {slept} after {} us; the \
         future is `{:?}`",
        us(at.saturating_duration_since(asked)),
        future.state()
    ))
}

// ---------------------------------------------------------------------
// A delay too long for the clock.

fn timer_huge_delay() -> Checked {
    let timer = Timer::new(&threads::unique_name("cmp-huge"))?;
    let refused = match timer.schedule(Duration::MAX, || {}) {
        Ok(_) => "ACCEPTED".to_owned(),
        Err(e) => format!("refused: \"{e}\""),
    };
    Ok(format!("`schedule(Duration::MAX)` {refused}"))
}

fn pool_huge_delay() -> Checked {
    let pool = pool("cmp-phuge-", 1)?;
    let never = pool.schedule(Duration::MAX, || ())?;
    let rec = Recorder::new();
    let r = rec.clone();
    pool.schedule(ms(10), move || {
        r.record("ran");
    })?;
    let ran = rec.eventually("ran", ms(5000)).ok_or("it did not run")?;
    // T15's buggy variant, for contrast: a fixed delay that wraps.
    let wraps = ScheduledThreadPool::builder()
        .variant(ScheduledVariant::WrappingDelay)
        .thread_factory(NamedThreads::with_prefix("cmp-pwrap-"))
        .build()?;
    let huge = Duration::from_nanos(i64::MAX as u64);
    let looping = wraps.schedule_with_fixed_delay(Duration::ZERO, huge, || ())?;
    std::thread::sleep(ms(20));
    let wrapped = looping.deadline() < Deadline::now();
    drop(wraps);
    Ok(format!(
        "`schedule(Duration::MAX)` is never: due at `Deadline::FOREVER` ({}); a task due in \
         10 ms ran at {} ms. (With T15's wrapping_delay.rs, a fixed delay of 2^63 - 1 ns \
         {})",
        never.deadline() == Deadline::FOREVER,
        ran.as_millis(),
        if wrapped {
            "wrapped into the past"
        } else {
            "did not wrap"
        }
    ))
}

fn main() -> Result<(), Box<dyn Error>> {
    // Two rows panic on purpose: keep the console quiet about it.
    std::panic::set_hook(Box::new(|_| {}));
    let rows = [
        Row {
            property: "Number of threads",
            java_timer: "1: one `TimerThread`, the field `thread`",
            our_timer: timer_threads,
            java_pool: "`corePoolSize` (the maximum \"has no useful effect\", says the class \
                        documentation)",
            our_pool: pool_threads,
        },
        Row {
            property: "Thread created and started when it is built",
            java_timer: "Yes: the field's initializer creates it, every constructor calls \
                         `thread.start()`",
            our_timer: timer_started,
            java_pool: "No: `delayedExecute` calls `ensurePrestart`, which starts one core \
                        thread per task until there are `corePoolSize` (or one, with a core \
                        size of 0)",
            our_pool: pool_started,
        },
        Row {
            property: "Shared data structure",
            java_timer: "`TaskQueue`, a binary heap in an array (128 slots, doubled when full)",
            our_timer: timer_heap,
            java_pool: "`DelayedWorkQueue`, a binary heap in an array (16 slots, grown by half) \
                        whose `ScheduledFutureTask`s record their `heapIndex`; ties go to the \
                        lower `sequenceNumber`",
            our_pool: pool_heap,
        },
        Row {
            property: "Waits with a timeout?",
            java_timer: "Yes: `queue.wait(executionTime - currentTime)` in \
                         `TimerThread.mainLoop`",
            our_timer: timer_timed_wait,
            java_pool: "Only the leader: `take` waits `available.awaitNanos(delay)` if no \
                        other thread leads, `available.await()` if one does",
            our_pool: pool_timed_wait,
        },
        Row {
            property: "Lock",
            java_timer: "The queue itself: `synchronized(queue)` in `sched`, `cancel`, `purge` \
                         and `mainLoop`",
            our_timer: timer_lock,
            java_pool: "The queue's `ReentrantLock` and its one `Condition`, `available`; the \
                        workers' set under the pool's `mainLock`",
            our_pool: pool_lock,
        },
        Row {
            property: "Reads the wall clock for deadlines?",
            java_timer: "Yes: `sched` and `mainLoop` read `System.currentTimeMillis()`",
            our_timer: timer_clock,
            java_pool: "No: `triggerTime` and `getDelay` read `System.nanoTime()`",
            our_pool: pool_clock,
        },
        Row {
            property: "A long task makes the next one late (I4)",
            java_timer: "Yes: `mainLoop` runs every task on the one thread",
            our_timer: timer_long_task,
            java_pool: "Only when every core thread is busy",
            our_pool: pool_long_task,
        },
        Row {
            property: "A task throws (panics)",
            java_timer: "The thread dies (`mainLoop` catches only `InterruptedException`); \
                         `run`'s `finally` cancels the timer",
            our_timer: timer_panic,
            java_pool: "The task's `FutureTask` keeps the exception and `get` throws \
                        `ExecutionException`; the worker goes on; a periodic task's later runs \
                        are suppressed",
            our_pool: pool_panic,
        },
        Row {
            property: "Stopping it",
            java_timer: "`cancel()` clears the queue and lets a running task finish; `sched` \
                         then throws `IllegalStateException`",
            our_timer: timer_cancel,
            java_pool: "`shutdown()` takes no new task; by default delayed tasks still run and \
                        periodic ones are cancelled; `shutdownNow()` interrupts the workers and \
                        returns the tasks never started",
            our_pool: pool_shutdown,
        },
        Row {
            property: "Fixed delay counts from",
            java_timer: "The start of the last run: `mainLoop` reschedules at `currentTime - \
                         period`, read before the run",
            our_timer: timer_fixed_delay,
            java_pool: "The end of the last run: `run` calls `setNextRunTime` after \
                        `runAndReset`, which sets `triggerTime(-p)`, now plus the delay",
            our_pool: pool_fixed_delay,
        },
        Row {
            property: "A cancelled task in the queue",
            java_timer: "Stays until it reaches the head (`mainLoop` drops it then) or \
                         `purge()`",
            our_timer: timer_cancelled,
            java_pool: "Stays until its delay elapses, unless `setRemoveOnCancelPolicy(true)`; \
                        the default is `false`",
            our_pool: pool_cancelled,
        },
        Row {
            property: "Asking a running task to stop",
            java_timer: "No API: `TimerTask.cancel()` lets a running task run to completion",
            our_timer: timer_stop_task,
            java_pool: "`future.cancel(true)` interrupts the thread running it (`FutureTask` \
                        keeps that thread in `runner`)",
            our_pool: pool_stop_task,
        },
        Row {
            property: "A delay too long for the clock",
            java_timer: "`schedule` throws `IllegalArgumentException` once `delay + \
                         System.currentTimeMillis()` is negative; `sched` halves a period \
                         above `Long.MAX_VALUE >> 1`",
            our_timer: timer_huge_delay,
            java_pool: "Capped: `triggerTime` adds at most `MAX_NANOS`, `(Long.MAX_VALUE >>> \
                        1) - 1` ns, \"effectively 146 years\" (JDK-8338765; JDK 17's \
                        `overflowFree` instead kept a delay within `Long.MAX_VALUE` of an \
                        overdue head); `setNextRunTime` goes through `triggerTime` too",
            our_pool: pool_huge_delay,
        },
    ];
    // Two tables, so that each fits a page: the JDK's two columns, read in
    // its source; then ours, measured, row for row.
    println!("**The JDK, read in OpenJDK's source**");
    println!();
    println!("| | `java.util.Timer` | `ScheduledThreadPoolExecutor` |");
    println!("|---|---|---|");
    for row in &rows {
        println!(
            "| {} | {} | {} |",
            row.property, row.java_timer, row.java_pool
        );
    }
    // The behaviour the source reading claims, as the JDK showed it.
    let jdk = kit::jdk_run::JdkRun::load()?;
    let run: [(&str, &[&str], &[&str]); 7] = [
        (
            "Threads, and when they start",
            &["timer: its threads"],
            &["scheduled pool: its threads, core 4"],
        ),
        (
            "A long task makes the next one late (I4)",
            &["timer: a task runs 3 units from 1, another is due at 2"],
            &["scheduled pool, core 2: a task runs 3 units from 1, another is due at 2"],
        ),
        (
            "A task throws",
            &["timer: schedule after a task threw"],
            &["scheduled pool: a periodic task fails on its third run"],
        ),
        (
            "Stopping it",
            &[
                "timer: cancel while a task runs and 3 are due",
                "timer: schedule after cancel",
            ],
            &[
                "scheduled pool: the defaults",
                "scheduled pool: a delayed task, then shutdown",
                "scheduled pool: a periodic task, then shutdown",
            ],
        ),
        (
            "Fixed rate",
            &["timer: fixed rate, the first run stalls 3.5 periods"],
            &["scheduled pool: fixed rate, runs 4 periods long, 4 threads"],
        ),
        (
            "Fixed delay counts from",
            &["timer: fixed delay, the first run 2 periods long"],
            &["scheduled pool: fixed delay, the first run 2 periods long, 1 thread"],
        ),
        (
            "A cancelled task in the queue",
            &["timer: purge after 3 of 5 cancelled, not the head"],
            &["scheduled pool: cancel a task due in an hour"],
        ),
    ];
    println!();
    println!(
        "**The JDK {}, run by `cargo xtask jdk`** (the same situations on ours are in \
         [the JDK page](jdk.md))",
        jdk.version
    );
    println!();
    println!("| | `java.util.Timer` | `ScheduledThreadPoolExecutor` |");
    println!("|---|---|---|");
    for (property, timer, pool) in run {
        println!(
            "| {property} | {} | {} |",
            jdk.cell(timer)?,
            jdk.cell(pool)?
        );
    }
    println!();
    println!("**Ours, measured by this run**");
    println!();
    println!("| | Our `Timer` (timer.rs) | Our `ScheduledThreadPool` (scheduled.rs) |");
    println!("|---|---|---|");
    let check = |f: fn() -> Checked| f().unwrap_or_else(|e| format!("CHECK FAILED: {e}"));
    for row in &rows {
        println!(
            "| {} | {} | {} |",
            row.property,
            check(row.our_timer),
            check(row.our_pool)
        );
    }
    Ok(())
}
