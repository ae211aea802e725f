//! Find it: the schedulers whose bug nobody names, each behind the API a
//! student's test is written against.
//!
//! The file a student reads is `exercises/find/<exercise>.rs`: the
//! scheduler as it was written (its bug still in it), its API and its pause
//! points. Behind the API runs one of several versions, as in
//! [`catch`](crate::catch): the scheduler as written, correct ones, and
//! others with other bugs; the versions other than the one in the student's
//! file live in `<key>_versions.rs` beside this one, out of the student's
//! way.

#[path = "../../find/f1_find_inbox_timer.rs"]
pub mod f1;
mod f1_versions;
#[path = "../../find/f2_find_debouncer.rs"]
pub mod f2;
mod f2_versions;
#[path = "../../find/f3_find_lease_renewer.rs"]
pub mod f3;
mod f3_versions;
#[path = "../../find/f4_find_retry_timer.rs"]
pub mod f4;
mod f4_versions;

/// Every find-it's `keep_every_version` (see `catch::select!`).
pub(crate) fn keep_every_version() {
    f1_versions::keep_every_version();
    f2_versions::keep_every_version();
    f3_versions::keep_every_version();
    f4_versions::keep_every_version();
}
