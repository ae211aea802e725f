//! Two kinds of time: the store's and a node's.
//!
//! **The store's clock is the time authority.** Every statement that needs
//! "now" says `{now}`, and the database reads its own clock, or the one
//! row of `store_clock` when a test has set it ([`set_store_time`]): a
//! test moves the store's time for every node at once, across threads and
//! processes, without sleeping.
//!
//! A node also has a clock of its own, [`Clock`]: the machine's, or a
//! [`ManualTime`] a test moves, either one with a skew. Only the D5
//! version (`node_clock.rs`) reads it to judge due times and leases; that
//! is its bug.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::Millis;
use crate::store::{Store, StoreError};

/// A time a test sets and moves by hand, shared by every node that reads
/// it (cloning shares it).
#[derive(Debug, Clone, Default)]
pub struct ManualTime(Arc<AtomicI64>);

impl ManualTime {
    /// A manual time starting at `at`.
    pub fn new(at: Millis) -> ManualTime {
        ManualTime(Arc::new(AtomicI64::new(at)))
    }

    /// The time now.
    pub fn now(&self) -> Millis {
        // ORDERING: SeqCst, the default of a test's clock: nothing else is
        // published through it, and it is read a handful of times a step.
        self.0.load(Ordering::SeqCst)
    }

    /// Moves the time to `at`.
    pub fn set(&self, at: Millis) {
        self.0.store(at, Ordering::SeqCst);
    }
}

/// A node's own clock: where its time comes from, and how far it is off.
#[derive(Debug, Clone)]
pub struct Clock {
    source: Source,
    skew: Millis,
}

#[derive(Debug, Clone)]
enum Source {
    System,
    Manual(ManualTime),
}

impl Clock {
    /// The machine's clock.
    pub fn system() -> Clock {
        Clock {
            source: Source::System,
            skew: 0,
        }
    }

    /// A clock that reads `time`, moved by the test.
    pub fn manual(time: &ManualTime) -> Clock {
        Clock {
            source: Source::Manual(time.clone()),
            skew: 0,
        }
    }

    /// This clock, running `skew` ms ahead (or behind, if negative).
    pub fn skewed(mut self, skew: Millis) -> Clock {
        self.skew = skew;
        self
    }

    /// How far this clock is off.
    pub fn skew(&self) -> Millis {
        self.skew
    }

    /// The time on this clock.
    pub fn now(&self) -> Millis {
        let base = match &self.source {
            Source::System => SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| {
                Millis::try_from(d.as_millis()).unwrap_or(Millis::MAX)
            }),
            Source::Manual(time) => time.now(),
        };
        base.saturating_add(self.skew)
    }
}

// ANCHOR: store_time
/// Sets the store's time to `at`, for every connection, until
/// [`clear_store_time`].
///
/// # Errors
/// What the store reports.
pub fn set_store_time(store: &mut dyn Store, at: Millis) -> Result<(), StoreError> {
    store.execute(
        "INSERT INTO store_clock (id, now_ms) VALUES (1, $1)
         ON CONFLICT (id) DO UPDATE SET now_ms = excluded.now_ms",
        &[at.into()],
    )?;
    Ok(())
}
// ANCHOR_END: store_time

/// Lets the store read its real clock again.
///
/// # Errors
/// What the store reports.
pub fn clear_store_time(store: &mut dyn Store) -> Result<(), StoreError> {
    store.execute("DELETE FROM store_clock WHERE id = 1", &[])?;
    Ok(())
}

/// The store's time now, as `{now}` reads it.
///
/// # Errors
/// What the store reports.
pub fn store_time(store: &mut dyn Store) -> Result<Millis, StoreError> {
    let rows = store.query("SELECT {now}", &[])?;
    Ok(rows.first().map_or(0, |row| row.int(0)))
}
