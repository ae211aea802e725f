//! [`Store`](crate::store::Store) on PostgreSQL (feature `postgres`).
