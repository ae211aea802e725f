//! Thin adapters: every version of the timer, seen through one interface.

use std::time::Duration;

use parking_lot::Mutex;
use progression::finished::Finished;
use threadpool_executor::pool::Variant;

use super::pools::{PoolVersion, Queue};
use super::scheduled::{self, Sched};
use threadpool_executor::delayed_queue::Wait;

use super::futures::{self, Futures};
use super::wheels::Kind;

/// A task as the battery hands it to a timer.
pub type Task = Box<dyn FnOnce() + Send>;

pub use progression::finished::Periodic;

/// A running timer. Dropping it stops and joins its thread.
pub trait Subject: Send + Sync {
    /// Runs `task` once `delay` has passed.
    fn schedule(&self, delay: Duration, task: Task);
    /// As `schedule`, but says whether the timer accepted the task (from
    /// stage 4 on, a timer can refuse one). The versions before accept
    /// everything.
    fn try_schedule(&self, delay: Duration, task: Task) -> bool {
        self.schedule(delay, task);
        true
    }
    /// Runs `task` every `period` at a fixed rate, first after `delay`;
    /// `false` if the version has no such call (before stage 5).
    fn schedule_at_fixed_rate(&self, _delay: Duration, _period: Duration, _task: Periodic) -> bool {
        false
    }
    /// Cancels the timer without waiting (stage 4 on). The versions before
    /// have no `cancel`: their drop is how they stop.
    fn cancel(&self) {}
    /// Frees a thread that a buggy `cancel` left blocked, so the battery
    /// joins every thread it starts (a test hook of stage 4's buggy
    /// versions; nothing for the others).
    fn rescue(&self) {}
    /// How many times its thread has woken to look at its queue, for a
    /// version that counts them itself (the wheels' tickers); `None` for
    /// the others, whose wake-ups the battery reads from the kernel.
    fn wakeups(&self) -> Option<u64> {
        None
    }
    /// Whether its thread, held at its window, had chosen to wait for a
    /// deadline (not to sleep with nothing to do): asked of the versions
    /// whose window is on both ways (stage 8's driver); true for the
    /// others, whose window lies on the way to a deadline only.
    fn planned_a_deadline(&self) -> bool {
        true
    }
}

/// One version of the timer, in teaching order.
pub struct Version {
    /// The stage and file, e.g. `condvar-timer::racy`.
    pub name: &'static str,
    /// The pause point where the thread has chosen how long to wait but is
    /// not waiting yet, and the ID of the bug that window shows, if any.
    pub window: Option<(&'static str, &'static str)>,
    /// Starts the timer with its thread named as given.
    pub start: fn(&str) -> Box<dyn Subject>,
    /// How it stops, and where its thread can be held while it is stopped.
    pub stop: Stop,
    /// For stage 6's pool, which has no timer: what it is, for the
    /// scenarios asked of pools. `None` for every timer.
    pub pool: Option<PoolVersion>,
    /// For stage 6's scheduled pool: how it is built, for the scenarios
    /// asked of it alone. `None` for every other version.
    pub scheduled: Option<Sched>,
    /// For stage 7's wheels: which one, for the scenarios asked of wheels
    /// alone. `None` for every other version.
    pub wheel: Option<Kind>,
    /// For stage 8's timer for futures: which version of its driver, for
    /// the scenarios asked of it alone. `None` for every other version.
    pub futures: Option<Futures>,
}

/// How a version stops, and its pause points on the way to blocking.
#[derive(Clone, Copy, Default)]
pub struct Stop {
    /// It has `cancel` (stage 4 on); otherwise dropping it stops it.
    pub cancel: bool,
    /// The thread found nothing queued and is about to block.
    pub idle: Option<&'static str>,
    /// The thread is about to wait for a far task's deadline.
    pub wait: Option<&'static str>,
    /// The thread has read its cancel flag and looked at the far task, and
    /// is not waiting yet (P3's window); only versions with `cancel`.
    pub gap: Option<&'static str>,
    /// Where to hold the thread while the far task is scheduled, for the
    /// versions whose `schedule` notifies under the monitor held at `wait`.
    pub gate: Option<&'static str>,
    /// Its cancel only sets a flag and wakes nobody: a cancel in P3's gap
    /// then shows P2's bug (the thread waits out the deadline whatever the
    /// moment), not the gap's own race, which needs a notify to lose.
    pub silent_cancel: bool,
}

impl Subject for naive::busy_loop::Timer {
    fn schedule(&self, delay: Duration, task: Task) {
        naive::busy_loop::Timer::schedule(self, delay, task).expect("a small delay");
    }
}

impl Subject for sleep_based::sleep_until::Timer {
    fn schedule(&self, delay: Duration, task: Task) {
        sleep_based::sleep_until::Timer::schedule(self, delay, task).expect("a small delay");
    }
}

impl Subject for condvar_timer::racy::Timer {
    fn schedule(&self, delay: Duration, task: Task) {
        condvar_timer::racy::Timer::schedule(self, delay, task).expect("a small delay");
    }
}

impl Subject for condvar_timer::timer_style::Timer {
    fn schedule(&self, delay: Duration, task: Task) {
        condvar_timer::timer_style::Timer::schedule(self, delay, task).expect("a small delay");
    }
}

impl Subject for condvar_timer::something_changed::TimerQueue {
    fn schedule(&self, delay: Duration, task: Task) {
        // The handler also runs, aborted, if the queue is dropped first; the
        // battery only counts runs that were not aborted.
        self.add(delay, move |aborted| {
            if !aborted {
                task()
            }
        })
        .expect("a small delay");
    }
}

/// Stage 4's versions: `cancel` as the battery calls it, and the buggy
/// versions' hook that frees a thread P1 left blocked.
macro_rules! cancellable {
    ($($ty:ty, rescue: $rescue:expr;)*) => {$(
        impl Subject for $ty {
            fn schedule(&self, delay: Duration, task: Task) {
                <$ty>::schedule(self, delay, task).expect("a small delay");
            }
            fn try_schedule(&self, delay: Duration, task: Task) -> bool {
                <$ty>::schedule(self, delay, task).is_ok()
            }
            fn cancel(&self) {
                <$ty>::cancel(self);
            }
            fn rescue(&self) {
                let rescue: fn(&$ty) = $rescue;
                rescue(self);
            }
        }
    )*};
}

cancellable! {
    poison_pill::cancel_flag::Timer, rescue: |t| (t.rescue())();
    poison_pill::notify_on_cancel::Timer, rescue: |t| (t.rescue())();
    poison_pill::poison_pill::Timer, rescue: |_| {};
    poison_pill::disconnect::Timer, rescue: |_| {};
    poison_pill::timer_style::Timer, rescue: |_| {};
    interrupt_cancel::interrupted_only::Timer, rescue: |_| {};
    interrupt_cancel::interrupted_or_dead::Timer, rescue: |_| {};
    interrupt_cancel::refuses_when_dead::Timer, rescue: |_| {};
}

/// A finished version (stage 5's Timer, the scheduled pool, the hashed and
/// hierarchical wheels on their pool), through the executor trait and
/// what [`Finished`] adds to it. java.util.Timer's `cancel` drops every
/// task and ends the thread: the trait's `shutdown_now`.
///
/// What `schedule` and `shutdown_now` give back is kept until the version
/// itself is dropped (fields drop in order: the version, and its threads,
/// first): a Timer handle's drop takes the timer's lock, which its thread
/// may be holding at a pause point.
pub struct AsTimer<E: Finished> {
    on: E,
    handles: Mutex<Vec<E::Handle>>,
    handed_back: Mutex<Vec<E::Pending>>,
}

impl<E: Finished> AsTimer<E>
where
    E::Pending: Send,
{
    /// The version, as a battery timer.
    pub fn boxed(on: E) -> Box<dyn Subject> {
        Box::new(AsTimer {
            on,
            handles: Mutex::new(Vec::new()),
            handed_back: Mutex::new(Vec::new()),
        })
    }

    fn keep(&self, handle: Option<E::Handle>) -> bool {
        handle.map(|h| self.handles.lock().push(h)).is_some()
    }
}

impl<E: Finished> Subject for AsTimer<E>
where
    E::Pending: Send,
{
    fn schedule(&self, delay: Duration, task: Task) {
        assert!(
            self.try_schedule(delay, task),
            "a finished version refused a task"
        );
    }
    fn try_schedule(&self, delay: Duration, task: Task) -> bool {
        self.keep(self.on.after(delay, task))
    }
    fn schedule_at_fixed_rate(&self, delay: Duration, period: Duration, task: Periodic) -> bool {
        self.keep(self.on.at_fixed_rate(delay, period, task))
    }
    fn cancel(&self) {
        let never_started = self.on.shutdown_now();
        self.handed_back.lock().extend(never_started);
    }
    fn wakeups(&self) -> Option<u64> {
        self.on.wakeups()
    }
}

/// Stage 5's versions built on the interruptible queue share its points.
const QUEUE_IDLE: &str = "interrupt-cancel::interruptible_queue: queue empty, not yet waiting";
const QUEUE_WAIT: &str = "interrupt-cancel::interruptible_queue: head not due, not yet waiting";

/// A stage 4 version's pause points, all in `poison-pill::<file>: …`.
fn cancellable(idle: &'static str, wait: &'static str, gap: &'static str) -> Stop {
    Stop {
        cancel: true,
        idle: Some(idle),
        wait: Some(wait),
        gap: Some(gap),
        gate: None,
        silent_cancel: false,
    }
}

/// Every version, in the order the book introduces them.
pub fn versions() -> Vec<Version> {
    vec![
        Version {
            name: "naive::busy_loop",
            pool: None,
            scheduled: None,
            wheel: None,
            futures: None,
            window: None,
            start: |name| Box::new(naive::busy_loop::Timer::new(name).unwrap()),
            stop: Stop::default(),
        },
        Version {
            name: "sleep-based::sleep_until",
            pool: None,
            scheduled: None,
            wheel: None,
            futures: None,
            window: Some((
                "sleep-based::sleep_until: took the head, going to sleep",
                "S1",
            )),
            start: |name| Box::new(sleep_based::sleep_until::Timer::new(name).unwrap()),
            stop: Stop {
                wait: Some("sleep-based::sleep_until: took the head, going to sleep"),
                ..Stop::default()
            },
        },
        Version {
            name: "condvar-timer::racy",
            pool: None,
            scheduled: None,
            wheel: None,
            futures: None,
            window: Some(("condvar-timer::racy: took the head, not yet waiting", "C1")),
            start: |name| Box::new(condvar_timer::racy::Timer::new(name).unwrap()),
            stop: Stop {
                wait: Some("condvar-timer::racy: holding the monitor, about to wait"),
                ..Stop::default()
            },
        },
        Version {
            name: "condvar-timer::timer_style",
            pool: None,
            scheduled: None,
            wheel: None,
            futures: None,
            window: Some((
                "condvar-timer::timer_style: peeked the head, not yet waiting",
                "C1",
            )),
            start: |name| Box::new(condvar_timer::timer_style::Timer::new(name).unwrap()),
            stop: Stop {
                wait: Some("condvar-timer::timer_style: peeked the head, not yet waiting"),
                ..Stop::default()
            },
        },
        Version {
            name: "condvar-timer::something_changed",
            pool: None,
            scheduled: None,
            wheel: None,
            futures: None,
            window: Some((
                "condvar-timer::something_changed: computed the wait, not yet waiting",
                "C1",
            )),
            start: |name| {
                Box::new(
                    condvar_timer::something_changed::TimerQueue::new(name)
                        .expect("spawn the queue's thread"),
                )
            },
            stop: Stop {
                wait: Some("condvar-timer::something_changed: computed the wait, not yet waiting"),
                ..Stop::default()
            },
        },
        Version {
            name: "poison-pill::cancel_flag",
            pool: None,
            scheduled: None,
            wheel: None,
            futures: None,
            window: Some((
                "poison-pill::cancel_flag: took the head, not yet waiting",
                "C1",
            )),
            start: |name| Box::new(poison_pill::cancel_flag::Timer::new(name).unwrap()),
            stop: Stop {
                gate: Some("poison-pill::cancel_flag: checked the flag, about to take"),
                silent_cancel: true,
                ..cancellable(
                    "poison-pill::cancel_flag: checked the flag, about to take",
                    "poison-pill::cancel_flag: holding the monitor, about to wait",
                    "poison-pill::cancel_flag: took the head, not yet waiting",
                )
            },
        },
        Version {
            name: "poison-pill::notify_on_cancel",
            pool: None,
            scheduled: None,
            wheel: None,
            futures: None,
            window: Some((
                "poison-pill::notify_on_cancel: took the head, not yet waiting",
                "C1",
            )),
            start: |name| Box::new(poison_pill::notify_on_cancel::Timer::new(name).unwrap()),
            stop: Stop {
                gate: Some("poison-pill::notify_on_cancel: checked the flag, about to take"),
                ..cancellable(
                    "poison-pill::notify_on_cancel: checked the flag, about to take",
                    "poison-pill::notify_on_cancel: holding the monitor, about to wait",
                    "poison-pill::notify_on_cancel: took the head, not yet waiting",
                )
            },
        },
        Version {
            name: "poison-pill::poison_pill",
            pool: None,
            scheduled: None,
            wheel: None,
            futures: None,
            window: Some((
                "poison-pill::poison_pill: peeked the head, not yet waiting",
                "C1",
            )),
            start: |name| Box::new(poison_pill::poison_pill::Timer::new(name).unwrap()),
            stop: cancellable(
                "poison-pill::poison_pill: queue empty, about to wait",
                "poison-pill::poison_pill: peeked the head, not yet waiting",
                "poison-pill::poison_pill: peeked the head, not yet waiting",
            ),
        },
        Version {
            name: "poison-pill::disconnect",
            pool: None,
            scheduled: None,
            wheel: None,
            futures: None,
            window: Some((
                "poison-pill::disconnect: drained the channel, about to wait",
                "C1",
            )),
            start: |name| Box::new(poison_pill::disconnect::Timer::new(name).unwrap()),
            stop: cancellable(
                "poison-pill::disconnect: heap empty, about to receive",
                "poison-pill::disconnect: drained the channel, about to wait",
                "poison-pill::disconnect: drained the channel, about to wait",
            ),
        },
        Version {
            name: "poison-pill::timer_style",
            pool: None,
            scheduled: None,
            wheel: None,
            futures: None,
            window: Some((
                "poison-pill::timer_style: peeked the head, not yet waiting",
                "C1",
            )),
            start: |name| Box::new(poison_pill::timer_style::Timer::new(name).unwrap()),
            stop: cancellable(
                "poison-pill::timer_style: queue empty, about to wait",
                "poison-pill::timer_style: peeked the head, not yet waiting",
                "poison-pill::timer_style: peeked the head, not yet waiting",
            ),
        },
        Version {
            name: "interrupt-cancel::interrupted_only",
            pool: None,
            scheduled: None,
            wheel: None,
            futures: None,
            window: Some((QUEUE_WAIT, "C1")),
            start: |name| Box::new(interrupt_cancel::interrupted_only::Timer::new(name).unwrap()),
            stop: cancellable(QUEUE_IDLE, QUEUE_WAIT, QUEUE_WAIT),
        },
        Version {
            name: "interrupt-cancel::interrupted_or_dead",
            pool: None,
            scheduled: None,
            wheel: None,
            futures: None,
            window: Some((QUEUE_WAIT, "C1")),
            start: |name| {
                Box::new(interrupt_cancel::interrupted_or_dead::Timer::new(name).unwrap())
            },
            stop: cancellable(QUEUE_IDLE, QUEUE_WAIT, QUEUE_WAIT),
        },
        Version {
            name: "interrupt-cancel::refuses_when_dead",
            pool: None,
            scheduled: None,
            wheel: None,
            futures: None,
            window: Some((QUEUE_WAIT, "C1")),
            start: |name| Box::new(interrupt_cancel::refuses_when_dead::Timer::new(name).unwrap()),
            stop: cancellable(QUEUE_IDLE, QUEUE_WAIT, QUEUE_WAIT),
        },
        Version {
            name: "interrupt-cancel::timer",
            pool: None,
            scheduled: None,
            wheel: None,
            futures: None,
            window: Some((
                "interrupt-cancel::timer: peeked the head, not yet waiting",
                "C1",
            )),
            start: |name| AsTimer::boxed(interrupt_cancel::timer::Timer::new(name).unwrap()),
            stop: Stop {
                cancel: true,
                idle: None,
                wait: Some("interrupt-cancel::timer: peeked the head, not yet waiting"),
                gap: Some("interrupt-cancel::timer: peeked the head, not yet waiting"),
                ..Stop::default()
            },
        },
        scheduled_row("threadpool-executor::scheduled, herd", HERD, |name| {
            scheduled::start(name, HERD)
        }),
        scheduled_row(
            "threadpool-executor::scheduled, lazy removal",
            LAZY_REMOVAL,
            |name| scheduled::start(name, LAZY_REMOVAL),
        ),
        scheduled_row(
            "threadpool-executor::scheduled, leader-follower",
            scheduled::LEADER_FOLLOWER,
            |name| scheduled::start(name, scheduled::LEADER_FOLLOWER),
        ),
        scheduled_row("threadpool-executor::scheduled", scheduled::FIXED, |name| {
            scheduled::start(name, scheduled::FIXED)
        }),
        pool(
            "threadpool-executor::no_replacement",
            Variant::NoReplacement,
            Queue::Bounded,
        ),
        pool(
            "threadpool-executor::no_recheck",
            Variant::NoRecheck,
            Queue::Bounded,
        ),
        pool(
            "threadpool-executor::pool, unbounded queue",
            Variant::Fixed,
            Queue::Unbounded,
        ),
        pool(
            "threadpool-executor::pool, bounded queue",
            Variant::Fixed,
            Queue::Bounded,
        ),
        wheel_row("wheel::lockfree", Kind::LockFree),
        wheel_row("wheel::hashed", Kind::Hashed),
        wheel_row("wheel::hierarchical", Kind::Hierarchical),
        futures_row(futures::RACY_POLL),
        futures_row(futures::FIRST_WAKER_ONLY),
        futures_row(futures::LEAKY_DROP),
        futures_row(futures::UNPARKS_IDLE_ONLY),
        futures_row(futures::RESET_WITHOUT_WAKE),
        futures_row(futures::WAKE_UNDER_LOCK),
        futures_row(futures::FIXED),
    ]
}

/// A row for one version of stage 8's driver: a timer whose drop shuts
/// the driver down, held in S1/C1 where it has chosen how long to park
/// (A5's window), once it has parked idle (see [`futures::start`]).
fn futures_row(version: Futures) -> Version {
    Version {
        name: version.name,
        window: Some((async_timer::PARK_WINDOW, "A5")),
        start: version.start,
        stop: Stop::default(),
        pool: None,
        scheduled: None,
        wheel: None,
        futures: Some(version),
    }
}

/// A row for one of stage 7's wheels: a timer whose drop stops it, with no
/// window of the kind the timer columns hold (a wheel's window is its
/// adder's, asked by the W2 column).
fn wheel_row(name: &'static str, kind: Kind) -> Version {
    Version {
        name,
        window: None,
        start: kind.start(),
        stop: Stop::default(),
        pool: None,
        scheduled: None,
        wheel: Some(kind),
        futures: None,
    }
}

/// A row for stage 6's pool.
fn pool(name: &'static str, variant: Variant, queue: Queue) -> Version {
    Version {
        name,
        pool: Some(PoolVersion { variant, queue }),
        scheduled: None,
        wheel: None,
        futures: None,
        window: None,
        start: |_| unreachable!("a pool row has no timer: the matrix asks it pool scenarios only"),
        stop: Stop::default(),
    }
}

/// The scheduled pool whose idle workers all wait timed (T10).
const HERD: Sched = Sched {
    wait: Wait::Herd,
    remove_on_cancel: true,
};

/// The scheduled pool whose cancel leaves the task queued (T14).
const LAZY_REMOVAL: Sched = Sched {
    wait: Wait::LeaderSuccessor,
    remove_on_cancel: false,
};

/// A row for stage 6's scheduled pool: a timer, with no pause points (see
/// scheduled.rs).
fn scheduled_row(name: &'static str, sched: Sched, start: fn(&str) -> Box<dyn Subject>) -> Version {
    Version {
        name,
        window: None,
        start,
        stop: Stop {
            cancel: true,
            ..Stop::default()
        },
        pool: None,
        scheduled: Some(sched),
        wheel: None,
        futures: None,
    }
}
