// Find it, F1: a timer that waits on its inbox.
//
// The timer of *A timer that burns a core*, one thread fed by a channel,
// with the busy loop gone: the thread keeps the tasks it has taken, and
// blocks on its inbox until a message comes or the earliest task is due
// (crossbeam's `recv_deadline`). So that a burst of schedules costs one
// turn of the loop, not one per message, it takes in everything waiting in
// the inbox at once before it blocks.
//
// It has one bug, of a kind the book has taught. Find it, and write the test
// that catches it: `cargo xtask exercise start f1-find`. Your test uses this
// file's public items (`use super::{Timer, Pause, RAN, ...}`); behind
// `Timer` runs either the scheduler below or a mended one, and your test
// cannot tell which except by what it does.
//
// The pause points, one per step of the thread's loop (each is a
// `kit::pause_point` call in the scheduler: read where it sits):
//
// - `RAN`: step 1 done, it has run every task that was due;
// - `PLANNED`: step 2 done, it has worked out when to wake;
// - `TOOK_IN`: step 3 done, it has taken in what was waiting.
//
// Read down to the line "Stop here". Below it are the mended version, the
// reference test and the wrong tests: the answer.

use std::io;
use std::time::Duration;

pub use exercises::catch::{Pause, Point, ScheduleError};
use exercises::catch::{Side, calling, side};

const RAN_AT: &str = "f1 inbox timer: step 1, ran what was due";
const PLANNED_AT: &str = "f1 inbox timer: step 2, planned";
const TOOK_IN_AT: &str = "f1 inbox timer: step 3, took in";

/// The thread has run every task that was due (step 1).
pub const RAN: Point = Point::new("RAN", RAN_AT, RAN_AT);
/// The thread has worked out when to wake (step 2).
pub const PLANNED: Point = Point::new("PLANNED", PLANNED_AT, PLANNED_AT);
/// The thread has taken in what was waiting in its inbox (step 3).
pub const TOOK_IN: Point = Point::new("TOOK_IN", TOOK_IN_AT, TOOK_IN_AT);

/// A timer with one thread, which runs each task once its delay has passed.
/// Dropping it stops the thread and waits for it; tasks not yet run are
/// dropped unrun.
pub struct Timer(Version);

enum Version {
    Buggy(scheduler::Timer),
    Fixed(fixed::Timer),
}

impl Timer {
    /// Starts a timer whose thread is named `name` (the name a [`Pause`]
    /// holds it by).
    ///
    /// # Errors
    /// If the thread cannot be started (or `name` contains a NUL byte).
    pub fn new(name: &str) -> io::Result<Timer> {
        Ok(Timer(match side() {
            Side::Buggy => Version::Buggy(scheduler::Timer::new(name)?),
            Side::Fixed => Version::Fixed(fixed::Timer::new(name)?),
        }))
    }

    /// Runs `task` on the timer's thread once `delay` has passed. Never
    /// blocks.
    ///
    /// # Errors
    /// [`ScheduleError::DelayOverflow`] if now + `delay` overflows the clock.
    pub fn schedule(
        &self,
        delay: Duration,
        task: impl FnOnce() + Send + 'static,
    ) -> Result<(), ScheduleError> {
        calling("schedule");
        match &self.0 {
            Version::Buggy(t) => t.schedule(delay, task),
            Version::Fixed(t) => t.schedule(delay, task),
        }
    }
}

// ANCHOR: scheduler
/// The timer as it was written.
mod scheduler {
    use std::io;
    use std::thread::{self, JoinHandle};
    use std::time::{Duration, Instant};

    use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, unbounded};

    use super::{PLANNED_AT, RAN_AT, ScheduleError, TOOK_IN_AT};

    struct Entry {
        due: Instant,
        task: Box<dyn FnOnce() + Send>,
    }

    enum Message {
        Task(Entry),
        Stop,
    }

    pub struct Timer {
        inbox: Sender<Message>,
        thread: Option<JoinHandle<()>>,
    }

    impl Timer {
        pub fn new(name: &str) -> io::Result<Timer> {
            let (inbox, messages) = unbounded();
            let thread = thread::Builder::new()
                .name(name.to_owned())
                .spawn(move || run(&messages))?;
            Ok(Timer {
                inbox,
                thread: Some(thread),
            })
        }

        pub fn schedule(
            &self,
            delay: Duration,
            task: impl FnOnce() + Send + 'static,
        ) -> Result<(), ScheduleError> {
            let due = Instant::now()
                .checked_add(delay)
                .ok_or(ScheduleError::DelayOverflow(delay))?;
            let task = Box::new(task);
            // Fails only if the thread is gone; the task is dropped then.
            let _ = self.inbox.send(Message::Task(Entry { due, task }));
            Ok(())
        }
    }

    impl Drop for Timer {
        fn drop(&mut self) {
            let _ = self.inbox.send(Message::Stop);
            if let Some(thread) = self.thread.take() {
                let _ = thread.join(); // a task that panicked ended it
            }
        }
    }

    /// The index of the pending task due first.
    fn earliest(pending: &[Entry]) -> Option<usize> {
        (0..pending.len()).min_by_key(|&i| pending[i].due)
    }

    fn run(messages: &Receiver<Message>) {
        let mut pending: Vec<Entry> = Vec::new();
        loop {
            // 1. Run every task that is due, earliest first.
            while let Some(i) = earliest(&pending).filter(|&i| pending[i].due <= Instant::now()) {
                (pending.swap_remove(i).task)();
            }
            kit::pause_point(RAN_AT);
            // 2. Plan: wake when the earliest pending task is due.
            let wake_at = earliest(&pending).map(|i| pending[i].due);
            kit::pause_point(PLANNED_AT);
            // 3. Take in whatever is waiting, all of it at once.
            for message in messages.try_iter() {
                match message {
                    Message::Task(entry) => pending.push(entry),
                    Message::Stop => return,
                }
            }
            kit::pause_point(TOOK_IN_AT);
            // 4. Wait for the next message, or until the planned time.
            let next = match wake_at {
                Some(at) => messages.recv_deadline(at),
                None => messages.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            match next {
                Ok(Message::Task(entry)) => pending.push(entry),
                Ok(Message::Stop) | Err(RecvTimeoutError::Disconnected) => return,
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }
}
// ANCHOR_END: scheduler

// ===================================================================
// Stop here: below are the mended version, the reference test and the
// wrong tests. Find the bug first.
// ===================================================================

/// The timer mended: it takes in what is waiting first, and plans after,
/// so the plan counts every task it holds. What arrives after the take-in
/// stays in the inbox, and the wait returns with it.
mod fixed {
    use std::io;
    use std::thread::{self, JoinHandle};
    use std::time::{Duration, Instant};

    use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, unbounded};

    use super::{PLANNED_AT, RAN_AT, ScheduleError, TOOK_IN_AT};

    struct Entry {
        due: Instant,
        task: Box<dyn FnOnce() + Send>,
    }

    enum Message {
        Task(Entry),
        Stop,
    }

    pub struct Timer {
        inbox: Sender<Message>,
        thread: Option<JoinHandle<()>>,
    }

    impl Timer {
        pub fn new(name: &str) -> io::Result<Timer> {
            let (inbox, messages) = unbounded();
            let thread = thread::Builder::new()
                .name(name.to_owned())
                .spawn(move || run(&messages))?;
            Ok(Timer {
                inbox,
                thread: Some(thread),
            })
        }

        pub fn schedule(
            &self,
            delay: Duration,
            task: impl FnOnce() + Send + 'static,
        ) -> Result<(), ScheduleError> {
            let due = Instant::now()
                .checked_add(delay)
                .ok_or(ScheduleError::DelayOverflow(delay))?;
            let task = Box::new(task);
            let _ = self.inbox.send(Message::Task(Entry { due, task }));
            Ok(())
        }
    }

    impl Drop for Timer {
        fn drop(&mut self) {
            let _ = self.inbox.send(Message::Stop);
            if let Some(thread) = self.thread.take() {
                let _ = thread.join();
            }
        }
    }

    fn earliest(pending: &[Entry]) -> Option<usize> {
        (0..pending.len()).min_by_key(|&i| pending[i].due)
    }

    fn run(messages: &Receiver<Message>) {
        let mut pending: Vec<Entry> = Vec::new();
        loop {
            while let Some(i) = earliest(&pending).filter(|&i| pending[i].due <= Instant::now()) {
                (pending.swap_remove(i).task)();
            }
            kit::pause_point(RAN_AT);
            // Take in first...
            for message in messages.try_iter() {
                match message {
                    Message::Task(entry) => pending.push(entry),
                    Message::Stop => return,
                }
            }
            kit::pause_point(TOOK_IN_AT);
            // ...then plan, with everything taken in.
            let wake_at = earliest(&pending).map(|i| pending[i].due);
            kit::pause_point(PLANNED_AT);
            let next = match wake_at {
                Some(at) => messages.recv_deadline(at),
                None => messages.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            match next {
                Ok(Message::Task(entry)) => pending.push(entry),
                Ok(Message::Stop) | Err(RecvTimeoutError::Disconnected) => return,
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }
}

/// What `cargo xtask exercise start f1-find` gives you.
mod skeleton {
    // The window: TODO(F1) say here where the bug's window is, between which
    // steps of the loop, and what a task scheduled in it suffers.

    use super::Timer;
    use kit::{Recorder, ms, threads};

    #[test]
    fn f1_inbox_timer_caught() {
        let name = threads::unique_name("find-f1");
        let rec = Recorder::new();

        // TODO(F1): the thread makes its first pass through the loop as soon
        // as it starts: to hold it on that pass, arm the pause here.

        let timer = Timer::new(&name).expect("start the timer");

        // TODO(F1): once the thread is held in the window, do there what the
        // bug cannot take, let the thread go, and assert what a timer
        // promises (a task runs within 300 ms of its due time), in a message
        // that starts with "F1".
        let r = rec.clone();
        timer
            .schedule(ms(50), move || {
                r.record("task ran");
            })
            .expect("a small delay");
        let _ = rec.eventually("task ran", ms(350));
    }
}

/// One test that catches it.
mod reference {
    // The window: from the moment the thread has planned its wake-up (step
    // 2, and already from step 1 on) until it takes in its inbox (step 3).
    // A task sent then is taken in, but the plan was made without it: the
    // thread waits for the task it planned for, or, with none, for ever.

    use super::{PLANNED, Pause, Timer};
    use kit::scale::in_ms;
    use kit::{Recorder, ms, threads};

    /// When the task is due, from when it is scheduled.
    const TASK_MS: u64 = 50;
    /// How late it may run.
    const MARGIN_MS: u64 = 300;

    #[test]
    fn f1_inbox_timer_caught() {
        let name = threads::unique_name("find-f1");
        let rec = Recorder::new();
        // Armed before the thread starts: its first plan is "nothing to
        // wait for".
        let pause = Pause::arm(PLANNED, &name);
        let timer = Timer::new(&name).expect("start the timer");
        pause.wait_reached();
        // The task, while the thread has planned and not yet taken in.
        let due = rec.record("schedule the task") + ms(TASK_MS);
        let r = rec.clone();
        timer
            .schedule(ms(TASK_MS), move || {
                r.record("task ran");
            })
            .expect("a small delay");
        pause.release();

        let by = due + ms(MARGIN_MS);
        let ran = rec.eventually("task ran", by.saturating_sub(rec.elapsed()));
        assert!(
            ran.is_some_and(|at| at <= by),
            "F1 inbox timer: a task due at {} ms had not run by {} ms: it was taken in after \
             the thread planned its wait\n{}",
            in_ms(due),
            in_ms(by),
            rec.log()
        );
    }
}

/// Wrong: it sleeps and hopes. No pause point: it starts the timer, sleeps
/// a moment so that the thread is "surely" between its plan and its
/// take-in, and schedules. The gap is a few instructions wide.
mod wrong_sleeps_and_hopes {
    // verdict: never-held

    use super::Timer;
    use kit::{Recorder, ms, threads};
    use std::time::Duration;

    #[test]
    fn f1_inbox_timer_caught() {
        let name = threads::unique_name("find-f1");
        let rec = Recorder::new();
        let timer = Timer::new(&name).expect("start the timer");
        std::thread::sleep(Duration::from_micros(100));
        let r = rec.clone();
        timer
            .schedule(ms(50), move || {
                r.record("task ran");
            })
            .expect("a small delay");
        assert!(
            rec.eventually("task ran", ms(350)).is_some(),
            "F1 inbox timer: the task never ran"
        );
    }
}

/// Wrong: it fails always. It forces the window well, then asserts more
/// than a timer does: that the task ran before it was due.
mod wrong_fails_always {
    // verdict: fails-on-fixed

    use super::{PLANNED, Pause, Timer};
    use kit::{Recorder, ms, threads};

    #[test]
    fn f1_inbox_timer_caught() {
        let name = threads::unique_name("find-f1");
        let rec = Recorder::new();
        let pause = Pause::arm(PLANNED, &name);
        let timer = Timer::new(&name).expect("start the timer");
        pause.wait_reached();
        let scheduled = rec.record("schedule the task");
        let r = rec.clone();
        timer
            .schedule(ms(50), move || {
                r.record("task ran");
            })
            .expect("a small delay");
        pause.release();
        let ran = rec.eventually("task ran", ms(350));
        assert!(
            ran.is_some_and(|at| at < scheduled + ms(25)),
            "F1 inbox timer: the task had not run halfway to its due time: {ran:?}"
        );
    }
}

/// Wrong: it asserts nothing. It forces the window well, waits for the
/// task, and never says what it expected.
mod wrong_asserts_nothing {
    // verdict: misses-the-bug

    use super::{PLANNED, Pause, Timer};
    use kit::{Recorder, ms, threads};

    #[test]
    fn f1_inbox_timer_caught() {
        let name = threads::unique_name("find-f1");
        let rec = Recorder::new();
        let pause = Pause::arm(PLANNED, &name);
        let timer = Timer::new(&name).expect("start the timer");
        pause.wait_reached();
        let r = rec.clone();
        timer
            .schedule(ms(50), move || {
                r.record("task ran");
            })
            .expect("a small delay");
        pause.release();
        let ran = rec.eventually("task ran", ms(350));
        println!("the task ran at {ran:?}");
    }
}

/// Wrong: it catches another bug. It holds the thread, but what it asserts
/// is that a long task does not make the next one late: I4
/// `delayed_tasks`, which every timer with one thread has, the mended one
/// too (*A timer you can interrupt*).
mod wrong_other_bug {
    // verdict: fails-on-fixed

    use super::{Pause, RAN, Timer};
    use kit::{Recorder, ms, threads};

    #[test]
    fn f1_inbox_timer_caught() {
        let name = threads::unique_name("find-f1");
        let rec = Recorder::new();
        let pause = Pause::arm(RAN, &name);
        let timer = Timer::new(&name).expect("start the timer");
        pause.wait_reached();
        pause.release();
        timer
            .schedule(ms(10), || std::thread::sleep(ms(300)))
            .expect("a small delay");
        let due = rec.record("schedule task 2") + ms(50);
        let r = rec.clone();
        timer
            .schedule(ms(50), move || {
                r.record("task 2 ran");
            })
            .expect("a small delay");
        let ran = rec.eventually("task 2 ran", ms(600));
        assert!(
            ran.is_some_and(|at| at <= due + ms(100)),
            "F1 inbox timer: task 2 due at {due:?} ran at {ran:?}"
        );
    }
}

/// Wrong: it holds the thread at the wrong point. It schedules while the
/// thread is held just before its wait, where a C1 test would hold it; but
/// there the inbox has been taken in, and the message stays in it until the
/// wait returns with it. It passes on both versions.
mod wrong_point {
    // verdict: misses-the-bug

    use super::{Pause, TOOK_IN, Timer};
    use kit::{Recorder, ms, threads};

    #[test]
    fn f1_inbox_timer_caught() {
        let name = threads::unique_name("find-f1");
        let rec = Recorder::new();
        let pause = Pause::arm(TOOK_IN, &name);
        let timer = Timer::new(&name).expect("start the timer");
        pause.wait_reached();
        let due = rec.record("schedule the task") + ms(50);
        let r = rec.clone();
        timer
            .schedule(ms(50), move || {
                r.record("task ran");
            })
            .expect("a small delay");
        pause.release();
        let ran = rec.eventually("task ran", ms(350));
        assert!(
            ran.is_some_and(|at| at <= due + ms(300)),
            "F1 inbox timer: a task due at {due:?} ran at {ran:?}"
        );
    }
}
