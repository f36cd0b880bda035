//! The `build-dashboards` job: builds the compliance dashboard as of a day (today in Brasília by default) and keeps it,
//! so `complianceDashboard`, `/dashboard` and the dashboard exports read it in one statement (`service::dashboard`).

use crate::runs::JobReport;
use chrono::{DateTime, NaiveDate, Utc};
use sea_orm::DatabaseConnection;

/// The job's name.
pub const JOB: &str = "build-dashboards";

/// Builds the dashboard as of `as_of` (today in Brasília when absent).
pub async fn run_once(
    db: &DatabaseConnection,
    now: DateTime<Utc>,
    as_of: Option<NaiveDate>,
) -> Result<JobReport, service::ServiceError> {
    let as_of = as_of.unwrap_or_else(|| entity::domain::brasilia_date(now));
    let d = service::dashboard::build(db, as_of, now).await?;
    Ok(JobReport {
        processed: d.tables.len() as u32,
        failed: 0,
        message: service::messages::Message::new(service::messages::code::JOB_DASHBOARD_DONE)
            .arg("day", as_of)
            .arg("tables", d.tables.len())
            .arg("decisions", d.figures.decisions_overdue)
            .arg("evaluations", d.figures.evaluations_overdue)
            .arg("expiring", d.figures.approvals_expiring),
    })
}
