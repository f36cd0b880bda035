//! Listing banks' monthly reports and job runs, newest first, in keyset pages.

use crate::{
    Caller, ServiceError,
    page::{self, Keyset, Page},
};
use entity::{bank_report, job_run};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter};

/// Which reports to list; `None` or an empty list means any.
#[derive(Debug, Clone, Default)]
pub struct ReportFilter {
    /// Only this bank's.
    pub bank_id: Option<i64>,
    /// Only this month, `YYYY-MM` (checked by [`crate::intake::parse_month`]).
    pub reference_month: Option<String>,
    /// Only in these statuses.
    pub statuses: Vec<&'static str>,
}

/// One page of the reports matching `filter`, newest first.
pub async fn list(
    db: &impl ConnectionTrait,
    caller: &Caller,
    filter: &ReportFilter,
    keyset: Keyset,
) -> Result<Page<bank_report::Model>, ServiceError> {
    use bank_report::Column as C;
    let _scope = caller.scope();
    let mut q = bank_report::Entity::find();
    if let Some(b) = filter.bank_id {
        q = q.filter(C::BankId.eq(b));
    }
    if let Some(m) = &filter.reference_month {
        q = q.filter(C::ReferenceMonth.eq(crate::intake::parse_month(m)?));
    }
    if !filter.statuses.is_empty() {
        q = q.filter(C::Status.is_in(filter.statuses.iter().copied()));
    }
    page::fetch(db, q, C::Id, |r| r.id, keyset).await
}

/// One page of the runs of `job` (or of every job), newest first.
pub async fn job_runs(
    db: &impl ConnectionTrait,
    caller: &Caller,
    job: Option<&str>,
    keyset: Keyset,
) -> Result<Page<job_run::Model>, ServiceError> {
    let _scope = caller.scope();
    let mut q = job_run::Entity::find();
    if let Some(j) = job {
        q = q.filter(job_run::Column::Job.eq(j));
    }
    page::fetch(db, q, job_run::Column::Id, |r| r.id, keyset).await
}
