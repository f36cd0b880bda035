//! The `expire-approvals` job: every day (05:30 in Brasília by default, before `flag-deadlines`) it expires the
//! approvals whose 120 days lapsed with no presentation of the project to the bank recorded (FCO-VALIDITY-120D, IN
//! CDAE/MT 2019, art. 3 sole §): the CDAE's, and, by the reading made, the bank's own below the threshold (art. 2 §3),
//! counted from the bank's approval. Each gets its history row, so FCO-CEILING counts only credit still committed
//! (`service::lifecycle::expire_lapsed_approvals`).

use crate::runs::JobReport;
use chrono::{DateTime, NaiveDate, Utc};
use sea_orm::DatabaseConnection;
use service::{
    Caller, Clock,
    lifecycle::{Act, Expired, expire_lapsed_approvals},
};

/// The job's name in `job_run` and on the command line.
pub const JOB: &str = "expire-approvals";

/// One pass as of `as_of` (today in Brasília when absent), recorded as the system at `now`.
pub async fn run_once(
    db: &DatabaseConnection,
    now: DateTime<Utc>,
    as_of: Option<NaiveDate>,
) -> Result<(JobReport, Expired), service::ServiceError> {
    let as_of = as_of.unwrap_or_else(|| entity::domain::brasilia_date(now));
    let act = Act {
        caller: Caller::System,
        clock: Clock::Fixed(now),
    };
    let done = expire_lapsed_approvals(db, &act, as_of).await?;
    let report = JobReport {
        processed: u32::try_from(done.looked_at).unwrap_or(u32::MAX),
        failed: 0,
        message: service::messages::Message::new(service::messages::code::JOB_EXPIRE_DONE)
            .arg("day", as_of)
            .arg("looked", done.looked_at)
            .arg("expired", done.expired.len()),
    };
    tracing::info!(job = JOB, %as_of, expired = done.expired.len(), "lapsed approvals expired");
    Ok((report, done))
}
