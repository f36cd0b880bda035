//! Bulk writes for the ingestion, built as statements that read their rows from a common table expression `s`:
//! `WITH s(columns) AS (<rows>) INSERT … SELECT … FROM s …`. On SQLite the rows are a multi-row `VALUES` list (one
//! statement per chunk, under its limit on bound parameters); on PostgreSQL one array parameter per column
//! (`UNNEST($1::text[], …)`), which it parses and plans once per statement instead of once per bound value. The
//! statements are plain data, so they are built on a thread of their own while the database runs the previous ones;
//! what one row needs of another table (a party's id, a carta's id) is joined in SQL, not read back.

use chrono::NaiveDate;
use sea_orm::{DbBackend, DbErr, Statement, Value, sea_query::ArrayType};

/// A column of the rows a statement reads: its name in `s`, and its PostgreSQL type.
#[derive(Clone, Copy, Debug)]
pub struct Col {
    /// Its name in `s`.
    pub name: &'static str,
    /// Its PostgreSQL type.
    pub pg: &'static str,
}

/// A column named `name` of PostgreSQL type `pg`.
pub const fn col(name: &'static str, pg: &'static str) -> Col {
    Col { name, pg }
}

/// Rows per statement on SQLite (its limit on bound parameters is 32,766); PostgreSQL takes a batch in one.
const SQLITE_ROWS: usize = 1000;

/// Stands for a missing date inside an array (no report date is that old).
const NO_DATE: NaiveDate = NaiveDate::from_ymd_opt(1, 1, 1).expect("a date");

/// `NULL` travels inside a PostgreSQL array as a value the column never holds, turned back by `NULLIF`: the array
/// binding of the driver takes no `NULL` elements.
fn sentinel(v: Value) -> Result<(Value, ArrayType, &'static str), DbErr> {
    Ok(match v {
        Value::String(s) => (Value::String(Some(s.unwrap_or_default())), ArrayType::String, "''"),
        Value::BigInt(n) => (
            Value::BigInt(Some(n.unwrap_or(i64::MIN))),
            ArrayType::BigInt,
            "'-9223372036854775808'",
        ),
        Value::Int(n) => (Value::Int(Some(n.unwrap_or(i32::MIN))), ArrayType::Int, "'-2147483648'"),
        Value::ChronoDate(d) => (
            Value::ChronoDate(Some(d.unwrap_or(NO_DATE))),
            ArrayType::ChronoDate,
            "'0001-01-01'",
        ),
        Value::ChronoDateTimeUtc(Some(t)) => (Value::ChronoDateTimeUtc(Some(t)), ArrayType::ChronoDateTimeUtc, ""),
        other => return Err(DbErr::Custom(format!("bulk statement: unsupported value {other:?}"))),
    })
}

/// `WITH s(cols) AS (<rows>) body`: `body` reads the rows from `s`. Each statement comes with the number of rows it
/// carries. Empty when there are no rows.
pub fn statements(
    backend: DbBackend,
    cols: &[Col],
    rows: Vec<Vec<Value>>,
    body: &str,
) -> Result<Vec<(Statement, u64)>, DbErr> {
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let names = cols.iter().map(|c| c.name).collect::<Vec<_>>().join(", ");
    if backend == DbBackend::Postgres {
        let count = rows.len() as u64;
        let mut arrays: Vec<Vec<Value>> = cols.iter().map(|_| Vec::with_capacity(rows.len())).collect();
        let mut kinds = vec![ArrayType::String; cols.len()];
        let mut nulls = vec![""; cols.len()];
        for row in rows {
            for (j, v) in row.into_iter().enumerate() {
                let (v, kind, null) = sentinel(v)?;
                arrays[j].push(v);
                kinds[j] = kind;
                nulls[j] = null;
            }
        }
        let params = cols
            .iter()
            .enumerate()
            .map(|(j, c)| format!("${}::{}[]", j + 1, c.pg))
            .collect::<Vec<_>>()
            .join(", ");
        let select = cols
            .iter()
            .zip(&nulls)
            .enumerate()
            .map(|(j, (c, null))| match *null {
                "" => format!("u.c{j}"),
                null => format!("NULLIF(u.c{j}, {null}::{})", c.pg),
            })
            .collect::<Vec<_>>()
            .join(", ");
        let aliases = (0..cols.len()).map(|j| format!("c{j}")).collect::<Vec<_>>().join(", ");
        let sql = format!("WITH s({names}) AS (SELECT {select} FROM UNNEST({params}) AS u({aliases})) {body}");
        let values: Vec<Value> = arrays
            .into_iter()
            .zip(kinds)
            .map(|(a, kind)| Value::Array(kind, Some(Box::new(a))))
            .collect();
        return Ok(vec![(Statement::from_sql_and_values(backend, sql, values), count)]);
    }
    let one = format!("({})", vec!["?"; cols.len()].join(", "));
    let mut out = Vec::new();
    let mut rows = rows.into_iter().peekable();
    while rows.peek().is_some() {
        let chunk: Vec<Vec<Value>> = rows.by_ref().take(SQLITE_ROWS).collect();
        let sql = format!(
            "WITH s({names}) AS (VALUES {}) {body}",
            vec![one.as_str(); chunk.len()].join(", ")
        );
        let count = chunk.len() as u64;
        out.push((
            Statement::from_sql_and_values(backend, sql, chunk.into_iter().flatten()),
            count,
        ));
    }
    Ok(out)
}
