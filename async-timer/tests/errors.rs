//! Bad input and a stopped driver are typed errors, never a panic or a
//! hang: a deadline beyond the wheel's range, a driver shut down under a
//! waiting `Sleep` or before one was made, a zero tick, a zero period, a
//! thread name the OS refuses.
#![cfg(not(loom))]

mod support;

use std::time::Duration;

use async_timer::{Driver, StartError, TimeoutError, TimerError, Variant, block_on};
use kit::{ms, threads};
use support::TaskWaker;

#[test]
fn a_deadline_beyond_the_range_is_refused() {
    let (driver, _) = support::driver("er-rg", Variant::Fixed);
    let handle = driver.handle();
    let max = handle.max_delay();
    assert_eq!(
        max,
        Duration::from_millis((1 << 36) - 1),
        "2^36 - 1 ticks of 1 ms"
    );
    for delay in [max + Duration::from_millis(1), Duration::MAX] {
        assert_eq!(
            block_on(handle.sleep(delay)),
            Err(TimerError::BeyondRange { delay, max })
        );
    }
    let limit = handle.timeout(Duration::MAX, std::future::pending::<()>());
    assert!(matches!(
        block_on(limit),
        Err(TimeoutError::Timer(TimerError::BeyondRange { .. }))
    ));
    // The longest delay taken is taken.
    let longest = handle.sleep(max);
    assert!(!longest.is_elapsed());
    assert_eq!(handle.stats().pending, 1);
}

#[test]
fn a_sleep_waiting_when_the_driver_shuts_down_ends_with_shutdown() {
    let (driver, name) = support::driver("er-sd", Variant::Fixed);
    let handle = driver.handle();
    let rec = kit::Recorder::new();
    let task = TaskWaker::new(&rec, "task");
    let mut sleep = handle.sleep(ms(60_000));
    assert!(support::poll_once(&mut sleep, &task.waker()).is_pending());
    driver.shutdown();
    threads::assert_gone(&name);
    assert_eq!(task.count(), 1, "woken by the shutdown");
    assert_eq!(block_on(&mut sleep), Err(TimerError::Shutdown));
    // And every timer made after it.
    assert_eq!(block_on(handle.sleep(ms(10))), Err(TimerError::Shutdown));
    let mut interval = handle.interval(ms(10)).expect("a valid period");
    assert_eq!(block_on(interval.tick()), Err(TimerError::Shutdown));
}

#[test]
fn a_zero_tick_and_a_zero_period_are_refused() {
    assert_eq!(
        Driver::builder("er-zt").tick(Duration::ZERO).start().err(),
        Some(StartError::ZeroTick)
    );
    let (driver, _) = support::driver("er-zp", Variant::Fixed);
    let handle = driver.handle();
    assert_eq!(
        handle.interval(Duration::ZERO).err(),
        Some(TimerError::ZeroPeriod)
    );
    let too_long = handle.max_delay() + Duration::from_millis(1);
    assert!(matches!(
        handle.interval(too_long).err(),
        Some(TimerError::BeyondRange { .. })
    ));
}

#[test]
fn a_thread_name_with_a_nul_byte_is_refused() {
    assert!(matches!(
        Driver::start("er\0nul").err(),
        Some(StartError::Spawn(_))
    ));
}
