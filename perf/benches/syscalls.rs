//! `syscalls`: does a schedule make a system call when the new task does
//! not become the head? It should not: the timer's thread waits for the
//! head, and a later task changes nothing it waits for. The bench runs
//! itself under `strace -f`, schedules one far task (the head), then 1000
//! tasks due later still, between two `getppid` calls that mark the
//! counted part, and counts the `futex` calls the scheduling thread made
//! between the marks. A control case makes every task the new head, where
//! every schedule must wake the thread: it shows the count can see them. The futex is how Linux parks and wakes threads: an
//! uncontended lock takes none, a `notify` with a waiter takes one.
//!
//! ```text
//! cargo bench -p perf --bench syscalls
//! ```

use std::time::Duration;

use interrupt_cancel::timer::Timer;
use perf::report::Report;
use threadpool_executor::scheduled::ScheduledThreadPool;

/// Schedules counted.
const CALLS: usize = 1000;

/// The cases: a name, and what schedules the head and then the later tasks
/// (`counted` between the marks).
const CASES: [(&str, fn(), usize); 4] = [
    ("Timer (stage 5)", case_timer, CALLS),
    // The control: every task is the new head, and the thread is back in
    // its wait before each, so every schedule must wake it. If this reads
    // 0, the counting is broken.
    (
        "Timer (stage 5), every task a new head",
        case_timer_new_heads,
        CONTROL_CALLS,
    ),
    ("ScheduledThreadPool (stage 6)", case_pool, CALLS),
    ("scheduled-thread-pool", case_peer, CALLS),
];

/// Schedules in the control case, each after the thread is waiting again.
const CONTROL_CALLS: usize = 50;

/// A marker the trace shows: a system call nothing else here makes.
fn mark() {
    std::hint::black_box(std::os::unix::process::parent_id());
}

/// Lets the timer's thread reach its wait for the head.
fn settle() {
    std::thread::sleep(Duration::from_millis(50));
}

fn case_timer() {
    let timer = Timer::new("sc-timer").expect("a timer");
    let head = timer
        .schedule(Duration::from_secs(3600), || ())
        .expect("ok");
    let mut handles = Vec::with_capacity(CALLS);
    settle();
    mark();
    for i in 0..CALLS as u64 {
        handles.push(
            timer
                .schedule(Duration::from_secs(7200 + i), || ())
                .expect("ok"),
        );
    }
    mark();
    drop((head, handles));
}

fn case_timer_new_heads() {
    let timer = Timer::new("sc-heads").expect("a timer");
    let mut handles = Vec::with_capacity(CALLS + 1);
    handles.push(
        timer
            .schedule(Duration::from_secs(7200), || ())
            .expect("ok"),
    );
    settle();
    mark();
    for i in 0..CONTROL_CALLS as u64 {
        handles.push(
            timer
                .schedule(Duration::from_secs(3600 - i), || ())
                .expect("ok"),
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    mark();
    drop(handles);
}

fn case_pool() {
    let pool = ScheduledThreadPool::new(1).expect("a pool");
    let head = pool.schedule(Duration::from_secs(3600), || ()).expect("ok");
    let mut futures = Vec::with_capacity(CALLS);
    settle();
    mark();
    for i in 0..CALLS as u64 {
        futures.push(
            pool.schedule(Duration::from_secs(7200 + i), || ())
                .expect("ok"),
        );
    }
    mark();
    drop((head, futures));
    pool.shutdown_now();
}

fn case_peer() {
    let pool = scheduled_thread_pool::ScheduledThreadPool::new(1);
    let head = pool.execute_after(Duration::from_secs(3600), || ());
    let mut handles = Vec::with_capacity(CALLS);
    settle();
    mark();
    for i in 0..CALLS as u64 {
        handles.push(pool.execute_after(Duration::from_secs(7200 + i), || ()));
    }
    mark();
    drop((head, handles));
}

fn main() {
    perf::require_shipped_build();
    let case = perf::under::case();
    if let Some(case) = case {
        let (_, run, _) = CASES
            .iter()
            .find(|(n, ..)| *n == case)
            .expect("a known case");
        run();
        return;
    }
    let mut report = Report::new("syscalls");
    for (name, _, calls) in CASES {
        let args = ["-f", "-e", "trace=futex,getppid", "-o", "{out}"].map(str::to_owned);
        let Some(trace) = perf::under::run("strace", &args, "strace.out", name) else {
            return;
        };
        let futexes = futexes_between_marks(&trace).expect("two getppid marks");
        report.add(
            "futex calls per schedule",
            name,
            "futex calls",
            futexes as f64 / calls as f64,
            "",
        );
    }
    report.write();
}

/// The futex calls made by the thread that made the two `getppid` calls,
/// between them. With `-f` every line starts with the thread's id.
fn futexes_between_marks(trace: &str) -> Option<usize> {
    let tid = |line: &str| line.split_whitespace().next().map(str::to_owned);
    let marks: Vec<(usize, String)> = trace
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains("getppid("))
        .filter_map(|(i, l)| Some((i, tid(l)?)))
        .collect();
    let [(start, who), (end, _)] = marks.as_slice() else {
        return None;
    };
    Some(
        trace
            .lines()
            .skip(start + 1)
            .take(end - start - 1)
            .filter(|l| tid(l).as_ref() == Some(who) && l.contains("futex("))
            .count(),
    )
}
