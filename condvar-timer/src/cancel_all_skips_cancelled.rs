//! TODO(helper): cancel_all_skips_cancelled
