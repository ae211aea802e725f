//! The one thing a node asks of a database: run a statement, read rows,
//! and group statements in a transaction. SQLite (`sqlite.rs`) and
//! PostgreSQL (`postgres.rs`) each implement [`Store`]; the lessons write
//! their SQL once, against this trait.
//!
//! SQL is written with `$1`, `$2`, … placeholders and the token `{now}`
//! for the store's time in milliseconds since the Unix epoch;
//! [`Dialect::render`] turns that into what each database reads.

use std::fmt;

/// A value bound to a placeholder, or read from a column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A 64-bit integer (every number in the schema is a BIGINT).
    Int(i64),
    /// A string.
    Text(String),
    /// SQL NULL.
    Null,
}

impl From<i64> for Value {
    fn from(v: i64) -> Value {
        Value::Int(v)
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::Text(v.to_owned())
    }
}

impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::Text(v)
    }
}

impl From<Option<i64>> for Value {
    fn from(v: Option<i64>) -> Value {
        v.map_or(Value::Null, Value::Int)
    }
}

/// One row a query returned, its columns in the order the SQL named them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row(pub Vec<Value>);

impl Row {
    /// Column `i` as an integer.
    ///
    /// # Panics
    /// If the column is missing or not an integer: the SQL and the code
    /// reading it disagree, a bug in this crate, not bad input.
    pub fn int(&self, i: usize) -> i64 {
        match self.0.get(i) {
            Some(Value::Int(v)) => *v,
            other => panic!("column {i}: expected an integer, found {other:?}"),
        }
    }

    /// Column `i` as text.
    ///
    /// # Panics
    /// If the column is missing or not text (see [`Row::int`]).
    pub fn text(&self, i: usize) -> &str {
        match self.0.get(i) {
            Some(Value::Text(v)) => v,
            other => panic!("column {i}: expected text, found {other:?}"),
        }
    }

    /// Column `i` as an integer, or `None` for NULL.
    ///
    /// # Panics
    /// If the column is missing or text (see [`Row::int`]).
    pub fn opt_int(&self, i: usize) -> Option<i64> {
        match self.0.get(i) {
            Some(Value::Int(v)) => Some(*v),
            Some(Value::Null) => None,
            other => panic!("column {i}: expected an integer or NULL, found {other:?}"),
        }
    }
}

/// Which SQL a store speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// SQLite: `?N` placeholders.
    Sqlite,
    /// PostgreSQL: `$N` placeholders.
    Postgres,
}

// ANCHOR: now
/// SQLite's time, in milliseconds since the Unix epoch.
const SQLITE_NOW: &str = "CAST(unixepoch('subsec') * 1000 AS INTEGER)";
/// PostgreSQL's: `clock_timestamp()`, the time as the statement reads it
/// (`now()` would be the time its transaction began).
const POSTGRES_NOW: &str = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

impl Dialect {
    /// `sql` as this database reads it: `{now}` becomes the store's time
    /// (the row of `store_clock` if a test set one, else the database's
    /// real clock), and for SQLite `$N` becomes `?N`.
    ///
    /// The time is a subquery of its own, which reads no row of the
    /// statement: the database works it out once, before the rows, and can
    /// then bound an index scan by it. (PostgreSQL would call a bare
    /// `clock_timestamp()` again at every row, and bound no scan by it.)
    pub fn render(self, sql: &str) -> String {
        let real = match self {
            Dialect::Sqlite => SQLITE_NOW,
            Dialect::Postgres => POSTGRES_NOW,
        };
        let now =
            format!("(SELECT COALESCE((SELECT now_ms FROM store_clock WHERE id = 1), {real}))");
        let sql = sql.replace("{now}", &now);
        match self {
            Dialect::Sqlite => question_marks(&sql),
            Dialect::Postgres => sql,
        }
    }
}
// ANCHOR_END: now

/// `$N` placeholders turned into SQLite's `?N` (a `$` not followed by a
/// digit is left alone).
fn question_marks(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$' && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('?');
        } else {
            out.push(c);
        }
    }
    out
}

/// Why a store refused or failed a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreError {
    /// Another connection held the lock for longer than this one would
    /// wait (SQLite's `SQLITE_BUSY`, PostgreSQL's lock timeout). Nothing
    /// was written; the call can be tried again.
    Busy,
    /// The store cannot be reached or opened: a file that is not a
    /// database, a directory that does not exist, a server that is down.
    Unavailable(String),
    /// The database refused the statement: a constraint (a duplicate
    /// key), a check.
    Refused(String),
    /// Anything else the database reported.
    Other(String),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Busy => write!(f, "the store is busy: another connection holds the lock"),
            StoreError::Unavailable(why) => write!(f, "the store is unavailable: {why}"),
            StoreError::Refused(why) => write!(f, "the store refused the statement: {why}"),
            StoreError::Other(why) => write!(f, "the store failed: {why}"),
        }
    }
}

impl std::error::Error for StoreError {}

// ANCHOR: store
/// A connection to a database. One per node: a node's statements run one
/// after another on its own connection, and two nodes race only through
/// the database.
pub trait Store: Send {
    /// Which SQL this store speaks.
    fn dialect(&self) -> Dialect;
    /// Runs one statement; how many rows it changed.
    fn execute(&mut self, sql: &str, params: &[Value]) -> Result<u64, StoreError>;
    /// Runs one statement (a SELECT, or a change with RETURNING); its rows.
    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StoreError>;
    /// Starts a transaction. SQLite: `BEGIN IMMEDIATE`, which takes the
    /// write lock at once, so that a transaction that reads and then
    /// writes never finds the lock taken in between. PostgreSQL: `BEGIN`.
    fn begin(&mut self) -> Result<(), StoreError>;
    /// Commits the transaction.
    fn commit(&mut self) -> Result<(), StoreError>;
    /// Rolls the transaction back.
    fn rollback(&mut self) -> Result<(), StoreError>;
}
// ANCHOR_END: store

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_placeholders_and_now() {
        let sql = Dialect::Sqlite.render("UPDATE t SET a = $1 WHERE b = $12 AND c <= {now}");
        assert!(sql.starts_with("UPDATE t SET a = ?1 WHERE b = ?12 AND c <= (SELECT COALESCE("));
        assert!(sql.contains("unixepoch('subsec')"));
    }

    #[test]
    fn postgres_keeps_dollars() {
        let sql = Dialect::Postgres.render("SELECT $1, {now}");
        assert!(sql.starts_with("SELECT $1, (SELECT COALESCE("));
        assert!(sql.contains("clock_timestamp()"));
    }
}
