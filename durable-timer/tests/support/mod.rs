//! What the stage's tests share: a `World` (a store of the test's own,
//! SQLite in a temporary file or a PostgreSQL schema, with the store's
//! clock and the nodes' clocks set by the test), nodes of any version on
//! it, and the counts every check reads: deliveries and effects of one
//! occurrence.
//!
//! Time in a world starts at 0 ms and moves only when the test says
//! ([`World::advance`]): the store's clock (its `store_clock` row) and
//! every node's manual clock move together. Nothing sleeps to pass time.
#![allow(dead_code)]

pub mod child;
#[cfg(feature = "postgres")]
pub mod postgres;

use std::cell::RefCell;
use std::fmt;
use std::path::{Path, PathBuf};

use durable_timer::clock::{set_store_time, store_time};
use durable_timer::{Clock, Jobs, ManualTime, Millis, Node, SqliteStore, Store, Variant, schema};

/// How long a test node's claim holds a job: a second of the world's time.
pub const TEST_LEASE: Millis = 1000;

/// Which database a world is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// A SQLite file in a temporary directory.
    Sqlite,
    /// A schema of the test's own on a throwaway PostgreSQL server.
    #[cfg(feature = "postgres")]
    Postgres,
}

/// Where the world's store is.
enum Place {
    Sqlite {
        _dir: tempfile::TempDir,
        path: PathBuf,
    },
    #[cfg(feature = "postgres")]
    Postgres(postgres::Database),
}

/// A store of the test's own, its clocks, and a connection for the test.
pub struct World {
    place: Place,
    time: ManualTime,
    admin: RefCell<Box<dyn Store>>,
}

/// One row of `deliveries` or `effects`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The node that wrote it.
    pub node: String,
    /// Its claim's fencing token.
    pub fence: i64,
    /// The store's time when it was written.
    pub at: Millis,
}

impl World {
    /// A world on `backend`, its tables made, its time at 0 ms.
    pub fn new(backend: Backend) -> World {
        let place = match backend {
            Backend::Sqlite => {
                let dir = tempfile::tempdir().expect("a temporary directory");
                let path = dir.path().join("jobs.sqlite");
                Place::Sqlite { _dir: dir, path }
            }
            #[cfg(feature = "postgres")]
            Backend::Postgres => Place::Postgres(postgres::database()),
        };
        let mut admin = connect(&place);
        schema::create(admin.as_mut()).expect("create the tables");
        set_store_time(admin.as_mut(), 0).expect("set the store's time");
        World {
            place,
            time: ManualTime::new(0),
            admin: RefCell::new(admin),
        }
    }

    /// A world on SQLite.
    pub fn sqlite() -> World {
        World::new(Backend::Sqlite)
    }

    /// A new connection to the world's store.
    pub fn connect(&self) -> Box<dyn Store> {
        connect(&self.place)
    }

    /// The store's address, as a node in another process is given it: the
    /// SQLite file's path, or the PostgreSQL URL.
    pub fn address(&self) -> String {
        match &self.place {
            Place::Sqlite { path, .. } => path.display().to_string(),
            #[cfg(feature = "postgres")]
            Place::Postgres(db) => db.url().to_owned(),
        }
    }

    /// The SQLite file, if the world is on SQLite.
    pub fn sqlite_path(&self) -> Option<&Path> {
        match &self.place {
            Place::Sqlite { path, .. } => Some(path),
            #[cfg(feature = "postgres")]
            Place::Postgres(_) => None,
        }
    }

    /// The user's API, on a connection of its own.
    pub fn jobs(&self) -> Jobs {
        Jobs::new(self.connect()).expect("the API on the world's store")
    }

    /// A node named `name` running `variant`, on a connection of its own,
    /// on the world's manual clock, with a lease of [`TEST_LEASE`].
    pub fn node(&self, name: &str, variant: Variant) -> Node {
        Node::new(self.connect(), name)
            .variant(variant)
            .clock(Clock::manual(&self.time))
            .lease(TEST_LEASE)
    }

    /// The same, on a clock `skew` ms ahead of the world's.
    pub fn skewed_node(&self, name: &str, variant: Variant, skew: Millis) -> Node {
        self.node(name, variant)
            .clock(Clock::manual(&self.time).skewed(skew))
    }

    /// The world's time (the store's, and the nodes' clocks without skew).
    pub fn now(&self) -> Millis {
        self.time.now()
    }

    /// Moves the world's time on by `ms`.
    pub fn advance(&self, ms: Millis) {
        self.set_time(self.now() + ms);
    }

    /// Moves the world's time to `at`: the store's clock and the nodes'.
    pub fn set_time(&self, at: Millis) {
        self.time.set(at);
        let mut admin = self.admin.borrow_mut();
        set_store_time(admin.as_mut(), at).expect("set the store's time");
        assert_eq!(store_time(admin.as_mut()), Ok(at), "the store's time");
    }

    /// The deliveries of `job`'s occurrence at `occurrence`, in order.
    pub fn deliveries(&self, job: &str, occurrence: Millis) -> Vec<Record> {
        self.records("deliveries", job, occurrence)
    }

    /// The effects of `job`'s occurrence at `occurrence`, in order.
    pub fn effects(&self, job: &str, occurrence: Millis) -> Vec<Record> {
        self.records("effects", job, occurrence)
    }

    /// Every delivery of every job, as (job, occurrence) in order.
    pub fn all_deliveries(&self) -> Vec<(String, Millis)> {
        let rows = self
            .admin
            .borrow_mut()
            .query(
                "SELECT job_id, occurrence FROM deliveries ORDER BY at, job_id, occurrence",
                &[],
            )
            .expect("read the deliveries");
        rows.iter()
            .map(|row| (row.text(0).to_owned(), row.int(1)))
            .collect()
    }

    fn records(&self, table: &str, job: &str, occurrence: Millis) -> Vec<Record> {
        let sql = format!(
            "SELECT node, fence, at FROM {table}
              WHERE job_id = $1 AND occurrence = $2 ORDER BY at, fence"
        );
        let rows = self
            .admin
            .borrow_mut()
            .query(&sql, &[job.into(), occurrence.into()])
            .unwrap_or_else(|e| panic!("read the {table}: {e}"));
        rows.iter()
            .map(|row| Record {
                node: row.text(0).to_owned(),
                fence: row.int(1),
                at: row.int(2),
            })
            .collect()
    }

    /// Runs `sql` on the test's connection: its rows.
    pub fn query(&self, sql: &str, params: &[durable_timer::Value]) -> Vec<durable_timer::Row> {
        self.admin
            .borrow_mut()
            .query(sql, params)
            .unwrap_or_else(|e| panic!("{sql}: {e}"))
    }
}

/// A new connection to the store at `place`.
fn connect(place: &Place) -> Box<dyn Store> {
    match place {
        Place::Sqlite { path, .. } => {
            Box::new(SqliteStore::open(path).expect("open the SQLite file"))
        }
        #[cfg(feature = "postgres")]
        Place::Postgres(db) => Box::new(
            durable_timer::postgres::PgStore::connect(db.url()).expect("connect to PostgreSQL"),
        ),
    }
}

/// The nodes of `records`, as "a, b" for a message.
pub fn nodes(records: &[Record]) -> Names<'_> {
    Names(records)
}

/// Records' nodes, comma-separated.
pub struct Names<'a>(&'a [Record]);

impl fmt::Display for Names<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, r) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{}", r.node)?;
        }
        Ok(())
    }
}

/// Records' fences, comma-separated.
pub fn fences(records: &[Record]) -> String {
    let fences: Vec<String> = records.iter().map(|r| r.fence.to_string()).collect();
    fences.join(", ")
}
