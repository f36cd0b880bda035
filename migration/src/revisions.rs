//! Revisions of rows that are changed in place (a carta, a project, a chamber meeting): every update that changes a
//! row keeps the row as it was, with the moment it stopped being the record, in `<table>_revision`, written by the
//! database itself (whichever writer changed the row: a lifecycle step, a bank's monthly list, a job), so what the
//! record held at any instant can be read back (`knownAt`).
//!
//! The revision table has the table's columns with their declared types, plus `revision_id` and `superseded_at`. A
//! later migration that adds a column to a revised table calls [`refresh`] after it, which adds the column to the
//! revision table and writes the trigger again with every column (the storage tests check that no column is left out);
//! such a migration runs in one transaction (`use_transaction`), so that on SQLite the trigger is dropped and written
//! again on one connection of the pool.
//!
//! - PostgreSQL: one statement-level trigger with transition tables (a bank's list updates a million cartas in one
//!   statement), keeping only the rows the statement changed; `superseded_at` is the transaction's `now()`.
//! - SQLite: a row-level trigger that fires when any column changed; `superseded_at` is the statement's UTC instant.
//!
//! Rows inserted into `stamped` tables (facts appended in one piece: amendments, closed cycles, change notices) get
//! `recorded_at` from the database when the writer leaves it unset ([`stamp_inserts`]).

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, DbBackend, Statement};

/// The UTC instant of the statement, on SQLite, in RFC 3339 (what the driver reads back as a `DateTime<Utc>`).
const SQLITE_NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/// The columns of `table` with their declared types, in order.
async fn columns(manager: &SchemaManager<'_>, table: &str) -> Result<Vec<(String, String)>, DbErr> {
    let db = manager.get_connection();
    let backend = db.get_database_backend();
    let sql = match backend {
        DbBackend::Sqlite => format!("SELECT name, type FROM pragma_table_info('{table}') ORDER BY cid"),
        _ => format!(
            "SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type FROM pg_attribute a
             WHERE a.attrelid = '{table}'::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum"
        ),
    };
    let rows = db.query_all_raw(Statement::from_string(backend, sql)).await?;
    rows.iter()
        .map(|r| Ok((r.try_get::<String>("", "name")?, r.try_get::<String>("", "type")?)))
        .collect()
}

/// The columns of `table` its revision table does not keep (none, unless a migration added a column to `table`
/// without calling [`refresh`]).
pub async fn unkept_columns(manager: &SchemaManager<'_>, table: &str) -> Result<Vec<String>, DbErr> {
    let kept: Vec<String> = columns(manager, &revision(table))
        .await?
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    Ok(columns(manager, table)
        .await?
        .into_iter()
        .map(|(n, _)| n)
        .filter(|n| !kept.contains(n))
        .collect())
}

fn revision(table: &str) -> String {
    format!("{table}_revision")
}

/// Creates `table`'s revision table and its trigger.
pub async fn install(manager: &SchemaManager<'_>, table: &str) -> Result<(), DbErr> {
    let db = manager.get_connection();
    let backend = db.get_database_backend();
    let cols = columns(manager, table).await?;
    let rev = revision(table);
    let sql = match backend {
        DbBackend::Sqlite => {
            let defs: Vec<String> = cols.iter().map(|(n, t)| format!("\"{n}\" {t}")).collect();
            format!(
                "CREATE TABLE {rev} (revision_id INTEGER PRIMARY KEY AUTOINCREMENT, superseded_at TEXT NOT NULL, {})",
                defs.join(", ")
            )
        }
        _ => format!(
            "CREATE TABLE {rev} (revision_id BIGSERIAL PRIMARY KEY, superseded_at TIMESTAMPTZ NOT NULL, \
             LIKE {table})"
        ),
    };
    db.execute_unprepared(&sql).await?;
    db.execute_unprepared(&format!("CREATE INDEX idx_{rev}_id ON {rev} (id, revision_id)"))
        .await?;
    write_trigger(manager, table, &cols).await
}

/// Adds to `table`'s revision table the columns `table` gained since, and writes its trigger again with them all.
pub async fn refresh(manager: &SchemaManager<'_>, table: &str) -> Result<(), DbErr> {
    let db = manager.get_connection();
    let cols = columns(manager, table).await?;
    let rev = revision(table);
    let have: Vec<String> = columns(manager, &rev).await?.into_iter().map(|(n, _)| n).collect();
    for (n, t) in cols.iter().filter(|(n, _)| !have.contains(n)) {
        db.execute_unprepared(&format!("ALTER TABLE {rev} ADD COLUMN \"{n}\" {t}"))
            .await?;
    }
    write_trigger(manager, table, &cols).await
}

async fn write_trigger(manager: &SchemaManager<'_>, table: &str, cols: &[(String, String)]) -> Result<(), DbErr> {
    let db = manager.get_connection();
    let rev = revision(table);
    let names: Vec<String> = cols.iter().map(|(n, _)| format!("\"{n}\"")).collect();
    let list = names.join(", ");
    match db.get_database_backend() {
        DbBackend::Sqlite => {
            let old: Vec<String> = names.iter().map(|n| format!("OLD.{n}")).collect();
            let changed: Vec<String> = names.iter().map(|n| format!("OLD.{n} IS NOT NEW.{n}")).collect();
            db.execute_unprepared(&format!("DROP TRIGGER IF EXISTS {table}_revise"))
                .await?;
            db.execute_unprepared(&format!(
                "CREATE TRIGGER {table}_revise AFTER UPDATE ON {table} FOR EACH ROW WHEN {} BEGIN
                 INSERT INTO {rev} (superseded_at, {list}) VALUES ({SQLITE_NOW}, {}); END",
                changed.join(" OR "),
                old.join(", ")
            ))
            .await?;
        }
        _ => {
            let old: Vec<String> = names.iter().map(|n| format!("o.{n}")).collect();
            db.execute_unprepared(&format!("DROP TRIGGER IF EXISTS {table}_revise ON {table}"))
                .await?;
            db.execute_unprepared(&format!(
                "CREATE OR REPLACE FUNCTION {table}_revise() RETURNS trigger LANGUAGE plpgsql AS $f$
                 BEGIN
                   INSERT INTO {rev} (superseded_at, {list})
                   SELECT now(), {} FROM old_rows o JOIN new_rows n ON n.id = o.id
                   WHERE ROW(o.*) IS DISTINCT FROM ROW(n.*);
                   RETURN NULL;
                 END $f$",
                old.join(", ")
            ))
            .await?;
            db.execute_unprepared(&format!(
                "CREATE TRIGGER {table}_revise AFTER UPDATE ON {table}
                 REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
                 FOR EACH STATEMENT EXECUTE FUNCTION {table}_revise()"
            ))
            .await?;
        }
    }
    Ok(())
}

/// Drops `table`'s revision trigger alone (SQLite only: a column it names cannot be dropped while it stands; on
/// PostgreSQL the trigger's function is only read when it runs). [`refresh`] writes it again.
pub async fn drop_trigger(manager: &SchemaManager<'_>, table: &str) -> Result<(), DbErr> {
    if manager.get_database_backend() == DbBackend::Sqlite {
        manager
            .get_connection()
            .execute_unprepared(&format!("DROP TRIGGER IF EXISTS {table}_revise"))
            .await?;
    }
    Ok(())
}

/// Drops `table`'s revision table and trigger.
pub async fn uninstall(manager: &SchemaManager<'_>, table: &str) -> Result<(), DbErr> {
    let db = manager.get_connection();
    match db.get_database_backend() {
        DbBackend::Sqlite => {
            db.execute_unprepared(&format!("DROP TRIGGER IF EXISTS {table}_revise"))
                .await?;
        }
        _ => {
            db.execute_unprepared(&format!("DROP TRIGGER IF EXISTS {table}_revise ON {table}"))
                .await?;
            db.execute_unprepared(&format!("DROP FUNCTION IF EXISTS {table}_revise()"))
                .await?;
        }
    }
    db.execute_unprepared(&format!("DROP TABLE IF EXISTS {}", revision(table)))
        .await?;
    Ok(())
}

/// Adds `recorded_at` to `table`, set by the database on insert when the writer leaves it unset; rows already there
/// keep none (known from the start).
pub async fn stamp_inserts(manager: &SchemaManager<'_>, table: &str) -> Result<(), DbErr> {
    let db = manager.get_connection();
    match db.get_database_backend() {
        DbBackend::Sqlite => {
            db.execute_unprepared(&format!("ALTER TABLE {table} ADD COLUMN recorded_at TEXT NULL"))
                .await?;
            db.execute_unprepared(&format!(
                "CREATE TRIGGER {table}_stamp AFTER INSERT ON {table} FOR EACH ROW WHEN NEW.recorded_at IS NULL
                 BEGIN UPDATE {table} SET recorded_at = {SQLITE_NOW} WHERE rowid = NEW.rowid; END"
            ))
            .await?;
        }
        _ => {
            db.execute_unprepared(&format!("ALTER TABLE {table} ADD COLUMN recorded_at TIMESTAMPTZ NULL"))
                .await?;
            db.execute_unprepared(&format!(
                "ALTER TABLE {table} ALTER COLUMN recorded_at SET DEFAULT now()"
            ))
            .await?;
        }
    }
    Ok(())
}

/// Undoes [`stamp_inserts`].
pub async fn unstamp_inserts(manager: &SchemaManager<'_>, table: &str) -> Result<(), DbErr> {
    let db = manager.get_connection();
    if db.get_database_backend() == DbBackend::Sqlite {
        db.execute_unprepared(&format!("DROP TRIGGER IF EXISTS {table}_stamp"))
            .await?;
    }
    manager
        .alter_table(
            Table::alter()
                .table(Alias::new(table))
                .drop_column("recorded_at")
                .to_owned(),
        )
        .await
}
