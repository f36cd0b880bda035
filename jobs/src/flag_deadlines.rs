//! The `flag-deadlines` job: every day (06:00 in Brasília by default) it judges every deadline and rule outcome and
//! keeps `compliance_flag` in step (`service::deadline_flags`): raises what is due within its window or overdue,
//! resolves what the facts cleared, leaves a person's resolution alone while its facts stay the same.

use crate::runs::JobReport;
use chrono::{DateTime, NaiveDate, Utc};
use sea_orm::DatabaseConnection;
use service::deadline_flags::{self, Synced};

/// The job's name in `job_run` and on the command line.
pub const JOB: &str = "flag-deadlines";

/// One pass as of `as_of` (today in Brasília when absent).
pub async fn run_once(
    db: &DatabaseConnection,
    now: DateTime<Utc>,
    as_of: Option<NaiveDate>,
) -> Result<(JobReport, Synced), service::ServiceError> {
    let as_of = as_of.unwrap_or_else(|| entity::domain::brasilia_date(now));
    let synced = deadline_flags::run(db, as_of, now).await?;
    let report = JobReport {
        processed: synced.judged,
        failed: 0,
        message: service::messages::Message::new(service::messages::code::JOB_FLAGS_DONE)
            .arg("day", as_of)
            .arg("judged", synced.judged)
            .arg("raised", synced.raised.len())
            .arg("changed", synced.changed.len())
            .arg("resolved", synced.resolved.len())
            .arg("held", synced.held),
    };
    tracing::info!(job = JOB, %as_of, raised = synced.raised.len(), resolved = synced.resolved.len(), "flags in step");
    Ok((report, synced))
}
