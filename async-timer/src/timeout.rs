//! `timeout`: a future and a [`Sleep`], polled in turn, the future first.
//!
//! Polling the future first means an output that is ready is never thrown
//! away because the time ran out in the same turn. When the future wins,
//! the `Sleep` is dropped: most timeouts end that way, which is why a
//! dropped `Sleep` must take its entry out of the wheel (A3).
//!
//! Written as an `async` block around `poll_fn`, it needs no pin
//! projection (which takes `unsafe` or a macro that writes it): the block
//! pins the future in its own state.

use std::future::poll_fn;
use std::pin::{Pin, pin};
use std::task::Poll;

use crate::error::TimeoutError;
use crate::sleep::Sleep;

// ANCHOR: race
/// Runs `future` until it is ready or `sleep` is.
pub(crate) async fn race<F: Future>(
    mut sleep: Sleep,
    future: F,
) -> Result<F::Output, TimeoutError> {
    let mut future = pin!(future);
    poll_fn(|cx| {
        if let Poll::Ready(output) = future.as_mut().poll(cx) {
            return Poll::Ready(Ok(output));
        }
        match Pin::new(&mut sleep).poll(cx) {
            Poll::Ready(Ok(())) => Poll::Ready(Err(TimeoutError::Elapsed)),
            Poll::Ready(Err(error)) => Poll::Ready(Err(TimeoutError::Timer(error))),
            Poll::Pending => Poll::Pending,
        }
    })
    .await
}
// ANCHOR_END: race
