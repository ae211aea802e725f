//! "Is that thread gone?", asked many times at once.
//!
//! `kit::threads::gone_within` looks through every thread of the process
//! each millisecond it waits. The matrix runs a wave of columns at once,
//! several hundred threads, with dozens of scenarios waiting for a thread
//! to end: each of those looks would read every other thread's name, and
//! together they would keep a core busy. This looks once for the threads
//! of that name, then watches only them: each is gone when its `/proc`
//! entry is, or carries another name (its id given to a new thread).
//!
//! Even that one look reads every thread's name, a few milliseconds of CPU
//! with a wave's threads, and a wave's cells all ask at about the same
//! time: [`tids_named`] shares one look among every caller that asked
//! before it began.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use kit::cpu::ThreadCpu;
use kit::threads::{MAX_NAME, is_named};
use parking_lot::Mutex;

/// One look through `/proc/self/task`: every thread's id by its name (as
/// far as Linux keeps one), and when the look began.
struct Look {
    began: Instant,
    by_name: HashMap<Vec<u8>, Vec<i32>>,
}

/// The latest look, shared by every caller that asked before it began.
static LATEST: Mutex<Option<Arc<Look>>> = Mutex::new(None);
/// Held while a look is taken: one at a time, and the callers that come
/// meanwhile wait for the next, which they share.
static LOOKING: Mutex<()> = Mutex::new(());

/// As `kit::threads::tids_named`: the ids of this process's threads named
/// `name`, from a look through `/proc/self/task` that began after this
/// call did (so a thread started before the call is in it), taken by this
/// caller or shared with others who asked at about the same time.
///
/// # Errors
/// If `/proc/self/task` cannot be read.
pub fn tids_named(name: &str) -> std::io::Result<Vec<i32>> {
    let asked = Instant::now();
    let found = |look: &Look| {
        let wanted = &name.as_bytes()[..name.len().min(MAX_NAME)];
        look.by_name.get(wanted).cloned().unwrap_or_default()
    };
    let fresh = || LATEST.lock().clone().filter(|look| look.began >= asked);
    if let Some(look) = fresh() {
        return Ok(found(&look));
    }
    let _one = LOOKING.lock();
    // Taken by another caller while this one waited for its turn.
    if let Some(look) = fresh() {
        return Ok(found(&look));
    }
    let began = Instant::now();
    let mut by_name: HashMap<Vec<u8>, Vec<i32>> = HashMap::new();
    for (tid, comm) in kit::threads::named()? {
        by_name.entry(comm).or_default().push(tid);
    }
    let look = Arc::new(Look { began, by_name });
    *LATEST.lock() = Some(Arc::clone(&look));
    Ok(found(&look))
}

/// [`tids_named`], waiting at most `within` for one such thread to appear
/// (a thread takes its name once it runs, a moment after its spawn).
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

/// As `kit::cpu::ThreadCpu::named`: the one thread named `name`, waiting
/// up to a second for it to carry the name.
///
/// # Errors
/// If no thread, or more than one, has that name.
pub fn thread_named(name: &str) -> std::io::Result<ThreadCpu> {
    match tids_named_within(name, kit::ms(1000))?.as_slice() {
        [tid] => Ok(ThreadCpu::of_tid(*tid)),
        tids => Err(std::io::Error::other(format!(
            "{} threads are named {name:?}",
            tids.len()
        ))),
    }
}

/// As `kit::cpu::measure_once`: the thread named `name`, measured over one
/// window.
///
/// # Panics
/// If there is no single thread of that name, or it exits during the
/// window.
pub fn measure_once(name: &str, window: Duration) -> kit::cpu::CpuShare {
    thread_named(name)
        .and_then(|thread| thread.share_over(window))
        .unwrap_or_else(|e| panic!("cannot measure thread {name:?}: {e}"))
}

/// Whether every thread named `name` is asleep (blocked, the kernel's
/// state `S`) at one look; false if there is none.
pub fn all_asleep(name: &str) -> bool {
    tids_named(name).is_ok_and(|tids| {
        !tids.is_empty()
            && tids
                .iter()
                .all(|&tid| kit::threads::state(tid).is_none_or(|s| s == 'S'))
    })
}

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
    /// Starts watching the threads named `name` now (waiting for one to
    /// carry the name, if none does yet).
    pub fn start(name: &str) -> Watch {
        // A thread takes its name once it runs, a moment after its spawn.
        let threads = tids_named_within(name, kit::ms(1000))
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

    /// How many threads of the name it watches: none if none was found
    /// when it started (then [`Watch::gone_within`] says gone at once).
    pub fn watching(&self) -> usize {
        self.threads.len()
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

/// The timers being stopped by a reaper ([`Joined::later`]) right now, by
/// thread name: what the matrix names if one never ends.
pub static REAPING: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

/// Whether every thread a version started was gone once it was stopped.
///
/// Known when the scenario ends, or found later by a reaper: stopping
/// some versions waits out a far deadline (`sleep_until`'s drop sits out
/// its sleep; a flag timer's thread waits for its task's deadline), and a
/// scenario that has its verdict hands that wait to a thread of its own,
/// [`Joined::later`], instead of holding its wave until the deadline. The
/// reaper stops the version at once (it starts as the scenario ends), so a
/// busy loop burns no core into the next wave; only the wait for its
/// thread runs on. [`Joined::get`] waits for every reaper it holds: the
/// matrix asks each cell before it returns, so every thread is joined.
#[derive(Debug, Clone)]
pub struct Joined {
    /// What was known when the scenario ended.
    now: bool,
    /// The reapers' answers, each once it has come.
    later: Vec<Arc<Mutex<Later>>>,
}

#[derive(Debug)]
enum Later {
    Running(Option<JoinHandle<bool>>),
    Done(bool),
}

impl From<bool> for Joined {
    fn from(now: bool) -> Joined {
        Joined {
            now,
            later: Vec::new(),
        }
    }
}

impl Joined {
    /// Runs `check` (stop the version, then see whether its thread, named
    /// `name`, is gone) on a reaper thread, started now.
    pub fn later(name: &str, check: impl FnOnce() -> bool + Send + 'static) -> Joined {
        let name = name.to_owned();
        REAPING.lock().insert(name.clone());
        let reaper = std::thread::Builder::new()
            .name("pm-reaper".to_owned())
            .spawn(move || {
                let joined = check();
                REAPING.lock().remove(&name);
                joined
            })
            .expect("spawn a reaper");
        Joined {
            now: true,
            later: vec![Arc::new(Mutex::new(Later::Running(Some(reaper))))],
        }
    }

    /// Both: every thread of either was gone.
    pub fn and(mut self, other: Joined) -> Joined {
        self.now &= other.now;
        self.later.extend(other.later);
        self
    }

    /// The answer, once every reaper has given its own (each is joined).
    pub fn get(&self) -> bool {
        self.later.iter().fold(self.now, |all, later| {
            let mut later = later.lock();
            if let Later::Running(reaper) = &mut *later {
                let reaper = reaper.take().expect("joined once");
                let joined = reaper
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                *later = Later::Done(joined);
            }
            all & matches!(*later, Later::Done(true))
        })
    }
}
