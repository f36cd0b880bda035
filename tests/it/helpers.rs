//! The test harness: each test starts the real application on port 0 with its own fresh database (a SQLite file,
//! and a new PostgreSQL database when `FOMENTO_TEST_POSTGRES_URL` is set) and speaks HTTP to it.

use fomento_api::startup::{Application, Settings, StatementCounter};
use futures::FutureExt;
use reqwest::{Client, Response};
use sea_orm::{ConnectionTrait, Database, DatabaseConnection};
use serde_json::{Value, json};
use std::{future::Future, panic::AssertUnwindSafe, path::PathBuf};
use tokio::{sync::oneshot, task::JoinHandle};

/// The database behind a test application.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// A fresh SQLite file.
    Sqlite,
    /// A fresh PostgreSQL database.
    Postgres,
}

/// A running application.
pub struct TestApp {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// An HTTP client.
    pub client: Client,
    /// Statements run by the application's connection.
    pub statements: StatementCounter,
    /// The application's database connection.
    pub db: DatabaseConnection,
    /// Which backend.
    pub backend: Backend,
    /// The ingestion runtime of the application (its job step is run by hand in tests).
    pub runtime: fomento_api::runtime::JobsRuntime,
    /// The database URL (for a second connection, as another process would open).
    pub url: String,
    /// An `admin` key, which `client` sends with every request.
    pub key: String,
    /// The port of the listener serving only `/metrics`, when the test asked for one (`Settings::metrics_listen`).
    pub metrics_port: Option<u16>,
}

/// The server task of a test application.
pub struct Running {
    stop: oneshot::Sender<()>,
    server: JoinHandle<std::io::Result<()>>,
    /// The directory of the application's file store.
    pub store: PathBuf,
    db: DatabaseConnection,
}

impl Running {
    pub async fn stop(self) {
        let _ = self.stop.send(());
        let _ = self.server.await;
        let _ = self.db.close().await;
        let _ = std::fs::remove_dir_all(&self.store);
    }
}

impl TestApp {
    /// POSTs a GraphQL query with JSON and returns the status and the body.
    pub async fn gql(&self, query: &str, variables: Value) -> (u16, Value) {
        self.gql_in(None, query, variables).await
    }

    /// POSTs a query with `Accept-Language: lang` (none: the server's default, Portuguese).
    pub async fn gql_in(&self, lang: Option<&str>, query: &str, variables: Value) -> (u16, Value) {
        let mut req = self
            .client
            .post(format!("{}/graphql", self.base))
            .header("accept", "application/graphql-response+json");
        if let Some(l) = lang {
            req = req.header("accept-language", l);
        }
        let resp = req
            .json(&json!({ "query": query, "variables": variables }))
            .send()
            .await
            .expect("the server answers");
        let status = resp.status().as_u16();
        (status, resp.json().await.expect("a JSON body"))
    }

    /// POSTs a query that must succeed with `Accept-Language: en`, and returns its `data` (its texts in English).
    pub async fn data_en(&self, query: &str, variables: Value) -> Value {
        let (status, body) = self.gql_in(Some("en"), query, variables).await;
        assert_eq!(status, 200, "{body}");
        assert!(
            body.get("errors").is_none(),
            "unexpected errors on {:?}: {body}",
            self.backend
        );
        body["data"].clone()
    }

    /// POSTs a query that must succeed, and returns its `data`.
    pub async fn data(&self, query: &str, variables: Value) -> Value {
        let (status, body) = self.gql(query, variables).await;
        assert_eq!(status, 200, "{body}");
        assert!(
            body.get("errors").is_none(),
            "unexpected errors on {:?}: {body}",
            self.backend
        );
        body["data"].clone()
    }

    /// POSTs a query that must fail, asking for messages in English as an English-speaking front-end does, and
    /// returns its first error's message and code.
    pub async fn error(&self, query: &str, variables: Value) -> (String, String) {
        self.error_in(Some("en"), query, variables).await
    }

    /// As [`Self::error`], with messages in `lang` (none: the server's default, Portuguese).
    pub async fn error_in(&self, lang: Option<&str>, query: &str, variables: Value) -> (String, String) {
        let (_, body) = self.gql_in(lang, query, variables).await;
        let e = &body["errors"][0];
        assert!(e.is_object(), "expected an error, got {body}");
        (
            e["message"].as_str().unwrap_or("").to_owned(),
            e["extensions"]["code"].as_str().unwrap_or("").to_owned(),
        )
    }

    /// A raw request builder against the server.
    pub fn get(&self, path: &str) -> reqwest::RequestBuilder {
        self.client.get(format!("{}{path}", self.base))
    }

    /// A raw POST builder against the server.
    pub fn post(&self, path: &str) -> reqwest::RequestBuilder {
        self.client.post(format!("{}{path}", self.base))
    }
}

/// The content type of a response, without parameters.
pub fn content_type(resp: &Response) -> String {
    resp.headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_owned()
}

pub async fn start(url: String, backend: Backend, demo: bool, tweak: fn(&mut Settings)) -> (TestApp, Running) {
    let listen = "127.0.0.1:0".parse().expect("address");
    let mut settings = Settings::new(url.clone(), listen);
    settings.demo = demo;
    // Tests send bursts (concurrent uploads, pages fetched in parallel): no default rate; a test of the limit gives
    // its key a rate of its own.
    settings.rate_limit = 0;
    tweak(&mut settings);
    let store = std::env::temp_dir().join(format!("fomento-test-store-{}", uuid::Uuid::new_v4()));
    settings.file_store = store.display().to_string();
    let app = Application::build(settings).await.expect("the application starts");
    let base = format!("http://127.0.0.1:{}", app.port());
    let statements = app.statements();
    let metrics_port = app.metrics_port();
    let db = app.db();
    let runtime = app.runtime().expect("ingestion configured");
    let (tx, rx) = oneshot::channel::<()>();
    let server = tokio::spawn(app.run_with_shutdown(async move {
        let _ = rx.await;
    }));
    let running = Running {
        stop: tx,
        server,
        store,
        db: db.clone(),
    };
    let key = service::keys::create(
        &db,
        &service::Caller::System,
        "admin",
        None,
        "tests",
        None,
        chrono::Utc::now(),
    )
    .await
    .expect("an admin key")
    .secret;
    (
        TestApp {
            base,
            client: client_with(&key),
            key,
            statements,
            db,
            backend,
            runtime,
            url,
            metrics_port,
        },
        running,
    )
}

/// Tests whose assertions include answer times (within a second, during an outage) take it for writing and run alone;
/// every test that runs through the harness below holds it for reading, so none shares this machine's two cores with
/// them. The killed-worker test, which runs a CPU-heavy process beside its server, takes it for writing too.
pub static TIMED: tokio::sync::RwLock<()> = tokio::sync::RwLock::const_new(());

/// An HTTP client that sends `key` with every request.
pub fn client_with(key: &str) -> Client {
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert(
        reqwest::header::AUTHORIZATION,
        reqwest::header::HeaderValue::from_str(&format!("Bearer {key}")).expect("a header value"),
    );
    Client::builder().default_headers(headers).build().expect("a client")
}

impl TestApp {
    /// POSTs a query with `key`, and returns the whole answer (`data` and `errors`).
    pub async fn gql_as(&self, key: &str, query: &str, variables: Value) -> Value {
        client_with(key)
            .post(format!("{}/graphql", self.base))
            .json(&json!({ "query": query, "variables": variables }))
            .send()
            .await
            .expect("answer")
            .json()
            .await
            .expect("JSON")
    }

    /// A new key of `role` (a `bank` key for the bank of `bank`).
    pub async fn key_of(&self, role: &str, bank: Option<&str>) -> String {
        service::keys::create(
            &self.db,
            &service::Caller::System,
            role,
            bank,
            role,
            None,
            chrono::Utc::now(),
        )
        .await
        .expect("a key")
        .secret
    }
}

fn sqlite_path() -> PathBuf {
    std::env::temp_dir().join(format!("fomento-test-{}.db", uuid::Uuid::new_v4()))
}

/// Replaces the database name of a PostgreSQL URL.
fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let base = match base.rfind('/') {
        Some(i) if base[..i].contains("//") && i > base.find("//").unwrap_or(0) + 1 => &base[..i],
        _ => base,
    };
    match query {
        Some(q) => format!("{base}/{name}?{q}"),
        None => format!("{base}/{name}"),
    }
}

/// The PostgreSQL URL for tests, or `None` (said loudly) when it is not configured.
pub fn postgres_url() -> Option<String> {
    match std::env::var("FOMENTO_TEST_POSTGRES_URL") {
        Ok(url) if !url.trim().is_empty() => Some(url),
        _ => {
            eprintln!(
                "\n*** PostgreSQL NOT TESTED: FOMENTO_TEST_POSTGRES_URL is not set; this test ran on SQLite only. ***\n"
            );
            None
        }
    }
}

/// A fresh, empty, not yet migrated database on `backend`; returns its URL and a clean-up handle.
pub async fn fresh_database(backend: Backend) -> Option<(String, Cleanup)> {
    match backend {
        Backend::Sqlite => {
            let path = sqlite_path();
            Some((format!("sqlite://{}?mode=rwc", path.display()), Cleanup::File(path)))
        }
        Backend::Postgres => {
            let admin_url = postgres_url()?;
            let name = format!("fomento_test_{}", uuid::Uuid::new_v4().simple());
            let admin = Database::connect(admin_url.as_str())
                .await
                .unwrap_or_else(|e| panic!("FOMENTO_TEST_POSTGRES_URL is set but PostgreSQL is unreachable: {e}"));
            admin
                .execute_unprepared(&format!("CREATE DATABASE \"{name}\""))
                .await
                .expect("create the test database");
            let _ = admin.close().await;
            Some((with_database(&admin_url, &name), Cleanup::Postgres { admin_url, name }))
        }
    }
}

/// What to remove after a test.
pub enum Cleanup {
    /// A SQLite file (and its WAL files).
    File(PathBuf),
    /// A PostgreSQL database.
    Postgres {
        /// Where to connect to drop it.
        admin_url: String,
        /// Its name.
        name: String,
    },
}

impl Cleanup {
    /// Removes the database.
    pub async fn run(self) {
        match self {
            Cleanup::File(path) => {
                for suffix in ["", "-wal", "-shm"] {
                    let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
                }
            }
            Cleanup::Postgres { admin_url, name } => {
                if let Ok(admin) = Database::connect(admin_url.as_str()).await {
                    let _ = admin
                        .execute_unprepared(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
                        .await;
                    let _ = admin.close().await;
                }
            }
        }
    }
}

/// Runs `test` against a fresh application on SQLite, then on PostgreSQL when configured. The database is removed
/// afterwards even when the test fails.
pub async fn on_each_backend<F, Fut>(demo: bool, test: F)
where
    F: Fn(TestApp) -> Fut,
    Fut: Future<Output = ()>,
{
    on_each_backend_with(demo, |_| {}, test).await;
}

/// [`on_each_backend`] with settings changed by `tweak` (a smaller upload limit, ...).
pub async fn on_each_backend_with<F, Fut>(demo: bool, tweak: fn(&mut Settings), test: F)
where
    F: Fn(TestApp) -> Fut,
    Fut: Future<Output = ()>,
{
    let _shared = TIMED.read().await;
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let Some((url, cleanup)) = fresh_database(backend).await else {
            continue;
        };
        let (app, running) = start(url, backend, demo, tweak).await;
        let outcome = AssertUnwindSafe(test(app)).catch_unwind().await;
        running.stop().await;
        cleanup.run().await;
        if let Err(panic) = outcome {
            eprintln!("the test failed on {backend:?}");
            std::panic::resume_unwind(panic);
        }
    }
}

/// [`on_each_backend_with`], then `after` on a new connection to the test's database once its server has stopped
/// (for what a server writes as it stops).
pub async fn on_each_backend_then_stopped<F, Fut, A, AFut>(demo: bool, tweak: fn(&mut Settings), test: F, after: A)
where
    F: Fn(TestApp) -> Fut,
    Fut: Future<Output = ()>,
    A: Fn(DatabaseConnection) -> AFut,
    AFut: Future<Output = ()>,
{
    let _shared = TIMED.read().await;
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let Some((url, cleanup)) = fresh_database(backend).await else {
            continue;
        };
        let (app, running) = start(url.clone(), backend, demo, tweak).await;
        let mut outcome = AssertUnwindSafe(test(app)).catch_unwind().await;
        running.stop().await;
        if outcome.is_ok() {
            let (db, _) = fomento_api::startup::connect(&url).await.expect("connect");
            outcome = AssertUnwindSafe(after(db.clone())).catch_unwind().await;
            let _ = db.close().await;
        }
        cleanup.run().await;
        if let Err(panic) = outcome {
            eprintln!("the test failed on {backend:?}");
            std::panic::resume_unwind(panic);
        }
    }
}

/// Runs `test` with a fresh migrated database connection on each backend (for tests below the HTTP layer).
pub async fn with_each_database<F, Fut>(test: F)
where
    F: Fn(DatabaseConnection, Backend) -> Fut,
    Fut: Future<Output = ()>,
{
    let _shared = TIMED.read().await;
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let Some((url, cleanup)) = fresh_database(backend).await else {
            continue;
        };
        let (db, _) = fomento_api::startup::connect(&url).await.expect("connect");
        let outcome = AssertUnwindSafe(test(db.clone(), backend)).catch_unwind().await;
        let _ = db.close().await;
        cleanup.run().await;
        if let Err(panic) = outcome {
            eprintln!("the test failed on {backend:?}");
            std::panic::resume_unwind(panic);
        }
    }
}

#[test]
fn postgres_urls_get_a_new_database_name() {
    assert_eq!(
        with_database("postgres://postgres@127.0.0.1:5432/test", "x"),
        "postgres://postgres@127.0.0.1:5432/x"
    );
    assert_eq!(
        with_database("postgres://u:p@h/test?sslmode=disable", "x"),
        "postgres://u:p@h/x?sslmode=disable"
    );
    assert_eq!(with_database("postgres://h:5432", "x"), "postgres://h:5432/x");
}
