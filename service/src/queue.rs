//! A table of work claimed with a lease, shared by the jobs that take queued work (the banks' reports, the fact
//! imports, the webhook deliveries): a conditional claim safe with several workers on one database, an attempt per claim, a backoff between
//! failed attempts, `FAILED` after the last one (or when the worker died during it), and a check inside the applying
//! transaction that this worker still holds the claim; and an operator's or a sender's retry of a `FAILED` row
//! ([`requeue`]).

use chrono::{DateTime, Duration, Utc};
use entity::{bank_report, fact_import, webhook_delivery};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter, QueryOrder, sea_query::Expr,
};

/// A table whose rows are claimed: its columns and what a row says of itself.
pub trait Queue: EntityTrait {
    /// The key column.
    fn id_column() -> Self::Column;
    /// `RECEIVED`, `PROCESSING`, … and `FAILED`.
    fn status_column() -> Self::Column;
    /// The worker holding the row.
    fn claimed_by_column() -> Self::Column;
    /// Until when it holds it (or, between attempts, when the next may start).
    fn lease_until_column() -> Self::Column;
    /// Attempts so far.
    fn attempts_column() -> Self::Column;
    /// The last attempt's error.
    fn last_error_column() -> Self::Column;
    /// When the row ended.
    fn processed_at_column() -> Self::Column;
    /// A row's key.
    fn id_of(m: &Self::Model) -> i64;
    /// A row's attempts.
    fn attempts_of(m: &Self::Model) -> i32;
    /// The worker that held a row.
    fn claimed_by_of(m: &Self::Model) -> Option<&str>;
    /// When a row's lease ends.
    fn lease_until_of(m: &Self::Model) -> Option<DateTime<Utc>>;
    /// Logs that a row ended `FAILED` (as an `ERROR` naming it, for the operator).
    fn log_failed(m: &Self::Model, error: &str);
    /// Logs that an attempt failed and another starts at `retry_at`.
    fn log_retry(m: &Self::Model, max_attempts: i32, retry_at: DateTime<Utc>, error: &str);
}

/// The column and field accessors of [`Queue`] for an entity module whose table has the queue's columns under their
/// usual names (`id`, `status`, `claimed_by`, `lease_until`, `attempts`, `last_error`, `processed_at`).
macro_rules! queue_columns {
    ($m:ident) => {
        fn id_column() -> Self::Column {
            $m::Column::Id
        }
        fn status_column() -> Self::Column {
            $m::Column::Status
        }
        fn claimed_by_column() -> Self::Column {
            $m::Column::ClaimedBy
        }
        fn lease_until_column() -> Self::Column {
            $m::Column::LeaseUntil
        }
        fn attempts_column() -> Self::Column {
            $m::Column::Attempts
        }
        fn last_error_column() -> Self::Column {
            $m::Column::LastError
        }
        fn processed_at_column() -> Self::Column {
            $m::Column::ProcessedAt
        }
        fn id_of(m: &Self::Model) -> i64 {
            m.id
        }
        fn attempts_of(m: &Self::Model) -> i32 {
            m.attempts
        }
        fn claimed_by_of(m: &Self::Model) -> Option<&str> {
            m.claimed_by.as_deref()
        }
        fn lease_until_of(m: &Self::Model) -> Option<DateTime<Utc>> {
            m.lease_until
        }
    };
}

/// Queues a `FAILED` row again for a new set of attempts (an operator's retry, or the same bytes sent again). True when
/// the row was `FAILED`; any other row is left as it is.
pub async fn requeue<Q: Queue>(db: &impl ConnectionTrait, id: i64) -> Result<bool, DbErr> {
    let res = Q::update_many()
        .col_expr(Q::status_column(), Expr::value("RECEIVED"))
        .col_expr(Q::attempts_column(), Expr::value(0))
        .col_expr(Q::claimed_by_column(), Expr::value(Option::<String>::None))
        .col_expr(Q::lease_until_column(), Expr::value(Option::<DateTime<Utc>>::None))
        .col_expr(Q::processed_at_column(), Expr::value(Option::<DateTime<Utc>>::None))
        .filter(Q::id_column().eq(id))
        .filter(Q::status_column().eq("FAILED"))
        .exec(db)
        .await?;
    Ok(res.rows_affected == 1)
}

/// Who claims, for how long, and how often.
#[derive(Debug, Clone, Copy)]
pub struct Claimer<'a> {
    /// The database.
    pub db: &'a DatabaseConnection,
    /// This worker's name.
    pub worker: &'a str,
    /// How long a claim holds.
    pub lease: Duration,
    /// Attempts a row gets.
    pub max_attempts: u32,
    /// The wait after the first failed attempt; it doubles after each later one.
    pub backoff: Duration,
}

impl Claimer<'_> {
    fn max(&self) -> i32 {
        self.max_attempts.max(1) as i32
    }

    /// Claims the oldest row that is received, or whose lease expired (its worker died, or it waits for another
    /// attempt); each claim is an attempt. A row whose worker died during its last attempt ends `FAILED` instead.
    pub async fn claim<Q: Queue>(&self, now: DateTime<Utc>) -> Result<Option<Q::Model>, DbErr>
    where
        Q::Model: Sync,
    {
        let max = self.max();
        let expired = || {
            sea_orm::Condition::all()
                .add(Q::status_column().eq("PROCESSING"))
                .add(Q::lease_until_column().lt(now))
        };
        let abandoned = Q::find()
            .filter(expired())
            .filter(Q::attempts_column().gte(max))
            .all(self.db)
            .await?;
        for r in abandoned {
            let error = format!(
                "the worker {} stopped during attempt {} of {max} (its lease ended at {})",
                Q::claimed_by_of(&r).unwrap_or("?"),
                Q::attempts_of(&r),
                Q::lease_until_of(&r).map(|t| t.to_rfc3339()).unwrap_or_default()
            );
            self.fail::<Q>(&r, &error, now, true).await?;
        }
        let claimable = || {
            sea_orm::Condition::any()
                .add(Q::status_column().eq("RECEIVED"))
                .add(expired().add(Q::attempts_column().lt(max)))
        };
        for _ in 0..10 {
            let Some(candidate) = Q::find()
                .filter(claimable())
                .order_by_asc(Q::id_column())
                .one(self.db)
                .await?
            else {
                return Ok(None);
            };
            let id = Q::id_of(&candidate);
            let res = Q::update_many()
                .col_expr(Q::status_column(), Expr::value("PROCESSING"))
                .col_expr(Q::claimed_by_column(), Expr::value(self.worker.to_owned()))
                .col_expr(Q::lease_until_column(), Expr::value(now + self.lease))
                .col_expr(
                    Q::attempts_column(),
                    sea_orm::ExprTrait::add(Expr::col(Q::attempts_column()), 1),
                )
                .filter(Q::id_column().eq(id))
                .filter(claimable())
                .exec(self.db)
                .await?;
            if res.rows_affected == 1 {
                return Q::find().filter(Q::id_column().eq(id)).one(self.db).await;
            }
            // Another worker won this one; look again.
        }
        Ok(None)
    }

    /// After a failed attempt (rolled back): when the error may pass and attempts remain, the row waits for another
    /// attempt after the backoff; otherwise it ends `FAILED`. A row another worker holds now is left as it is.
    pub async fn settle<Q: Queue>(
        &self,
        r: &Q::Model,
        error: &str,
        transient: bool,
        now: DateTime<Utc>,
    ) -> Result<Settled, DbErr> {
        let max = self.max();
        let attempts = Q::attempts_of(r);
        if transient && attempts < max {
            let retry_at = now + self.backoff * 2i32.saturating_pow((attempts - 1).max(0) as u32);
            Q::log_retry(r, max, retry_at, error);
            // Only while this worker still holds it: its lease becomes the wait, and nobody holds it meanwhile.
            let res = Q::update_many()
                .col_expr(Q::lease_until_column(), Expr::value(retry_at))
                .col_expr(Q::claimed_by_column(), Expr::value(Option::<String>::None))
                .col_expr(Q::last_error_column(), Expr::value(error.to_owned()))
                .filter(Q::id_column().eq(Q::id_of(r)))
                .filter(Q::claimed_by_column().eq(self.worker.to_owned()))
                .filter(Q::status_column().eq("PROCESSING"))
                .exec(self.db)
                .await?;
            return Ok(if res.rows_affected == 1 {
                Settled::Retrying(retry_at)
            } else {
                Settled::LostLease
            });
        }
        Ok(if self.fail::<Q>(r, error, now, false).await? {
            Settled::Failed
        } else {
            Settled::LostLease
        })
    }

    /// Ends a row `FAILED` with its last error, if it is still `PROCESSING` (and, unless `abandoned`, still held by
    /// this worker). True when it did.
    pub async fn fail<Q: Queue>(
        &self,
        r: &Q::Model,
        error: &str,
        now: DateTime<Utc>,
        abandoned: bool,
    ) -> Result<bool, DbErr> {
        let mut update = Q::update_many()
            .col_expr(Q::status_column(), Expr::value("FAILED"))
            .col_expr(Q::last_error_column(), Expr::value(error.to_owned()))
            .col_expr(Q::processed_at_column(), Expr::value(now))
            .col_expr(Q::lease_until_column(), Expr::value(Option::<DateTime<Utc>>::None))
            .filter(Q::id_column().eq(Q::id_of(r)))
            .filter(Q::status_column().eq("PROCESSING"));
        update = if abandoned {
            update.filter(Q::lease_until_column().lt(now))
        } else {
            update.filter(Q::claimed_by_column().eq(self.worker.to_owned()))
        };
        let done = update.exec(self.db).await?.rows_affected == 1;
        if done {
            Q::log_failed(r, error);
        }
        Ok(done)
    }

    /// Takes the claim's row lock inside `txn`; false when this worker no longer holds the claim.
    pub async fn still_mine<Q: Queue>(&self, txn: &impl ConnectionTrait, id: i64) -> Result<bool, DbErr> {
        let res = Q::update_many()
            .col_expr(Q::claimed_by_column(), Expr::value(self.worker.to_owned()))
            .filter(Q::id_column().eq(id))
            .filter(Q::claimed_by_column().eq(self.worker.to_owned()))
            .filter(Q::status_column().eq("PROCESSING"))
            .exec(txn)
            .await?;
        Ok(res.rows_affected == 1)
    }
}

/// How the work on one claimed row (a bank's list, a sheet of facts) ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Every row applied.
    Applied {
        /// Rows applied.
        rows: usize,
    },
    /// Nothing applied; the errors are kept.
    Rejected {
        /// Rows read.
        rows: usize,
        /// Errors found.
        errors: usize,
    },
    /// Another worker holds the row now; nothing was written.
    LostLease,
    /// The attempt failed and nothing was applied; it is tried again after `retry_at`.
    Retrying {
        /// When the next attempt may start.
        retry_at: DateTime<Utc>,
    },
    /// Failed for good (after the last attempt, or an error that cannot pass); nothing was applied.
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

/// How a failed attempt was settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settled {
    /// Another attempt starts at this time.
    Retrying(DateTime<Utc>),
    /// The row ended `FAILED`.
    Failed,
    /// Another worker holds the row now; nothing was written.
    LostLease,
}

impl Queue for bank_report::Entity {
    queue_columns!(bank_report);

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

impl Queue for fact_import::Entity {
    queue_columns!(fact_import);

    fn log_failed(r: &Self::Model, error: &str) {
        tracing::error!(import = r.id, attempts = r.attempts, error = %error,
            "import {} FAILED after {} attempt(s); nothing was applied; sending the same file again queues it again",
            r.id, r.attempts);
    }
    fn log_retry(r: &Self::Model, max: i32, retry_at: DateTime<Utc>, error: &str) {
        tracing::error!(import = r.id, attempt = r.attempts, %retry_at, error = %error,
            "import {} failed (attempt {} of {max}); nothing was applied; trying again at {retry_at}", r.id, r.attempts);
    }
}

impl Queue for webhook_delivery::Entity {
    queue_columns!(webhook_delivery);

    fn log_failed(d: &Self::Model, error: &str) {
        tracing::error!(
            delivery = d.id,
            webhook = d.webhook_id,
            event = %d.event,
            attempts = d.attempts,
            error = %error,
            "webhook delivery {} FAILED after {} attempt(s)",
            d.id,
            d.attempts
        );
    }
    fn log_retry(d: &Self::Model, max: i32, retry_at: DateTime<Utc>, error: &str) {
        tracing::warn!(
            delivery = d.id,
            webhook = d.webhook_id,
            attempt = d.attempts,
            of = max,
            retry_at = %retry_at,
            error = %error,
            "webhook delivery not accepted; trying again later"
        );
    }
}
