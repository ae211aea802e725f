//! A durable timer's world for one cell: a SQLite file of its own, the
//! store's clock and the nodes' clock moved together by the scenario,
//! nodes of the row's version, and the counts the checks read. The stage's
//! own tests have a larger one (`durable-timer/tests/support`), on
//! PostgreSQL too; a cell needs SQLite only.

use std::cell::RefCell;
use std::path::PathBuf;

use durable_timer::clock::set_store_time;
use durable_timer::{Clock, Jobs, ManualTime, Millis, Node, SqliteStore, Store, Variant, schema};

/// How long a node's claim holds a job: a second of the world's time, as
/// in the stage's tests.
pub const LEASE: Millis = 1000;

/// A store of the cell's own, and its clocks; time starts at 0 ms.
pub struct World {
    _dir: tempfile::TempDir,
    path: PathBuf,
    time: ManualTime,
    admin: RefCell<Box<dyn Store>>,
}

/// One row of `deliveries` or `effects`: who wrote it, under which fence,
/// when.
pub struct Record {
    /// The node that wrote it.
    pub node: String,
    /// Its claim's fencing token.
    pub fence: i64,
    /// The store's time when it was written.
    pub at: Millis,
}

impl World {
    /// A new world: its tables made, its time at 0 ms.
    pub fn new() -> World {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("jobs.sqlite");
        let mut admin: Box<dyn Store> = Box::new(open(&path));
        schema::create(admin.as_mut()).expect("create the tables");
        set_store_time(admin.as_mut(), 0).expect("set the store's time");
        World {
            _dir: dir,
            path,
            time: ManualTime::new(0),
            admin: RefCell::new(admin),
        }
    }

    /// The user's API, on a connection of its own.
    pub fn jobs(&self) -> Jobs {
        Jobs::new(Box::new(open(&self.path))).expect("the API on the world's store")
    }

    /// A node named `name` running `variant`, on a connection of its own,
    /// on the world's clock moved `skew` ms ahead, with a lease of
    /// [`LEASE`].
    pub fn node(&self, name: &str, variant: Variant, skew: Millis) -> Node {
        Node::new(Box::new(open(&self.path)), name)
            .variant(variant)
            .clock(Clock::manual(&self.time).skewed(skew))
            .lease(LEASE)
    }

    /// Moves the world's time to `at`: the store's clock and the nodes'.
    pub fn set_time(&self, at: Millis) {
        self.time.set(at);
        set_store_time(self.admin.borrow_mut().as_mut(), at).expect("set the store's time");
    }

    /// The deliveries of `job`'s occurrence at `occurrence`, in order.
    pub fn deliveries(&self, job: &str, occurrence: Millis) -> Vec<Record> {
        self.records("deliveries", job, occurrence)
    }

    /// The effects of `job`'s occurrence at `occurrence`, in order.
    pub fn effects(&self, job: &str, occurrence: Millis) -> Vec<Record> {
        self.records("effects", job, occurrence)
    }

    /// Every delivery, as (job, occurrence), in order.
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
}

fn open(path: &std::path::Path) -> SqliteStore {
    SqliteStore::open(path).expect("open the SQLite file")
}

/// Records' nodes, as "a, b".
pub fn nodes(records: &[Record]) -> String {
    let names: Vec<&str> = records.iter().map(|r| r.node.as_str()).collect();
    names.join(", ")
}

/// Records' fences, as "1, 2".
pub fn fences(records: &[Record]) -> String {
    let fences: Vec<String> = records.iter().map(|r| r.fence.to_string()).collect();
    fences.join(", ")
}
