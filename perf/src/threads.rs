//! The CPU time and voluntary context switches (wake-ups after blocking)
//! of every thread whose name starts with a prefix, read from `/proc`.

use std::time::Duration;

use kit::cpu::ThreadCpu;

/// The threads of this process whose names start with `prefix` (Linux keeps
/// 15 bytes of a name).
pub fn with_prefix(prefix: &str) -> Vec<ThreadCpu> {
    let Ok(dir) = std::fs::read_dir("/proc/self/task") else {
        return Vec::new();
    };
    dir.filter_map(|entry| {
        let entry = entry.ok()?;
        let comm = std::fs::read_to_string(entry.path().join("comm")).ok()?;
        let tid: i32 = entry.file_name().to_str()?.parse().ok()?;
        comm.trim_end()
            .starts_with(prefix)
            .then(|| ThreadCpu::of_tid(tid))
    })
    .collect()
}

/// CPU time used and wake-ups so far, summed over `threads` (a thread that
/// has exited counts nothing).
pub fn totals(threads: &[ThreadCpu]) -> (Duration, u64) {
    threads.iter().fold((Duration::ZERO, 0), |(cpu, wakes), t| {
        (
            cpu + t.used().unwrap_or_default(),
            wakes + t.wakeups().unwrap_or(0),
        )
    })
}
