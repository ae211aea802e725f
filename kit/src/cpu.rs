//! The CPU time of one thread, from Linux's per-thread CPU clock.
//!
//! Two numbers over a window of wall time tell a busy-waiting thread from a
//! sleeping one:
//!
//! - its CPU time ([`CpuShare::fraction`]): a spinning thread uses most of a
//!   core, a blocked one almost nothing;
//! - its *demand* ([`CpuShare::demand`]): the share of the window it was
//!   running or ready to run (waiting for a core). A spinning thread demands
//!   a core the whole time, however loaded the machine is; on a busy 2-core
//!   machine it may get only a third of one, so tests judge busy-waiting by
//!   demand and report both.
//!
//! A busy-waiting timer burns a core; a sleeping one costs nothing. To tell
//! them apart we need the timer thread's own CPU time, not the process's
//! (the test's threads, and other tests' timers, run in the same process).
//!
//! Linux gives every thread a CPU-time clock. `pthread_getcpuclockid` only
//! computes its id from the thread id: `(!tid << 3) | 6` (per-thread, the
//! scheduler's clock). We compute the same id and read it with the safe
//! `nix::time::clock_gettime`, so the workspace stays free of `unsafe`. The
//! clock counts nanoseconds, so a window of a few hundred milliseconds gives a
//! clear share (over half of the wall time, or under a few percent).

use std::fmt;
use std::time::{Duration, Instant};

use nix::time::{ClockId, clock_gettime};

/// A handle on one thread's CPU clock.
#[derive(Debug, Clone, Copy)]
pub struct ThreadCpu {
    tid: i32,
    clock: ClockId,
}

impl ThreadCpu {
    /// The thread of this process whose name is `name`.
    ///
    /// Linux keeps at most 15 bytes of a thread's name; `name` is compared
    /// with that prefix. A thread that was just spawned may not carry its
    /// name yet: this waits up to `kit::ms(1000)` for it to appear.
    ///
    /// # Errors
    /// If no thread, or more than one, has that name.
    pub fn named(name: &str) -> std::io::Result<ThreadCpu> {
        ThreadCpu::named_within(name, crate::ms(1000))
    }

    /// [`ThreadCpu::named`], waiting at most `within` for the name to appear.
    fn named_within(name: &str, within: Duration) -> std::io::Result<ThreadCpu> {
        match crate::threads::tids_named_within(name, within)?.as_slice() {
            [tid] => Ok(ThreadCpu::of_tid(*tid)),
            [] => Err(std::io::Error::other(format!("no thread named {name:?}"))),
            many => Err(std::io::Error::other(format!(
                "{} threads are named {name:?}; give each timer its own name",
                many.len()
            ))),
        }
    }

    /// The thread with Linux thread id `tid`.
    pub fn of_tid(tid: i32) -> ThreadCpu {
        // The encoding glibc's pthread_getcpuclockid uses: a negative id
        // selects a CPU clock, bit 2 says "one thread", 2 means "scheduler".
        let clock = ClockId::from_raw((!tid << 3) | 6);
        ThreadCpu { tid, clock }
    }

    /// The calling thread (its id read from `/proc/thread-self`, which
    /// links to `<pid>/task/<tid>`).
    ///
    /// # Errors
    /// If `/proc` is not mounted.
    pub fn current() -> std::io::Result<ThreadCpu> {
        let link = std::fs::read_link("/proc/thread-self")?;
        let tid = link
            .file_name()
            .and_then(|tid| tid.to_str())
            .and_then(|tid| tid.parse().ok())
            .ok_or_else(|| std::io::Error::other(format!("/proc/thread-self is {link:?}")))?;
        Ok(ThreadCpu::of_tid(tid))
    }

    /// The Linux thread id.
    pub fn tid(&self) -> i32 {
        self.tid
    }

    /// CPU time the thread has used since it started.
    ///
    /// # Errors
    /// If the thread has exited.
    pub fn used(&self) -> std::io::Result<Duration> {
        let t = clock_gettime(self.clock).map_err(std::io::Error::from)?;
        Ok(Duration::new(t.tv_sec() as u64, t.tv_nsec() as u32))
    }

    /// Time the thread has spent ready to run but waiting for a core, from
    /// `/proc/self/task/<tid>/schedstat` (its second field, nanoseconds).
    ///
    /// # Errors
    /// If the thread has exited or the kernel does not keep the statistic.
    pub fn waited_for_cpu(&self) -> std::io::Result<Duration> {
        let path = format!("/proc/self/task/{}/schedstat", self.tid);
        let text = std::fs::read_to_string(path)?;
        let ns = text
            .split_whitespace()
            .nth(1)
            .and_then(|field| field.parse::<u64>().ok())
            .ok_or_else(|| std::io::Error::other(format!("unexpected schedstat: {text:?}")))?;
        Ok(Duration::from_nanos(ns))
    }

    /// How many times the thread has blocked and been woken since it
    /// started: its voluntary context switches, from
    /// `/proc/self/task/<tid>/status`. A thread that sleeps until it has
    /// work adds one per wake-up; a ticker adds one per tick; a busy loop
    /// adds none (it never blocks), so read it beside the CPU share.
    ///
    /// # Errors
    /// If the thread has exited.
    pub fn wakeups(&self) -> std::io::Result<u64> {
        let path = format!("/proc/self/task/{}/status", self.tid);
        let text = std::fs::read_to_string(path)?;
        text.lines()
            .find_map(|l| l.strip_prefix("voluntary_ctxt_switches:"))
            .and_then(|n| n.trim().parse().ok())
            .ok_or_else(|| std::io::Error::other("no voluntary_ctxt_switches in its status"))
    }

    /// Measures the thread over a window of wall time: the calling thread
    /// sleeps for `window` (that sleep is the measurement, not a margin).
    ///
    /// # Errors
    /// If the thread exits before the window ends.
    pub fn share_over(&self, window: Duration) -> std::io::Result<CpuShare> {
        let (cpu0, wait0, blocks0) = (self.used()?, self.waited_for_cpu()?, self.wakeups()?);
        let wall0 = Instant::now();
        std::thread::sleep(window);
        let (cpu1, wait1, blocks1) = (self.used()?, self.waited_for_cpu()?, self.wakeups()?);
        let wall1 = Instant::now();
        Ok(CpuShare {
            cpu: cpu1.saturating_sub(cpu0),
            waited: wait1.saturating_sub(wait0),
            wall: wall1 - wall0,
            blocks: blocks1.saturating_sub(blocks0),
            ready_at_end: crate::threads::state(self.tid) == Some('R'),
        })
    }

    /// [`ThreadCpu::share_over`], measured again (up to `tries` windows in
    /// all) while a window says nothing ([`CpuShare::is_starved`]): a
    /// machine that gives the thread no core for a whole window gets
    /// another window, not a verdict. Returns the last window.
    ///
    /// # Errors
    /// If the thread exits before a window ends.
    pub fn judged_share_over(&self, window: Duration, tries: usize) -> std::io::Result<CpuShare> {
        retry_starved(tries, || self.share_over(window)).map(|(share, _)| share)
    }
}

/// Windows [`measure`] takes at most, while the thread is given no core.
pub const MEASURE_TRIES: usize = 5;

/// Measures the thread named `name` over `window`, again while a window
/// says nothing, up to [`MEASURE_TRIES`] windows (see
/// [`ThreadCpu::judged_share_over`]): what a test asks of a timer's
/// thread. The windows follow one another: a scenario whose task comes
/// due soon after the first window is set up again instead
/// ([`until_judged`]).
///
/// # Panics
/// If there is no single live thread of that name, or it exits during the
/// window: the test's timer is not running as the test assumes.
pub fn measure(name: &str, window: Duration) -> CpuShare {
    ThreadCpu::named(name)
        .and_then(|thread| thread.judged_share_over(window, MEASURE_TRIES))
        .unwrap_or_else(|e| panic!("cannot measure thread {name:?}: {e}"))
}

/// Measures the thread named `name` over one window, with no second
/// window if it says nothing: for a scenario set up again by
/// [`until_judged`].
///
/// # Panics
/// As [`measure`].
pub fn measure_once(name: &str, window: Duration) -> CpuShare {
    ThreadCpu::named(name)
        .and_then(|thread| thread.share_over(window))
        .unwrap_or_else(|e| panic!("cannot measure thread {name:?}: {e}"))
}

/// Runs `scenario` (set up, [`measure_once`], tear down) again while its
/// window says nothing ([`CpuShare::is_starved`]), up to `tries` times in
/// all; returns the last window and how many windows before it were
/// starved.
///
/// For a scenario with a task due soon after its window, where
/// [`measure`]'s second window on the same thread would run past the
/// deadline: there a busy loop that has run its task and blocks on its
/// empty queue looks idle. A fresh scenario's window closes before its
/// own task is due.
pub fn until_judged(tries: usize, mut scenario: impl FnMut() -> CpuShare) -> (CpuShare, usize) {
    match retry_starved(tries, || Ok::<_, std::convert::Infallible>(scenario())) {
        Ok(judged) => judged,
    }
}

/// Takes `window()` again while it says nothing, up to `tries` windows in
/// all: the last window, and how many before it were starved.
fn retry_starved<E>(
    tries: usize,
    mut window: impl FnMut() -> Result<CpuShare, E>,
) -> Result<(CpuShare, usize), E> {
    let mut starved = 0;
    loop {
        let share = window()?;
        if !share.is_starved() || starved + 1 >= tries {
            return Ok((share, starved));
        }
        starved += 1;
    }
}

/// The CPU time a window must show before what the thread did with it
/// ([`CpuShare::spun`]) says anything: a busy loop given less than this
/// over a window of hundreds of milliseconds was kept from the cores
/// ([`CpuShare::is_starved`]), and is measured again.
pub const CLEAR_CPU: Duration = Duration::from_millis(5);

/// CPU time used by one thread over a window of wall time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CpuShare {
    /// CPU time the thread used in the window.
    pub cpu: Duration,
    /// Time the thread was ready to run but waited for a core.
    pub waited: Duration,
    /// Length of the window.
    pub wall: Duration,
    /// How many times the thread blocked (and was woken) in the window: its
    /// voluntary context switches ([`ThreadCpu::wakeups`]).
    pub blocks: u64,
    /// Whether the thread was running or waiting for a core as the window
    /// closed (its state `R`). The kernel adds a wait for a core to
    /// [`waited`](Self::waited) only once the wait ends: a thread given no
    /// core for the whole window shows no CPU and no demand, as a sleeping
    /// one does, and only its state tells them apart.
    pub ready_at_end: bool,
}

impl CpuShare {
    /// CPU time over wall time: 1.0 is one core burned for the whole window.
    pub fn fraction(&self) -> f64 {
        self.cpu.as_secs_f64() / self.wall.as_secs_f64()
    }

    /// The share in percent, rounded.
    pub fn percent(&self) -> u32 {
        (self.fraction() * 100.0).round() as u32
    }

    /// Running or ready to run, over wall time: near 1.0 for a thread that
    /// never blocks (a busy loop), whatever the load; near 0.0 for a thread
    /// that sleeps. This is the load-proof way to say "burns a core".
    pub fn demand(&self) -> f64 {
        ((self.cpu + self.waited).as_secs_f64() / self.wall.as_secs_f64()).min(1.0)
    }

    /// Whether the thread burned the window: it wanted a core for at least
    /// 60% of it and got at least a tenth of one, or it [`spun`](Self::spun)
    /// on what it got. Demand alone is not enough: on a loaded machine a
    /// ticker that wakes every few milliseconds waits for a core at each
    /// tick, and can be "ready to run" most of the window while using
    /// almost no CPU. A busy loop beside two other busy loops on two cores
    /// gets a third of a core; but a test run at a lower priority than the
    /// machine's other work (`nice`) can get under a tenth, and then what
    /// tells the busy loop from the waking ticker is what it did with its
    /// CPU: the ticker blocks once per wake-up, the busy loop never. And a
    /// loop that spins through a queue's lock and a zero timeout (stage 6's
    /// T16) blocks for moments on the lock: 71% demand and 43% of a core
    /// beside a benchmark, where a thread that waits uses none.
    pub fn is_busy(&self) -> bool {
        (self.demand() >= 0.6 && self.fraction() >= 0.1) || self.spun()
    }

    /// Whether the thread used its CPU without blocking: at least
    /// [`CLEAR_CPU`] of it, and at most one block per millisecond. A busy
    /// loop uses every slice it gets and never blocks, however few slices
    /// a loaded machine gives it; a thread that waits for something blocks
    /// at every wait and uses microseconds between (a ticker at 10 ms: 20
    /// blocks in 200 ms for well under a millisecond of CPU, at rest or
    /// loaded: the load changes when it runs, not what it runs). Not
    /// judged by demand: the kernel adds a wait for a core to the thread's
    /// statistics only once the wait ends, so a busy loop still waiting
    /// when the window closes shows as little as half of it in demand.
    /// Less CPU than [`CLEAR_CPU`] says nothing: a wheel's thread that
    /// wakes once and turns its wheels can use a millisecond in a debug
    /// build on a loaded machine, blocking once.
    pub fn spun(&self) -> bool {
        let cpu_ms = self.cpu.as_secs_f64() * 1000.0;
        self.cpu >= CLEAR_CPU && self.blocks as f64 <= cpu_ms
    }

    /// Whether the window says nothing about the thread: it used under
    /// [`CLEAR_CPU`] and never blocked, yet was not parked the whole
    /// time (it wanted a core for at least half the window, or was still
    /// waiting for one as the window closed: a wait the kernel has not yet
    /// counted). A busy loop and a thread that timed out of its wait look
    /// alike when neither is given a core: a test measures again, or sets
    /// its scenario up again.
    pub fn is_starved(&self) -> bool {
        self.cpu < CLEAR_CPU && self.blocks == 0 && (self.demand() >= 0.5 || self.ready_at_end)
    }

    /// Whether the thread used under 5% of a core over the window, and
    /// neither burned what it got ([`is_busy`](Self::is_busy)) nor was kept
    /// from a core that it wanted ([`is_starved`](Self::is_starved)). Not
    /// judged by demand alone: on a loaded machine a thread that wakes
    /// (once to start, or every tick) can wait for a core most of the
    /// window without using any. A busy loop uses a real share of a core
    /// even then, unless some twenty other busy threads share the two
    /// cores with it, or the test runs at a lower priority than the
    /// machine's other work; it still never blocks, and so is never idle.
    pub fn is_idle(&self) -> bool {
        self.fraction() < 0.05 && !self.is_busy() && !self.is_starved()
    }
}

impl fmt::Display for CpuShare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}% of a core ({} ms of CPU in {} ms; running or ready to run {}% of the time)",
            self.percent(),
            self.cpu.as_millis(),
            self.wall.as_millis(),
            (self.demand() * 100.0).round() as u32
        )?;
        if self.ready_at_end && self.cpu < CLEAR_CPU {
            write!(f, ", and waiting for a core as it closed")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, Barrier};
    use std::thread;

    /// Starts a named thread that spins (or blocks) until told to stop.
    fn spawn(name: &str, spin: bool) -> (Arc<AtomicBool>, Arc<Barrier>, thread::JoinHandle<()>) {
        let stop = Arc::new(AtomicBool::new(false));
        let started = Arc::new(Barrier::new(2));
        let handle = {
            let (stop, started) = (Arc::clone(&stop), Arc::clone(&started));
            thread::Builder::new()
                .name(name.into())
                .spawn(move || {
                    started.wait();
                    if spin {
                        while !stop.load(Ordering::Relaxed) {
                            std::hint::spin_loop();
                        }
                    } else {
                        thread::park();
                    }
                })
                .unwrap()
        };
        started.wait();
        (stop, started, handle)
    }

    #[test]
    fn a_spinning_thread_uses_most_of_a_core() {
        let (stop, _, handle) = spawn("kit-cpu-spin", true);
        let share = measure("kit-cpu-spin", crate::ms(200));
        stop.store(true, Ordering::Relaxed);
        handle.join().unwrap();
        assert!(share.is_busy(), "spinning thread: {share}");
    }

    #[test]
    fn until_judged_sets_a_starved_scenario_up_again_and_stops_at_tries() {
        let window = |cpu_ms| CpuShare {
            cpu: Duration::from_millis(cpu_ms),
            waited: Duration::ZERO,
            wall: Duration::from_millis(300),
            blocks: 0,
            ready_at_end: true,
        };
        let mut given = [window(1), window(2), window(90)].into_iter();
        let (share, starved) = until_judged(5, || given.next().unwrap());
        assert_eq!((share.cpu.as_millis(), starved), (90, 2));
        let mut runs = 0;
        let (share, starved) = until_judged(3, || {
            runs += 1;
            window(1)
        });
        assert!(share.is_starved());
        assert_eq!((runs, starved), (3, 2));
    }

    /// The judgments on made-up windows: what a loaded machine gives a
    /// busy loop and a ticker, side by side.
    #[test]
    fn a_starved_busy_loop_is_busy_and_a_waking_ticker_is_not() {
        let ms = Duration::from_millis;
        let share = |cpu, waited, blocks| CpuShare {
            cpu: ms(cpu),
            waited: ms(waited),
            wall: ms(200),
            blocks,
            ready_at_end: false,
        };
        // A third of a core beside two busy loops: busy by its share.
        assert!(share(66, 134, 0).is_busy());
        // 7% of a core, running or ready the whole window, never blocking:
        // a busy loop at a low priority.
        let starved = share(14, 186, 0);
        assert!(starved.is_busy() && !starved.is_idle(), "{starved}");
        // A ticker at 10 ms waiting for a core most of the window: 20
        // blocks for 0.4 ms of CPU.
        let ticker = CpuShare {
            cpu: Duration::from_micros(400),
            ..share(0, 180, 20)
        };
        assert!(!ticker.is_busy() && ticker.is_idle(), "{ticker}");
        // A parked thread.
        assert!(share(0, 0, 0).is_idle());
        // A wheel's thread that woke once and turned its wheels in a debug
        // build: a millisecond of CPU, one block, asleep as the window
        // closed. Not a busy loop.
        let woke = share(1, 58, 1);
        assert!(!woke.is_busy() && woke.is_idle(), "{woke}");
        // A busy loop given 3 ms of CPU and then kept waiting for a core
        // until the window closed: too little to judge, measure again.
        let kept = CpuShare {
            ready_at_end: true,
            ..share(3, 0, 0)
        };
        assert!(kept.is_starved() && !kept.is_idle(), "{kept}");
        // A busy loop still waiting for a core when the window closed: its
        // demand shows half the window, and it never blocked.
        assert!(share(32, 100, 0).is_busy());
        // Given no core at all: neither busy nor idle, measure again.
        let none = share(0, 150, 0);
        assert!(
            none.is_starved() && !none.is_busy() && !none.is_idle(),
            "{none}"
        );
        // Given no core, and the wait not yet counted: no CPU and no
        // demand, as if asleep, but its state says it wants a core.
        let uncounted = CpuShare {
            ready_at_end: true,
            ..share(0, 0, 0)
        };
        assert!(
            uncounted.is_starved() && !uncounted.is_idle(),
            "{uncounted}"
        );
    }

    #[test]
    fn a_blocked_thread_uses_almost_nothing() {
        let (_, _, handle) = spawn("kit-cpu-park", false);
        let share = ThreadCpu::named("kit-cpu-park")
            .unwrap()
            .share_over(crate::ms(200))
            .unwrap();
        handle.thread().unpark();
        handle.join().unwrap();
        assert!(share.is_idle(), "parked thread: {share}");
    }

    /// The lookup itself, without `named`'s full second of waiting for a
    /// thread that will never come: no thread of this process is named
    /// `kit-no-such`, so a short wait (the polling loop included) finds
    /// none as surely as a long one.
    #[test]
    fn an_unknown_name_is_an_error() {
        let err = ThreadCpu::named_within("kit-no-such", crate::ms(20)).unwrap_err();
        assert!(err.to_string().contains("no thread named"), "{err}");
    }
}
