//! The ingestion job: claim a received report (a conditional claim with a lease, safe with several workers on one
//! database), read it, and either apply every row in one transaction (`INGESTED`) or apply nothing and keep every
//! row error (`REJECTED`). The raw file always stays in the store.

use super::{
    read::{Cell, FileError, Limits, for_each_row},
    rows::{HEADER_SCAN_ROWS, Header, Municipalities, ReportRow, RowError, find_header, parse_row},
};
use crate::{runs::JobReport, store::FileStore};
use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};
use entity::{
    bank_report, bank_report_error, bank_report_row, compliance_flag,
    domain::Money,
    fco_carta, municipality, non_business_day, party, rule_parameter,
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
        .exec_without_returning(&txn)
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

/// Rows applied per batch inside the report's one transaction.
const BATCH: usize = 5000;

/// The first pass's findings.
struct Scan {
    header: Header,
    /// Rows read (data rows, blank ones excluded).
    rows: usize,
    errors: Vec<RowError>,
    /// For each carta number, the sheet row of its last occurrence; duplicates are flagged and only the last applies.
    last_row: HashMap<String, u32>,
    duplicates: Vec<(String, u32, u32)>,
}

impl Scan {
    fn new(header: Header) -> Self {
        Self {
            header,
            rows: 0,
            errors: Vec::new(),
            last_row: HashMap::new(),
            duplicates: Vec::new(),
        }
    }
}

/// Pass 1: find the header among the first rows, parse every row, keep the errors and which row of each carta wins.
fn scan(bytes: &[u8], limits: &Limits, munis: &Municipalities) -> Result<Result<Scan, String>, FileError> {
    let mut head: Vec<Vec<Cell>> = Vec::new();
    let mut state: Option<Scan> = None;
    let mut header_error = None;
    let handle = |state: &mut Scan, i: usize, cells: &[Cell]| match parse_row(i, cells, &state.header, munis) {
        Some(Ok(r)) => {
            state.rows += 1;
            if let Some(prev) = state.last_row.insert(r.carta_number.clone(), r.row) {
                state.duplicates.push((r.carta_number, prev, r.row));
            }
        }
        Some(Err(e)) => {
            state.rows += 1;
            if state.errors.len() < 100_000 {
                state.errors.extend(e);
            }
        }
        None => {}
    };
    // The rows buffered while looking for the header, below it.
    let replay = |st: &mut Scan, head: &[Vec<Cell>]| {
        for (j, row) in head.iter().enumerate().skip(st.header.row + 1) {
            handle(st, j, row);
        }
    };
    for_each_row(bytes, limits, |i, cells| {
        if header_error.is_some() {
            return;
        }
        if let Some(st) = state.as_mut() {
            handle(st, i, &cells);
            return;
        }
        if i < HEADER_SCAN_ROWS {
            head.resize(i, Vec::new());
            head.push(cells);
            return;
        }
        // The header must be among the rows seen so far.
        match find_header(&head) {
            Ok(header) => {
                let mut st = Scan::new(header);
                replay(&mut st, &head);
                handle(&mut st, i, &cells);
                state = Some(st);
            }
            Err(e) => header_error = Some(e),
        }
    })?;
    if let Some(e) = header_error {
        return Ok(Err(e));
    }
    Ok(match state {
        Some(st) => Ok(st),
        None => find_header(&head).map(|header| {
            let mut st = Scan::new(header);
            replay(&mut st, &head);
            st
        }),
    })
}

/// Reads, checks and applies one claimed report: a first pass checks every row, a second applies them in batches
/// inside one transaction, so the sheet is never held whole in memory.
pub async fn process(ctx: &IngestContext, r: &bank_report::Model, now: DateTime<Utc>) -> Result<Outcome, IngestError> {
    let bytes = ctx.store.get(&r.sha256).await?;
    let munis = Municipalities::new(
        municipality::Entity::find()
            .all(&ctx.db)
            .await?
            .into_iter()
            .map(|m| (m.ibge_code, m.name)),
    );
    let scanned = {
        let limits = ctx.limits;
        let munis = munis.clone();
        let bytes = bytes.clone();
        tokio::task::spawn_blocking(move || scan(&bytes, &limits, &munis))
            .await
            .map_err(|e| DbErr::Custom(e.to_string()))?
    };
    let st = match scanned {
        Err(e) => return reject(ctx, r, 0, Some(e.to_string()), &[], now).await,
        Ok(Err(e)) => return reject(ctx, r, 0, Some(e), &[], now).await,
        Ok(Ok(st)) => st,
    };
    if st.rows > ctx.limits.max_rows {
        return reject(
            ctx,
            r,
            st.rows,
            Some(format!("the sheet has more than {} rows", ctx.limits.max_rows)),
            &[],
            now,
        )
        .await;
    }
    if !st.errors.is_empty() {
        return reject(ctx, r, st.rows, None, &st.errors, now).await;
    }
    if st.rows == 0 {
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
    apply(ctx, r, &bytes, &munis, st, now).await
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

/// Pass 2: the rows again, applied in batches inside one transaction guarded by the claim.
async fn apply(
    ctx: &IngestContext,
    r: &bank_report::Model,
    bytes: &[u8],
    munis: &Municipalities,
    st: Scan,
    now: DateTime<Utc>,
) -> Result<Outcome, IngestError> {
    let txn = ctx.db.begin().await?;
    if !still_mine(&txn, ctx, r.id).await? {
        txn.rollback().await?;
        return Ok(Outcome::LostLease);
    }
    if txn.get_database_backend() == sea_orm::DbBackend::Postgres {
        // The tables grow inside this one transaction, where the planner's statistics still say they are small:
        // keep it on the indexes, or every lookup of a batch becomes a scan of everything inserted so far.
        txn.execute_unprepared("SET LOCAL enable_seqscan = off").await?;
        // Plan each statement with its real parameters: a cached generic plan, made while the tables looked empty,
        // turned the 5,000-key lookups into scans taking seconds each.
        txn.execute_unprepared("SET LOCAL plan_cache_mode = force_custom_plan")
            .await?;
    }
    let params = rule_parameter::Entity::params(&txn).await?;
    let cal = non_business_day::Entity::calendar(&txn).await?;
    // Rows come from a blocking reader thread through a bounded channel, a batch at a time.
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Vec<ReportRow>>(2);
    let reader = {
        let bytes = bytes.to_vec();
        let limits = ctx.limits;
        let munis = munis.clone();
        let header = st.header.clone();
        tokio::task::spawn_blocking(move || {
            let mut batch = Vec::with_capacity(BATCH);
            let _ = for_each_row(&bytes, &limits, |i, cells| {
                if i <= header.row {
                    return;
                }
                if let Some(Ok(row)) = parse_row(i, &cells, &header, &munis) {
                    batch.push(row);
                    if batch.len() == BATCH {
                        let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
                        let _ = tx.blocking_send(full);
                    }
                }
            });
            if !batch.is_empty() {
                let _ = tx.blocking_send(batch);
            }
        })
    };
    let bounds = month_bounds(&r.reference_month);
    let mut dup_by_number: HashMap<&str, Vec<(u32, u32)>> = HashMap::new();
    for (n, a, b) in &st.duplicates {
        dup_by_number.entry(n.as_str()).or_default().push((*a, *b));
    }
    while let Some(batch) = rx.recv().await {
        let mut flags = Vec::new();
        for row in &batch {
            if let Some(d) = dup_by_number.get(row.carta_number.as_str())
                && st.last_row.get(&row.carta_number) == Some(&row.row)
            {
                for (a, b) in d {
                    flags.push(flag(
                        &row.carta_number,
                        "FCO-MONTHLY-LIST",
                        format!(
                            "carta {} appears on rows {a} and {b} of report {}; row {} is applied",
                            row.carta_number, r.id, row.row
                        ),
                    ));
                }
            }
            if let Some((year_start, month_end)) = bounds {
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
        apply_batch(&txn, r, &batch, &st.last_row, &params, &cal, flags, now).await?;
    }
    reader.await.map_err(|e| DbErr::Custom(e.to_string()))?;
    ceiling_flags(&txn, r, &params, now).await?;
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
    a.row_count = Set(Some(st.rows as i32));
    a.error_count = Set(Some(0));
    a.processed_at = Set(Some(now));
    a.lease_until = Set(None);
    a.claimed_by = Set(Some(ctx.worker.clone()));
    a.update(&txn).await?;
    txn.commit().await?;
    Ok(Outcome::Ingested { rows: st.rows })
}

/// A compliance flag on a carta, raised by report `report_id`, with its rule's legal basis.
fn flag_row(
    report_id: i64,
    carta: i64,
    code: &'static str,
    message: String,
    now: DateTime<Utc>,
) -> compliance_flag::ActiveModel {
    compliance_flag::ActiveModel {
        programme: Set(Programme::FcoRural),
        financing_id: Set(carta),
        rule_code: Set(code.into()),
        legal_basis: Set(rules::rule(code).map(|r| r.legal_basis).unwrap_or("").into()),
        message: Set(message),
        source: Set(format!("report:{report_id}")),
        raised_at: Set(now),
        resolved_at: Set(None),
        ..Default::default()
    }
}

/// `column IN (values)`; on PostgreSQL `column = ANY($1)` with one array parameter, which plans cheaply and keeps its
/// index even inside the long transaction where the statistics still say the tables are empty.
fn text_in(
    txn: &DatabaseTransaction,
    name: &str,
    column: impl ColumnTrait,
    values: &[String],
) -> sea_orm::sea_query::SimpleExpr {
    if txn.get_database_backend() == sea_orm::DbBackend::Postgres {
        let array = sea_orm::Value::Array(
            sea_orm::sea_query::ArrayType::String,
            Some(Box::new(
                values.iter().map(|v| sea_orm::Value::String(Some(v.clone()))).collect(),
            )),
        );
        Expr::cust_with_values(format!("\"{name}\" = ANY($1)"), [array])
    } else {
        column.is_in(values.iter().cloned())
    }
}

/// `(document, id)` of the parties with these documents.
async fn party_ids_by_document(txn: &DatabaseTransaction, docs: &[String]) -> Result<Vec<(String, i64)>, DbErr> {
    let found: Vec<(i64, String)> = party::Entity::find()
        .select_only()
        .column(party::Column::Id)
        .column(party::Column::Document)
        .filter(text_in(txn, "document", party::Column::Document, docs))
        .into_tuple()
        .all(txn)
        .await?;
    Ok(found.into_iter().map(|(id, d)| (d, id)).collect())
}

#[allow(clippy::too_many_arguments)]
async fn apply_batch(
    txn: &DatabaseTransaction,
    r: &bank_report::Model,
    batch: &[ReportRow],
    last_row: &HashMap<String, u32>,
    params: &rules::params::Params,
    cal: &rules::calendar::Calendar,
    mut flags: Vec<Flag>,
    now: DateTime<Utc>,
) -> Result<(), DbErr> {
    let applied: Vec<&ReportRow> = batch
        .iter()
        .filter(|row| last_row.get(&row.carta_number) == Some(&row.row))
        .collect();
    // Parties by document, created when new.
    let docs: Vec<String> = applied
        .iter()
        .map(|row| row.document.as_str().to_owned())
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    let mut party_ids: HashMap<String, i64> = HashMap::new();
    for chunk in docs.chunks(BATCH) {
        party_ids.extend(party_ids_by_document(txn, chunk).await?);
    }
    let mut queued = HashSet::new();
    let new_parties: Vec<party::ActiveModel> = applied
        .iter()
        .filter(|row| !party_ids.contains_key(row.document.as_str()) && queued.insert(row.document.as_str().to_owned()))
        .map(|row| party::ActiveModel {
            document: Set(row.document.as_str().to_owned()),
            document_kind: Set(row.document.kind().as_str().into()),
            cnpj_root: Set(row.document.cnpj_root().map(Into::into)),
            name: Set(row.borrower.clone()),
            economic_group_id: Set(None),
            ..Default::default()
        })
        .collect();
    for chunk in new_parties.chunks(BATCH) {
        party::Entity::insert_many(chunk.to_vec())
            .exec_without_returning(txn)
            .await?;
    }
    let new_docs: Vec<String> = queued.into_iter().collect();
    for chunk in new_docs.chunks(BATCH) {
        party_ids.extend(party_ids_by_document(txn, chunk).await?);
    }

    // Cartas: update the known ones, insert the new ones.
    let numbers: Vec<String> = applied.iter().map(|row| row.carta_number.clone()).collect();
    let mut known: HashMap<String, fco_carta::Model> = HashMap::new();
    for chunk in numbers.chunks(BATCH) {
        for c in fco_carta::Entity::find()
            .filter(fco_carta::Column::BankId.eq(r.bank_id))
            .filter(text_in(txn, "number", fco_carta::Column::Number, chunk))
            .all(txn)
            .await?
        {
            known.insert(c.number.clone(), c);
        }
    }
    let mut inserts = Vec::new();
    for row in &applied {
        let (threshold_hit, threshold) =
            rules::fco::needs_chamber(row.financed, params, row.approved_on).unwrap_or((false, Default::default()));
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
        let party = party_ids.get(row.document.as_str()).copied().unwrap_or_default();
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
                a.update(txn).await?;
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
    for chunk in inserts.chunks(1000) {
        fco_carta::Entity::insert_many(chunk.to_vec())
            .exec_without_returning(txn)
            .await?;
    }
    let mut ids: HashMap<String, i64> = HashMap::new();
    for chunk in numbers.chunks(BATCH) {
        let found: Vec<(i64, String)> = fco_carta::Entity::find()
            .select_only()
            .column(fco_carta::Column::Id)
            .column(fco_carta::Column::Number)
            .filter(fco_carta::Column::BankId.eq(r.bank_id))
            .filter(text_in(txn, "number", fco_carta::Column::Number, chunk))
            .into_tuple()
            .all(txn)
            .await?;
        ids.extend(found.into_iter().map(|(id, n)| (n, id)));
    }
    for chunk in batch.chunks(BATCH) {
        bank_report_row::Entity::insert_many(chunk.iter().map(|row| bank_report_row::ActiveModel {
            report_id: Set(r.id),
            row_number: Set(row.row as i32),
            carta_number: Set(Some(row.carta_number.clone())),
            carta_id: Set(ids.get(&row.carta_number).copied()),
            outcome: Set(if last_row.get(&row.carta_number) == Some(&row.row) {
                "APPLIED".into()
            } else {
                "DUPLICATE".into()
            }),
            ..Default::default()
        }))
        .exec_without_returning(txn)
        .await?;
    }
    let flag_rows: Vec<compliance_flag::ActiveModel> = flags
        .iter()
        .filter_map(|f| {
            let id = *ids.get(&f.number)?;
            Some(flag_row(r.id, id, f.code, f.message.clone(), now))
        })
        .collect();
    for chunk in flag_rows.chunks(1000) {
        compliance_flag::Entity::insert_many(chunk.to_vec())
            .exec_without_returning(txn)
            .await?;
    }
    Ok(())
}

/// FCO-CEILING after the report: every group (or lone borrower) touched by the report whose approved and contracted
/// cartas pass the ceiling gets a flag on each of its cartas in the report. One aggregate query on both backends.
async fn ceiling_flags(
    txn: &DatabaseTransaction,
    r: &bank_report::Model,
    params: &rules::params::Params,
    now: DateTime<Utc>,
) -> Result<(), DbErr> {
    let on = month_bounds(&r.reference_month)
        .map(|(_, end)| end)
        .unwrap_or_else(|| now.date_naive());
    let Ok(ceiling) = params.value("FCO-CEILING.AMOUNT", on) else {
        return Ok(());
    };
    let Ok(ceiling_cents) = Money::from_decimal(ceiling).map(|m| m.cents()) else {
        return Ok(());
    };
    let backend = txn.get_database_backend();
    let sql = "SELECT rr.carta_id, totals.total FROM bank_report_row rr
        JOIN fco_carta c ON c.id = rr.carta_id
        JOIN party p ON p.id = c.party_id
        JOIN (SELECT COALESCE(p2.economic_group_id, -p2.id) AS g, SUM(c2.financed_amount) AS total
                FROM fco_carta c2 JOIN party p2 ON p2.id = c2.party_id
               WHERE c2.stage IN ('APPROVED', 'CONTRACTED')
               GROUP BY COALESCE(p2.economic_group_id, -p2.id)
              HAVING SUM(c2.financed_amount) > $1) totals
          ON totals.g = COALESCE(p.economic_group_id, -p.id)
       WHERE rr.report_id = $2 AND rr.outcome = 'APPLIED'";
    let sql = if backend == sea_orm::DbBackend::Sqlite {
        sql.replace("$1", "?").replace("$2", "?")
    } else {
        sql.to_owned()
    };
    let rows = txn
        .query_all_raw(sea_orm::Statement::from_sql_and_values(
            backend,
            sql,
            [ceiling_cents.into(), r.id.into()],
        ))
        .await?;
    let mut flags = Vec::new();
    for row in rows {
        let carta: i64 = row.try_get_by_index(0)?;
        let total: i64 = row
            .try_get_by_index::<Option<i64>>(1)?
            .or_else(|| {
                row.try_get_by_index::<Option<rust_decimal::Decimal>>(1)
                    .ok()
                    .flatten()
                    .and_then(|d| i64::try_from(d).ok())
            })
            .unwrap_or(0);
        let message = format!(
            "the borrower's group holds {} approved and contracted, over the {} ceiling",
            Money(total),
            brl(ceiling)
        );
        flags.push(flag_row(r.id, carta, "FCO-CEILING", message, now));
    }
    for chunk in flags.chunks(1000) {
        compliance_flag::Entity::insert_many(chunk.to_vec())
            .exec_without_returning(txn)
            .await?;
    }
    Ok(())
}
