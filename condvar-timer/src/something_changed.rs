//! TODO(helper): something_changed
