//! Bad input is a typed error with a message, never a panic, and never a
//! task that blocks the others: a zero period, a delay or a period past the
//! end of the clock, work for a cancelled timer, a NUL in a thread name.
#![cfg(not(loom))]

use std::time::{Duration, Instant};

use interrupt_cancel::error::ScheduleError;
use interrupt_cancel::timer::Timer;
use interrupt_cancel::{interrupted_only, interrupted_or_dead, refuses_when_dead};
use kit::{Recorder, ms, threads};

#[test]
fn a_zero_period_is_an_error() {
    let timer = Timer::new(&threads::unique_name("bad-zero")).unwrap();
    for result in [
        timer.schedule_with_fixed_delay(Duration::ZERO, Duration::ZERO, || {}),
        timer.schedule_at_fixed_rate(Duration::ZERO, Duration::ZERO, || {}),
    ] {
        let err = result.unwrap_err();
        assert_eq!(err, ScheduleError::ZeroPeriod);
        assert_eq!(
            err.to_string(),
            "the period of a repeating task must be longer than zero"
        );
    }
    assert_eq!(timer.queued(), 0);
}

#[test]
fn a_delay_past_the_end_of_the_clock_is_an_error() {
    let timer = Timer::new(&threads::unique_name("bad-delay")).unwrap();
    let err = timer.schedule(Duration::MAX, || {}).unwrap_err();
    assert_eq!(err, ScheduleError::DelayOverflow(Duration::MAX));
    assert!(err.to_string().contains("overflows the clock"), "{err}");
    let err = timer
        .schedule_at_fixed_rate(Duration::MAX, ms(10), || {})
        .unwrap_err();
    assert_eq!(err, ScheduleError::DelayOverflow(Duration::MAX));
    // The earlier versions say the same.
    let name = threads::unique_name("bad-only");
    assert_eq!(
        interrupted_only::Timer::new(&name)
            .unwrap()
            .schedule(Duration::MAX, || {}),
        Err(ScheduleError::DelayOverflow(Duration::MAX))
    );
    assert_eq!(
        refuses_when_dead::Timer::new(&threads::unique_name("bad-refuse"))
            .unwrap()
            .schedule(Duration::MAX, || {}),
        Err(ScheduleError::DelayOverflow(Duration::MAX))
    );
}

#[test]
fn a_period_past_the_end_of_the_clock_is_an_error() {
    let timer = Timer::new(&threads::unique_name("bad-period")).unwrap();
    let err = timer
        .schedule_with_fixed_delay(Duration::ZERO, Duration::MAX, || {})
        .unwrap_err();
    assert_eq!(err, ScheduleError::PeriodOverflow(Duration::MAX));
    assert!(err.to_string().contains("after the first run"), "{err}");
    assert_eq!(timer.queued(), 0);
}

#[test]
fn an_enormous_period_blocks_no_other_task() {
    // A century-long period fits the clock: the task runs once now, and
    // its next run sorts after everything else.
    let timer = Timer::new(&threads::unique_name("bad-century")).unwrap();
    let rec = Recorder::new();
    let century = Duration::from_secs(100 * 365 * 24 * 3600);
    let r = rec.clone();
    let rare = timer
        .schedule_at_fixed_rate(Duration::ZERO, century, move || {
            r.record("rare task ran");
        })
        .unwrap();
    let r = rec.clone();
    timer
        .schedule(ms(20), move || {
            r.record("one-shot ran");
        })
        .unwrap();
    rec.eventually("rare task ran", ms(5000)).unwrap();
    let ran = rec.eventually("one-shot ran", ms(1000));
    assert!(ran.is_some(), "the one-shot task waited\n{}", rec.log());
    assert!(rare.cancel(), "it would run again, in a century");
}

#[test]
fn a_cancelled_timer_refuses_work() {
    let timer = Timer::new(&threads::unique_name("bad-cancel")).unwrap();
    timer.cancel();
    let at = Instant::now();
    for err in [
        timer.schedule(Duration::ZERO, || {}).unwrap_err(),
        timer.schedule_at(at, || {}).unwrap_err(),
        timer
            .schedule_with_fixed_delay(Duration::ZERO, ms(1), || {})
            .unwrap_err(),
        timer
            .schedule_at_fixed_rate(Duration::ZERO, ms(1), || {})
            .unwrap_err(),
    ] {
        assert_eq!(err, ScheduleError::Cancelled);
        assert_eq!(err.to_string(), "Timer already cancelled.");
    }
    let only = interrupted_only::Timer::new(&threads::unique_name("bad-only")).unwrap();
    only.cancel();
    assert_eq!(
        only.schedule(Duration::ZERO, || {}),
        Err(ScheduleError::Cancelled)
    );
    let dead = interrupted_or_dead::Timer::new(&threads::unique_name("bad-dead")).unwrap();
    dead.cancel();
    assert_eq!(
        dead.schedule(Duration::ZERO, || {}),
        Err(ScheduleError::Cancelled)
    );
    let refuse = refuses_when_dead::Timer::new(&threads::unique_name("bad-refuse")).unwrap();
    refuse.cancel();
    assert_eq!(
        refuse.schedule(Duration::ZERO, || {}),
        Err(ScheduleError::Cancelled)
    );
}

#[test]
fn a_nul_in_the_name_is_an_error() {
    let errors = [
        Timer::new("bad\0name").err(),
        interrupted_only::Timer::new("bad\0name").err(),
        interrupted_or_dead::Timer::new("bad\0name").err(),
        refuses_when_dead::Timer::new("bad\0name").err(),
    ];
    for err in errors {
        let err = err.expect("a NUL in the name is refused");
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
    }
}

#[test]
fn a_task_may_drop_its_own_timer() {
    // The thread cannot join itself: the drop stops the timer and the
    // thread ends once the task returns.
    let name = threads::unique_name("bad-selfdrop");
    let (tx, rx) = std::sync::mpsc::channel();
    let slot = std::sync::Arc::new(std::sync::Mutex::new(Some(Timer::new(&name).unwrap())));
    let in_task = std::sync::Arc::clone(&slot);
    // Scheduled under the slot's lock: the task waits for it, then finds
    // the timer there.
    let held = slot.lock().unwrap();
    held.as_ref()
        .unwrap()
        .schedule(Duration::ZERO, move || {
            drop(in_task.lock().unwrap().take());
            tx.send(()).unwrap();
        })
        .unwrap();
    drop(held);
    rx.recv_timeout(ms(5000)).expect("the task ran");
    threads::assert_gone(&name);
}
