//! [`Store`] on SQLite, through rusqlite: one file, one connection per
//! node, every node of a test on the same file.
//!
//! SQLite lets one connection write at a time. A second writer waits up to
//! the busy timeout for the lock, then gets `SQLITE_BUSY`, which this store
//! reports as [`StoreError::Busy`]. The file is in WAL mode, so readers
//! never wait for the writer, and a transaction starts with `BEGIN
//! IMMEDIATE`: it takes the write lock at once, instead of at its first
//! write, where a deferred transaction that read first could find the lock
//! taken and fail with no wait at all.

use std::path::Path;
use std::time::Duration;

use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, ErrorCode, ToSql};

use crate::store::{Dialect, Row, Store, StoreError, Value};

/// How long a connection waits for another's write lock before
/// [`StoreError::Busy`], unless [`SqliteStore::set_busy_timeout`] says.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// A connection to one SQLite file.
pub struct SqliteStore {
    conn: Connection,
}

impl SqliteStore {
    /// Opens (or creates) the database file at `path`: WAL mode, a busy
    /// timeout of [`BUSY_TIMEOUT`], and `synchronous = NORMAL` (in WAL
    /// mode a commit survives a crash of the process, though not always
    /// of the machine: enough for a scheduler whose jobs are kept at least
    /// once anyway, and fast).
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] if the file cannot be opened or is not
    /// a database.
    pub fn open(path: impl AsRef<Path>) -> Result<SqliteStore, StoreError> {
        let conn = Connection::open(path.as_ref()).map_err(unavailable)?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(unavailable)?;
        let mode: String = conn
            .query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))
            .map_err(unavailable)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::Unavailable(format!(
                "journal mode {mode}, not WAL"
            )));
        }
        conn.execute_batch("PRAGMA synchronous = NORMAL")
            .map_err(unavailable)?;
        Ok(SqliteStore { conn })
    }

    /// Sets how long this connection waits for another's write lock
    /// before [`StoreError::Busy`].
    ///
    /// # Errors
    /// If SQLite refuses the setting.
    pub fn set_busy_timeout(&mut self, wait: Duration) -> Result<(), StoreError> {
        self.conn.busy_timeout(wait).map_err(to_store_error)
    }
}

impl Store for SqliteStore {
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }

    fn execute(&mut self, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        let sql = Dialect::Sqlite.render(sql);
        let mut stmt = self.conn.prepare_cached(&sql).map_err(to_store_error)?;
        let changed = stmt
            .execute(rusqlite::params_from_iter(params))
            .map_err(to_store_error)?;
        Ok(changed as u64)
    }

    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StoreError> {
        let sql = Dialect::Sqlite.render(sql);
        let mut stmt = self.conn.prepare_cached(&sql).map_err(to_store_error)?;
        let width = stmt.column_count();
        let mut rows = stmt
            .query(rusqlite::params_from_iter(params))
            .map_err(to_store_error)?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().map_err(to_store_error)? {
            let values = (0..width)
                .map(|i| row.get_ref(i).map(from_sqlite))
                .collect::<Result<Vec<_>, _>>()
                .map_err(to_store_error)?;
            out.push(Row(values));
        }
        Ok(out)
    }

    fn begin(&mut self) -> Result<(), StoreError> {
        self.conn
            .execute_batch("BEGIN IMMEDIATE")
            .map_err(to_store_error)
    }

    fn commit(&mut self) -> Result<(), StoreError> {
        self.conn.execute_batch("COMMIT").map_err(to_store_error)
    }

    fn rollback(&mut self) -> Result<(), StoreError> {
        self.conn.execute_batch("ROLLBACK").map_err(to_store_error)
    }
}

impl ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match self {
            Value::Int(v) => ToSqlOutput::Borrowed(ValueRef::Integer(*v)),
            Value::Text(v) => ToSqlOutput::Borrowed(ValueRef::Text(v.as_bytes())),
            Value::Null => ToSqlOutput::Borrowed(ValueRef::Null),
        })
    }
}

/// A column as a [`Value`]. The schema holds integers and text only; a
/// real (none is stored) is truncated, a blob read as text.
fn from_sqlite(v: ValueRef<'_>) -> Value {
    match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::Int(i),
        ValueRef::Real(r) => Value::Int(r as i64),
        ValueRef::Text(t) | ValueRef::Blob(t) => Value::Text(String::from_utf8_lossy(t).into()),
    }
}

/// rusqlite's error as the store's: busy and locked are [`StoreError::Busy`],
/// constraints [`StoreError::Refused`], a file that is no database or
/// cannot be opened [`StoreError::Unavailable`].
fn to_store_error(e: rusqlite::Error) -> StoreError {
    match e.sqlite_error_code() {
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => StoreError::Busy,
        Some(ErrorCode::ConstraintViolation) => StoreError::Refused(e.to_string()),
        Some(ErrorCode::CannotOpen | ErrorCode::NotADatabase | ErrorCode::PermissionDenied) => {
            StoreError::Unavailable(e.to_string())
        }
        _ => StoreError::Other(e.to_string()),
    }
}

/// Any failure while opening: the store is unavailable (unless busy).
fn unavailable(e: rusqlite::Error) -> StoreError {
    match to_store_error(e) {
        StoreError::Busy => StoreError::Busy,
        StoreError::Unavailable(why) | StoreError::Refused(why) | StoreError::Other(why) => {
            StoreError::Unavailable(why)
        }
    }
}
