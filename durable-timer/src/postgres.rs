//! [`Store`] on PostgreSQL (feature `postgres`), through the synchronous
//! `postgres` client: one connection per node, every node of a test in the
//! same database, on a local server (no TLS).
//!
//! Where SQLite has one writer at a time, PostgreSQL locks rows: two nodes
//! write at once unless they write the same row, and then the second waits
//! for the first's transaction. It waits at most [`LOCK_TIMEOUT`] (as a
//! SQLite connection waits its busy timeout), then gets
//! [`StoreError::Busy`]; so does a transaction the server gave up on to
//! break a deadlock or keep a serializable order. A server that is down,
//! shutting down, or gone mid-statement is [`StoreError::Unavailable`].

use std::collections::HashMap;
use std::error::Error;
use std::time::Duration;

use bytes::BytesMut;
use postgres::types::{IsNull, ToSql, Type, to_sql_checked};
use postgres::{Client, NoTls, Statement};

use crate::store::{Dialect, Row, Store, StoreError, Value};

/// How long a statement waits for a row another transaction has locked
/// before [`StoreError::Busy`]: SQLite's busy timeout, on PostgreSQL.
pub const LOCK_TIMEOUT: Duration = Duration::from_secs(5);

/// A connection to one PostgreSQL database.
pub struct PgStore {
    client: Client,
    /// Each statement is prepared once per connection, then only run.
    prepared: HashMap<String, Statement>,
}

impl PgStore {
    /// Connects to the database `url` names (`postgresql://user@host/db`,
    /// or libpq's `host=… dbname=…`; a host that is a directory is the
    /// server's Unix socket), and sets the lock timeout.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] if the server cannot be reached, the
    /// database does not exist, or the URL is not one.
    pub fn connect(url: &str) -> Result<PgStore, StoreError> {
        let unavailable = |e: postgres::Error| StoreError::Unavailable(e.to_string());
        let client = Client::connect(url, NoTls).map_err(unavailable)?;
        let mut store = PgStore {
            client,
            prepared: HashMap::new(),
        };
        store.set_lock_timeout(LOCK_TIMEOUT)?;
        Ok(store)
    }

    /// Sets how long this connection waits for a row another transaction
    /// has locked before [`StoreError::Busy`].
    ///
    /// # Errors
    /// What the server reports.
    pub fn set_lock_timeout(&mut self, wait: Duration) -> Result<(), StoreError> {
        let sql = format!("SET lock_timeout = {}", wait.as_millis().max(1));
        self.client.batch_execute(&sql).map_err(to_store_error)
    }

    /// The statement for `sql` (in our dialect), prepared on first use.
    fn statement(&mut self, sql: &str) -> Result<Statement, StoreError> {
        let sql = Dialect::Postgres.render(sql);
        if let Some(statement) = self.prepared.get(&sql) {
            return Ok(statement.clone());
        }
        let statement = self.client.prepare(&sql).map_err(to_store_error)?;
        self.prepared.insert(sql, statement.clone());
        Ok(statement)
    }
}

impl Store for PgStore {
    fn dialect(&self) -> Dialect {
        Dialect::Postgres
    }

    fn execute(&mut self, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        let statement = self.statement(sql)?;
        self.client
            .execute(&statement, &as_params(params))
            .map_err(to_store_error)
    }

    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StoreError> {
        let statement = self.statement(sql)?;
        let rows = self
            .client
            .query(&statement, &as_params(params))
            .map_err(to_store_error)?;
        rows.iter().map(from_postgres).collect()
    }

    fn begin(&mut self) -> Result<(), StoreError> {
        self.client.batch_execute("BEGIN").map_err(to_store_error)
    }

    fn commit(&mut self) -> Result<(), StoreError> {
        self.client.batch_execute("COMMIT").map_err(to_store_error)
    }

    fn rollback(&mut self) -> Result<(), StoreError> {
        self.client
            .batch_execute("ROLLBACK")
            .map_err(to_store_error)
    }
}

fn as_params(params: &[Value]) -> Vec<&(dyn ToSql + Sync)> {
    params.iter().map(|p| p as &(dyn ToSql + Sync)).collect()
}

/// A [`Value`] sent as the type the server inferred for its placeholder:
/// an integer as any integer type it fits (or as text), text as text,
/// NULL as anything.
impl ToSql for Value {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        let text = <&str as ToSql>::accepts(ty);
        match self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(v) => match *ty {
                Type::INT8 => v.to_sql(ty, out),
                Type::INT4 => i32::try_from(*v)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(*v)?.to_sql(ty, out),
                _ if text => v.to_string().as_str().to_sql(ty, out),
                _ => Err(format!("the integer {v} for a {ty} placeholder").into()),
            },
            Value::Text(v) if text => v.as_str().to_sql(ty, out),
            Value::Text(v) => Err(format!("the text {v:?} for a {ty} placeholder").into()),
        }
    }

    fn accepts(_: &Type) -> bool {
        // Checked per value in `to_sql`, which names what did not fit.
        true
    }

    to_sql_checked!();
}

/// A row as the store's [`Row`]: the schema holds BIGINTs and TEXT (and
/// counts are BIGINTs); smaller integers widen, booleans read as 0 or 1.
fn from_postgres(row: &postgres::Row) -> Result<Row, StoreError> {
    let column = |i: usize| -> Result<Value, postgres::Error> {
        let ty = row.columns()[i].type_();
        Ok(match *ty {
            Type::INT8 => row.try_get::<_, Option<i64>>(i)?.into(),
            Type::INT4 => row.try_get::<_, Option<i32>>(i)?.map(i64::from).into(),
            Type::INT2 => row.try_get::<_, Option<i16>>(i)?.map(i64::from).into(),
            Type::BOOL => row.try_get::<_, Option<bool>>(i)?.map(i64::from).into(),
            _ => row
                .try_get::<_, Option<String>>(i)?
                .map_or(Value::Null, Value::Text),
        })
    };
    (0..row.len())
        .map(column)
        .collect::<Result<Vec<_>, _>>()
        .map(Row)
        .map_err(|e| StoreError::Other(format!("{e}: the schema holds BIGINT and TEXT only")))
}

/// The server's error as the store's, by its SQLSTATE class: a lock not
/// had in time, a deadlock or a serialization failure is [`Busy`]; a
/// constraint (class 23) [`Refused`]; a lost connection, a server shutting
/// down or refusing connections (class 08, 57P0x) [`Unavailable`], and so
/// is an error of the connection itself (closed, or its socket failed).
///
/// [`Busy`]: StoreError::Busy
/// [`Refused`]: StoreError::Refused
/// [`Unavailable`]: StoreError::Unavailable
fn to_store_error(e: postgres::Error) -> StoreError {
    let Some(state) = e.code() else {
        let lost = e.is_closed() || e.source().is_some_and(|s| s.is::<std::io::Error>());
        return if lost {
            StoreError::Unavailable(e.to_string())
        } else {
            StoreError::Other(e.to_string())
        };
    };
    let why = e
        .as_db_error()
        .map_or_else(|| e.to_string(), |db| db.to_string());
    match state.code() {
        "55P03" | "40001" | "40P01" => StoreError::Busy,
        code if code.starts_with("23") => StoreError::Refused(why),
        code if code.starts_with("08") || code.starts_with("57P") => StoreError::Unavailable(why),
        _ => StoreError::Other(why),
    }
}
