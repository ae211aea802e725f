// The exercises, one row each. This file is read by two programs: the build
// script of this crate (which decides whose file each module is) and
// `cargo xtask exercise` (which lists, starts, checks and resets them).
// Adding an exercise is one row here, a skeleton in `skeletons/<name>.rs`,
// hints in `hints/<name>.md` and a check in `tests/<name>.rs`.

/// One exercise.
// Each of the two programs reads only some of the fields.
#[allow(dead_code)]
pub struct Exercise {
    /// Its name: the module, the skeleton's file name, the check's test
    /// target (`c4_one_lock`). It starts with the ID of the bug it fixes.
    pub name: &'static str,
    /// The catalogue ID the exercise is about (`C4`).
    pub id: &'static str,
    /// The ID the check names in red until the exercise is done: the bug
    /// the exercise removes (C4's check shows C1, the lost wake-up).
    pub shows: &'static str,
    /// A short name for the task.
    pub title: &'static str,
    /// The chapter that teaches it, in `book/src/`.
    pub chapter: &'static str,
    /// The stage's fixed version, as a module path: in solution mode the
    /// exercise's module re-exports it.
    pub solution: &'static str,
    /// The file that holds the solution, from the workspace root.
    pub solution_file: &'static str,
    /// The solution's pause points where the check holds the timer thread,
    /// as the constants the skeleton declares (`WINDOW`, ...); none if the
    /// check holds no thread.
    pub solution_points: &'static [(&'static str, &'static str)],
}

/// Every exercise, in teaching order.
pub const EXERCISES: &[Exercise] = &[
    Exercise {
        name: "n1_wait_dont_spin",
        id: "N1",
        shows: "N1",
        title: "make the busy loop wait instead of spin",
        chapter: "ch01-naive.md",
        solution: "sleep_based::sleep_until",
        solution_file: "sleep-based/src/sleep_until.rs",
        solution_points: &[],
    },
    Exercise {
        name: "s1_notice_earlier_task",
        id: "S1",
        shows: "S1",
        title: "make the sleeping timer notice an earlier task",
        chapter: "ch02-sleep-based.md",
        solution: "condvar_timer::timer_style",
        solution_file: "condvar-timer/src/timer_style.rs",
        solution_points: &[(
            "WINDOW",
            "condvar-timer::timer_style: peeked the head, not yet waiting",
        )],
    },
    Exercise {
        name: "c4_one_lock",
        id: "C4",
        shows: "C1",
        title: "close the lost wake-up with one lock",
        chapter: "ch03-lost-wakeup.md",
        solution: "condvar_timer::timer_style",
        solution_file: "condvar-timer/src/timer_style.rs",
        solution_points: &[(
            "WINDOW",
            "condvar-timer::timer_style: peeked the head, not yet waiting",
        )],
    },
    Exercise {
        name: "c5_semaphore",
        id: "C5",
        shows: "C5",
        title: "a semaphore that remembers a notify",
        chapter: "ch03b-something-changed.md",
        solution: "condvar_timer::semaphore",
        solution_file: "condvar-timer/src/semaphore.rs",
        solution_points: &[],
    },
    Exercise {
        name: "p4_poison_pill",
        id: "P4",
        shows: "P1",
        title: "a cancel the thread cannot miss",
        chapter: "ch04-poison-pill.md",
        solution: "poison_pill::disconnect",
        solution_file: "poison-pill/src/disconnect.rs",
        solution_points: &[
            ("IDLE", "poison-pill::disconnect: heap empty, about to receive"),
            ("WAIT", "poison-pill::disconnect: drained the channel, about to wait"),
        ],
    },
    Exercise {
        name: "i1_interruptible_take",
        id: "I1",
        shows: "P1",
        title: "a take an interrupt can end",
        chapter: "ch05-interrupt-cancel.md",
        solution: "interrupt_cancel::interruptible_queue",
        solution_file: "interrupt-cancel/src/interruptible_queue.rs",
        solution_points: &[
            (
                "IDLE",
                "interrupt-cancel::interruptible_queue: queue empty, not yet waiting",
            ),
            (
                "WAIT",
                "interrupt-cancel::interruptible_queue: head not due, not yet waiting",
            ),
        ],
    },
    Exercise {
        name: "t7_recheck",
        id: "T7",
        shows: "T7",
        title: "no task stranded by shutdown",
        chapter: "ch06-threadpool-executor.md",
        solution: "crate::solutions::t7_recheck",
        solution_file: "threadpool-executor/src/pool.rs",
        solution_points: &[(
            "WINDOW",
            "threadpool-executor::pool: saw the pool running, not yet queued",
        )],
    },
    Exercise {
        name: "t10_leader_follower",
        id: "T10",
        shows: "T10",
        title: "one leader waits for the head, not the whole herd",
        chapter: "ch06b-scheduled-pool.md",
        solution: "crate::solutions::t10_leader_follower",
        solution_file: "threadpool-executor/src/delayed_queue.rs",
        solution_points: &[(
            "TOOK",
            "threadpool-executor::delayed_queue: took an item, leadership handed on",
        )],
    },
    Exercise {
        name: "w7_single_owner_wheel",
        id: "W7",
        shows: "W2",
        title: "a wheel whose ticker alone owns the slots",
        chapter: "ch07-wheel.md",
        solution: "crate::solutions::w7_single_owner_wheel",
        solution_file: "wheel/src/hashed.rs",
        solution_points: &[("WINDOW", "wheel::hashed: deadline computed, not yet sent")],
    },
];
