//! A PostgreSQL database of a test's own (feature `postgres`).
//!
//! The tests of one test binary share one throwaway server
//! ([`kit::pg::Server::shared`]: `initdb` and a start, a second or two, once
//! per binary). Each test gets a schema of its own on it, and its nodes
//! connect with that schema as their `search_path`, so the statements name
//! `jobs`, not `t_3.jobs`. A schema, not a database: `CREATE SCHEMA` takes
//! about a millisecond, `CREATE DATABASE` (a copy of a template database)
//! a few hundred on the same machine, in every test.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use durable_timer::Store;
use durable_timer::postgres::PgStore;
use kit::pg::Server;

/// A test's schema on a server, and the server, kept up while it lives.
pub struct Database {
    server: Arc<Server>,
    url: String,
}

/// A fresh schema on the server this test binary shares.
///
/// # Panics
/// If there is no server to be had: no PostgreSQL installation (the
/// message says how to install one) or a server that would not start. A
/// test on PostgreSQL fails then; it never passes without a server.
pub fn database() -> Database {
    let server = Server::shared().unwrap_or_else(|e| panic!("{e}"));
    Database::on(server)
}

impl Database {
    /// A fresh schema on `server` (a test that stops and starts its server
    /// has one of its own).
    ///
    /// # Panics
    /// If the server does not take the schema.
    pub fn on(server: Arc<Server>) -> Database {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        let schema = format!("t_{}", NEXT.fetch_add(1, Ordering::Relaxed));
        let admin = server.url("postgres");
        let mut store = PgStore::connect(&admin).unwrap_or_else(|e| panic!("{admin}: {e}"));
        store
            .execute(&format!("CREATE SCHEMA {schema}"), &[])
            .unwrap_or_else(|e| panic!("CREATE SCHEMA {schema}: {e}"));
        let url = format!("{admin}?options=-c%20search_path%3D{schema}");
        Database { server, url }
    }

    /// The URL a node connects with: the server's socket, and this test's
    /// schema as the `search_path`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The server, to stop and start it.
    pub fn server(&self) -> &Server {
        &self.server
    }
}
