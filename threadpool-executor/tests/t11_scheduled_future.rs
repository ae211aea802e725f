//! T11, the future inside every scheduled task (future.rs): seven states
//! changed by CAS, `get` that blocks for the value, the panic or the
//! cancellation, `cancel(may_interrupt)` through stage 5's interrupt, and
//! a runner claim that runs the job at most once.
//!
//! The concurrent cases are forced with the file's two pause points: a
//! runner held between its claim and its job, and a canceller held
//! between `Interrupting` and its interrupt.
#![cfg(not(loom))]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::thread;
use std::time::{Duration, Instant};

use kit::pause::Pause;
use kit::{Recorder, ms};
use threadpool_executor::future::{FutureError, FutureState, FutureTask};
use threadpool_executor::interrupt::{self, InterruptToken};

const CLAIMED: &str = "threadpool-executor::future: claimed the run, job not started";
const INTERRUPTING: &str = "threadpool-executor::future: Interrupting, runner not yet interrupted";

/// A task that counts its runs and returns 42.
fn counted() -> (Arc<FutureTask<u32>>, Arc<AtomicUsize>) {
    let runs = Arc::new(AtomicUsize::new(0));
    let r = Arc::clone(&runs);
    let task = FutureTask::new(move || {
        r.fetch_add(1, SeqCst);
        42
    });
    (Arc::new(task), runs)
}

/// Runs `body` on a new thread with a name of its own (for pause points)
/// and an interrupt token (for `cancel(true)`), as a pool's worker has.
fn spawn_named<T: Send + 'static>(
    name: &str,
    body: impl FnOnce(InterruptToken) -> T + Send + 'static,
) -> thread::JoinHandle<T> {
    thread::Builder::new()
        .name(name.to_owned())
        .spawn(move || {
            let token = InterruptToken::new();
            token.set_current();
            body(token)
        })
        .unwrap()
}

#[test]
fn t11_get_returns_the_value() {
    let (task, runs) = counted();
    assert_eq!(task.state(), FutureState::New);
    assert!(!task.is_done());
    let runner = spawn_named(&kit::threads::unique_name("t11"), {
        let task = Arc::clone(&task);
        move |_| task.run()
    });
    // Blocks until the runner is done, on any schedule.
    assert_eq!(task.get(), Ok(42));
    runner.join().unwrap();
    assert_eq!(task.state(), FutureState::Normal);
    assert!(task.is_done() && !task.is_cancelled());
    assert_eq!(task.get(), Ok(42), "every get sees the value");
    assert_eq!(task.get_timeout(Duration::ZERO), Ok(42));
    assert_eq!(runs.load(SeqCst), 1);
}

#[test]
fn t11_get_of_a_panicked_job_returns_panicked_with_the_message() {
    // resume_unwind: a panic that skips the panic hook's printout.
    let task: FutureTask<u32> =
        FutureTask::new(|| std::panic::resume_unwind(Box::new("the job failed, on purpose")));
    task.run();
    assert_eq!(task.state(), FutureState::Exceptional);
    let err = task.get().unwrap_err();
    assert_eq!(
        err,
        FutureError::Panicked("the job failed, on purpose".into())
    );
    assert_eq!(
        err.to_string(),
        "the task panicked: the job failed, on purpose"
    );
    assert!(task.is_done() && !task.is_cancelled());
    assert!(!task.cancel(true), "done: nothing to cancel");

    // A String payload too, as `panic!("{x}")` makes.
    let task: FutureTask<()> =
        FutureTask::once(|| std::panic::resume_unwind(Box::new(format!("task {} failed", 7))));
    task.run();
    assert_eq!(
        task.get(),
        Err(FutureError::Panicked("task 7 failed".into()))
    );
}

#[test]
fn t11_cancel_before_run_means_it_never_runs() {
    let (task, runs) = counted();
    assert!(task.cancel(false));
    assert_eq!(task.state(), FutureState::Cancelled);
    assert!(task.is_done() && task.is_cancelled());
    task.run();
    assert!(!task.run_and_reset());
    assert_eq!(runs.load(SeqCst), 0, "a cancelled task never runs");
    assert_eq!(task.get(), Err(FutureError::Cancelled));
    assert_eq!(
        task.get_timeout(ms(10)),
        Err(FutureError::Cancelled),
        "done: no wait, no timeout"
    );
    assert_eq!(FutureError::Cancelled.to_string(), "the task was cancelled");
    assert!(!task.cancel(true), "cancelled once only");
    assert_eq!(task.state(), FutureState::Cancelled);
}

#[test]
fn t11_cancel_true_interrupts_the_running_job() {
    let rec = Recorder::new();
    let r = rec.clone();
    let task = Arc::new(FutureTask::once(move || {
        r.record("job started");
        let deadline = Instant::now() + ms(5000);
        while Instant::now() < deadline {
            if interrupt::check().is_err() {
                r.record("job saw the interrupt");
                return "stopped early";
            }
            thread::sleep(Duration::from_millis(1));
        }
        "ran to its deadline"
    }));
    let runner = spawn_named(&kit::threads::unique_name("t11"), {
        let task = Arc::clone(&task);
        move |token| {
            task.run();
            token.is_interrupted()
        }
    });
    assert!(rec.eventually("job started", ms(5000)).is_some());
    let cancelled_at = rec.record("cancel(true)");
    assert!(task.cancel(true));
    assert_eq!(task.state(), FutureState::Interrupted);
    assert!(task.is_cancelled());
    assert_eq!(task.get(), Err(FutureError::Cancelled));
    let saw = rec
        .eventually("job saw the interrupt", ms(1000))
        .unwrap_or_else(|| panic!("the job never saw the interrupt\n{}", rec.log()));
    let interrupted_after_run = runner.join().unwrap();
    assert!(
        interrupted_after_run,
        "the interrupt landed while the job ran; the pool's worker clears it before its next task"
    );
    assert_eq!(
        task.get(),
        Err(FutureError::Cancelled),
        "the job's value is thrown away"
    );
    println!(
        "T11: cancel(true) at {} ms, the job stopped {} ms later",
        cancelled_at.as_millis(),
        (saw - cancelled_at).as_millis()
    );
}

#[test]
fn t11_cancel_after_done_returns_false() {
    let (task, _) = counted();
    task.run();
    assert!(!task.cancel(false));
    assert!(!task.cancel(true));
    assert_eq!(task.state(), FutureState::Normal);
    assert!(!task.is_cancelled());
    assert_eq!(task.get(), Ok(42));
}

#[test]
fn t11_get_timeout_times_out() {
    let (task, _) = counted();
    let start = Instant::now();
    assert_eq!(task.get_timeout(ms(50)), Err(FutureError::Timeout));
    let waited = start.elapsed();
    assert!(waited >= ms(50), "gave up early, after {waited:?}");
    assert_eq!(task.get_timeout(Duration::ZERO), Err(FutureError::Timeout));
    assert_eq!(
        FutureError::Timeout.to_string(),
        "timed out waiting for the task"
    );
    assert_eq!(task.state(), FutureState::New, "a timeout changes nothing");
    task.run();
    assert_eq!(task.get_timeout(ms(50)), Ok(42));
    // A timeout too long for the clock is forever, not a panic.
    assert_eq!(task.get_timeout(Duration::MAX), Ok(42));
}

#[test]
fn t11_the_same_task_run_twice_in_turn_runs_once() {
    let (task, runs) = counted();
    task.run();
    task.run();
    assert!(!task.run_and_reset(), "done: not even periodically");
    assert_eq!(runs.load(SeqCst), 1);
    assert_eq!(task.get(), Ok(42));
}

/// Two threads run the same task at once: the first holds the claim
/// (held at the pause point, job not started yet), the second sees the
/// task still `New` and would run it, but cannot take the claim.
#[test]
fn t11_the_same_task_run_from_two_threads_at_once_runs_once() {
    let (task, runs) = counted();
    let first = kit::threads::unique_name("t11");
    let pause = Pause::arm(CLAIMED, &first);
    let runner = spawn_named(&first, {
        let task = Arc::clone(&task);
        move |_| task.run()
    });
    pause.wait_reached();
    assert_eq!(task.state(), FutureState::New, "claimed, not yet run");
    let second = spawn_named(&kit::threads::unique_name("t11"), {
        let task = Arc::clone(&task);
        move |_| {
            task.run();
            task.run_and_reset()
        }
    });
    assert!(!second.join().unwrap(), "the second run went nowhere");
    assert_eq!(runs.load(SeqCst), 0, "and ran nothing");
    pause.release();
    runner.join().unwrap();
    assert_eq!(runs.load(SeqCst), 1);
    assert_eq!(task.get(), Ok(42));
}

#[test]
fn t11_run_and_reset_keeps_new() {
    let (task, runs) = counted();
    for _ in 0..3 {
        assert!(task.run_and_reset());
        assert_eq!(task.state(), FutureState::New);
    }
    assert_eq!(runs.load(SeqCst), 3, "periodic: it runs every time");
    assert!(!task.is_done());
    assert_eq!(
        task.get_timeout(ms(10)),
        Err(FutureError::Timeout),
        "no value: a periodic task completes only by panic or cancel"
    );
    assert!(task.cancel(false));
    assert!(!task.run_and_reset());
    assert_eq!(runs.load(SeqCst), 3);
    assert_eq!(task.get(), Err(FutureError::Cancelled));
}

#[test]
fn t11_run_and_reset_stops_for_good_on_a_panic() {
    let runs = Arc::new(AtomicUsize::new(0));
    let r = Arc::clone(&runs);
    let task: FutureTask<()> = FutureTask::new(move || {
        if r.fetch_add(1, SeqCst) == 1 {
            std::panic::resume_unwind(Box::new("second run failed"));
        }
    });
    assert!(task.run_and_reset());
    assert!(!task.run_and_reset(), "the panic ends it");
    assert!(!task.run_and_reset());
    assert_eq!(runs.load(SeqCst), 2);
    assert_eq!(task.state(), FutureState::Exceptional);
    assert_eq!(
        task.get(),
        Err(FutureError::Panicked("second run failed".into()))
    );
}

/// A `cancel(true)` held between its CAS to `Interrupting` and its
/// interrupt, while the job ends: the runner's `run` waits for the
/// interrupt to land before it returns (Java's
/// `handlePossibleCancellationInterrupt`). Returning at once would let the
/// interrupt land later, in whatever the thread runs next.
#[test]
fn t11_a_pending_interrupt_lands_before_run_returns() {
    let rec = Recorder::new();
    let (go, wait_go) = std::sync::mpsc::channel::<()>();
    let task = Arc::new(FutureTask::once({
        let r = rec.clone();
        move || {
            r.record("job started");
            wait_go.recv_timeout(ms(5000)).unwrap();
            7
        }
    }));
    let runner = spawn_named(&kit::threads::unique_name("t11"), {
        let (task, r) = (Arc::clone(&task), rec.clone());
        move |token| {
            task.run();
            r.record("run returned");
            token.is_interrupted()
        }
    });
    assert!(rec.eventually("job started", ms(5000)).is_some());

    let canceller_name = kit::threads::unique_name("t11");
    let pause = Pause::arm(INTERRUPTING, &canceller_name);
    let canceller = spawn_named(&canceller_name, {
        let task = Arc::clone(&task);
        move |_| task.cancel(true)
    });
    pause.wait_reached();
    assert_eq!(task.state(), FutureState::Interrupting);
    // Cancelled already, to a getter.
    assert_eq!(task.get(), Err(FutureError::Cancelled));
    go.send(()).unwrap();
    let until = rec.elapsed() + ms(100);
    assert_eq!(
        rec.still_absent("run returned", until),
        Ok(()),
        "run returned while an interrupt was still on its way\n{}",
        rec.log()
    );
    pause.release();
    assert!(canceller.join().unwrap());
    assert!(runner.join().unwrap(), "it landed inside run");
    assert_eq!(task.state(), FutureState::Interrupted);
}
