//! Listing banks' monthly reports and job runs, newest first, in keyset pages.

use crate::{
    Caller, ServiceError,
    page::{self, Keyset, Page},
};
use entity::{bank_report, bank_report_carta, fco_carta, job_run};
use sea_orm::{ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, sea_query::Query};

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
    let mut q = bank_report::Entity::find();
    if let Some(b) = crate::access::read_scope(caller)? {
        q = q.filter(C::BankId.eq(b));
    }
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
    // An operator's record (every bank's ingestion counts): none for a bank.
    let mut q = job_run::Entity::find();
    if crate::access::read_scope(caller)?.is_some() {
        q = q.filter(job_run::Column::Id.lt(0));
    }
    if let Some(j) = job {
        q = q.filter(job_run::Column::Job.eq(j));
    }
    page::fetch(db, q, job_run::Column::Id, |r| r.id, keyset).await
}

/// The cartas report `report` declared, newest first.
pub async fn declared_cartas(
    db: &impl ConnectionTrait,
    caller: &Caller,
    report: i64,
    keyset: Keyset,
) -> Result<Page<fco_carta::Model>, ServiceError> {
    let _scope = caller.scope();
    let q = fco_carta::Entity::find().filter(declared_by(report));
    page::fetch(db, q, fco_carta::Column::Id, |c| c.id, keyset).await
}

/// The cartas the same bank's declaration of the month before (its report in force, `INGESTED`) listed and `report`
/// does not, newest first; none when there is no such declaration.
pub async fn dropped_cartas(
    db: &impl ConnectionTrait,
    caller: &Caller,
    report: &bank_report::Model,
    keyset: Keyset,
) -> Result<Page<fco_carta::Model>, ServiceError> {
    use bank_report::Column as C;
    let _scope = caller.scope();
    let previous_month = chrono::NaiveDate::parse_from_str(&format!("{}-01", report.reference_month), "%Y-%m-%d")
        .ok()
        .and_then(|d| d.checked_sub_months(chrono::Months::new(1)))
        .map(|d| d.format("%Y-%m").to_string());
    let previous = match previous_month {
        Some(m) => {
            bank_report::Entity::find()
                .filter(C::BankId.eq(report.bank_id))
                .filter(C::ReferenceMonth.eq(m))
                .filter(C::Status.eq("INGESTED"))
                .order_by_desc(C::Id)
                .one(db)
                .await?
        }
        None => None,
    };
    let q = fco_carta::Entity::find().filter(match previous {
        Some(p) => Condition::all()
            .add(declared_by(p.id))
            .add(declared_by(report.id).not()),
        // No declaration the month before: nothing was dropped.
        None => Condition::any(),
    });
    page::fetch(db, q, fco_carta::Column::Id, |c| c.id, keyset).await
}

/// The cartas `report` declared: those it created (`fco_carta.created_by_report`, written by the insert at no extra
/// cost) and the known ones it listed again (`bank_report_carta`). The one definition of a report's set, for the
/// pages here and the dashboard ([`declared_pairs`]).
pub fn declared_by(report: i64) -> Condition {
    // `IS NOT NULL` first, so the condition is false, not null, for a carta no list created: its negation must hold.
    Condition::any()
        .add(
            Condition::all()
                .add(fco_carta::Column::CreatedByReport.is_not_null())
                .add(fco_carta::Column::CreatedByReport.eq(report)),
        )
        .add(
            fco_carta::Column::Id.in_subquery(
                Query::select()
                    .column(bank_report_carta::Column::CartaId)
                    .from(bank_report_carta::Entity)
                    .and_where(bank_report_carta::Column::ReportId.eq(report))
                    .to_owned(),
            ),
        )
}

/// The cartas each of `reports` declared ([`declared_by`]), as `(report, carta)` pairs, a pair possibly twice.
pub async fn declared_pairs(db: &impl ConnectionTrait, reports: &[i64]) -> Result<Vec<(i64, i64)>, sea_orm::DbErr> {
    use sea_orm::QuerySelect;
    let mut pairs = Vec::new();
    for chunk in reports.chunks(500) {
        let created: Vec<(Option<i64>, i64)> = fco_carta::Entity::find()
            .select_only()
            .column(fco_carta::Column::CreatedByReport)
            .column(fco_carta::Column::Id)
            .filter(fco_carta::Column::CreatedByReport.is_in(chunk.to_vec()))
            .into_tuple()
            .all(db)
            .await?;
        pairs.extend(created.into_iter().filter_map(|(r, c)| Some((r?, c))));
        let listed: Vec<(i64, i64)> = bank_report_carta::Entity::find()
            .select_only()
            .column(bank_report_carta::Column::ReportId)
            .column(bank_report_carta::Column::CartaId)
            .filter(bank_report_carta::Column::ReportId.is_in(chunk.to_vec()))
            .into_tuple()
            .all(db)
            .await?;
        pairs.extend(listed);
    }
    Ok(pairs)
}

/// The report whose list created carta `carta`, when a list did.
pub async fn creating_report(
    db: &impl ConnectionTrait,
    carta: &fco_carta::Model,
) -> Result<Option<bank_report::Model>, ServiceError> {
    Ok(match carta.created_by_report {
        Some(id) => bank_report::Entity::find_by_id(id).one(db).await?,
        None => None,
    })
}

/// A report, if the caller may see it (another bank's report answers as one that does not exist).
pub async fn report(
    db: &impl ConnectionTrait,
    caller: &Caller,
    id: i64,
) -> Result<Option<bank_report::Model>, ServiceError> {
    let scope = crate::access::read_scope(caller)?;
    Ok(bank_report::Entity::find_by_id(id)
        .one(db)
        .await?
        .filter(|r| scope.is_none_or(|b| b == r.bank_id)))
}

/// A report's row errors, by row, at most `limit`.
pub async fn row_errors(
    db: &impl ConnectionTrait,
    report: i64,
    limit: Option<u64>,
) -> Result<Vec<entity::bank_report_error::Model>, ServiceError> {
    use entity::bank_report_error::{Column as C, Entity};
    use sea_orm::QuerySelect;
    Ok(Entity::find()
        .filter(C::ReportId.eq(report))
        .order_by_asc(C::RowNumber)
        .order_by_asc(C::Id)
        .limit(limit)
        .all(db)
        .await?)
}

/// A job run's summary in `lang`: its stored code and values rendered (migration 62), or the text stored (a failed
/// run's error, or a summary recorded before migration 62); `None` when it has none (a run still running).
pub fn job_run_message(r: &entity::job_run::Model, lang: crate::messages::Lang) -> Option<String> {
    match &r.message_id {
        Some(id) => Some(crate::messages::Message::stored(id, r.message_args.as_deref()).render(lang)),
        None => r.message.clone(),
    }
}
