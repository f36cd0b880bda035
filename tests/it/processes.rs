//! The `fomento` command as separate processes (`fomento-under-test`, the same entry point as `fomento`): the
//! configuration file beneath the environment and the flags, a server that leaves the jobs to the worker, and two
//! servers and a worker on one PostgreSQL database with one file store shared by path.

use crate::{
    helpers::{Backend, TestApp, client_with, fresh_database, postgres_url},
    reports::{cpf, good_row, seed_bb, upload, workbook},
};
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::Value;
use std::{
    path::PathBuf,
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

/// The command under test.
pub fn fomento() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fomento-under-test"));
    // Nothing of the caller's environment decides what the test's processes do.
    for (k, _) in std::env::vars() {
        if k.starts_with("FOMENTO_") || k == "DATABASE_URL" || k.starts_with("OTEL_") {
            c.env_remove(k);
        }
    }
    c.env("FOMENTO_LOG_FORMAT", "json");
    c
}

/// A port free now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("fomento-{name}-{}", uuid::Uuid::new_v4().simple()))
}

/// A child process killed when the test ends, its log lines in a file (printed when the test fails).
pub struct Process {
    name: &'static str,
    child: Child,
    log: PathBuf,
}

impl Process {
    pub fn start(name: &'static str, mut command: Command) -> Self {
        let log = scratch(&format!("{name}-log"));
        let file = std::fs::File::create(&log).expect("a log file");
        let child = command
            .stdout(Stdio::null())
            .stderr(file)
            .spawn()
            .expect("the process starts");
        Self { name, child, log }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if std::thread::panicking() {
            eprintln!("--- {} ---\n{}", self.name, self.log());
        }
        let _ = std::fs::remove_file(&self.log);
    }
}

/// Waits until `url` answers 200, at most 90 s (a debug build migrating a fresh database).
pub async fn answers(url: &str, process: &mut Process) {
    let started = Instant::now();
    loop {
        if let Ok(r) = reqwest::get(url).await
            && r.status() == 200
        {
            return;
        }
        if let Ok(Some(status)) = process.child.try_wait() {
            panic!(
                "{} ended ({status}) before {url} answered:\n{}",
                process.name,
                process.log()
            );
        }
        assert!(started.elapsed() < Duration::from_secs(90), "{url} never answered");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn the_command_reads_its_configuration_file_beneath_the_environment_and_a_server_may_leave_the_jobs() {
    let dir = scratch("config");
    std::fs::create_dir_all(&dir).expect("a directory");
    let db = dir.join("fomento.db");
    let (from_file, from_env) = (free_port(), free_port());
    let config = dir.join("fomento.toml");
    std::fs::write(
        &config,
        format!(
            "# a server's settings\n\
             database-url = \"sqlite://{}\"\n\
             listen = \"127.0.0.1:{from_file}\"\n\
             file-store = \"{}\"\n\
             no-jobs = true\n\
             schedule = [\"flag-deadlines=* * * * * *\", \"expire-approvals=* * * * * *\"]\n\
             rate-limit = 0\n",
            db.display(),
            dir.join("store").display()
        ),
    )
    .expect("the file");
    // The variable wins over the file's `listen`; the rest is the file's.
    let mut command = fomento();
    command
        .args(["--config", &config.display().to_string(), "serve"])
        .env("FOMENTO_LISTEN", format!("127.0.0.1:{from_env}"));
    let mut server = Process::start("server", command);
    answers(&format!("http://127.0.0.1:{from_env}/health"), &mut server).await;
    assert!(
        reqwest::get(format!("http://127.0.0.1:{from_file}/health"))
            .await
            .is_err(),
        "nothing listens on the file's address"
    );
    assert!(db.exists(), "the file's database");
    // Jobs due every second, and none run here: the server left them to a worker.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let (conn, _) = fomento_api::startup::connect(&format!("sqlite://{}", db.display()))
        .await
        .expect("the database");
    let runs = entity::job_run::Entity::find().count(&conn).await.expect("job runs");
    assert_eq!(runs, 0, "{}", server.log());
    assert!(
        server.log().contains("--no-jobs"),
        "the start says so: {}",
        server.log()
    );
    drop(server);

    // A file with a wrong value: the start stops, naming the key, in Portuguese first.
    std::fs::write(&config, "listen = \"127.0.0.1:1\"\nrate-limit = \"muitos\"\n").expect("the file");
    let out = fomento()
        .args(["--config", &config.display().to_string(), "serve"])
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let mut lines = stderr.lines();
    let (pt, en) = (lines.next().unwrap_or(""), lines.next().unwrap_or(""));
    assert!(
        pt.starts_with("erro: o arquivo de configuração") && pt.contains("«rate-limit»") && pt.contains("muitos"),
        "{stderr}"
    );
    assert!(
        en.starts_with("error: the configuration file") && en.contains("«rate-limit»"),
        "{stderr}"
    );
    // The variable names the file too.
    std::fs::write(&config, "rate-limt = 5\n").expect("the file");
    let out = fomento()
        .arg("schema")
        .env("FOMENTO_CONFIG", &config)
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("«rate-limt»") && stderr.contains("não é uma configuração"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The `job_run` rows of each job (every slot), and the runs the processes say they made (their metrics, summed).
async fn runs_by_job(db: &sea_orm::DatabaseConnection, metrics: &[u16]) -> (Vec<(String, u64)>, Vec<(String, f64)>) {
    let mut rows = Vec::new();
    let mut counted = Vec::new();
    let mut scrapes = Vec::new();
    for port in metrics {
        let text = reqwest::get(format!("http://127.0.0.1:{port}/metrics"))
            .await
            .expect("the metrics")
            .text()
            .await
            .expect("text");
        scrapes.push(prometheus_parse::Scrape::parse(text.lines().map(|l| Ok(l.to_owned()))).expect("parsed"));
    }
    for job in jobs::registry::JOBS {
        let n = entity::job_run::Entity::find()
            .filter(entity::job_run::Column::Job.eq(job.name))
            .count(db)
            .await
            .expect("count");
        rows.push((job.name.to_owned(), n));
        let total: f64 = scrapes
            .iter()
            .flat_map(|s| s.samples.iter())
            .filter(|s| s.metric == "fomento_job_runs_total" && s.labels.get("job") == Some(job.name))
            .map(|s| match s.value {
                prometheus_parse::Value::Counter(v) | prometheus_parse::Value::Untyped(v) => v,
                _ => 0.0,
            })
            .sum();
        counted.push((job.name.to_owned(), total));
    }
    (rows, counted)
}

/// Two `fomento serve` and a `fomento worker`, separate processes on one PostgreSQL database and one file store
/// shared by path, every job due every second in all three: an upload to the first server is ingested once (by
/// whichever process claims it), a `flagRaised` subscriber on the second server hears the flag the ingestion raised,
/// and each job runs once per slot across the three (the runs the processes count are the slots recorded).
#[tokio::test]
#[cfg_attr(
    not(postgres_tests),
    ignore = "needs PostgreSQL: set FOMENTO_TEST_POSTGRES_URL (the test build reads it)"
)]
async fn two_servers_and_a_worker_on_one_postgresql_ingest_once_share_the_flags_and_run_each_job_once_per_slot() {
    use futures::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    assert!(
        postgres_url().is_some(),
        "built for PostgreSQL, but FOMENTO_TEST_POSTGRES_URL is not set now"
    );
    let (url, cleanup) = fresh_database(Backend::Postgres).await.expect("a PostgreSQL database");
    let (db, _) = fomento_api::startup::connect(&url).await.expect("the database");
    fomento_api::startup::migrate_up(&db).await.expect("migrated");
    let store = scratch("shared-store");
    let every_second: Vec<String> = jobs::registry::JOBS
        .iter()
        .flat_map(|j| ["--schedule".to_owned(), format!("{}=* * * * * *", j.name)])
        .collect();
    let (a, b) = (free_port(), free_port());
    let metrics = [free_port(), free_port(), free_port()];
    let process = |name: &'static str, args: Vec<String>, metrics: u16| {
        let mut c = fomento();
        c.args(args)
            .args([
                "--database-url",
                &url,
                "--file-store",
                &store.display().to_string(),
                "--rate-limit",
                "0",
            ])
            .args(["--metrics-listen", &format!("127.0.0.1:{metrics}")])
            .args(&every_second);
        Process::start(name, c)
    };
    let mut servers = [
        process(
            "serve-a",
            vec!["serve".into(), "--listen".into(), format!("127.0.0.1:{a}")],
            metrics[0],
        ),
        process(
            "serve-b",
            vec!["serve".into(), "--listen".into(), format!("127.0.0.1:{b}")],
            metrics[1],
        ),
        process("worker", vec!["worker".into()], metrics[2]),
    ];
    for (i, port) in [a, b].iter().enumerate() {
        answers(&format!("http://127.0.0.1:{port}/ready"), &mut servers[i]).await;
    }
    answers(&format!("http://127.0.0.1:{}/metrics", metrics[2]), &mut servers[2]).await;

    let key = service::keys::create(
        &db,
        &service::Caller::System,
        "admin",
        None,
        "processes",
        None,
        chrono::Utc::now(),
    )
    .await
    .expect("a key")
    .secret;
    let runtime = fomento_api::startup::jobs_runtime(
        db.clone(),
        &store.display().to_string(),
        chrono::Duration::minutes(5),
        3,
        service::store::DEFAULT_MAX_UPLOAD_BYTES,
    )
    .expect("the store");
    let app_a = TestApp {
        base: format!("http://127.0.0.1:{a}"),
        client: client_with(&key),
        statements: Default::default(),
        db: db.clone(),
        backend: Backend::Postgres,
        runtime,
        url: url.clone(),
        key: key.clone(),
        metrics_port: Some(metrics[0]),
    };
    seed_bb(&app_a).await;

    // The subscriber, on the second server.
    let mut ws = crate::sockets::subscribed(
        &format!("http://127.0.0.1:{b}"),
        &key,
        "subscription { flagRaised(filter: { ruleCodes: [\"FCO-CHAMBER-THRESHOLD\"] }) { ruleCode } }",
    )
    .await;
    tokio::time::sleep(Duration::from_secs(1)).await;

    // The upload, to the first server: a carta of R$ 1.5 M that never went to the chamber is flagged.
    let rows = vec![
        good_row("PROC-1", cpf(5901), 1_500_000.0),
        good_row("PROC-2", cpf(5902), 2000.0),
    ];
    let (status, body) = upload(&app_a, "BB", "2019-05", "maio.xlsx", workbook(&rows)).await;
    assert_eq!(status, 201, "{body}");
    let number = body["number"].as_i64().expect("the report's number");

    let event: Value = loop {
        let m = tokio::time::timeout(Duration::from_secs(60), ws.next())
            .await
            .expect("a flag within 60 s on the other server")
            .expect("open")
            .expect("a frame");
        if let Message::Text(t) = m {
            break serde_json::from_str(&t).expect("json");
        }
    };
    assert_eq!(
        event["payload"]["data"]["flagRaised"]["ruleCode"], "FCO-CHAMBER-THRESHOLD",
        "{event}"
    );
    let _ = ws.close(None).await;

    let started = Instant::now();
    let report = loop {
        let r = entity::bank_report::Entity::find_by_id(number)
            .one(&db)
            .await
            .expect("read")
            .expect("the report");
        if r.status == "INGESTED" {
            break r;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "not ingested: {r:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(report.attempts, 1, "one attempt: {report:?}");
    assert_eq!(entity::fco_carta::Entity::find().count(&db).await.expect("cartas"), 2);
    assert_eq!(
        entity::compliance_flag::Entity::find()
            .filter(entity::compliance_flag::Column::RuleCode.eq("FCO-CHAMBER-THRESHOLD"))
            .count(&db)
            .await
            .expect("flags"),
        1
    );
    // The run that ingested it records what it did when it ends, just after the report's commit.
    let ingesting = || async {
        entity::job_run::Entity::find()
            .filter(entity::job_run::Column::Job.eq(jobs::report::ingest::JOB))
            .filter(entity::job_run::Column::Processed.gt(0))
            .all(&db)
            .await
            .expect("runs")
    };
    let started = Instant::now();
    while ingesting().await.is_empty() && started.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let runs = ingesting().await;
    assert_eq!(runs.len(), 1, "one run ingested it: {runs:?}");

    // Each job once per slot: the runs the three processes counted are the slots recorded (a run counts only when
    // its process took the slot). A run between the reads is caught by reading again.
    let started = Instant::now();
    loop {
        let (rows, counted) = runs_by_job(&db, &metrics).await;
        let (again, _) = runs_by_job(&db, &[]).await;
        for ((job, n), (_, c)) in rows.iter().zip(&counted) {
            assert!(*c <= *n as f64, "{job}: {c} runs counted for {n} slots");
        }
        let settled = rows == again && rows.iter().zip(&counted).all(|((_, n), (_, c))| *n as f64 == *c);
        if settled && rows.iter().all(|(_, n)| *n >= 1) {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "slots {rows:?}, runs counted {counted:?}"
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    drop(servers);
    let _ = std::fs::remove_dir_all(&store);
    let _ = db.close().await;
    cleanup.run().await;
}

/// On SQLite, `fomento jobs run` that changes flags says that a running server's subscribers do not hear of them
/// (only PostgreSQL announces a change to every process); on PostgreSQL it says nothing of the kind.
#[tokio::test]
async fn a_job_run_from_the_command_line_on_sqlite_says_subscribers_do_not_hear_of_its_flags() {
    crate::helpers::on_each_backend(true, |app| async move {
        let store = scratch("store");
        let out = fomento()
            .args(["jobs", "run", "flag-deadlines", "--as-of", "2031-01-02"])
            .env("DATABASE_URL", &app.url)
            .env("FOMENTO_FILE_STORE", &store)
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        // In Portuguese, the command line's default (FOMENTO_LANG=en for English).
        let noted = stderr.contains("não são avisados das mudanças feitas por outro processo");
        assert_eq!(noted, app.backend == Backend::Sqlite, "{:?}: {stderr}", app.backend);
        let _ = std::fs::remove_dir_all(store);
    })
    .await;
}
