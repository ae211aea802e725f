//! Stage 1.
