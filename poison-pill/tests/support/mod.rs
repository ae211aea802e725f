//! What the stage's test files share: one interface over the five timers,
//! the pause points each one marks, and the scenarios the bugs are shown
//! with.
//!
//! The scenario of P1, P2 and P3 is the same for every version: hold the
//! timer thread at a named point on its way to blocking, cancel from a
//! client thread, release the thread, then let the timer's last owner drop
//! it (the drop joins the thread) and see when that join returns. Only the
//! point differs:
//!
//! | point | the thread has... | cancel_flag, notify_on_cancel | the fixed versions |
//! |---|---|---|---|
//! | `IDLE` | found nothing queued, is about to block | before `take` | their last point before blocking |
//! | `WINDOW` | a task due far out, has looked at it, is not waiting yet | before locking the monitor | = `WAIT` |
//! | `WAIT` | a task due far out, is about to wait for it | holding the monitor | their last point before the wait |
//!
//! In the fixed versions that check and wait under one lock (poison_pill,
//! timer_style) the point is inside that lock, so the client's cancel
//! blocks until the thread waits. In disconnect.rs it is not in any lock:
//! the cancel gets in, and the channel remembers it.
#![allow(dead_code)] // each test binary uses its own part of this module

use std::io;
use std::sync::Arc;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

use kit::pause::Pause;
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};
use poison_pill::error::ScheduleError;
use poison_pill::{cancel_flag, disconnect, notify_on_cancel, poison_pill as pill, timer_style};

/// The article's "10 hours", scaled: how far out the queued task is due.
/// A thread that waits for it ends about 800 ms after the cancel, well over
/// twice `MARGIN_MS`; the red checks of P2 and P3 wait this long (the
/// tests that show them look until `MARGIN_MS`: see [`Look`]).
pub const FAR_MS: u64 = 800;
/// How long the thread is held, at most, while the client tries to cancel:
/// the scenario lets it go as soon as the cancel has returned, or is
/// blocked on a lock the held thread owns.
pub const HOLD_MS: u64 = 100;
/// How soon after the test lets it go a correct timer's thread has ended
/// (its cancel is in by then, or lands as the thread blocks). Measured
/// from the let-go, not from the cancel: the hold is the scenario's, and
/// on a loaded machine the test's wait of `HOLD_MS` itself runs long (a
/// hold of 266 ms was seen), which is not the timer's time.
pub const MARGIN_MS: u64 = 300;
/// How long a test waits for the join of an idle timer before it says the
/// thread is still running (P1: it would run forever). Past `MARGIN_MS`, so
/// a correct thread is never cut off (they end within milliseconds of
/// being let go); the red checks of P1, and the example, wait this long.
pub const IDLE_BOUND_MS: u64 = 400;

/// How long the cancel scenario waits for the timer thread to end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    /// Until it ends, for at most past the far task's deadline (or
    /// `IDLE_BOUND_MS`): what the fixed versions and the red checks get.
    UntilItEnds,
    /// Until `MARGIN_MS` after the thread was let go, where the correctness
    /// check gives up, and no longer: a thread still there then fails the
    /// check, and is freed with its version's hook. What the tests that
    /// show the bug look for: the rest of the wait (to the far deadline,
    /// or forever) would add nothing to it.
    ToTheBound,
}

/// The five timers, seen the same way by the scenarios.
pub trait Version: Sized + Send + Sync + 'static {
    /// The version's file, for messages.
    const FILE: &'static str;
    /// The thread has found the queue empty and is about to block.
    const IDLE: &'static str;
    /// The thread is about to wait for a far task's deadline.
    const WAIT: &'static str;
    /// The thread has looked at the far task (and, for the buggy versions,
    /// read the flag) and is not waiting yet. In a fixed version, the same
    /// point as `WAIT`: the look and the wait are one step.
    const WINDOW: &'static str = Self::WAIT;
    /// Where to hold the thread while the far task is scheduled, if it must
    /// be held somewhere: see [`cancel_at`].
    const GATE: Option<&'static str> = None;

    fn start(name: &str) -> io::Result<Self>;
    fn schedule_task(
        &self,
        delay: Duration,
        task: impl FnOnce() + Send + 'static,
    ) -> Result<(), ScheduleError>;
    fn cancel_timer(&self);
    /// The buggy versions' test hooks: free a thread P1 left blocked in
    /// `take`, or P2 or P3 in its timed wait.
    fn rescue(&self) -> Option<Box<dyn Fn() + Send>> {
        None
    }
}

/// The calls every version has, under the trait's names.
macro_rules! calls {
    ($ty:ty) => {
        fn start(name: &str) -> io::Result<Self> {
            <$ty>::new(name)
        }
        fn schedule_task(
            &self,
            delay: Duration,
            task: impl FnOnce() + Send + 'static,
        ) -> Result<(), ScheduleError> {
            <$ty>::schedule(self, delay, task)
        }
        fn cancel_timer(&self) {
            <$ty>::cancel(self)
        }
    };
}

impl Version for cancel_flag::Timer {
    const FILE: &'static str = "cancel_flag.rs";
    const IDLE: &'static str = "poison-pill::cancel_flag: checked the flag, about to take";
    const WAIT: &'static str = "poison-pill::cancel_flag: holding the monitor, about to wait";
    const WINDOW: &'static str = "poison-pill::cancel_flag: took the head, not yet waiting";
    const GATE: Option<&'static str> = Some(Self::IDLE);
    calls!(cancel_flag::Timer);
    fn rescue(&self) -> Option<Box<dyn Fn() + Send>> {
        let (from_take, from_wait) = (
            cancel_flag::Timer::rescue(self),
            cancel_flag::Timer::rescue_from_wait(self),
        );
        Some(Box::new(move || {
            from_take();
            from_wait();
        }))
    }
}

impl Version for notify_on_cancel::Timer {
    const FILE: &'static str = "notify_on_cancel.rs";
    const IDLE: &'static str = "poison-pill::notify_on_cancel: checked the flag, about to take";
    const WAIT: &'static str = "poison-pill::notify_on_cancel: holding the monitor, about to wait";
    const WINDOW: &'static str = "poison-pill::notify_on_cancel: took the head, not yet waiting";
    const GATE: Option<&'static str> = Some(Self::IDLE);
    calls!(notify_on_cancel::Timer);
    fn rescue(&self) -> Option<Box<dyn Fn() + Send>> {
        let (from_take, from_wait) = (
            notify_on_cancel::Timer::rescue(self),
            notify_on_cancel::Timer::rescue_from_wait(self),
        );
        Some(Box::new(move || {
            from_take();
            from_wait();
        }))
    }
}

impl Version for pill::Timer {
    const FILE: &'static str = "poison_pill.rs";
    const IDLE: &'static str = "poison-pill::poison_pill: queue empty, about to wait";
    const WAIT: &'static str = "poison-pill::poison_pill: peeked the head, not yet waiting";
    calls!(pill::Timer);
}

impl Version for disconnect::Timer {
    const FILE: &'static str = "disconnect.rs";
    const IDLE: &'static str = "poison-pill::disconnect: heap empty, about to receive";
    const WAIT: &'static str = "poison-pill::disconnect: drained the channel, about to wait";
    calls!(disconnect::Timer);
}

impl Version for timer_style::Timer {
    const FILE: &'static str = "timer_style.rs";
    const IDLE: &'static str = "poison-pill::timer_style: queue empty, about to wait";
    const WAIT: &'static str = "poison-pill::timer_style: peeked the head, not yet waiting";
    calls!(timer_style::Timer);
}

/// poison_pill.rs's point at the top of its loop, outside the queue's lock:
/// a cancel there puts the pill in before the thread calls `take`.
pub const PILL_ABOUT_TO_TAKE: &str = "poison-pill::poison_pill: about to take";

/// What happened in one run of the cancel scenario, in times since the
/// start.
pub struct Run {
    pub rec: Recorder,
    /// The timer thread's name.
    pub name: String,
    /// When the client called `cancel`.
    pub cancelled: Duration,
    /// When the test let the held thread go.
    pub released: Duration,
    /// Whether `cancel` returned while the thread was still held.
    pub cancel_got_in: bool,
    /// When the far task was due, if the scenario scheduled one.
    pub task_due: Option<Duration>,
    /// When the join of the thread returned; `None` if it had not by
    /// `gave_up` (the test then freed the thread itself).
    pub ended: Option<Duration>,
    pub gave_up: Duration,
}

impl Run {
    /// Whether the far task ran.
    pub fn task_ran(&self) -> bool {
        self.rec.count("task ran") > 0
    }

    /// The correctness check of P1, P2 and P3: the thread has ended within
    /// `MARGIN_MS` of being let go (the cancel came before), and the far
    /// task did not run.
    #[track_caller]
    pub fn assert_ends_soon(&self, label: &str) {
        match self.ended {
            Some(ended) if ended <= self.released + ms(MARGIN_MS) => {}
            Some(ended) => panic!(
                "{label}: cancelled at {} ms, thread ended at {} ms{}\n\
                 (let go at {} ms; a correct thread ends within {} ms of that)\n{}",
                in_ms(self.cancelled),
                in_ms(ended),
                self.due_note(),
                in_ms(self.released),
                in_ms(ms(MARGIN_MS)),
                self.rec.log()
            ),
            None => panic!(
                "{label}: cancelled at {} ms, thread still running at {} ms (the join had not returned; the test then freed the thread)\n{}",
                in_ms(self.cancelled),
                in_ms(self.gave_up),
                self.rec.log()
            ),
        }
        assert!(
            !self.task_ran(),
            "a task ran after cancel\n{}",
            self.rec.log()
        );
    }

    /// P2 and P3, shown: the thread did not end before the far task's
    /// deadline, and the task did not run. Either the thread was still
    /// there at the correctness check's bound ([`Look::ToTheBound`]; the
    /// test then freed it), or it ended, no sooner than the deadline: an
    /// exact lower bound, since nothing notifies the monitor it waits on
    /// (on Linux a condvar wait does not end early without a notify).
    #[track_caller]
    pub fn assert_waits_for_deadline(&self) {
        let due = self.task_due.expect("a far task");
        match self.ended {
            None => assert!(
                self.gave_up > self.released + ms(MARGIN_MS),
                "the test gave up at {} ms, before the bound\n{}",
                in_ms(self.gave_up),
                self.rec.log()
            ),
            Some(ended) => assert!(
                ended >= due,
                "the thread ended at {} ms, before the task's deadline ({} ms)\n{}",
                in_ms(ended),
                in_ms(due),
                self.rec.log()
            ),
        }
        assert!(
            !self.task_ran(),
            "the task ran after cancel\n{}",
            self.rec.log()
        );
    }

    fn due_note(&self) -> String {
        match self.task_due {
            Some(due) if !self.task_ran() => {
                format!(" (the task was due at {} ms and did not run)", in_ms(due))
            }
            Some(due) => format!(" (the task was due at {} ms)", in_ms(due)),
            None => String::new(),
        }
    }
}

/// The cancel scenario of P1, P2 and P3: see the module docs. With
/// `far_task`, one task due in `FAR_MS` is scheduled first; either way the
/// thread is held at `point`, cancelled, released and joined.
///
/// cancel_flag.rs's and notify_on_cancel.rs's `schedule` notifies a new
/// head under the monitor, the monitor their thread holds at `WAIT`. Were
/// the thread to take the task and reach `WAIT` before that notify, the
/// test's own `schedule` would block on the held thread. So their thread is
/// first held at `GATE`, before `take`, until the task is in.
pub fn cancel_at<T: Version>(prefix: &str, point: &'static str, far_task: bool) -> Run {
    cancel_looking::<T>(prefix, point, far_task, Look::UntilItEnds)
}

/// [`cancel_at`], waiting for the thread's end as `look` says.
pub fn cancel_looking<T: Version>(
    prefix: &str,
    point: &'static str,
    far_task: bool,
    look: Look,
) -> Run {
    let name = threads::unique_name(prefix);
    let rec = Recorder::new();
    let pause = Pause::arm(point, &name);
    let gate = T::GATE
        .filter(|_| far_task)
        .map(|gate| Pause::arm(gate, &name));
    let timer = Arc::new(T::start(&name).expect("start the timer"));
    if let Some(gate) = &gate {
        gate.wait_reached();
    }
    let task_due = far_task.then(|| {
        let at = rec.record_as("test", format!("schedule a task due in {FAR_MS} ms"));
        let r = rec.clone();
        timer
            .schedule_task(ms(FAR_MS), move || {
                r.record("task ran");
            })
            .expect("schedule the far task");
        at + ms(FAR_MS)
    });
    drop(gate); // lets the thread go on, to `point`
    pause.wait_reached();
    rec.record_as(&name, "held at its pause point");

    let client_name = threads::unique_name("client");
    let client = {
        let (timer, rec) = (Arc::clone(&timer), rec.clone());
        std::thread::Builder::new()
            .name(client_name.clone())
            .spawn(move || {
                rec.record("cancel called");
                timer.cancel_timer();
                rec.record("cancel returned");
            })
            .expect("spawn the client")
    };
    // The cancel has returned (it got in while the thread was held), or the
    // client is blocked in it: asleep after "cancel called", on the lock
    // the held thread owns (nothing else in a `cancel` blocks).
    let blocked = || {
        rec.count("cancel called") > 0
            && threads::tids_named(&client_name).is_ok_and(|tids| {
                !tids.is_empty() && tids.iter().all(|&t| threads::state(t) == Some('S'))
            })
    };
    kit::eventually(ms(HOLD_MS), || {
        rec.count("cancel returned") > 0 || blocked()
    });
    let cancel_got_in = rec.count("cancel returned") > 0;
    let released = rec.record_as("test", "release the timer thread");
    pause.release();
    client.join().expect("the client thread");
    let cancelled = rec.at("cancel called").expect("recorded by the client");

    let within = match look {
        Look::UntilItEnds if far_task => ms(FAR_MS + 2000),
        Look::UntilItEnds => ms(IDLE_BOUND_MS),
        // A hair past the bound, so that a thread still there has failed it.
        Look::ToTheBound => (released + ms(MARGIN_MS) + ms(1)).saturating_sub(rec.elapsed()),
    };
    let (ended, gave_up) = join_in_time(timer, &rec, within);
    threads::assert_gone(&name);
    Run {
        rec,
        name,
        cancelled,
        released,
        cancel_got_in,
        task_due,
        ended,
        gave_up,
    }
}

/// Drops the timer's last owner on a joiner thread, as a program's `main`
/// would on its way out; waits at most `within` for that drop (a join of
/// the timer thread) to return. If it does not, frees the thread with the
/// version's rescue hook and joins it then. Returns when the drop returned
/// (`None` if not in time) and when the test gave up waiting.
pub fn join_in_time<T: Version>(
    timer: Arc<T>,
    rec: &Recorder,
    within: Duration,
) -> (Option<Duration>, Duration) {
    let rescue = timer.rescue();
    let joiner = {
        let rec = rec.clone();
        spawn("joiner", move || {
            drop(timer);
            rec.record("thread ended");
        })
    };
    let ended = rec.eventually("thread ended", within);
    let gave_up = rec.elapsed();
    if ended.is_none() {
        match rescue {
            Some(rescue) => {
                rec.record_as("test", "gave up waiting; free the thread");
                rescue();
            }
            // A fixed version that hangs: there is nothing to free it with.
            // The joiner stays behind, blocked, and the test fails now.
            None => panic!(
                "the timer thread did not end within {} ms and cannot be freed; leaving it behind\n{}",
                within.as_millis(),
                rec.log()
            ),
        }
    }
    joiner.join().expect("the joiner thread");
    (ended, gave_up)
}

/// Spawns a named helper thread.
pub fn spawn<R: Send + 'static>(
    prefix: &str,
    f: impl FnOnce() -> R + Send + 'static,
) -> JoinHandle<R> {
    std::thread::Builder::new()
        .name(threads::unique_name(prefix))
        .spawn(f)
        .expect("spawn a helper thread")
}

/// The article's four situations a cancel can find the timer in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Situation {
    /// 1. A task is running, nothing else is queued.
    RunningQueueEmpty,
    /// 2. A task is running, and more are queued (due at once).
    RunningQueued,
    /// 3. No task is running, nothing is queued.
    IdleQueueEmpty,
    /// 4. No task is running, tasks are queued (due soon after the cancel,
    ///    and one far out).
    IdleQueued,
}

/// What a cancel did in one situation.
pub struct SituationRun {
    pub rec: Recorder,
    /// The running task finished, after the cancel returned.
    pub running_finished_after_cancel: bool,
    /// How many queued tasks ran.
    pub queued_ran: usize,
    /// How long after the cancel (or after the running task finished) the
    /// thread had ended.
    pub ended_after: Option<Duration>,
}

/// Cancels a timer in `situation`, then drops it (joining its thread).
/// No pause point: these are the plain situations, without a race.
///
/// In situation 4 the cancel must come before the first queued task is
/// due (100 ms), or the situation never happened: a machine that keeps the
/// test's thread from its core that long gets the situation set up again,
/// on a new timer (at most [`TRIES`] times), not a verdict.
pub fn cancel_in<T: Version>(prefix: &str, situation: Situation) -> SituationRun {
    for _ in 0..TRIES {
        if let Some(run) = cancel_in_once::<T>(prefix, situation) {
            return run;
        }
    }
    panic!(
        "precondition: the cancel came after the first queued task was due, {TRIES} times; try \
         KIT_TIME_SCALE=3"
    );
}

/// Setups of a scenario tried, at most, while the machine keeps it from
/// happening as written.
pub const TRIES: usize = 5;

/// One setup of [`cancel_in`]; `None` if the cancel came too late.
fn cancel_in_once<T: Version>(prefix: &str, situation: Situation) -> Option<SituationRun> {
    let name = threads::unique_name(prefix);
    let rec = Recorder::new();
    let timer = Arc::new(T::start(&name).expect("start the timer"));
    let running = matches!(
        situation,
        Situation::RunningQueueEmpty | Situation::RunningQueued
    );
    let (gate, gate_rx) = mpsc::channel::<()>();
    if running {
        let r = rec.clone();
        timer
            .schedule_task(Duration::ZERO, move || {
                r.record("running task started");
                // Held until the test opens the gate (or fails and drops it).
                let _ = gate_rx.recv();
                r.record("running task finished");
            })
            .expect("schedule the running task");
        rec.eventually("running task started", ms(5000))
            .expect("the running task started");
    } else {
        drop(gate_rx);
    }
    let queued: &[u64] = match situation {
        Situation::RunningQueued => &[0, 0, 0],
        Situation::IdleQueued => &[100, 150, FAR_MS],
        _ => &[],
    };
    for &delay in queued {
        let r = rec.clone();
        timer
            .schedule_task(ms(delay), move || {
                r.record("queued task ran");
            })
            .expect("schedule a queued task");
    }
    rec.record_as("test", "cancel called");
    timer.cancel_timer();
    let cancel_returned = rec.record_as("test", "cancel returned");
    if queued
        .iter()
        .find(|&&d| d > 0)
        .is_some_and(|&first| cancel_returned >= ms(first))
    {
        // Not the situation: the thread ends (it was cancelled), and the
        // caller sets it up again.
        let _ = join_in_time(timer, &rec, ms(FAR_MS + 2000));
        threads::assert_gone(&name);
        return None;
    }
    let since = if running {
        let finished_before = rec.count("running task finished") > 0;
        assert!(
            !finished_before,
            "the running task finished before it was let go"
        );
        rec.record_as("test", "let the running task finish");
        drop(gate);
        rec.eventually("running task finished", ms(5000))
            .expect("the running task finished")
    } else {
        cancel_returned
    };
    let (ended, _) = join_in_time(timer, &rec, ms(FAR_MS + 2000));
    threads::assert_gone(&name);
    Some(SituationRun {
        running_finished_after_cancel: running
            && rec
                .at("running task finished")
                .is_some_and(|t| t > cancel_returned),
        queued_ran: rec.count("queued task ran"),
        ended_after: ended.map(|t| t.saturating_sub(since)),
        rec,
    })
}

impl SituationRun {
    /// A correct stop: the running task (if any) finished, no queued task
    /// ran, and the thread ended within `MARGIN_MS`.
    #[track_caller]
    pub fn assert_clean_stop(&self, what: &str) {
        assert_eq!(
            self.queued_ran,
            0,
            "{what}: a queued task ran after cancel\n{}",
            self.rec.log()
        );
        let ended = self
            .ended_after
            .unwrap_or_else(|| panic!("{what}: the thread did not end\n{}", self.rec.log()));
        assert!(
            ended <= ms(MARGIN_MS),
            "{what}: the thread ended {} ms after the cancel\n{}",
            in_ms(ended),
            self.rec.log()
        );
    }
}
