//! TODO(helper): racy
