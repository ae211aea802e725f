//! C3 (a fact): taking the head out to wait for it, and putting it back
//! after every wake-up, churns the heap; peeking under the lock does not.
//!
//! The same scenario on both versions: task A due at 4000 ms, then three
//! tasks, each earlier than the last (3000, 2000, 1000 ms), so each becomes
//! the head and wakes the waiting thread. None is due during the test. A
//! pause point just before each wait (held, then released) makes sure the
//! thread is waiting when the next notify comes, so the counts are exact.
#![cfg(not(loom))]

use std::time::Duration;

use condvar_timer::{racy, timer_style};
use kit::pause::Pause;
use kit::{ms, threads};

/// Pushes, pops, notifies, wake-ups: the fields both versions count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Counts {
    pushes: u64,
    pops: u64,
    notifies: u64,
    wakeups: u64,
}

trait Counted {
    /// The pause point that holds the thread just before its timed wait.
    const ABOUT_TO_WAIT: &'static str;
    /// Where the thread is held first, for the first task, if not only at
    /// `ABOUT_TO_WAIT`. racy.rs's thread wakes for its first task on the
    /// queue's lock, which `schedule` lets go before it takes the monitor
    /// to notify: a thread quick enough to reach `ABOUT_TO_WAIT` (monitor
    /// held) in between blocks that `schedule` for good. A machine that
    /// preempts the test's thread there did so twice in 20 loaded runs,
    /// each a hang. Held first outside the monitor, it cannot.
    const FIRST: Option<&'static str> = None;
    fn schedule_far(&self, delay: Duration);
    fn counts(&self) -> Counts;
}

impl Counted for racy::Timer {
    const ABOUT_TO_WAIT: &'static str = "condvar-timer::racy: holding the monitor, about to wait";
    const FIRST: Option<&'static str> = Some("condvar-timer::racy: took the head, not yet waiting");
    fn schedule_far(&self, delay: Duration) {
        self.schedule(delay, || panic!("not due during the test"))
            .unwrap();
    }
    fn counts(&self) -> Counts {
        let s = self.stats();
        Counts {
            pushes: s.pushes,
            pops: s.pops,
            notifies: s.notifies,
            wakeups: s.wakeups,
        }
    }
}

impl Counted for timer_style::Timer {
    const ABOUT_TO_WAIT: &'static str =
        "condvar-timer::timer_style: peeked the head, not yet waiting";
    fn schedule_far(&self, delay: Duration) {
        self.schedule(delay, || panic!("not due during the test"))
            .unwrap();
    }
    fn counts(&self) -> Counts {
        let s = self.stats();
        Counts {
            pushes: s.pushes,
            pops: s.pops,
            notifies: s.notifies,
            wakeups: s.wakeups,
        }
    }
}

/// Runs the scenario and returns the counts once the thread is waiting
/// after the last wake-up.
fn churn<T: Counted>(timer: &T, name: &str) -> Counts {
    for (i, delay) in [4000, 3000, 2000, 1000].into_iter().enumerate() {
        // Armed before the schedule whose notify sends the thread round its
        // loop to this point again; released once it is there. Its next
        // step is the wait, and any notify needs a lock it holds until then.
        let pause = Pause::arm(T::ABOUT_TO_WAIT, name);
        let first = T::FIRST
            .filter(|_| i == 0)
            .map(|point| Pause::arm(point, name));
        timer.schedule_far(ms(delay));
        if let Some(first) = first {
            // The schedule has returned: the thread may go on to the wait.
            first.wait_reached();
            first.release();
        }
        pause.wait_reached();
        pause.release();
    }
    timer.counts()
}

#[test]
fn c3_take_and_put_back_churns() {
    let name = threads::unique_name("c3-racy");
    let timer = racy::Timer::new(&name).unwrap();
    let racy = churn(&timer, &name);
    drop(timer);
    threads::assert_gone(&name);

    let name = threads::unique_name("c3-tstyle");
    let timer = timer_style::Timer::new(&name).unwrap();
    let timer_style = churn(&timer, &name);
    drop(timer);
    threads::assert_gone(&name);

    // Four schedules, four notifies (each new task became the head), three
    // wake-ups (the first notify came before the thread had anything to
    // wait for) in both versions.
    // racy: 4 pushes by schedule + 3 put-backs; 1 take of A + 3 takes.
    assert_eq!(
        racy,
        Counts {
            pushes: 7,
            pops: 4,
            notifies: 4,
            wakeups: 3
        },
        "racy.rs"
    );
    // timer_style: only the 4 schedules touch the heap; waiting is a peek.
    assert_eq!(
        timer_style,
        Counts {
            pushes: 4,
            pops: 0,
            notifies: 4,
            wakeups: 3
        },
        "timer_style.rs"
    );
    // Per wake-up, beyond inserting the new task: racy takes the head out
    // and puts the old one back; timer_style touches nothing.
    let per_wakeup = |c: Counts, first_takes: u64| {
        let put_backs = c.pushes - 4;
        let retakes = c.pops - first_takes;
        (put_backs + retakes) as f64 / c.wakeups as f64
    };
    assert_eq!(
        per_wakeup(racy, 1),
        2.0,
        "racy.rs: heap operations per wake-up"
    );
    assert_eq!(
        per_wakeup(timer_style, 0),
        0.0,
        "timer_style.rs: heap operations per wake-up"
    );
}
