//! The ingestion job: claim a received report (a conditional claim with a lease, safe with several workers on one
//! database), read it, and have the use case (`service::ingestion`) either apply every row in one transaction
//! (`INGESTED`) or apply nothing and keep every row error (`REJECTED`). The raw file always stays in the store.

use super::{
    columns,
    messages::{Message, code},
    read::{Cell, Limits, Progress, for_each_row},
    rows::{HEADER_SCAN_ROWS, Header, Municipalities, ReportRow, RowError, find_header, parse_row},
};
use crate::{runs::JobReport, store::FileStore};
use chrono::{DateTime, Duration, Utc};
use entity::bank_report;
use sea_orm::{DatabaseConnection, DbErr};
use service::ingestion;
/// How one report ended (the queue's outcome of a claimed row).
pub use service::queue::Outcome;
use service::queue::{Claimer, Queue, Settled};
use std::{collections::HashSet, ops::ControlFlow};
use tokio::sync::mpsc;

/// The job's name in `job_run`.
pub const JOB: &str = "ingest";

/// What the jobs that read uploaded files need (the banks' lists, the fact imports): the database, the file store,
/// this worker's claim and the files' limits.
#[derive(Clone, Debug)]
pub struct UploadContext {
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

impl UploadContext {
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

    /// After a failed attempt (rolled back) on a claimed report or import: schedules another attempt, or ends it
    /// `FAILED`. Logged as an `ERROR` naming it either way.
    pub async fn settle_failure<Q: Queue>(
        &self,
        claimed: &Q::Model,
        e: &IngestError,
        now: DateTime<Utc>,
    ) -> Result<Settled, DbErr> {
        self.claimer()
            .settle::<Q>(claimed, &e.to_string(), e.is_transient(), now)
            .await
    }

    /// Takes the claim's row lock inside `txn`; false when this worker no longer holds the claim on `id`.
    pub async fn still_mine<Q: Queue>(&self, txn: &impl sea_orm::ConnectionTrait, id: i64) -> Result<bool, DbErr> {
        self.claimer().still_mine::<Q>(txn, id).await
    }
}

/// One step of a job over its queue (the banks' lists, the fact imports): the rows it claimed and how their work
/// ended, summed in the job's report.
#[derive(Debug, Default)]
pub struct Drain {
    seen: HashSet<i64>,
    processed: u32,
    rejected: u32,
    retrying: u32,
    failed: u32,
}

impl Drain {
    /// The next row to work on: the oldest claimable one, claimed; none when none is left or the oldest was already
    /// worked on in this step (it waits for another attempt).
    pub async fn next<Q: Queue>(&mut self, ctx: &UploadContext, now: DateTime<Utc>) -> Result<Option<Q::Model>, DbErr>
    where
        Q::Model: Sync,
    {
        Ok(ctx
            .claimer()
            .claim::<Q>(now)
            .await?
            .filter(|r| self.seen.insert(Q::id_of(r))))
    }

    /// How the work on `claimed` ended, counted: its outcome, or after a failed attempt (rolled back) another attempt
    /// scheduled or the row `FAILED`.
    pub async fn settle<Q: Queue>(
        &mut self,
        ctx: &UploadContext,
        claimed: &Q::Model,
        work: Result<Outcome, IngestError>,
        now: DateTime<Utc>,
    ) -> Result<Outcome, IngestError> {
        let outcome = match work {
            Ok(o) => o,
            Err(e) => ctx.settle_failure::<Q>(claimed, &e, now).await?.into(),
        };
        match outcome {
            Outcome::Applied { .. } => self.processed += 1,
            Outcome::Rejected { .. } => {
                self.processed += 1;
                self.rejected += 1;
            }
            Outcome::Retrying { .. } => self.retrying += 1,
            Outcome::Failed => self.failed += 1,
            Outcome::LostLease => {}
        }
        Ok(outcome)
    }

    /// The job's report: the counts, and the summary `done` (a `JOB_*_DONE` message) with them.
    pub fn report(self, done: &str) -> JobReport {
        JobReport {
            processed: self.processed,
            failed: self.rejected + self.failed,
            message: Message::new(done)
                .arg("processed", self.processed)
                .arg("rejected", self.rejected)
                .arg("failed", self.failed)
                .arg("retrying", self.retrying),
        }
    }
}

/// Claims the oldest report that is received, or whose lease expired (its worker died, or it waits for another
/// attempt after a failure); each claim is an attempt. A report whose worker died during its last attempt is not
/// claimed again: it ends `FAILED`.
pub async fn claim(ctx: &UploadContext, now: DateTime<Utc>) -> Result<Option<bank_report::Model>, DbErr> {
    ctx.claimer().claim::<bank_report::Entity>(now).await
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
pub async fn run_once(ctx: &UploadContext, now: DateTime<Utc>) -> Result<JobReport, IngestError> {
    let mut drain = Drain::default();
    while let Some(r) = drain.next::<bank_report::Entity>(ctx, now).await? {
        let started = std::time::Instant::now();
        let work = process(ctx, &r, now).await;
        let outcome = drain.settle::<bank_report::Entity>(ctx, &r, work, now).await?;
        if matches!(
            outcome,
            Outcome::Applied { .. } | Outcome::Rejected { .. } | Outcome::Failed
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
            Outcome::Applied { rows } => {
                read("INGESTED", rows, 0);
                count_read(INGESTED, rows, r.byte_size);
            }
            Outcome::Rejected { rows, errors } => {
                read("REJECTED", rows, errors);
                count_read(REJECTED, rows, r.byte_size);
            }
            Outcome::Retrying { .. } | Outcome::Failed | Outcome::LostLease => {}
        }
    }
    Ok(drain.report(code::JOB_INGEST_DONE))
}

/// Records the report `REJECTED` (its row errors, or why the file cannot be read), in a transaction of its own.
async fn reject(
    ctx: &UploadContext,
    r: &bank_report::Model,
    rows: usize,
    file_error: Option<Message>,
    errors: &[RowError],
    now: DateTime<Utc>,
) -> Result<Outcome, IngestError> {
    let txn = service::txn::write(&ctx.db).await?;
    if !ctx.still_mine::<bank_report::Entity>(&txn, r.id).await? {
        txn.rollback().await?;
        return Ok(Outcome::LostLease);
    }
    ingestion::reject(&txn, r, rows, file_error.as_ref(), errors, &ctx.worker, now).await?;
    txn.commit().await?;
    Ok(Outcome::Rejected {
        rows,
        errors: errors.len(),
    })
}

/// Rows sent at a time from the reader thread to the database, inside the report's one transaction.
const BATCH: usize = 5000;
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
pub async fn process(ctx: &UploadContext, r: &bank_report::Model, now: DateTime<Utc>) -> Result<Outcome, IngestError> {
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

async fn apply_report(ctx: &UploadContext, r: &bank_report::Model, now: DateTime<Utc>) -> Result<Outcome, IngestError> {
    let bytes = ctx.store.get(&r.sha256).await?;
    let munis = Municipalities::new(ingestion::municipality_names(&ctx.db).await?);
    let txn = service::txn::Bulk::begin(&ctx.db).await?;
    if !ctx.still_mine::<bank_report::Entity>(&txn, r.id).await? {
        txn.rollback().await?;
        return Ok(Outcome::LostLease);
    }
    // The reader parses rows on a thread of its own while the use case applies them in batches.
    let (rows_tx, rows_rx) = mpsc::channel::<Vec<ReportRow>>(2);
    let reader = {
        let limits = ctx.limits;
        let progress = ctx.progress.clone();
        progress.reset();
        tokio::task::spawn_blocking(move || read_rows(&bytes, &limits, &progress, &munis, &rows_tx))
    };
    let presented_on = columns::header(columns::Column::PresentedOn);
    let applied = ingestion::apply(&txn, r, rows_rx, presented_on, now).await?;
    let scanned = reader.await.map_err(|e| DbErr::Custom(e.to_string()))?;
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
        drop(applied);
        txn.rollback().await?;
        return reject(ctx, r, rows, file_error, &scanned.errors, now).await;
    }
    let ingested = applied.finish(&txn, scanned.rows, &ctx.worker).await?;
    if let Some(Fault(fault)) = &ctx.fault
        && let Some(e) = fault(r)
    {
        return Err(e.into());
    }
    txn.commit().await?;
    // The report is ingested whatever happens here: a failure is logged, not returned.
    if let Err(e) = ingested.announce(&ctx.db).await {
        tracing::warn!(report = r.id, error = %e, "the report's flags were not announced");
    }
    if let Err(e) = service::txn::refresh_statistics(&ctx.db).await {
        tracing::warn!(report = r.id, error = %e, "the planner's statistics were not refreshed");
    }
    Ok(Outcome::Applied { rows: scanned.rows })
}
