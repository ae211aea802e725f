//! Wrong: it catches another bug. It holds the thread in the window and
//! lets it go, then measures the timer thread's CPU while the task waits
//! to be due. A busy loop (N1, *A timer that burns a core*) wants a core
//! the whole time; a thread that sleeps, blind or not, wants none. It
//! catches N1, not the missed task.
// verdict: catches-another

use exercises::catch::s1::{Pause, Timer, WINDOW};
use kit::{ms, threads};

#[test]
fn s1_missed_earlier_task_caught() {
    let name = threads::unique_name("catch-s1");
    let timer = Timer::new(&name).expect("start the timer");
    let pause = Pause::arm(WINDOW, &name);
    timer.schedule(ms(1000), || {}).expect("a small delay");
    pause.wait_reached();
    pause.release();
    let share = kit::cpu::measure(&name, ms(500));
    drop(timer);
    assert!(
        share.is_idle(),
        "S1 missed_earlier_task: the timer thread used {share} over 500 ms"
    );
}
