//! One run of a scheduled job. `(job, slot)` is unique, so a slot runs once even with several processes sharing a
//! database.

use sea_orm::entity::prelude::*;

/// A job run row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "job_run")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The job's name.
    pub job: String,
    /// The schedule slot (`2026-12-02T10:31:00Z`), or a unique key for a manual run.
    pub slot: String,
    /// The process that ran it.
    pub worker: String,
    /// `RUNNING`, `SUCCEEDED` or `FAILED`.
    pub status: String,
    /// When it started.
    pub started_at: DateTimeUtc,
    /// When it finished.
    pub finished_at: Option<DateTimeUtc>,
    /// Items processed.
    pub processed: i32,
    /// Items that failed.
    pub failed: i32,
    /// The error of a failed run, or the summary of a run recorded before migration 62 (English); empty when the
    /// summary is a catalogue message (`message_id`).
    pub message: Option<String>,
    /// The summary's catalogue code (`JOB_PURGE_DONE`), rendered when read in the reader's language.
    pub message_id: Option<String>,
    /// The summary's values, as JSON (`{"files": "1", …}`).
    pub message_args: Option<String>,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
