//! Bulk writes for the ingestion: one statement per chunk of rows on both backends. On SQLite a multi-row `VALUES`
//! list; on PostgreSQL one array parameter per column (`SELECT … FROM UNNEST($1::text[], …)`), which PostgreSQL
//! parses and plans once per statement instead of once per bound value.

use chrono::NaiveDate;
use sea_orm::{
    ConnectionTrait, DatabaseTransaction, DbBackend, DbErr, QueryResult, Statement, Value, sea_query::ArrayType,
};

/// A column of a bulk statement.
#[derive(Clone, Copy, Debug)]
pub struct Col {
    /// Its name in the table.
    pub name: &'static str,
    /// Its PostgreSQL type.
    pub pg: &'static str,
}

/// Rows per statement on SQLite (its limit on bound parameters is 32,766); PostgreSQL takes a batch in one.
pub const SQLITE_ROWS: usize = 1000;

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
        other => return Err(DbErr::Custom(format!("bulk insert: unsupported value {other:?}"))),
    })
}

/// `INSERT INTO table (columns) <rows> tail` in as few statements as the backend allows; `tail` (an `ON CONFLICT`
/// clause, a `RETURNING` list) is the same SQL on both backends. Returns the rows `RETURNING` gave.
pub async fn insert(
    txn: &DatabaseTransaction,
    table: &str,
    cols: &[Col],
    rows: Vec<Vec<Value>>,
    tail: &str,
) -> Result<Vec<QueryResult>, DbErr> {
    let backend = txn.get_database_backend();
    let names = cols.iter().map(|c| c.name).collect::<Vec<_>>().join(", ");
    let mut out = Vec::new();
    if backend == DbBackend::Postgres {
        let mut arrays: Vec<Vec<Value>> = cols.iter().map(|_| Vec::with_capacity(rows.len())).collect();
        let mut nullable = vec![None; cols.len()];
        let mut kinds = vec![None; cols.len()];
        for row in rows {
            for (j, v) in row.into_iter().enumerate() {
                let (v, kind, null) = sentinel(v)?;
                arrays[j].push(v);
                kinds[j] = Some(kind);
                nullable[j] = Some(null);
            }
        }
        let Some(kinds) = kinds.into_iter().collect::<Option<Vec<ArrayType>>>() else {
            return Ok(out);
        };
        let params = cols
            .iter()
            .enumerate()
            .map(|(j, c)| format!("${}::{}[]", j + 1, c.pg))
            .collect::<Vec<_>>()
            .join(", ");
        let select = cols
            .iter()
            .zip(&nullable)
            .enumerate()
            .map(|(j, (c, null))| match null {
                Some(null) if !null.is_empty() => format!("NULLIF(u.c{j}, {null}::{})", c.pg),
                _ => format!("u.c{j}"),
            })
            .collect::<Vec<_>>()
            .join(", ");
        let aliases = (0..cols.len()).map(|j| format!("c{j}")).collect::<Vec<_>>().join(", ");
        let sql = format!("INSERT INTO {table} ({names}) SELECT {select} FROM UNNEST({params}) AS u({aliases}) {tail}");
        let values: Vec<Value> = arrays
            .into_iter()
            .zip(kinds)
            .map(|(a, kind)| Value::Array(kind, Some(Box::new(a))))
            .collect();
        out.extend(
            txn.query_all_raw(Statement::from_sql_and_values(backend, sql, values))
                .await?,
        );
        return Ok(out);
    }
    let mut rows = rows.into_iter().peekable();
    while rows.peek().is_some() {
        let chunk: Vec<Vec<Value>> = rows.by_ref().take(SQLITE_ROWS).collect();
        let one = format!("({})", vec!["?"; cols.len()].join(", "));
        let sql = format!(
            "INSERT INTO {table} ({names}) VALUES {} {tail}",
            vec![one; chunk.len()].join(", ")
        );
        let values: Vec<Value> = chunk.into_iter().flatten().collect();
        out.extend(
            txn.query_all_raw(Statement::from_sql_and_values(backend, sql, values))
                .await?,
        );
    }
    Ok(out)
}

/// SQLite: the ids of the rows of `table` whose `key` is one of `keys` (and that pass `filter`, a condition ending in
/// `AND`, or empty), by key. The pairs come back as one JSON value in one row: the driver hands each result row to
/// another thread, and a row per id cost more than the inserts themselves.
pub async fn sqlite_ids(
    txn: &DatabaseTransaction,
    table: &str,
    key: &str,
    filter: &str,
    keys: &[&str],
) -> Result<std::collections::HashMap<String, i64>, DbErr> {
    let sql = format!(
        "SELECT json_group_array(json_array(id, {key})) FROM {table} \
         WHERE {filter} {key} IN (SELECT value FROM json_each(?))"
    );
    let list = serde_json::to_string(keys).map_err(|e| DbErr::Custom(e.to_string()))?;
    let Some(row) = txn
        .query_one_raw(Statement::from_sql_and_values(DbBackend::Sqlite, sql, [list.into()]))
        .await?
    else {
        return Ok(Default::default());
    };
    let text: String = row.try_get_by_index(0)?;
    let pairs: Vec<(i64, String)> = serde_json::from_str(&text).map_err(|e| DbErr::Custom(e.to_string()))?;
    Ok(pairs.into_iter().map(|(id, k)| (k, id)).collect())
}
