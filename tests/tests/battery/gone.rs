//! "Is that thread gone?", asked many times at once.
//!
//! `kit::threads::gone_within` looks through every thread of the process
//! each millisecond it waits. The matrix runs a wave of columns at once,
//! several hundred threads, with dozens of scenarios waiting for a thread
//! to end: each of those looks would read every other thread's name, and
//! together they would keep a core busy. This looks once for the threads
//! of that name, then watches only them: each is gone when its `/proc`
//! entry is, or carries another name (its id given to a new thread).

use std::time::{Duration, Instant};

use kit::cpu::ThreadCpu;
use kit::threads::{is_named, tids_named};

/// Whether no thread named `name` is left, waiting at most `within` for
/// the ones there now to end (a thread that starts with that name later
/// is not looked for: every caller asks after the thread has started).
pub fn gone_within(name: &str, within: Duration) -> bool {
    let Ok(tids) = tids_named(name) else {
        return kit::threads::gone_within(name, within);
    };
    let deadline = Instant::now() + within;
    loop {
        if !tids.iter().any(|&tid| is_named(tid, name)) {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// A thread watched from before it is asked to end: how long it waited for
/// a core while watched, to tell its own lateness (asleep in a wait) from
/// a loaded machine's (ready to run, and not given a core).
pub struct Watch {
    /// Each thread of the name: its id, and how long it had waited for a
    /// core when first and when last seen.
    threads: Vec<(i32, Duration, Duration)>,
    name: String,
}

impl Watch {
    /// Starts watching the threads named `name` now.
    pub fn start(name: &str) -> Watch {
        let threads = tids_named(name)
            .unwrap_or_default()
            .into_iter()
            .filter_map(|tid| {
                let waited = ThreadCpu::of_tid(tid).waited_for_cpu().ok()?;
                Some((tid, waited, waited))
            })
            .collect();
        Watch {
            threads,
            name: name.to_owned(),
        }
    }

    /// As [`gone_within`], reading each thread's wait for a core at every
    /// look (the last before it ended is at most a millisecond old).
    pub fn gone_within(&mut self, within: Duration) -> bool {
        let deadline = Instant::now() + within;
        loop {
            self.look();
            if self
                .threads
                .iter()
                .all(|&(tid, ..)| !is_named(tid, &self.name))
            {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// How long the threads waited for a core while watched, in all.
    pub fn waited(&mut self) -> Duration {
        self.look();
        self.threads
            .iter()
            .map(|&(_, first, last)| last - first)
            .sum()
    }

    fn look(&mut self) {
        for (tid, _, last) in &mut self.threads {
            if let Ok(waited) = ThreadCpu::of_tid(*tid).waited_for_cpu() {
                *last = waited;
            }
        }
    }
}
