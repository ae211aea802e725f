//! Interleaved rounds: ours, the peer and the floor measured turn about in
//! one process, so that whatever the machine does meanwhile (another
//! build, a frequency change) falls on every side alike.
//!
//! A [`Contest`] holds the subjects of one comparison. Each is a closure
//! that runs one *round*: it prepares what it needs untimed (a fresh
//! structure filled to the size under test), times a fixed number of
//! operations, and returns them as a [`Sample`]. The contest first runs
//! every subject once, untimed (a warm-up: pages faulted in, threads
//! started, caches and branch predictors trained), then [`rounds`] rounds
//! in which every subject runs once, the order rotated by one each round
//! so that no subject always goes first.
//!
//! What it reports, per subject, is the median and the range (least,
//! greatest) of its rounds' nanoseconds per operation; and, per pair it is
//! asked to compare, the median and range of the per-round ratio, each
//! round's subject over the same round's reference. The ratio of two
//! medians would also do; the per-round one pairs measurements taken
//! moments apart, so that a slow stretch of the machine cancels out.

use std::time::Duration;

use crate::report::Report;

/// The rounds a contest runs after its warm-up: 11 (an odd count, so the
/// median is one round's figure), 3 in quick mode.
pub fn rounds() -> usize {
    crate::size(11, 3)
}

/// What one subject did in one round: `ops` operations in `elapsed`, the
/// timed part only.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    /// Time spent in the timed operations.
    pub elapsed: Duration,
    /// How many operations were timed.
    pub ops: u64,
}

impl Sample {
    /// Nanoseconds per operation.
    pub fn ns_per_op(self) -> f64 {
        self.elapsed.as_secs_f64() * 1e9 / self.ops.max(1) as f64
    }
}

/// The median and the range of some values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spread {
    /// The middle value (the mean of the two middle ones for an even count).
    pub median: f64,
    /// The least.
    pub min: f64,
    /// The greatest.
    pub max: f64,
}

impl Spread {
    /// The spread of `values`; `None` if there are none.
    pub fn of(values: &[f64]) -> Option<Spread> {
        if values.is_empty() {
            return None;
        }
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        let mid = sorted.len() / 2;
        let median = if sorted.len() % 2 == 1 {
            sorted[mid]
        } else {
            f64::midpoint(sorted[mid - 1], sorted[mid])
        };
        Some(Spread {
            median,
            min: sorted[0],
            max: sorted[sorted.len() - 1],
        })
    }
}

/// One subject: its name and its round.
type Round<'a> = Box<dyn FnMut() -> Sample + 'a>;

/// The subjects of one comparison, run in interleaved rounds.
pub struct Contest<'a> {
    group: String,
    subjects: Vec<(String, Round<'a>)>,
    /// (row name, numerator, denominator).
    ratios: Vec<(String, String, String)>,
}

/// What a contest measured: every subject's ns per operation, round by
/// round (in the order the subjects were added).
pub struct Outcome {
    /// (subject, its ns per operation in each round).
    pub per_round: Vec<(String, Vec<f64>)>,
}

impl Outcome {
    /// The rounds' ns per operation of `subject`.
    pub fn of(&self, subject: &str) -> Option<&[f64]> {
        self.per_round
            .iter()
            .find(|(name, _)| name == subject)
            .map(|(_, v)| v.as_slice())
    }

    /// Round by round, `subject`'s time over `reference`'s.
    pub fn ratios(&self, subject: &str, reference: &str) -> Option<Vec<f64>> {
        let (a, b) = (self.of(subject)?, self.of(reference)?);
        Some(a.iter().zip(b).map(|(a, b)| a / b).collect())
    }
}

/// The name a ratio row has in the report: `"<subject> / <reference>"`.
pub fn ratio_name(subject: &str, reference: &str) -> String {
    format!("{subject} / {reference}")
}

/// The name a throughput ratio has in the report: `"throughput, <subject>
/// / <reference>"`.
pub fn throughput_name(subject: &str, reference: &str) -> String {
    format!("throughput, {subject} / {reference}")
}

impl<'a> Contest<'a> {
    /// An empty contest; `group` names it in the report.
    pub fn new(group: impl Into<String>) -> Contest<'a> {
        Contest {
            group: group.into(),
            subjects: Vec::new(),
            ratios: Vec::new(),
        }
    }

    /// Adds a subject: `round` prepares untimed, times a fixed number of
    /// operations, and says how long they took.
    pub fn subject(&mut self, name: impl Into<String>, round: impl FnMut() -> Sample + 'a) {
        self.subjects.push((name.into(), Box::new(round)));
    }

    /// Asks for the per-round ratio of `subject`'s time over
    /// `reference`'s, named by [`ratio_name`] (both subjects added before
    /// [`Contest::run`]).
    pub fn ratio(&mut self, subject: &str, reference: &str) {
        self.ratios.push((
            ratio_name(subject, reference),
            subject.to_owned(),
            reference.to_owned(),
        ));
    }

    /// Asks for the per-round ratio of `subject`'s throughput over
    /// `reference`'s (the reference's time over the subject's), named by
    /// [`throughput_name`].
    pub fn throughput(&mut self, subject: &str, reference: &str) {
        self.ratios.push((
            throughput_name(subject, reference),
            reference.to_owned(),
            subject.to_owned(),
        ));
    }

    /// Runs the warm-up and the rounds, adds the spreads to `report`
    /// (stats `median`, `min` and `max` of each subject in ns per
    /// operation, and of each ratio), and returns every round's figure.
    ///
    /// # Panics
    /// If a ratio names a subject the contest does not have.
    pub fn run(mut self, report: &mut Report) -> Outcome {
        for (_, round) in &mut self.subjects {
            round();
        }
        let count = self.subjects.len();
        let mut per_round: Vec<Vec<f64>> = vec![Vec::new(); count];
        for r in 0..rounds() {
            for i in 0..count {
                let at = (r + i) % count;
                let sample = (self.subjects[at].1)();
                per_round[at].push(sample.ns_per_op());
            }
        }
        let outcome = Outcome {
            per_round: self
                .subjects
                .iter()
                .map(|(name, _)| name.clone())
                .zip(per_round)
                .collect(),
        };
        report.push(&self.group, "rounds", "count", rounds() as f64, "");
        for (name, values) in &outcome.per_round {
            let spread = Spread::of(values).expect("at least one round");
            report.add_spread(&self.group, name, spread, "ns/op");
        }
        for (name, over, under) in &self.ratios {
            let ratios = outcome
                .ratios(over, under)
                .unwrap_or_else(|| panic!("no subject {over:?} or {under:?}"));
            let spread = Spread::of(&ratios).expect("at least one round");
            report.add_spread(&self.group, name, spread, "×");
        }
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spread_is_the_middle_and_the_ends() {
        let s = Spread::of(&[3.0, 1.0, 2.0]).unwrap();
        assert_eq!((s.median, s.min, s.max), (2.0, 1.0, 3.0));
        let s = Spread::of(&[4.0, 1.0, 2.0, 3.0]).unwrap();
        assert_eq!((s.median, s.min, s.max), (2.5, 1.0, 4.0));
        assert_eq!(Spread::of(&[]), None);
    }

    #[test]
    fn rounds_alternate_and_ratios_pair_the_same_round() {
        use std::cell::RefCell;
        let order = RefCell::new(Vec::new());
        let mut report = Report::new("test-rounds");
        let mut contest = Contest::new("g");
        let mut a_round = 0u64;
        contest.subject("a", || {
            order.borrow_mut().push('a');
            a_round += 1;
            Sample {
                elapsed: Duration::from_nanos(10 * a_round),
                ops: 1,
            }
        });
        contest.subject("b", || {
            order.borrow_mut().push('b');
            Sample {
                elapsed: Duration::from_nanos(20),
                ops: 2,
            }
        });
        contest.ratio("a", "b");
        let outcome = contest.run(&mut report);
        let order = order.into_inner();
        // The warm-up, then each round with the order turned by one.
        assert_eq!(&order[..4], &['a', 'b', 'a', 'b']);
        assert_eq!(&order[4..6], &['b', 'a']);
        let n = rounds();
        assert_eq!(outcome.of("a").unwrap().len(), n);
        // b takes 10 ns per op; a takes 10 ns times its round (the warm-up
        // was its first): the ratio follows a, round by round.
        let ratios = outcome.ratios("a", "b").unwrap();
        assert_eq!(ratios.len(), n);
        for (got, round) in ratios.iter().zip(2..) {
            assert!((got - f64::from(round)).abs() < 1e-9, "{ratios:?}");
        }
    }
}
