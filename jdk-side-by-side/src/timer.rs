//! java.util.Timer's scenarios, on stage 5's finished `Timer`.
//!
//! Several of them judge by a *sentinel*: a one-shot task due at a chosen
//! time, which counts the runs of a periodic task that came before it. A
//! timer runs its queue in deadline order, so which runs come before the
//! sentinel depends on the rule that set their deadlines (fixed rate:
//! from when the last run was due; fixed delay: from when it started), not
//! on how fast the machine is.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use interrupt_cancel::error::ScheduleError;
use interrupt_cancel::timer::{TaskHandle, TaskState, Timer};
use kit::gate::Gate;
use kit::ms;

use crate::{ON_PURPOSE, line, runs};

/// Java's `schedule` returns or throws `IllegalStateException`; ours
/// returns `Ok` or `Err(ScheduleError)`, whose message is the JDK's
/// ("Timer already cancelled."). Both read "refused (<message>)".
fn try_to_schedule(outcome: Result<TaskHandle, ScheduleError>) -> String {
    match outcome {
        Ok(_) => "accepted".to_string(),
        Err(e) => format!("refused ({e})"),
    }
}

/// `cancel` lets the running task finish, discards the queue, and refuses
/// every later schedule.
pub fn cancel() {
    let timer = Timer::new("jdk-cancel").expect("a timer");
    let (release, started) = (Gate::new(), Arc::new(Gate::new()));
    let finished = Arc::new(AtomicBool::new(false));
    let (waiter, start, done) = (
        release.waiter(),
        Arc::clone(&started),
        Arc::clone(&finished),
    );
    timer
        .schedule(Duration::ZERO, move || {
            start.open();
            waiter.wait();
            done.store(true, SeqCst);
        })
        .expect("accepted");
    started.waiter().wait();
    let queued_ran = Arc::new(AtomicUsize::new(0));
    for _ in 0..3 {
        let ran = Arc::clone(&queued_ran);
        timer
            .schedule(Duration::ZERO, move || {
                ran.fetch_add(1, SeqCst);
            })
            .expect("accepted");
    }
    timer.cancel();
    release.open();
    let later = try_to_schedule(timer.schedule(Duration::ZERO, || {}));
    drop(timer); // joins the thread, once the running task is done
    let running = if finished.load(SeqCst) {
        "finished"
    } else {
        "was stopped"
    };
    line(
        "timer: cancel while a task runs and 3 are due",
        &format!(
            "the running task {running}; the 3 due ran {} times",
            queued_ran.load(SeqCst)
        ),
    );
    line("timer: schedule after cancel", &later);
}

/// A task that panics: does the timer take, and run, more tasks? (Java: a
/// task that throws kills the thread, and the timer refuses.)
pub fn task_panics() {
    let timer = Timer::with_panic_hook("jdk-panic", |_| {}).expect("a timer");
    let panicked = timer
        .schedule(Duration::ZERO, || std::panic::panic_any(ON_PURPOSE))
        .expect("accepted");
    // Its panic is caught and reported: wait for that, with a deadline.
    let reported = kit::eventually(ms(5000), || panicked.state() == TaskState::Panicked);
    assert!(reported, "the panicking task ran and was reported");
    let ran = Arc::new(AtomicUsize::new(0));
    let r = Arc::clone(&ran);
    let verdict = match try_to_schedule(timer.schedule(Duration::ZERO, move || {
        r.fetch_add(1, SeqCst);
    })) {
        accepted if accepted == "accepted" => {
            if kit::eventually(ms(2000), || ran.load(SeqCst) == 1) {
                "accepted, and ran".to_string()
            } else {
                "accepted, never ran".to_string()
            }
        }
        refused => refused,
    };
    line("timer: schedule after a task threw", &verdict);
    timer.cancel();
}

/// Schedules `body` to repeat every `period` from `first`, at a fixed rate
/// or with a fixed delay.
fn repeat(
    timer: &Timer,
    fixed_rate: bool,
    first: Instant,
    period: Duration,
    body: impl FnMut() + Send + 'static,
) -> TaskHandle {
    let scheduled = if fixed_rate {
        timer.schedule_at_fixed_rate_from(first, period, body)
    } else {
        timer.schedule_with_fixed_delay_from(first, period, body)
    };
    scheduled.expect("accepted")
}

/// A one-shot task due `at` that counts the runs of `runs` before it.
fn sentinel(timer: &Timer, at: Instant, runs: &Arc<AtomicUsize>) -> mpsc::Receiver<usize> {
    let (tx, rx) = mpsc::channel();
    let runs = Arc::clone(runs);
    timer
        .schedule_at(at, move || {
            let _ = tx.send(runs.load(SeqCst));
        })
        .expect("accepted");
    rx
}

fn kind(fixed_rate: bool) -> &'static str {
    if fixed_rate {
        "fixed rate"
    } else {
        "fixed delay"
    }
}

/// A periodic task whose first run stalls for 3.5 periods. Fixed rate
/// keeps the runs on the grid `first + k * period`: runs 1, 2 and 3 come
/// before a task due at 3.5 periods. Fixed delay counts from the start of
/// the stalled run: only run 1 does. (Fixed delay's count assumes the
/// first run started within 2.5 periods of its due time.)
pub fn stall() {
    for fixed_rate in [true, false] {
        let period = ms(100);
        let timer = Timer::new("jdk-stall").expect("a timer");
        let count = Arc::new(AtomicUsize::new(0));
        let (stalled, release) = (Arc::new(Gate::new()), Gate::new());
        let (c, s, waiter) = (Arc::clone(&count), Arc::clone(&stalled), release.waiter());
        let first = Instant::now();
        repeat(&timer, fixed_rate, first, period, move || {
            if c.fetch_add(1, SeqCst) == 0 {
                s.open();
                waiter.wait();
            }
        });
        stalled.waiter().wait();
        let before = sentinel(&timer, first + period * 7 / 2, &count);
        std::thread::sleep(period * 7 / 2); // the stall: at least 3.5 periods
        release.open();
        let before = before.recv().expect("the sentinel ran");
        timer.cancel();
        line(
            &format!(
                "timer: {}, the first run stalls 3.5 periods",
                kind(fixed_rate)
            ),
            &format!("{} before a task due at 3.5 periods", runs(before)),
        );
    }
}

/// A periodic task whose first run was due 4.5 periods ago. Fixed rate
/// runs the 5 runs due since then, back to back, before a task due now;
/// fixed delay runs once, and its next run is a period away.
pub fn past_start() {
    for fixed_rate in [true, false] {
        let period = ms(1000);
        let timer = Timer::new("jdk-past").expect("a timer");
        let count = Arc::new(AtomicUsize::new(0));
        let c = Arc::clone(&count);
        let now = Instant::now();
        // The monotonic clock starts near boot: 4.5 s back exists on any
        // machine that has been up that long.
        let first = now
            .checked_sub(period * 9 / 2)
            .expect("a machine up for more than 4.5 periods");
        repeat(&timer, fixed_rate, first, period, move || {
            c.fetch_add(1, SeqCst);
        });
        let before = sentinel(&timer, now, &count)
            .recv()
            .expect("the sentinel ran");
        timer.cancel();
        line(
            &format!(
                "timer: {}, the first run due 4.5 periods ago",
                kind(fixed_rate)
            ),
            &format!("{} before a task due now", runs(before)),
        );
    }
}

/// What the count before a task due at 2 periods says, when the first run
/// lasts 2 periods: 2, the next run was due a period after the first
/// *started*; 1, a period after it *ended*. Shared with [`crate::scheduled`].
pub fn from_start_or_end(before: usize) -> String {
    let rule = match before {
        2 => ": the period counts from a run's start",
        1 => ": the period counts from a run's end",
        _ => "",
    };
    format!("{} before a task due at 2 periods{rule}", runs(before))
}

/// Fixed delay on the timer counts the period from the start of a run.
/// (This assumes the first run started within a period of its due time.)
pub fn fixed_delay_from() {
    let period = ms(100);
    let timer = Timer::new("jdk-delay-from").expect("a timer");
    let count = Arc::new(AtomicUsize::new(0));
    let c = Arc::clone(&count);
    let first = Instant::now();
    repeat(&timer, false, first, period, move || {
        if c.fetch_add(1, SeqCst) == 0 {
            std::thread::sleep(period * 2);
        }
    });
    let before = sentinel(&timer, first + period * 2, &count)
        .recv()
        .expect("the sentinel ran");
    timer.cancel();
    line(
        "timer: fixed delay, the first run 2 periods long",
        &from_start_or_end(before),
    );
}

/// `purge` counts the cancelled tasks it removes.
pub fn purge() {
    let timer = Timer::new("jdk-purge").expect("a timer");
    // As the Java side: the head is not cancelled (the JDK's timer thread
    // drops a cancelled head by itself, whenever it looks).
    let handles: Vec<_> = (0..5)
        .map(|i| {
            timer
                .schedule(ms(3_600_000) + Duration::from_millis(i), || {})
                .expect("accepted")
        })
        .collect();
    for handle in &handles[1..=3] {
        handle.cancel();
    }
    line(
        "timer: purge after 3 of 5 cancelled, not the head",
        &format!("removed {}", timer.purge()),
    );
    timer.cancel();
}

/// The timer's one thread: started by `Timer::new`, before any task, and
/// every task runs on it.
pub fn threads() {
    let timer = Timer::new("jdk-threads").expect("a timer");
    // Running: the kernel lists a thread by that name (the new thread
    // names itself as it starts, so allow it a moment).
    let named = kit::threads::tids_named_within("jdk-threads", ms(5000))
        .map(|tids| tids.len())
        .unwrap_or(0);
    let (tx, rx) = mpsc::channel();
    for _ in 0..100 {
        let tx = tx.clone();
        timer
            .schedule(Duration::ZERO, move || {
                let me = std::thread::current();
                tx.send((me.id(), me.name() == Some("jdk-threads")))
                    .expect("the test waits");
            })
            .expect("accepted");
    }
    let ran: Vec<_> = (0..100)
        .map(|_| rx.recv().expect("every task runs"))
        .collect();
    let ids: std::collections::HashSet<_> = ran.iter().map(|(id, _)| *id).collect();
    let its_own = ran.iter().all(|(_, own)| *own);
    drop(timer);
    line(
        "timer: its threads",
        &format!(
            "running before any task: {named}; 100 tasks ran on {}{}",
            ids.len(),
            if its_own {
                ", the timer's own"
            } else {
                ", not the timer's own"
            }
        ),
    );
}

/// I4: does a task that runs long make the next one wait? The first task
/// waits (at most 3 units) for the second to start: on one thread it
/// cannot, so the second starts after the first ends. Shared with the
/// scheduled pool's scenario, which passes its own `schedule`.
pub fn long_task_first(schedule: impl Fn(Box<dyn FnOnce() + Send>, Duration)) -> &'static str {
    let unit = ms(50);
    let (second_started, started) = mpsc::channel::<()>();
    let first_ended = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel();
    let (ended, done) = (Arc::clone(&first_ended), tx.clone());
    schedule(
        Box::new(move || {
            let _ = started.recv_timeout(unit * 3);
            ended.store(true, SeqCst);
            done.send(None).expect("the test waits");
        }),
        unit,
    );
    schedule(
        Box::new(move || {
            let after = first_ended.load(SeqCst);
            let _ = second_started.send(());
            tx.send(Some(after)).expect("the test waits");
        }),
        unit * 2,
    );
    let both: Vec<_> = (0..2).map(|_| rx.recv().expect("both run")).collect();
    if both.contains(&Some(true)) {
        "the second started after the first ended"
    } else {
        "the second started while the first ran"
    }
}

/// I4 on the Timer.
pub fn long_task() {
    let timer = Timer::new("jdk-i4").expect("a timer");
    let what = long_task_first(|body, delay| {
        timer.schedule(delay, body).expect("accepted");
    });
    drop(timer);
    line(
        "timer: a task runs 3 units from 1, another is due at 2",
        what,
    );
}
