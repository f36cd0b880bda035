//! Building and running the application: connect, migrate, optionally load demo data, bind, serve.

use crate::{
    config::{
        DEFAULT_GRAPH_RUNNING, DEFAULT_MAX_IN_FLIGHT, DEFAULT_RATE_LIMIT, DEFAULT_REQUEST_TIMEOUT_SECONDS,
        MigrateAction,
    },
    http::{AppState, router},
};
use migration::{Migrator, MigratorTrait};
use sea_orm::{ConnectOptions, ConnectionTrait, Database, DatabaseConnection, DbBackend};
use std::{
    net::SocketAddr,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
};
use tokio::net::TcpListener;

/// What the application needs to start.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Database URL.
    pub database_url: String,
    /// Address to bind.
    pub listen: SocketAddr,
    /// Whether to load the demo dataset into an empty database.
    pub demo: bool,
    /// Where raw uploads are kept: a local directory, or `s3://bucket/prefix?…` (see `FileStore::open`).
    pub file_store: String,
    /// How long a claim on a report holds.
    pub lease: chrono::Duration,
    /// Attempts a report's ingestion gets before it ends `FAILED`.
    pub report_attempts: u32,
    /// The largest upload accepted, in bytes (HTTP bodies and the files the ingestion reads).
    pub max_upload_bytes: usize,
    /// Whether to run the scheduled jobs in this process.
    pub run_jobs: bool,
    /// Replaced job schedules, each `NAME=CRON` or `NAME=CRON@ZONE` (`--schedule`).
    pub schedules: Vec<String>,
    /// Whether `/dashboard` is open to callers without a key (`--open-dashboard`).
    pub open_dashboard: bool,
    /// Requests per second per key without a rate of its own (0: no limit).
    pub rate_limit: u32,
    /// The longest a request may take.
    pub request_timeout: std::time::Duration,
    /// The most requests served at once; past it, `503 OVERLOADED`.
    pub max_in_flight: u32,
    /// The most GraphQL requests worked on at once; the others wait their turn.
    pub graph_running: u32,
    /// The origins browsers may call from (none: same origin only; `*`: any).
    pub cors_origins: Vec<String>,
    /// Whether the graph answers introspection (`__schema`, `__type`).
    pub introspection: bool,
    /// Whether plain selections are read at once (`graphql::plain`) rather than a future per field.
    pub plain_reads: bool,
    /// How long raw uploaded files are kept.
    pub retain_raw_files: service::files::Retention,
    /// The identity provider whose tokens are accepted, if any.
    pub tokens: Option<service::tokens::TokenSettings>,
    /// The OpenID Connect provider browsers sign in through, if any.
    pub oidc: Option<service::oidc::OidcSettings>,
    /// The reverse proxies whose forwarding headers are believed (`--trusted-proxy`; none: the peer is the client).
    pub trusted_proxies: Vec<crate::http::forwarded::TrustedProxy>,
    /// A second address serving only `/metrics`, without a key (`--metrics-listen`).
    pub metrics_listen: Option<SocketAddr>,
}

impl Settings {
    /// Settings for a database and an address, with the defaults for the rest.
    pub fn new(database_url: impl Into<String>, listen: SocketAddr) -> Self {
        Self {
            database_url: database_url.into(),
            listen,
            demo: false,
            file_store: "file-store".into(),
            lease: chrono::Duration::minutes(5),
            report_attempts: jobs::report::ingest::DEFAULT_ATTEMPTS,
            max_upload_bytes: service::store::DEFAULT_MAX_UPLOAD_BYTES,
            run_jobs: false,
            schedules: Vec::new(),
            open_dashboard: false,
            rate_limit: DEFAULT_RATE_LIMIT,
            request_timeout: std::time::Duration::from_secs(DEFAULT_REQUEST_TIMEOUT_SECONDS),
            max_in_flight: DEFAULT_MAX_IN_FLIGHT,
            graph_running: DEFAULT_GRAPH_RUNNING,
            cors_origins: Vec::new(),
            introspection: true,
            plain_reads: true,
            retain_raw_files: Default::default(),
            tokens: None,
            oidc: None,
            trusted_proxies: Vec::new(),
            metrics_listen: None,
        }
    }
}

/// The jobs' runtime over a database and a file store (a local directory or an S3-compatible bucket).
pub fn jobs_runtime(
    db: DatabaseConnection,
    file_store: &str,
    lease: chrono::Duration,
    attempts: u32,
    max_upload_bytes: usize,
) -> Result<crate::runtime::JobsRuntime, StartupError> {
    let store = jobs::store::FileStore::open(file_store).map_err(|e| StartupError::Store(e.to_string()))?;
    let worker = format!(
        "{}:{}",
        std::env::var("HOSTNAME").unwrap_or_else(|_| "fomento".into()),
        std::process::id()
    );
    Ok(crate::runtime::JobsRuntime {
        ctx: jobs::report::ingest::UploadContext {
            db,
            store,
            worker,
            lease,
            limits: jobs::report::read::Limits {
                max_bytes: max_upload_bytes,
                ..Default::default()
            },
            progress: Default::default(),
            max_attempts: attempts,
            backoff: chrono::Duration::seconds(jobs::report::ingest::DEFAULT_BACKOFF_SECONDS),
            fault: None,
        },
        wake: Default::default(),
        running: Default::default(),
        schedules: Default::default(),
        retain_raw_files: Default::default(),
    })
}

/// Errors of start-up.
#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    /// The database could not be reached or migrated.
    #[error("database: {0}")]
    Database(#[from] sea_orm::DbErr),
    /// The file store could not be opened.
    #[error("file store: {0}")]
    Store(String),
    /// The identity provider's keys could not be loaded.
    #[error("identity provider: {0}")]
    Tokens(String),
    /// The scheduler could not start.
    #[error("scheduler: {0}")]
    Scheduler(String),
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
}

/// Counts the SQL statements a connection runs (read by tests and diagnostics).
#[derive(Debug, Clone, Default)]
pub struct StatementCounter(Arc<AtomicU64>);

impl StatementCounter {
    /// Statements so far.
    pub fn get(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// A SQLite URL that creates its file when missing (`mode=rwc`) unless it names a mode of its own: the embedded
/// database is created on first start whichever file the operator names.
pub fn sqlite_creating(url: &str) -> String {
    if !url.starts_with("sqlite:") || url.contains("mode=") || url.contains(":memory:") {
        return url.to_owned();
    }
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}mode=rwc")
}

/// The connections of the pool: `FOMENTO_DB_POOL` when set, else 4 on SQLite (one writer at a time; readers share
/// its WAL) and 10 on PostgreSQL (on two cores, more connections than that only queue inside the server).
fn pool_size(sqlite: bool) -> u32 {
    std::env::var("FOMENTO_DB_POOL")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(if sqlite { 4 } else { 10 })
}

/// Connects to the database (creating a SQLite file if needed) and counts its statements.
pub async fn connect(url: &str) -> Result<(DatabaseConnection, StatementCounter), sea_orm::DbErr> {
    let sqlite = url.starts_with("sqlite:");
    let mut opts = ConnectOptions::new(sqlite_creating(url));
    opts.sqlx_logging(false)
        .max_connections(pool_size(sqlite))
        // Past the pool, a request waits its turn (up to the request's own time limit) rather than failing.
        .acquire_timeout(std::time::Duration::from_secs(DEFAULT_REQUEST_TIMEOUT_SECONDS));
    // A fresh SQLite file opened by several processes at once can answer "database is locked" while one of them
    // switches it to WAL; that passes within moments, so retry briefly instead of failing the start.
    let mut attempt = 0;
    let mut db = loop {
        match Database::connect(opts.clone()).await {
            Ok(db) => break db,
            Err(e) if sqlite && attempt < 50 && e.to_string().contains("database is locked") => {
                attempt += 1;
                tokio::time::sleep(std::time::Duration::from_millis(20 * attempt)).await;
            }
            Err(e) => return Err(e),
        }
    };
    if db.get_database_backend() == DbBackend::Sqlite {
        // WAL lets readers run while a writer writes; foreign keys are off by default in SQLite. Switching to WAL
        // needs the file to itself: while another process migrates it answers "database is locked", which passes.
        let mut attempt = 0;
        loop {
            match db.execute_unprepared("PRAGMA journal_mode = WAL").await {
                Ok(_) => break,
                Err(e) if attempt < 100 && e.to_string().contains("database is locked") => {
                    attempt += 1;
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                }
                Err(e) => return Err(e),
            }
        }
        db.execute_unprepared("PRAGMA foreign_keys = ON").await?;
    }
    let counter = StatementCounter::default();
    let c = counter.0.clone();
    db.set_metric_callback(move |_| {
        c.fetch_add(1, Ordering::SeqCst);
    });
    Ok((db, counter))
}

/// Applies pending migrations. Several processes may start at once against one database: the migrations then run
/// in one transaction that first takes a lock (an advisory lock on PostgreSQL, the write lock on SQLite), so one
/// process migrates and the others wait and find nothing left to do.
pub async fn migrate_up(db: &DatabaseConnection) -> Result<(), sea_orm::DbErr> {
    match db.get_database_backend() {
        DbBackend::Postgres => {
            let txn = sea_orm::TransactionTrait::begin(db).await?;
            // 0x666f6d656e746f = "fomento".
            txn.execute_unprepared("SELECT pg_advisory_xact_lock(28821441011463535)")
                .await?;
            Migrator::up(&txn, None).await?;
            txn.commit().await
        }
        _ => {
            db.execute_unprepared("CREATE TABLE IF NOT EXISTS fomento_migration_lock (holder INTEGER)")
                .await?;
            let txn = sea_orm::TransactionTrait::begin(db).await?;
            // A write as the transaction's first statement takes SQLite's write lock (waiting for another holder)
            // before anything is read, so no two processes read "pending" at once.
            txn.execute_unprepared("INSERT INTO fomento_migration_lock (holder) VALUES (1)")
                .await?;
            Migrator::up(&txn, None).await?;
            txn.execute_unprepared("DELETE FROM fomento_migration_lock").await?;
            txn.commit().await
        }
    }
}

/// Runs a `fomento migrate` action; returns the lines to print (the status listing).
pub async fn migrate(db: &DatabaseConnection, action: MigrateAction) -> Result<Vec<String>, sea_orm::DbErr> {
    match action {
        MigrateAction::Up => migrate_up(db).await?,
        MigrateAction::Down { steps } => Migrator::down(db, Some(steps)).await?,
        MigrateAction::Status => {
            return Ok(Migrator::get_migration_with_status(db)
                .await?
                .iter()
                .map(|m| format!("{:?}\t{}", m.status(), m.name()))
                .collect());
        }
        MigrateAction::Fresh => {
            // The view depends on the tables; drop it first so every backend can drop them.
            db.execute_unprepared("DROP VIEW IF EXISTS financing").await?;
            if db.get_database_backend() == DbBackend::Sqlite {
                // SQLite checks foreign keys while it drops a referenced table (the reference data: the semi-arid
                // delimitations on the municipalities). In one transaction, with the checks deferred to the commit,
                // when nothing is left to check.
                let txn = sea_orm::TransactionTrait::begin(db).await?;
                txn.execute_unprepared("PRAGMA defer_foreign_keys = ON").await?;
                Migrator::fresh(&txn).await?;
                txn.commit().await?;
            } else {
                Migrator::fresh(db).await?;
            }
        }
    }
    Ok(Vec::new())
}

/// A built application, bound and migrated, not yet serving.
pub struct Application {
    listener: TcpListener,
    state: AppState,
    statements: StatementCounter,
    _scheduler: Option<tokio_cron_scheduler::JobScheduler>,
    _notifications: Option<crate::runtime::Notifications>,
    metrics: Option<MetricsListener>,
}

/// The listener serving only `/metrics` (`--metrics-listen`); stops when dropped.
#[derive(Debug)]
pub struct MetricsListener {
    port: u16,
    task: tokio::task::JoinHandle<()>,
}

impl MetricsListener {
    /// The bound port.
    pub fn port(&self) -> u16 {
        self.port
    }
}

impl Drop for MetricsListener {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Serves `/metrics` alone on `addr`, without a key: for a scraper on a private network.
pub async fn serve_metrics(addr: SocketAddr, db: DatabaseConnection) -> Result<MetricsListener, StartupError> {
    crate::metrics::install();
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|source| StartupError::Bind { addr, source })?;
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(0);
    let app = axum::Router::new()
        .route("/metrics", axum::routing::get(crate::http::observe::exposition))
        .with_state(db);
    let task = tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            tracing::error!(error = %e, "the metrics listener stopped");
        }
    });
    tracing::info!("serving metrics at http://{}:{port}/metrics", addr.ip());
    Ok(MetricsListener { port, task })
}

impl Application {
    /// Connects, migrates, loads demo data if asked, and binds the listener.
    pub async fn build(settings: Settings) -> Result<Self, StartupError> {
        crate::metrics::install();
        let (db, statements) = connect(&settings.database_url).await?;
        migrate_up(&db).await?;
        if settings.demo {
            crate::demo::load_if_empty(&db).await?;
        }
        // Statistics for a database written by an earlier version, or by hand; the jobs refresh them after their writes.
        if let Err(e) = service::txn::refresh_statistics(&db).await {
            tracing::warn!(error = %e, "the planner's statistics were not refreshed");
        }
        let listener = TcpListener::bind(settings.listen)
            .await
            .map_err(|source| StartupError::Bind {
                addr: settings.listen,
                source,
            })?;
        let mut runtime = jobs_runtime(
            db.clone(),
            &settings.file_store,
            settings.lease,
            settings.report_attempts,
            settings.max_upload_bytes,
        )?;
        runtime.retain_raw_files = settings.retain_raw_files;
        runtime.schedules = std::sync::Arc::new(
            jobs::registry::Schedules::with_overrides(&settings.schedules).map_err(StartupError::Scheduler)?,
        );
        let scheduler = if settings.run_jobs {
            Some(
                crate::runtime::start_jobs(runtime.clone())
                    .await
                    .map_err(|e| StartupError::Scheduler(e.to_string()))?,
            )
        } else {
            None
        };
        let schema = crate::graphql::build_schema_with(db.clone(), Some(runtime.clone()), settings.introspection);
        let tokens = match settings.tokens.clone() {
            Some(t) => Some(std::sync::Arc::new(
                service::tokens::Verifier::load(t).await.map_err(StartupError::Tokens)?,
            )),
            None => None,
        };
        let oidc = match settings.oidc.clone() {
            Some(o) => Some(std::sync::Arc::new(
                service::oidc::Provider::discover(o)
                    .await
                    .map_err(StartupError::Tokens)?,
            )),
            None => None,
        };
        let liveness = crate::http::admission::Liveness::default();
        if db.get_database_backend() == DbBackend::Postgres {
            liveness.watch_postgres(settings.database_url.clone());
        }
        let notifications = crate::runtime::listen_for_notifications(&db).await;
        let metrics = match settings.metrics_listen {
            Some(addr) => Some(serve_metrics(addr, db.clone()).await?),
            None => None,
        };
        let refusals = std::sync::Arc::new(service::audit::Refusals::default());
        close_refusal_windows(&refusals, db.clone());
        Ok(Self {
            listener,
            state: AppState {
                schema,
                db,
                runtime: Some(runtime),
                max_upload_bytes: settings.max_upload_bytes,
                open_dashboard: settings.open_dashboard,
                rate_limit: settings.rate_limit,
                rates: Default::default(),
                request_timeout: settings.request_timeout,
                admission: std::sync::Arc::new(crate::http::admission::Admission::new(
                    settings.max_in_flight,
                    settings.graph_running,
                )),
                liveness,
                cors_origins: settings.cors_origins,
                introspection: settings.introspection,
                plain_reads: settings.plain_reads,
                tokens,
                oidc,
                trusted_proxies: crate::http::forwarded::TrustedProxies::new(settings.trusted_proxies),
                refusals,
            },
            statements,
            _scheduler: scheduler,
            _notifications: notifications,
            metrics,
        })
    }

    /// The bound port (useful with port 0).
    pub fn port(&self) -> u16 {
        self.listener.local_addr().map(|a| a.port()).unwrap_or(0)
    }

    /// The port of the metrics listener (`--metrics-listen`), if any.
    pub fn metrics_port(&self) -> Option<u16> {
        self.metrics.as_ref().map(MetricsListener::port)
    }

    /// The database connection.
    pub fn db(&self) -> DatabaseConnection {
        self.state.db.clone()
    }

    /// The jobs' runtime (for running a job's step by hand).
    pub fn runtime(&self) -> Option<crate::runtime::JobsRuntime> {
        self.state.runtime.clone()
    }

    /// The statement counter of the connection.
    pub fn statements(&self) -> StatementCounter {
        self.statements.clone()
    }

    /// Serves until `shutdown` resolves; then writes the counts of the refused calls' open windows.
    pub async fn run_with_shutdown(self, shutdown: impl Future<Output = ()> + Send + 'static) -> std::io::Result<()> {
        let (refusals, db) = (self.state.refusals.clone(), self.state.db.clone());
        let _metrics = self.metrics;
        let served = axum::serve(
            self.listener,
            router(self.state).into_make_service_with_connect_info::<std::net::SocketAddr>(),
        )
        .with_graceful_shutdown(shutdown)
        .await;
        refusals.flush(&db, None).await;
        served
    }

    /// Serves until Ctrl-C or SIGTERM.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.run_with_shutdown(shutdown_signal()).await
    }
}

/// Writes the summaries of the refused calls' windows as they end (every 10 s), until the server is gone.
fn close_refusal_windows(refusals: &Arc<service::audit::Refusals>, db: DatabaseConnection) {
    let weak = Arc::downgrade(refusals);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(std::time::Duration::from_secs(10));
        loop {
            tick.tick().await;
            let Some(refusals) = weak.upgrade() else {
                return;
            };
            refusals.flush(&db, Some(chrono::Utc::now())).await;
        }
    });
}

/// Resolves on Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down");
}

#[cfg(test)]
mod tests {
    use super::sqlite_creating;

    #[test]
    fn a_sqlite_file_named_without_a_mode_is_created_on_first_start() {
        assert_eq!(sqlite_creating("sqlite:///tmp/f.db"), "sqlite:///tmp/f.db?mode=rwc");
        assert_eq!(
            sqlite_creating("sqlite://f.db?cache=shared"),
            "sqlite://f.db?cache=shared&mode=rwc"
        );
        assert_eq!(sqlite_creating("sqlite://f.db?mode=ro"), "sqlite://f.db?mode=ro");
        assert_eq!(sqlite_creating("sqlite::memory:"), "sqlite::memory:");
        assert_eq!(sqlite_creating("postgres://u@h/db"), "postgres://u@h/db");
    }
}
