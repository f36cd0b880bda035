//! Bulk writes for the ingestion, built as statements that read their rows from a common table expression `s`:
//! `WITH s(columns) AS (<rows>) INSERT … SELECT … FROM s …`. On SQLite the rows are a multi-row `VALUES` list (one
//! statement per chunk, under its limit on bound parameters); on PostgreSQL one parameter per column holding the
//! column's values as an array literal (`UNNEST($1::text::bigint[], …)`), which it parses and plans once per statement
//! instead of once per bound value, and which the driver sends as one string instead of converting every element.
//! Rows that need nothing from the database but to be stored (a list's new cartas) go to PostgreSQL by `COPY`
//! ([`Write::Copy`]).

use sea_orm::{DbBackend, DbErr, Statement, Value};

/// A bulk write: a statement, or (PostgreSQL) rows streamed straight into a table by `COPY` in its text format, which
/// the server reads without planning a statement or parsing array literals.
pub enum Write {
    /// A statement.
    Statement(Statement),
    /// `COPY table (columns) FROM STDIN`, with the rows as `data`.
    Copy {
        /// The table.
        table: &'static str,
        /// Its columns, as `data` holds them.
        columns: String,
        /// The rows, in `COPY`'s text format.
        data: String,
    },
}

impl Write {
    /// Runs it inside `txn`: the number of rows it wrote.
    pub async fn run(self, txn: &crate::txn::Bulk) -> Result<u64, DbErr> {
        use sea_orm::ConnectionTrait;
        match self {
            Write::Statement(s) => Ok(txn.execute_raw(s).await?.rows_affected()),
            Write::Copy { table, columns, data } => txn.copy_in(table, &columns, data.as_bytes()).await,
        }
    }
}

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

/// How a bulk write spells a value: as an element of an array literal that a statement binds, or as a field of
/// `COPY`'s text format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spelling {
    /// An array literal's element: text and instants in double quotes (`"` and `\` escaped), `NULL` for none.
    ArrayElement,
    /// A `COPY` text field: backslash, tab, newline and carriage return escaped, `\N` for none.
    CopyField,
}

/// Appends `v` spelled as `spelling` says; numbers and days print as they are either way.
pub fn push_value(out: &mut String, v: &Value, spelling: Spelling) -> Result<(), DbErr> {
    use std::fmt::Write;
    let array = spelling == Spelling::ArrayElement;
    let written = match v {
        Value::String(Some(s)) => {
            if array {
                out.push('"');
            }
            for c in s.chars() {
                match (c, array) {
                    ('"' | '\\', true) => {
                        out.push('\\');
                        out.push(c);
                    }
                    ('\\', false) => out.push_str("\\\\"),
                    ('\t', false) => out.push_str("\\t"),
                    ('\n', false) => out.push_str("\\n"),
                    ('\r', false) => out.push_str("\\r"),
                    (c, _) => out.push(c),
                }
            }
            if array {
                out.push('"');
            }
            Ok(())
        }
        Value::BigInt(Some(n)) => write!(out, "{n}"),
        Value::Int(Some(n)) => write!(out, "{n}"),
        Value::ChronoDate(Some(d)) => write!(out, "{}", d.format("%Y-%m-%d")),
        Value::ChronoDateTimeUtc(Some(t)) if array => write!(out, "\"{}\"", t.to_rfc3339()),
        Value::ChronoDateTimeUtc(Some(t)) => write!(out, "{}", t.to_rfc3339()),
        Value::String(None)
        | Value::BigInt(None)
        | Value::Int(None)
        | Value::ChronoDate(None)
        | Value::ChronoDateTimeUtc(None) => {
            out.push_str(if array { "NULL" } else { "\\N" });
            Ok(())
        }
        other => return Err(DbErr::Custom(format!("bulk {spelling:?}: unsupported value {other:?}"))),
    };
    written.map_err(|e| DbErr::Custom(e.to_string()))
}

/// The placeholder by which a statement's body reads its `k`-th constant (see [`statements_with`]), of PostgreSQL type
/// `pg`, in a statement over `cols`.
pub fn constant(backend: DbBackend, cols: &[Col], k: usize, pg: &str) -> String {
    match backend {
        DbBackend::Postgres => format!("${}::{pg}", cols.len() + 1 + k),
        _ => "?".into(),
    }
}

/// `WITH s(cols) AS (<rows>) body`: `body` reads the rows from `s`. Each statement comes with the number of rows it
/// carries. Empty when there are no rows.
pub fn statements(
    backend: DbBackend,
    cols: &[Col],
    rows: Vec<Vec<Value>>,
    body: &str,
) -> Result<Vec<(Statement, u64)>, DbErr> {
    statements_with(backend, cols, rows, &[], body)
}

/// As [`statements`], where `body` also reads values that are the same for every row, each bound once per statement
/// and named by [`constant`]'s placeholder (on SQLite, `?`: the body names each constant once, in order).
pub fn statements_with(
    backend: DbBackend,
    cols: &[Col],
    rows: Vec<Vec<Value>>,
    consts: &[Value],
    body: &str,
) -> Result<Vec<(Statement, u64)>, DbErr> {
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let names = cols.iter().map(|c| c.name).collect::<Vec<_>>().join(", ");
    if backend == DbBackend::Postgres {
        let count = rows.len() as u64;
        let mut arrays: Vec<String> = cols.iter().map(|_| String::from("{")).collect();
        for (i, row) in rows.iter().enumerate() {
            for (array, v) in arrays.iter_mut().zip(row) {
                if i > 0 {
                    array.push(',');
                }
                push_value(array, v, Spelling::ArrayElement)?;
            }
        }
        let params = cols
            .iter()
            .enumerate()
            .map(|(j, c)| format!("${}::text::{}[]", j + 1, c.pg))
            .collect::<Vec<_>>()
            .join(", ");
        let sql = format!("WITH s({names}) AS (SELECT * FROM UNNEST({params})) {body}");
        let values = arrays
            .into_iter()
            .map(|mut a| {
                a.push('}');
                Value::String(Some(a))
            })
            .chain(consts.iter().cloned());
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
            Statement::from_sql_and_values(backend, sql, chunk.into_iter().flatten().chain(consts.iter().cloned())),
            count,
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copy_text_escapes_what_would_end_a_field_or_a_row() {
        let mut out = String::new();
        for v in [
            Value::from("a\tb\nc\\d\re"),
            Value::String(None),
            Value::from(42i64),
            Value::from(chrono::NaiveDate::from_ymd_opt(2019, 5, 31).expect("date")),
        ] {
            push_value(&mut out, &v, Spelling::CopyField).expect("field");
            out.push('|');
        }
        assert_eq!(out, "a\\tb\\nc\\\\d\\re|\\N|42|2019-05-31|");
    }
}
