//! Quantiles of a sample of durations.

use std::time::Duration;

/// The `q` quantile (0.5 is the median) of `sample`, by the nearest rank;
/// zero for an empty sample.
pub fn quantile(sample: &[Duration], q: f64) -> Duration {
    if sample.is_empty() {
        return Duration::ZERO;
    }
    let mut sorted = sample.to_vec();
    sorted.sort_unstable();
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

/// A duration in microseconds, as the reports give latencies.
pub fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// p50, p99 and max of `sample`, in microseconds.
pub fn summary(sample: &[Duration]) -> [(&'static str, f64); 3] {
    [
        ("p50", micros(quantile(sample, 0.5))),
        ("p99", micros(quantile(sample, 0.99))),
        ("max", micros(quantile(sample, 1.0))),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank() {
        let s: Vec<Duration> = (1..=100).map(Duration::from_micros).collect();
        assert_eq!(quantile(&s, 0.5), Duration::from_micros(50));
        assert_eq!(quantile(&s, 0.99), Duration::from_micros(99));
        assert_eq!(quantile(&s, 1.0), Duration::from_micros(100));
        assert_eq!(quantile(&[], 0.5), Duration::ZERO);
    }
}
