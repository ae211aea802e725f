//! Load: one busy thread per core, for as long as some work runs, so that a
//! verdict that depends on the machine being idle shows it.

use std::sync::atomic::{AtomicBool, Ordering};

/// Runs `work` with one busy thread per core spinning beside it. Every busy
/// thread is told to stop and joined before this returns, also if `work`
/// panics. The exercises' grader runs part of a test's runs under it.
pub fn under_load<T>(cores: usize, work: impl FnOnce() -> T) -> T {
    /// Raises the flag when dropped: at the end of `work`, or on its unwind.
    struct StopOnDrop<'a>(&'a AtomicBool);
    impl Drop for StopOnDrop<'_> {
        fn drop(&mut self) {
            // ORDERING: the flag carries no data; a busy thread needs only
            // to see it eventually, and the scope's join orders the rest.
            self.0.store(true, Ordering::Relaxed);
        }
    }
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        let _stop = StopOnDrop(&stop);
        for _ in 0..cores {
            s.spawn(|| {
                // ORDERING: as above.
                while !stop.load(Ordering::Relaxed) {
                    std::hint::spin_loop();
                }
            });
        }
        work()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn busy_threads_stop_and_join_even_if_the_work_panics() {
        let spun = AtomicUsize::new(0);
        assert_eq!(under_load(2, || 7), 7);
        // `resume_unwind`: a panic that skips the panic hook, which with
        // `RUST_BACKTRACE=1` would first walk and print the stack (a third
        // of a second in a debug build); it unwinds the same way.
        let caught = std::panic::catch_unwind(|| {
            under_load(2, || {
                spun.fetch_add(1, Ordering::Relaxed);
                std::panic::resume_unwind(Box::new("on purpose"));
            })
        });
        assert!(caught.is_err());
        assert_eq!(spun.load(Ordering::Relaxed), 1);
    }
}
