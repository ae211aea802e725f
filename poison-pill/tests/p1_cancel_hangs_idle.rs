//! P1 `cancel_hangs_idle`: nothing is queued, the timer thread is blocked
//! in `take`, and `cancel` sets a flag the thread never reads: the thread
//! never ends, and neither does a join of it.
//!
//! The scenario (tests/support): hold the thread where it has found the
//! queue empty and is about to block, cancel from a client thread, release
//! the thread, then drop the timer's last owner on a joiner thread (the
//! drop joins the timer thread) and wait for that join.
//!
//! - cancel_flag.rs and notify_on_cancel.rs: the point is between the flag
//!   check and `take`. The cancel gets in; the thread then blocks in `take`
//!   for good (notify_on_cancel's notify goes to the monitor, not to the
//!   queue). The join has not returned `MARGIN_MS` after the thread was let
//!   go, where the correctness check gives up (its red twin waits
//!   `IDLE_BOUND_MS`); the test then frees the thread with the version's
//!   rescue hook, so none is left behind.
//! - poison_pill.rs: the pill lands in the queue, before `take` (point at
//!   the top of the loop) or while `take` waits (point inside the queue's
//!   lock, where the cancel must wait for the thread to block first): either
//!   way `take` hands out the pill and the loop ends.
//! - disconnect.rs: `recv` returns the disconnect, before or after it came.
//! - timer_style.rs: the flag is under the lock the thread waits with.
//!
//! And as a program: the example `cancel_hangs_idle` never exits on
//! cancel_flag.rs, and exits at once on poison_pill.rs.
#![cfg(not(loom))]

mod support;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{OnceLock, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use kit::ms;
use kit::scale::in_ms;
use poison_pill::{cancel_flag, disconnect, notify_on_cancel, poison_pill as pill, timer_style};
use support::{Look, MARGIN_MS, PILL_ABOUT_TO_TAKE, Run, Version, cancel_at};

const LABEL: &str = "P1 cancel_hangs_idle";

fn idle_run<T: Version>(prefix: &str) -> Run {
    cancel_at::<T>(prefix, T::IDLE, false)
}

/// The scenario on a buggy version, looked at until the correctness
/// check's bound (a thread that would run forever is not waited for).
fn hanging_run<T: Version>(prefix: &str) -> Run {
    support::cancel_looking::<T>(prefix, T::IDLE, false, Look::ToTheBound)
}

/// The bug, shown: the cancel got in, and the join had not returned by the
/// bound.
fn assert_hangs<T: Version>(run: &Run) {
    assert!(
        run.cancel_got_in,
        "precondition: the cancel returned while the thread was held\n{}",
        run.rec.log()
    );
    if let Some(ended) = run.ended {
        panic!(
            "{}: the thread ended at {} ms, after a cancel at {} ms: it read the flag after all\n{}",
            T::FILE,
            in_ms(ended),
            in_ms(run.cancelled),
            run.rec.log()
        );
    }
    assert!(run.gave_up > run.released + ms(MARGIN_MS));
}

#[test]
fn p1_cancel_hangs_idle_reproduces() {
    let run = hanging_run::<cancel_flag::Timer>("p1-flag");
    assert_hangs::<cancel_flag::Timer>(&run);
}

#[test]
fn p1_cancel_hangs_idle_reproduces_in_notify_on_cancel() {
    let run = hanging_run::<notify_on_cancel::Timer>("p1-notify");
    assert_hangs::<notify_on_cancel::Timer>(&run);
}

#[test]
fn p1_cancel_hangs_idle_fixed() {
    // The cancel must wait for the thread to block in `take` (the point is
    // inside the queue's lock); the pill then wakes it.
    let run = idle_run::<pill::Timer>("p1-pill");
    assert!(
        !run.cancel_got_in,
        "the cancel got past the queue's lock\n{}",
        run.rec.log()
    );
    run.assert_ends_soon(LABEL);
}

#[test]
fn p1_cancel_hangs_idle_fixed_before_take() {
    // The cancel lands before the thread calls `take`: the pill is already
    // in the queue when it looks.
    let run = cancel_at::<pill::Timer>("p1-pill-top", PILL_ABOUT_TO_TAKE, false);
    assert!(run.cancel_got_in);
    run.assert_ends_soon(LABEL);
}

#[test]
fn p1_cancel_hangs_idle_fixed_in_disconnect() {
    let run = idle_run::<disconnect::Timer>("p1-disc");
    assert!(
        run.cancel_got_in,
        "disconnect.rs's cancel takes no lock the thread holds"
    );
    run.assert_ends_soon(LABEL);
}

#[test]
fn p1_cancel_hangs_idle_fixed_in_timer_style() {
    let run = idle_run::<timer_style::Timer>("p1-tstyle");
    assert!(
        !run.cancel_got_in,
        "the cancel got past the timer's lock\n{}",
        run.rec.log()
    );
    run.assert_ends_soon(LABEL);
}

#[test]
#[ignore = "P1 cancel_hangs_idle: shows the bug in cancel_flag.rs"]
fn p1_cancel_hangs_idle_on_cancel_flag() {
    idle_run::<cancel_flag::Timer>("p1-flag").assert_ends_soon(LABEL);
}

#[test]
#[ignore = "P1 cancel_hangs_idle: shows the bug in notify_on_cancel.rs"]
fn p1_cancel_hangs_idle_on_notify_on_cancel() {
    idle_run::<notify_on_cancel::Timer>("p1-notify").assert_ends_soon(LABEL);
}

// The program: examples/cancel_hangs_idle.rs, run as a child process.

/// The example's binary, built first if need be.
///
/// `cargo test -p poison-pill` builds the package's examples before it runs
/// any test, into `target/<profile>/examples/`, beside the `deps/` folder
/// that holds this test's executable. A run narrowed with `--test` does not
/// build them, and a stale binary would test old code; so the first call
/// asks cargo to build it (a no-op when it is up to date). cargo holds no
/// lock while the tests run.
fn example() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let exe = std::env::current_exe().expect("this test's executable");
            let profile_dir = exe
                .parent()
                .and_then(|deps| deps.parent())
                .expect("target/<profile>/deps/<test>");
            let target_dir = profile_dir.parent().expect("target/<profile>");
            let binary = profile_dir
                .join("examples")
                .join(format!("cancel_hangs_idle{}", std::env::consts::EXE_SUFFIX));
            if newer_than_sources(&binary) {
                return binary;
            }
            let mut build = Command::new(env!("CARGO"));
            build
                .args(["build", "--quiet", "--offline", "--manifest-path"])
                .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"))
                .args(["--example", "cancel_hangs_idle", "--target-dir"])
                .arg(target_dir);
            match profile_dir.file_name().and_then(|p| p.to_str()) {
                Some("debug") => {}
                Some("release") => {
                    build.arg("--release");
                }
                Some(other) => {
                    build.args(["--profile", other]);
                }
                None => panic!("no profile in {}", profile_dir.display()),
            }
            let status = build.status().expect("run cargo");
            assert!(status.success(), "building the example failed: {status}");
            binary
        })
        .clone()
}

/// Whether `binary` exists and is newer than every file in this crate's
/// `src/` and `examples/`.
fn newer_than_sources(binary: &Path) -> bool {
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let Some(built) = modified(binary) else {
        return false;
    };
    ["src", "examples"].iter().all(|dir| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        std::fs::read_dir(dir).is_ok_and(|entries| {
            entries
                .flatten()
                .all(|e| modified(&e.path()).is_some_and(|m| m <= built))
        })
    })
}

/// The example running as a child process, and its stdout, line by line.
struct Example {
    child: Child,
    lines: mpsc::Receiver<String>,
    reader: JoinHandle<()>,
}

/// Starts the example on `version`.
fn run_example(version: &str) -> Example {
    let mut child = Command::new(example())
        .arg(version)
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the example");
    let stdout = child.stdout.take().expect("piped stdout");
    let (tx, lines) = mpsc::channel();
    // Ends at the child's end of output (when it exits or is killed).
    let reader = support::spawn("p1-stdout", move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    Example {
        child,
        lines,
        reader,
    }
}

/// Polls the child for an exit, every millisecond, for at most `within`.
fn exited_within(child: &mut Child, within: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + within;
    loop {
        if let Some(status) = child.try_wait().expect("poll the child") {
            return Some(status);
        }
        if Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn p1_cancel_hangs_idle_reproduces_as_a_program() {
    let Example {
        mut child,
        lines,
        reader,
    } = run_example("cancel_flag");
    let first = lines.recv_timeout(ms(5000));
    // Looked at until the correctness check's bound, as the other tests
    // that show P1 do: a program that would hang forever is not waited for.
    let exited = exited_within(&mut child, ms(MARGIN_MS));
    // Whatever happened, leave no process behind: kill (if alive), reap.
    let _ = child.kill();
    child.wait().expect("reap the example");
    reader.join().expect("the stdout reader");
    let first = first.expect("the example printed that it cancelled");
    assert!(first.starts_with("cancelled"), "unexpected output: {first}");
    assert_eq!(
        exited, None,
        "P1 cancel_hangs_idle: the program exited after its cancel; it should hang in the join"
    );
}

#[test]
fn p1_cancel_hangs_idle_fixed_as_a_program() {
    let Example {
        mut child,
        lines,
        reader,
    } = run_example("poison_pill");
    let exited = exited_within(&mut child, ms(5000));
    if exited.is_none() {
        let _ = child.kill();
    }
    child.wait().expect("reap the example");
    reader.join().expect("the stdout reader");
    let status = exited.expect("the program exited");
    assert!(status.success(), "the example failed: {status}");
    let out: Vec<String> = lines.try_iter().collect();
    assert_eq!(
        out.last().map(String::as_str),
        Some("the timer thread has ended"),
        "{out:?}"
    );
}
