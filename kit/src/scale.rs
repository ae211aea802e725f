//! One factor that stretches every duration a test uses.
//!
//! Tests never write `Duration::from_millis(50)`; they write `kit::ms(50)`.
//! On a slow or loaded machine, `KIT_TIME_SCALE=4 cargo test` makes every
//! delay, deadline and margin four times longer at once, so the ratios the
//! tests assert on (a bug shows as seconds, a fix as milliseconds) still hold.

use std::sync::OnceLock;
use std::time::Duration;

/// The environment variable read by [`factor`].
pub const VAR: &str = "KIT_TIME_SCALE";

/// The delay factor: `KIT_TIME_SCALE` as a positive number, 1.0 when unset.
///
/// # Panics
/// If the variable is set to something that is not a positive number: a
/// typo there would silently change every test's timing.
pub fn factor() -> f64 {
    static FACTOR: OnceLock<f64> = OnceLock::new();
    *FACTOR.get_or_init(|| match std::env::var(VAR) {
        Err(_) => 1.0,
        Ok(text) => match text.trim().parse::<f64>() {
            Ok(f) if f.is_finite() && f > 0.0 => f,
            _ => panic!("{VAR}={text:?}: expected a positive number such as 2 or 0.5"),
        },
    })
}

/// `n` milliseconds, stretched by [`factor`].
pub fn ms(n: u64) -> Duration {
    Duration::from_millis(n).mul_f64(factor())
}

/// A duration in whole milliseconds, for messages such as "ran at 1003 ms".
pub fn in_ms(d: Duration) -> u128 {
    d.as_millis()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ms_scales_by_the_factor() {
        let f = factor();
        assert_eq!(ms(100), Duration::from_millis(100).mul_f64(f));
        assert!(ms(200) > ms(100));
    }
}
