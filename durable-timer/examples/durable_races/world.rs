//! The world a scenario runs in: a SQLite file of its own, in a temporary
//! directory, whose time the program moves (the store's clock and the
//! nodes' clocks together), and the rows of the two witness tables. A
//! smaller copy of what the tests' `World` does on SQLite.

use std::cell::RefCell;

use durable_timer::clock::set_store_time;
use durable_timer::{Clock, Jobs, ManualTime, Millis, Node, SqliteStore, Store, Variant, schema};

/// How long a node's claim holds a job: a second of the world's time.
pub const LEASE: Millis = 1000;

/// One row of `deliveries` or `effects`.
pub struct Record {
    pub node: String,
    pub fence: i64,
    pub at: Millis,
}

/// A SQLite file, its time, and a connection for the program.
pub struct World {
    dir: tempfile::TempDir,
    time: ManualTime,
    admin: RefCell<Box<dyn Store>>,
}

impl World {
    /// A new store, its tables made, its time at 0 ms.
    pub fn new() -> World {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let time = ManualTime::new(0);
        let mut admin: Box<dyn Store> =
            Box::new(SqliteStore::open(dir.path().join("jobs.sqlite")).expect("open"));
        schema::create(admin.as_mut()).expect("create the tables");
        let world = World {
            dir,
            time,
            admin: RefCell::new(admin),
        };
        world.set_time(0);
        world
    }

    fn connect(&self) -> Box<dyn Store> {
        let path = self.dir.path().join("jobs.sqlite");
        Box::new(SqliteStore::open(path).expect("open the SQLite file"))
    }

    /// The user's API, on a connection of its own.
    pub fn jobs(&self) -> Jobs {
        Jobs::new(self.connect()).expect("the API")
    }

    /// A node named `name` running `variant`, on the world's clock.
    pub fn node(&self, name: &str, variant: Variant) -> Node {
        self.skewed_node(name, variant, 0)
    }

    /// The same, on a clock `skew` ms ahead of the world's.
    pub fn skewed_node(&self, name: &str, variant: Variant, skew: Millis) -> Node {
        Node::new(self.connect(), name)
            .variant(variant)
            .clock(Clock::manual(&self.time).skewed(skew))
            .lease(LEASE)
    }

    /// The world's time.
    pub fn now(&self) -> Millis {
        self.time.now()
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
        let sql = "SELECT job_id, occurrence FROM deliveries ORDER BY at, job_id, occurrence";
        let rows = self.admin.borrow_mut().query(sql, &[]).expect("read");
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
            .expect("read the table");
        rows.iter()
            .map(|row| Record {
                node: row.text(0).to_owned(),
                fence: row.int(1),
                at: row.int(2),
            })
            .collect()
    }
}
