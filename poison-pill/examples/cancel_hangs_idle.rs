//! P1 as a program: the Java Timer article's "program runs forever", in
//! Rust.
//!
//! `main` starts a timer, lets its thread go idle (nothing queued), cancels
//! it, and returns. On its way out `main` drops the timer, and the drop
//! joins the timer thread. On cancel_flag.rs that thread is blocked in
//! `take` and never reads the flag, so the join never returns and the
//! program never exits. (In Java, the live non-daemon timer thread keeps
//! the JVM running; in Rust, returning from `main` would kill other
//! threads, so it is the join that hangs.) Name another version to watch it
//! exit at once.
//!
//! ```text
//! cargo run -p poison-pill --example cancel_hangs_idle                 # never exits: Ctrl-C
//! cargo run -p poison-pill --example cancel_hangs_idle -- poison_pill  # exits
//! ```
//!
//! Versions: cancel_flag (the default), notify_on_cancel, poison_pill,
//! disconnect, timer_style.

use std::io;

use kit::pause::Pause;
use poison_pill::{cancel_flag, disconnect, notify_on_cancel, poison_pill as pill, timer_style};

const NAME: &str = "FooBarTimer";

/// Starts a timer, waits until its thread has reached `idle_point` (it has
/// found nothing queued and is about to block; the article used a 1 ms
/// sleep for this), cancels, and drops the timer.
fn cancel_when_idle<T>(
    idle_point: &'static str,
    start: fn(&str) -> io::Result<T>,
    cancel: fn(&T),
) -> io::Result<()> {
    let pause = Pause::arm(idle_point, NAME);
    let timer = start(NAME)?;
    pause.wait_reached();
    pause.release();
    cancel(&timer);
    println!("cancelled; main returns, which drops the timer and joins its thread");
    drop(timer);
    println!("the timer thread has ended");
    Ok(())
}

fn main() -> io::Result<()> {
    let version = std::env::args().nth(1);
    match version.as_deref().unwrap_or("cancel_flag") {
        "cancel_flag" => cancel_when_idle(
            "poison-pill::cancel_flag: checked the flag, about to take",
            cancel_flag::Timer::new,
            cancel_flag::Timer::cancel,
        ),
        "notify_on_cancel" => cancel_when_idle(
            "poison-pill::notify_on_cancel: checked the flag, about to take",
            notify_on_cancel::Timer::new,
            notify_on_cancel::Timer::cancel,
        ),
        "poison_pill" => cancel_when_idle(
            "poison-pill::poison_pill: queue empty, about to wait",
            pill::Timer::new,
            pill::Timer::cancel,
        ),
        "disconnect" => cancel_when_idle(
            "poison-pill::disconnect: heap empty, about to receive",
            disconnect::Timer::new,
            disconnect::Timer::cancel,
        ),
        "timer_style" => cancel_when_idle(
            "poison-pill::timer_style: queue empty, about to wait",
            timer_style::Timer::new,
            timer_style::Timer::cancel,
        ),
        other => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "no version {other:?}: cancel_flag, notify_on_cancel, poison_pill, disconnect or timer_style"
            ),
        )),
    }
}
