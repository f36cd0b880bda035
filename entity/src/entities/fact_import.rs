//! A bulk import of facts from a spreadsheet: a project's acquisitions for a year, a carta's items, or a chamber
//! meeting's agenda. The raw file stays in the store; a job applies every row in one transaction (`APPLIED`) or none
//! and keeps every row error (`REJECTED`), or ends `FAILED` when it cannot run.

use sea_orm::entity::prelude::*;

/// An import.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "fact_import")]
pub struct Model {
    /// Surrogate key: the import's number.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// `ACQUISITIONS`, `CARTA_ITEMS` or `MEETING_AGENDA`.
    pub kind: String,
    /// The project, carta or chamber meeting the file is for.
    pub target_id: i64,
    /// The acquisition year (acquisitions only).
    pub year: Option<i32>,
    /// The reason given for the change, needed once the decision that relies on the facts was taken.
    pub reason: Option<String>,
    /// SHA-256 of the raw file, its key in the store.
    pub sha256: String,
    /// The file's name as sent.
    pub file_name: String,
    /// Its size in bytes.
    pub byte_size: i64,
    /// `RECEIVED`, `PROCESSING`, `APPLIED`, `REJECTED` or `FAILED`.
    pub status: String,
    /// Attempts so far.
    pub attempts: i32,
    /// The worker holding it while `PROCESSING`.
    pub claimed_by: Option<String>,
    /// Until when that worker holds it (or, between attempts, when the next may start).
    pub lease_until: Option<DateTimeUtc>,
    /// The last attempt's error, for the operator.
    pub last_error: Option<String>,
    /// The file's error, when it cannot be read at all or a row-independent check fails: its catalogue code.
    pub file_error_code: Option<String>,
    /// That error's values, as a JSON object.
    pub file_error_args: Option<String>,
    /// Data rows read.
    pub rows_read: Option<i32>,
    /// Rows applied.
    pub rows_applied: Option<i32>,
    /// When it was received.
    pub received_at: DateTimeUtc,
    /// Who sent it.
    pub received_by: String,
    /// When it ended.
    pub processed_at: Option<DateTimeUtc>,
    /// When its raw file was purged from the store at the end of its retention (`fomento files purge`).
    pub raw_purged_at: Option<DateTimeUtc>,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
