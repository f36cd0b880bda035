//! Prometheus metrics: the names, units and labels in one place, recorded through the `metrics` facade (a hash lookup
//! and an atomic add on the hot path) and rendered in the text exposition format at `/metrics`.
//!
//! Every label has a bounded set of values: routes are the router's templates (`/imports/{kind}`, never an id),
//! GraphQL operation names are capped ([`MAX_OPERATION_NAMES`]), error codes, jobs, rules and severities are the
//! code's own.

use metrics::{counter, gauge, histogram};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use std::{
    collections::HashSet,
    sync::{Mutex, OnceLock, RwLock},
    time::Duration,
};

/// HTTP requests by route template, method and status (histogram, seconds).
pub const HTTP_DURATION: &str = "http_server_request_duration_seconds";
/// Requests refused at the door by reason: `rate_limited`, `overloaded`, `request_timeout`, `database_unavailable`.
pub const HTTP_REFUSALS: &str = "fomento_http_refusals_total";
/// Requests being served now (gauge).
pub const HTTP_IN_FLIGHT: &str = "fomento_http_requests_in_flight";
/// GraphQL requests waiting their turn to run (`--graph-running`; gauge).
pub const GRAPHQL_WAITING: &str = "fomento_graphql_requests_waiting";
/// GraphQL operations by operation name and type.
pub const GRAPHQL_OPERATIONS: &str = "graphql_server_operations_total";
/// GraphQL errors by operation name, type and error code (`extensions.code`).
pub const GRAPHQL_ERRORS: &str = "graphql_server_errors_total";
/// Job runs by job and outcome (`succeeded`, `failed`).
pub const JOB_RUNS: &str = "fomento_job_runs_total";
/// How long job runs took, by job (histogram, seconds).
pub const JOB_DURATION: &str = "fomento_job_duration_seconds";
/// Flags open now, by rule code and severity (gauge, read at each scrape).
pub const FLAGS_OPEN: &str = "fomento_flags_open";
/// Database connections of this process's pool, by state (`in_use`, `idle`; gauge, read at each scrape).
pub const DB_POOL_CONNECTIONS: &str = "db_client_connections";
/// The most connections the pool opens (gauge).
pub const DB_POOL_MAX: &str = "db_client_connections_max";

/// The most distinct GraphQL operation names counted; later ones count as `other`.
pub const MAX_OPERATION_NAMES: usize = 200;

/// The upper bounds of the duration histograms' buckets, in seconds: a query near 150 ms falls between buckets.
const SECONDS_BUCKETS: &[f64] = &[
    0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0,
];

static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// Installs the process's recorder (once; later calls return the same handle) and describes every metric. `None`
/// when another recorder was installed first.
pub fn install() -> Option<PrometheusHandle> {
    HANDLE
        .get_or_init(|| {
            let handle = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), SECONDS_BUCKETS)
                .ok()?
                .install_recorder()
                .map_err(|e| tracing::warn!(error = %e, "metrics are off: no recorder"))
                .ok()?;
            describe();
            // Histograms keep their recent samples until a render or an upkeep folds them in.
            if let Ok(rt) = tokio::runtime::Handle::try_current() {
                let h = handle.clone();
                rt.spawn(async move {
                    let mut tick = tokio::time::interval(Duration::from_secs(5));
                    loop {
                        tick.tick().await;
                        h.run_upkeep();
                    }
                });
            }
            Some(handle)
        })
        .clone()
}

fn describe() {
    use jobs::report::ingest::{INGESTION_BYTES, INGESTION_REPORTS, INGESTION_ROWS};
    use metrics::{Unit, describe_counter, describe_gauge, describe_histogram};
    describe_histogram!(
        HTTP_DURATION,
        Unit::Seconds,
        "HTTP requests by route template, method and status."
    );
    describe_counter!(HTTP_REFUSALS, "Requests refused at the door, by reason.");
    describe_gauge!(HTTP_IN_FLIGHT, "Requests being served now.");
    describe_gauge!(
        GRAPHQL_WAITING,
        "GraphQL requests admitted and waiting their turn to run."
    );
    describe_counter!(GRAPHQL_OPERATIONS, "GraphQL operations by operation name and type.");
    describe_counter!(GRAPHQL_ERRORS, "GraphQL errors by operation name, type and error code.");
    describe_counter!(JOB_RUNS, "Job runs by job and outcome.");
    describe_histogram!(JOB_DURATION, Unit::Seconds, "How long job runs took, by job.");
    describe_counter!(INGESTION_REPORTS, "Bank reports ingested or rejected.");
    describe_counter!(INGESTION_ROWS, "Rows of bank reports read, by outcome of their report.");
    describe_counter!(
        INGESTION_BYTES,
        Unit::Bytes,
        "Bytes of bank reports read, by outcome of their report."
    );
    describe_gauge!(FLAGS_OPEN, "Compliance flags open now, by rule code and severity.");
    describe_gauge!(
        DB_POOL_CONNECTIONS,
        "Database connections of this process's pool, by state."
    );
    describe_gauge!(DB_POOL_MAX, "The most connections this process's pool opens.");
}

/// One HTTP request served.
pub fn http_request(method: &axum::http::Method, route: &str, status: u16, elapsed: Duration) {
    let method = match *method {
        axum::http::Method::GET => "GET",
        axum::http::Method::POST => "POST",
        axum::http::Method::HEAD => "HEAD",
        axum::http::Method::OPTIONS => "OPTIONS",
        _ => "_OTHER",
    };
    histogram!(HTTP_DURATION, "method" => method, "route" => route.to_owned(), "status" => status.to_string())
        .record(elapsed.as_secs_f64());
}

/// A request refused at the door.
pub fn refused(reason: &'static str) {
    counter!(HTTP_REFUSALS, "reason" => reason).increment(1);
}

/// A gauge moved up for as long as the guard lives.
#[derive(Debug)]
pub struct Gauged(&'static str);

impl Gauged {
    /// `name` one up until dropped.
    pub fn up(name: &'static str) -> Self {
        gauge!(name).increment(1.0);
        Self(name)
    }
}

impl Drop for Gauged {
    fn drop(&mut self) {
        gauge!(self.0).decrement(1.0);
    }
}

/// The label of an operation name: the name, `anonymous` without one, `other` past [`MAX_OPERATION_NAMES`] distinct
/// names or for a name longer than 64 characters.
fn operation_label(name: Option<&str>) -> String {
    static SEEN: OnceLock<RwLock<HashSet<String>>> = OnceLock::new();
    let Some(name) = name.filter(|n| !n.is_empty()) else {
        return "anonymous".into();
    };
    if name.len() > 64 {
        return "other".into();
    }
    let seen = SEEN.get_or_init(Default::default);
    if seen.read().is_ok_and(|s| s.contains(name)) {
        return name.to_owned();
    }
    match seen.write() {
        Ok(mut s) if s.len() < MAX_OPERATION_NAMES => {
            s.insert(name.to_owned());
            name.to_owned()
        }
        _ => "other".into(),
    }
}

/// One GraphQL operation answered: its name, its type (`query`, `mutation`, `subscription`, or `unknown` when it
/// did not parse) and the codes of its errors (each code counted once per operation).
pub fn graphql_operation<'a>(name: Option<&str>, ty: &'static str, codes: impl Iterator<Item = &'a str>) {
    let name = operation_label(name);
    counter!(GRAPHQL_OPERATIONS, "operation_name" => name.clone(), "operation_type" => ty).increment(1);
    let mut seen: Vec<&str> = Vec::new();
    for code in codes {
        if !seen.contains(&code) {
            seen.push(code);
            counter!(GRAPHQL_ERRORS, "operation_name" => name.clone(), "operation_type" => ty, "code" => code.to_owned())
                .increment(1);
        }
    }
}

/// One job run that ended, `ok` or not, after `elapsed`.
pub fn job_run(job: &'static str, ok: bool, elapsed: Duration) {
    let outcome = if ok { "succeeded" } else { "failed" };
    counter!(JOB_RUNS, "job" => job, "outcome" => outcome).increment(1);
    histogram!(JOB_DURATION, "job" => job).record(elapsed.as_secs_f64());
}

/// The exposition, with the gauges read at scrape time (open flags, the pool) brought up to date first.
pub async fn render(db: &sea_orm::DatabaseConnection) -> String {
    let Some(handle) = install() else {
        return String::new();
    };
    // One scrape at a time: the gauges set here are the ones rendered (a process serving two databases, as the tests
    // do, would otherwise mix them).
    static SCRAPE: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    let _one = SCRAPE.lock().await;
    pool(db);
    match service::flags::open_counts(db).await {
        Ok(counts) => flags_open(counts),
        Err(e) => tracing::warn!(error = %e, "open flags not counted for the metrics"),
    }
    handle.render()
}

/// Sets the open-flag gauges; a rule and severity counted before and absent now goes to zero.
fn flags_open(counts: Vec<(String, String, i64)>) {
    static KNOWN: Mutex<Vec<(String, String)>> = Mutex::new(Vec::new());
    let Ok(mut known) = KNOWN.lock() else {
        return;
    };
    for (rule, severity) in known.iter() {
        if !counts.iter().any(|(r, s, _)| r == rule && s == severity) {
            gauge!(FLAGS_OPEN, "rule" => rule.clone(), "severity" => severity.clone()).set(0.0);
        }
    }
    known.clear();
    for (rule, severity, n) in counts {
        gauge!(FLAGS_OPEN, "rule" => rule.clone(), "severity" => severity.clone()).set(n as f64);
        known.push((rule, severity));
    }
}

fn pool(db: &sea_orm::DatabaseConnection) {
    use sea_orm::DbBackend;
    let (size, idle, max) = match db.get_database_backend() {
        DbBackend::Postgres => {
            let p = db.get_postgres_connection_pool();
            (p.size(), p.num_idle(), p.options().get_max_connections())
        }
        DbBackend::Sqlite => {
            let p = db.get_sqlite_connection_pool();
            (p.size(), p.num_idle(), p.options().get_max_connections())
        }
        _ => return,
    };
    let idle = u32::try_from(idle).unwrap_or(u32::MAX).min(size);
    gauge!(DB_POOL_CONNECTIONS, "state" => "in_use").set(f64::from(size - idle));
    gauge!(DB_POOL_CONNECTIONS, "state" => "idle").set(f64::from(idle));
    gauge!(DB_POOL_MAX).set(f64::from(max));
}
