//! T10 as worker timelines from real runs: five deadlines on a scheduled
//! pool of four idle workers, first with the herd's queue (herd.rs: every
//! idle worker waits timed for the head), then with leader-follower
//! (delayed_queue.rs: one leader waits timed, the others untimed).
//!
//! The queue counts its wake-ups but cannot say whose they were; Linux
//! can. While a run goes on, a sampler thread reads, every millisecond and
//! for each worker:
//!
//! - its CPU clock (kit::cpu), for the chart's states;
//! - how many times it has gone to sleep so far
//!   (`voluntary_ctxt_switches` in `/proc/self/task/<tid>/status`): a
//!   worker that went back to sleep during a tick woke up just before;
//! - the system call it is blocked in (`/proc/self/task/<tid>/syscall`):
//!   parking_lot parks a thread in a futex wait, and passes a timeout only
//!   for a timed wait. So the sampler sees which workers wait timed.
//!
//! Each wake-up becomes a mark on its worker's lane, named after the wait
//! it ended: `timeout` (the worker was in a timed wait), `notified` (in an
//! untimed one). A worker woken for a due task runs it (`t1` ... `t5`,
//! 3 ms of spinning each); its mark sits where the task starts.
//!
//! The five tasks are scheduled at 5 ms, due at 20, 40, 60, 80 and 100 ms,
//! so each run fires five deadlines with every worker idle before it.
//! Sampling is Linux-only (it reads `/proc`), and telling timed from
//! untimed waits needs the futex call's number: x86_64 and aarch64 here.
//!
//! ```text
//! cargo run -p threadpool-executor --example herd_vs_leader
//! cargo run -p threadpool-executor --example herd_vs_leader -- \
//!     --text book/src/generated/t10-herd-vs-leader.txt \
//!     --svg book/src/generated/t10-herd-vs-leader.svg
//! ```

use std::error::Error;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use kit::cpu::ThreadCpu;
use kit::timeline::{Chart, Lane, Mark, Sample, Span, sleep_until, spinning_task};
use kit::{Recorder, ms};
use threadpool_executor::delayed_queue::Wait;
use threadpool_executor::factory::NamedThreads;
use threadpool_executor::scheduled::ScheduledThreadPool;

const WORKERS: usize = 4;
/// When the tasks are scheduled, when the first is due, how far apart.
const SCHEDULE_MS: u64 = 5;
const FIRST_MS: u64 = 20;
const GAP_MS: u64 = 20;
const TASKS: u64 = 5;
/// How long each task spins, so that a run shows on the chart.
const RUN_MS: u64 = 3;
const END_MS: u64 = 125;

/// The futex system call's number, where we know it.
#[cfg(target_arch = "x86_64")]
const SYS_FUTEX: Option<&str> = Some("202");
#[cfg(target_arch = "aarch64")]
const SYS_FUTEX: Option<&str> = Some("98");
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const SYS_FUTEX: Option<&str> = None;

/// What a worker was doing when sampled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seen {
    /// Blocked in a futex wait with a timeout: a timed wait.
    Timed,
    /// Blocked in a futex wait without one: an untimed wait.
    Untimed,
    /// Anything else: running, or not in a futex wait.
    Other,
}

/// One worker over one tick.
#[derive(Debug, Clone, Copy)]
struct Tick {
    sample: Sample,
    /// Times it went to sleep during the tick.
    sleeps: u64,
    /// What it was doing at the tick's end.
    seen: Seen,
}

/// Reads `/proc/self/task/<tid>/syscall`: the call a blocked thread is
/// in, and its arguments. For a futex wait the fourth argument is the
/// timeout's address, zero for none.
fn seen(tid: i32) -> Seen {
    let Ok(line) = std::fs::read_to_string(format!("/proc/self/task/{tid}/syscall")) else {
        return Seen::Other;
    };
    let fields: Vec<&str> = line.split_whitespace().collect();
    match (SYS_FUTEX, fields.first(), fields.get(4)) {
        (Some(futex), Some(call), Some(timeout)) if *call == futex => {
            if *timeout == "0x0" {
                Seen::Untimed
            } else {
                Seen::Timed
            }
        }
        _ => Seen::Other,
    }
}

/// How many times the thread has gone to sleep (blocked) since it started.
fn sleeps(tid: i32) -> std::io::Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/self/task/{tid}/status"))?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("voluntary_ctxt_switches:"))
        .and_then(|n| n.trim().parse().ok())
        .ok_or_else(|| std::io::Error::other("no voluntary_ctxt_switches"))
}

/// Samples every worker each tick until stopped, on a thread of its own.
struct Watch {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<Vec<Vec<Tick>>>,
}

impl Watch {
    fn start(tids: Vec<i32>, rec: &Recorder, tick: Duration) -> std::io::Result<Watch> {
        let stop = Arc::new(AtomicBool::new(false));
        let start = rec.start();
        let handle = {
            let stop = Arc::clone(&stop);
            thread::Builder::new()
                .name("t10-watch".into())
                .spawn(move || {
                    let cpus: Vec<ThreadCpu> = tids.iter().map(|&t| ThreadCpu::of_tid(t)).collect();
                    // What it is doing first, then how often it slept:
                    // a worker seen waiting has had that sleep counted.
                    let read = |i: usize| -> Option<(Duration, Duration, u64, Seen)> {
                        let seen = seen(tids[i]);
                        let cpu = cpus[i].used().ok()?;
                        let waited = cpus[i].waited_for_cpu().ok()?;
                        Some((cpu, waited, sleeps(tids[i]).ok()?, seen))
                    };
                    let mut last: Vec<_> = (0..tids.len()).map(read).collect();
                    let mut from = start.elapsed();
                    // A first, empty tick: what each worker was doing
                    // when the watch began.
                    let mut ticks: Vec<Vec<Tick>> = last
                        .iter()
                        .map(|now| {
                            let seen = now.map_or(Seen::Other, |now| now.3);
                            let sample = Sample {
                                from,
                                to: from,
                                cpu: Duration::ZERO,
                                waited: Duration::ZERO,
                            };
                            vec![Tick {
                                sample,
                                sleeps: 0,
                                seen,
                            }]
                        })
                        .collect();
                    let mut next = (from.as_nanos() / tick.as_nanos()) as u32 + 1;
                    while !stop.load(SeqCst) {
                        thread::sleep(
                            (start + tick * next)
                                .saturating_duration_since(std::time::Instant::now()),
                        );
                        let to = start.elapsed();
                        for (i, lane) in ticks.iter_mut().enumerate() {
                            let now = read(i);
                            if let (Some(before), Some(now)) = (last[i], now) {
                                lane.push(Tick {
                                    sample: Sample {
                                        from,
                                        to,
                                        cpu: now.0.saturating_sub(before.0),
                                        waited: now.1.saturating_sub(before.1),
                                    },
                                    sleeps: now.2.saturating_sub(before.2),
                                    seen: now.3,
                                });
                            }
                            last[i] = now;
                        }
                        from = to;
                        // A late wake-up skips the ticks it missed.
                        next = (to.as_nanos() / tick.as_nanos()) as u32 + 1;
                    }
                    ticks
                })?
        };
        Ok(Watch { stop, handle })
    }

    fn finish(self) -> Vec<Vec<Tick>> {
        self.stop.store(true, SeqCst);
        self.handle.join().unwrap_or_default()
    }
}

/// The wake-up marks of one lane, read off its ticks. Every time a worker
/// goes to sleep, it had woken before; the first sign of that wake-up is
/// the first sample that saw it awake (running, or not in a futex wait),
/// or else the sample whose count of sleeps rose. The mark goes there,
/// named after the last wait the worker was seen in before it woke. A
/// worker woken for a task recorded when the task started: that is when
/// it woke, to the microsecond, so its mark goes there.
fn wake_marks(ticks: &[Tick], spans: &[Span]) -> (Vec<Mark>, u64) {
    let name = |seen: Seen| match seen {
        Seen::Timed => "timeout",
        Seen::Untimed => "notified",
        Seen::Other => "woke",
    };
    let mut marks = Vec::new();
    let mut wakeups = 0;
    let mut waited = Seen::Other;
    let mut waited_until = Duration::ZERO;
    let mut awake_since = None;
    for k in ticks {
        if k.sleeps > 0 {
            let label = name(waited);
            let seen_at = awake_since.unwrap_or(k.sample.to);
            let task = spans
                .iter()
                .find(|s| s.start >= waited_until && s.start <= seen_at);
            marks.push(Mark {
                at: task.map_or(seen_at, |s| s.start),
                label: if k.sleeps == 1 {
                    label.into()
                } else {
                    format!("{label} x{}", k.sleeps)
                },
            });
            wakeups += k.sleeps;
            awake_since = None;
        }
        match k.seen {
            Seen::Other => {
                awake_since.get_or_insert(k.sample.to);
            }
            wait => {
                waited = wait;
                waited_until = k.sample.to;
                awake_since = None;
            }
        }
    }
    (marks, wakeups)
}

/// One run: its lanes, and what it measured, in words.
struct Run {
    lanes: Vec<Lane>,
    summary: String,
}

fn run(wait: Wait, title: &str, prefix: &str) -> Result<Run, Box<dyn Error>> {
    let rec = Recorder::new();
    let pool = ScheduledThreadPool::builder()
        .core_pool_size(WORKERS)
        .queue_wait(wait)
        .thread_factory(NamedThreads::with_prefix(prefix))
        .build()?;
    pool.prestart_all_core_threads();
    let names: Vec<String> = (1..=WORKERS).map(|i| format!("{prefix}{i}")).collect();
    let mut tids = Vec::new();
    for name in &names {
        tids.push(ThreadCpu::named(name)?.tid());
    }
    // Quiet before measuring: every worker waits on the empty queue.
    let quiet = std::time::Instant::now() + ms(2000);
    while pool.queue().waiting() < WORKERS && std::time::Instant::now() < quiet {
        thread::sleep(Duration::from_millis(1));
    }
    let tick = ms(1);
    let watch = Watch::start(tids, &rec, tick)?;
    sleep_until(&rec, ms(SCHEDULE_MS));
    let before = pool.queue().wakeups();
    for k in 0..TASKS {
        let due = ms(FIRST_MS + k * GAP_MS);
        let label = format!("t{}", k + 1);
        pool.schedule(
            due.saturating_sub(rec.elapsed()),
            spinning_task(&rec, &label, ms(RUN_MS)),
        )?;
    }
    sleep_until(&rec, ms(END_MS));
    let ticks = watch.finish();
    let counted = pool.queue().wakeups() - before;
    let ran = (1..=TASKS)
        .filter(|k| rec.at(&format!("t{k} end")).is_some())
        .count();
    drop(pool);

    let events = rec.events();
    let mut lanes = Vec::new();
    let mut seen_wakeups = 0;
    for (i, name) in names.iter().enumerate() {
        let samples = ticks[i].iter().map(|k| k.sample).collect();
        let mut lane = Lane::from_events(format!("{title} w{}", i + 1), name, samples, &events);
        let (marks, n) = wake_marks(&ticks[i], &lane.spans);
        lane.marks = marks;
        seen_wakeups += n;
        lanes.push(lane);
    }
    // The most workers seen in a timed wait at one sample.
    let samples = ticks.iter().map(Vec::len).min().unwrap_or(0);
    let most_timed = (0..samples)
        .map(|s| {
            ticks
                .iter()
                .filter(|lane| lane[s].seen == Seen::Timed)
                .count()
        })
        .max()
        .unwrap_or(0);
    let summary = format!(
        "{title}: {ran} of {TASKS} tasks ran; the queue counted {counted} wake-ups \
         ({:.1} per deadline),\n  the marks show {seen_wakeups}; workers seen in a timed wait \
         at the same moment: at most {most_timed} of {WORKERS}",
        counted as f64 / TASKS as f64
    );
    Ok(Run { lanes, summary })
}

fn main() -> Result<(), Box<dyn Error>> {
    let outputs = kit::timeline::Outputs::from_args()?;
    if SYS_FUTEX.is_none() {
        eprintln!("note: timed and untimed waits cannot be told apart on this machine");
    }
    let runs = [
        run(Wait::Herd, "herd", "t10h-")?,
        run(Wait::LeaderFollower, "leader", "t10l-")?,
    ];
    let chart = Chart {
        tick: ms(1),
        unit: Duration::from_millis(1),
        unit_name: "ms".into(),
        lanes: runs.iter().flat_map(|r| r.lanes.clone()).collect(),
    };
    let mut text = chart.text();
    text += &format!(
        "\nFive tasks scheduled at {SCHEDULE_MS} ms, due at {FIRST_MS}, {}, {}, {} and {} ms; \
         {WORKERS} idle workers.\n",
        FIRST_MS + GAP_MS,
        FIRST_MS + 2 * GAP_MS,
        FIRST_MS + 3 * GAP_MS,
        FIRST_MS + 4 * GAP_MS
    );
    for r in &runs {
        text += &format!("{}\n", r.summary);
    }
    outputs.write(&text, || chart.svg())?;
    Ok(())
}
