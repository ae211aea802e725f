// The JDK's side of `cargo xtask jdk`: each scenario prints one or more
// lines, "<scenario> | <what happened>", in the words the Rust side
// (jdk-side-by-side/src/) prints too. Counts and orders only, never a
// time: where a scenario needs time to pass, it waits at least that long (a
// lower bound) and judges by what ran before what, so a loaded machine
// cannot change the answer. Durations are scaled by KIT_TIME_SCALE, as the
// Rust side's are.
//
// Written for this project; run with `cargo xtask jdk`, or alone:
//   javac -d target/jdk jdk-side-by-side/java/SideBySide.java
//   java -cp target/jdk SideBySide [--list | SCENARIO...]

import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Timer;
import java.util.TimerTask;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

public class SideBySide {
    // ---------------------------------------------------------------- helpers

    /** The delay factor: KIT_TIME_SCALE, as kit::scale reads it. */
    static final double SCALE = scale();

    static double scale() {
        String text = System.getenv("KIT_TIME_SCALE");
        if (text == null) {
            return 1.0;
        }
        double f = Double.parseDouble(text.trim());
        if (!(f > 0) || Double.isInfinite(f)) {
            throw new IllegalArgumentException("KIT_TIME_SCALE=" + text + ": expected a positive number");
        }
        return f;
    }

    /** n milliseconds, scaled (kit::ms). */
    static long ms(long n) {
        return Math.round(n * SCALE);
    }

    /** Our panics and these exceptions say "on purpose"; nothing else does. */
    static final String ON_PURPOSE = "on purpose";

    static void line(String scenario, String what) {
        System.out.println(scenario + " | " + what);
    }

    /** "1 run", "4 runs". */
    static String runs(int n) {
        return n == 1 ? "1 run" : n + " runs";
    }

    static TimerTask task(Runnable body) {
        return new TimerTask() {
            public void run() {
                body.run();
            }
        };
    }

    static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Occupies the pool's one thread with a task that waits at the
     * returned gate, and returns once that task has started. */
    static CountDownLatch occupy(ThreadPoolExecutor pool) throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch gate = new CountDownLatch(1);
        pool.execute(() -> {
            started.countDown();
            await(gate);
        });
        started.await();
        return gate;
    }

    /** "refused (<message>)" if scheduling throws IllegalStateException. */
    static String tryToSchedule(Runnable schedule) {
        try {
            schedule.run();
            return "accepted";
        } catch (IllegalStateException e) {
            return "refused (" + e.getMessage() + ")";
        }
    }

    // ------------------------------------------------------- java.util.Timer

    // 1. cancel() lets the running task finish, discards the queue, and
    // refuses every later schedule.
    static void timerCancel() throws InterruptedException {
        Timer timer = new Timer();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean finished = new AtomicBoolean();
        AtomicReference<Thread> timerThread = new AtomicReference<>();
        timer.schedule(task(() -> {
            timerThread.set(Thread.currentThread());
            started.countDown();
            await(release);
            finished.set(true);
        }), 0);
        started.await();
        AtomicInteger queuedRan = new AtomicInteger();
        for (int i = 0; i < 3; i++) {
            timer.schedule(task(queuedRan::incrementAndGet), 0);
        }
        timer.cancel();
        release.countDown();
        String later = tryToSchedule(() -> timer.schedule(task(() -> {}), 0));
        timerThread.get().join(); // the thread ends once the running task is done
        line("timer: cancel while a task runs and 3 are due",
                "the running task " + (finished.get() ? "finished" : "was stopped")
                        + "; the 3 due ran " + queuedRan.get() + " times");
        line("timer: schedule after cancel", later);
    }

    // The timer's one thread: created and started by the constructor, before
    // any task, and every task runs on it.
    static void timerThreads() throws InterruptedException {
        Timer timer = new Timer("jdk-threads");
        long named = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("jdk-threads") && t.isAlive())
                .count();
        java.util.Set<Thread> ran = java.util.concurrent.ConcurrentHashMap.newKeySet();
        CountDownLatch done = new CountDownLatch(100);
        for (int i = 0; i < 100; i++) {
            timer.schedule(task(() -> {
                ran.add(Thread.currentThread());
                done.countDown();
            }), 0);
        }
        done.await();
        boolean itsOwn = ran.stream().allMatch(t -> t.getName().equals("jdk-threads"));
        timer.cancel();
        line("timer: its threads",
                "running before any task: " + named + "; 100 tasks ran on " + ran.size()
                        + (itsOwn ? ", the timer's own" : ", not the timer's own"));
    }

    // I4: a task that runs long makes the next one wait? The first task
    // waits (at most 3 units) for the second to start: on one thread it
    // cannot, so the second starts after the first ends.
    static String longTaskFirst(java.util.function.BiConsumer<Runnable, Long> schedule) throws InterruptedException {
        CountDownLatch secondStarted = new CountDownLatch(1);
        AtomicBoolean firstEnded = new AtomicBoolean();
        AtomicBoolean secondAfter = new AtomicBoolean();
        CountDownLatch both = new CountDownLatch(2);
        long unit = ms(50);
        schedule.accept(() -> {
            try {
                secondStarted.await(3 * unit, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            firstEnded.set(true);
            both.countDown();
        }, unit);
        schedule.accept(() -> {
            secondAfter.set(firstEnded.get());
            secondStarted.countDown();
            both.countDown();
        }, 2 * unit);
        both.await();
        return secondAfter.get() ? "the second started after the first ended"
                : "the second started while the first ran";
    }

    static void timerLongTaskFirst() throws InterruptedException {
        Timer timer = new Timer();
        String what = longTaskFirst((body, delay) -> timer.schedule(task(body), delay));
        timer.cancel();
        line("timer: a task runs 3 units from 1, another is due at 2", what);
    }

    // 2. A task that throws kills the timer's thread; the timer then refuses
    // work, with the message of a cancelled timer.
    static void timerTaskThrows() throws InterruptedException {
        Timer timer = new Timer();
        CountDownLatch threw = new CountDownLatch(1);
        timer.schedule(task(() -> {
            threw.countDown();
            throw new RuntimeException("a task that throws, " + ON_PURPOSE);
        }), 0);
        threw.await();
        // The thread marks the timer dead on its way out, a moment after the
        // throw: a schedule in that moment is accepted and never runs. Try
        // again until the answer is "refused" or a task runs.
        String verdict = "accepted, never ran";
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms(5000));
        while (System.nanoTime() < deadline) {
            CountDownLatch ran = new CountDownLatch(1);
            verdict = tryToSchedule(() -> timer.schedule(task(ran::countDown), 0));
            if (!verdict.equals("accepted")) {
                break;
            }
            if (ran.await(ms(200), TimeUnit.MILLISECONDS)) {
                verdict = "accepted, and ran";
                break;
            }
            verdict = "accepted, never ran";
        }
        line("timer: schedule after a task threw", verdict);
        timer.cancel();
    }

    // 3a. A periodic task whose first run stalls for 3.5 periods. Fixed rate
    // keeps each run's due time on the grid first + k * period, so runs 1, 2
    // and 3 are due before a one-shot task due at first + 3.5 periods; fixed
    // delay counts from the start of the last run, so only run 1 (due a
    // period after the stalled run started) is. The timer runs its queue in
    // deadline order, so the count is exact. (Fixed delay's assumes the
    // first run started within 2.5 periods of its due time.)
    static void timerStall() throws InterruptedException {
        for (boolean fixedRate : new boolean[] {true, false}) {
            long period = ms(100);
            Timer timer = new Timer();
            AtomicInteger runs = new AtomicInteger();
            CountDownLatch stalled = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            TimerTask periodic = task(() -> {
                if (runs.incrementAndGet() == 1) {
                    stalled.countDown();
                    await(release);
                }
            });
            Date first = new Date(System.currentTimeMillis());
            if (fixedRate) {
                timer.scheduleAtFixedRate(periodic, first, period);
            } else {
                timer.schedule(periodic, first, period);
            }
            stalled.await();
            AtomicInteger before = new AtomicInteger(-1);
            CountDownLatch sentinelRan = new CountDownLatch(1);
            timer.schedule(task(() -> {
                before.set(runs.get());
                sentinelRan.countDown();
            }), new Date(first.getTime() + period * 7 / 2));
            sleep(period * 7 / 2); // the stall: at least 3.5 periods
            release.countDown();
            sentinelRan.await();
            timer.cancel();
            line("timer: " + (fixedRate ? "fixed rate" : "fixed delay") + ", the first run stalls 3.5 periods",
                    runs(before.get()) + " before a task due at 3.5 periods");
        }
    }

    // 3b. A periodic task whose first run was due 4.5 periods ago. Fixed
    // rate runs the 5 runs due since then, back to back, before a task due
    // now; fixed delay runs once, and its next run is a period away.
    static void timerPastStart() throws InterruptedException {
        for (boolean fixedRate : new boolean[] {true, false}) {
            long period = ms(1000);
            Timer timer = new Timer();
            AtomicInteger runs = new AtomicInteger();
            long now = System.currentTimeMillis();
            Date first = new Date(now - period * 9 / 2);
            TimerTask periodic = task(runs::incrementAndGet);
            if (fixedRate) {
                timer.scheduleAtFixedRate(periodic, first, period);
            } else {
                timer.schedule(periodic, first, period);
            }
            AtomicInteger before = new AtomicInteger(-1);
            CountDownLatch sentinelRan = new CountDownLatch(1);
            timer.schedule(task(() -> {
                before.set(runs.get());
                sentinelRan.countDown();
            }), new Date(now));
            sentinelRan.await();
            timer.cancel();
            line("timer: " + (fixedRate ? "fixed rate" : "fixed delay") + ", the first run due 4.5 periods ago",
                    runs(before.get()) + " before a task due now");
        }
    }

    // 3c. Fixed delay on a Timer counts the period from the start of a run:
    // a run 2 periods long is followed at once by the next, which is due a
    // period after it started, before a task due at 2 periods. (This
    // assumes the first run started within a period of its due time.)
    static void timerFixedDelayFrom() throws InterruptedException {
        long period = ms(100);
        Timer timer = new Timer();
        AtomicInteger runs = new AtomicInteger();
        Date first = new Date(System.currentTimeMillis());
        timer.schedule(task(() -> {
            if (runs.incrementAndGet() == 1) {
                sleep(period * 2);
            }
        }), first, period);
        AtomicInteger before = new AtomicInteger(-1);
        CountDownLatch sentinelRan = new CountDownLatch(1);
        timer.schedule(task(() -> {
            before.set(runs.get());
            sentinelRan.countDown();
        }), new Date(first.getTime() + period * 2));
        sentinelRan.await();
        timer.cancel();
        line("timer: fixed delay, the first run 2 periods long", fromStartOrEnd(before.get()));
    }

    /** 2 runs before the task due at 2 periods: from the start; 1: the end. */
    static String fromStartOrEnd(int before) {
        String rule = before == 2 ? ": the period counts from a run's start"
                : before == 1 ? ": the period counts from a run's end" : "";
        return runs(before) + " before a task due at 2 periods" + rule;
    }

    // 4. purge() returns how many cancelled tasks it removed. The head (the
    // earliest task) is not among them: the timer thread itself drops a
    // cancelled head whenever it looks at the queue, so cancelling it would
    // make the count depend on whether the thread looked before purge() did.
    static void timerPurge() {
        Timer timer = new Timer();
        TimerTask[] tasks = new TimerTask[5];
        for (int i = 0; i < tasks.length; i++) {
            tasks[i] = task(() -> {});
            timer.schedule(tasks[i], ms(3_600_000) + i);
        }
        for (int i = 1; i <= 3; i++) {
            tasks[i].cancel();
        }
        line("timer: purge after 3 of 5 cancelled, not the head", "removed " + timer.purge());
        timer.cancel();
    }

    // ------------------------------------------------------ ThreadPoolExecutor

    static Runnable waitFor(CountDownLatch gate) {
        return () -> await(gate);
    }

    // 5. Core 2, maximum 4, 8 tasks that block: an unbounded queue takes
    // every task past the core, so the pool never grows; a bounded one
    // fills, then the pool grows to its maximum, then it rejects.
    static void poolGrowth() throws InterruptedException {
        for (boolean bounded : new boolean[] {false, true}) {
            ThreadPoolExecutor pool = new ThreadPoolExecutor(2, 4, 1, TimeUnit.SECONDS,
                    bounded ? new ArrayBlockingQueue<>(2) : new LinkedBlockingQueue<>());
            CountDownLatch gate = new CountDownLatch(1);
            int rejected = 0;
            for (int i = 0; i < 8; i++) {
                try {
                    pool.execute(waitFor(gate));
                } catch (RejectedExecutionException e) {
                    rejected++;
                }
            }
            line("pool: core 2, max 4, 8 blocking tasks, " + (bounded ? "queue of 2" : "unbounded queue"),
                    "largest pool " + pool.getLargestPoolSize() + ", rejected " + rejected);
            gate.countDown();
            pool.shutdown();
            pool.awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    // A worker whose task throws dies, and the pool starts another.
    static void poolWorkerReplaced() throws InterruptedException {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
        AtomicReference<Thread> first = new AtomicReference<>();
        AtomicReference<Thread> second = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        pool.execute(() -> {
            first.set(Thread.currentThread());
            throw new RuntimeException("a task that throws, " + ON_PURPOSE);
        });
        pool.execute(() -> {
            second.set(Thread.currentThread());
            done.countDown();
        });
        done.await();
        line("pool: 1 thread, a task throws, then another task",
                "the next task ran on " + (first.get() == second.get() ? "the same thread" : "a new thread"));
        pool.shutdown();
        pool.awaitTermination(5, TimeUnit.SECONDS);
    }

    // The before hook throws on every second call: its task is skipped, and
    // so is afterExecute, and the task still counts as completed (T17).
    static void poolBeforeHookThrows() throws InterruptedException {
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger after = new AtomicInteger();
        AtomicInteger afterThrown = new AtomicInteger();
        AtomicInteger ran = new AtomicInteger();
        CountDownLatch gate = new CountDownLatch(1);
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>()) {
            @Override
            protected void beforeExecute(Thread t, Runnable r) {
                if (calls.incrementAndGet() % 2 == 0) {
                    throw new RuntimeException("a before hook that throws, " + ON_PURPOSE);
                }
            }

            @Override
            protected void afterExecute(Runnable r, Throwable t) {
                after.incrementAndGet();
                if (t != null) {
                    afterThrown.incrementAndGet();
                }
            }
        };
        for (int i = 0; i < 10; i++) {
            pool.execute(() -> {
                try {
                    gate.await();
                } catch (InterruptedException e) {
                    return;
                }
                ran.incrementAndGet();
            });
        }
        gate.countDown();
        pool.shutdown();
        pool.awaitTermination(10, TimeUnit.SECONDS);
        line("pool: 10 tasks, the before hook throws on every second call",
                ran.get() + " ran, the after hook called " + after.get() + " times (" + afterThrown.get()
                        + " with a throw), " + pool.getCompletedTaskCount() + " completed");
    }

    // 6. A full pool (1 thread busy, a queue of 1 full) offered one more
    // task, under each rejection policy: what happens to it, and to the
    // queued one? Then a task offered after shutdown, under each policy.
    static final String[] POLICY_NAMES = {"abort", "caller runs", "discard", "discard oldest"};

    static RejectedExecutionHandler policy(int i) {
        switch (i) {
            case 0:
                return new ThreadPoolExecutor.AbortPolicy();
            case 1:
                return new ThreadPoolExecutor.CallerRunsPolicy();
            case 2:
                return new ThreadPoolExecutor.DiscardPolicy();
            default:
                return new ThreadPoolExecutor.DiscardOldestPolicy();
        }
    }

    static void rejectedWhenFull() throws InterruptedException {
        for (int i = 0; i < POLICY_NAMES.length; i++) {
            ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS,
                    new ArrayBlockingQueue<>(1), policy(i));
            CountDownLatch gate = occupy(pool);
            AtomicInteger queuedRan = new AtomicInteger();
            AtomicInteger newRan = new AtomicInteger();
            pool.execute(queuedRan::incrementAndGet);
            String offer;
            try {
                pool.execute(newRan::incrementAndGet);
                offer = newRan.get() == 1 ? "ran on the caller" : "returned normally";
            } catch (RejectedExecutionException e) {
                offer = "refused to the caller";
            }
            gate.countDown();
            pool.shutdown();
            pool.awaitTermination(5, TimeUnit.SECONDS);
            line("pool: full, one more task, policy " + POLICY_NAMES[i],
                    offer + "; then the queued task ran " + queuedRan.get() + ", the new one " + newRan.get());
        }
    }

    static void rejectedAfterShutdown() {
        for (int i = 0; i < POLICY_NAMES.length; i++) {
            ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS,
                    new LinkedBlockingQueue<>(), policy(i));
            pool.shutdown();
            AtomicInteger ran = new AtomicInteger();
            String what;
            try {
                pool.execute(ran::incrementAndGet);
                what = ran.get() == 1 ? "ran on the caller" : "dropped without a word";
            } catch (RejectedExecutionException e) {
                what = "refused to the caller";
            }
            line("pool: execute after shutdown, policy " + POLICY_NAMES[i], what);
        }
    }

    // 7. shutdownNow() hands back what was queued, and none of it runs.
    static void shutdownNow() throws InterruptedException {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
        CountDownLatch gate = occupy(pool);
        AtomicInteger ran = new AtomicInteger();
        for (int i = 0; i < 3; i++) {
            pool.execute(ran::incrementAndGet);
        }
        int handedBack = pool.shutdownNow().size();
        gate.countDown();
        pool.awaitTermination(5, TimeUnit.SECONDS);
        line("pool: shutdown_now with 1 running and 3 queued", "handed back " + handedBack + ", ran " + ran.get());
    }

    // invokeAny of three on three threads: the first two wait to be
    // interrupted, the third returns once both have started. Its value
    // wins, and the two others, running, are interrupted.
    static void invokeAnyFirstWins() throws Exception {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(3, 3, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
        CountDownLatch started = new CountDownLatch(2);
        CountDownLatch interrupted = new CountDownLatch(2);
        List<Callable<String>> jobs = new ArrayList<>();
        for (String name : new String[] {"the first", "the second"}) {
            jobs.add(() -> {
                started.countDown();
                try {
                    Thread.sleep(ms(10_000));
                } catch (InterruptedException e) {
                    interrupted.countDown();
                }
                return name;
            });
        }
        jobs.add(() -> {
            started.await();
            return "the third";
        });
        String what;
        try {
            String value = pool.invokeAny(jobs);
            interrupted.await(ms(10_000), TimeUnit.MILLISECONDS);
            what = "returned " + value + "'s value; the other 2 interrupted: " + (2 - interrupted.getCount());
        } catch (ExecutionException e) {
            what = "failed: " + e;
        }
        line("pool: invoke_any of 3, the third returns once the other two run", what);
        pool.shutdown();
        pool.awaitTermination(5, TimeUnit.SECONDS);
    }

    // invokeAny where every job throws.
    static void invokeAnyAllThrow() throws Exception {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(3, 3, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
        List<Callable<Integer>> jobs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            jobs.add(() -> {
                throw new RuntimeException("a job that throws, " + ON_PURPOSE);
            });
        }
        String what;
        try {
            pool.invokeAny(jobs);
            what = "returned a value";
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            what = cause != null && cause.getMessage().contains(ON_PURPOSE)
                    ? "failed, with a job's throw as the cause"
                    : "failed: " + e;
        }
        line("pool: invoke_any of 3, every one throws", what);
        pool.shutdown();
        pool.awaitTermination(5, TimeUnit.SECONDS);
    }

    // remove(Runnable) of a queued task, then of the running one.
    static void poolRemove() throws InterruptedException {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch gate = new CountDownLatch(1);
        Runnable busy = () -> {
            started.countDown();
            await(gate);
        };
        pool.execute(busy);
        started.await();
        AtomicInteger ran = new AtomicInteger();
        List<Runnable> queued = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Runnable task = ran::incrementAndGet;
            queued.add(task);
            pool.execute(task);
        }
        boolean second = pool.remove(queued.get(1));
        boolean running = pool.remove(busy);
        gate.countDown();
        pool.shutdown();
        pool.awaitTermination(5, TimeUnit.SECONDS);
        line("pool: 1 busy, 3 queued, remove the second, then the running one",
                "removed the second: " + second + ", the running one: " + running + "; then " + ran.get()
                        + " of the 3 ran");
    }

    // purge() after two of three queued jobs were cancelled.
    static void poolPurge() throws InterruptedException {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
        CountDownLatch gate = occupy(pool);
        AtomicInteger ran = new AtomicInteger();
        List<Future<?>> futures = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            futures.add(pool.submit(() -> {
                ran.incrementAndGet();
            }));
        }
        futures.get(0).cancel(false);
        futures.get(2).cancel(false);
        int before = pool.getQueue().size();
        pool.purge();
        int after = pool.getQueue().size();
        gate.countDown();
        pool.shutdown();
        pool.awaitTermination(5, TimeUnit.SECONDS);
        line("pool: 1 busy, 3 submitted, 2 of them cancelled, purge",
                "queued " + before + " before, " + after + " after; then " + ran.get() + " ran");
    }

    // --------------------------------------------- ScheduledThreadPoolExecutor

    static String yesNo(boolean b) {
        return b ? "yes" : "no";
    }

    // Core threads start one per task, not with the pool; the pool stays at
    // its core size.
    static void scheduledThreads() throws InterruptedException {
        ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(4);
        int built = pool.getPoolSize();
        pool.schedule(() -> {}, 0, TimeUnit.MILLISECONDS);
        int one = pool.getPoolSize();
        pool.schedule(() -> {}, 0, TimeUnit.MILLISECONDS);
        int two = pool.getPoolSize();
        CountDownLatch done = new CountDownLatch(100);
        for (int i = 0; i < 100; i++) {
            pool.schedule(done::countDown, 0, TimeUnit.MILLISECONDS);
        }
        done.await();
        int after = pool.getPoolSize();
        pool.shutdown();
        pool.awaitTermination(5, TimeUnit.SECONDS);
        line("scheduled pool: its threads, core 4",
                "once built " + built + "; after one task " + one + ", after two " + two
                        + "; after 100 more " + after);
    }

    static void scheduledLongTaskFirst() throws InterruptedException {
        ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(2);
        String what = longTaskFirst((body, delay) -> pool.schedule(body, delay, TimeUnit.MILLISECONDS));
        pool.shutdown();
        pool.awaitTermination(5, TimeUnit.SECONDS);
        line("scheduled pool, core 2: a task runs 3 units from 1, another is due at 2", what);
    }

    // 8. The shutdown policies' defaults, and what they do: a delayed
    // one-shot task still runs after shutdown; a periodic task is cancelled.
    static void scheduledShutdown() throws InterruptedException {
        ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(2);
        line("scheduled pool: the defaults",
                "delayed tasks run after shutdown: " + yesNo(pool.getExecuteExistingDelayedTasksAfterShutdownPolicy())
                        + "; periodic tasks go on after shutdown: "
                        + yesNo(pool.getContinueExistingPeriodicTasksAfterShutdownPolicy()));
        AtomicInteger oneShot = new AtomicInteger();
        pool.schedule(oneShot::incrementAndGet, ms(50), TimeUnit.MILLISECONDS);
        CountDownLatch ranOnce = new CountDownLatch(1);
        ScheduledFuture<?> periodic = pool.scheduleAtFixedRate(ranOnce::countDown, 0, ms(10), TimeUnit.MILLISECONDS);
        ranOnce.await();
        pool.shutdown();
        pool.awaitTermination(5, TimeUnit.SECONDS);
        line("scheduled pool: a delayed task, then shutdown", oneShot.get() == 1 ? "ran" : "did not run");
        line("scheduled pool: a periodic task, then shutdown", periodic.isCancelled() ? "cancelled" : "not cancelled");
    }

    // A cancelled task stays in the queue until its time (remove-on-cancel
    // is off by default).
    static void scheduledRemoveOnCancel() throws InterruptedException {
        ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(1);
        ScheduledFuture<?> far = pool.schedule(() -> {}, 1, TimeUnit.HOURS);
        far.cancel(false);
        line("scheduled pool: cancel a task due in an hour",
                "the queue then holds " + pool.getQueue().size() + " (remove on cancel: "
                        + yesNo(pool.getRemoveOnCancelPolicy()) + ")");
        pool.shutdownNow();
        pool.awaitTermination(5, TimeUnit.SECONDS);
    }

    // 9. A periodic task that throws on its third run stops there, and
    // get() fails with the cause.
    static void periodicThrows() throws InterruptedException {
        ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(2);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> f = pool.scheduleAtFixedRate(() -> {
            if (runs.incrementAndGet() == 3) {
                throw new RuntimeException("the third run fails, " + ON_PURPOSE);
            }
        }, 0, ms(5), TimeUnit.MILLISECONDS);
        String got;
        try {
            f.get();
            got = "returned";
        } catch (ExecutionException e) {
            got = e.getCause().getMessage().contains(ON_PURPOSE) ? "failed with its cause" : "failed";
        }
        line("scheduled pool: a periodic task fails on its third run",
                "stopped after " + runs.get() + " runs; get: " + got);
        pool.shutdown();
        pool.awaitTermination(5, TimeUnit.SECONDS);
    }

    // 10. A fixed-rate task whose runs outlast its period never overlaps
    // itself, however many threads wait.
    static void fixedRateNeverOverlaps() throws InterruptedException {
        ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(4);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch fiveRuns = new CountDownLatch(5);
        ScheduledFuture<?> f = pool.scheduleAtFixedRate(() -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            sleep(ms(20)); // the run's work: 4 periods
            running.decrementAndGet();
            fiveRuns.countDown();
        }, 0, ms(5), TimeUnit.MILLISECONDS);
        fiveRuns.await();
        f.cancel(false);
        pool.shutdown();
        pool.awaitTermination(5, TimeUnit.SECONDS);
        line("scheduled pool: fixed rate, runs 4 periods long, 4 threads",
                "at most " + most.get() + " run at a time");
    }

    // Fixed delay on the scheduled pool counts from the end of a run: with
    // a first run 2 periods long, the next is due a period after it ended,
    // after a task due at 2 periods. (The Timer's counts from its start.)
    static void scheduledFixedDelayFrom() throws InterruptedException {
        long period = ms(100);
        ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(1);
        AtomicInteger runs = new AtomicInteger();
        long first = System.nanoTime();
        pool.scheduleWithFixedDelay(() -> {
            if (runs.incrementAndGet() == 1) {
                sleep(period * 2);
            }
        }, 0, period, TimeUnit.MILLISECONDS);
        AtomicInteger before = new AtomicInteger(-1);
        CountDownLatch sentinelRan = new CountDownLatch(1);
        long sentinelDue = first + TimeUnit.MILLISECONDS.toNanos(period * 2);
        pool.schedule(() -> {
            before.set(runs.get());
            sentinelRan.countDown();
        }, sentinelDue - System.nanoTime(), TimeUnit.NANOSECONDS);
        sentinelRan.await();
        pool.shutdownNow();
        pool.awaitTermination(5, TimeUnit.SECONDS);
        line("scheduled pool: fixed delay, the first run 2 periods long, 1 thread", fromStartOrEnd(before.get()));
    }

    // ------------------------------------------------------------------ main

    interface Scenario {
        void run() throws Exception;
    }

    /** Every scenario, by the name both sides give it, in the order run. */
    static Map<String, Scenario> scenarios() {
        Map<String, Scenario> all = new LinkedHashMap<>();
        all.put("timer-cancel", SideBySide::timerCancel);
        all.put("timer-task-throws", SideBySide::timerTaskThrows);
        all.put("timer-stall", SideBySide::timerStall);
        all.put("timer-past-start", SideBySide::timerPastStart);
        all.put("timer-fixed-delay-from", SideBySide::timerFixedDelayFrom);
        all.put("timer-purge", SideBySide::timerPurge);
        all.put("timer-threads", SideBySide::timerThreads);
        all.put("timer-long-task-first", SideBySide::timerLongTaskFirst);
        all.put("pool-growth", SideBySide::poolGrowth);
        all.put("pool-worker-replaced", SideBySide::poolWorkerReplaced);
        all.put("pool-before-hook-throws", SideBySide::poolBeforeHookThrows);
        all.put("pool-rejected-when-full", SideBySide::rejectedWhenFull);
        all.put("pool-rejected-after-shutdown", SideBySide::rejectedAfterShutdown);
        all.put("pool-shutdown-now", SideBySide::shutdownNow);
        all.put("pool-invoke-any", SideBySide::invokeAnyFirstWins);
        all.put("pool-invoke-any-all-throw", SideBySide::invokeAnyAllThrow);
        all.put("pool-remove", SideBySide::poolRemove);
        all.put("pool-purge", SideBySide::poolPurge);
        all.put("scheduled-threads", SideBySide::scheduledThreads);
        all.put("scheduled-long-task-first", SideBySide::scheduledLongTaskFirst);
        all.put("scheduled-shutdown", SideBySide::scheduledShutdown);
        all.put("scheduled-remove-on-cancel", SideBySide::scheduledRemoveOnCancel);
        all.put("scheduled-periodic-throws", SideBySide::periodicThrows);
        all.put("scheduled-fixed-rate-no-overlap", SideBySide::fixedRateNeverOverlaps);
        all.put("scheduled-fixed-delay-from", SideBySide::scheduledFixedDelayFrom);
        return all;
    }

    public static void main(String[] args) throws Exception {
        // The exceptions thrown on purpose kill threads, whose default
        // handler would print their stack traces: keep those quiet, and
        // print anything else.
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> {
            if (e.getMessage() == null || !e.getMessage().contains(ON_PURPOSE)) {
                System.err.print("Exception in thread \"" + thread.getName() + "\" ");
                e.printStackTrace();
            }
        });
        Map<String, Scenario> all = scenarios();
        if (args.length == 1 && args[0].equals("--list")) {
            all.keySet().forEach(System.out::println);
            return;
        }
        line("jdk", System.getProperty("java.specification.version"));
        for (String name : args.length == 0 ? all.keySet().toArray(new String[0]) : args) {
            Scenario scenario = all.get(name);
            if (scenario == null) {
                System.err.println("no scenario " + name + "; the scenarios: " + all.keySet());
                System.exit(2);
            }
            scenario.run();
        }
    }
}
