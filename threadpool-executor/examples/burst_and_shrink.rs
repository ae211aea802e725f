//! T5 as worker timelines from a real run: a pool of core 2 and maximum 4
//! grows during a burst, then shrinks back to exactly its core size.
//!
//! The pool has a bounded queue of 2 and a keep-alive of 200 ms. Its two
//! core threads are started first and wait. At 50 ms a burst of six
//! tasks arrives, one every 2 ms, each holding its worker for 100 ms
//! (it sleeps). Two idle core workers take the first two tasks, the next
//! two wait in the queue, and the queue refuses the last two: `execute`
//! starts a third and a fourth worker for them (its step 3). After the
//! burst the pool is idle. A worker that waits a whole keep-alive for a
//! task while the pool is above core size leaves; which two leave is
//! whichever two time out first, not "the two that were added".
//!
//! Each worker is a lane, sampled from its CPU clock (kit::timeline): a
//! bar while it runs a task, a thin line while it waits, nothing before it
//! was started or after it left. Below the chart, the pool's size over
//! time, as `pool_size()` answered it.
//!
//! ```text
//! cargo run -p threadpool-executor --example burst_and_shrink
//! cargo run -p threadpool-executor --example burst_and_shrink -- \
//!     --text book/src/generated/t5-burst-and-shrink.txt \
//!     --svg book/src/generated/t5-burst-and-shrink.svg
//! ```

use std::error::Error;
use std::time::Duration;

use kit::timeline::{Chart, Lane, Mark, Sampler};
use kit::{Recorder, ms};
use threadpool_executor::ThreadPool;
use threadpool_executor::factory::NamedThreads;
use threadpool_executor::queue::TaskQueue;

const CORE: usize = 2;
const MAXIMUM: usize = 4;
const QUEUE: usize = 2;
const KEEP_ALIVE_MS: u64 = 200;
const BURST_AT_MS: u64 = 50;
const TASKS: u64 = 6;
const EVERY_MS: u64 = 2;
const TASK_MS: u64 = 100;
const END_MS: u64 = 700;
const PREFIX: &str = "t5b-";

fn main() -> Result<(), Box<dyn Error>> {
    let outputs = kit::timeline::Outputs::from_args()?;
    let tick = ms(5);
    let rec = Recorder::new();
    let pool = ThreadPool::builder()
        .core_pool_size(CORE)
        .maximum_pool_size(MAXIMUM)
        .keep_alive(ms(KEEP_ALIVE_MS))
        .queue(TaskQueue::bounded(QUEUE)?)
        .thread_factory(NamedThreads::with_prefix(PREFIX))
        .build()?;
    let names: Vec<String> = (1..=MAXIMUM).map(|i| format!("{PREFIX}{i}")).collect();
    let mut samplers = Vec::new();
    pool.prestart_all_core_threads();

    // The pool's size, each time it changes; and a sampler for each worker
    // as soon as it exists.
    let mut sizes: Vec<(Duration, usize)> = Vec::new();
    let mut rejected = 0;
    let mut k = 0;
    while rec.elapsed() < ms(END_MS) {
        if k < TASKS && rec.elapsed() >= ms(BURST_AT_MS + k * EVERY_MS) {
            k += 1;
            let r = rec.clone();
            let label = format!("task {k}");
            let task = move || {
                r.record(format!("{label} start"));
                std::thread::sleep(ms(TASK_MS));
                r.record(format!("{label} end"));
            };
            if pool.execute(task).is_err() {
                rejected += 1;
            }
        }
        let size = pool.pool_size();
        if sizes.last().is_none_or(|&(_, last)| last != size) {
            sizes.push((rec.elapsed(), size));
        }
        while samplers.len() < size.min(MAXIMUM) {
            samplers.push(Sampler::start(&names[samplers.len()], &rec, tick)?);
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let largest = pool.largest_pool_size();
    let samples: Vec<_> = samplers.into_iter().map(Sampler::finish).collect();
    drop(pool);

    let events = rec.events();
    let mut lanes = Vec::new();
    let mut left = Vec::new();
    for (name, samples) in names.iter().zip(samples) {
        let mut lane = Lane::from_events(name.as_str(), name, samples, &events);
        let end = lane.samples.last().map(|s| s.to).unwrap_or_default();
        lane.marks = vec![Mark {
            at: ms(BURST_AT_MS),
            label: "burst".into(),
        }];
        if end + tick * 2 < ms(END_MS) {
            lane.marks.push(Mark {
                at: end,
                label: "left".into(),
            });
            left.push(format!("{name} at {} ms", end.as_millis()));
        }
        lanes.push(lane);
    }
    let chart = Chart {
        tick,
        unit: Duration::from_millis(1),
        unit_name: "ms".into(),
        lanes,
    };
    let mut text = chart.text();
    let changes: Vec<String> = sizes
        .iter()
        .map(|(at, size)| format!("{size} at {} ms", at.as_millis()))
        .collect();
    text += &format!(
        "\ncore {CORE}, maximum {MAXIMUM}, a bounded queue of {QUEUE}, keep-alive \
         {KEEP_ALIVE_MS} ms;\n{TASKS} tasks of {TASK_MS} ms from {BURST_AT_MS} ms, one every \
         {EVERY_MS} ms ({rejected} rejected)\n\
         pool size: {}\n\
         largest pool size: {largest}; left: {}\n",
        changes.join(", "),
        if left.is_empty() {
            "none".to_owned()
        } else {
            left.join(", ")
        }
    );
    outputs.write(&text, || chart.svg())?;
    Ok(())
}
