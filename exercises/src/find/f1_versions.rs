//! F1's versions: every timer that can run behind `exercises::find::f1`'s
//! API, and the one this build wraps ([`Imp`]).
//!
//! Each is the timer as written (`exercises/find/f1_find_inbox_timer.rs`):
//! its inbox, its `schedule`, its drop, with its thread running a loop of
//! its own ([`start`]), each a file under `f1_versions/` that passes the
//! same pause points after the same steps:
//!
//! - correct ones: [`mended`] takes in before it plans; [`replan`] keeps
//!   the order as written and plans again when the take-in brought news;
//!   [`ticking`] wakes every tick whatever it holds, and runs a task at the
//!   first tick after it is due;
//! - the scheduler as written, with its bug (F1);
//! - ones with other bugs of the first chapters: [`sleeps`] sleeps until
//!   the task it planned for, deaf to its inbox (S1), and [`busy`] turns
//!   its loop without waiting while a task is pending (N1).

use std::io;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError};

use super::f1::scheduler::{self, Message};
use super::f1::{PLANNED_AT, RAN_AT, ScheduleError, TOOK_IN_AT};

mod busy;
mod mended;
mod replan;
mod sleeps;
mod ticking;

crate::catch::select!(pub(crate) f1:
    "mended" => Looped<MENDED>,
    "replan" => Looped<REPLAN>,
    "ticking" => Looped<TICKING>,
    "as_written" => Looped<AS_WRITTEN>,
    "sleeps" => Looped<SLEEPS>,
    "busy" => Looped<BUSY>,
);

/// A task, boxed: the one type every version takes.
pub(crate) type Task = Box<dyn FnOnce() + Send>;

/// What the API needs of a version.
pub(crate) trait Version: Sized {
    /// Starts it, its thread named `name`.
    fn start(name: &str) -> io::Result<Self>;
    /// Runs `task` on its thread once `delay` has passed.
    fn schedule(&self, delay: Duration, task: Task) -> Result<(), ScheduleError>;
}

/// The timer as written, its thread running the loop numbered `L`: its
/// own, or another version's (see [`start`]).
pub(crate) struct Looped<const L: u8>(scheduler::Timer);

impl<const L: u8> Version for Looped<L> {
    fn start(name: &str) -> io::Result<Self> {
        Ok(Looped(start(name, L)?))
    }
    fn schedule(&self, delay: Duration, task: Task) -> Result<(), ScheduleError> {
        self.0.schedule(delay, task)
    }
}

const AS_WRITTEN: u8 = 0;
const MENDED: u8 = 1;
const REPLAN: u8 = 2;
const TICKING: u8 = 3;
const SLEEPS: u8 = 4;
const BUSY: u8 = 5;

/// Starts the timer as written, its thread named `name` and running the
/// loop numbered `l`. Every build names every loop here, and so compiles
/// them all, whichever one it runs.
fn start(name: &str, l: u8) -> io::Result<scheduler::Timer> {
    let body: fn(&Receiver<Message>) = match l {
        AS_WRITTEN => return scheduler::Timer::new(name),
        MENDED => mended::run,
        REPLAN => replan::run,
        TICKING => ticking::run,
        SLEEPS => sleeps::run,
        BUSY => busy::run,
        _ => unreachable!("F1 has no loop numbered {l}"),
    };
    scheduler::Timer::start(name, body)
}

/// The tasks a thread holds.
type Pending = Vec<scheduler::Entry>;

/// Step 1 as written: runs every pending task that is due, earliest first.
fn run_due(pending: &mut Pending) {
    while let Some(i) = scheduler::earliest(pending).filter(|&i| pending[i].due <= Instant::now()) {
        (pending.swap_remove(i).task)();
    }
}

/// When the earliest pending task is due, if any is pending.
fn earliest_due(pending: &Pending) -> Option<Instant> {
    scheduler::earliest(pending).map(|i| pending[i].due)
}

/// Step 3 as written: takes in whatever is waiting in the inbox. Returns
/// how many tasks it took in, or `None` for a `Stop`.
fn take_in(messages: &Receiver<Message>, pending: &mut Pending) -> Option<usize> {
    let mut took = 0;
    for message in messages.try_iter() {
        match message {
            Message::Task(entry) => {
                pending.push(entry);
                took += 1;
            }
            Message::Stop => return None,
        }
    }
    Some(took)
}

/// Step 4 as written: waits for the next message (taking in a task that
/// comes), or until `wake_at`. Returns `false` for a `Stop`.
fn wait(messages: &Receiver<Message>, wake_at: Option<Instant>, pending: &mut Pending) -> bool {
    let next = match wake_at {
        Some(at) => messages.recv_deadline(at),
        None => messages.recv().map_err(|_| RecvTimeoutError::Disconnected),
    };
    match next {
        Ok(Message::Task(entry)) => {
            pending.push(entry);
            true
        }
        Ok(Message::Stop) | Err(RecvTimeoutError::Disconnected) => false,
        Err(RecvTimeoutError::Timeout) => true,
    }
}
