//! Job runs: one row per (job, slot). The unique key makes a scheduled slot run once even when several processes
//! share one database: the process whose insert succeeds runs it, the others skip.

use chrono::{DateTime, Utc};
use entity::job_run;
use sea_orm::{ActiveModelTrait, ActiveValue::Set, DatabaseConnection, DbErr, IntoActiveModel};

/// What a job step did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JobReport {
    /// Items handled.
    pub processed: u32,
    /// Items that failed (for ingestion: reports rejected).
    pub failed: u32,
    /// A one-line summary: a catalogue message (`JOB_*_DONE`) and its values, stored as such and rendered when read
    /// in the reader's language.
    pub message: service::messages::Message,
}

/// The slot of a scheduled run: the minute it belongs to, in UTC.
pub fn minute_slot(now: DateTime<Utc>) -> String {
    now.format("%Y-%m-%dT%H:%MZ").to_string()
}

/// Records the start of `job` in `slot`; `None` when another process already has that slot.
pub async fn start(
    db: &DatabaseConnection,
    job: &str,
    slot: &str,
    worker: &str,
    now: DateTime<Utc>,
) -> Result<Option<job_run::Model>, DbErr> {
    let row = job_run::ActiveModel {
        job: Set(job.into()),
        slot: Set(slot.into()),
        worker: Set(worker.into()),
        status: Set("RUNNING".into()),
        started_at: Set(now),
        processed: Set(0),
        failed: Set(0),
        ..Default::default()
    };
    match row.insert(db).await {
        Ok(m) => Ok(Some(m)),
        Err(e) if is_unique_violation(&e) => Ok(None),
        Err(e) => Err(e),
    }
}

fn is_unique_violation(e: &DbErr) -> bool {
    let text = e.to_string().to_lowercase();
    text.contains("unique") || text.contains("duplicate key")
}

/// The latest run of `job`, if any.
pub async fn last(db: &DatabaseConnection, job: &str) -> Result<Option<job_run::Model>, DbErr> {
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
    job_run::Entity::find()
        .filter(job_run::Column::Job.eq(job))
        .order_by_desc(job_run::Column::Id)
        .one(db)
        .await
}

/// Records how a run ended.
pub async fn finish(
    db: &DatabaseConnection,
    run: job_run::Model,
    outcome: &Result<JobReport, String>,
    now: DateTime<Utc>,
) -> Result<job_run::Model, DbErr> {
    let mut a = run.into_active_model();
    a.finished_at = Set(Some(now));
    match outcome {
        Ok(r) => {
            a.status = Set("SUCCEEDED".into());
            a.processed = Set(r.processed as i32);
            a.failed = Set(r.failed as i32);
            a.message = Set(None);
            a.message_id = Set(Some(r.message.code.clone()));
            a.message_args = Set(Some(r.message.args_json()));
        }
        Err(e) => {
            a.status = Set("FAILED".into());
            a.message = Set(Some(e.clone()));
        }
    }
    a.update(db).await
}
