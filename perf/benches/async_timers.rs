//! `async_timers`: stage 8's timer for futures beside tokio's timer
//! (`tokio::time`, on its current-thread runtime) and `futures-timer`,
//! in one run: what a `Sleep` costs to make, to move, to hold, and how
//! late it wakes its task.
//!
//! The sides:
//!
//! - **`async-timer (stage 8)`**: `Handle::sleep` files the entry (an
//!   `Arc`, a waker slot under a lock) in the driver's hierarchical wheel
//!   at once, under the driver's lock; the first poll stores the task's
//!   waker; the drop takes the entry out by its key. The driver is a
//!   thread of its own, which wakes the task.
//! - **`tokio::time`**: `sleep` makes a future holding its entry inline;
//!   the first poll links it into the runtime's wheel (intrusive lists);
//!   the drop unlinks it. On a current-thread runtime the runtime's own
//!   thread drives the wheel when it parks.
//! - **`futures-timer`**: `Delay::new` allocates its node (an `Arc`) and
//!   hands it to the crate's global timer thread through a lock-free list,
//!   waking that thread; the thread keeps a heap of deadlines.
//!
//! The cases, each in interleaved rounds (`perf::rounds`: a warm-up, then
//! 11 rounds, 3 in quick mode, the order turned each round), each side
//! with a fresh timer for its round (a new runtime; for ours a new driver
//! too; futures-timer's thread is one per process):
//!
//! - **create, poll once, drop**: the life of a timeout whose future won
//!   (A3's case): `k` sleeps, each made, polled once with a waker and
//!   dropped, one after another.
//! - **reset**: 1024 sleeps pending, each polled once; `k` resets, one
//!   sleep after another, each to a new deadline.
//! - **10^5 pending**: 10^5 sleeps made and polled once, all kept pending
//!   (10^4 in quick mode): the time per sleep.
//! - **bytes per pending sleep**: the same 10^5, in a fresh process per
//!   side (three each, interleaved), its resident memory read from
//!   `/proc/self/status` before and after, over 10^5. The workspace
//!   forbids `unsafe`, and a counting global allocator needs an `unsafe
//!   impl GlobalAlloc`; swapping in jemalloc to read its statistics would
//!   time and measure an allocator none of the other benches (nor most
//!   users) run. So the process's heap, with glibc kept from handing
//!   memory back or mapping large blocks apart (the tunables every
//!   nanosecond bench here sets, `perf::workload::keep_freed_memory`):
//!   in a fresh process nothing freed is there to reuse, so the growth is
//!   what holding the sleeps costs, allocator headers and a growing
//!   wheel's spare room included, at page granularity (4 KiB in a
//!   megabyte or more: well under 1 %).
//! - **lateness, 1 ms**: one sleep of 1 ms at a time, awaited on tokio's
//!   current-thread runtime for all three sides (the same executor, so
//!   only the timer differs): how long after its deadline the task ran
//!   on (p50, p99, max over 10 rounds of 20, 2 of 10 in quick mode).
//!
//! Every sleep held pending is boxed and pinned (`Box::pin`), as a future
//! in a spawned task is: tokio's `Sleep` must be pinned to be polled, and
//! the others pay the same box. In the time cases every side also holds
//! one sleep due before all the others (the first of
//! `perf::workload::Calls`' random draws, which are spread over an hour,
//! 100 hours out), so that no timed call is the new earliest deadline
//! and none wakes a timer's thread: that cost is the `syscalls` bench's.
//!
//! ```text
//! cargo bench -p perf --bench async_timers
//! ```

use std::future::Future;
use std::hint::black_box;
use std::pin::{Pin, pin};
use std::process::Command;
use std::task::{Context, Waker};
use std::time::{Duration, Instant};

use async_timer::{Driver, Handle};
use futures_timer::Delay;
use perf::report::Report;
use perf::rounds::{Contest, Sample, Spread};
use perf::stats;
use perf::workload::{self, Calls, Input};
use tokio::runtime::Runtime;

/// The names the report gives the sides.
const OURS: &str = "async-timer (stage 8)";
const TOKIO: &str = "tokio::time";
const FUTURES_TIMER: &str = "futures-timer";

/// Sleeps pending in the reset case.
const RESET_PENDING: usize = 1024;

/// One side: how it makes, moves and awaits a sleep.
trait Side {
    /// What it makes sleeps with, started afresh for each round.
    type Timer;
    /// A sleep, boxed and pinned as in a spawned task.
    type Held;
    /// Starts a timer; the caller has entered `runtime`.
    fn start(runtime: &Runtime) -> Self::Timer;
    /// Makes a sleep `delay` from now, polls it once and drops it, the
    /// sleep on the stack as an `async fn` would keep it.
    fn create_poll_drop(timer: &Self::Timer, delay: Duration);
    /// Makes a sleep `delay` from now and polls it once.
    fn hold(timer: &Self::Timer, delay: Duration) -> Self::Held;
    /// Moves a held sleep to `delay` from now.
    fn reset(timer: &Self::Timer, held: &mut Self::Held, delay: Duration);
    /// Waits `delay`, as a task does.
    fn wait(timer: &Self::Timer, delay: Duration) -> impl Future<Output = ()>;
}

/// Polls `future` once with a waker that does nothing: the sleep is then
/// registered with its timer, as after its task's first poll.
fn poll_once<F: Future + ?Sized>(future: Pin<&mut F>) {
    let polled = future.poll(&mut Context::from_waker(Waker::noop()));
    assert!(polled.is_pending(), "a sleep 100 hours out is pending");
}

struct Ours;

/// Stage 8's driver (dropped last: it joins its thread) and its handle.
struct OursTimer {
    handle: Handle,
    _driver: Driver,
}

impl Side for Ours {
    type Timer = OursTimer;
    type Held = Pin<Box<async_timer::Sleep>>;

    fn start(_: &Runtime) -> OursTimer {
        let driver =
            Driver::start(&kit::threads::unique_name("at-ours")).expect("start the driver");
        OursTimer {
            handle: driver.handle(),
            _driver: driver,
        }
    }

    fn create_poll_drop(timer: &OursTimer, delay: Duration) {
        let sleep = pin!(timer.handle.sleep(delay));
        poll_once(sleep);
    }

    fn hold(timer: &OursTimer, delay: Duration) -> Self::Held {
        let mut sleep = Box::pin(timer.handle.sleep(delay));
        poll_once(sleep.as_mut());
        sleep
    }

    fn reset(_: &OursTimer, held: &mut Self::Held, delay: Duration) {
        held.as_mut().get_mut().reset(Instant::now() + delay);
    }

    async fn wait(timer: &OursTimer, delay: Duration) {
        let _ = timer.handle.sleep(delay).await;
    }
}

struct Tokio;

impl Side for Tokio {
    type Timer = ();
    type Held = Pin<Box<tokio::time::Sleep>>;

    fn start(_: &Runtime) {}

    fn create_poll_drop((): &(), delay: Duration) {
        let sleep = pin!(tokio::time::sleep(delay));
        poll_once(sleep);
    }

    fn hold((): &(), delay: Duration) -> Self::Held {
        let mut sleep = Box::pin(tokio::time::sleep(delay));
        poll_once(sleep.as_mut());
        sleep
    }

    fn reset((): &(), held: &mut Self::Held, delay: Duration) {
        held.as_mut().reset(tokio::time::Instant::now() + delay);
    }

    async fn wait((): &(), delay: Duration) {
        tokio::time::sleep(delay).await;
    }
}

struct FuturesTimer;

impl Side for FuturesTimer {
    type Timer = ();
    type Held = Pin<Box<Delay>>;

    fn start(_: &Runtime) {}

    fn create_poll_drop((): &(), delay: Duration) {
        let delay = pin!(Delay::new(delay));
        poll_once(delay);
    }

    fn hold((): &(), delay: Duration) -> Self::Held {
        let mut delay = Box::pin(Delay::new(delay));
        poll_once(delay.as_mut());
        delay
    }

    fn reset((): &(), held: &mut Self::Held, delay: Duration) {
        held.as_mut().get_mut().reset(delay);
    }

    async fn wait((): &(), delay: Duration) {
        Delay::new(delay).await;
    }
}

/// A current-thread runtime with its time driver: the executor of every
/// side, and tokio's timer.
fn runtime() -> Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a current-thread runtime")
}

/// One round of `work` on a fresh runtime and timer of side `S`, which
/// holds one sleep due before every other (see the module docs). `work`
/// prepares untimed and returns what it timed.
fn round<S: Side>(work: impl FnOnce(&S::Timer, &mut Calls) -> Sample) -> Sample {
    let runtime = runtime();
    let _entered = runtime.enter();
    let timer = S::start(&runtime);
    let mut calls = Calls::new(Input::Random);
    let head = S::hold(&timer, calls.next_call().delay);
    workload::settle();
    let sample = work(&timer, &mut calls);
    drop(head);
    sample
}

/// `k` sleeps made, polled once and dropped.
fn create_poll_drop<S: Side>(k: usize) -> Sample {
    round::<S>(|timer, calls| {
        let delays: Vec<Duration> = (0..k).map(|_| calls.next_call().delay).collect();
        let start = Instant::now();
        for &delay in &delays {
            S::create_poll_drop(black_box(timer), delay);
        }
        Sample {
            elapsed: start.elapsed(),
            ops: k as u64,
        }
    })
}

/// `k` resets over [`RESET_PENDING`] held sleeps, one after another.
fn reset<S: Side>(k: usize) -> Sample {
    round::<S>(|timer, calls| {
        let mut held: Vec<S::Held> = (0..RESET_PENDING)
            .map(|_| S::hold(timer, calls.next_call().delay))
            .collect();
        let delays: Vec<Duration> = (0..k).map(|_| calls.next_call().delay).collect();
        let start = Instant::now();
        for (i, &delay) in delays.iter().enumerate() {
            S::reset(timer, &mut held[i % RESET_PENDING], delay);
        }
        let elapsed = start.elapsed();
        drop(held);
        Sample {
            elapsed,
            ops: k as u64,
        }
    })
}

/// `n` sleeps made and polled once, all kept; then dropped, untimed.
fn pending<S: Side>(n: usize) -> Sample {
    round::<S>(|timer, calls| {
        let delays: Vec<Duration> = (0..n).map(|_| calls.next_call().delay).collect();
        let mut held = Vec::with_capacity(n);
        let start = Instant::now();
        for &delay in &delays {
            held.push(S::hold(timer, delay));
        }
        let elapsed = start.elapsed();
        drop(held);
        Sample {
            elapsed,
            ops: n as u64,
        }
    })
}

/// The process's resident memory, in bytes (`VmRSS` in
/// `/proc/self/status`).
fn resident() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS in kB");
    kb * 1024
}

/// In a fresh process: the resident bytes `n` held sleeps of side `S` add,
/// over `n`. Everything else is in place before the first reading: the
/// runtime, the timer and its thread, the sleep due first, the `Vec` the
/// sleeps go in, the draws.
fn bytes_per_sleep<S: Side>(n: usize) -> f64 {
    let runtime = runtime();
    let _entered = runtime.enter();
    let timer = S::start(&runtime);
    let mut calls = Calls::new(Input::Random);
    let head = S::hold(&timer, calls.next_call().delay);
    let delays: Vec<Duration> = (0..n).map(|_| calls.next_call().delay).collect();
    let mut held = Vec::with_capacity(n);
    // A sleep made and dropped: whatever a first sleep sets up lazily.
    S::create_poll_drop(&timer, delays[0]);
    // futures-timer's thread files new sleeps on its own time: give every
    // side the same while, before and after, to settle.
    std::thread::sleep(Duration::from_millis(50));
    let before = resident();
    for &delay in &delays {
        held.push(S::hold(&timer, delay));
    }
    std::thread::sleep(Duration::from_millis(50));
    let after = resident();
    drop((held, head));
    after.saturating_sub(before) as f64 / n as f64
}

/// The lateness of `n` sleeps of `delay`, one at a time, on a fresh
/// current-thread runtime (and timer).
fn lateness<S: Side>(delay: Duration, n: usize) -> Vec<Duration> {
    let runtime = runtime();
    let timer = {
        let _entered = runtime.enter();
        S::start(&runtime)
    };
    runtime.block_on(async {
        let mut late = Vec::with_capacity(n);
        for _ in 0..n {
            let due = Instant::now() + delay;
            S::wait(&timer, delay).await;
            late.push(Instant::now().saturating_duration_since(due));
        }
        late
    })
}

/// The memory measurement of one side, in a process of its own: the
/// arguments `--memory <side> <n>`; prints the bytes per sleep.
fn memory_child(args: &[String]) -> Option<()> {
    let at = args.iter().position(|a| a == "--memory")?;
    let side = args.get(at + 1)?;
    let n: usize = args.get(at + 2)?.parse().ok()?;
    let bytes = match side.as_str() {
        OURS => bytes_per_sleep::<Ours>(n),
        TOKIO => bytes_per_sleep::<Tokio>(n),
        FUTURES_TIMER => bytes_per_sleep::<FuturesTimer>(n),
        _ => return None,
    };
    println!("{bytes}");
    Some(())
}

/// Runs the memory measurement of `side` in a fresh process of this bench.
fn measure_memory(side: &str, n: usize) -> f64 {
    let me = std::env::current_exe().expect("the bench's own path");
    let out = Command::new(me)
        .args(["--memory", side, &n.to_string()])
        .output()
        .expect("run the memory measurement");
    assert!(out.status.success(), "{side}: {out:?}");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or_else(|| panic!("{side}: no figure in {out:?}"))
}

fn main() {
    perf::require_shipped_build();
    workload::keep_freed_memory();
    let args: Vec<String> = std::env::args().collect();
    if memory_child(&args).is_some() {
        return;
    }
    let mut report = Report::new("async_timers");
    let k = workload::min_ops();

    let mut contest = Contest::new("create, poll once, drop");
    contest.subject(OURS, || create_poll_drop::<Ours>(k));
    contest.subject(TOKIO, || create_poll_drop::<Tokio>(k));
    contest.subject(FUTURES_TIMER, || create_poll_drop::<FuturesTimer>(k));
    contest.ratio(OURS, TOKIO);
    contest.ratio(OURS, FUTURES_TIMER);
    contest.run(&mut report);

    let mut contest = Contest::new("reset, 10^3 pending");
    contest.subject(OURS, || reset::<Ours>(k));
    contest.subject(TOKIO, || reset::<Tokio>(k));
    contest.subject(FUTURES_TIMER, || reset::<FuturesTimer>(k));
    contest.ratio(OURS, TOKIO);
    contest.ratio(OURS, FUTURES_TIMER);
    contest.run(&mut report);

    let n = perf::size(100_000, 10_000);
    let size = workload::size_label(n);
    let mut contest = Contest::new(format!("{size} pending, each made and polled"));
    contest.subject(OURS, || pending::<Ours>(n));
    contest.subject(TOKIO, || pending::<Tokio>(n));
    contest.subject(FUTURES_TIMER, || pending::<FuturesTimer>(n));
    contest.ratio(OURS, TOKIO);
    contest.ratio(OURS, FUTURES_TIMER);
    contest.run(&mut report);

    let sides = [OURS, TOKIO, FUTURES_TIMER];
    let repeats = perf::size(3, 1);
    let mut bytes: Vec<Vec<f64>> = vec![Vec::new(); sides.len()];
    for r in 0..repeats {
        for i in 0..sides.len() {
            let at = (r + i) % sides.len();
            bytes[at].push(measure_memory(sides[at], n));
        }
    }
    let group = format!("bytes per pending sleep, {size} pending");
    report.push(&group, "rounds", "count", repeats as f64, "");
    for (side, figures) in sides.iter().zip(&bytes) {
        let spread = Spread::of(figures).expect("at least one process");
        report.add_spread(&group, side, spread, "B");
    }

    let (delay, label) = (Duration::from_millis(1), "1ms");
    let (turns, per_turn) = (perf::size(10, 2), perf::size(20, 10));
    let mut late: Vec<Vec<Duration>> = vec![Vec::new(); sides.len()];
    for r in 0..turns {
        for i in 0..sides.len() {
            let at = (r + i) % sides.len();
            late[at].extend(match at {
                0 => lateness::<Ours>(delay, per_turn),
                1 => lateness::<Tokio>(delay, per_turn),
                _ => lateness::<FuturesTimer>(delay, per_turn),
            });
        }
    }
    let group = format!("lateness {label}, current-thread runtime");
    for (side, sample) in sides.iter().zip(&late) {
        for (stat, value) in stats::summary(sample) {
            report.add(&group, side, stat, value, "us");
        }
    }
    report.write();
}
