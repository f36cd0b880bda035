//! A bank's monthly report of the cartas it approved and contracted (CDAE/MT 2019, art. 2 §5): the upload record.

use sea_orm::entity::prelude::*;

/// An uploaded report.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "bank_report")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The reporting bank.
    pub bank_id: i64,
    /// The month reported, as `YYYY-MM`.
    pub reference_month: String,
    /// SHA-256 of the raw bytes, hex: the file's address in the store.
    pub sha256: String,
    /// The name the file was uploaded with.
    pub file_name: String,
    /// Size in bytes.
    pub byte_size: i64,
    /// `RECEIVED`, `PROCESSING`, `INGESTED`, `REJECTED`, `FAILED` or `SUPERSEDED`.
    pub status: String,
    /// Data rows read.
    pub row_count: Option<i32>,
    /// Row errors found.
    pub error_count: Option<i32>,
    /// A file-level error (unreadable, no header, too large), rendered in Portuguese when written.
    pub file_error: Option<String>,
    /// The file error's catalogue code, rendered in the reader's language when read.
    pub file_error_code: Option<String>,
    /// The file error's values, as a JSON object.
    pub file_error_args: Option<String>,
    /// When it was received.
    pub received_at: DateTimeUtc,
    /// The worker holding the claim.
    pub claimed_by: Option<String>,
    /// Until when the claim holds.
    pub lease_until: Option<DateTimeUtc>,
    /// When processing finished.
    pub processed_at: Option<DateTimeUtc>,
    /// The later report that supersedes this one.
    pub superseded_by: Option<i64>,
    /// Attempts made to ingest it (each claim is one; reset when the report is queued again).
    pub attempts: i32,
    /// The last attempt's error, for the operator (never shown to the bank).
    pub last_error: Option<String>,
    /// When its raw file was purged from the store at the end of its retention (`fomento files purge`).
    pub raw_purged_at: Option<DateTimeUtc>,
}

impl Model {
    /// The reference a bank quotes to the operator about a failed ingestion: the report and the attempt.
    pub fn failure_reference(&self) -> String {
        format!("FOMENTO-R{}-T{}", self.id, self.attempts)
    }
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
