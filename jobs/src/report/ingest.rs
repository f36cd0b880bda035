//! The ingestion job: claim a received report (a conditional claim with a lease, safe with several workers on one
//! database), read it, and either apply every row in one transaction (`INGESTED`) or apply nothing and keep every
//! row error (`REJECTED`). The raw file always stays in the store.
//!
//! Size: the reader, the preparer and the applier of one report build and run the same statements,
//! and are read together.

use super::{
    bulk,
    messages::{Message, code},
    read::{Cell, Limits, Progress, for_each_row},
    rows::{HEADER_SCAN_ROWS, Header, Municipalities, ReportRow, RowError, find_header, parse_row},
};
use crate::{
    queue::{Claimer, Queue, Settled},
    runs::JobReport,
    store::FileStore,
};
use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};
use entity::{
    bank_report, bank_report_error, bank_report_row, fco_carta, municipality, non_business_day, rule_parameter,
    rules::{
        self, Explanation,
        fco::listed::{self, ListedRow},
    },
    vocab::{Decision, FcoCartaStage, Programme},
};
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection, DatabaseTransaction, DbErr,
    EntityTrait, IntoActiveModel, QueryFilter, QuerySelect, Statement, Value, sea_query::Expr,
};
use service::flags::write::{self as flags, NewFlag, Writer};
use std::{
    collections::{HashMap, HashSet},
    ops::ControlFlow,
};
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
    /// Attempts a report gets before it ends `FAILED` (`--report-attempts`); an error that cannot pass ends it at once.
    pub max_attempts: u32,
    /// The wait after the first failed attempt; it doubles after each later one.
    pub backoff: Duration,
    /// Tests only: a fault injected into the applier after every batch is applied and before the commit.
    pub fault: Option<Fault>,
}

/// A fault injected into the applier (tests only): called with the report and its attempt number, the error it
/// returns fails that attempt as a database error would, after the rows were written inside the transaction.
#[derive(Clone)]
pub struct Fault(pub std::sync::Arc<FaultFn>);

/// What a [`Fault`] calls: the report (its `attempts` is the attempt running) to the error to fail it with, if any.
pub type FaultFn = dyn Fn(&bank_report::Model) -> Option<DbErr> + Send + Sync;

impl std::fmt::Debug for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Fault")
    }
}

/// The attempts a report gets by default.
pub const DEFAULT_ATTEMPTS: u32 = 3;
/// The wait after a first failed attempt by default, in seconds.
pub const DEFAULT_BACKOFF_SECONDS: i64 = 30;

/// Why an attempt failed.
#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    /// Database failure.
    #[error("database: {0}")]
    Db(#[from] DbErr),
    /// File store failure.
    #[error("{0}")]
    Store(#[from] crate::store::StoreError),
}

impl IngestError {
    /// Whether the same attempt may succeed later: a lost or refused connection, a serialization failure or deadlock,
    /// a lock timeout, SQLite's `BUSY`/`LOCKED`, a file store that did not answer. Anything else (a statement the
    /// database refuses, a value it cannot decode) fails the same way every time.
    pub fn is_transient(&self) -> bool {
        match self {
            IngestError::Store(e) => !e.to_string().to_lowercase().contains("not found"),
            IngestError::Db(DbErr::ConnectionAcquire(_) | DbErr::Conn(_)) => true,
            IngestError::Db(e) => {
                let text = e.to_string().to_lowercase();
                [
                    "could not serialize access",
                    "serialization failure",
                    "deadlock detected",
                    "lock timeout",
                    "lock not available",
                    "database is locked",
                    "database table is locked",
                    "pool timed out",
                    "connection reset",
                    "connection refused",
                    "connection closed",
                    "broken pipe",
                    "terminating connection",
                    "server closed the connection",
                ]
                .iter()
                .any(|t| text.contains(t))
            }
        }
    }
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
    /// The attempt failed and nothing was applied; the report is tried again after `retry_at`.
    Retrying {
        /// When the next attempt may start.
        retry_at: DateTime<Utc>,
    },
    /// The ingestion failed for good (after the last attempt, or an error that cannot pass); nothing was applied.
    Failed,
}

impl From<Settled> for Outcome {
    fn from(s: Settled) -> Self {
        match s {
            Settled::Retrying(retry_at) => Outcome::Retrying { retry_at },
            Settled::Failed => Outcome::Failed,
            Settled::LostLease => Outcome::LostLease,
        }
    }
}

impl IngestContext {
    /// The claims this context takes: its worker, lease, attempts and backoff.
    pub fn claimer(&self) -> Claimer<'_> {
        Claimer {
            db: &self.db,
            worker: &self.worker,
            lease: self.lease,
            max_attempts: self.max_attempts,
            backoff: self.backoff,
        }
    }
}

/// Claims the oldest report that is received, or whose lease expired (its worker died, or it waits for another
/// attempt after a failure); each claim is an attempt. A report whose worker died during its last attempt is not
/// claimed again: it ends `FAILED`.
pub async fn claim(ctx: &IngestContext, now: DateTime<Utc>) -> Result<Option<bank_report::Model>, DbErr> {
    ctx.claimer().claim::<bank_report::Entity>(now).await
}

impl Queue for bank_report::Entity {
    crate::queue::queue_columns!(bank_report);

    fn log_failed(r: &Self::Model, error: &str) {
        tracing::error!(
            report = r.id,
            bank = r.bank_id,
            month = %r.reference_month,
            attempts = r.attempts,
            reference = %r.failure_reference(),
            error = %error,
            "ingestion of bank report {} FAILED after {} attempt(s); nothing was applied; \
             `fomento bank-reports retry {}` queues it again",
            r.id,
            r.attempts,
            r.id
        );
    }
    fn log_retry(r: &Self::Model, max: i32, retry_at: DateTime<Utc>, error: &str) {
        tracing::error!(
            report = r.id,
            bank = r.bank_id,
            month = %r.reference_month,
            attempt = r.attempts,
            max_attempts = max,
            %retry_at,
            error = %error,
            "ingestion of bank report {} failed (attempt {} of {max}); nothing was applied; trying again at {retry_at}",
            r.id,
            r.attempts
        );
    }
}

/// Bank reports read to the end, by outcome (`ingested`, `rejected`): a Prometheus counter.
pub const INGESTION_REPORTS: &str = "fomento_ingestion_reports_total";
/// Rows of the bank reports read, by outcome of their report.
pub const INGESTION_ROWS: &str = "fomento_ingestion_rows_total";
/// Bytes of the bank reports read, by outcome of their report.
pub const INGESTION_BYTES: &str = "fomento_ingestion_bytes_total";
const INGESTED: &str = "ingested";
const REJECTED: &str = "rejected";

/// Counts a report read to the end (for the metrics).
fn count_read(outcome: &'static str, rows: usize, bytes: i64) {
    metrics::counter!(INGESTION_REPORTS, "outcome" => outcome).increment(1);
    metrics::counter!(INGESTION_ROWS, "outcome" => outcome).increment(rows as u64);
    metrics::counter!(INGESTION_BYTES, "outcome" => outcome).increment(u64::try_from(bytes).unwrap_or(0));
}

/// One step: process every claimable report. A report whose attempt fails is tried again after a backoff (30 s,
/// then doubling) while attempts remain and the error can pass; otherwise it ends `FAILED`. Either way nothing of it
/// was applied.
pub async fn run_once(ctx: &IngestContext, now: DateTime<Utc>) -> Result<JobReport, IngestError> {
    let mut report = JobReport::default();
    let (mut rejected, mut retrying, mut failed) = (0, 0, 0);
    let mut seen = HashSet::new();
    while let Some(r) = claim(ctx, now).await? {
        if !seen.insert(r.id) {
            break;
        }
        let started = std::time::Instant::now();
        let outcome = match process(ctx, &r, now).await {
            Ok(o) => o,
            Err(e) => settle_failure(ctx, &r, &e, now).await?,
        };
        if matches!(
            outcome,
            Outcome::Ingested { .. } | Outcome::Rejected { .. } | Outcome::Failed
        ) && let Err(e) = service::webhooks::enqueue_report(&ctx.db, r.id).await
        {
            tracing::warn!(report = r.id, error = %e, "the report's webhook deliveries were not queued");
        }
        // One line for each report read to the end (a failure writes its own, `settle_failure`).
        let read = |status: &str, rows: usize, errors: usize| {
            tracing::info!(
                report = r.id,
                bank = r.bank_id,
                month = %r.reference_month,
                status,
                rows,
                errors,
                bytes = r.byte_size,
                seconds = started.elapsed().as_secs_f64(),
                "bank report {} {status}: {rows} rows, {errors} errors",
                r.id
            )
        };
        match outcome {
            Outcome::Ingested { rows } => {
                read("INGESTED", rows, 0);
                count_read(INGESTED, rows, r.byte_size);
                report.processed += 1
            }
            Outcome::Rejected { rows, errors } => {
                read("REJECTED", rows, errors);
                count_read(REJECTED, rows, r.byte_size);
                report.processed += 1;
                rejected += 1;
            }
            Outcome::Retrying { .. } => retrying += 1,
            Outcome::Failed => failed += 1,
            Outcome::LostLease => {}
        }
    }
    report.failed = rejected + failed;
    report.message = Message::new(code::JOB_INGEST_DONE)
        .arg("processed", report.processed)
        .arg("rejected", rejected)
        .arg("failed", failed)
        .arg("retrying", retrying);
    Ok(report)
}

/// After a failed attempt (rolled back): schedules another attempt, or ends the report `FAILED`. Logged as an `ERROR`
/// naming the report either way.
async fn settle_failure(
    ctx: &IngestContext,
    r: &bank_report::Model,
    e: &IngestError,
    now: DateTime<Utc>,
) -> Result<Outcome, IngestError> {
    Ok(ctx
        .claimer()
        .settle::<bank_report::Entity>(r, &e.to_string(), e.is_transient(), now)
        .await?
        .into())
}

/// Takes the claim's row lock inside `txn`; false when this worker no longer holds the claim.
async fn still_mine(txn: &DatabaseTransaction, ctx: &IngestContext, id: i64) -> Result<bool, DbErr> {
    ctx.claimer().still_mine::<bank_report::Entity>(txn, id).await
}

async fn reject(
    ctx: &IngestContext,
    r: &bank_report::Model,
    rows: usize,
    file_error: Option<Message>,
    errors: &[RowError],
    now: DateTime<Utc>,
) -> Result<Outcome, IngestError> {
    let txn = service::txn::write(&ctx.db).await?;
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
            message: Set(e.message.to_string()),
            message_code: Set(Some(e.message.code.clone())),
            message_args: Set(Some(e.message.args_json())),
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
    a.file_error = Set(file_error.as_ref().map(Message::to_string));
    a.file_error_code = Set(file_error.as_ref().map(|m| m.code.clone()));
    a.file_error_args = Set(file_error.as_ref().map(Message::args_json));
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

/// A row's outcome in `bank_report_row` when a later row of the same carta overtook it (the later row is applied).
const DUPLICATE: &str = "DUPLICATE";

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
    problem: Option<Message>,
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
    // Each row; reading stops when the applying side is gone (it failed, and nobody reads what this thread finds).
    let mut handle = |out: &mut Scanned, header: &Header, i: usize, cells: &[Cell]| {
        match parse_row(i, cells, header, munis) {
            Some(Ok(r)) => {
                out.rows += 1;
                if sending && out.errors.is_empty() {
                    batch.push(r);
                    if batch.len() == BATCH {
                        let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
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
        }
        if sending {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    };
    let read = for_each_row(bytes, limits, progress, |i, cells| {
        if let Some(h) = &header {
            return handle(&mut out, h, i, &cells);
        }
        if i < HEADER_SCAN_ROWS {
            head.resize(i, Vec::new());
            head.push(cells);
            return ControlFlow::Continue(());
        }
        // The header must be among the rows seen so far; without it the file is refused, unread further.
        match find_header(&head) {
            Ok(h) => {
                for (j, row) in head.iter().enumerate().skip(h.row + 1) {
                    handle(&mut out, &h, j, row)?;
                }
                let next = handle(&mut out, &h, i, &cells);
                header = Some(h);
                next
            }
            Err(e) => {
                out.problem = Some(e);
                ControlFlow::Break(())
            }
        }
    });
    if let Err(e) = read {
        out.problem = Some(e.message());
    }
    if out.problem.is_none() && header.is_none() {
        // A short sheet: every row is in `head`.
        match find_header(&head) {
            Ok(h) => {
                for (j, row) in head.iter().enumerate().skip(h.row + 1) {
                    if handle(&mut out, &h, j, row).is_break() {
                        break;
                    }
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

/// Times a report is tried again at once after another transaction inserted one of its parties or cartas first.
const RETRIES: usize = 3;

/// Reads, checks and applies one claimed report in one pass: a reader thread parses the rows while this task applies
/// them in batches inside one transaction guarded by the claim. A row error, an unreadable file or a failure rolls
/// the transaction back, so a report is applied whole or not at all; the sheet is never held whole in memory.
///
/// Parties and cartas the database does not know are inserted without an `ON CONFLICT` clause. When another worker
/// (or the API) commits the same party or carta between this transaction's lookup and its insert, the unique key
/// refuses the insert; the transaction is then rolled back and the report applied again from the start, now finding
/// them known.
pub async fn process(ctx: &IngestContext, r: &bank_report::Model, now: DateTime<Utc>) -> Result<Outcome, IngestError> {
    let mut attempt = 0;
    loop {
        match apply_report(ctx, r, now).await {
            Err(IngestError::Db(e))
                if attempt < RETRIES && matches!(e.sql_err(), Some(sea_orm::SqlErr::UniqueConstraintViolation(_))) =>
            {
                attempt += 1;
                tracing::info!(
                    report = r.id,
                    attempt,
                    "a party or carta was inserted meanwhile; applying again: {e}"
                );
            }
            other => return other,
        }
    }
}

async fn apply_report(ctx: &IngestContext, r: &bank_report::Model, now: DateTime<Utc>) -> Result<Outcome, IngestError> {
    let bytes = ctx.store.get(&r.sha256).await?;
    let munis = Municipalities::new(
        municipality::Entity::find()
            .all(&ctx.db)
            .await?
            .into_iter()
            .map(|m| (m.ibge_code, m.name)),
    );
    let txn = service::txn::write(&ctx.db).await?;
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
        sql: PreparedSql {
            party_resolve: party_resolve(),
            carta_lookup: carta_lookup(txn.get_database_backend(), r.bank_id),
        },
        reference_month: r.reference_month.clone(),
        params: params.clone(),
        cal: non_business_day::Entity::calendar(&txn).await?,
        bounds: month_bounds(&r.reference_month),
        last_row: HashMap::new(),
        duplicates: Vec::new(),
        validity: HashMap::new(),
    };
    let mut applier = Applier {
        report: r,
        params,
        now,
        chamber_before: HashMap::new(),
        carta_insert: carta_insert(txn.get_database_backend(), r.bank_id, r.id),
        carta_update: carta_update(r.bank_id),
        carta_history: carta_history(txn.get_database_backend(), r.bank_id, r),
        declared_insert: declared_insert(r.bank_id, r.id),
        flags: Writer::new(flags::report_source(r.id), now),
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
        let message = Message::new(code::FILE_TOO_MANY_ROWS).arg("max", ctx.limits.max_rows);
        Some((scanned.rows, Some(message)))
    } else if !scanned.errors.is_empty() {
        Some((scanned.rows, None))
    } else if scanned.rows == 0 {
        Some((0, Some(Message::new(code::FILE_NO_ROWS))))
    } else {
        None
    };
    if let Some((rows, file_error)) = refusal {
        txn.rollback().await?;
        return reject(ctx, r, rows, file_error, &scanned.errors, now).await;
    }
    let raised = applier.finish(&txn, preparer).await?;
    if let Some(Fault(fault)) = &ctx.fault
        && let Some(e) = fault(r)
    {
        return Err(e.into());
    }
    // An earlier declaration of the same bank and month is superseded, and stays queryable; the flags it raised are
    // resolved by this one.
    let superseded: Vec<i64> = bank_report::Entity::find()
        .select_only()
        .column(bank_report::Column::Id)
        .filter(bank_report::Column::BankId.eq(r.bank_id))
        .filter(bank_report::Column::ReferenceMonth.eq(r.reference_month.clone()))
        .filter(bank_report::Column::Status.eq("INGESTED"))
        .filter(bank_report::Column::Id.ne(r.id))
        .into_tuple()
        .all(&txn)
        .await?;
    let mut resolved = Vec::new();
    for old in &superseded {
        resolved.extend(flags::resolve_superseded(&txn, *old, r.id, now).await?);
    }
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
    // The report is ingested whatever happens here: a failure is logged, not returned.
    if let Err(e) = flags::announce(&ctx.db, &raised, &[], &resolved).await {
        tracing::warn!(report = r.id, error = %e, "the report's flags were not announced");
    }
    Ok(Outcome::Ingested { rows: scanned.rows })
}

/// A finding of the report on one of its cartas, by number: a catalogue message (`report-flag-…`, in
/// `explanations.ftl`) and its values, stored as `message_id` and `message_args` and rendered when read in the
/// reader's language.
struct Flag {
    number: String,
    code: rules::RuleCode,
    what: Explanation,
}

fn flag(number: &str, code: rules::RuleCode, what: Explanation) -> Flag {
    Flag {
        number: number.to_owned(),
        code,
        what,
    }
}

fn month_bounds(reference_month: &str) -> Option<(NaiveDate, NaiveDate)> {
    let first = NaiveDate::parse_from_str(&format!("{reference_month}-01"), "%Y-%m-%d").ok()?;
    let last = first.checked_add_months(chrono::Months::new(1))?.pred_opt()?;
    Some((NaiveDate::from_ymd_opt(first.year(), 1, 1)?, last))
}

/// A batch ready for the database, prepared on a thread of its own: its rows as statement values, the findings of its
/// rows, and the rows whose check needs the database.
struct Prepared {
    /// One party per document of the batch: inserted when the database does not know it yet.
    parties: Parties,
    /// Looks up which of the batch's cartas the database knows (see [`carta_lookup`] and [`known_cartas`]).
    carta_lookup: Vec<(Statement, u64)>,
    /// The batch's cartas (the last row of each), by number, with their party's document: inserted when new, updated
    /// when known. Their values follow [`CARTA_COLS`] without the party's id, which the applier puts first.
    cartas: Vec<(String, String, Vec<Value>)>,
    /// Findings on the rows themselves (dates outside the declared period, the 120-day validity).
    flags: Vec<Flag>,
    /// Rows at or above the chamber threshold: `(number, row, threshold)`.
    chamber: Vec<(String, ListedRow, rust_decimal::Decimal)>,
}

/// A batch's parties, one per document, as [`Applier::party_ids`] takes them.
enum Parties {
    /// PostgreSQL: the statement that looks the known ones up, inserts the others and answers with every id.
    Resolve(Vec<(Statement, u64)>),
    /// SQLite: the rows, by document (looked up, the others inserted, those looked up in turn).
    Rows(Vec<(String, Vec<Value>)>),
}

/// The bodies of the statements the preparer builds, for one report.
struct PreparedSql {
    /// [`party_resolve`] (PostgreSQL).
    party_resolve: String,
    /// [`carta_lookup`] for the report's bank.
    carta_lookup: String,
}

/// Turns the reader's batches into statements, keeping what the report has shown so far.
struct Preparer {
    backend: sea_orm::DbBackend,
    /// The statements' bodies, written once per report.
    sql: PreparedSql,
    reference_month: String,
    params: rules::params::Params,
    cal: rules::calendar::Calendar,
    /// 1 January of the declared year and the declared month's last day.
    bounds: Option<(NaiveDate, NaiveDate)>,
    /// Each carta number seen, with the sheet row of its latest occurrence: a later row of the same carta wins.
    last_row: HashMap<String, u32>,
    /// `(number, earlier row, later row)` for each repeated carta.
    duplicates: Vec<(String, u32, u32)>,
    /// FCO-VALIDITY-120D's expiry by approval date (the calendar is walked once per date).
    validity: HashMap<NaiveDate, Option<rules::calendar::Deadline>>,
}

/// Parties by document. The applier inserts only the documents it did not find, so a known party keeps its name and
/// the insert is a plain one (an `ON CONFLICT` clause made PostgreSQL probe the unique index a second time per row).
const PARTY_COLS: [bulk::Col; 4] = [
    bulk::col("document", "text"),
    bulk::col("document_kind", "text"),
    bulk::col("cnpj_root", "text"),
    bulk::col("name", "text"),
];
const PARTY_INSERT: &str = "INSERT INTO party (document, document_kind, cnpj_root, name)
    SELECT s.document, s.document_kind, s.cnpj_root, s.name FROM s";

/// A carta's values as the statements read them, its party's id first. Its bank, the chamber's decision (a bank lists
/// approved cartas), the decision's date (the approval's) and its stage (approved, or contracted when the row has a
/// contract date: [`listed`]) follow from the report or the row and are written in the SQL; the time it is recorded
/// is one value per statement.
const CARTA_COLS: [bulk::Col; 13] = [
    bulk::col("party_id", "bigint"),
    bulk::col("number", "text"),
    bulk::col("line", "text"),
    bulk::col("activity", "text"),
    bulk::col("financed_amount", "bigint"),
    bulk::col("municipality_code", "integer"),
    bulk::col("approved_on", "date"),
    bulk::col("contracted_on", "date"),
    bulk::col("contracted_amount", "bigint"),
    bulk::col("term_months", "integer"),
    bulk::col("grace_months", "integer"),
    bulk::col("presented_on", "date"),
    bulk::col("borrower_name", "text"),
];

/// The rows of `s`, named `r`, with the stage (and its status) of a carta a bank lists: contracted when the row has a
/// contract date, else approved.
fn listed() -> String {
    use sea_orm::ActiveEnum;
    let (approved, contracted) = (FcoCartaStage::Approved, FcoCartaStage::Contracted);
    format!(
        "(SELECT s.*,
            CASE WHEN s.contracted_on IS NULL THEN '{}' ELSE '{}' END AS stage,
            CASE WHEN s.contracted_on IS NULL THEN '{}' ELSE '{}' END AS status
          FROM s) r",
        approved.to_value(),
        contracted.to_value(),
        approved.status().to_value(),
        contracted.status().to_value()
    )
}

/// A new carta of bank `bank` is inserted as approved or contracted; its `created_at` is the statement's constant. On
/// PostgreSQL the same statement records the new cartas as declared by `report` (provenance), from the ids the insert
/// returns, so no lookup is needed; its row count is still one per carta.
fn carta_insert(backend: sea_orm::DbBackend, bank: i64, report: i64) -> String {
    let insert = carta_insert_only(backend, bank, report);
    if backend == sea_orm::DbBackend::Postgres {
        format!(
            ", ins AS ({insert} RETURNING id)
            INSERT INTO bank_report_carta (report_id, carta_id) SELECT {report}, id FROM ins"
        )
    } else {
        insert
    }
}

fn carta_insert_only(backend: sea_orm::DbBackend, bank: i64, report: i64) -> String {
    let favourable = sea_orm::ActiveEnum::to_value(&Decision::Favourable);
    let created_at = bulk::constant(backend, &CARTA_COLS, 0, "timestamptz");
    format!(
        "INSERT INTO fco_carta (number, bank_id, party_id, line, activity, financed_amount, municipality_code, stage,
            status, decision, decided_on, approved_on, contracted_on, contracted_amount, term_months, grace_months,
            presented_on, borrower_name, created_at, created_by_report)
        SELECT r.number, {bank}, r.party_id, r.line, r.activity, r.financed_amount, r.municipality_code, r.stage,
            r.status, '{favourable}', r.approved_on, r.approved_on, r.contracted_on, r.contracted_amount, r.term_months,
            r.grace_months, r.presented_on, r.borrower_name, {created_at}, {report}
        FROM {}",
        listed()
    )
}

/// A known carta of bank `bank` takes the row's values and moves to the row's stage unless it is already further on
/// (contracted) or was refused; a contract always applies. (Every `SET` expression reads the carta as it was, on both
/// backends.)
fn carta_update(bank: i64) -> String {
    format!(
        "UPDATE fco_carta SET
            party_id = r.party_id,
            financed_amount = r.financed_amount,
            approved_on = r.approved_on,
            contracted_on = r.contracted_on,
            contracted_amount = r.contracted_amount,
            term_months = COALESCE(r.term_months, fco_carta.term_months),
            grace_months = COALESCE(r.grace_months, fco_carta.grace_months),
            presented_on = COALESCE(r.presented_on, fco_carta.presented_on),
            borrower_name = r.borrower_name,
            stage = CASE WHEN fco_carta.stage IN ('DRAFT', 'SUBMITTED', 'APPROVED', 'EXPIRED')
                           OR r.stage = 'CONTRACTED' THEN r.stage ELSE fco_carta.stage END,
            status = CASE WHEN fco_carta.stage IN ('DRAFT', 'SUBMITTED', 'APPROVED', 'EXPIRED')
                            OR r.stage = 'CONTRACTED' THEN r.status ELSE fco_carta.status END,
            expired_on = CASE WHEN (fco_carta.stage IN ('DRAFT', 'SUBMITTED', 'APPROVED', 'EXPIRED')
                                    OR r.stage = 'CONTRACTED') AND r.stage <> 'EXPIRED'
                              THEN NULL ELSE fco_carta.expired_on END
        FROM {}
        WHERE fco_carta.bank_id = {bank} AND fco_carta.number = r.number",
        listed()
    )
}

/// The stage changes this report's rows cause to known cartas of bank `bank` (approved → contracted, submitted →
/// approved, ...), as history rows of the carta's lifecycle (`CONTRACT` or `DECIDE`) by `bank report N`. It reads the
/// same rows as [`carta_update`], runs just before it, and writes a row where the update will change the stage (the
/// same condition); the instant it is recorded is the statement's constant.
fn carta_history(backend: sea_orm::DbBackend, bank: i64, report: &bank_report::Model) -> String {
    use sea_orm::ActiveEnum;
    let contracted = FcoCartaStage::Contracted.to_value();
    let recorded_at = bulk::constant(backend, &CARTA_COLS, 0, "timestamptz");
    format!(
        "INSERT INTO financing_transition (programme, financing_id, from_stage, to_stage, event, occurred_on,
            recorded_at, actor, note, note_id, note_args)
        SELECT '{programme}', fco_carta.id, fco_carta.stage, r.stage,
            CASE WHEN r.stage = '{contracted}' THEN 'CONTRACT' ELSE 'DECIDE' END,
            COALESCE(r.contracted_on, r.approved_on), {recorded_at}, 'bank report {id}',
            NULL, 'history-declared-in-list', '{note_args}'
        FROM {listed} JOIN fco_carta ON fco_carta.bank_id = {bank} AND fco_carta.number = r.number
        WHERE (fco_carta.stage IN ('DRAFT', 'SUBMITTED', 'APPROVED', 'EXPIRED') OR r.stage = '{contracted}')
          AND fco_carta.stage <> r.stage",
        programme = Programme::FcoRural.to_value(),
        id = report.id,
        // The note as a catalogue message and its values (migration 61); the month is `YYYY-MM`, checked on upload.
        note_args = serde_json::json!({ "month": report.reference_month })
            .to_string()
            .replace('\'', "''"),
        listed = listed()
    )
}

/// The cartas a batch declared, by number, recorded as the report's (provenance); a carta repeated across batches is
/// recorded once.
const DECLARED_COLS: [bulk::Col; 1] = [bulk::col("number", "text")];

fn declared_insert(bank: i64, report: i64) -> String {
    format!(
        "INSERT INTO bank_report_carta (report_id, carta_id)
        SELECT {report}, fco_carta.id FROM s JOIN fco_carta ON fco_carta.bank_id = {bank} AND fco_carta.number = s.number
        WHERE true
        ON CONFLICT DO NOTHING"
    )
}

/// Separates the keys a lookup returns in its one row: documents are digits and letters, and a carta number holding a
/// control character is a row error (`rows::parse_row`).
const KEY_SEPARATOR: char = '\u{1f}';

/// `expr`'s values over the rows, joined by [`KEY_SEPARATOR`], as one text: a lookup answers with one row, not one
/// row per key (sqlx hands SQLite's rows one by one to another thread).
fn joined(backend: sea_orm::DbBackend, expr: &str) -> String {
    match backend {
        sea_orm::DbBackend::Postgres => format!("string_agg({expr}, chr(31))"),
        _ => format!("group_concat({expr}, char(31))"),
    }
}

/// Runs lookup statements that each answer with one row holding [`joined`] keys, and collects the keys.
async fn lookup(txn: &DatabaseTransaction, statements: Vec<(Statement, u64)>) -> Result<Vec<String>, DbErr> {
    let mut keys = Vec::new();
    for (s, _) in statements {
        if let Some(row) = txn.query_one_raw(s).await?
            && let Some(text) = row.try_get_by_index::<Option<String>>(0)?
        {
            keys.extend(text.split(KEY_SEPARATOR).map(String::from));
        }
    }
    Ok(keys)
}

impl Preparer {
    fn expiry(&mut self, approved: NaiveDate) -> Option<&rules::calendar::Deadline> {
        let (params, cal) = (&self.params, &self.cal);
        self.validity
            .entry(approved)
            .or_insert_with(|| rules::fco::validity_end(approved, params, cal).ok())
            .as_ref()
    }

    /// The row's own findings, by the rules of `entity::rules::fco::listed`: dates outside the declared period, the
    /// 120-day validity; and whether it needs the chamber check.
    fn check(&mut self, row: &ReportRow, prepared: &mut Prepared) {
        let listed_row = ListedRow {
            row: row.row,
            financed: row.financed,
            approved_on: row.approved_on,
            presented_on: row.presented_on,
            contracted_on: row.contracted_on,
        };
        if let Some((year_start, month_end)) = self.bounds {
            for what in listed::outside_period(&listed_row, year_start, month_end, &self.reference_month) {
                prepared
                    .flags
                    .push(flag(&row.carta_number, rules::code::FCO_MONTHLY_LIST, what));
            }
        }
        let chamber = rules::fco::needs_chamber(row.financed, &self.params, row.approved_on);
        if let Ok((true, threshold)) = chamber {
            prepared.chamber.push((row.carta_number.clone(), listed_row, threshold));
        }
        // Art. 3 sole §: a CDAE approval gives 120 days to present the project to the bank (the contract may come
        // later); a carta the bank decided below the threshold has no such clock.
        if let Ok((true, _)) = chamber
            && let Some(validity) = self.expiry(row.approved_on)
        {
            let column = super::columns::header(super::columns::Column::PresentedOn);
            if let Some(what) = listed::presented_late(&listed_row, validity, column) {
                prepared
                    .flags
                    .push(flag(&row.carta_number, rules::code::FCO_VALIDITY_120D, what));
            }
        }
    }

    /// One batch: its findings, and its statements (the last row of each carta in the batch is the one written).
    fn prepare(&mut self, batch: Vec<ReportRow>) -> Result<Prepared, DbErr> {
        use sea_orm::ActiveEnum;
        let mut prepared = Prepared {
            parties: Parties::Rows(Vec::new()),
            carta_lookup: Vec::new(),
            cartas: Vec::new(),
            flags: Vec::new(),
            chamber: Vec::new(),
        };
        for row in &batch {
            self.check(row, &mut prepared);
        }
        let mut winner: HashMap<&str, usize> = HashMap::with_capacity(batch.len());
        for (k, row) in batch.iter().enumerate() {
            winner.insert(row.carta_number.as_str(), k);
            if let Some(prev) = self.last_row.insert(row.carta_number.clone(), row.row) {
                self.duplicates.push((row.carta_number.clone(), prev, row.row));
            }
        }
        let applied: Vec<&ReportRow> = batch
            .iter()
            .enumerate()
            .filter(|(k, row)| winner.get(row.carta_number.as_str()) == Some(k))
            .map(|(_, row)| row)
            .collect();

        let mut documents = HashSet::with_capacity(applied.len());
        let parties: Vec<(String, Vec<Value>)> = applied
            .iter()
            .filter(|row| documents.insert(row.document.as_str()))
            .map(|row| {
                let values = vec![
                    row.document.as_str().into(),
                    row.document.kind().as_str().into(),
                    row.document.cnpj_root().map(String::from).into(),
                    row.borrower.as_str().into(),
                ];
                (row.document.as_str().to_owned(), values)
            })
            .collect();
        prepared.parties = if self.backend == sea_orm::DbBackend::Postgres {
            let rows = parties.into_iter().map(|(_, values)| values).collect();
            Parties::Resolve(bulk::statements(
                self.backend,
                &PARTY_COLS,
                rows,
                &self.sql.party_resolve,
            )?)
        } else {
            Parties::Rows(parties)
        };
        let numbers = applied
            .iter()
            .map(|row| vec![row.carta_number.as_str().into()])
            .collect();
        prepared.carta_lookup = bulk::statements(
            self.backend,
            &[bulk::col("number", "text")],
            numbers,
            &self.sql.carta_lookup,
        )?;

        prepared.cartas = applied
            .iter()
            .map(|row| {
                let values = vec![
                    row.carta_number.as_str().into(),
                    row.line.to_value().into(),
                    row.activity.to_value().into(),
                    row.financed.cents().into(),
                    row.municipality.into(),
                    row.approved_on.into(),
                    row.contracted_on.into(),
                    row.contracted
                        .or(row.contracted_on.map(|_| row.financed))
                        .map(|m| m.cents())
                        .into(),
                    row.term_months.into(),
                    row.grace_months.into(),
                    row.presented_on.into(),
                    row.borrower.as_str().into(),
                ];
                (row.carta_number.clone(), row.document.as_str().to_owned(), values)
            })
            .collect();

        Ok(prepared)
    }
}

/// PostgreSQL's statement resolving a batch's parties: it looks the known ones up, inserts the others and answers with
/// every `id:document` (aggregated into one row).
fn party_resolve() -> String {
    format!(
        ", known AS (SELECT p.id, p.document FROM s JOIN party p ON p.document = s.document),
        ins AS ({PARTY_INSERT} WHERE NOT EXISTS (SELECT 1 FROM known k WHERE k.document = s.document)
            RETURNING id, document)
        SELECT {} FROM (SELECT id, document FROM known UNION ALL SELECT id, document FROM ins) x",
        joined(sea_orm::DbBackend::Postgres, "x.id || ':' || x.document")
    )
}

/// The carta lookup over `s(number)`: which numbers name cartas of bank `bank` the database knows, answering with one
/// row: each known number prefixed with `1` when it has a favourable opinion of the CPACR chamber, else `0`.
fn carta_lookup(backend: sea_orm::DbBackend, bank: i64) -> String {
    let favourable = "CASE WHEN c.decided_by = 'CHAMBER' AND c.decision = 'FAVOURABLE' THEN '1' ELSE '0' END";
    format!(
        "SELECT {} FROM s JOIN fco_carta c ON c.bank_id = {bank} AND c.number = s.number",
        joined(backend, &format!("{favourable} || c.number")),
    )
}

/// A batch's cartas (by number, with their party's document and their values) as statement rows by number: each
/// carta's party id, from `parties`, goes first.
fn with_party_ids(
    rows: Vec<(String, String, Vec<Value>)>,
    parties: &HashMap<String, i64>,
) -> Result<Vec<(String, Vec<Value>)>, DbErr> {
    rows.into_iter()
        .map(|(number, document, values)| {
            let party = parties
                .get(&document)
                .copied()
                .ok_or_else(|| DbErr::Custom(format!("carta {number}: no party with document {document}")))?;
            Ok((number, std::iter::once(Value::from(party)).chain(values).collect()))
        })
        .collect()
}

/// The statements writing a batch's cartas, each with the number of cartas it writes: the cartas the database knows
/// (`known`) updated (`sql[1]`), the others inserted (`sql[0]`), recorded at `now`.
/// The statements that write a batch's cartas: the inserts of new ones, then, for known ones, the history of the stage
/// changes and the updates. Each comes with the rows it must write (`None`: any number, for the history).
fn carta_statements(
    backend: sea_orm::DbBackend,
    rows: Vec<(String, Vec<Value>)>,
    known: &HashMap<String, bool>,
    sql: [&str; 3],
    now: DateTime<Utc>,
) -> Result<Vec<(Statement, Option<u64>)>, DbErr> {
    let (updated, inserted): (Vec<_>, Vec<_>) = rows.into_iter().partition(|(number, _)| known.contains_key(number));
    let values = |rows: Vec<(String, Vec<Value>)>| rows.into_iter().map(|(_, values)| values).collect::<Vec<_>>();
    let checked = |s: Vec<(Statement, u64)>| s.into_iter().map(|(s, n)| (s, Some(n))).collect::<Vec<_>>();
    let updated = values(updated);
    let mut statements = checked(bulk::statements_with(
        backend,
        &CARTA_COLS,
        values(inserted),
        &[Value::from(now)],
        sql[0],
    )?);
    statements.extend(
        bulk::statements_with(backend, &CARTA_COLS, updated.clone(), &[Value::from(now)], sql[2])?
            .into_iter()
            .map(|(s, _)| (s, None)),
    );
    statements.extend(checked(bulk::statements(backend, &CARTA_COLS, updated, sql[1])?));
    Ok(statements)
}

/// Which of the batch's cartas the database knows, by number, each with whether it has a favourable opinion of the
/// CPACR chamber: runs the batch's [`carta_lookup`].
async fn known_cartas(
    txn: &DatabaseTransaction,
    statements: Vec<(Statement, u64)>,
) -> Result<HashMap<String, bool>, DbErr> {
    Ok(lookup(txn, statements)
        .await?
        .into_iter()
        .map(|key| (key[1..].to_owned(), key.starts_with('1')))
        .collect())
}

/// The applying side of one report: runs each prepared batch inside the report's transaction.
struct Applier<'a> {
    report: &'a bank_report::Model,
    params: rules::params::Params,
    now: DateTime<Utc>,
    /// For cartas at or above the chamber threshold: whether, before this report, the carta existed (`Some`) with a
    /// favourable chamber opinion (`Some(true)`).
    chamber_before: HashMap<String, Option<bool>>,
    /// The carta statements, for the report's bank.
    carta_insert: String,
    carta_update: String,
    /// The history of the stage changes the updates cause.
    carta_history: String,
    /// The provenance insert: which cartas the report declared.
    declared_insert: String,
    /// The report's flags, raised through the one flag writer.
    flags: Writer,
}

/// `id:document` pairs, as the party lookups answer them.
fn party_keys(keys: Vec<String>) -> Result<HashMap<String, i64>, DbErr> {
    keys.into_iter()
        .map(|key| {
            let (id, document) = key
                .split_once(':')
                .ok_or_else(|| DbErr::Custom(format!("party lookup: {key}")))?;
            let id = id.parse().map_err(|_| DbErr::Custom(format!("party lookup: {key}")))?;
            Ok((document.to_owned(), id))
        })
        .collect()
}

impl Applier<'_> {
    /// The ids of the batch's parties, by document: the known ones looked up, the others inserted. PostgreSQL does both
    /// in one statement that answers with every id (aggregated into one row); SQLite looks the known ones up, inserts
    /// the others and looks them up in turn.
    async fn party_ids(&self, txn: &DatabaseTransaction, parties: Parties) -> Result<HashMap<String, i64>, DbErr> {
        let parties = match parties {
            Parties::Resolve(statements) => return party_keys(lookup(txn, statements).await?),
            Parties::Rows(parties) => parties,
        };
        let backend = txn.get_database_backend();
        let find = |documents: Vec<Vec<Value>>| {
            let body = format!(
                "SELECT {} FROM s JOIN party p ON p.document = s.document",
                joined(backend, "p.id || ':' || p.document")
            );
            bulk::statements(backend, &[bulk::col("document", "text")], documents, &body)
        };
        let documents = parties
            .iter()
            .map(|(document, _)| vec![document.as_str().into()])
            .collect();
        let mut ids = party_keys(lookup(txn, find(documents)?).await?)?;
        let (new_documents, new): (Vec<_>, Vec<_>) = parties
            .into_iter()
            .filter(|(document, _)| !ids.contains_key(document))
            .map(|(document, values)| (vec![Value::from(document)], values))
            .unzip();
        for (s, _) in bulk::statements(backend, &PARTY_COLS, new, PARTY_INSERT)? {
            txn.execute_raw(s).await?;
        }
        ids.extend(party_keys(lookup(txn, find(new_documents)?).await?)?);
        Ok(ids)
    }

    /// Runs one prepared batch: resolves its parties (the known ones looked up, the others inserted), finds which of its
    /// cartas are known, checks the chamber threshold against the cartas as they were before this report, inserts the
    /// new cartas, updates the known ones, and records the findings.
    async fn apply(&mut self, txn: &DatabaseTransaction, batch: Prepared) -> Result<(), DbErr> {
        let Prepared {
            parties,
            carta_lookup,
            cartas: rows,
            mut flags,
            chamber,
        } = batch;
        let backend = txn.get_database_backend();
        let parties = self.party_ids(txn, parties).await?;
        // The carta statements need the parties' ids. They are built, as if every carta were new, on another thread
        // while the database looks the cartas up; they are built again only when some carta is known.
        let build = {
            let (insert, update, history, now) = (
                self.carta_insert.clone(),
                self.carta_update.clone(),
                self.carta_history.clone(),
                self.now,
            );
            tokio::task::spawn_blocking(move || {
                let rows = with_party_ids(rows, &parties)?;
                let all_new = carta_statements(
                    backend,
                    rows.clone(),
                    &HashMap::new(),
                    [&insert, &update, &history],
                    now,
                )?;
                Ok::<_, DbErr>((rows, all_new))
            })
        };
        let cartas = known_cartas(txn, carta_lookup).await?;
        for (number, row, threshold) in &chamber {
            let before = *self
                .chamber_before
                .entry(number.clone())
                .or_insert_with(|| cartas.get(number).copied());
            if let Some(what) = listed::chamber_unheard(row, *threshold, before) {
                flags.push(flag(number, rules::code::FCO_CHAMBER_THRESHOLD, what));
            }
        }
        let (rows, all_new) = build.await.map_err(|e| DbErr::Custom(e.to_string()))??;
        // Provenance: on PostgreSQL the inserts record the new cartas themselves; the known ones (and on SQLite all)
        // are recorded by number after they are written.
        let numbers: Vec<Vec<Value>> = rows
            .iter()
            .filter(|(n, _)| backend != sea_orm::DbBackend::Postgres || cartas.contains_key(n))
            .map(|(n, _)| vec![Value::from(n.clone())])
            .collect();
        let statements = if cartas.is_empty() {
            all_new
        } else {
            let sql = [
                self.carta_insert.as_str(),
                self.carta_update.as_str(),
                self.carta_history.as_str(),
            ];
            carta_statements(backend, rows, &cartas, sql, self.now)?
        };
        for (s, expected) in statements {
            let written = txn.execute_raw(s).await?.rows_affected();
            if let Some(expected) = expected
                && written != expected
            {
                return Err(DbErr::Custom(format!("{written} of {expected} cartas written")));
            }
        }
        for (s, _) in bulk::statements(backend, &DECLARED_COLS, numbers, &self.declared_insert)? {
            txn.execute_raw(s).await?;
        }
        self.raise(txn, flags).await
    }

    /// Raises the report's findings on the cartas they name, through the one flag writer.
    async fn raise(&mut self, txn: &DatabaseTransaction, flags: Vec<Flag>) -> Result<(), DbErr> {
        let ids = carta_ids(txn, self.report.bank_id, flags.iter().map(|f| f.number.as_str())).await?;
        for f in flags {
            if let Some(id) = ids.get(&f.number) {
                self.flags.add(txn, NewFlag::on_carta(*id, f.code, f.what)).await?;
            }
        }
        Ok(())
    }

    /// After the last batch: rows overtaken by a later batch become duplicates, each repeated carta is flagged once
    /// per repetition, and the groups over the ceiling are flagged; the ids of every flag the report raised.
    async fn finish(mut self, txn: &DatabaseTransaction, prep: Preparer) -> Result<Vec<i64>, DbErr> {
        let r = self.report;
        for chunk in prep.duplicates.chunks(CHUNK) {
            bank_report_row::Entity::insert_many(chunk.iter().map(|(number, overtaken, _)| {
                bank_report_row::ActiveModel {
                    report_id: Set(r.id),
                    row_number: Set(*overtaken as i32),
                    carta_number: Set(Some(number.clone())),
                    outcome: Set(DUPLICATE.into()),
                }
            }))
            .exec_without_returning(txn)
            .await?;
        }
        let flags: Vec<Flag> = prep
            .duplicates
            .iter()
            .map(|(number, a, b)| {
                let last = prep.last_row.get(number).copied().unwrap_or(*b);
                let what = Explanation::message("report-flag-duplicate")
                    .arg("carta", number)
                    .arg("first", a)
                    .arg("second", b)
                    .arg("report", r.id)
                    .arg("applied", last);
                flag(number, rules::code::FCO_MONTHLY_LIST, what)
            })
            .collect();
        self.raise(txn, flags).await?;
        let on = month_bounds(&r.reference_month)
            .map(|(_, end)| end)
            .unwrap_or_else(|| self.now.date_naive());
        let listed = |number: &str| prep.last_row.contains_key(number);
        for f in service::ceiling::report_flags(txn, r.bank_id, listed, &self.params, on).await? {
            self.flags.add(txn, f).await?;
        }
        self.flags.flush(txn).await
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
