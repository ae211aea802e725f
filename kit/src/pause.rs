//! Pause points: hold one named thread at one named point in the code.
//!
//! A race needs two threads to interleave in one particular way. Hoping for
//! that interleaving makes a flaky test; forcing it makes a lesson. A stage
//! marks the race window in its listing with a call:
//!
//! ```text
//! let task = queue.take();
//! kit::pause_point("racy: took the head, not yet waiting");
//! let guard = lock.lock();
//! ```
//!
//! and a test holds the timer thread exactly there:
//!
//! ```text
//! let pause = Pause::arm("racy: took the head, not yet waiting", &thread_name);
//! timer.schedule(far_task);
//! pause.wait_reached();          // the timer thread is now inside the window
//! timer.schedule(near_task);     // ...so this notify reaches nobody
//! pause.release();
//! ```
//!
//! In the spirit of RocksDB's `TEST_SYNC_POINT`, written for this workspace:
//! a point holds only the thread it was armed for (timer threads have names,
//! and each test names its own), only once, and only while the test's
//! `Pause` is alive. Dropping the `Pause` releases the thread, so a failing
//! test never leaves one stuck.
//!
//! Without the `pause-points` feature, [`pause_point`] is an empty inline
//! function: release builds of the stages carry no trace of it.

#[cfg(any(test, feature = "pause-points"))]
pub use enabled::{Pause, pause_point};

/// Whether this build of `kit` has pause points compiled in (its
/// `pause-points` feature is on). A stage's test, example and bench builds
/// turn it on through their dev-dependencies, and cargo unifies features:
/// a build that includes any of them (`cargo bench --workspace`) turns it
/// on for every crate that links `kit`. The benchmarks of `perf/` refuse
/// to run when it is on, since what they would time is not what a user's
/// build runs.
pub const PAUSE_POINTS_COMPILED: bool = cfg!(any(test, feature = "pause-points"));

/// Marks a point in a race window. Without the `pause-points` feature this
/// does nothing and compiles to nothing.
#[cfg(not(any(test, feature = "pause-points")))]
#[inline(always)]
pub fn pause_point(_name: &'static str) {}

#[cfg(any(test, feature = "pause-points"))]
mod enabled {
    use parking_lot::{Condvar, Mutex};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::{Duration, Instant};

    /// How many points are armed right now: the fast path of [`pause_point`]
    /// is one atomic load when nothing is armed.
    static ARMED: AtomicUsize = AtomicUsize::new(0);
    static REGISTRY: Mutex<Vec<Arc<Slot>>> = Mutex::new(Vec::new());

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum State {
        /// Waiting for the thread to arrive.
        Armed,
        /// The thread is held at the point.
        Holding,
        /// Released (or the test gave up): the thread goes on.
        Released,
    }

    struct Slot {
        point: &'static str,
        thread: String,
        state: Mutex<State>,
        changed: Condvar,
    }

    /// Marks a point in a race window. If a test armed this point for the
    /// calling thread, the thread reports its arrival and waits here until
    /// the test releases it; otherwise this returns at once.
    ///
    /// Inlined, so that a build with pause points compiled in (every test
    /// and bench build of a stage) pays one load and a branch where nothing
    /// is armed, as the shipped build pays nothing: the benches measure the
    /// timers, not the kit.
    #[inline]
    pub fn pause_point(point: &'static str) {
        // ORDERING: Relaxed is enough for the fast path: arming takes the
        // registry lock in `hold` before the armed thread can be told to
        // move, and a stale zero only means a point armed after the thread
        // passed.
        if ARMED.load(Ordering::Relaxed) != 0 {
            hold(point);
        }
    }

    /// The slow path of [`pause_point`]: some point is armed; hold this
    /// thread if it is this point, for this thread.
    #[cold]
    #[inline(never)]
    fn hold(point: &'static str) {
        let current = std::thread::current();
        let Some(name) = current.name() else { return };
        let slot = REGISTRY
            .lock()
            .iter()
            .find(|s| s.point == point && s.thread == name)
            .cloned();
        let Some(slot) = slot else { return };
        let mut state = slot.state.lock();
        if *state != State::Armed {
            return; // held once already: later passes go through
        }
        *state = State::Holding;
        slot.changed.notify_all();
        while *state == State::Holding {
            slot.changed.wait(&mut state);
        }
    }

    /// A test's hold on one thread at one point. See the module docs.
    #[must_use = "dropping a Pause releases it at once"]
    pub struct Pause {
        slot: Arc<Slot>,
    }

    impl Pause {
        /// Arms `point` for the thread named `thread`: the next time that
        /// thread reaches the point, it stops there until [`Pause::release`]
        /// (or until this `Pause` is dropped).
        ///
        /// # Panics
        /// If the same point is already armed for the same thread: two tests
        /// would be fighting over one thread.
        pub fn arm(point: &'static str, thread: &str) -> Pause {
            let slot = Arc::new(Slot {
                point,
                thread: thread.to_owned(),
                state: Mutex::new(State::Armed),
                changed: Condvar::new(),
            });
            let mut registry = REGISTRY.lock();
            assert!(
                !registry
                    .iter()
                    .any(|s| s.point == point && s.thread == thread),
                "pause point {point:?} is already armed for thread {thread:?}"
            );
            registry.push(Arc::clone(&slot));
            ARMED.fetch_add(1, Ordering::Relaxed);
            Pause { slot }
        }

        /// Waits until the thread is held at the point, for at most
        /// `within`. Returns whether it arrived.
        pub fn reached_within(&self, within: Duration) -> bool {
            let deadline = Instant::now() + within;
            let mut state = self.slot.state.lock();
            while *state == State::Armed {
                if self
                    .slot
                    .changed
                    .wait_until(&mut state, deadline)
                    .timed_out()
                {
                    break;
                }
            }
            *state == State::Holding
        }

        /// Waits until the thread is held at the point.
        ///
        /// # Panics
        /// If it does not arrive within `kit::ms(5000)`: the test's setup did
        /// not drive the thread into the window it meant to.
        pub fn wait_reached(&self) {
            self.wait_reached_within(crate::ms(5000));
        }

        /// Waits until the thread is held at the point, for at most `within`.
        ///
        /// # Panics
        /// If it does not arrive in time, naming the thread and the point.
        pub fn wait_reached_within(&self, within: Duration) {
            assert!(
                self.reached_within(within),
                "thread {:?} did not reach pause point {:?} within {} ms",
                self.slot.thread,
                self.slot.point,
                within.as_millis()
            );
        }

        /// Whether the thread is held at the point right now.
        pub fn is_holding(&self) -> bool {
            *self.slot.state.lock() == State::Holding
        }

        /// Lets the held thread go on (or, if it has not arrived yet, lets it
        /// pass when it does).
        pub fn release(self) {
            drop(self);
        }
    }

    impl Drop for Pause {
        fn drop(&mut self) {
            *self.slot.state.lock() = State::Released;
            self.slot.changed.notify_all();
            let mut registry = REGISTRY.lock();
            registry.retain(|s| !Arc::ptr_eq(s, &self.slot));
            ARMED.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, Barrier};
    use std::thread;

    #[test]
    fn holds_the_named_thread_until_released() {
        let passed = Arc::new(AtomicBool::new(false));
        let pause = Pause::arm("kit: the point", "kit-held");
        let worker = {
            let passed = Arc::clone(&passed);
            thread::Builder::new()
                .name("kit-held".into())
                .spawn(move || {
                    pause_point("kit: the point");
                    passed.store(true, Ordering::SeqCst);
                })
                .unwrap()
        };
        pause.wait_reached();
        assert!(pause.is_holding());
        assert!(
            !passed.load(Ordering::SeqCst),
            "the thread went past a held point"
        );
        pause.release();
        worker.join().unwrap();
        assert!(passed.load(Ordering::SeqCst));
    }

    #[test]
    fn other_threads_and_other_points_pass() {
        let pause = Pause::arm("kit: armed point", "kit-only-me");
        let other_thread = thread::Builder::new()
            .name("kit-not-me".into())
            .spawn(|| pause_point("kit: armed point"))
            .unwrap();
        other_thread.join().unwrap();
        let other_point = thread::Builder::new()
            .name("kit-only-me".into())
            .spawn(|| pause_point("kit: another point"))
            .unwrap();
        other_point.join().unwrap();
        assert!(!pause.reached_within(crate::ms(20)));
    }

    #[test]
    fn holds_once_then_lets_later_passes_through() {
        let pause = Pause::arm("kit: loop point", "kit-looping");
        let start = Arc::new(Barrier::new(2));
        let worker = {
            let start = Arc::clone(&start);
            thread::Builder::new()
                .name("kit-looping".into())
                .spawn(move || {
                    start.wait();
                    for _ in 0..3 {
                        pause_point("kit: loop point");
                    }
                })
                .unwrap()
        };
        start.wait();
        pause.wait_reached();
        pause.release();
        worker.join().unwrap();
    }

    #[test]
    fn dropping_the_pause_releases_a_held_thread() {
        let pause = Pause::arm("kit: dropped", "kit-dropped");
        let worker = thread::Builder::new()
            .name("kit-dropped".into())
            .spawn(|| pause_point("kit: dropped"))
            .unwrap();
        pause.wait_reached();
        drop(pause);
        worker.join().unwrap();
    }

    #[test]
    #[should_panic(expected = "did not reach pause point")]
    fn wait_reached_names_the_point_when_nobody_arrives() {
        let pause = Pause::arm("kit: never reached", "kit-nobody");
        pause.wait_reached_within(crate::ms(10));
    }
}
