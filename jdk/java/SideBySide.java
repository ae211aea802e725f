// The JDK's side of `cargo xtask jdk`: each scenario prints one line,
// "<scenario> | <what happened>", in words the Rust side prints too.
// Counts and orders only, never a time: a loaded machine cannot change them.
// Written for this project; run with `cargo xtask jdk`.

import java.util.Timer;
import java.util.TimerTask;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

public class SideBySide {
    static final long FAR_MS = 3_600_000;

    static void line(String scenario, String what) {
        System.out.println(scenario + " | " + what);
    }

    static TimerTask task(Runnable body) {
        return new TimerTask() {
            public void run() {
                body.run();
            }
        };
    }

    // Timer.cancel() discards the queue, and a later schedule is refused.
    static void timerCancel() {
        Timer timer = new Timer();
        timer.schedule(task(() -> {}), FAR_MS);
        timer.cancel();
        try {
            timer.schedule(task(() -> {}), 10);
            line("timer: schedule after cancel", "accepted");
        } catch (IllegalStateException e) {
            line("timer: schedule after cancel", "refused");
            line("timer: the refusal's message", e.getMessage());
        }
    }

    // A task that throws: does the timer take more tasks?
    static void timerTaskThrows() throws InterruptedException {
        Timer timer = new Timer();
        CountDownLatch threw = new CountDownLatch(1);
        timer.schedule(task(() -> {
            threw.countDown();
            throw new RuntimeException("a task that throws, on purpose");
        }), 0);
        threw.await();
        // The thread dies after the throw; wait for that, with a deadline.
        String verdict = "accepted, and ran";
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadline) {
            try {
                CountDownLatch ran = new CountDownLatch(1);
                timer.schedule(task(ran::countDown), 0);
                if (ran.await(200, TimeUnit.MILLISECONDS)) {
                    verdict = "accepted, and ran";
                    break;
                }
                verdict = "accepted, never ran";
            } catch (IllegalStateException e) {
                verdict = "refused";
                break;
            }
        }
        line("timer: schedule after a task threw", verdict);
        timer.cancel();
    }

    // purge() counts the cancelled tasks it removes. The head (the earliest
    // task) is not among them: the timer thread itself drops a cancelled
    // head whenever it looks at the queue, so cancelling it would make the
    // count depend on whether the thread looked before purge() did.
    static void timerPurge() {
        Timer timer = new Timer();
        TimerTask[] tasks = new TimerTask[5];
        for (int i = 0; i < tasks.length; i++) {
            tasks[i] = task(() -> {});
            timer.schedule(tasks[i], FAR_MS + i);
        }
        for (int i = 1; i <= 3; i++) {
            tasks[i].cancel();
        }
        line("timer: purge after 3 of 5 cancelled, not the head", "removed " + timer.purge());
        timer.cancel();
    }

    // Core 2, maximum 4, 8 tasks that block: how many threads?
    static void poolGrowth(boolean bounded) throws InterruptedException {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(2, 4, 1, TimeUnit.SECONDS,
                bounded ? new ArrayBlockingQueue<>(2) : new LinkedBlockingQueue<>());
        CountDownLatch gate = new CountDownLatch(1);
        int rejected = 0;
        for (int i = 0; i < 8; i++) {
            try {
                pool.execute(() -> {
                    try {
                        gate.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
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

    // shutdownNow() hands back what was queued.
    static void shutdownNow() throws InterruptedException {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch gate = new CountDownLatch(1);
        pool.execute(() -> {
            started.countDown();
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        started.await();
        AtomicInteger ran = new AtomicInteger();
        for (int i = 0; i < 3; i++) {
            pool.execute(ran::incrementAndGet);
        }
        int handedBack = pool.shutdownNow().size();
        pool.awaitTermination(5, TimeUnit.SECONDS);
        line("pool: shutdown_now with 1 running and 3 queued", "handed back " + handedBack + ", ran " + ran.get());
    }

    // A task offered after shutdown, under each rejection policy.
    static void rejectedAfterShutdown() {
        String[] names = {"abort", "caller runs", "discard", "discard oldest"};
        ThreadPoolExecutor.AbortPolicy abort = new ThreadPoolExecutor.AbortPolicy();
        java.util.concurrent.RejectedExecutionHandler[] policies = {
            abort,
            new ThreadPoolExecutor.CallerRunsPolicy(),
            new ThreadPoolExecutor.DiscardPolicy(),
            new ThreadPoolExecutor.DiscardOldestPolicy(),
        };
        for (int i = 0; i < policies.length; i++) {
            ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS,
                    new LinkedBlockingQueue<>(), policies[i]);
            pool.shutdown();
            AtomicInteger ran = new AtomicInteger();
            String what;
            try {
                pool.execute(ran::incrementAndGet);
                what = ran.get() == 1 ? "ran on the caller" : "dropped without a word";
            } catch (RejectedExecutionException e) {
                what = "refused to the caller";
            }
            line("pool: execute after shutdown, policy " + names[i], what);
        }
    }

    // A full pool (1 thread busy, a queue of 1 full) offered one more task,
    // under each rejection policy: what happens to it, and to the queued one?
    static void rejectedWhenFull() throws InterruptedException {
        String[] names = {"abort", "caller runs", "discard", "discard oldest"};
        java.util.concurrent.RejectedExecutionHandler[] policies = {
            new ThreadPoolExecutor.AbortPolicy(),
            new ThreadPoolExecutor.CallerRunsPolicy(),
            new ThreadPoolExecutor.DiscardPolicy(),
            new ThreadPoolExecutor.DiscardOldestPolicy(),
        };
        for (int i = 0; i < policies.length; i++) {
            ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS,
                    new ArrayBlockingQueue<>(1), policies[i]);
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch gate = new CountDownLatch(1);
            pool.execute(() -> {
                started.countDown();
                try {
                    gate.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            started.await();
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
            line("pool: full, one more task, policy " + names[i],
                    offer + "; then the queued task ran " + queuedRan.get() + ", the new one " + newRan.get());
        }
    }

    // The scheduled pool's shutdown defaults: a delayed one-shot task still
    // runs; a periodic task is cancelled.
    static void scheduledShutdown() throws Exception {
        ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(2);
        AtomicInteger oneShot = new AtomicInteger();
        pool.schedule(oneShot::incrementAndGet, 50, TimeUnit.MILLISECONDS);
        CountDownLatch ranOnce = new CountDownLatch(1);
        ScheduledFuture<?> periodic = pool.scheduleAtFixedRate(ranOnce::countDown, 0, 10, TimeUnit.MILLISECONDS);
        ranOnce.await();
        pool.shutdown();
        pool.awaitTermination(5, TimeUnit.SECONDS);
        line("scheduled pool: a delayed task, then shutdown", oneShot.get() == 1 ? "ran" : "did not run");
        line("scheduled pool: a periodic task, then shutdown", periodic.isCancelled() ? "cancelled" : "not cancelled");
    }

    // A periodic task that throws on its third run stops, and get() fails
    // with the cause.
    static void periodicThrows() throws Exception {
        ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(2);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> f = pool.scheduleAtFixedRate(() -> {
            if (runs.incrementAndGet() == 3) {
                throw new RuntimeException("the third run fails, on purpose");
            }
        }, 0, 5, TimeUnit.MILLISECONDS);
        String got;
        try {
            f.get();
            got = "returned";
        } catch (ExecutionException e) {
            got = e.getCause().getMessage().contains("on purpose") ? "failed with its cause" : "failed";
        }
        line("scheduled pool: a periodic task fails on its third run", "stopped after " + runs.get() + " runs; get: " + got);
        pool.shutdown();
        pool.awaitTermination(5, TimeUnit.SECONDS);
    }

    // A fixed-rate task whose runs outlast its period never overlaps itself.
    static void fixedRateNeverOverlaps() throws Exception {
        ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(4);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch fiveRuns = new CountDownLatch(5);
        ScheduledFuture<?> f = pool.scheduleAtFixedRate(() -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            running.decrementAndGet();
            fiveRuns.countDown();
        }, 0, 5, TimeUnit.MILLISECONDS);
        fiveRuns.await();
        f.cancel(false);
        pool.shutdown();
        pool.awaitTermination(5, TimeUnit.SECONDS);
        line("scheduled pool: fixed rate 5 ms, runs of 20 ms, 4 threads", "at most " + most.get() + " run at a time");
    }

    public static void main(String[] args) throws Exception {
        timerCancel();
        timerTaskThrows();
        timerPurge();
        poolGrowth(false);
        poolGrowth(true);
        shutdownNow();
        rejectedWhenFull();
        rejectedAfterShutdown();
        scheduledShutdown();
        periodicThrows();
        fixedRateNeverOverlaps();
    }
}
