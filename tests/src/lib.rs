//! The cross-stage suite.
