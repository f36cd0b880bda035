//! The ingestion job: claim a received report (a conditional claim with a lease, safe with several workers on one
//! database), read it, and either apply every row in one transaction (`INGESTED`) or apply nothing and keep every
//! row error (`REJECTED`). The raw file always stays in the store.

use super::{
    read::{Limits, read},
    rows::{Municipalities, ReportRow, RowError, find_header, parse_rows},
};
use crate::{runs::JobReport, store::FileStore};
use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};
use entity::{
    bank_report, bank_report_error, bank_report_row, compliance_flag, fco_carta, municipality, non_business_day, party,
    rule_parameter,
    rules::{self, brl},
    vocab::{Decision, FcoCartaStage, Programme},
};
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection, DatabaseTransaction, DbErr,
    EntityTrait, IntoActiveModel, QueryFilter, QueryOrder, QuerySelect, TransactionTrait, sea_query::Expr,
};
use std::collections::{HashMap, HashSet};

/// The job's name in `job_run`.
pub const JOB: &str = "ingest";

/// What the ingestion needs.
#[derive(Clone, Debug)]
pub struct IngestContext {
    /// The database.
    pub db: DatabaseConnection,
    /// Where raw files are.
    pub store: FileStore,
    /// This worker's name (host and process).
    pub worker: String,
    /// How long a claim holds before another worker may take the report.
    pub lease: Duration,
    /// File limits.
    pub limits: Limits,
}

/// Why a step failed (the report stays claimed until its lease expires, then is retried).
#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    /// Database failure.
    #[error("database: {0}")]
    Db(#[from] DbErr),
    /// File store failure.
    #[error("{0}")]
    Store(#[from] crate::store::StoreError),
}

/// How one report ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Every row applied.
    Ingested {
        /// Rows applied.
        rows: usize,
    },
    /// Nothing applied.
    Rejected {
        /// Rows read.
        rows: usize,
        /// Errors found.
        errors: usize,
    },
    /// Another worker holds the report now; nothing was written.
    LostLease,
}

/// Claims the oldest report that is received, or whose worker's lease expired.
pub async fn claim(ctx: &IngestContext, now: DateTime<Utc>) -> Result<Option<bank_report::Model>, DbErr> {
    use bank_report::Column as C;
    let claimable = || {
        sea_orm::Condition::any().add(C::Status.eq("RECEIVED")).add(
            sea_orm::Condition::all()
                .add(C::Status.eq("PROCESSING"))
                .add(C::LeaseUntil.lt(now)),
        )
    };
    for _ in 0..10 {
        let Some(candidate) = bank_report::Entity::find()
            .filter(claimable())
            .order_by_asc(C::Id)
            .one(&ctx.db)
            .await?
        else {
            return Ok(None);
        };
        let res = bank_report::Entity::update_many()
            .col_expr(C::Status, Expr::value("PROCESSING"))
            .col_expr(C::ClaimedBy, Expr::value(ctx.worker.clone()))
            .col_expr(C::LeaseUntil, Expr::value(now + ctx.lease))
            .filter(C::Id.eq(candidate.id))
            .filter(claimable())
            .exec(&ctx.db)
            .await?;
        if res.rows_affected == 1 {
            return bank_report::Entity::find_by_id(candidate.id).one(&ctx.db).await;
        }
        // Another worker won this one; look again.
    }
    Ok(None)
}

/// One step: process every claimable report; a report that fails to process stays claimed and is retried after its
/// lease.
pub async fn run_once(ctx: &IngestContext, now: DateTime<Utc>) -> Result<JobReport, IngestError> {
    let mut report = JobReport::default();
    let mut seen = HashSet::new();
    while let Some(r) = claim(ctx, now).await? {
        if !seen.insert(r.id) {
            break;
        }
        match process(ctx, &r, now).await? {
            Outcome::Ingested { .. } => report.processed += 1,
            Outcome::Rejected { .. } => {
                report.processed += 1;
                report.failed += 1;
            }
            Outcome::LostLease => {}
        }
    }
    report.message = format!("{} report(s) processed, {} rejected", report.processed, report.failed);
    Ok(report)
}

/// Takes the claim's row lock inside `txn`; false when this worker no longer holds the claim.
async fn still_mine(txn: &DatabaseTransaction, ctx: &IngestContext, id: i64) -> Result<bool, DbErr> {
    use bank_report::Column as C;
    let res = bank_report::Entity::update_many()
        .col_expr(C::ClaimedBy, Expr::value(ctx.worker.clone()))
        .filter(C::Id.eq(id))
        .filter(C::ClaimedBy.eq(ctx.worker.clone()))
        .filter(C::Status.eq("PROCESSING"))
        .exec(txn)
        .await?;
    Ok(res.rows_affected == 1)
}

async fn reject(
    ctx: &IngestContext,
    r: &bank_report::Model,
    rows: usize,
    file_error: Option<String>,
    errors: &[RowError],
    now: DateTime<Utc>,
) -> Result<Outcome, IngestError> {
    let txn = ctx.db.begin().await?;
    if !still_mine(&txn, ctx, r.id).await? {
        txn.rollback().await?;
        return Ok(Outcome::LostLease);
    }
    for chunk in errors.chunks(1000) {
        bank_report_error::Entity::insert_many(chunk.iter().map(|e| bank_report_error::ActiveModel {
            report_id: Set(r.id),
            row_number: Set(e.row as i32),
            column_name: Set(e.column.clone()),
            value: Set(e.value.clone()),
            message: Set(e.message.clone()),
            rule_code: Set(e.rule_code.clone()),
            ..Default::default()
        }))
        .exec(&txn)
        .await?;
    }
    let mut a = r.clone().into_active_model();
    a.status = Set("REJECTED".into());
    a.row_count = Set(Some(rows as i32));
    a.error_count = Set(Some(errors.len().max(usize::from(file_error.is_some())) as i32));
    a.file_error = Set(file_error);
    a.processed_at = Set(Some(now));
    a.lease_until = Set(None);
    a.claimed_by = Set(Some(ctx.worker.clone()));
    a.update(&txn).await?;
    txn.commit().await?;
    Ok(Outcome::Rejected {
        rows,
        errors: errors.len(),
    })
}

/// Reads, checks and applies one claimed report.
pub async fn process(ctx: &IngestContext, r: &bank_report::Model, now: DateTime<Utc>) -> Result<Outcome, IngestError> {
    let bytes = ctx.store.get(&r.sha256).await?;
    let cells = match read(&bytes, &ctx.limits) {
        Ok(c) => c,
        Err(e) => return reject(ctx, r, 0, Some(e.to_string()), &[], now).await,
    };
    drop(bytes);
    let header = match find_header(&cells) {
        Ok(h) => h,
        Err(e) => return reject(ctx, r, 0, Some(e), &[], now).await,
    };
    let munis = Municipalities::new(
        municipality::Entity::find()
            .all(&ctx.db)
            .await?
            .into_iter()
            .map(|m| (m.ibge_code, m.name)),
    );
    let (rows, errors) = parse_rows(&cells, &header, &munis);
    drop(cells);
    let total = rows.len() + errors.iter().map(|e| e.row).collect::<HashSet<_>>().len();
    if total > ctx.limits.max_rows {
        return reject(
            ctx,
            r,
            total,
            Some(format!("the sheet has more than {} rows", ctx.limits.max_rows)),
            &[],
            now,
        )
        .await;
    }
    if !errors.is_empty() {
        return reject(ctx, r, total, None, &errors, now).await;
    }
    if rows.is_empty() {
        return reject(
            ctx,
            r,
            0,
            Some("the sheet has a header but no data rows".into()),
            &[],
            now,
        )
        .await;
    }
    apply(ctx, r, rows, now).await
}

struct Flag {
    number: String,
    code: &'static str,
    message: String,
}

fn flag(number: &str, code: &'static str, message: String) -> Flag {
    Flag {
        number: number.to_owned(),
        code,
        message,
    }
}

fn month_bounds(reference_month: &str) -> Option<(NaiveDate, NaiveDate)> {
    let first = NaiveDate::parse_from_str(&format!("{reference_month}-01"), "%Y-%m-%d").ok()?;
    let last = first.checked_add_months(chrono::Months::new(1))?.pred_opt()?;
    Some((NaiveDate::from_ymd_opt(first.year(), 1, 1)?, last))
}

async fn apply(
    ctx: &IngestContext,
    r: &bank_report::Model,
    rows: Vec<ReportRow>,
    now: DateTime<Utc>,
) -> Result<Outcome, IngestError> {
    let txn = ctx.db.begin().await?;
    if !still_mine(&txn, ctx, r.id).await? {
        txn.rollback().await?;
        return Ok(Outcome::LostLease);
    }
    let params = rule_parameter::Entity::params(&txn).await?;
    let cal = non_business_day::Entity::calendar(&txn).await?;
    let mut flags = Vec::new();

    // Duplicates in the file: the last row of a carta wins.
    let mut last: HashMap<&str, usize> = HashMap::new();
    for (i, row) in rows.iter().enumerate() {
        if let Some(prev) = last.insert(row.carta_number.as_str(), i) {
            flags.push(flag(
                &row.carta_number,
                "FCO-MONTHLY-LIST",
                format!(
                    "carta {} appears on rows {} and {} of report {}; row {} is applied",
                    row.carta_number, rows[prev].row, row.row, r.id, row.row
                ),
            ));
        }
    }
    let applied: Vec<&ReportRow> = rows
        .iter()
        .enumerate()
        .filter(|(i, row)| last.get(row.carta_number.as_str()) == Some(i))
        .map(|(_, row)| row)
        .collect();

    // Dates within the declared year, up to the end of the declared month.
    if let Some((year_start, month_end)) = month_bounds(&r.reference_month) {
        for row in &applied {
            for (what, d) in [("approved", Some(row.approved_on)), ("contracted", row.contracted_on)] {
                if let Some(d) = d
                    && (d < year_start || d > month_end)
                {
                    flags.push(flag(
                        &row.carta_number,
                        "FCO-MONTHLY-LIST",
                        format!(
                            "row {}: {what} on {}, outside the year declared up to {} ({})",
                            row.row,
                            d.format("%d/%m/%Y"),
                            month_end.format("%d/%m/%Y"),
                            r.reference_month
                        ),
                    ));
                }
            }
        }
    }

    // Parties by document, created when new.
    let docs: Vec<String> = applied
        .iter()
        .map(|row| row.document.as_str().to_owned())
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    let mut party_ids: HashMap<String, (i64, Option<i64>)> = HashMap::new();
    for chunk in docs.chunks(500) {
        for p in party::Entity::find()
            .filter(party::Column::Document.is_in(chunk.iter().cloned()))
            .all(&txn)
            .await?
        {
            party_ids.insert(p.document.clone(), (p.id, p.economic_group_id));
        }
    }
    let mut new_parties: Vec<party::ActiveModel> = Vec::new();
    let mut queued = HashSet::new();
    for row in &applied {
        let d = row.document.as_str();
        if !party_ids.contains_key(d) && queued.insert(d.to_owned()) {
            new_parties.push(party::ActiveModel {
                document: Set(d.to_owned()),
                document_kind: Set(row.document.kind().as_str().into()),
                cnpj_root: Set(row.document.cnpj_root().map(Into::into)),
                name: Set(row.borrower.clone()),
                economic_group_id: Set(None),
                ..Default::default()
            });
        }
    }
    let new_docs: Vec<String> = queued.into_iter().collect();
    for chunk in new_parties.chunks(1000) {
        party::Entity::insert_many(chunk.to_vec()).exec(&txn).await?;
    }
    for chunk in new_docs.chunks(500) {
        for p in party::Entity::find()
            .filter(party::Column::Document.is_in(chunk.iter().cloned()))
            .all(&txn)
            .await?
        {
            party_ids.insert(p.document.clone(), (p.id, p.economic_group_id));
        }
    }

    // Cartas: update the known ones, insert the new ones.
    let numbers: Vec<String> = applied.iter().map(|row| row.carta_number.clone()).collect();
    let mut known: HashMap<String, fco_carta::Model> = HashMap::new();
    for chunk in numbers.chunks(500) {
        for c in fco_carta::Entity::find()
            .filter(fco_carta::Column::BankId.eq(r.bank_id))
            .filter(fco_carta::Column::Number.is_in(chunk.iter().cloned()))
            .all(&txn)
            .await?
        {
            known.insert(c.number.clone(), c);
        }
    }
    let mut inserts = Vec::new();
    for row in &applied {
        let (threshold_hit, threshold) =
            rules::fco::needs_chamber(row.financed, &params, row.approved_on).unwrap_or((false, Default::default()));
        let stage = if row.contracted_on.is_some() {
            FcoCartaStage::Contracted
        } else {
            FcoCartaStage::Approved
        };
        if threshold_hit {
            match known.get(&row.carta_number) {
                None => flags.push(flag(
                    &row.carta_number,
                    "FCO-CHAMBER-THRESHOLD",
                    format!(
                        "row {}: {} is at or above {} but the carta was never submitted to the CPACR chamber",
                        row.row,
                        row.financed,
                        brl(threshold)
                    ),
                )),
                Some(c)
                    if !(c.decided_by.as_deref() == Some("CHAMBER") && c.decision == Some(Decision::Favourable)) =>
                {
                    flags.push(flag(
                        &row.carta_number,
                        "FCO-CHAMBER-THRESHOLD",
                        format!(
                            "row {}: {} is at or above {} without a favourable chamber opinion",
                            row.row,
                            row.financed,
                            brl(threshold)
                        ),
                    ))
                }
                Some(_) => {}
            }
        }
        if let Some(c) = row.contracted_on
            && let Ok(days) = params.count("FCO-VALIDITY-120D.DAYS", row.approved_on)
        {
            let due = cal.add_days(row.approved_on, days);
            if c > due.due {
                flags.push(flag(
                    &row.carta_number,
                    "FCO-VALIDITY-120D",
                    format!(
                        "row {}: contracted on {} after the approval expired on {} ({})",
                        row.row,
                        c.format("%d/%m/%Y"),
                        due.due.format("%d/%m/%Y"),
                        due.note
                    ),
                ));
            }
        }
        let party = party_ids.get(row.document.as_str()).map(|p| p.0).unwrap_or_default();
        match known.get(&row.carta_number) {
            Some(c) => {
                let mut a = c.clone().into_active_model();
                a.party_id = Set(party);
                a.financed_amount = Set(row.financed);
                a.approved_on = Set(Some(row.approved_on));
                a.contracted_on = Set(row.contracted_on);
                a.contracted_amount = Set(row.contracted.or(row.contracted_on.map(|_| row.financed)));
                a.term_months = Set(row.term_months.or(c.term_months));
                a.grace_months = Set(row.grace_months.or(c.grace_months));
                if matches!(
                    c.stage,
                    FcoCartaStage::Draft | FcoCartaStage::Submitted | FcoCartaStage::Approved | FcoCartaStage::Expired
                ) || stage == FcoCartaStage::Contracted
                {
                    a.stage = Set(stage);
                    a.status = Set(stage.status());
                }
                a.update(&txn).await?;
            }
            None => inserts.push(fco_carta::ActiveModel {
                number: Set(row.carta_number.clone()),
                bank_id: Set(r.bank_id),
                party_id: Set(party),
                line: Set(row.line),
                activity: Set(row.activity),
                financed_amount: Set(row.financed),
                municipality_code: Set(row.municipality),
                stage: Set(stage),
                status: Set(stage.status()),
                submitted_on: Set(None),
                received_by_council_at: Set(None),
                chamber_meeting_id: Set(None),
                decision: Set(Some(Decision::Favourable)),
                decided_by: Set(None),
                decided_on: Set(Some(row.approved_on)),
                approved_on: Set(Some(row.approved_on)),
                contracted_on: Set(row.contracted_on),
                contracted_amount: Set(row.contracted.or(row.contracted_on.map(|_| row.financed))),
                term_months: Set(row.term_months),
                grace_months: Set(row.grace_months),
                resubmission_of: Set(None),
                professional_name: Set(None),
                created_at: Set(now),
                ..Default::default()
            }),
        }
    }
    for chunk in inserts.chunks(500) {
        fco_carta::Entity::insert_many(chunk.to_vec()).exec(&txn).await?;
    }
    let mut ids: HashMap<String, (i64, i64)> = HashMap::new();
    for chunk in numbers.chunks(500) {
        let found: Vec<(i64, String, i64)> = fco_carta::Entity::find()
            .select_only()
            .column(fco_carta::Column::Id)
            .column(fco_carta::Column::Number)
            .column(fco_carta::Column::PartyId)
            .filter(fco_carta::Column::BankId.eq(r.bank_id))
            .filter(fco_carta::Column::Number.is_in(chunk.iter().cloned()))
            .into_tuple()
            .all(&txn)
            .await?;
        for (id, number, party) in found {
            ids.insert(number, (id, party));
        }
    }

    // The ceiling over each borrower's group, after this report.
    ceiling_flags(&txn, &applied, &party_ids, &params, &mut flags).await?;

    for chunk in rows.chunks(1000) {
        bank_report_row::Entity::insert_many(chunk.iter().map(|row| bank_report_row::ActiveModel {
            report_id: Set(r.id),
            row_number: Set(row.row as i32),
            carta_number: Set(Some(row.carta_number.clone())),
            carta_id: Set(ids.get(&row.carta_number).map(|x| x.0)),
            outcome: Set(if applied.iter().any(|a| a.row == row.row) {
                "APPLIED".into()
            } else {
                "DUPLICATE".into()
            }),
            ..Default::default()
        }))
        .exec(&txn)
        .await?;
    }
    let flag_rows: Vec<compliance_flag::ActiveModel> = flags
        .iter()
        .filter_map(|f| {
            let id = ids.get(&f.number)?.0;
            Some(compliance_flag::ActiveModel {
                programme: Set(Programme::FcoRural),
                financing_id: Set(id),
                rule_code: Set(f.code.into()),
                legal_basis: Set(rules::rule(f.code).map(|r| r.legal_basis).unwrap_or("").into()),
                message: Set(f.message.clone()),
                source: Set(format!("report:{}", r.id)),
                raised_at: Set(now),
                resolved_at: Set(None),
                ..Default::default()
            })
        })
        .collect();
    for chunk in flag_rows.chunks(500) {
        compliance_flag::Entity::insert_many(chunk.to_vec()).exec(&txn).await?;
    }
    // An earlier declaration of the same bank and month is superseded, and stays queryable.
    bank_report::Entity::update_many()
        .col_expr(bank_report::Column::Status, Expr::value("SUPERSEDED"))
        .col_expr(bank_report::Column::SupersededBy, Expr::value(r.id))
        .filter(bank_report::Column::BankId.eq(r.bank_id))
        .filter(bank_report::Column::ReferenceMonth.eq(r.reference_month.clone()))
        .filter(bank_report::Column::Status.eq("INGESTED"))
        .filter(bank_report::Column::Id.ne(r.id))
        .exec(&txn)
        .await?;
    let mut a = r.clone().into_active_model();
    a.status = Set("INGESTED".into());
    a.row_count = Set(Some(rows.len() as i32));
    a.error_count = Set(Some(0));
    a.processed_at = Set(Some(now));
    a.lease_until = Set(None);
    a.claimed_by = Set(Some(ctx.worker.clone()));
    a.update(&txn).await?;
    txn.commit().await?;
    Ok(Outcome::Ingested { rows: rows.len() })
}

async fn ceiling_flags(
    txn: &impl ConnectionTrait,
    applied: &[&ReportRow],
    party_ids: &HashMap<String, (i64, Option<i64>)>,
    params: &rules::params::Params,
    flags: &mut Vec<Flag>,
) -> Result<(), DbErr> {
    // Group key: the economic group, or the party alone.
    let key = |p: &(i64, Option<i64>)| p.1.map_or(-p.0, |g| g);
    let mut groups: HashMap<i64, Vec<&ReportRow>> = HashMap::new();
    for row in applied {
        if let Some(p) = party_ids.get(row.document.as_str()) {
            groups.entry(key(p)).or_default().push(row);
        }
    }
    let group_ids: Vec<i64> = groups.keys().filter(|k| **k > 0).copied().collect();
    let mut members: HashMap<i64, Vec<i64>> = HashMap::new();
    for chunk in group_ids.chunks(500) {
        for p in party::Entity::find()
            .filter(party::Column::EconomicGroupId.is_in(chunk.iter().copied()))
            .all(txn)
            .await?
        {
            if let Some(g) = p.economic_group_id {
                members.entry(g).or_default().push(p.id);
            }
        }
    }
    let all_parties: Vec<i64> = groups
        .keys()
        .flat_map(|k| {
            if *k > 0 {
                members.get(k).cloned().unwrap_or_default()
            } else {
                vec![-*k]
            }
        })
        .collect();
    let mut exposure: HashMap<i64, i64> = HashMap::new();
    let party_group: HashMap<i64, i64> = members
        .iter()
        .flat_map(|(g, ps)| ps.iter().map(move |p| (*p, *g)))
        .collect();
    for chunk in all_parties.chunks(500) {
        let cartas: Vec<(i64, i64)> = fco_carta::Entity::find()
            .select_only()
            .column(fco_carta::Column::PartyId)
            .column(fco_carta::Column::FinancedAmount)
            .filter(fco_carta::Column::PartyId.is_in(chunk.iter().copied()))
            .filter(fco_carta::Column::Stage.is_in([FcoCartaStage::Approved, FcoCartaStage::Contracted]))
            .into_tuple()
            .all(txn)
            .await?;
        for (p, cents) in cartas {
            let k = party_group.get(&p).copied().unwrap_or(-p);
            *exposure.entry(k).or_default() += cents;
        }
    }
    for (k, rows) in groups {
        let total = entity::domain::Money(exposure.get(&k).copied().unwrap_or(0));
        let on = rows.iter().map(|r| r.approved_on).max().unwrap_or_default();
        let Ok(ceiling) = params.value("FCO-CEILING.AMOUNT", on) else {
            continue;
        };
        if total.to_decimal() > ceiling {
            for row in rows {
                flags.push(flag(
                    &row.carta_number,
                    "FCO-CEILING",
                    format!(
                        "row {}: the borrower's group holds {total} approved and contracted, over the {} ceiling",
                        row.row,
                        brl(ceiling)
                    ),
                ));
            }
        }
    }
    Ok(())
}
