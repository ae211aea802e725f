//! TODO(helper): timer_style
