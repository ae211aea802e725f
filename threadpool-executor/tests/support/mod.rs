//! What the test files share: a gate tasks wait on, pools with thread
//! names of their own, and a wait for a condition with a deadline.
#![allow(dead_code)]

use threadpool_executor::factory::NamedThreads;

// Not every test file gates its tasks.
#[allow(unused_imports)]
pub use kit::gate::{Gate, GateWait};

/// A unique prefix for a test's pool (`t1-7-`): its threads are
/// `t1-7-1`, `t1-7-2`, ...
pub fn prefix(id: &str) -> String {
    format!("{}-", kit::threads::unique_name(id))
}

/// Threads named after `prefix`.
pub fn threads(prefix: &str) -> NamedThreads {
    NamedThreads::with_prefix(prefix)
}

// Not every test file waits on a condition.
#[allow(unused_imports)]
pub use kit::eventually;

/// The name of the calling thread.
pub fn me() -> String {
    std::thread::current().name().unwrap_or("?").to_owned()
}

/// A task that records `label` in `rec` when it runs.
pub fn labelled(rec: &kit::Recorder, label: &'static str) -> impl FnOnce() + Send + 'static {
    let rec = rec.clone();
    move || {
        rec.record(label);
    }
}
