//! TODO(helper): semaphore
