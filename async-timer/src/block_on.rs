//! The smallest executor: run one future to completion on the calling
//! thread. Poll it; if it is not ready, park the thread until its waker
//! unparks it; poll again.
//!
//! The timer needs nothing more from an executor than this: a `Waker` to
//! call. `park`'s token is what makes it correct: a wake that comes after
//! the poll and before the `park` leaves the token set, and the `park`
//! returns at once. Without it, that wake would be stage 3's lost wake-up
//! (C1), and A1's, once more.

use std::pin::pin;
use std::task::{Context, Poll, Wake, Waker};

use crate::sync::thread;

/// Wakes the thread blocked in [`block_on`].
struct Unparker(thread::Thread);

impl Wake for Unparker {
    fn wake(self: std::sync::Arc<Self>) {
        self.0.unpark();
    }

    fn wake_by_ref(self: &std::sync::Arc<Self>) {
        self.0.unpark();
    }
}

// ANCHOR: block_on
/// Runs `future` on this thread until it is ready, and returns its output.
pub fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let waker = Waker::from(std::sync::Arc::new(Unparker(thread::current())));
    let mut cx = Context::from_waker(&waker);
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
        // Woken since the poll? Then the token is set and this returns at
        // once. A spurious return just polls again.
        thread::park();
    }
}
// ANCHOR_END: block_on
