//! The ingestion job: claim a received report (a conditional claim with a lease, safe with several workers on one
//! database), read it, and either apply every row in one transaction (`INGESTED`) or apply nothing and keep every
//! row error (`REJECTED`). The raw file always stays in the store.

use super::{
    bulk,
    read::{Cell, Limits, Progress, for_each_row},
    rows::{HEADER_SCAN_ROWS, Header, Municipalities, ReportRow, RowError, find_header, parse_row},
};
use crate::{runs::JobReport, store::FileStore};
use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};
use entity::{
    bank_report, bank_report_error, bank_report_row, compliance_flag,
    domain::Money,
    fco_carta, municipality, non_business_day, rule_parameter,
    rules::{self, brl},
    vocab::{Decision, FcoCartaStage, Programme},
};
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection, DatabaseTransaction, DbErr,
    EntityTrait, IntoActiveModel, QueryFilter, QueryOrder, QuerySelect, Statement, TransactionTrait, Value,
    sea_query::Expr,
};
use std::collections::{HashMap, HashSet};
use tokio::sync::mpsc;

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
    /// How far the report being read has got (for `fomento ingest`'s progress bar).
    pub progress: std::sync::Arc<Progress>,
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

/// Rows sent at a time from the reader thread to the database, inside the report's one transaction.
const BATCH: usize = 5000;
/// Rows per INSERT statement (under both backends' limits on bound parameters).
const CHUNK: usize = 1000;
/// Row errors kept per report (a bank gets them all in practice; this bounds a hostile file).
const MAX_ERRORS: usize = 100_000;

/// What the reader thread found once the file is read.
#[derive(Default)]
struct Scanned {
    /// Data rows (blank ones excluded).
    rows: usize,
    /// Every row error (up to [`MAX_ERRORS`]).
    errors: Vec<RowError>,
    /// Why the file as a whole cannot be read, when it cannot.
    problem: Option<String>,
}

/// Reads the file on a blocking thread: finds the header among the first rows, parses every row, and sends the parsed
/// rows in batches for as long as no row has failed. After the first failure it only collects errors: the file will be
/// rejected and the transaction rolled back, so nothing is half-applied.
fn read_rows(
    bytes: &[u8],
    limits: &Limits,
    progress: &Progress,
    munis: &Municipalities,
    tx: &mpsc::Sender<Vec<ReportRow>>,
) -> Scanned {
    let mut out = Scanned::default();
    let mut head: Vec<Vec<Cell>> = Vec::new();
    let mut header: Option<Header> = None;
    let mut batch = Vec::with_capacity(BATCH);
    let mut sending = true;
    let mut handle =
        |out: &mut Scanned, header: &Header, i: usize, cells: &[Cell]| match parse_row(i, cells, header, munis) {
            Some(Ok(r)) => {
                out.rows += 1;
                if sending && out.errors.is_empty() {
                    batch.push(r);
                    if batch.len() == BATCH {
                        let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
                        // The receiver is gone only when the applying side failed; keep reading to count the rows.
                        sending = tx.blocking_send(full).is_ok();
                    }
                }
            }
            Some(Err(e)) => {
                out.rows += 1;
                batch.clear();
                let room = MAX_ERRORS.saturating_sub(out.errors.len());
                out.errors.extend(e.into_iter().take(room));
            }
            None => {}
        };
    let read = for_each_row(bytes, limits, progress, |i, cells| {
        if out.problem.is_some() {
            return;
        }
        if let Some(h) = &header {
            handle(&mut out, h, i, &cells);
            return;
        }
        if i < HEADER_SCAN_ROWS {
            head.resize(i, Vec::new());
            head.push(cells);
            return;
        }
        // The header must be among the rows seen so far.
        match find_header(&head) {
            Ok(h) => {
                for (j, row) in head.iter().enumerate().skip(h.row + 1) {
                    handle(&mut out, &h, j, row);
                }
                handle(&mut out, &h, i, &cells);
                header = Some(h);
            }
            Err(e) => out.problem = Some(e),
        }
    });
    if let Err(e) = read {
        out.problem = Some(e.to_string());
    }
    if out.problem.is_none() && header.is_none() {
        // A short sheet: every row is in `head`.
        match find_header(&head) {
            Ok(h) => {
                for (j, row) in head.iter().enumerate().skip(h.row + 1) {
                    handle(&mut out, &h, j, row);
                }
            }
            Err(e) => out.problem = Some(e),
        }
    }
    if out.problem.is_none() && out.errors.is_empty() && !batch.is_empty() && sending {
        let _ = tx.blocking_send(std::mem::take(&mut batch));
    }
    out
}

/// Reads, checks and applies one claimed report in one pass: a reader thread parses the rows while this task applies
/// them in batches inside one transaction guarded by the claim. A row error, an unreadable file or a failure rolls
/// the transaction back, so a report is applied whole or not at all; the sheet is never held whole in memory.
pub async fn process(ctx: &IngestContext, r: &bank_report::Model, now: DateTime<Utc>) -> Result<Outcome, IngestError> {
    let bytes = ctx.store.get(&r.sha256).await?;
    let munis = Municipalities::new(
        municipality::Entity::find()
            .all(&ctx.db)
            .await?
            .into_iter()
            .map(|m| (m.ibge_code, m.name)),
    );
    let txn = ctx.db.begin().await?;
    if !still_mine(&txn, ctx, r.id).await? {
        txn.rollback().await?;
        return Ok(Outcome::LostLease);
    }
    if txn.get_database_backend() == sea_orm::DbBackend::Postgres {
        // The tables grow inside this one transaction, where the planner's statistics still say they are small:
        // keep it on the indexes, or every lookup of a batch becomes a scan of everything inserted so far.
        txn.execute_unprepared("SET LOCAL enable_seqscan = off").await?;
    }
    let params = rule_parameter::Entity::params(&txn).await?;
    let preparer = Preparer {
        backend: txn.get_database_backend(),
        report_id: r.id,
        bank_id: r.bank_id,
        reference_month: r.reference_month.clone(),
        params: params.clone(),
        cal: non_business_day::Entity::calendar(&txn).await?,
        bounds: month_bounds(&r.reference_month),
        now,
        last_row: HashMap::new(),
        duplicates: Vec::new(),
        demoted: Vec::new(),
        validity: HashMap::new(),
    };
    let mut applier = Applier {
        report: r,
        params,
        now,
        chamber_before: HashMap::new(),
    };
    // Three stages: the reader parses rows, the preparer turns batches into statements, this task runs them.
    let (rows_tx, mut rows_rx) = mpsc::channel::<Vec<ReportRow>>(2);
    let (prepared_tx, mut prepared_rx) = mpsc::channel::<Result<Prepared, DbErr>>(2);
    let reader = {
        let limits = ctx.limits;
        let progress = ctx.progress.clone();
        progress.reset();
        tokio::task::spawn_blocking(move || read_rows(&bytes, &limits, &progress, &munis, &rows_tx))
    };
    let preparer = tokio::task::spawn_blocking(move || {
        let mut preparer = preparer;
        while let Some(batch) = rows_rx.blocking_recv() {
            if prepared_tx.blocking_send(preparer.prepare(batch)).is_err() {
                break;
            }
        }
        preparer
    });
    while let Some(batch) = prepared_rx.recv().await {
        applier.apply(&txn, batch?).await?;
    }
    let scanned = reader.await.map_err(|e| DbErr::Custom(e.to_string()))?;
    let preparer = preparer.await.map_err(|e| DbErr::Custom(e.to_string()))?;
    let refusal = if let Some(problem) = scanned.problem {
        Some((0, Some(problem)))
    } else if scanned.rows > ctx.limits.max_rows {
        let message = format!("the sheet has more than {} rows", ctx.limits.max_rows);
        Some((scanned.rows, Some(message)))
    } else if !scanned.errors.is_empty() {
        Some((scanned.rows, None))
    } else if scanned.rows == 0 {
        Some((0, Some("the sheet has a header but no data rows".into())))
    } else {
        None
    };
    if let Some((rows, file_error)) = refusal {
        txn.rollback().await?;
        return reject(ctx, r, rows, file_error, &scanned.errors, now).await;
    }
    applier.finish(&txn, preparer).await?;
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
    a.row_count = Set(Some(scanned.rows as i32));
    a.error_count = Set(Some(0));
    a.processed_at = Set(Some(now));
    a.lease_until = Set(None);
    a.claimed_by = Set(Some(ctx.worker.clone()));
    a.update(&txn).await?;
    txn.commit().await?;
    Ok(Outcome::Ingested { rows: scanned.rows })
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

/// A batch ready for the database, prepared on a thread of its own: its statements, the findings of its rows, and the
/// rows whose check needs the database.
struct Prepared {
    /// Parties, then cartas, then row outcomes; each statement with the number of rows it carries.
    parties: Vec<(Statement, u64)>,
    cartas: Vec<(Statement, u64)>,
    outcomes: Vec<(Statement, u64)>,
    /// Findings on the rows themselves (dates outside the declared period, the 120-day validity).
    flags: Vec<Flag>,
    /// Rows at or above the chamber threshold: `(number, row, amount, threshold)`.
    chamber: Vec<(String, u32, Money, rust_decimal::Decimal)>,
}

/// Turns the reader's batches into statements, keeping what the report has shown so far.
struct Preparer {
    backend: sea_orm::DbBackend,
    report_id: i64,
    bank_id: i64,
    reference_month: String,
    params: rules::params::Params,
    cal: rules::calendar::Calendar,
    /// 1 January of the declared year and the declared month's last day.
    bounds: Option<(NaiveDate, NaiveDate)>,
    now: DateTime<Utc>,
    /// Each carta number seen, with the sheet row of its latest occurrence: a later row of the same carta wins.
    last_row: HashMap<String, u32>,
    /// `(number, earlier row, later row)` for each repeated carta.
    duplicates: Vec<(String, u32, u32)>,
    /// Rows written in an earlier batch and then overtaken by a later row of the same carta.
    demoted: Vec<i32>,
    /// FCO-VALIDITY-120D's expiry by approval date (the calendar is walked once per date).
    validity: HashMap<NaiveDate, Option<(NaiveDate, String)>>,
}

/// Parties by document, created when new (a known party keeps its name).
const PARTY_COLS: [bulk::Col; 4] = [
    bulk::col("document", "text"),
    bulk::col("document_kind", "text"),
    bulk::col("cnpj_root", "text"),
    bulk::col("name", "text"),
];
const PARTY_SQL: &str = "INSERT INTO party (document, document_kind, cnpj_root, name)
    SELECT s.document, s.document_kind, s.cnpj_root, s.name FROM s WHERE true
    ON CONFLICT (document) DO NOTHING";

/// Cartas by (bank, number), with their party joined by document.
const CARTA_COLS: [bulk::Col; 17] = [
    bulk::col("number", "text"),
    bulk::col("bank_id", "bigint"),
    bulk::col("document", "text"),
    bulk::col("line", "text"),
    bulk::col("activity", "text"),
    bulk::col("financed_amount", "bigint"),
    bulk::col("municipality_code", "integer"),
    bulk::col("stage", "text"),
    bulk::col("status", "text"),
    bulk::col("decision", "text"),
    bulk::col("decided_on", "date"),
    bulk::col("approved_on", "date"),
    bulk::col("contracted_on", "date"),
    bulk::col("contracted_amount", "bigint"),
    bulk::col("term_months", "integer"),
    bulk::col("grace_months", "integer"),
    bulk::col("created_at", "timestamptz"),
];
/// A new carta is inserted as approved or contracted; a known one takes the row's values and moves to the row's stage
/// unless it is already further on (contracted) or was refused; a contract always applies.
const CARTA_SQL: &str = "INSERT INTO fco_carta (number, bank_id, party_id, line, activity, financed_amount,
        municipality_code, stage, status, decision, decided_on, approved_on, contracted_on, contracted_amount,
        term_months, grace_months, created_at)
    SELECT s.number, s.bank_id, p.id, s.line, s.activity, s.financed_amount, s.municipality_code, s.stage, s.status,
        s.decision, s.decided_on, s.approved_on, s.contracted_on, s.contracted_amount, s.term_months, s.grace_months,
        s.created_at
    FROM s JOIN party p ON p.document = s.document WHERE true
    ON CONFLICT (bank_id, number) DO UPDATE SET
        party_id = excluded.party_id,
        financed_amount = excluded.financed_amount,
        approved_on = excluded.approved_on,
        contracted_on = excluded.contracted_on,
        contracted_amount = excluded.contracted_amount,
        term_months = COALESCE(excluded.term_months, fco_carta.term_months),
        grace_months = COALESCE(excluded.grace_months, fco_carta.grace_months),
        stage = CASE WHEN fco_carta.stage IN ('DRAFT', 'SUBMITTED', 'APPROVED', 'EXPIRED')
                       OR excluded.stage = 'CONTRACTED' THEN excluded.stage ELSE fco_carta.stage END,
        status = CASE WHEN fco_carta.stage IN ('DRAFT', 'SUBMITTED', 'APPROVED', 'EXPIRED')
                        OR excluded.stage = 'CONTRACTED' THEN excluded.status ELSE fco_carta.status END";

/// One outcome per sheet row, with the carta its number names in this bank.
const OUTCOME_COLS: [bulk::Col; 5] = [
    bulk::col("report_id", "bigint"),
    bulk::col("row_number", "integer"),
    bulk::col("carta_number", "text"),
    bulk::col("bank_id", "bigint"),
    bulk::col("outcome", "text"),
];
const OUTCOME_SQL: &str = "INSERT INTO bank_report_row (report_id, row_number, carta_number, carta_id, outcome)
    SELECT s.report_id, s.row_number, s.carta_number, c.id, s.outcome
    FROM s LEFT JOIN fco_carta c ON c.bank_id = s.bank_id AND c.number = s.carta_number WHERE true";

impl Preparer {
    fn expiry(&mut self, approved: NaiveDate) -> Option<(NaiveDate, String)> {
        let (params, cal) = (&self.params, &self.cal);
        self.validity
            .entry(approved)
            .or_insert_with(|| {
                let days = params.count("FCO-VALIDITY-120D.DAYS", approved).ok()?;
                let due = cal.add_days(approved, days);
                Some((due.due, due.note))
            })
            .clone()
    }

    /// The row's own findings: dates outside the declared period, the 120-day validity; and whether it needs the
    /// chamber check.
    fn check(&mut self, row: &ReportRow, prepared: &mut Prepared) {
        if let Some((year_start, month_end)) = self.bounds {
            for (what, d) in [("approved", Some(row.approved_on)), ("contracted", row.contracted_on)] {
                if let Some(d) = d
                    && (d < year_start || d > month_end)
                {
                    prepared.flags.push(flag(
                        &row.carta_number,
                        "FCO-MONTHLY-LIST",
                        format!(
                            "row {}: {what} on {}, outside the year declared up to {} ({})",
                            row.row,
                            d.format("%d/%m/%Y"),
                            month_end.format("%d/%m/%Y"),
                            self.reference_month
                        ),
                    ));
                }
            }
        }
        if let Ok((true, threshold)) = rules::fco::needs_chamber(row.financed, &self.params, row.approved_on) {
            prepared
                .chamber
                .push((row.carta_number.clone(), row.row, row.financed, threshold));
        }
        if let Some(c) = row.contracted_on
            && let Some((due, note)) = self.expiry(row.approved_on)
            && c > due
        {
            prepared.flags.push(flag(
                &row.carta_number,
                "FCO-VALIDITY-120D",
                format!(
                    "row {}: contracted on {} after the approval expired on {} ({note})",
                    row.row,
                    c.format("%d/%m/%Y"),
                    due.format("%d/%m/%Y"),
                ),
            ));
        }
    }

    /// One batch: its findings, and its statements (the last row of each carta in the batch is the one written).
    fn prepare(&mut self, batch: Vec<ReportRow>) -> Result<Prepared, DbErr> {
        use sea_orm::ActiveEnum;
        let mut prepared = Prepared {
            parties: Vec::new(),
            cartas: Vec::new(),
            outcomes: Vec::new(),
            flags: Vec::new(),
            chamber: Vec::new(),
        };
        for row in &batch {
            self.check(row, &mut prepared);
        }
        let mut winner: HashMap<&str, usize> = HashMap::with_capacity(batch.len());
        let first_row = batch.first().map(|row| row.row).unwrap_or_default();
        for (k, row) in batch.iter().enumerate() {
            winner.insert(row.carta_number.as_str(), k);
            if let Some(prev) = self.last_row.insert(row.carta_number.clone(), row.row) {
                self.duplicates.push((row.carta_number.clone(), prev, row.row));
                if prev < first_row {
                    self.demoted.push(prev as i32);
                }
            }
        }
        let applied: Vec<&ReportRow> = batch
            .iter()
            .enumerate()
            .filter(|(k, row)| winner.get(row.carta_number.as_str()) == Some(k))
            .map(|(_, row)| row)
            .collect();

        let mut documents = HashSet::with_capacity(applied.len());
        let parties: Vec<Vec<Value>> = applied
            .iter()
            .filter(|row| documents.insert(row.document.as_str()))
            .map(|row| {
                vec![
                    row.document.as_str().into(),
                    row.document.kind().as_str().into(),
                    row.document.cnpj_root().map(String::from).into(),
                    row.borrower.as_str().into(),
                ]
            })
            .collect();
        prepared.parties = bulk::statements(self.backend, &PARTY_COLS, parties, PARTY_SQL)?;

        let cartas: Vec<Vec<Value>> = applied
            .iter()
            .map(|row| {
                let stage = if row.contracted_on.is_some() {
                    FcoCartaStage::Contracted
                } else {
                    FcoCartaStage::Approved
                };
                vec![
                    row.carta_number.as_str().into(),
                    self.bank_id.into(),
                    row.document.as_str().into(),
                    row.line.to_value().into(),
                    row.activity.to_value().into(),
                    row.financed.cents().into(),
                    row.municipality.into(),
                    stage.to_value().into(),
                    stage.status().to_value().into(),
                    Decision::Favourable.to_value().into(),
                    row.approved_on.into(),
                    row.approved_on.into(),
                    row.contracted_on.into(),
                    row.contracted
                        .or(row.contracted_on.map(|_| row.financed))
                        .map(|m| m.cents())
                        .into(),
                    row.term_months.into(),
                    row.grace_months.into(),
                    self.now.into(),
                ]
            })
            .collect();
        prepared.cartas = bulk::statements(self.backend, &CARTA_COLS, cartas, CARTA_SQL)?;

        let outcomes: Vec<Vec<Value>> = batch
            .iter()
            .map(|row| {
                let outcome = if self.last_row.get(&row.carta_number) == Some(&row.row) {
                    "APPLIED"
                } else {
                    "DUPLICATE"
                };
                vec![
                    self.report_id.into(),
                    (row.row as i32).into(),
                    row.carta_number.as_str().into(),
                    self.bank_id.into(),
                    outcome.into(),
                ]
            })
            .collect();
        prepared.outcomes = bulk::statements(self.backend, &OUTCOME_COLS, outcomes, OUTCOME_SQL)?;
        Ok(prepared)
    }
}

/// The applying side of one report: runs each prepared batch inside the report's transaction.
struct Applier<'a> {
    report: &'a bank_report::Model,
    params: rules::params::Params,
    now: DateTime<Utc>,
    /// For cartas at or above the chamber threshold: whether, before this report, the carta existed (`Some`) with a
    /// favourable chamber opinion (`Some(true)`).
    chamber_before: HashMap<String, Option<bool>>,
}

impl Applier<'_> {
    /// Looks up, before this report writes them, the cartas at or above the chamber threshold not looked up yet.
    async fn chamber_lookup(&mut self, txn: &DatabaseTransaction, numbers: &[&str]) -> Result<(), DbErr> {
        let wanted: Vec<String> = numbers
            .iter()
            .filter(|n| !self.chamber_before.contains_key(**n))
            .map(|n| String::from(*n))
            .collect::<HashSet<_>>()
            .into_iter()
            .collect();
        for chunk in wanted.chunks(BATCH) {
            let found: Vec<(String, Option<String>, Option<Decision>)> = fco_carta::Entity::find()
                .select_only()
                .column(fco_carta::Column::Number)
                .column(fco_carta::Column::DecidedBy)
                .column(fco_carta::Column::Decision)
                .filter(fco_carta::Column::BankId.eq(self.report.bank_id))
                .filter(text_in(txn, "number", fco_carta::Column::Number, chunk))
                .into_tuple()
                .all(txn)
                .await?;
            for number in chunk {
                self.chamber_before.insert(number.clone(), None);
            }
            for (number, by, decision) in found {
                let favourable = by.as_deref() == Some("CHAMBER") && decision == Some(Decision::Favourable);
                self.chamber_before.insert(number, Some(favourable));
            }
        }
        Ok(())
    }

    /// Runs one prepared batch: the chamber check against the cartas as they were, the statements, the flags.
    async fn apply(&mut self, txn: &DatabaseTransaction, mut batch: Prepared) -> Result<(), DbErr> {
        let numbers: Vec<&str> = batch.chamber.iter().map(|(n, ..)| n.as_str()).collect();
        self.chamber_lookup(txn, &numbers).await?;
        for (number, row, amount, threshold) in &batch.chamber {
            let message = match self.chamber_before.get(number).copied().flatten() {
                None => format!(
                    "row {row}: {amount} is at or above {} but the carta was never submitted to the CPACR chamber",
                    brl(*threshold)
                ),
                Some(false) => format!(
                    "row {row}: {amount} is at or above {} without a favourable chamber opinion",
                    brl(*threshold)
                ),
                Some(true) => continue,
            };
            batch.flags.push(flag(number, "FCO-CHAMBER-THRESHOLD", message));
        }
        for (s, _) in batch.parties {
            txn.execute_raw(s).await?;
        }
        for (s, expected) in batch.cartas {
            let written = txn.execute_raw(s).await?.rows_affected();
            if written != expected {
                return Err(DbErr::Custom(format!(
                    "{written} of {expected} cartas written: a party was not found by its document"
                )));
            }
        }
        for (s, _) in batch.outcomes {
            txn.execute_raw(s).await?;
        }
        let ids = carta_ids(txn, self.report.bank_id, batch.flags.iter().map(|f| f.number.as_str())).await?;
        insert_flags(txn, self.report.id, &batch.flags, &ids, self.now).await
    }

    /// After the last batch: rows overtaken by a later batch become duplicates, each repeated carta is flagged once
    /// per repetition, and the groups over the ceiling are flagged.
    async fn finish(self, txn: &DatabaseTransaction, prep: Preparer) -> Result<(), DbErr> {
        let r = self.report;
        for chunk in prep.demoted.chunks(CHUNK) {
            bank_report_row::Entity::update_many()
                .col_expr(bank_report_row::Column::Outcome, Expr::value("DUPLICATE"))
                .filter(bank_report_row::Column::ReportId.eq(r.id))
                .filter(bank_report_row::Column::RowNumber.is_in(chunk.iter().copied()))
                .exec(txn)
                .await?;
        }
        let flags: Vec<Flag> = prep
            .duplicates
            .iter()
            .map(|(number, a, b)| {
                let last = prep.last_row.get(number).copied().unwrap_or(*b);
                flag(
                    number,
                    "FCO-MONTHLY-LIST",
                    format!(
                        "carta {number} appears on rows {a} and {b} of report {}; row {last} is applied",
                        r.id
                    ),
                )
            })
            .collect();
        let ids = carta_ids(txn, r.bank_id, flags.iter().map(|f| f.number.as_str())).await?;
        insert_flags(txn, r.id, &flags, &ids, self.now).await?;
        ceiling_flags(txn, r, &self.params, self.now).await
    }
}

/// The ids of these cartas of a bank, by number.
async fn carta_ids<'a>(
    txn: &DatabaseTransaction,
    bank_id: i64,
    numbers: impl Iterator<Item = &'a str>,
) -> Result<HashMap<String, i64>, DbErr> {
    let numbers: Vec<String> = numbers.map(String::from).collect::<HashSet<_>>().into_iter().collect();
    let mut ids = HashMap::with_capacity(numbers.len());
    for chunk in numbers.chunks(BATCH) {
        let found: Vec<(i64, String)> = fco_carta::Entity::find()
            .select_only()
            .column(fco_carta::Column::Id)
            .column(fco_carta::Column::Number)
            .filter(fco_carta::Column::BankId.eq(bank_id))
            .filter(text_in(txn, "number", fco_carta::Column::Number, chunk))
            .into_tuple()
            .all(txn)
            .await?;
        ids.extend(found.into_iter().map(|(id, n)| (n, id)));
    }
    Ok(ids)
}

/// Inserts flags on the cartas they name (by number, through `ids`).
async fn insert_flags(
    txn: &DatabaseTransaction,
    report_id: i64,
    flags: &[Flag],
    ids: &HashMap<String, i64>,
    now: DateTime<Utc>,
) -> Result<(), DbErr> {
    let rows: Vec<compliance_flag::ActiveModel> = flags
        .iter()
        .filter_map(|f| {
            let id = *ids.get(&f.number)?;
            Some(flag_row(report_id, id, f.code, f.message.clone(), now))
        })
        .collect();
    for chunk in rows.chunks(CHUNK) {
        compliance_flag::Entity::insert_many(chunk.to_vec())
            .exec_without_returning(txn)
            .await?;
    }
    Ok(())
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
