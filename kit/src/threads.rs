//! Thread names: unique ones for each test, and "is that thread gone?";
//! and a panic on purpose reported in one line.
//!
//! Every timer in the workspace names its thread, as `java.util.Timer(name)`
//! does. Tests run in parallel inside one process, so each test gives its
//! timer a name of its own ([`unique_name`]); pause points, CPU clocks and the
//! "gone after drop" check then find exactly that thread.

use std::sync::Mutex;
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
    let wanted = &name.as_bytes()[..name.len().min(MAX_NAME)];
    Ok(named()?
        .into_iter()
        .filter(|(_, comm)| comm == wanted)
        .map(|(tid, _)| tid)
        .collect())
}

/// Every thread of this process, at one look through `/proc/self/task`:
/// its Linux id and its name as far as Linux keeps it ([`MAX_NAME`]
/// bytes). A thread that ended while the directory was read is left out.
///
/// # Errors
/// If `/proc/self/task` cannot be read.
pub fn named() -> std::io::Result<Vec<(i32, Vec<u8>)>> {
    let mut threads = Vec::new();
    for entry in std::fs::read_dir("/proc/self/task")? {
        let entry = entry?;
        let Some(tid) = entry.file_name().to_str().and_then(|s| s.parse().ok()) else {
            continue;
        };
        if let Ok(mut comm) = std::fs::read(format!("/proc/self/task/{tid}/comm")) {
            if comm.last() == Some(&b'\n') {
                comm.pop();
            }
            threads.push((tid, comm));
        }
    }
    Ok(threads)
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

/// Reports a panic whose message is `message` in one line, `thread '<name>'
/// panicked: <message>`, and passes every other panic to the hook that was
/// there before. For a test whose task panics on purpose: with
/// `RUST_BACKTRACE` set, the default hook resolves and prints a backtrace
/// while the dying thread is still alive, a tenth of a second or more that
/// the test would wait for, and the backtrace of a panic on purpose says
/// nothing.
///
/// The hook is installed once per process; each call adds its message.
pub fn report_in_one_line(message: &'static str) {
    static MESSAGES: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
    static ONCE: std::sync::Once = std::sync::Once::new();
    let ours = |m: &str| {
        MESSAGES
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .contains(&m)
    };
    if !ours(message) {
        MESSAGES
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(message);
    }
    ONCE.call_once(|| {
        let before = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let payload = info.payload();
            let text = payload
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| payload.downcast_ref::<String>().map(String::as_str));
            match text {
                Some(text) if ours(text) => {
                    let thread = std::thread::current();
                    eprintln!(
                        "thread '{}' panicked: {text}",
                        thread.name().unwrap_or("<unnamed>")
                    );
                }
                _ => before(info),
            }
        }));
    });
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
