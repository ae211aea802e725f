//! Glue for solutions that their stage builds differently from the
//! skeleton: the skeleton's constructor, written with the stage's builder.

/// Exercise T7's solution: the stage's `ThreadPool`, one worker, started.
pub mod t7_recheck {
    pub use threadpool_executor::ThreadPool;

    /// A running pool of one worker, its thread named after `prefix`.
    ///
    /// # Panics
    /// If the pool cannot be built or its worker started.
    pub fn fixed_pool(prefix: &str) -> ThreadPool {
        let pool = ThreadPool::builder()
            .core_pool_size(1)
            .maximum_pool_size(1)
            .thread_factory(threadpool_executor::factory::NamedThreads::with_prefix(
                prefix,
            ))
            .build()
            .expect("a valid configuration");
        assert!(pool.prestart_core_thread(), "start the worker");
        pool
    }
}
