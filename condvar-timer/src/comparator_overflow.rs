//! TODO(helper): comparator_overflow
