//! Thread names: unique ones for each test, and "is that thread gone?".
//!
//! Every timer in the workspace names its thread, as `java.util.Timer(name)`
//! does. Tests run in parallel inside one process, so each test gives its
//! timer a name of its own ([`unique_name`]); pause points, CPU clocks and the
//! "gone after drop" check then find exactly that thread.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// Linux keeps this many bytes of a thread name.
pub const MAX_NAME: usize = 15;

/// `prefix` followed by a number no other call in this process returned.
///
/// # Panics
/// If the result would be longer than Linux keeps ([`MAX_NAME`] bytes).
pub fn unique_name(prefix: &str) -> String {
    static NEXT: AtomicU32 = AtomicU32::new(1);
    let name = format!("{prefix}-{}", NEXT.fetch_add(1, Ordering::Relaxed));
    assert!(
        name.len() <= MAX_NAME,
        "thread name {name:?} is longer than Linux keeps; use a shorter prefix"
    );
    name
}

/// The Linux thread ids of this process's threads named `name`.
///
/// # Errors
/// If `/proc/self/task` cannot be read.
pub fn tids_named(name: &str) -> std::io::Result<Vec<i32>> {
    let mut tids = Vec::new();
    for entry in std::fs::read_dir("/proc/self/task")? {
        let entry = entry?;
        let tid = entry.file_name().to_str().and_then(|s| s.parse().ok());
        if let Some(tid) = tid
            && is_named(tid, name)
        {
            tids.push(tid);
        }
    }
    Ok(tids)
}

/// Whether this process's thread `tid` is there and named `name` (as far
/// as Linux keeps a name: [`MAX_NAME`] bytes). False once it has exited,
/// or if its id now belongs to a thread of another name.
pub fn is_named(tid: i32, name: &str) -> bool {
    let wanted = &name.as_bytes()[..name.len().min(MAX_NAME)];
    std::fs::read(format!("/proc/self/task/{tid}/comm"))
        .is_ok_and(|comm| comm.strip_suffix(b"\n").unwrap_or(&comm) == wanted)
}

/// The ids of the threads named `name`, waiting at most `within` for at
/// least one to appear.
///
/// A thread sets its own name once it starts running, a moment after
/// `spawn` returns; this polls for that, every millisecond, up to the
/// deadline.
///
/// # Errors
/// If `/proc/self/task` cannot be read.
pub fn tids_named_within(name: &str, within: Duration) -> std::io::Result<Vec<i32>> {
    let deadline = Instant::now() + within;
    loop {
        let tids = tids_named(name)?;
        if !tids.is_empty() || Instant::now() >= deadline {
            return Ok(tids);
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Whether no thread named `name` is left, waiting at most `within` for the
/// kernel to remove one that has already been joined.
///
/// A joined thread has finished, but its `/proc` entry can outlive the join
/// by a moment; this polls for that, every millisecond, up to the deadline.
pub fn gone_within(name: &str, within: Duration) -> bool {
    let deadline = Instant::now() + within;
    loop {
        match tids_named(name) {
            Ok(tids) if tids.is_empty() => return true,
            _ if Instant::now() >= deadline => return false,
            _ => std::thread::sleep(Duration::from_millis(1)),
        }
    }
}

/// Whether every thread named in `names` is asleep (blocked, the kernel's
/// state `S`) at one look, waiting at most `within` for such a look.
///
/// For a pool just started: each worker takes locks and may block on them
/// a few times before it first waits for work. Two workers asleep at once
/// hold no lock either would need (a thread holding one is running or
/// ready to run, not asleep), so both are in their waits: from then on, a
/// count of their wake-ups counts what the pool does, not its start.
/// Polls every millisecond, up to the deadline.
pub fn asleep_within(names: &[&str], within: Duration) -> bool {
    let deadline = Instant::now() + within;
    loop {
        let asleep = names.iter().all(|name| {
            tids_named(name)
                .is_ok_and(|tids| !tids.is_empty() && tids.iter().all(|&t| state(t) == Some('S')))
        });
        if asleep {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The kernel's one-letter state of this process's thread `tid` (`R`
/// running or ready, `S` asleep, ...), from `/proc/self/task/<tid>/stat`;
/// `None` once it has exited.
pub fn state(tid: i32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/self/task/{tid}/stat")).ok()?;
    // "tid (comm) S ...": the name may hold spaces and parentheses, so the
    // state is the first field after the last ')'.
    stat.rsplit_once(')')?.1.trim_start().chars().next()
}

/// Asserts that no thread named `name` is left (a timer's drop must join
/// its thread).
///
/// # Panics
/// If the thread is still there after `kit::ms(1000)`.
pub fn assert_gone(name: &str) {
    assert!(
        gone_within(name, crate::ms(1000)),
        "thread {name:?} is still alive: the timer did not stop its thread"
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[test]
    fn unique_names_differ() {
        assert_ne!(unique_name("kit"), unique_name("kit"));
    }

    #[test]
    fn finds_a_live_thread_and_sees_it_go() {
        let name = unique_name("kit-live");
        let (stop_tx, stop_rx) = mpsc::channel::<()>();
        let handle = std::thread::Builder::new()
            .name(name.clone())
            .spawn(move || stop_rx.recv().unwrap_or(()))
            .unwrap();
        assert_eq!(tids_named_within(&name, crate::ms(1000)).unwrap().len(), 1);
        assert!(!gone_within(&name, Duration::ZERO));
        stop_tx.send(()).unwrap();
        handle.join().unwrap();
        assert_gone(&name);
    }
}
