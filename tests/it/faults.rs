//! Faults (issue 15, item 6), on a private PostgreSQL cluster this test starts itself (`initdb` as the `postgres`
//! user, its own port and socket directory), never the shared server the other tests use: PostgreSQL stopped under
//! load, then started again.

use crate::helpers::{Backend, start};
use serde_json::{Value, json};
use std::{
    path::PathBuf,
    process::Command,
    time::{Duration, Instant},
};

/// A PostgreSQL cluster of this test's own, stopped and removed when dropped.
struct Cluster {
    dir: PathBuf,
    bin: PathBuf,
    port: u16,
}

impl Cluster {
    /// Whether this machine can start one: PostgreSQL's binaries, and root to run them as `postgres`.
    fn binaries() -> Result<PathBuf, String> {
        let root = std::fs::read_dir("/usr/lib/postgresql").map_err(|e| format!("no /usr/lib/postgresql: {e}"))?;
        let mut bins: Vec<PathBuf> = root
            .filter_map(Result::ok)
            .map(|d| d.path().join("bin"))
            .filter(|b| b.join("initdb").exists())
            .collect();
        bins.sort();
        bins.pop()
            .ok_or_else(|| "no initdb under /usr/lib/postgresql".to_owned())
    }

    fn as_postgres(&self, program: &str, args: &[&str]) -> std::process::Output {
        Command::new("runuser")
            .args(["-u", "postgres", "--"])
            .arg(self.bin.join(program))
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("cannot run {program}: {e}"))
    }

    fn init() -> Self {
        let bin = Self::binaries().unwrap_or_else(|e| panic!("{e}"));
        let dir = std::env::temp_dir().join(format!("fomento-fault-pg-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).expect("the cluster's directory");
        let chown = Command::new("chown")
            .arg("postgres:postgres")
            .arg(&dir)
            .status()
            .expect("chown");
        assert!(chown.success(), "chown of {}", dir.display());
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let cluster = Self { dir, bin, port };
        let dir = cluster.dir.display().to_string();
        let out = cluster.as_postgres("initdb", &["-D", &dir, "-A", "trust", "-U", "postgres", "--no-sync"]);
        assert!(out.status.success(), "initdb: {}", String::from_utf8_lossy(&out.stderr));
        cluster.start();
        cluster
    }

    fn start(&self) {
        let dir = self.dir.display().to_string();
        let options = format!(
            "-p {} -k {dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60",
            self.port
        );
        let log = format!("{dir}/log");
        let out = self.as_postgres("pg_ctl", &["-D", &dir, "-o", &options, "-l", &log, "-w", "start"]);
        assert!(
            out.status.success(),
            "pg_ctl start: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn stop(&self) {
        let dir = self.dir.display().to_string();
        let out = self.as_postgres("pg_ctl", &["-D", &dir, "-m", "fast", "-w", "stop"]);
        assert!(
            out.status.success(),
            "pg_ctl stop: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let dir = self.dir.display().to_string();
        let _ = self.as_postgres("pg_ctl", &["-D", &dir, "-m", "immediate", "-w", "stop"]);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Whether the fault tests can run here; when PostgreSQL is asked for and they cannot, that is a failure.
fn cluster_or_skip() -> Option<Cluster> {
    let asked = std::env::var("FOMENTO_TEST_POSTGRES_URL").is_ok();
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0"));
    match (Cluster::binaries(), root) {
        (Ok(_), true) => Some(Cluster::init()),
        (why, root) if asked => panic!(
            "FOMENTO_TEST_POSTGRES_URL is set but the fault tests cannot start their own cluster ({}; root: {root})",
            why.err().unwrap_or_default()
        ),
        _ => {
            eprintln!(
                "\n*** PostgreSQL FAULT TESTS NOT RUN: no PostgreSQL binaries or not root; nothing was tested. ***\n"
            );
            None
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_stopped_under_load_fails_fast_and_the_service_recovers_by_itself() {
    // It asks for answers within a second during an outage: it runs alone.
    let _alone = crate::helpers::TIMED.write().await;
    let Some(cluster) = cluster_or_skip() else {
        return;
    };
    let cluster = std::sync::Arc::new(cluster);
    let (app, running) = start(cluster.url(), Backend::Postgres, true, |_| {}).await;
    let query = json!({ "query": "{ fcoCartas(first: 5) { totalCount nodes { number } } }" });
    // Load: eight clients asking in a loop, each answer kept with when it was asked and how long it took.
    let stop_load = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut clients = Vec::new();
    for _ in 0..8 {
        let (client, url, query, stop) = (
            app.client.clone(),
            format!("{}/graphql", app.base),
            query.clone(),
            stop_load.clone(),
        );
        clients.push(tokio::spawn(async move {
            let mut seen: Vec<(Instant, Duration, u16, String)> = Vec::new();
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let asked = Instant::now();
                let r = client
                    .post(&url)
                    .json(&query)
                    .timeout(Duration::from_secs(10))
                    .send()
                    .await;
                let (status, code) = match r {
                    Ok(r) => {
                        let status = r.status().as_u16();
                        let body: Value = r.json().await.unwrap_or_default();
                        let code = body["errors"][0]["extensions"]["code"]
                            .as_str()
                            .unwrap_or("OK")
                            .to_owned();
                        (status, code)
                    }
                    Err(e) => (0, e.to_string()),
                };
                seen.push((asked, asked.elapsed(), status, code));
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            seen
        }));
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let stopped = Instant::now();
    let c = cluster.clone();
    tokio::task::spawn_blocking(move || c.stop())
        .await
        .expect("pg_ctl stop");
    let stop_took = stopped.elapsed();
    tokio::time::sleep(Duration::from_millis(1500)).await;

    // While it is down: `/ready` and the graph answer within a second, with a clear 503.
    let asked = Instant::now();
    let ready = app
        .get("/ready")
        .timeout(Duration::from_secs(5))
        .send()
        .await
        .expect("/ready answers");
    assert_eq!(ready.status().as_u16(), 503);
    assert!(
        asked.elapsed() < Duration::from_secs(1),
        "/ready took {:?}",
        asked.elapsed()
    );
    let asked = Instant::now();
    let r = app
        .post("/graphql")
        .header("accept-language", "en")
        .json(&query)
        .timeout(Duration::from_secs(5))
        .send()
        .await
        .expect("the graph answers");
    let took = asked.elapsed();
    assert_eq!(r.status().as_u16(), 503);
    assert_eq!(r.headers().get("retry-after").and_then(|v| v.to_str().ok()), Some("1"));
    let body: Value = r.json().await.expect("json");
    assert_eq!(
        body["errors"][0]["extensions"]["code"], "DATABASE_UNAVAILABLE",
        "{body}"
    );
    assert!(took < Duration::from_secs(1), "the graph took {took:?}");

    // Started again: the service recovers by itself.
    // The load goes on against the stopped server for another second and a half.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    // The down window ends when the restart begins (PostgreSQL may answer before `pg_ctl -w` returns).
    let restarting = Instant::now();
    let c = cluster.clone();
    tokio::task::spawn_blocking(move || c.start())
        .await
        .expect("pg_ctl start");
    let restarted = Instant::now();
    let mut ready_again = None;
    while restarted.elapsed() < Duration::from_secs(15) {
        let r = app.get("/ready").send().await.expect("/ready answers");
        if r.status().as_u16() == 200 {
            ready_again = Some(restarted.elapsed());
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let ready_again = ready_again.expect("ready again within 15 s of PostgreSQL's start");
    let d = app.data("{ fcoCartas(first: 5) { totalCount } }", json!({})).await;
    assert!(d["fcoCartas"]["totalCount"].as_i64().is_some_and(|n| n > 0), "{d}");
    tokio::time::sleep(Duration::from_millis(500)).await;
    stop_load.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut seen = Vec::new();
    for c in clients {
        seen.extend(c.await.expect("a client"));
    }
    // Every request asked from a second after the stop until the restart began.
    let down_from = stopped + stop_took + Duration::from_secs(1);
    let slow: Vec<_> = seen
        .iter()
        .filter(|(asked, ..)| *asked >= down_from && *asked < restarting)
        .filter(|(_, took, ..)| *took >= Duration::from_secs(1))
        .collect();
    let during = seen
        .iter()
        .filter(|(asked, ..)| *asked >= down_from && *asked < restarting)
        .count();
    assert!(
        during > 0,
        "the load ran while PostgreSQL was down: {:?}",
        seen.iter()
            .map(|(a, t, s, c)| (a.saturating_duration_since(stopped), *t, *s, c))
            .collect::<Vec<_>>()
    );
    assert!(slow.is_empty(), "requests slower than a second while down: {slow:?}");
    let not_503: Vec<_> = seen
        .iter()
        .filter(|(asked, _, status, _)| *asked >= down_from && *asked < restarting && *status != 503)
        .map(|(asked, took, status, code)| (asked.saturating_duration_since(stopped), *took, *status, code))
        .collect();
    assert!(not_503.is_empty(), "every request while down is a 503: {not_503:?}");
    // A request in flight when the database went away is told to try again (503 DATABASE_UNAVAILABLE), never that
    // Fomento failed (200 INTERNAL).
    let internal: Vec<_> = seen
        .iter()
        .filter(|(asked, _, _, code)| *asked >= stopped && code == "INTERNAL")
        .map(|(asked, took, status, code)| (asked.saturating_duration_since(stopped), *took, *status, code))
        .collect();
    assert!(
        internal.is_empty(),
        "requests the outage caught answered INTERNAL: {internal:?}"
    );
    let after = seen
        .iter()
        .filter(|(asked, ..)| *asked >= restarted + ready_again + Duration::from_millis(100))
        .collect::<Vec<_>>();
    assert!(
        after.iter().all(|(_, _, status, _)| *status == 200),
        "answers after recovery: {after:?}"
    );
    eprintln!(
        "fault test: pg_ctl stop took {stop_took:?}; {during} requests while down, none slower than 1 s; ready again {ready_again:?} after the restart"
    );
    running.stop().await;
}

/// The file store failing its writes: an upload is refused with a clear `503` saying nothing was recorded, and
/// nothing is; once the store works again, the same upload is received.
#[tokio::test]
async fn an_upload_the_file_store_cannot_keep_is_refused_and_nothing_is_recorded() {
    use crate::helpers::fresh_database;
    use crate::reports::{cpf, good_row, upload, workbook};
    use sea_orm::{EntityTrait, PaginatorTrait};
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let Some((url, cleanup)) = fresh_database(backend).await else {
            continue;
        };
        let (app, running) = start(url, backend, true, |_| {}).await;
        let before = entity::bank_report::Entity::find().count(&app.db).await.expect("count");
        // The store's directory replaced by a file: every write fails (as a full or unmounted disk would).
        std::fs::remove_dir_all(&running.store).expect("remove the store");
        std::fs::write(&running.store, b"not a directory").expect("a file in its place");
        let sheet = workbook(&[good_row("STORE-1", cpf(8101), 120_000.0)]);
        let form = reqwest::multipart::Form::new()
            .text("bank", "BB")
            .text("month", "2020-04")
            .part(
                "file",
                reqwest::multipart::Part::bytes(sheet.clone()).file_name("abril.xlsx"),
            );
        let r = app
            .post("/bank-reports")
            .header("accept-language", "en")
            .multipart(form)
            .send()
            .await
            .expect("answer");
        assert_eq!(r.status().as_u16(), 503, "{backend:?}");
        assert!(r.headers().contains_key("retry-after"));
        let body: Value = r.json().await.expect("json");
        assert_eq!(body["error"]["code"], "UNAVAILABLE", "{body}");
        assert!(
            body["error"]["message"]
                .as_str()
                .unwrap_or("")
                .contains("nothing was recorded"),
            "{body}"
        );
        let after = entity::bank_report::Entity::find().count(&app.db).await.expect("count");
        assert_eq!(after, before, "{backend:?}: nothing recorded as received");
        // The store back: the same upload is received.
        std::fs::remove_file(&running.store).expect("remove the file");
        std::fs::create_dir_all(&running.store).expect("the store again");
        let (status, body) = upload(&app, "BB", "2020-04", "abril.xlsx", sheet).await;
        assert_eq!(status, 201, "{backend:?}: {body}");
        running.stop().await;
        cleanup.run().await;
    }
}

/// The child side of the next test: a worker process that ingests whatever is queued, until it is killed.
#[tokio::test]
#[ignore = "run by a_worker_killed_during_an_ingestion_leaves_it_to_be_ingested_once as its child process"]
async fn child_worker_ingesting_until_killed() {
    let (Ok(url), Ok(store)) = (std::env::var("FOMENTO_CHILD_DB"), std::env::var("FOMENTO_CHILD_STORE")) else {
        return;
    };
    let (db, _) = fomento_api::startup::connect(&url).await.expect("the database");
    let runtime = fomento_api::startup::jobs_runtime(
        db,
        &store,
        chrono::Duration::seconds(2),
        3,
        service::store::DEFAULT_MAX_UPLOAD_BYTES,
    )
    .expect("the ingestion");
    let _ = jobs::report::ingest::run_once(&runtime.ctx, chrono::Utc::now()).await;
}

/// A worker process killed with SIGKILL in the middle of an ingestion: another worker takes the report over after
/// the lease, and it ends `INGESTED` once, every row recorded once.
#[tokio::test]
async fn a_worker_killed_during_an_ingestion_leaves_it_to_be_ingested_once() {
    // A worker process ingesting a large sheet takes both cores: the outage test's one-second answers wait for it.
    let _alone = crate::helpers::TIMED.write().await;
    use crate::helpers::fresh_database;
    use crate::reports::{cpf, good_row, upload, workbook};
    use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
    const ROWS: u32 = 30_000;
    let rows: Vec<_> = (0..ROWS)
        .map(|i| good_row(&format!("KILL-{i:05}"), cpf(20_000 + i), 100_000.0 + f64::from(i)))
        .collect();
    let sheet = workbook(&rows);
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let Some((url, cleanup)) = fresh_database(backend).await else {
            continue;
        };
        let (app, running) = start(url.clone(), backend, true, |_| {}).await;
        let (status, body) = upload(&app, "BB", "2020-05", "maio.xlsx", sheet.clone()).await;
        assert_eq!(status, 201, "{body}");
        let id = body["number"].as_i64().expect("number");
        let mut child = std::process::Command::new(std::env::current_exe().expect("this test binary"))
            .args([
                "faults::child_worker_ingesting_until_killed",
                "--exact",
                "--ignored",
                "--test-threads=1",
            ])
            .env("FOMENTO_CHILD_DB", &url)
            .env("FOMENTO_CHILD_STORE", &running.store)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("the child worker");
        // Once the child holds the claim, let it work a moment, then kill it outright.
        let report = || crate::acceptance::stored(&app, id);
        let waited = Instant::now();
        while report().await.claimed_by.is_none() {
            assert!(
                waited.elapsed() < Duration::from_secs(60),
                "the child never claimed the report"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        tokio::time::sleep(Duration::from_millis(400)).await;
        child.kill().expect("SIGKILL");
        let _ = child.wait();
        let killed = report().await;
        assert_ne!(
            killed.status, "INGESTED",
            "{backend:?}: the child finished before it was killed; the sheet must be larger for this test to mean anything"
        );
        // Another worker, after the dead one's lease: the report is ingested once.
        let later = chrono::Utc::now() + chrono::Duration::seconds(5);
        jobs::report::ingest::run_once(&app.runtime.ctx, later)
            .await
            .expect("ingest");
        let done = report().await;
        assert_eq!(done.status, "INGESTED", "{backend:?}: {:?}", done.last_error);
        assert_eq!(done.row_count, Some(ROWS as i32), "{backend:?}");
        let cartas = entity::fco_carta::Entity::find()
            .filter(entity::fco_carta::Column::Number.starts_with("KILL-"))
            .count(&app.db)
            .await
            .expect("count");
        assert_eq!(cartas, u64::from(ROWS), "{backend:?}: every carta once");
        // Run again: nothing left to claim, nothing duplicated.
        jobs::report::ingest::run_once(&app.runtime.ctx, later)
            .await
            .expect("ingest");
        let again = entity::fco_carta::Entity::find()
            .filter(entity::fco_carta::Column::Number.starts_with("KILL-"))
            .count(&app.db)
            .await
            .expect("count");
        assert_eq!(again, u64::from(ROWS));
        eprintln!(
            "fault test ({backend:?}): worker killed {:?} after its claim, status then {}; ingested once by another worker",
            Duration::from_millis(400),
            killed.status
        );
        running.stop().await;
        cleanup.run().await;
    }
}
