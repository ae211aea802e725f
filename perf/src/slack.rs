//! A thread's timer slack: how late Linux may let its timed waits end, to
//! group wake-ups (50 µs by default; `PR_SET_TIMERSLACK`).

use std::time::Duration;

/// The calling thread's current timer slack.
///
/// # Errors
/// If `prctl` fails.
pub fn current() -> nix::Result<Duration> {
    let ns = nix::sys::prctl::get_timerslack()?;
    Ok(Duration::from_nanos(u64::try_from(ns).unwrap_or(0)))
}

/// Sets the calling thread's timer slack to 1 ns, the least there is (0
/// would mean "back to the default").
///
/// # Errors
/// If `prctl` fails.
pub fn lower() -> nix::Result<()> {
    nix::sys::prctl::set_timerslack(1)
}

/// Sets the timer slack of another thread of this process, by its Linux
/// thread id, through `/proc/<tid>/timerslack_ns` (Linux 4.6 on: a thread
/// id names the thread there; writing it needs `CAP_SYS_NICE`). 1 ns is
/// the least there is.
///
/// # Errors
/// If the file cannot be written.
pub fn set_for(tid: i32, slack: Duration) -> std::io::Result<()> {
    let ns = slack.as_nanos().max(1);
    std::fs::write(format!("/proc/{tid}/timerslack_ns"), ns.to_string())
}
