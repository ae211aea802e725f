//! Bad input and awkward callers, on both versions: an overflowing delay is
//! a typed error, a task may schedule another task, and a task may drop the
//! timer that runs it.
//!
//! What `Drop` does when a task drops the timer: it runs on the timer
//! thread, which cannot join itself. So it stops the timer (closes the
//! queue and sets the stop flag under the lock the thread waits on) and
//! skips the join; the thread ends as soon as that task returns, and tasks
//! still queued are dropped without running.
#![cfg(not(loom))]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use condvar_timer::error::ScheduleError;
use condvar_timer::{racy, timer_style};
use kit::{Recorder, ms, threads};

trait Schedule: Sized + Send + Sync + 'static {
    fn new(name: &str) -> Self {
        Self::try_new(name).unwrap()
    }
    fn try_new(name: &str) -> std::io::Result<Self>;
    fn schedule_task(
        &self,
        delay: Duration,
        task: impl FnOnce() + Send + 'static,
    ) -> Result<(), ScheduleError>;
}

impl Schedule for racy::Timer {
    fn try_new(name: &str) -> std::io::Result<Self> {
        racy::Timer::new(name)
    }
    fn schedule_task(
        &self,
        delay: Duration,
        task: impl FnOnce() + Send + 'static,
    ) -> Result<(), ScheduleError> {
        self.schedule(delay, task)
    }
}

impl Schedule for timer_style::Timer {
    fn try_new(name: &str) -> std::io::Result<Self> {
        timer_style::Timer::new(name)
    }
    fn schedule_task(
        &self,
        delay: Duration,
        task: impl FnOnce() + Send + 'static,
    ) -> Result<(), ScheduleError> {
        self.schedule(delay, task)
    }
}

fn a_nul_in_the_name_is_an_error<T: Schedule>() {
    let err = T::try_new("bad\0name")
        .err()
        .expect("a NUL in the name is refused");
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
}

#[test]
fn a_nul_in_the_name_is_an_error_racy() {
    a_nul_in_the_name_is_an_error::<racy::Timer>();
}

#[test]
fn a_nul_in_the_name_is_an_error_timer_style() {
    a_nul_in_the_name_is_an_error::<timer_style::Timer>();
}

fn overflowing_delay_is_an_error<T: Schedule>(prefix: &str) {
    let name = threads::unique_name(prefix);
    let timer = T::new(&name);
    let rec = Recorder::new();
    let r = rec.clone();
    assert_eq!(
        timer.schedule_task(Duration::MAX, move || {
            r.record("never");
        }),
        Err(ScheduleError::DelayOverflow(Duration::MAX))
    );
    // The timer still works afterwards.
    let r = rec.clone();
    timer
        .schedule_task(ms(0), move || {
            r.record("ran");
        })
        .unwrap();
    rec.eventually("ran", ms(5000))
        .expect("the timer still runs tasks");
    assert_eq!(rec.count("never"), 0);
    drop(timer);
    threads::assert_gone(&name);
}

fn scheduling_from_inside_a_task_works<T: Schedule>(prefix: &str) {
    let name = threads::unique_name(prefix);
    let timer = Arc::new(T::new(&name));
    let rec = Recorder::new();
    let (inner_timer, r) = (Arc::clone(&timer), rec.clone());
    timer
        .schedule_task(ms(0), move || {
            let r2 = r.clone();
            inner_timer
                .schedule_task(ms(10), move || {
                    r2.record("inner ran");
                })
                .unwrap();
        })
        .unwrap();
    rec.eventually("inner ran", ms(5000))
        .unwrap_or_else(|| panic!("the inner task never ran"));
    drop(timer);
    threads::assert_gone(&name);
}

fn dropping_the_timer_inside_a_task_ends_its_thread<T: Schedule>(prefix: &str) {
    let name = threads::unique_name(prefix);
    let slot: Arc<Mutex<Option<T>>> = Arc::new(Mutex::new(Some(T::new(&name))));
    let rec = Recorder::new();
    {
        let guard = slot.lock().unwrap();
        let timer = guard.as_ref().unwrap();
        // The task that drops the timer goes first: with racy.rs, a far task
        // taken before a due one would be C1, not this lesson. It cannot run
        // before the far task is queued: it needs the slot we hold.
        let (slot, r) = (Arc::clone(&slot), rec.clone());
        timer
            .schedule_task(ms(0), move || {
                let timer = slot.lock().unwrap().take();
                drop(timer); // on the timer thread: stops, does not join
                r.record("dropped the timer");
            })
            .unwrap();
        let r = rec.clone();
        timer
            .schedule_task(ms(60_000), move || {
                r.record("queued task ran");
            })
            .unwrap();
    }
    rec.eventually("dropped the timer", ms(5000))
        .expect("the task that drops the timer finished");
    threads::assert_gone(&name);
    assert_eq!(rec.count("queued task ran"), 0, "queued tasks are dropped");
}

#[test]
fn overflowing_delay_is_an_error_racy() {
    overflowing_delay_is_an_error::<racy::Timer>("bad-racy");
}

#[test]
fn overflowing_delay_is_an_error_timer_style() {
    overflowing_delay_is_an_error::<timer_style::Timer>("bad-tstyle");
}

#[test]
fn scheduling_from_inside_a_task_works_racy() {
    scheduling_from_inside_a_task_works::<racy::Timer>("inner-racy");
}

#[test]
fn scheduling_from_inside_a_task_works_timer_style() {
    scheduling_from_inside_a_task_works::<timer_style::Timer>("inner-tstyle");
}

#[test]
fn dropping_the_timer_inside_a_task_ends_its_thread_racy() {
    dropping_the_timer_inside_a_task_ends_its_thread::<racy::Timer>("drop-racy");
}

#[test]
fn dropping_the_timer_inside_a_task_ends_its_thread_timer_style() {
    dropping_the_timer_inside_a_task_ends_its_thread::<timer_style::Timer>("drop-tstyle");
}
