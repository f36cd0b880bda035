//! Compliance flags on every kind of subject, kept in step by the `flag-deadlines` job:
//! - `subject_kind`/`subject_id`: a financing (`FINANCING`, the project or carta of `programme`/`financing_id`), a bank
//!   (`BANK`), a chamber meeting (`MEETING`), an economic group (`GROUP`) or a bank report (`REPORT`);
//!   `financing_id` is now empty for subjects that are not financings;
//! - `occurrence`: which occurrence of a recurring deadline (the month of a bank's monthly list), empty otherwise;
//! - `fingerprint`: the facts behind the flag (severity and due day, or the numbers judged), so that a human
//!   resolution holds until they change;
//! - `resolved_by` and `resolution`: who resolved it (`job:flag-deadlines`, a person, a superseding report) and why.
//!
//! One open flag per (subject, rule, source, occurrence) for the jobs' flags, enforced by a partial unique index on
//! both backends, so neither a rerun nor a second worker duplicates one. The look-ahead windows of the deadlines are
//! versioned rule parameters (`*.WARNING_DAYS`), Fomento's policy rather than the instruments'.

use sea_orm_migration::{prelude::*, sea_orm::DbBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// `(key, rule, days)`: how many days before a deadline its flag turns `WARNING`.
pub const WINDOWS: &[(&str, &str, &str)] = &[
    ("SF-DECISION-30D.WARNING_DAYS", "SF-DECISION-30D", "10"),
    ("SF-EXTERNAL-EVAL-6M.WARNING_DAYS", "SF-EXTERNAL-EVAL-6M", "30"),
    ("SF-SEAL-REQUEST-30D.WARNING_DAYS", "SF-SEAL-REQUEST-30D", "10"),
    ("SF-EXTENSION-12M.WARNING_DAYS", "SF-EXTENSION-12M", "30"),
    ("FCO-VALIDITY-120D.WARNING_DAYS", "FCO-VALIDITY-120D", "15"),
    ("FCO-MONTHLY-LIST.WARNING_DAYS", "FCO-MONTHLY-LIST", "10"),
    ("FCO-BB-60D.WARNING_DAYS", "FCO-BB-60D", "10"),
];

/// Where the windows come from.
pub const WINDOW_SOURCE: &str = "Fomento, look-ahead window (policy, not in the instrument)";

const COLUMNS: &str = "id, programme, financing_id, rule_code, legal_basis, message, source, raised_at, resolved_at, \
                       severity, due_on, subject_kind, subject_id, occurrence, fingerprint, resolved_by, resolution";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        match manager.get_database_backend() {
            DbBackend::Postgres => {
                db.execute_unprepared(
                    "ALTER TABLE compliance_flag
                       ALTER COLUMN financing_id DROP NOT NULL,
                       ADD COLUMN subject_kind varchar NOT NULL DEFAULT 'FINANCING',
                       ADD COLUMN subject_id bigint NOT NULL DEFAULT 0,
                       ADD COLUMN occurrence varchar NOT NULL DEFAULT '',
                       ADD COLUMN fingerprint text NULL,
                       ADD COLUMN resolved_by varchar NULL,
                       ADD COLUMN resolution text NULL;
                     UPDATE compliance_flag SET subject_id = financing_id;",
                )
                .await?;
            }
            _ => {
                // SQLite cannot drop a NOT NULL: the table is rebuilt with the new columns.
                db.execute_unprepared(&format!(
                    "CREATE TABLE compliance_flag_new (
                       id integer NOT NULL PRIMARY KEY AUTOINCREMENT,
                       programme varchar NOT NULL,
                       financing_id bigint NULL,
                       rule_code varchar NOT NULL,
                       legal_basis varchar NOT NULL,
                       message text NOT NULL,
                       source varchar NOT NULL,
                       raised_at timestamp_with_timezone_text NOT NULL,
                       resolved_at timestamp_with_timezone_text NULL,
                       severity varchar NOT NULL DEFAULT 'VIOLATION',
                       due_on date_text NULL,
                       subject_kind varchar NOT NULL DEFAULT 'FINANCING',
                       subject_id bigint NOT NULL DEFAULT 0,
                       occurrence varchar NOT NULL DEFAULT '',
                       fingerprint text NULL,
                       resolved_by varchar NULL,
                       resolution text NULL);
                     INSERT INTO compliance_flag_new ({COLUMNS})
                       SELECT id, programme, financing_id, rule_code, legal_basis, message, source, raised_at,
                              resolved_at, severity, due_on, 'FINANCING', financing_id, '', NULL, NULL, NULL
                       FROM compliance_flag;
                     DROP TABLE compliance_flag;
                     ALTER TABLE compliance_flag_new RENAME TO compliance_flag;
                     CREATE INDEX idx_compliance_flag_programme_financing_id
                       ON compliance_flag (programme, financing_id);"
                ))
                .await?;
            }
        }
        db.execute_unprepared(
            "CREATE INDEX idx_compliance_flag_subject ON compliance_flag (subject_kind, subject_id);
             CREATE INDEX idx_compliance_flag_source_open ON compliance_flag (source) WHERE resolved_at IS NULL;
             CREATE UNIQUE INDEX uq_compliance_flag_open_job
               ON compliance_flag (subject_kind, subject_id, rule_code, source, occurrence)
               WHERE resolved_at IS NULL AND source LIKE 'job:%';",
        )
        .await?;
        let mut insert = Query::insert();
        insert.into_table("rule_parameter").columns([
            "key",
            "rule_code",
            "value",
            "unit",
            "effective_from",
            "effective_to",
            "legal_source",
            "created_at",
        ]);
        for (key, rule, days) in WINDOWS {
            insert.values_panic([
                (*key).into(),
                (*rule).into(),
                (*days).into(),
                "DAYS".into(),
                sea_orm_migration::sea_orm::prelude::Date::from_ymd_opt(2001, 1, 1).into(),
                Option::<sea_orm_migration::sea_orm::prelude::Date>::None.into(),
                WINDOW_SOURCE.into(),
                Expr::current_timestamp(),
            ]);
        }
        manager.exec_stmt(insert).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        let keys = WINDOWS
            .iter()
            .map(|(k, ..)| format!("'{k}'"))
            .collect::<Vec<_>>()
            .join(", ");
        db.execute_unprepared(&format!("DELETE FROM rule_parameter WHERE key IN ({keys})"))
            .await?;
        db.execute_unprepared(
            "DROP INDEX uq_compliance_flag_open_job;
             DROP INDEX idx_compliance_flag_source_open;
             DROP INDEX idx_compliance_flag_subject;
             DELETE FROM compliance_flag WHERE financing_id IS NULL;",
        )
        .await?;
        match manager.get_database_backend() {
            DbBackend::Postgres => {
                db.execute_unprepared(
                    "ALTER TABLE compliance_flag
                       ALTER COLUMN financing_id SET NOT NULL,
                       DROP COLUMN subject_kind, DROP COLUMN subject_id, DROP COLUMN occurrence,
                       DROP COLUMN fingerprint, DROP COLUMN resolved_by, DROP COLUMN resolution;",
                )
                .await?;
            }
            _ => {
                db.execute_unprepared(
                    "CREATE TABLE compliance_flag_old (
                       id integer NOT NULL PRIMARY KEY AUTOINCREMENT,
                       programme varchar NOT NULL,
                       financing_id bigint NOT NULL,
                       rule_code varchar NOT NULL,
                       legal_basis varchar NOT NULL,
                       message text NOT NULL,
                       source varchar NOT NULL,
                       raised_at timestamp_with_timezone_text NOT NULL,
                       resolved_at timestamp_with_timezone_text NULL,
                       severity varchar NOT NULL DEFAULT 'VIOLATION',
                       due_on date_text NULL);
                     INSERT INTO compliance_flag_old
                       SELECT id, programme, financing_id, rule_code, legal_basis, message, source, raised_at,
                              resolved_at, severity, due_on FROM compliance_flag;
                     DROP TABLE compliance_flag;
                     ALTER TABLE compliance_flag_old RENAME TO compliance_flag;
                     CREATE INDEX idx_compliance_flag_programme_financing_id
                       ON compliance_flag (programme, financing_id);",
                )
                .await?;
            }
        }
        Ok(())
    }
}
